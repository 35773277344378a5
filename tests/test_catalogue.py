"""The catalogue of classic PRAM algorithms: answers against brute force, models, exact counts."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import InputError, Kind, Machine
from pram.algorithms.catalogue import (
    list_ranking,
    matrix_multiply,
    maximum,
    merge,
    prefix_sums,
    rank_sort,
)
from tests.strategies import SMALL, linked_lists, sorted_lists, square_pairs


def links_to_tail(successors: list[int]) -> list[int]:
    """Brute force: follow the pointers from every node and count the links."""
    out = []
    for node in range(len(successors)):
        links = 0
        while successors[node] != -1:
            node = successors[node]
            links += 1
        out.append(links)
    return out


def product(a: list[list[int]], b: list[list[int]]) -> list[list[int]]:
    """Brute force: the schoolbook triple loop."""
    n = len(a)
    return [[sum(a[i][k] * b[k][j] for k in range(n)) for j in range(n)] for i in range(n)]


# ---- list ranking ------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(linked_lists())
def test_list_ranking_counts_the_links_to_the_tail(successors: list[int]) -> None:
    """Every node's rank is its number of links to the tail, with no EREW violation."""
    m = Machine("erew")
    assert list_ranking(m, np.array(successors)).tolist() == links_to_tail(successors)
    assert m.violations == [] and m.undefined_reads == []


@pytest.mark.parametrize("n", [1, 2, 3, 8, 9, 100])
def test_list_ranking_takes_two_steps_per_doubling(n: int) -> None:
    """Time is 2 ceil(log2 n) + 2 and every step keeps all n processors busy."""
    m = Machine("erew")
    list_ranking(m, np.array([*range(1, n), -1]))
    rounds = math.ceil(math.log2(n)) if n > 1 else 0
    assert (m.cost.time, m.cost.work) == (2 * rounds + 2, n * (2 * rounds + 2))


# ---- prefix sums -------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.lists(SMALL, min_size=1, max_size=70))
def test_prefix_sums_are_the_running_totals(values: list[int]) -> None:
    """The inclusive prefix sums equal itertools.accumulate's, with no EREW violation."""
    m = Machine("erew")
    assert prefix_sums(m, np.array(values)).tolist() == list(itertools.accumulate(values))
    assert m.violations == []


@pytest.mark.parametrize("n", [16, 256, 4096])
def test_prefix_sums_work_is_linear(n: int) -> None:
    """For n a power of two the work is 2 (2n - log2 n - 2): the balanced tree's."""
    m = Machine("erew")
    prefix_sums(m, np.ones(n, dtype=np.int64))
    assert m.cost.work == 2 * (2 * n - int(math.log2(n)) - 2)


# ---- merge ------------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(sorted_lists(), sorted_lists())
def test_merge_equals_sorting_both(a: list[int], b: list[int]) -> None:
    """The merge of two sorted lists is sorted(a + b), with no CREW violation."""
    m = Machine("crew")
    assert merge(m, np.array(a), np.array(b)).tolist() == sorted(a + b)
    assert m.violations == []


def test_merge_time_is_the_longer_search() -> None:
    """Time is max(bitlen p, bitlen q) + 2 and work p + q times that."""
    m = Machine("crew")
    merge(m, np.arange(5), np.arange(100))
    assert (m.cost.time, m.cost.work) == (7 + 2, 105 * 9)


def test_merge_under_erew_is_flagged_for_shared_probes() -> None:
    """Under EREW the first probe, b's middle read by every element of a, is flagged."""
    m = Machine("erew")
    merge(m, np.arange(4), np.arange(4))
    first = m.violations[0]
    assert (first.kind, first.step, first.array, first.index) == (
        Kind.READ_READ, 2, "merge/b", 2)
    assert first.processors == (0, 1, 2, 3)


