"""Each catalogue entry's rounds, as the machine counts them, equal its textbook count.

The machine counts rounds while the program runs (:mod:`pram.engine.rounds`); the formulas
here are the textbooks' counts, written as the reference (the table with its sources is in
docs/reference/catalogue.md, "Rounds against the textbooks"). Each entry runs through the
same path as ``pram run`` at several sizes.
"""

from __future__ import annotations

import math

import pytest

from pram.reports import entries
from pram.reports.options import Options
from pram.reports.runs import Run, execute


def ran(name: str, **options: object) -> Run:
    """``pram run NAME``: under the model the entry is written for, its answer checked."""
    model = entries.algorithm(name).model
    run = execute(name, Options(model=model, **options))  # type: ignore[arg-type]
    assert run.correct is True and run.violations == 0
    return run


def log2(n: int) -> int:
    """log2 of a power of two, checked."""
    k = n.bit_length() - 1
    assert 1 << k == n
    return k


@pytest.mark.parametrize("n", [2, 3, 8, 100, 1024])
def test_wyllie_list_ranking(n: int) -> None:
    """Wyllie 1979 (JáJá 1992, §2.2): one round sets each rank, then one round per jump,
    ceil(log2 n) jumps."""
    assert ran("list-ranking", n=n).cost.rounds == math.ceil(math.log2(n)) + 1


@pytest.mark.parametrize("n", [2, 4, 64, 1024])
def test_brent_kung_prefix_sums(n: int) -> None:
    """Brent and Kung 1982: the prefix graph of n = 2^k inputs has depth 2 log2 n - 1, one
    round a level (a processor reads two sums and writes one)."""
    assert ran("prefix-sums", n=n).cost.rounds == 2 * log2(n) - 1


@pytest.mark.parametrize("n", [2, 5, 100, 256])
def test_merge_by_binary_search(n: int) -> None:
    """One round to read its own element, then a binary search of the other list: at most
    floor(log2 q) + 1 probes for q keys (Knuth vol. 3, §6.2.1), one round each, the last
    with the write of the element to its place (p = q = n here)."""
    run = ran("merge", n=n)
    p, q = run.sizes["n"], run.sizes["m"]
    assert run.cost.rounds == 1 + (math.floor(math.log2(max(p, q))) + 1)


@pytest.mark.parametrize("n", [2, 3, 8, 16])
def test_matrix_product(n: int) -> None:
    """JáJá 1992, ch. 1 (matrix multiplication on the PRAM, n^3 processors): one round of
    products, ceil(log2 n) rounds of sums, one round to store each entry."""
    assert ran("matrix-multiply", n=n).cost.rounds == math.ceil(math.log2(n)) + 2


@pytest.mark.parametrize("n", [1, 2, 17, 256])
def test_constant_time_maximum(n: int) -> None:
    """JáJá 1992, §2.6 (the maximum in O(1) on the common CRCW PRAM, n^2 processors): one
    round marks every value, one unmarks each beaten value, one writes the survivor."""
    assert ran("max", n=n).cost.rounds == 3


@pytest.mark.parametrize("n", [1, 2, 17, 256])
def test_rank_sort(n: int) -> None:
    """Comparison counting (Knuth vol. 3, §5.2, Algorithm C) with a processor per pair on
    the CRCW sum PRAM: one round counts every comparison into the ranks at once, one places
    each value at its rank."""
    assert ran("rank-sort", n=n).cost.rounds == 2


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_doubly_logarithmic_maximum(k: int) -> None:
    """Valiant 1975, Shiloach and Vishkin 1981 (JáJá 1992, §2.6): the doubly logarithmic
    tree at n = 2^(2^k) has log2 log2 n + 1 = k + 1 levels, each node the constant-time
    maximum of its children: 3 rounds a level."""
    assert ran("max-loglog", n=1 << (1 << k)).cost.rounds == 3 * (k + 1)


@pytest.mark.parametrize("n", [2, 64, 1024])
def test_compaction(n: int) -> None:
    """Blelloch 1990 (JáJá 1992, §2.1): one round writes each element's 0/1 mark, the prefix
    sums of the marks give the places (Brent and Kung's 2 log2 n - 1 rounds at n = 2^k), one
    round moves each marked element to its place."""
    assert ran("compaction", n=n).cost.rounds == 1 + (2 * log2(n) - 1) + 1


@pytest.mark.parametrize(("network", "n"), [("bitonic", 2), ("bitonic", 8), ("bitonic", 100),
                                           ("bitonic", 1024), ("odd-even", 64),
                                           ("odd-even", 5)])
def test_batcher_networks(network: str, n: int) -> None:
    """Batcher 1968 (Knuth vol. 3, §5.3.4): the bitonic and the odd-even merge sorting
    networks on 2^k inputs have depth k (k + 1) / 2, one round a level (each comparator's
    processor reads two keys, writes them in order); n is padded to a power of two."""
    k = (n - 1).bit_length()
    assert ran("sort", n=n, network=network).cost.rounds == k * (k + 1) // 2


@pytest.mark.parametrize("n", [16, 64])
def test_the_euler_tours_sort_is_batchers(n: int) -> None:
    """The Euler tour entry groups its 2 (n - 1) arcs by Batcher's bitonic network (its
    ``sort`` phase): k (k + 1) / 2 rounds for 2^k >= 2 (n - 1); the whole entry is not in
    the table (its list rankings follow no single textbook count)."""
    k = (2 * (n - 1) - 1).bit_length()
    assert ran("euler-tour", n=n).cost.phases["euler/sort"].rounds == k * (k + 1) // 2
