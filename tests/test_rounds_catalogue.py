"""Each catalogue entry's rounds, as the machine counts them, equal its textbook count.

The machine counts rounds while the program runs (:mod:`pram.engine.rounds`); the formulas
here are the textbooks' counts, written as the reference (the table with its sources is in
docs/reference/catalogue.md, "Rounds against the textbooks"). Each entry runs through the
same path as ``pram run`` at several sizes. Where the textbook's schedule is a loop whose
iterations depend on the data (components), the iterations are read from the run (its loop
tests); where a program takes more rounds than the textbook, the difference is named and
asserted beside the textbook's count.
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
    ``sort`` phase): k (k + 1) / 2 rounds for 2^k >= 2 (n - 1)."""
    k = (2 * (n - 1) - 1).bit_length()
    assert ran("euler-tour", n=n).cost.phases["euler/sort"].rounds == k * (k + 1) // 2


# ---- the entries whose schedule runs a textbook loop: rounds per iteration ------------------


def ceil_log2(n: int) -> int:
    """ceil(log2 n), 0 for n = 1."""
    return (n - 1).bit_length()


def mate_iterations(n: int) -> int:
    """The random-mate iterations for n nodes, a function of n (the program counts them from
    n, not by a test): the least R with (4/3)^R >= n, after which at most one inner node is
    expected to survive (Miller and Reif 1985)."""
    r = 0
    while 4**r < n * 3**r:
        r += 1
    return r


def random_mate_textbook(n: int) -> int:
    """Random-mate list ranking (Miller and Reif 1985; Anderson and Miller 1988; JáJá 1992,
    §3.1) on n nodes, in rounds: one round sets each node's successor and value; each of the
    R iterations takes two (every live node learns whether it was spliced out and puts its
    coin where its predecessor reads it; a head reads its successor's coin, pointer and sum
    and splices it out); Wyllie's pointer jumping ranks the survivors in ceil(log2 n) rounds
    (§2.2); one round an iteration puts the nodes spliced in it back, latest first."""
    r = mate_iterations(n)
    return 1 + 2 * r + ceil_log2(n) + r


def random_mate_machine(n: int) -> int:
    """The program's rounds: the textbook's, and one more after the last iteration, in which
    the nodes spliced out in it read their mark (in the textbook's loop the next iteration's
    first round reads it; the last iteration has no next one)."""
    return random_mate_textbook(n) + (1 if mate_iterations(n) else 0)


@pytest.mark.parametrize("n", [2, 3, 8, 100, 1024])
def test_random_mate_list_ranking(n: int) -> None:
    """rounds = 1 + 3 R + ceil(log2 n) (+ 1 for the marks of the last iteration)."""
    assert ran("list-ranking-random", n=n).cost.rounds == random_mate_machine(n)


@pytest.mark.parametrize("n", [2, 3, 16, 64])
def test_euler_tour(n: int) -> None:
    """Tarjan and Vishkin 1985 (JáJá 1992, §3.2): from adjacency lists, one round makes
    every arc's tour successor; two list rankings of the a = 2 (n - 1) arcs (random mate,
    above) and O(1) rounds of quantities follow. The program builds the adjacency lists
    itself: one round writes the arcs' keys and Batcher's bitonic network groups them by
    tail (k (k + 1) / 2 rounds, 2^k >= a); its tour takes 4 rounds (each position reads its
    key and writes where its arc stands and its neighbours' tails; reads its twin's
    position and its neighbours' tails and writes its list's first arc; the last arc of a
    list reads that first one, and every position writes its next arc; reads its twin's
    next arc and writes its successor); each ranking is the random-mate program's; and the
    quantities take 2 rounds after each ranking (a position reads its own sum, then its
    twin's: each cell is read by two positions, once each under EREW, with the write)."""
    arcs = 2 * (n - 1)
    k = (arcs - 1).bit_length()
    run = ran("euler-tour", n=n)
    phases = {label.removeprefix("euler/"): share.rounds
              for label, share in run.cost.phases.items()}
    assert phases == {"euler": run.cost.rounds, "arcs": 1, "sort": k * (k + 1) // 2,
                      "tour": 4, "rank 1": random_mate_machine(arcs),
                      "rank 2": random_mate_machine(arcs), "quantities": 4}
    assert run.cost.rounds == 1 + k * (k + 1) // 2 + 4 + 2 * random_mate_machine(arcs) + 4


