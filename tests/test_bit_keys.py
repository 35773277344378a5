"""Every algorithm runs with d-bit keys (algorithms/bits.py) and answers exactly as with word
keys, with zero EREW violations; and with bit keys the measured bounds carry the factor d (serial
comparator) or only log d (tree comparator, Lemma H.32)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Formula, Machine, check
from pram.algorithms import allpairs, mqar, pbs, sequential, sorting
from pram.algorithms.bits import COMPARATORS, BitKeys
from pram.algorithms.keys import Keys, WordKeys

#: Bit widths the differential tests draw from (tokens are drawn below 2**d).
WIDTHS = st.integers(1, 10)


def representations(d: int, comparator: str) -> tuple[Keys, Keys]:
    return WordKeys(), BitKeys(d, comparator)


def tokens_below(d: int, min_size: int, max_size: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(0, (1 << d) - 1), min_size=min_size, max_size=max_size)


def widths_and(
    tokens: Any,
) -> st.SearchStrategy[tuple[int, Any]]:
    """A width d and something drawn from ``tokens(d)``."""
    return WIDTHS.flatmap(lambda d: st.tuples(st.just(d), tokens(d)))


# ---- the sorting networks --------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    widths_and(lambda d: tokens_below(d, 1, 20)),
    st.sampled_from(COMPARATORS),
    st.sampled_from(sorting.NETWORKS),
    st.sampled_from(sorting.TIES),
)
def test_sorting_networks_agree(
    case: tuple[int, list[int]], comparator: str, network: Any, ties: Any
) -> None:
    """Both Batcher networks sort to the same keys and permutation with bit and word keys."""
    d, values = case
    results = []
    for keys in representations(d, comparator):
        m = Machine("erew")
        r = sorting.sort(m, values, network=network, keys=keys, ties=ties)
        assert m.violations == []
        results.append((r.keys.tolist(), r.permutation.tolist(), r.padding, r.size))
    assert results[0] == results[1]
    assert results[1][0] == sorted(values)


# ---- Algorithm 10 ----------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    widths_and(lambda d: st.tuples(tokens_below(d, 0, 12), tokens_below(d, 1, 12))),
    st.sampled_from(COMPARATORS),
)
def test_pbs_agrees(case: tuple[int, tuple[list[int], list[int]]], comparator: str) -> None:
    """Algorithm 10 finds the same eq. (12) answers, candidates and matches with bit keys."""
    d, (queries, key_list) = case
    queries, key_list = sorted(queries), sorted(key_list)
    results = []
    for keys in representations(d, comparator):
        m = Machine("erew")
        r = pbs.retrieve(m, queries, key_list, keys_repr=keys)
        assert m.violations == []
        results.append([r.index.tolist(), r.key.tolist(), r.payload.tolist(), r.match.tolist()])
    assert results[0] == results[1]
    assert results[1][0] == np.searchsorted(key_list, queries, side="left").tolist()


@pytest.mark.parametrize("comparator", COMPARATORS)
def test_naive_search_is_crew_with_bit_keys_too(comparator: str) -> None:
    """The naive search answers right under CREW and is flagged under EREW, on bit cells."""
    queries, key_list = [1, 2, 3, 5, 8], [0, 2, 4, 6, 8, 10]
    keys = BitKeys(4, comparator)
    crew = Machine("crew")
    assert pbs.naive_search(crew, queries, key_list, keys).tolist() == [1, 1, 2, 3, 4]
    assert crew.violations == []
    erew = Machine("erew")
    pbs.naive_search(erew, queries, key_list, keys)
    assert erew.violations


# ---- MQAR: Algorithm 11, the all-pairs baseline, Algorithm 9 ---------------------------------


def mqar_tokens(d: int) -> st.SearchStrategy[list[int]]:
    """Token sequences whose keys and queries collide often (a small alphabet), 1..16 triples."""
    small = min(d, 2)
    return st.lists(
        st.tuples(
            st.integers(0, (1 << small) - 1),
            st.integers(0, (1 << d) - 1),
            st.integers(0, (1 << small) - 1),
        ),
        min_size=1,
        max_size=16,
    ).map(lambda triples: [t for triple in triples for t in triple])


@settings(max_examples=25, deadline=None)
@given(
    widths_and(mqar_tokens),
    st.sampled_from(COMPARATORS),
    st.sampled_from(mqar.STRATEGIES),
)
def test_algorithm_11_agrees(
    case: tuple[int, list[int]], comparator: str, strategy: mqar.Strategy
) -> None:
    """Algorithm 11 (both sorts) answers the same with bit keys, and as Algorithm 9 does."""
    d, tokens = case
    results = []
    for keys in representations(d, comparator):
        m = Machine("erew")
        r = mqar.recall(m, tokens, sort=strategy, keys=keys)
        assert m.violations == []
        results.append((r.answers.tolist(), r.padding, r.levels))
    assert results[0] == results[1]
    assert results[1][0] == sequential.recall(tokens).answers.tolist()


@settings(max_examples=20, deadline=None)
@given(widths_and(mqar_tokens), st.sampled_from(COMPARATORS))
def test_all_pairs_agrees(case: tuple[int, list[int]], comparator: str) -> None:
    """The all-pairs baseline answers the same with bit keys, and as Algorithm 9 does."""
    d, tokens = case
    results = []
    for keys in representations(d, comparator):
        m = Machine("erew")
        r = allpairs.recall(m, tokens, keys=keys)
        assert m.violations == []
        results.append(r.answers.tolist())
    assert results[0] == results[1]
    assert results[1] == sequential.recall(tokens).answers.tolist()


@pytest.mark.parametrize("d", [1, 4, 16, 33])
def test_algorithm_9_pays_a_serial_comparison_per_comparison(d: int) -> None:
    """Algorithm 9 runs on one processor, so its d-bit comparisons are serial: each costs what
    a serial bit comparison costs on the machine (d), and its other operations are unchanged."""
    m = Machine("erew")
    keys = BitKeys(d, "serial")
    a = keys.store(m, "a", [1, 0])
    m.run(keys.compare(m, m.processors(1), a, np.array([0]), a, np.array([1])))
    one_comparison = m.cost.work
    tokens = np.random.default_rng(d).integers(0, 6, 3 * 40)
    result = sequential.recall(tokens)
    assert result.operations_with(d) == (
        result.operations + (one_comparison - 1) * result.comparisons
    )
    assert result.operations_with(1) == result.operations


# ---- the factor d in the measured bounds -----------------------------------------------------


def lg(x: float) -> float:
    return max(1.0, math.log2(x))


def sweep(comparator: str, widths: tuple[int, ...], levels: range) -> list[tuple[Any, int, int]]:
    """Algorithm 11 with bit keys at N = 3 * 2^L for each d: (sizes, work, time); no violations."""
    points = []
    for d in widths:
        for L in levels:
            t = 1 << L
            tokens = np.random.default_rng(100 * d + L).integers(0, min(1 << d, t), 3 * t)
            m = Machine("erew")
            mqar.recall(m, tokens, keys=BitKeys(d, comparator))
            assert m.violations == []
            points.append(({"N": 3 * t, "d": d}, m.cost.work, m.cost.time))
    return points


WORK = Formula("N d log2(N)^2", lambda s: s["N"] * s["d"] * lg(s["N"]) ** 2)
TIME = Formula("d log2(N)^2", lambda s: s["d"] * lg(s["N"]) ** 2)
TREE_TIME = Formula("log2(d) log2(N)^2", lambda s: lg(s["d"]) * lg(s["N"]) ** 2)


def test_serial_comparator_meets_the_papers_bounds() -> None:
    """With serial comparisons, work / (N d log2(N)^2) and time / (d log2(N)^2) stay bounded,
    and time is not O(log d log2(N)^2): the factor d is really paid."""
    points = sweep("serial", (4, 8, 16, 32), range(4, 8))
    # four widths d: a verdict along d may be undetermined, never the wrong way round
    assert check("work", WORK, [(s, w) for s, w, _ in points]).verdict != "exceeded"
    assert check("time", TIME, [(s, t) for s, _, t in points]).verdict != "exceeded"
    assert check("time", TREE_TIME, [(s, t) for s, _, t in points]).verdict != "holds"


def test_tree_comparator_beats_the_papers_time_bound() -> None:
    """With the tree comparator, time / (log2(d) log2(N)^2) stays bounded (work stays
    O(N d log2(N)^2)), so it beats the serial time by a factor growing like d / log d."""
    tree = sweep("tree", (4, 8, 16, 32), range(4, 9))
    assert check("time", TREE_TIME, [(s, t) for s, _, t in tree]).verdict != "exceeded"
    assert check("work", WORK, [(s, w) for s, w, _ in tree]).verdict != "exceeded"
    serial = sweep("serial", (4, 32), range(8, 9))
    tree_time = {s["d"]: t for s, _, t in tree if s["N"] == 3 * 2**8}
    gain = [t / tree_time[s["d"]] for s, _, t in serial]
    assert gain[1] / gain[0] > 2  # d / log2(d) grows 3.2-fold from d = 4 to d = 32
