"""Compaction by prefix sums: the marked elements in order (numpy's mask), EREW, exact time."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import InputError, Machine
from pram.algorithms import compaction
from pram.algorithms.compaction import compact


def test_the_module_examples_run() -> None:
    """The docstrings' examples give what they print."""
    assert doctest.testmod(compaction).failed == 0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(-100, 100), st.integers(0, 3)), min_size=1, max_size=150))
def test_compact_keeps_the_marked_in_order(pairs: list[tuple[int, int]]) -> None:
    """The output is numpy's boolean selection of the values, with no EREW violation."""
    values = np.array([v for v, _ in pairs])
    marks = np.array([k for _, k in pairs])
    m = Machine("erew")
    assert compact(m, values, marks).tolist() == values[marks != 0].tolist()
    assert m.violations == []


@pytest.mark.parametrize("n", [64, 512, 4096])
def test_time_is_logarithmic_and_work_linear(n: int) -> None:
    """Time is 4 steps more than the prefix sum's 2 (K + D) and work stays under 8n."""
    m = Machine("erew")
    compact(m, np.arange(n), (np.arange(n) % 3 == 0).astype(np.int64))
    up = int(math.log2(n))
    down = sum(1 for d in range(up) if 3 * 2**d <= n)
    assert m.cost.time == 2 * (up + down) + 4
    assert m.cost.work < 8 * n


def test_marks_of_another_length_are_refused() -> None:
    """One mark per value, or an InputError naming both lengths."""
    with pytest.raises(InputError, match="got 3 values and 2 marks"):
        compact(Machine("erew"), [1, 2, 3], [1, 0])