@pytest.mark.parametrize("leaves", [3, 15, 64, 255])
def test_tree_contraction(leaves: int) -> None:
    """Abrahamson, Dadoun, Kirkpatrick and Przytycka 1989 (JáJá 1992, §3.3): the leaves are
    numbered by an Euler tour and a list ranking, then ceil(log2 L) iterations each rake the
    odd leaves that are left children, then the right ones; a rake is 2 rounds (the leaf
    reads its parent's record, then the sibling's function, which it learns from that
    record, and writes the sibling's new function and links): 4 rounds an iteration. The
    program's iteration takes 5: the odd leaves first read their own record (parent, side
    and function, which the rakes of the iteration before may have changed). Before the
    iterations: the tour (2 rounds), the random-mate ranking of the 2 N arcs (N = 2 L - 1
    nodes) and one round reading each leaf's number; after them, one round evaluating the
    root."""
    nodes = 2 * leaves - 1
    run = ran("tree-contraction", n=leaves)
    contract = run.cost.phases["expression/contract"].rounds
    assert contract == 1 + 5 * ceil_log2(leaves) + 1
    assert run.cost.phases["expression/rank"].rounds == random_mate_machine(2 * nodes)
    assert run.cost.rounds == 2 + random_mate_machine(2 * nodes) + contract


@pytest.mark.parametrize("n", [2, 16, 64, 256])
def test_connected_components(n: int) -> None:
    """Shiloach and Vishkin 1982, in Awerbuch and Shiloach's form (JáJá 1992, §5.1): an
    iteration marks the stars (3 rounds: each vertex reads its parent and marks itself; reads
    its grandparent and unmarks itself and it when they differ; reads its parent's mark and
    takes it), hooks conditionally (1 round), marks the stars again (3), hooks the stagnant
    ones (1) and shortcuts (2: read the parent, read its parent and write it): 10 rounds.
    The program's iteration adds the host's loop test (1 round), which ends the loop after
    an iteration that moved no pointer; and one round before the first, in which each arc's
    processor reads its endpoints. The iterations are the run's: its loop tests."""
    run = ran("components", n=n)
    iterations = run.cost.loop_tests
    assert iterations >= 2  # one iteration at least moves a pointer, the last moves none
    assert run.cost.rounds == 1 + (10 + 1) * iterations


@pytest.mark.parametrize("n", [1, 2, 17, 100, 1024])
def test_accelerated_cascading_maximum(n: int) -> None:
    """Cole and Vishkin 1986 (JáJá 1992, §2.6): each of ceil(n / b) processors takes the
    maximum of its block of b = ceil(log2 ceil(log2 n)) values sequentially, one value a
    round (b rounds, the last writing the block's maximum), then the doubly logarithmic tree
    on the block maxima, 3 rounds a level (as max-loglog); one block's maximum is copied in
    1 round."""
    b = max(1, ceil_log2(ceil_log2(n)))
    blocks = -(-n // b)
    count, size, levels = blocks, 2, 0
    while count > 1:  # the tree's levels: groups of 2, 4, 16, 256, ... values
        count, size, levels = -(-count // min(size, count)), size * size, levels + 1
    assert ran("max-cascading", n=n).cost.rounds == b + (3 * levels if levels else 1)


@pytest.mark.parametrize("n", [1, 2, 17, 100, 256])
def test_selection_by_radix_counting(n: int) -> None:
    """For each of the d bits: b = ceil(log2 n) rounds in which each of B = ceil(n / b)
    processors scans its block (the last writing its count; accelerated cascading, JáJá
    1992, §2.6), ceil(log2 B) rounds of a balanced-tree sum (§2.1), one round in which
    processor 0 reads the total and writes the new prefix, and ceil(log2 B) rounds
    broadcasting it by doubling: b + 2 ceil(log2 B) + 1 rounds; one round writes the answer.
    The program's broadcast takes one round more (B >= 2): processor 0 reads the prefix by
    itself first, since each later step of the doubling both reads and writes (a round of
    its own)."""
    run = ran("selection", n=n)
    d, b = int(run.bound_sizes["b"]), max(1, ceil_log2(n))  # d: the values' bits
    blocks = -(-n // b)
    textbook = b + 2 * ceil_log2(blocks) + 1
    broadcast_read = 1 if blocks > 1 else 0
    assert run.cost.rounds == d * (textbook + broadcast_read) + 1
