"""A catalogue of classic PRAM algorithms, one per access model that makes it work.

Each function below runs one textbook algorithm on a machine the caller made (so the caller
picks the model and reads the ledger), and returns its answer as a host array after the run.
Each is written for the weakest model it needs, and its docstring gives that model, its bounds
and its exact step count; run under a weaker model, the machine flags what it needs:

==================  ===============  ================================  =========  =============
function            model            idea                              time       work
==================  ===============  ================================  =========  =============
``list_ranking``    EREW             Wyllie's pointer jumping          O(log n)   O(n log n)
``prefix_sums``     EREW             balanced tree (Brent and Kung)    O(log n)   O(n)
``merge``           CREW             binary search of the other array  O(log n)   O(n log n)
``matrix_multiply`` CREW             n^3 products, then tree sums      O(log n)   O(n^3)
``maximum``         CRCW common      all pairs write "not the max"     O(1)       O(n^2)
``rank_sort``       CRCW sum         all pairs add 1 to a rank         O(1)       O(n^2)
==================  ===============  ================================  =========  =============

Between steps a processor only computes elementwise on its own registers (``np.where``,
arithmetic, comparisons); every address is computed from the sizes or from the processor's own
registers, and everything that moves a value between processors is a step. Checks of the input
that need a whole-array look (is this one list? are these sorted?) are the caller's, before
the run (see :mod:`pram.reports.catalogue`).

>>> from pram import Machine
>>> m = Machine("crcw-common")
>>> maximum(m, np.array([3, 9, 2, 9])).tolist(), m.cost.time, len(m.violations)
([9, 1], 4, 0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pram import Array, InputError, Machine, Program, Read, Step, Words, Write, iota, phase, words
from pram.algorithms import primitives
from pram.algorithms.acting import answer_of

#: The successor of a list's tail.
NIL = -1


def _values(values: Any, what: str) -> Words:
    array = words(values, what)
    if len(array) == 0:
        raise InputError(f"{what} must hold at least one value (got an empty array)")
    return array


def _family(array: Array) -> str:
    """The name of a program's scratch arrays: its output's, up to the last ``/``."""
    return array.name.rsplit("/", 1)[0]


def _rounds(n: int) -> int:
    """``ceil(log2 n)``: the doublings that take 1 to at least ``n`` (0 for n <= 1)."""
    return (n - 1).bit_length() if n > 1 else 0


# ---- list ranking: Wyllie's pointer jumping (EREW) --------------------------------------------


def list_ranking(m: Machine, successors: Any) -> Words:
    """Each node's number of links to the tail of one linked list, by pointer jumping (EREW).

    ``successors[i]`` is the node after ``i`` (``-1`` for the tail); the list must be one list
    through all n nodes. Time ``2 ceil(log2 n) + 2`` steps, work ``n`` times that:
    O(log n) time, O(n log n) work. See :func:`rank_list` for the schedule.

    >>> m = Machine("erew")
    >>> list_ranking(m, np.array([2, -1, 3, 1])).tolist(), m.cost.time, len(m.violations)
    ([3, 0, 2, 1], 6, 0)
    """
    successor = _values(successors, "successors")
    n = len(successor)
    nxt = m.array("list-ranking/next", values=successor)
    rank = m.array("list-ranking/rank", size=n)
    m.run(phase("list-ranking", rank_list(m, nxt, rank, n)))
    return rank.to_numpy()


def rank_list(m: Machine, nxt: Array, rank: Array, n: int) -> Program[None]:
    """Fill ``rank`` with each node's distance to the tail; ``nxt`` is overwritten (EREW).

    Processor ``i`` owns node ``i``. It reads ``nxt[i]`` (step 1) and writes ``rank[i]`` = 1,
    or 0 for the tail (step 2). Then ``ceil(log2 n)`` rounds of two steps: every processor
    whose successor ``j`` is not nil reads ``rank[j]`` and ``nxt[j]``; then it writes
    ``rank[i] + rank[j]`` and ``nxt[j]`` into its own cells. The tail is exclusive: a node
    whose successor is nil stays idle instead of pointing at the tail, so at every round the
    successors read are distinct nodes (``next^(2^r)`` is one-to-one on a list) and no cell is
    read twice. Reads and writes of a cell never share a step.
    """
    pid = m.processors(n)
    own = iota(n)
    (succ,) = yield Step(pid, reads=(Read(nxt, own),))
    mine = np.where(succ == NIL, 0, 1)
    yield Step(pid, writes=(Write(rank, own, mine),))
    for _ in range(_rounds(n)):
        linked = succ != NIL
        at = np.where(linked, succ, 0)
        far, beyond = yield Step(
            pid, reads=(Read(rank, at, where=linked), Read(nxt, at, where=linked))
        )
        mine = np.where(linked, mine + far, mine)
        succ = np.where(linked, beyond, succ)
        yield Step(pid, writes=(Write(rank, own, mine), Write(nxt, own, succ)))


# ---- prefix sums: a balanced tree (EREW) -----------------------------------------------------


def prefix_sums(m: Machine, values: Any) -> Words:
    """The inclusive prefix sums of ``values``, by Brent and Kung's balanced tree (EREW).

    The project's one prefix sum, :func:`pram.algorithms.primitives.prefix_sums`: an up-sweep
    and a down-sweep, each combine two steps. O(log n) time, O(n) work; for n a power of two,
    ``2 (2n - log2 n - 2)`` work (exact counts in its docstring).

    >>> m = Machine("erew")
    >>> prefix_sums(m, np.array([1, 2, 3, 4])).tolist(), m.cost.time, m.cost.work
    ([1, 3, 6, 10], 6, 8)
    """
    array = _values(values, "values")
    sums = m.array("prefix-sums", values=array)
    m.run(phase("prefix-sums", primitives.prefix_sums(m, sums, len(array))))
    return sums.to_numpy()


# ---- merge: every element binary-searches the other array (CREW) -------------------------------


def merge(m: Machine, a: Any, b: Any) -> Words:
    """Merge sorted ``a`` and sorted ``b`` (CREW): each element finds its rank in the other.

    Element ``a[i]`` lands at ``i + #{b < a[i]}`` and ``b[j]`` at ``j + #{a <= b[j]}``, so
    equal values keep ``a``'s before ``b``'s and the places are a permutation (exclusive
    writes). The searches are binary searches that many processors run at once over the same
    probes: the first probe of every ``a`` element is the middle of ``b``, a concurrent read,
    which is why this needs CREW. Time ``max(bitlen p, bitlen q) + 2`` for lengths p and q,
    work ``(p + q)`` times that: O(log n) time, O(n log n) work.

    >>> m = Machine("crew")
    >>> merge(m, np.array([1, 4, 4]), np.array([2, 4, 7])).tolist(), len(m.violations)
    ([1, 2, 4, 4, 4, 7], 0)
    """
    left = _values(a, "a")
    right = _values(b, "b")
    p, q = len(left), len(right)
    a_cells = m.array("merge/a", values=left)
    b_cells = m.array("merge/b", values=right)
    out = m.array("merge/out", size=p + q)
    m.run(phase("merge", merge_arrays(m, a_cells, p, b_cells, q, out)))
    return out.to_numpy()


def merge_arrays(m: Machine, a: Array, p: int, b: Array, q: int, out: Array) -> Program[None]:
    """Write the merge of sorted ``a[:p]`` and ``b[:q]`` to ``out`` (CREW).

    Processors ``0..p-1`` own ``a``'s elements, ``p..p+q-1`` own ``b``'s. Step 1: each reads
    its own element. Then ``max(bitlen q, bitlen p)`` probe steps of a binary search over
    ``[lo, hi)`` in the other array, a processor whose range is empty sitting out; the last
    step writes each element to its place.
    """
    pid = m.processors(p + q)
    mine = iota(p + q)
    is_a = mine < p
    own = np.where(is_a, mine, mine - p)
    x, y = yield Step(pid, reads=(Read(a, own, where=is_a), Read(b, own, where=~is_a)))
    value = np.where(is_a, x, y)
    lo = np.zeros(p + q, dtype=np.int64)
    hi = np.where(is_a, q, p)  # the other array's length
    for _ in range(max(q.bit_length(), p.bit_length())):
        searching = lo < hi
        mid = (lo + hi) // 2
        in_b = searching & is_a
        in_a = searching & ~is_a
        probe_b, probe_a = yield Step(
            pid, reads=(Read(b, mid, where=in_b), Read(a, mid, where=in_a))
        )
        # a's elements count the b's strictly below them, b's the a's at or below them
        right = np.where(is_a, probe_b < value, probe_a <= value)
        lo = np.where(searching & right, mid + 1, lo)
        hi = np.where(searching & ~right, mid, hi)
    yield Step(pid, writes=(Write(out, own + lo, value),))


# ---- matrix product: n^3 products, then a tree of sums (CREW) ---------------------------------


def matrix_multiply(m: Machine, a: Any, b: Any) -> Words:
    """The product ``a @ b`` of two n x n integer matrices with n^3 processors (CREW).

    Processor ``(i, j, k)`` reads ``a[i, k]`` and ``b[k, j]`` (each read by n processors at
    once: CREW), writes their product, and the n products of each ``(i, j)`` are summed by a
    binary tree, two steps per level. Time ``2 ceil(log2 n) + 4``, work ``2 n^3`` for the
    products, ``2 n^2 (n - 1)`` for the sums and ``2 n^2`` for the copy out: O(log n) time,
    O(n^3) work. Returns the product as an n x n array.

    >>> m = Machine("crew")
    >>> matrix_multiply(m, np.array([[1, 2], [3, 4]]), np.eye(2, dtype=np.int64)).tolist()
    [[1, 2], [3, 4]]
    """
    left = words(a, "a", ndim=2)
    right = words(b, "b", ndim=2)
    n = len(left)
    if n == 0 or left.shape != (n, n) or right.shape != (n, n):
        raise InputError(
            f"a and b must be square matrices of one size n >= 1 (got shapes {left.shape} and "
            f"{right.shape}); pass two n x n arrays"
        )
    a_cells = m.array("matrix-multiply/a", values=left.reshape(-1))
    b_cells = m.array("matrix-multiply/b", values=right.reshape(-1))
    c_cells = m.array("matrix-multiply/c", size=n * n)
    m.run(phase("matrix-multiply", multiply(m, a_cells, b_cells, c_cells, n)))
    return c_cells.to_numpy().reshape(n, n)


def multiply(m: Machine, a: Array, b: Array, c: Array, n: int) -> Program[None]:
    """``c = a @ b`` for n x n matrices stored row by row (CREW)."""
    products = m.array(f"{_family(c)}/products", size=n**3)
    cell = iota(n**3)  # processor (i, j, k) owns products[(i n + j) n + k]
    i, j, k = cell // (n * n), (cell // n) % n, cell % n
    pid = m.processors(n**3)
    x, y = yield Step(pid, reads=(Read(a, i * n + k), Read(b, k * n + j)))
    yield Step(pid, writes=(Write(products, cell, x * y),))
    # tree sum over k: at level h, k = 0 mod 2h adds products[k + h] into products[k]
    h = 1
    while h < n:
        adds = (k % (2 * h) == 0) & (k + h < n)
        yield from _add(pid[adds], products, cell[adds], cell[adds] + h)
        h *= 2
    pair = iota(n * n)
    first = pid[pair * n]  # processor (i, j, 0) copies the sum out
    (total,) = yield Step(first, reads=(Read(products, pair * n),))
    yield Step(first, writes=(Write(c, pair, total),))


def _add(pid: Words, array: Array, target: Words, source: Words) -> Program[None]:
    """``array[target] += array[source]``, one processor each: read both, then write."""
    x, y = yield Step(pid, reads=(Read(array, target), Read(array, source)))
    yield Step(pid, writes=(Write(array, target, x + y),))


# ---- maximum: all pairs compare, the beaten write "not the max" (CRCW common) ------------------


def _all_pairs(m: Machine, n: int) -> tuple[Words, Words, Words]:
    """n^2 processors, one per pair: processor ``(i, j)`` is number ``i n + j``; its ids
    and each one's ``i`` and ``j``."""
    pair = iota(n * n)
    return m.processors(n * n), pair // n, pair % n


