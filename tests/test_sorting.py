"""Batcher's networks and merges on the EREW machine: correct, exclusive, and exactly as costly as
their closed forms say."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Array, InputError, Machine, Words
from pram.algorithms.bits import BitKeys
from pram.algorithms.keys import WordKeys
from pram.algorithms.sorting import (
    NETWORKS,
    TIES,
    Network,
    Records,
    Ties,
    copy_records,
    merge_blocks,
    sort,
    sort_blocks,
)
from pram.laws.fitting import fit

KEYS = WordKeys()
CONVERT = (
    "make them integers explicitly, e.g. numpy.rint(x).astype(numpy.int64) for reals (a plain "
    "cast would truncate them)"
)
#: What one comparator level costs with word keys: one processor per comparator, two steps
#: (read both records, write both back).
STEPS_PER_LEVEL = 2
PROCESSORS_PER_COMPARATOR = 1
INT64_MAX = int(np.iinfo(np.int64).max)
INT64_MIN = int(np.iinfo(np.int64).min)


# ---- closed forms of Batcher's networks ------------------------------------------------------


def sort_depth(k: int) -> int:
    """Levels of either network sorting 2^k records."""
    return k * (k + 1) // 2


def sort_comparators(network: str, k: int) -> int:
    """Comparators of the network sorting 2^k records."""
    if network == "bitonic":
        return (1 << k) // 2 * sort_depth(k)
    return ((k * k - k + 4) << k) // 4 - 1


def merge_comparators(network: str, k: int) -> int:
    """Comparators merging two sorted runs of 2^(k-1) records (k levels)."""
    if network == "bitonic":
        return k << (k - 1)
    return ((k - 1) << (k - 1)) + 1


# ---- helpers --------------------------------------------------------------------------------


def records(
    m: Machine, keys: Words, index: Words, payload: Words | None = None
) -> tuple[Array, Array, Array | None]:
    """Key, index and payload arrays holding the given records."""
    pay = None if payload is None else m.array("payload", values=payload)
    return m.array("key", values=keys), m.array("index", values=index), pay


def order(keys: Words, index: Words, ties: str) -> Words:
    """The permutation sorting records by key, then by index under the tie rule (numpy)."""
    return np.lexsort((index if ties == "ascending" else -index, keys))


def blockwise_order(keys: Words, index: Words, size: int, ties: str) -> Words:
    """The permutation sorting every block of ``size`` records on its own (numpy)."""
    block = np.arange(len(keys)) // size
    return np.lexsort((index if ties == "ascending" else -index, keys, block))


def sorted_runs(keys: Words, index: Words, run: int, ties: str) -> tuple[Words, Words]:
    """Records with every run of ``run`` records sorted on its own."""
    p = blockwise_order(keys, index, run, ties)
    return keys[p], index[p]


# ---- correctness: the zero-one principle ----------------------------------------------------


@pytest.mark.parametrize("ties", TIES)
@pytest.mark.parametrize("network", NETWORKS)
def test_every_zero_one_input_up_to_16_is_sorted(network: Network, ties: Ties) -> None:
    """All 2^n inputs of 0s and 1s, for every n <= 16, sort in one run each (zero-one principle)."""
    for n in range(1, 17):
        size = 1 << (n - 1).bit_length()
        count = 1 << n
        bits = (np.arange(count)[:, None] >> np.arange(n)) & 1
        # padding records hold key 2 and lose every tie, so they stay behind the n real ones
        keys = np.concatenate([bits, np.full((count, size - n), 2)], axis=1).ravel()
        index = np.tile(np.arange(size), count)
        m = Machine("erew")
        key, idx, _ = records(m, keys, index)
        m.run(sort_blocks(m, KEYS, key, idx, size=size, blocks=count, network=network, ties=ties))
        expected = blockwise_order(keys, index, size, ties)
        assert np.array_equal(key.to_numpy(), keys[expected]), n
        assert np.array_equal(idx.to_numpy(), index[expected]), n
        assert m.violations == []


@pytest.mark.parametrize("ties", TIES)
@pytest.mark.parametrize("network", NETWORKS)
def test_every_zero_one_pair_of_sorted_runs_is_merged(network: Network, ties: Ties) -> None:
    """All pairs of sorted 0/1 runs of length up to 16 merge correctly, one run per length."""
    for k in range(1, 6):
        run = 1 << (k - 1)
        zeros = np.arange(run + 1)
        a, b = np.repeat(zeros, run + 1), np.tile(zeros, run + 1)
        position = np.arange(run)
        first = (position[None, :] >= a[:, None]).astype(np.int64)
        second = (position[None, :] >= b[:, None]).astype(np.int64)
        keys = np.concatenate([first, second], axis=1).ravel()
        blocks = len(a)
        index = np.arange(len(keys))
        keys, index = sorted_runs(keys, index, run, ties)
        m = Machine("erew")
        key, idx, _ = records(m, keys, index)
        m.run(merge_blocks(m, KEYS, key, idx, run=run, blocks=blocks, network=network, ties=ties))
        expected = blockwise_order(keys, index, 2 * run, ties)
        assert np.array_equal(key.to_numpy(), keys[expected]), run
        assert np.array_equal(idx.to_numpy(), index[expected]), run
        assert m.violations == []


# ---- correctness: random inputs -------------------------------------------------------------

VALUES = st.sampled_from([(0, 3), (-5, 5), (0, 1000), (INT64_MIN, INT64_MAX)])
#: What the random block tests draw besides their sizes: the network, the tie rule, the range
#: of the keys and the seed of the draw.
BLOCK_DRAWS: dict[str, st.SearchStrategy[Any]] = {
    "network": st.sampled_from(NETWORKS), "ties": st.sampled_from(TIES), "bounds": VALUES,
    "seed": st.integers(0, 2**32 - 1),
}


def assert_in_blockwise_order(
    m: Machine, arrays: tuple[Array, Array, Array | None], drawn: tuple[Words, Words, Any],
    block: int, ties: str,
) -> None:
    """The key, index and payload ``arrays`` hold the ``drawn`` records (keys, index, payload
    or None) sorted within each block of ``block`` by key, then by index under ``ties``, with no
    violation."""
    (key, idx, pay), (keys, index, payload) = arrays, drawn
    expected = blockwise_order(keys, index, block, ties)
    assert np.array_equal(key.to_numpy(), keys[expected])
    assert np.array_equal(idx.to_numpy(), index[expected])
    if payload is not None:
        assert pay is not None and np.array_equal(pay.to_numpy(), payload[expected])
    assert m.violations == []


@settings(max_examples=40, deadline=None)
@given(k=st.integers(0, 6), blocks=st.integers(1, 5), with_payload=st.booleans(), **BLOCK_DRAWS)
def test_sort_blocks_matches_lexsort(
    k: int,
    blocks: int,
    network: Network,
    ties: Ties,
    with_payload: bool,
    bounds: tuple[int, int],
    seed: int,
) -> None:
    """Random blocks with duplicate keys sort exactly as numpy's lexsort by (key, index rule)."""
    size = 1 << k
    rng = np.random.default_rng(seed)
    keys = rng.integers(bounds[0], bounds[1], size * blocks, endpoint=True)
    index = rng.permutation(size * blocks)
    payload = rng.integers(-100, 100, size * blocks) if with_payload else None
    m = Machine("erew")
    key, idx, pay = records(m, keys, index, payload)
    m.run(sort_blocks(m, KEYS, key, idx, pay, size=size, blocks=blocks, network=network, ties=ties))
    assert_in_blockwise_order(m, (key, idx, pay), (keys, index, payload), size, ties)


