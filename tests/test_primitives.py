"""The EREW primitives: results against numpy, counts against hand-derived numbers."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import AddressError, InputError, Machine
from pram.algorithms.primitives import broadcast, broadcast_blocks, prefix_sums, prefix_sums_blocks

# Broadcast of one value to L cells. Hand derivation (see broadcast_blocks): step 1 reads
# offset 0; step t >= 2 (h = 2^(t-2)) writes offsets [h, 2h) and lets processors [h, 2h) that
# will write later read. L = 4: step 1 p0 reads; step 2 p0 writes 1, p1 reads 0; step 3 p0
# writes 2, p1 writes 3: time 3, profile [1, 2, 2], work 5, reads 2, writes 3.
# L = 5 adds step 4 (p0 writes 4): profile [1, 2, 2, 1]. L = 8: step 3 also has p2, p3 read
# offsets 0, 1; step 4 p0..p3 write 4..7: profile [1, 2, 4, 4].
#        L: (time, work, reads, writes, profile)
BROADCAST = {
    1: (0, 0, 0, 0, []),
    2: (2, 2, 1, 1, [1, 1]),
    3: (3, 3, 1, 2, [1, 1, 1]),
    4: (3, 5, 2, 3, [1, 2, 2]),
    5: (4, 6, 2, 4, [1, 2, 2, 1]),
    8: (4, 11, 4, 7, [1, 2, 4, 4]),
    9: (5, 12, 4, 8, [1, 2, 4, 4, 1]),
    16: (5, 23, 8, 15, [1, 2, 4, 8, 8]),
}

# Brent-Kung prefix sums of n cells; every combine is a read step and a write step of one
# processor (2 reads, 1 write, work 2). n = 4: up-sweep combines (0,1) (2,3) then (1,3); the
# down-sweep combines (1,2): 4 combines in 3 levels, time 6, work 8. n = 8: up-sweep 4 + 2 + 1,
# down-sweep (3,5) then (1,2) (3,4) (5,6): 11 combines in 5 levels, time 10, work 22.
#        n: (time, combines)
PREFIX = {1: (0, 0), 2: (2, 1), 3: (4, 2), 4: (6, 4), 5: (6, 5), 8: (10, 11), 16: (14, 26)}


@pytest.mark.parametrize("length", sorted(BROADCAST))
def test_broadcast_counts_match_hand_derivation(length: int) -> None:
    """Broadcast to L cells costs exactly the hand-derived time, work, reads and writes."""
    m = Machine("erew")
    a = m.array("a", values=np.array([42] + [0] * (length - 1)))
    m.run(broadcast(m, a, length))
    assert a.to_numpy().tolist() == [42] * length
    time, work, reads, writes, profile = BROADCAST[length]
    assert (m.cost.time, m.cost.work, m.cost.reads, m.cost.writes) == (time, work, reads, writes)
    assert m.cost.profile == profile
    assert m.violations == []


@st.composite
def laid_out_blocks(
    draw: st.DrawFn, *, max_size: int, max_blocks: int, max_gap: int, spread: int
) -> tuple[int, np.ndarray, np.ndarray]:
    """Blocks of ``size`` cells, one every ``size + gap`` cells, over values in
    [-spread, spread]: (size, the blocks' starts, the values)."""
    size = draw(st.integers(min_value=0, max_value=max_size), label="size")
    blocks = draw(st.integers(min_value=1, max_value=max_blocks), label="blocks")
    gap = draw(st.integers(min_value=0, max_value=max_gap), label="gap")
    cells = blocks * (size + gap)
    values = draw(st.lists(st.integers(-spread, spread), min_size=cells, max_size=cells))
    return size, np.arange(blocks, dtype=np.int64) * (size + gap), np.array(values)


def test_broadcast_time_is_one_more_than_the_doublings() -> None:
    """For every L from 2 to 70 the time is ceil(log2 L) + 1 steps and the writes L - 1."""
    for length in range(2, 71):
        m = Machine("erew")
        a = m.array("a", values=np.array([5] + [0] * (length - 1)))
        m.run(broadcast(m, a, length))
        assert m.cost.time == (length - 1).bit_length() + 1
        assert m.cost.writes == length - 1
        assert a.to_numpy().tolist() == [5] * length
        assert m.violations == []


def test_broadcast_leaves_cells_outside_the_range_alone() -> None:
    """Broadcast from a start offset touches only [start, start + size)."""
    m = Machine("erew")
    a = m.array("a", values=np.array([1, 2, 3, 9, 0, 0, 0, 4]))
    m.run(broadcast(m, a, 4, start=3))
    assert a.to_numpy().tolist() == [1, 2, 3, 9, 9, 9, 9, 4]


@settings(max_examples=30, deadline=None)
@given(data=st.data(), laid_out=laid_out_blocks(max_size=12, max_blocks=5, max_gap=3, spread=50))
def test_broadcast_blocks_fill_every_block(
    data: st.DataObject, laid_out: tuple[int, np.ndarray, np.ndarray]
) -> None:
    """Blocks of different lengths are filled in the same steps as the longest alone."""
    size, starts, values = laid_out
    blocks = len(starts)
    lengths = np.array(
        data.draw(st.lists(st.integers(0, size), min_size=blocks, max_size=blocks)), np.int64
    )
    m = Machine("erew")
    a = m.array("a", values=values)
    m.run(broadcast_blocks(m, a, starts, size, lengths))
    expected = values.copy()
    for start, length in zip(starts.tolist(), lengths.tolist(), strict=True):
        expected[start : start + length] = values[start] if length else expected[start:start]
    assert a.to_numpy().tolist() == expected.tolist()
    assert m.violations == []
    alone = Machine("erew")
    b = alone.array("b", values=np.zeros(size + 1, dtype=np.int64))
    alone.run(broadcast(alone, b, size))
    assert m.cost.time == alone.cost.time


@pytest.mark.parametrize("n", sorted(PREFIX))
def test_prefix_sums_counts_match_hand_derivation(n: int) -> None:
    """Prefix sums of n cells cost exactly the hand-derived time and combines."""
    m = Machine("erew")
    values = np.arange(1, n + 1, dtype=np.int64)
    a = m.array("a", values=values)
    m.run(prefix_sums(m, a, n))
    time, combines = PREFIX[n]
    assert a.to_numpy().tolist() == np.cumsum(values).tolist()
    assert m.cost.time == time
    assert (m.cost.work, m.cost.reads, m.cost.writes) == (2 * combines, 2 * combines, combines)
    assert m.violations == []


def test_prefix_sums_of_a_power_of_two_take_2n_minus_log_minus_2_combines() -> None:
    """For n = 2^k the combines are 2n - k - 2 and the time 2 (k + k - 1) steps."""
    for k in range(1, 9):
        n = 1 << k
        m = Machine("erew")
        a = m.array("a", values=np.ones(n, dtype=np.int64))
        m.run(prefix_sums(m, a, n))
        assert m.cost.writes == 2 * n - k - 2
        assert m.cost.time == 2 * (2 * k - 1)
        assert a.to_numpy().tolist() == list(range(1, n + 1))


@settings(max_examples=40, deadline=None)
@given(
    values=st.lists(st.integers(min_value=-(10**6), max_value=10**6), max_size=70),
    inclusive=st.booleans(),
)
def test_prefix_sums_agree_with_numpy(values: list[int], inclusive: bool) -> None:
    """Inclusive and exclusive prefix sums equal numpy's cumsum, with no EREW violation."""
    m = Machine("erew")
    a = m.array("a", values=np.array(values, dtype=np.int64))
    m.run(prefix_sums(m, a, len(values), inclusive=inclusive))
    sums = np.cumsum(np.array(values, dtype=np.int64))
    expected = sums if inclusive else np.concatenate([[0], sums[:-1]])[: len(values)]
    assert a.to_numpy().tolist() == expected.tolist()
    assert m.violations == []


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_exclusive_prefix_sums_cost_one_shift_more(n: int) -> None:
    """The exclusive form adds 2 steps and 2n - 1 work (1 step and 1 work for n = 1)."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(n, dtype=np.int64))
    m.run(prefix_sums(m, a, n, inclusive=False))
    time, combines = PREFIX[n]
    assert m.cost.time == time + (2 if n > 1 else 1)
    assert m.cost.work == 2 * combines + 2 * n - 1


@settings(max_examples=30, deadline=None)
@given(laid_out=laid_out_blocks(max_size=17, max_blocks=6, max_gap=2, spread=99))
def test_blocked_prefix_sums_agree_with_numpy(laid_out: tuple[int, np.ndarray, np.ndarray]) -> None:
    """Every block gets its own prefix sums, in the steps of one block alone."""
    size, starts, values = laid_out
    blocks = len(starts)
    m = Machine("erew")
    a = m.array("a", values=values)
    m.run(prefix_sums_blocks(m, a, starts, size))
    expected = values.copy()
    for start in starts.tolist():
        expected[start : start + size] = np.cumsum(values[start : start + size])
    assert a.to_numpy().tolist() == expected.tolist()
    assert m.violations == []
    if size in PREFIX:
        assert m.cost.time == PREFIX[size][0]
        assert m.cost.work == blocks * 2 * PREFIX[size][1]


def test_blocks_that_do_not_fit_are_refused_by_the_machine() -> None:
    """A block reaching past the array's end stops at its first access outside, named."""
    m = Machine("erew")
    a = m.array("a", size=10)
    message = "processor 3 tried to read a[10] in step 1, but a has indices 0 to 9"
    with pytest.raises(AddressError, match=re.escape(message) + "$"):
        m.run(prefix_sums_blocks(m, a, [0, 8], 4))


def test_negative_size_is_refused() -> None:
    """A negative size is refused at the call, before any step."""
    m = Machine("erew")
    a = m.array("a", size=4)
    message = "size must be a non-negative integer (got -1)"
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        broadcast(m, a, -1)


def test_bad_lengths_are_refused() -> None:
    """Block lengths that are not one integer per block are refused."""
    m = Machine("erew")
    a = m.array("a", size=8)
    message = "lengths must hold one length per block (got 1 lengths for 2 blocks); pass 2 lengths"
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        broadcast_blocks(m, a, [0, 4], 4, [4])  # type: ignore[arg-type]


def test_bad_starts_are_refused() -> None:
    """Block starts that are not a flat array of integers are refused before any step."""
    m = Machine("erew")
    a = m.array("a", size=8)
    message = (
        "starts must be integers (got dtype float64); make them integers explicitly, e.g. "
        "numpy.rint(x).astype(numpy.int64) for reals (a plain cast would truncate them)"
    )
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        broadcast_blocks(m, a, [0.0, 4.0], 4)  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    size=st.integers(min_value=0, max_value=17),
    blocks=st.integers(min_value=1, max_value=5),
    inclusive=st.booleans(),
)
def test_segmented_prefix_sums_agree_with_numpy(
    data: st.DataObject, size: int, blocks: int, inclusive: bool
) -> None:
    """Blocks of their own lengths get their own prefix sums; cells past a length stay."""
    cells = blocks * size
    values = np.array(data.draw(st.lists(st.integers(-99, 99), min_size=cells, max_size=cells)))
    lengths = np.array(
        data.draw(st.lists(st.integers(0, size), min_size=blocks, max_size=blocks)), np.int64
    )
    starts = np.arange(blocks, dtype=np.int64) * size
    m = Machine("erew")
    a = m.array("a", values=values)
    m.run(prefix_sums_blocks(m, a, starts, size, lengths, inclusive=inclusive))
    expected = values.copy()
    for start, length in zip(starts.tolist(), lengths.tolist(), strict=True):
        sums = np.cumsum(values[start : start + length])
        if not inclusive:
            sums = np.concatenate([[0], sums[:-1]])[:length]
        expected[start : start + length] = sums
    assert a.to_numpy().tolist() == expected.tolist()
    assert m.violations == []
    if size in PREFIX and inclusive:
        assert m.cost.time == PREFIX[size][0]