# ---- matrix product ----------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(square_pairs())
def test_matrix_multiply_equals_the_triple_loop(pair: tuple[list[list[int]], ...]) -> None:
    """The product equals the schoolbook triple loop's, with no CREW violation."""
    a, b = pair
    m = Machine("crew")
    assert matrix_multiply(m, np.array(a), np.array(b)).tolist() == product(a, b)
    assert m.violations == []


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_matrix_multiply_counts(n: int) -> None:
    """Time 2 ceil(log2 n) + 4; work 2 n^3 + 2 n^2 (n - 1) + 2 n^2 = 4 n^3."""
    m = Machine("crew")
    matrix_multiply(m, np.ones((n, n), dtype=np.int64), np.ones((n, n), dtype=np.int64))
    rounds = math.ceil(math.log2(n)) if n > 1 else 0
    assert (m.cost.time, m.cost.work) == (2 * rounds + 4, 4 * n**3)


def test_matrix_multiply_under_erew_is_flagged() -> None:
    """Under EREW every cell of a and b is read by n processors at once in step 1."""
    m = Machine("erew")
    matrix_multiply(m, np.ones((3, 3), dtype=np.int64), np.ones((3, 3), dtype=np.int64))
    assert len(m.violations) == 18
    assert {(v.kind, v.step, len(v.processors)) for v in m.violations} == {
        (Kind.READ_READ, 1, 3)}


def test_matrix_multiply_refuses_non_square_matrices() -> None:
    """Matrices that are not square, or not of one size, are refused in one sentence."""
    with pytest.raises(InputError) as error:
        matrix_multiply(Machine("crew"), np.ones((2, 3), dtype=np.int64),
                        np.ones((3, 2), dtype=np.int64))
    assert str(error.value) == (
        "a and b must be square matrices of one size n >= 1 (got shapes (2, 3) and (3, 2)); "
        "pass two n x n arrays"
    )


# ---- maximum -----------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.lists(SMALL, min_size=1, max_size=40))
def test_maximum_finds_the_max_and_its_first_index(values: list[int]) -> None:
    """[max, first index of the max], with no CRCW-common violation."""
    m = Machine("crcw-common")
    top = max(values)
    assert maximum(m, np.array(values)).tolist() == [top, values.index(top)]
    assert m.violations == []


def test_maximum_takes_four_steps_at_every_size() -> None:
    """Time is 4 whatever n; work is 2 n^2 + 2 n."""
    for n in (1, 16, 100):
        m = Machine("crcw-common")
        maximum(m, np.arange(n))
        assert (m.cost.time, m.cost.work) == (4, 2 * n * n + 2 * n)


def test_maximum_under_crew_is_flagged_for_agreeing_writers() -> None:
    """Under CREW the flag of the smallest value, written 0 by every larger one, is flagged."""
    m = Machine("crew")
    assert maximum(m, np.array([0, 1, 2])).tolist() == [2, 2]
    assert [(v.kind, v.step, v.index, v.processors) for v in m.violations] == [
        (Kind.WRITE_WRITE, 2, 0, (1, 2)),
    ]


# ---- rank sort ---------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.lists(SMALL, min_size=1, max_size=40))
def test_rank_sort_sorts(values: list[int]) -> None:
    """The output is sorted(values) (ties by index keep the places distinct), no violation."""
    m = Machine("crcw-sum")
    assert rank_sort(m, np.array(values)).tolist() == sorted(values)
    assert m.violations == []


def test_rank_sort_takes_four_steps_at_every_size() -> None:
    """Time is 4 whatever n; work is 2 n^2 + 2 n."""
    for n in (1, 16, 100):
        m = Machine("crcw-sum")
        rank_sort(m, np.arange(n)[::-1])
        assert (m.cost.time, m.cost.work) == (4, 2 * n * n + 2 * n)


def test_rank_sort_under_crew_is_flagged() -> None:
    """Under CREW each rank, written by n processors at once, is a write/write violation."""
    m = Machine("crew")
    rank_sort(m, np.array([3, 1, 2]))
    assert [(v.kind, v.array, v.index) for v in m.violations if v.step == 2] == [
        (Kind.WRITE_WRITE, "rank-sort/rank", i) for i in range(3)
    ]


@pytest.mark.parametrize("program", [prefix_sums, maximum, rank_sort])
def test_empty_values_are_refused(program: object) -> None:
    """An empty input is refused, naming it."""
    with pytest.raises(InputError) as error:
        program(Machine("crcw-sum"), np.array([], dtype=np.int64))  # type: ignore[operator]
    assert str(error.value) == "values must hold at least one value (got an empty array)"