@settings(max_examples=40, deadline=None)
@given(k=st.integers(1, 7), blocks=st.integers(1, 6), **BLOCK_DRAWS)
def test_merge_blocks_matches_lexsort(
    k: int, blocks: int, network: Network, ties: Ties, bounds: tuple[int, int], seed: int
) -> None:
    """Pairs of sorted random runs, many blocks at once, merge into sorted blocks with payloads."""
    run = 1 << (k - 1)
    rng = np.random.default_rng(seed)
    keys = rng.integers(bounds[0], bounds[1], 2 * run * blocks, endpoint=True)
    index = rng.permutation(2 * run * blocks)
    keys, index = sorted_runs(keys, index, run, ties)
    payload = 7 * index + 1
    m = Machine("erew")
    key, idx, pay = records(m, keys, index, payload)
    m.run(merge_blocks(m, KEYS, key, idx, pay, run=run, blocks=blocks, network=network, ties=ties))
    assert_in_blockwise_order(m, (key, idx, pay), (keys, index, payload), 2 * run, ties)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.integers(INT64_MIN, INT64_MAX) | st.integers(-3, 3), min_size=1,
                    max_size=70),
    network=st.sampled_from(NETWORKS),
    ties=st.sampled_from(TIES),
)
def test_sort_of_any_length_matches_numpy(values: list[int], network: Network, ties: Ties) -> None:
    """sort() pads any n to a power of two and returns numpy's sort and lexsort permutation."""
    array = np.array(values, dtype=np.int64)
    m = Machine("erew")
    result = sort(m, array, network=network, ties=ties)
    n = len(values)
    assert np.array_equal(result.keys, np.sort(array))
    assert np.array_equal(result.permutation, order(array, np.arange(n), ties))
    assert result.size == 1 << (n - 1).bit_length()
    assert result.padding == result.size - n
    assert m.violations == []