def maximum(m: Machine, values: Any) -> Words:
    """``[max, first index of the max]`` of ``values`` in 4 steps with n^2 processors
    (CRCW common).

    Processor ``(i, j)`` reads ``values[i]`` and ``values[j]``; the diagonal ``(i, i)`` marks
    ``i`` as a candidate. Then every ``(i, j)`` whose ``j`` beats ``i`` (larger, or equal with
    a smaller index) writes 0, "not the max", to ``i``'s flag: many processors write one flag
    at once, all the same value, which CRCW common allows and CREW does not. The one survivor
    reads its flag and writes the answer. Time 4 at every n, work ``2 n^2 + 2 n``: O(1) time.
    """
    return answer_of(m, "max", _values(values, "values"), 2,
                     lambda cells, n, out: find_max(m, cells, n, out))


def find_max(m: Machine, values: Array, n: int, out: Array) -> Program[None]:
    """Write the maximum of ``values[:n]`` and its first index to ``out[0]``, ``out[1]``."""
    flags = m.array(f"{_family(out)}/candidate", size=n)
    pid, i, j = _all_pairs(m, n)
    diagonal = i == j
    x, y = yield Step(
        pid,
        reads=(Read(values, i), Read(values, j)),
        writes=(Write(flags, i, 1, where=diagonal),),
    )
    beaten = (y > x) | ((y == x) & (j < i))
    yield Step(pid, writes=(Write(flags, i, 0, where=beaten),))
    own = iota(n)
    lead = pid[own * (n + 1)]  # processor (i, i) speaks for i
    mine = x[own * (n + 1)]
    (flag,) = yield Step(lead, reads=(Read(flags, own),))
    won = flag == 1
    yield Step(lead, writes=(Write(out, 0, mine, where=won), Write(out, 1, own, where=won)))


