"""Algorithm 11 (parallel MQAR over dyadic intervals): equal to Algorithm 9, EREW, its bounds."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Cost, InputError, Machine
from pram.algorithms.bits import BitKeys
from pram.algorithms.keys import Keys
from pram.algorithms.mqar import (
    STRATEGIES,
    Recall,
    check_bounds,
    layout,
    random_tokens,
    recall,
    sweep,
)
from pram.algorithms.oracle import brute_force, brute_force_indices
from pram.algorithms.sequential import recall as sequential_recall
from pram.laws.bounds import combined


def whole_triples(tokens: Any) -> np.ndarray:
    """The tokens of the whole triples (a trailing partial triple has no query)."""
    u = np.asarray(tokens, dtype=np.int64)
    return u[: 3 * (len(u) // 3)]


def run(tokens: Any, sort: str = "merge-tree", keys: Keys | None = None) -> Recall:
    """Algorithm 11 on a fresh EREW machine; asserts the run is legal EREW."""
    m = Machine("erew")
    result = recall(m, tokens, sort=sort, keys=keys)  # type: ignore[arg-type]
    assert m.violations == []
    assert m.undefined_reads == []
    return result


def assert_indices(result: Recall, tokens: Any) -> None:
    """Each query's matched index is the brute-force latest earlier key (-1 for none), and its
    answer is that key's value: line 17 retrieves the key, its value comes with it."""
    u = whole_triples(tokens)
    expected = brute_force_indices(u)
    assert result.indices.tolist() == expected.tolist()
    values = np.append(u[1::3], -1)  # position N/3 stands for "no match"
    matched = values[np.where(expected >= 0, expected, len(u) // 3)]
    assert result.answers.tolist() == matched.tolist()


def assert_brute_force_on_tiny_inputs(
    run: Callable[[np.ndarray], Recall], sizes: Sequence[tuple[int, int]]
) -> None:
    """``run``'s answers and matched indices are the brute-force oracle's on every choice of
    keys and queries for each (N/3, vocabulary) of ``sizes``, with distinct values so each
    answer names its key."""
    for triples, vocabulary in sizes:
        values = [100 + j for j in range(triples)]
        for keys in itertools.product(range(vocabulary), repeat=triples):
            for queries in itertools.product(range(vocabulary), repeat=triples):
                u = np.array([keys, values, queries], dtype=np.int64).T.reshape(-1)
                result = run(u)
                assert result.answers.tolist() == brute_force(u).tolist(), u
                assert result.indices.tolist() == brute_force_indices(u).tolist(), u


def assert_latest_earlier_key_wins(run: Callable[[list[int]], Recall]) -> None:
    """Ties go to the latest earlier key; query i never sees k_i; no match is -1."""
    u = [7, 70, 9, 7, 71, 7, 7, 72, 7, 5, 50, 5, 3, 30, 7, 8, 80, 8]
    result = run(u)
    assert result.answers.tolist() == [-1, 70, 71, -1, 72, -1]
    assert result.indices.tolist() == [-1, 0, 1, -1, 2, -1]


@st.composite
def mqar_inputs(draw: st.DrawFn) -> np.ndarray:
    """Token sequences of any length >= 3 (N/3 = 1, 2, 3, odd sizes, partial triples), keys
    and queries from small or large vocabularies, values distinct or repeated."""
    n = draw(st.integers(min_value=3, max_value=150), label="N")
    triples = -(-n // 3)
    vocabulary = draw(st.sampled_from([1, 2, 3, 8, 10**6]), label="vocabulary")
    token = st.integers(min_value=0, max_value=vocabulary - 1)
    keys = draw(st.lists(token, min_size=triples, max_size=triples), label="keys")
    queries = draw(st.lists(token, min_size=triples, max_size=triples), label="queries")
    if draw(st.booleans(), label="distinct values"):
        values = [1000 + j for j in range(triples)]
    else:
        values = draw(
            st.lists(st.integers(min_value=0, max_value=5), min_size=triples, max_size=triples)
        )
    u = np.array([keys, values, queries], dtype=np.int64).T.reshape(-1)
    return u[:n]


# ---- answers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("sort", STRATEGIES)
@settings(max_examples=120, deadline=None)
@given(tokens=mqar_inputs())
def test_recall_equals_algorithm_9_on_random_inputs(sort: str, tokens: np.ndarray) -> None:
    """Repeated keys, unmatched queries, any size: the answers of Algorithm 9, on EREW."""
    expected = sequential_recall(whole_triples(tokens)).answers
    result = run(tokens, sort)
    assert result.answers.tolist() == expected.tolist()
    assert_indices(result, tokens)


@pytest.mark.parametrize("sort", STRATEGIES)
def test_recall_equals_brute_force_on_all_tiny_inputs(sort: str) -> None:
    """Every choice of keys and queries for N/3 <= 3 over 3 tokens (and N/3 = 4 over 2), with
    distinct values so each answer names its key: the brute-force oracle's answers and
    matched indices."""
    assert_brute_force_on_tiny_inputs(lambda u: run(u, sort), [(1, 3), (2, 3), (3, 3), (4, 2)])


def test_latest_earlier_key_wins_and_own_key_is_not_seen() -> None:
    """Ties go to the latest earlier key; query i never sees k_i; no match is -1."""
    assert_latest_earlier_key_wins(run)


@pytest.mark.parametrize("sort", STRATEGIES)
def test_bit_keys_give_the_same_answers(sort: str) -> None:
    """Tokens of d bits, one per cell (serial and tree comparators): same answers, EREW."""
    rng = np.random.default_rng(5)
    u = random_tokens(16, rng, vocabulary=5)
    expected = sequential_recall(u).answers.tolist()
    for comparator in ("serial", "tree"):
        result = run(u, sort, BitKeys(5, comparator))
        assert result.answers.tolist() == expected
        assert_indices(result, u)


def test_larger_random_input_equals_algorithm_9() -> None:
    """N/3 = 2^12 random triples (most queries match): Algorithm 9's answers, on EREW."""
    u = random_tokens(1 << 12, np.random.default_rng(1))
    result = run(u)
    assert result.answers.tolist() == sequential_recall(u).answers.tolist()
    assert result.indices.tolist() == result.answers.tolist()  # value v_j = j names key j


# ---- padding ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "padding", "levels", "queries"),
    [(3, 0, 0, 1), (4, 2, 1, 1), (5, 1, 1, 1), (9, 3, 2, 3), (12, 0, 2, 4), (13, 11, 3, 4)],
)
def test_sizes_are_padded_to_three_times_a_power_of_two(
    n: int, padding: int, levels: int, queries: int
) -> None:
    """N is padded to 3 * 2^L with L the smallest that holds every token; one answer per whole
    triple."""
    result = run(np.arange(n) % 4)
    assert (result.padding, result.levels, result.queries) == (padding, levels, queries)
    assert result.padded == (padding > 0)


def test_padding_is_reported() -> None:
    """The result says how the input was padded."""
    assert run(np.zeros(9, dtype=np.int64)).note == (
        "N = 9 padded with 3 tokens to 3 * 2^2 = 12; padded triples never match"
    )
    assert run(np.zeros(12, dtype=np.int64)).note == "N = 12 = 3 * 2^2: no padding"


def test_padded_queries_never_match() -> None:
    """Every token is 0, like the padding: the padded queries' answer cells still hold -1."""
    m = Machine("erew")
    recall(m, np.zeros(3 * 5 + 2, dtype=np.int64))
    answers = m.arrays["answers"].to_numpy()
    assert answers.tolist() == [-1, 0, 0, 0, 0, -1, -1, -1]
    assert m.arrays["indices"].to_numpy().tolist() == [-1, 0, 1, 2, 3, -1, -1, -1]
    assert m.violations == []


def test_layout_splits_the_columns_and_pads_the_end() -> None:
    """Keys, values and queries are the three columns; padding is appended after the input."""
    lay = layout([1, 2, 3, 4, 5, 6, 7])
    assert lay.keys.tolist() == [1, 4, 7, 0]
    assert lay.values.tolist() == [2, 5, 0, 0]
    assert lay.queries.tolist() == [3, 6, 0, 0]
    assert (lay.answered, lay.tokens, lay.padding, lay.levels, lay.triples) == (2, 7, 5, 2, 4)


# ---- the program -----------------------------------------------------------------------------


@pytest.mark.parametrize("sort", STRATEGIES)
def test_phases_are_labelled(sort: str) -> None:
    """Sort, search, retrieve and combine are phases of the ledger, and their work adds up."""
    m = Machine("erew")
    recall(m, random_tokens(64, np.random.default_rng(0)), sort=sort)  # type: ignore[arg-type]
    top = {label: p for label, p in m.cost.phases.items() if "/" not in label}
    assert set(top) == {"sort", "search", "retrieve", "combine"}
    assert sum(p.work for p in top.values()) == m.cost.work


def test_levels_run_in_parallel() -> None:
    """All levels share global steps: the search phase takes about as many steps as the
    largest level's search, not the sum over levels."""
    m = Machine("erew")
    recall(m, random_tokens(1 << 8, np.random.default_rng(0)))
    levels = [m.cost.phases[f"search/pbs {k}"].time for k in range(8)]
    assert m.cost.phases["search"].time == max(levels) < sum(levels)


def test_merge_tree_does_less_sort_work_than_per_block() -> None:
    """The merge tree's sort work is below the per-block sort's at the same size."""
    u = random_tokens(1 << 10, np.random.default_rng(0))
    costs = {}
    for sort in STRATEGIES:
        m = Machine("erew")
        recall(m, u, sort=sort)
        costs[sort] = m.cost.phases["sort"].work
    assert costs["merge-tree"] < costs["per-block"]


# ---- bounds ----------------------------------------------------------------------------------

#: Proposition H.30 is asymptotic: its extra-log failure shows only over a long sweep.
SWEEP = [1 << L for L in range(4, 17)]


@pytest.fixture(scope="module")
def merge_tree_sweep() -> list[tuple[dict[str, float], Cost]]:
    return sweep(recall, SWEEP)


@pytest.fixture(scope="module")
def per_block_sweep() -> list[tuple[dict[str, float], Cost]]:
    return sweep(functools.partial(recall, sort="per-block"), SWEEP)


def test_merge_tree_meets_proposition_h30(
    merge_tree_sweep: list[tuple[dict[str, float], Cost]],
) -> None:
    """merge-tree, N/3 = 2^4 .. 2^16: work / (N log2(N)^2) and time / log2(N)^2 stay bounded."""
    checks = check_bounds(merge_tree_sweep)
    assert checks["work"].holds, checks["work"].table()
    assert checks["time"].holds, checks["time"].table()


def test_per_block_sort_exceeds_the_work_bound(
    per_block_sweep: list[tuple[dict[str, float], Cost]],
) -> None:
    """per-block (a Batcher sort in every block): the work ratio grows like log N and the
    check says so; the time bound still holds."""
    checks = check_bounds(per_block_sweep)
    assert not checks["work"].holds, checks["work"].table()
    assert checks["time"].holds, checks["time"].table()


def test_sort_phase_alone_separates_the_strategies(
    merge_tree_sweep: list[tuple[dict[str, float], Cost]],
    per_block_sweep: list[tuple[dict[str, float], Cost]],
) -> None:
    """The sort phase's work: O(N log^2 N) for the merge tree, one log more per block."""
    def sort_work(c: Cost) -> float:
        return float(c.phases["sort"].work)

    assert check_bounds(merge_tree_sweep, measure=sort_work)["work"].holds
    assert not check_bounds(per_block_sweep, measure=sort_work)["work"].holds


#: N/3 = 2^4 .. 2^12: long enough for the laws to decide (the issue's sweep).
SHORT = len(range(4, 13))


def test_per_block_work_is_exceeded_by_its_sort_on_a_short_sweep(
    per_block_sweep: list[tuple[dict[str, float], Cost]],
) -> None:
    """N/3 = 2^4 .. 2^12: the sort phase's exact law has N L^3, so the sort and with it the
    whole work are exceeded (the total alone cannot tell yet: the other phases dilute it)."""
    short = per_block_sweep[:SHORT]
    sort = check_bounds(short, measure=lambda c: float(c.phases["sort"].work))["work"]
    assert sort.verdict == "exceeded"
    assert sort.law.exact and sort.law.text == "1/18 N L^3 + 47/18 N L - 8/3 N"
    total = combined({"sort": sort}, check_bounds(short)["work"])
    assert total.verdict == "exceeded"
    assert total.reason.startswith("its sort phase exceeds the bound")


def test_merge_tree_holds_tight_on_a_short_sweep(
    merge_tree_sweep: list[tuple[dict[str, float], Cost]],
) -> None:
    """N/3 = 2^4 .. 2^12: merge-tree work and time are never exceeded and never called loose
    (on so short a sweep the calibrated verdict may be undetermined, with advice)."""
    checks = check_bounds(merge_tree_sweep[:SHORT])
    for key in ("work", "time"):
        c = checks[key]
        assert c.verdict in ("holds", "undetermined") and c.tight is not False, c.table()
        assert c.verdict == "holds" or c.advice is not None


def test_the_time_law_of_a_short_sweep_predicts_two_to_the_sixteen(
    merge_tree_sweep: list[tuple[dict[str, float], Cost]],
) -> None:
    """The time law found on N/3 = 2^4 .. 2^12 predicts N/3 = 2^16 within 1%."""
    law = check_bounds(merge_tree_sweep[:SHORT])["time"].law
    (sizes, cost), = [p for p in merge_tree_sweep if p[0]["N"] == 3 << 16]
    assert law.predict(sizes["N"]) == pytest.approx(cost.time, rel=0.01)


# ---- invalid input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tokens", "message"),
    [
        (
            np.zeros((2, 3), dtype=np.int64),
            "tokens must be one-dimensional (got shape (2, 3)); pass a flat array",
        ),
        (
            [1.5, 2.0, 3.0],
            "tokens must be integers (got dtype float64); "
            "make them integers explicitly, e.g. numpy.rint(x).astype(numpy.int64) for reals "
            "(a plain cast would truncate them)",
        ),
        (
            [True, False, True],
            "tokens must be integers (got dtype bool); "
            "make them integers explicitly, e.g. numpy.rint(x).astype(numpy.int64) for reals "
            "(a plain cast would truncate them)",
        ),
        (
            [4, 2],
            "tokens must hold at least one triple (key, value, query) (got 2 tokens); "
            "pass at least 3",
        ),
        (
            [1, 2, 3, -4],
            "tokens must be non-negative (got tokens[3] = -4); renumber the vocabulary from 0",
        ),
        (
            np.array([1, 2, 2**63], dtype=np.uint64),
            "tokens must fit in int64 (got 9223372036854775808); use values below 2**63",
        ),
    ],
)
def test_invalid_tokens_are_refused(tokens: Any, message: str) -> None:
    """Wrong shape, non-integers, too short, negative or too wide: a message and its fix."""
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        recall(Machine("erew"), tokens)


def test_unknown_sort_strategy_is_refused() -> None:
    """Only the two strategies exist."""
    message = "sort must be 'merge-tree' or 'per-block' (got 'bubble'); pick one of them"
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        recall(Machine("erew"), [1, 2, 3], sort="bubble")  # type: ignore[arg-type]


@pytest.mark.parametrize("sort", ["merge-tree", "per-block"])
def test_recall_frees_everything_but_its_answers(sort: str) -> None:
    """After a run only the input and the answers are alive; every cell is still counted."""
    m = Machine("erew")
    tokens = np.random.default_rng(5).integers(0, 6, 3 * 16)
    recall(m, tokens, sort=sort)  # type: ignore[arg-type]
    assert sorted(m.arrays) == [
        "answers", "indices", "keys", "keys.index", "queries", "queries.index", "values"
    ]
    assert m.cost.peak_cells <= m.cost.memory_cells