@pytest.mark.parametrize("ties", TIES)
def test_padding_sorts_after_real_keys_equal_to_the_largest_word(ties: Ties) -> None:
    """Real keys equal to the largest int64 still come before every padding record."""
    values = [INT64_MAX, 5, INT64_MAX, INT64_MIN, INT64_MAX]
    m = Machine("erew")
    result = sort(m, values, network="odd-even", ties=ties)
    assert result.keys.tolist() == [INT64_MIN, 5, INT64_MAX, INT64_MAX, INT64_MAX]
    expected = [3, 1, 0, 2, 4] if ties == "ascending" else [3, 1, 4, 2, 0]
    assert result.permutation.tolist() == expected
    assert (result.padding, result.size) == (3, 8)


@pytest.mark.parametrize("network", NETWORKS)
def test_blocks_with_start_and_stride_leave_the_gaps_alone(network: Network) -> None:
    """Blocks placed at a stride sort in place and the records between them do not move."""
    rng = np.random.default_rng(5)
    keys = rng.integers(0, 9, 40)
    index = np.arange(40)
    m = Machine("erew")
    key, idx, _ = records(m, keys, index)
    m.run(sort_blocks(m, KEYS, key, idx, size=8, blocks=3, start=3, stride=12, network=network))
    want_keys, want_index = keys.copy(), index.copy()
    for b in range(3):
        cells = np.arange(3 + 12 * b, 11 + 12 * b)
        p = order(keys[cells], index[cells], "ascending")
        want_keys[cells], want_index[cells] = keys[cells][p], index[cells][p]
    assert np.array_equal(key.to_numpy(), want_keys)
    assert np.array_equal(idx.to_numpy(), want_index)
    assert m.violations == []


def test_copy_records_copies_a_level_in_two_steps() -> None:
    """copy_records moves every record in two steps, work four per record, exclusively."""
    m = Machine("erew")
    key, idx, pay = records(m, np.arange(10) * 3, np.arange(10)[::-1].copy(), np.arange(10) + 1)
    target = Records(m.array("k2", size=10), m.array("i2", size=10), m.array("p2", size=10))
    m.run(copy_records(m, KEYS, Records(key, idx, pay), target))
    assert target.key.to_numpy().tolist() == key.to_numpy().tolist()
    assert target.index.to_numpy().tolist() == idx.to_numpy().tolist()
    assert target.payload is not None and pay is not None
    assert target.payload.to_numpy().tolist() == pay.to_numpy().tolist()
    assert (m.cost.time, m.cost.work, m.cost.phases["copy"].time) == (2, 40, 2)
    assert m.violations == []


@pytest.mark.parametrize("comparator", ["serial", "tree"])
@pytest.mark.parametrize("network", NETWORKS)
def test_bit_keys_sort_and_merge_like_word_keys(network: Network, comparator: str) -> None:
    """Through the seam, d-bit keys give the same records as word keys, with no violation."""
    rng = np.random.default_rng(11)
    values = rng.integers(0, 16, 21)
    values[[2, 9]] = 15  # real keys equal to the largest 4-bit token, as the padding is
    for ties in TIES:
        m = Machine("erew")
        bits = sort(m, values, network=network, keys=BitKeys(4, comparator), ties=ties)
        words = sort(Machine("erew"), values, network=network, ties=ties)
        assert np.array_equal(bits.keys, words.keys)
        assert np.array_equal(bits.permutation, words.permutation)
        assert m.violations == []
    keys, index = sorted_runs(rng.integers(0, 8, 48), rng.permutation(48), 8, "descending")
    m = Machine("erew")
    bit_keys = BitKeys(3, comparator)
    key = bit_keys.store(m, "key", keys)
    idx = m.array("index", values=index)
    m.run(merge_blocks(m, bit_keys, key, idx, run=8, blocks=3, network=network, ties="descending"))
    expected = blockwise_order(keys, index, 16, "descending")
    assert np.array_equal(bit_keys.load(key), keys[expected])
    assert np.array_equal(idx.to_numpy(), index[expected])
    assert m.violations == []


