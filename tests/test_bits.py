"""Tests of d-bit tokens (algorithms/bits.py): the comparators against integer comparison, their
exact costs, copies, compare-exchanges, EREW exclusiveness and input validation."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Flags, InputError, Machine, Read, Values, Words, Write, parallel
from pram.algorithms.bits import COMPARATORS, BitKeys, bit_keys
from pram.algorithms.keys import WordKeys


def rounds(d: int) -> int:
    """ceil(log2 d): the rounds of a doubling broadcast or a reduction tree over d members."""
    return math.ceil(math.log2(d)) if d > 1 else 0


#: The stated cost of each operation: (time, work per token or pair), see the module doc.
def compare_cost(d: int, comparator: str) -> tuple[int, int]:
    return (d, d) if comparator == "serial" else (4 * rounds(d) + 1, 5 * d - 4)


def exchange_cost(d: int, comparator: str) -> tuple[int, int]:
    return (2 * d, 2 * d) if comparator == "serial" else (6 * rounds(d) + 2, 8 * d - 6)


def copy_cost(d: int) -> tuple[int, int]:
    return 2 * rounds(d) + 2, 4 * d - 2


def compare_all(
    keys: BitKeys, xs: Any, ys: Any, model: str = "erew"
) -> tuple[Flags, Flags, Machine]:
    """Compare ``xs[q]`` with ``ys[q]`` for every q in one batch, in one machine run."""
    m = Machine(model)
    a = keys.store(m, "a", xs)
    b = keys.store(m, "b", ys)
    n = len(xs)
    lt, eq = m.run(keys.compare(m, m.processors(n), a, np.arange(n), b, np.arange(n)))
    return lt, eq, m


def wide_tokens(*, min_size: int, max_size: int) -> st.SearchStrategy[tuple[int, list[int]]]:
    """A width d in 1..64 and tokens of d bits: (d, tokens)."""
    return st.integers(1, 64).flatmap(
        lambda d: st.tuples(
            st.just(d), st.lists(st.integers(0, (1 << d) - 1), min_size=min_size,
                                 max_size=max_size)
        )
    )


def exchange_pairs(m: Machine, keys: BitKeys, a: Any, c: int) -> Any:
    """``c`` processors each put tokens ``a[2k]`` and ``a[2k + 1]`` in order (exchanging
    where the first is larger)."""
    return keys.compare_exchange(
        m, m.processors(c), a, 2 * np.arange(c), 2 * np.arange(c) + 1,
        lambda lt, eq, extra: (~lt & ~eq, ()),
    )


@pytest.mark.parametrize("comparator", COMPARATORS)
@pytest.mark.parametrize("d", range(1, 9))
def test_comparators_agree_with_integers_on_all_pairs(d: int, comparator: str) -> None:
    """Both comparators order every pair of d-bit values as integers do, d = 1..8, exactly."""
    values = np.arange(1 << d, dtype=np.int64)
    xs, ys = np.repeat(values, 1 << d), np.tile(values, 1 << d)
    lt, eq, m = compare_all(BitKeys(d, comparator), xs, ys)
    assert np.array_equal(lt, xs < ys)
    assert np.array_equal(eq, xs == ys)
    assert m.violations == []
    time, work = compare_cost(d, comparator)
    assert (m.cost.time, m.cost.work) == (time, work * len(xs))


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 64).flatmap(
        lambda d: st.tuples(
            st.just(d),
            st.lists(
                st.tuples(st.integers(0, (1 << d) - 1), st.integers(0, (1 << d) - 1)),
                min_size=1,
                max_size=12,
            ),
        )
    ),
    st.sampled_from(COMPARATORS),
)
def test_comparators_agree_with_python_ints_up_to_64_bits(
    case: tuple[int, list[tuple[int, int]]], comparator: str
) -> None:
    """On random values up to d = 64 (Python ints), the comparators agree with < and ==."""
    d, pairs = case
    # Half the pairs share a long common prefix, so the deciding bit is deep.
    pairs += [(x, x ^ (1 << (k % d))) for k, (x, _) in enumerate(pairs)]
    xs = [x for x, _ in pairs]
    ys = [y for _, y in pairs]
    lt, eq, m = compare_all(BitKeys(d, comparator), xs, ys)
    assert lt.tolist() == [x < y for x, y in pairs]
    assert eq.tolist() == [x == y for x, y in pairs]
    assert m.violations == []


@pytest.mark.parametrize("comparator", COMPARATORS)
@pytest.mark.parametrize("d", [1, 2, 3, 5, 8, 13, 16, 32, 33, 64])
def test_costs_are_exactly_as_stated(d: int, comparator: str) -> None:
    """compare, compare_exchange and copy take exactly the stated time and work, for many d."""
    rng = np.random.default_rng(d)
    c = 7
    tokens = rng.integers(0, 1 << min(d, 62), size=2 * c)
    keys = BitKeys(d, comparator)

    _, _, m = compare_all(keys, tokens[:c], tokens[c:])
    assert m.cost.max_processors == (c if comparator == "serial" else c * d)
    assert (m.cost.time, m.cost.work) == tuple(
        x * y for x, y in zip((1, c), compare_cost(d, comparator), strict=True)
    )

    m = Machine("erew")
    a = keys.store(m, "a", tokens)
    m.run(exchange_pairs(m, keys, a, c))
    time, work = exchange_cost(d, comparator)
    assert (m.cost.time, m.cost.work) == (time, work * c)

    m = Machine("erew")
    a = keys.store(m, "a", tokens)
    b = keys.allocate(m, "b", 2 * c)
    m.run(keys.copy(m, m.processors(2 * c), a, np.arange(2 * c), b, np.arange(2 * c)))
    time, work = copy_cost(d)
    assert (m.cost.time, m.cost.work) == (time, work * 2 * c)
    assert m.violations == []


def test_serial_costs_grow_like_d_and_tree_time_like_log_d() -> None:
    """Spec section 5: serial work and time O(d); tree work O(d) and time O(log d)."""
    for comparator in COMPARATORS:
        ratios = []
        for d in (4, 8, 16, 32, 64):
            _, _, m = compare_all(BitKeys(d, comparator), [0] * 5, [1] * 5)
            ratios.append(
                (
                    m.cost.work / (5 * d),
                    m.cost.time / (d if comparator == "serial" else math.log2(d)),
                )
            )
        assert all(w <= 5 for w, _ in ratios)
        assert all(t <= 5 for _, t in ratios)
        if comparator == "tree":
            assert ratios[-1][1] * 64 / 6 > 8 * ratios[0][1]  # beats d by far at d = 64


def test_width_one_costs_what_word_keys_cost() -> None:
    """With d = 1 every operation costs exactly what WordKeys costs."""
    for comparator in COMPARATORS:
        costs = []
        for keys in (BitKeys(1, comparator), WordKeys()):
            m = Machine("erew")
            a = keys.store(m, "a", np.array([1, 0, 1, 1]))
            b = keys.allocate(m, "b", 4)
            pid = m.processors(2)
            m.run(keys.compare(m, pid, a, np.array([0, 2]), a, np.array([1, 3])))
            m.run(keys.copy(m, pid, a, np.array([0, 1]), b, np.array([2, 3])))
            m.run(
                keys.compare_exchange(
                    m, pid, a, np.array([0, 2]), np.array([1, 3]), lambda lt, eq, extra: (lt, ())
                )
            )
            costs.append((m.cost.time, m.cost.work))
        assert costs[0] == costs[1]


# ---- copy and compare_exchange ---------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    wide_tokens(min_size=1, max_size=20),
    st.sampled_from(COMPARATORS),
    st.randoms(use_true_random=False),
)
def test_copy_moves_tokens_exactly(case: tuple[int, list[int]], comparator: str, rnd: Any) -> None:
    """copy moves every token to its place (a random permutation), bit for bit, under EREW."""
    d, tokens = case
    keys = BitKeys(d, comparator)
    n = len(tokens)
    where = list(range(n))
    rnd.shuffle(where)
    m = Machine("erew")
    a = keys.store(m, "a", tokens)
    b = keys.allocate(m, "b", n)
    m.run(keys.copy(m, m.processors(n), a, np.arange(n), b, np.array(where)))
    moved = [0] * n
    for t, w in enumerate(where):
        moved[w] = tokens[t]
    assert [int(v) for v in keys.load(b)] == moved
    assert [int(v) for v in keys.load(a)] == tokens
    assert m.violations == []
    assert m.undefined_reads == []


@pytest.mark.parametrize("comparator", COMPARATORS)
@pytest.mark.parametrize("d", [1, 3, 5])
def test_compare_exchange_agrees_with_word_keys_on_all_pairs(d: int, comparator: str) -> None:
    """compare_exchange with bit keys leaves the same tokens and word writes as with words.

    Every pair of d-bit values is one comparator; decide orders pairs by (token, index word)
    with the index read alongside, exchanging the index words with the tokens.
    """
    values = np.arange(1 << d, dtype=np.int64)
    xs, ys = np.repeat(values, 1 << d), np.tile(values, 1 << d)
    n = len(xs)
    tokens = np.empty(2 * n, dtype=np.int64)
    tokens[0::2], tokens[1::2] = xs, ys
    labels = np.arange(2 * n)[::-1].copy()
    results = []
    for keys in (BitKeys(d, comparator), WordKeys()):
        m = Machine("erew")
        a = keys.store(m, "a", tokens)
        tag = m.array("tag", values=labels)
        i, j = 2 * np.arange(n), 2 * np.arange(n) + 1

        def decide(
            lt: Flags, eq: Flags, extra: Values, i: Words = i, j: Words = j, tag: Any = tag
        ) -> tuple[Flags, list[Write]]:
            ti, tj = extra
            swap = ~lt & (~eq | (ti > tj))
            return swap, [
                Write(tag, i, np.where(swap, tj, ti)),
                Write(tag, j, np.where(swap, ti, tj)),
            ]

        m.run(
            keys.compare_exchange(m, m.processors(n), a, i, j, decide, (Read(tag, i), Read(tag, j)))
        )
        assert m.violations == []
        results.append((keys.load(a).tolist(), tag.to_numpy().tolist()))
    assert results[0] == results[1]
    low = results[0][0][0::2]
    assert low == np.minimum(xs, ys).tolist()


@settings(max_examples=30, deadline=None)
@given(
    wide_tokens(min_size=2, max_size=16),
    st.sampled_from(COMPARATORS),
)
def test_compare_exchange_sorts_pairs_up_to_64_bits(
    case: tuple[int, list[int]], comparator: str
) -> None:
    """Exchanging where a[i] > a[j] puts every pair in order, for random values up to 64 bits."""
    d, tokens = case
    tokens = tokens[: len(tokens) // 2 * 2]
    keys = BitKeys(d, comparator)
    m = Machine("erew")
    a = keys.store(m, "a", tokens)
    c = len(tokens) // 2
    m.run(exchange_pairs(m, keys, a, c))
    expect = []
    for k in range(c):
        expect += sorted(tokens[2 * k : 2 * k + 2])
    assert [int(v) for v in keys.load(a)] == expect
    assert m.violations == []


# ---- exclusiveness, composition and memory -----------------------------------------------------


@pytest.mark.parametrize("comparator", COMPARATORS)
def test_comparing_one_token_twice_at_once_is_flagged_under_erew(comparator: str) -> None:
    """Bit cells are real cells: two comparisons reading one token at once clash under EREW."""
    keys = BitKeys(8, comparator)
    m = Machine("erew")
    a = keys.store(m, "a", [3, 4, 5])
    m.run(keys.compare(m, m.processors(2), a, np.array([0, 0]), a, np.array([1, 2])))
    assert m.violations
    assert {v.array for v in m.violations} == {"a"}
    assert {v.index for v in m.violations} <= set(range(8))
    crew = Machine("crew")
    a = keys.store(crew, "a", [3, 4, 5])
    lt, _ = crew.run(
        keys.compare(crew, crew.processors(2), a, np.array([0, 0]), a, np.array([1, 2]))
    )
    assert crew.violations == [] and lt.tolist() == [True, True]


@pytest.mark.parametrize("comparator", COMPARATORS)
def test_parallel_branches_use_distinct_scratch_cells(comparator: str) -> None:
    """Comparisons and copies running side by side share global steps without any clash."""
    keys = BitKeys(16, comparator)
    m = Machine("erew")
    a = keys.store(m, "a", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    b = keys.allocate(m, "b", 2)
    p = [m.processors(2) for _ in range(3)]
    first, second, _ = m.run(
        parallel(
            keys.compare(m, p[0], a, np.array([0, 1]), a, np.array([2, 3])),
            keys.compare(m, p[1], a, np.array([5, 4]), a, np.array([6, 7])),
            keys.copy(m, p[2], a, np.array([8, 9]), b, np.array([1, 0])),
        )
    )
    assert m.violations == []
    assert first[0].tolist() == [True, True] and second[0].tolist() == [True, True]
    assert keys.load(b).tolist() == [10, 9]


def test_scratch_cells_are_reused_by_later_operations() -> None:
    """Scratch memory tracks the peak demand, not the number of operations."""
    keys = BitKeys(8, "tree")
    m = Machine("erew")
    a = keys.store(m, "a", list(range(8)))
    pid = m.processors(4)
    m.run(keys.compare(m, pid, a, np.arange(4), a, np.arange(4) + 4))
    cells = m.cost.memory_cells
    for _ in range(5):
        m.run(keys.compare(m, pid, a, np.arange(4), a, np.arange(4) + 4))
        m.run(keys.copy(m, pid, a, np.arange(4), a, np.arange(4) + 4))
    assert m.cost.memory_cells == cells
    assert m.violations == []


# ---- representation and validation --------------------------------------------------------------


def test_tokens_are_stored_most_significant_bit_first() -> None:
    """Token t occupies cells [t d, (t+1) d), most significant bit first."""
    m = Machine()
    a = BitKeys(4).store(m, "a", [5, 12])
    assert a.to_numpy().tolist() == [0, 1, 0, 1, 1, 1, 0, 0]


def test_sixty_four_bit_tokens_round_trip_as_uint64() -> None:
    """d = 64 accepts Python ints and uint64 up to 2**64 - 1 and loads them back as uint64."""
    keys = bit_keys(64, "tree")
    tokens = [0, 1, 2**63, 2**64 - 1, 2**63 - 1]
    m = Machine()
    for n, given_tokens in enumerate((tokens, np.array(tokens, dtype=np.uint64))):
        out = keys.load(keys.store(m, f"a{n}", given_tokens))
        assert out.dtype == np.uint64
        assert [int(v) for v in out] == tokens
    assert keys.largest == 2**63 - 1 and BitKeys(5).largest == 31
    assert BitKeys(8).load(BitKeys(8).store(m, "b", [255])).dtype == np.int64


UINT64 = (
    "make them integers explicitly, e.g. numpy.rint(x).astype(numpy.uint64) for reals (a plain "
    "cast would truncate them)"
)


def message(text: str) -> str:
    return re.escape(text) + "$"


@pytest.mark.parametrize(
    ("d", "tokens", "text"),
    [
        (8, [1, 300, 2], "token 300 needs 9 bits but d = 8; pass --d 9 or more"),
        (1, [0, 2], "token 2 needs 2 bits but d = 1; pass --d 2 or more"),
        (
            64,
            [2**64],
            "token 18446744073709551616 needs 65 bits but d = 64; tokens must fit in 64 bits",
        ),
        (8, [3, -1], "token -1 is negative; tokens must be non-negative integers"),
        (8, [[1, 2]], "tokens must be one-dimensional (got shape (1, 2)); pass a flat array"),
        (8, [1.5], f"tokens must be integers (got 1.5); {UINT64}"),
        (8, np.array([1.5]), f"tokens must be integers (got dtype float64); {UINT64}"),
        (8, [True], f"tokens must be integers (got True); {UINT64}"),
        (8, np.array([True]), f"tokens must be integers (got dtype bool); {UINT64}"),
    ],
)
def test_bad_tokens_are_refused_by_name(d: int, tokens: Any, text: str) -> None:
    """store refuses tokens that do not fit d bits, naming the token, d and the fix."""
    with pytest.raises(InputError, match=message(text)):
        BitKeys(d).store(Machine(), "a", tokens)


@pytest.mark.parametrize("d", [0, 65, -3, 2.0, True, "8"])
def test_bad_widths_are_refused(d: Any) -> None:
    """d must be an integer from 1 to 64."""
    with pytest.raises(InputError, match=message(f"d must be an integer from 1 to 64 (got {d!r})")):
        BitKeys(d)


def test_bad_comparator_is_refused() -> None:
    with pytest.raises(
        InputError, match=message("comparator must be one of 'serial', 'tree' (got 'fast')")
    ):
        BitKeys(8, "fast")


def test_allocate_and_load_check_their_sizes() -> None:
    m = Machine()
    with pytest.raises(
        InputError, match=message("number of tokens must be a non-negative integer (got -1)")
    ):
        BitKeys(8).allocate(m, "a", -1)
    b = m.array("b", values=np.zeros(12, dtype=np.int64))
    with pytest.raises(
        InputError,
        match=message(
            "array 'b' has 12 cells, not a whole number of 8-bit tokens; "
            "load it with the BitKeys that stored it"
        ),
    ):
        BitKeys(8).load(b)