# ---- rank sort: all pairs add 1 to a rank (CRCW sum) -------------------------------------------


def rank_sort(m: Machine, values: Any) -> Words:
    """``values`` sorted ascending in 4 steps with n^2 processors (CRCW sum).

    Processor ``(i, j)`` reads ``values[i]`` and ``values[j]`` and adds 1 to ``i``'s rank when
    ``j`` comes first (smaller, or equal with a smaller index; ties are broken by index), else
    0: n processors write each rank at once and the CRCW sum model adds their values. Processor
    ``(i, i)`` then reads the rank and writes ``values[i]`` to its place (the ranks are a
    permutation: exclusive). Time 4 at every n, work ``2 n^2 + 2 n``: O(1) time.

    >>> m = Machine("crcw-sum")
    >>> rank_sort(m, np.array([5, 1, 5, 0])).tolist(), m.cost.time, len(m.violations)
    ([0, 1, 5, 5], 4, 0)
    """
    array = _values(values, "values")
    return answer_of(m, "rank-sort", array, len(array),
                     lambda cells, n, out: sort_by_rank(m, cells, n, out))


def sort_by_rank(m: Machine, values: Array, n: int, out: Array) -> Program[None]:
    """Write ``values[:n]`` sorted to ``out`` (CRCW sum)."""
    ranks = m.array(f"{_family(out)}/rank", size=n)
    pid, i, j = _all_pairs(m, n)
    x, y = yield Step(pid, reads=(Read(values, i), Read(values, j)))
    first = (y < x) | ((y == x) & (j < i))
    yield Step(pid, writes=(Write(ranks, i, np.where(first, 1, 0)),))
    own = iota(n)
    lead = pid[own * (n + 1)]  # processor (i, i) places i
    mine = x[own * (n + 1)]
    (place,) = yield Step(lead, reads=(Read(ranks, own),))
    yield Step(lead, writes=(Write(out, place, mine),))


__all__ = [
    "NIL",
    "find_max",
    "list_ranking",
    "matrix_multiply",
    "maximum",
    "merge",
    "merge_arrays",
    "multiply",
    "prefix_sums",
    "rank_list",
    "rank_sort",
    "sort_by_rank",
]