# ---- cost: measured time and work equal the closed forms ------------------------------------


@pytest.mark.parametrize("network", NETWORKS)
@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6, 8])
def test_sort_time_and_work_equal_batchers_closed_forms(network: Network, k: int) -> None:
    """Time = depth x steps per level, work = comparators x processors x steps, for every block."""
    blocks = 3
    size = 1 << k
    m = Machine("erew")
    rng = np.random.default_rng(k)
    n = size * blocks
    key, idx, pay = records(
        m, rng.integers(0, 4, n), np.arange(n), np.zeros(n, dtype=np.int64)
    )
    m.run(sort_blocks(m, KEYS, key, idx, pay, size=size, blocks=blocks, network=network))
    assert m.cost.time == sort_depth(k) * STEPS_PER_LEVEL
    per_comparator = PROCESSORS_PER_COMPARATOR * STEPS_PER_LEVEL
    assert m.cost.work == blocks * sort_comparators(network, k) * per_comparator
    assert m.cost.max_processors == blocks * size // 2
    assert m.cost.phases["sort"].time == m.cost.time
    assert m.violations == []


@pytest.mark.parametrize("network", NETWORKS)
@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 7])
def test_merge_time_and_work_equal_the_closed_forms(network: Network, k: int) -> None:
    """Merging runs of 2^(k-1): k levels, and Batcher's comparator count for the network."""
    blocks = 5
    run = 1 << (k - 1)
    m = Machine("erew")
    n = 2 * run * blocks
    key, idx, _ = records(m, np.zeros(n, dtype=np.int64), np.arange(n))
    m.run(merge_blocks(m, KEYS, key, idx, run=run, blocks=blocks, network=network))
    assert m.cost.time == k * STEPS_PER_LEVEL
    per_comparator = PROCESSORS_PER_COMPARATOR * STEPS_PER_LEVEL
    assert m.cost.work == blocks * merge_comparators(network, k) * per_comparator
    assert m.cost.phases["merge"].work == m.cost.work
    assert m.violations == []


@pytest.mark.parametrize("network", NETWORKS)
def test_counted_work_does_not_depend_on_the_data(network: Network) -> None:
    """Sorted, reversed and random inputs cost the same: every comparator writes both records."""
    costs = []
    rng = np.random.default_rng(0)
    for keys in (np.arange(64), np.arange(64)[::-1].copy(), rng.integers(0, 5, 64)):
        m = Machine("erew")
        key, idx, _ = records(m, keys, np.arange(64))
        m.run(sort_blocks(m, KEYS, key, idx, size=64, network=network))
        costs.append(m.cost.as_dict())
    assert costs[0] == costs[1] == costs[2]


# ---- bad input ------------------------------------------------------------------------------


def error(message: str) -> str:
    """A pattern matching exactly ``message``."""
    return re.escape(message) + "$"


#: Malformed calls, each refused before any step runs: (records, the call on key, index and
#: a 7-cell array short, the refusal). Block sizes and runs must be powers of two; index or
#: payload arrays of another length than the keys, or too few records, are refused; only the
#: two networks and the two tie rules are accepted.
REFUSED: list[tuple[int, Callable[[Machine, Array, Array, Array], object], str]] = [
    (6, lambda m, key, idx, short: sort_blocks(m, KEYS, key, idx, size=3, blocks=2),
     "size must be a power of two (got 3); pad the blocks to a power of two or sort on the "
     "host with sort()"),
    (6, lambda m, key, idx, short: merge_blocks(m, KEYS, key, idx, run=3),
     "run must be a power of two (got 3); pad the runs to a power of two"),
    (8, lambda m, key, idx, short: sort_blocks(m, KEYS, key, short, size=8),
     "the key array 'key' holds 8 tokens but 'short' holds 7 cells; give every record one "
     "key, one index and one payload"),
    (8, lambda m, key, idx, short: merge_blocks(m, KEYS, key, idx, short, run=4),
     "the key array 'key' holds 8 tokens but 'short' holds 7 cells; give every record one "
     "key, one index and one payload"),
    (8, lambda m, key, idx, short: sort_blocks(m, KEYS, key, idx, size=4, blocks=3),
     "3 blocks of 4 records from record 0 with stride 4 need 12 records but the arrays hold "
     "8; allocate more or pass fewer blocks"),
    (8, lambda m, key, idx, short: sort_blocks(m, KEYS, key, idx, size=4, blocks=2, stride=2),
     "stride must be an integer of at least size = 4 so blocks do not overlap (got 2)"),
    (8, lambda m, key, idx, short: copy_records(
        m, KEYS, Records(key, idx), Records(m.array("k2", size=7), m.array("i2", size=7))),
     "target holds 7 records but source holds 8; allocate the target with as many records "
     "as the source"),
    (4, lambda m, key, idx, short: sort_blocks(
        m, KEYS, key, idx, size=4, network="shell"),  # type: ignore[arg-type]
     "network must be 'bitonic' or 'odd-even' (got 'shell')"),
    (4, lambda m, key, idx, short: merge_blocks(
        m, KEYS, key, idx, run=2, ties="random"),  # type: ignore[arg-type]
     "ties must be 'ascending' or 'descending' (got 'random')"),
]


