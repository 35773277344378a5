"""Selection by radix counting: sorted()[k] and np.partition's, EREW, O(d log n) time and
O(n d) work."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import InputError, Machine
from pram.algorithms import selection
from pram.algorithms.selection import select


def test_the_module_examples_run() -> None:
    """The docstrings' examples give what they print."""
    assert doctest.testmod(selection).failed == 0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-(2**30), 2**30), min_size=1, max_size=120), st.data())
def test_the_kth_smallest_is_sorteds(values: list[int], data: st.DataObject) -> None:
    """The answer is sorted(values)[k], with no EREW violation."""
    k = data.draw(st.integers(0, len(values) - 1))
    m = Machine("erew")
    assert select(m, np.array(values), k) == sorted(values)[k]
    assert m.violations == []


def test_the_median_is_np_partitions() -> None:
    """On seeded arrays with many repeats, every rank agrees with np.partition."""
    for seed in range(3):
        values = np.random.default_rng(seed).integers(-8, 8, 37)
        m = Machine("erew")
        for k in (0, 18, 36):
            assert select(m, values, k) == np.partition(values, k)[k]
        assert m.violations == []


def test_time_and_work_follow_the_bits_and_n() -> None:
    """With d = 16: time is d (b + 3 ceil(log2 B) + 4) + 1, so time / (d log2 n) stays under 4
    (3.38 to 3.59 from n = 2^8 to 2^12); work / (n d) stays under 1.7 and does not grow."""
    time_ratio, work_ratio = [], []
    for n in (2**8, 2**10, 2**12):
        m = Machine("erew")
        select(m, np.random.default_rng(n).integers(0, 2**15, n), n // 2, bits=16)
        block = math.ceil(math.log2(n))
        blocks = -(-n // block)
        assert m.cost.time == 16 * (block + 3 * math.ceil(math.log2(blocks)) + 4) + 1
        time_ratio.append(m.cost.time / (16 * math.log2(n)))
        work_ratio.append(m.cost.work / (16 * n))
    assert max(time_ratio) < 4
    assert max(work_ratio) < 1.7 and work_ratio[-1] <= work_ratio[0]


def test_values_wider_than_the_bits_are_refused() -> None:
    """A value outside the d bits is named, with the width that would do."""
    with pytest.raises(InputError, match=r"values\[1\] = 300 does not fit in 8 bits; raise "
                       "bits to at least 10"):
        select(Machine("erew"), [1, 300], 0, bits=8)