@pytest.mark.parametrize(("n", "call", "refusal"), REFUSED)
def test_malformed_calls_are_refused_before_any_step(
    n: int, call: Callable[[Machine, Array, Array, Array], object], refusal: str
) -> None:
    """Each malformed call is refused with its one message, and no step has run."""
    m = Machine("erew")
    key, idx, _ = records(m, np.zeros(n, dtype=np.int64), np.arange(n))
    short = m.array("short", values=np.arange(7))
    with pytest.raises(InputError, match=error(refusal)):
        call(m, key, idx, short)
    assert m.cost.time == 0


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([1.5, 2.0], f"values must be integers (got dtype float64); {CONVERT}"),
        (["a", "b"], f"values must be integers (got dtype <U1); {CONVERT}"),
        ([True, False], f"values must be integers (got dtype bool); {CONVERT}"),
        ([], "values must hold at least one key (got an empty array)"),
        ([[1, 2], [3, 4]], "values must be one-dimensional (got shape (2, 2)); pass a flat array"),
        (
            np.array([2**63, 1], dtype=np.uint64),
            "values must fit in int64 (got 9223372036854775808); use values below 2**63",
        ),
    ],
)
def test_sort_refuses_values_that_are_not_int64_integers(values: object, message: str) -> None:
    """sort() names the bad values and the fix."""
    with pytest.raises(InputError, match=error(message)):
        sort(Machine("erew"), values)


@pytest.mark.parametrize("network", NETWORKS)
def test_the_exact_laws_of_a_sweep_predict_knuths_counts(network: Network) -> None:
    """Laws found on n = 2^2 .. 2^8 are exact, and at n = 2^16 give Knuth's depth and
    comparator counts times the steps and processors of a comparator."""
    sizes, times, works = [], [], []
    for k in range(2, 9):
        m = Machine("erew")
        sort(m, np.random.default_rng(k).integers(0, 1 << 16, 1 << k), network=network)
        sizes.append(1 << k)
        times.append(m.cost.time)
        works.append(m.cost.work)
    time_law, work_law = fit("time", "n", sizes, times), fit("work", "n", sizes, works)
    assert time_law.exact and work_law.exact
    assert time_law.predict(1 << 16) == sort_depth(16) * STEPS_PER_LEVEL
    per_comparator = PROCESSORS_PER_COMPARATOR * STEPS_PER_LEVEL
    assert work_law.predict(1 << 16) == sort_comparators(network, 16) * per_comparator


@pytest.mark.parametrize("network", ["merge-exchange", "best-known"])
@pytest.mark.parametrize("ties", ["ascending", "descending"])
def test_the_record_sort_takes_any_network_without_padding(network: str, ties: str) -> None:
    """Records (value, position) sorted by merge exchange or the best known network of 11
    keys, with repeated keys: numpy's stable order (ascending ties) or its mirror among equals
    (descending), no padding, two steps per level and two work per comparator."""
    from pram.algorithms import comparator_networks

    values = np.random.default_rng(11).integers(0, 4, 11)
    m = Machine("erew")
    result = sort(m, values, ties=ties,  # type: ignore[arg-type]
                  levels=lambda n: comparator_networks.levels(network, n))
    order = np.argsort(values, kind="stable")
    if ties == "descending":
        order = np.lexsort((-np.arange(11), values))
    assert result.permutation.tolist() == order.tolist()
    assert result.keys.tolist() == np.sort(values).tolist()
    assert (result.padding, result.size) == (0, 11)
    levels = comparator_networks.passes(network, 11)
    assert m.cost.time == 2 * len(levels)
    assert m.cost.work == 2 * sum(len(level) for level in levels)
    assert m.violations == []
