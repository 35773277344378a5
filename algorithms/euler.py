"""The Euler tour technique on a tree: rooting, depth, preorder number and subtree size (EREW).

Each edge {u, v} becomes two arcs, (u, v) and (v, u). With the arcs of each vertex in a
circular list, the arc after (u, v) in the Euler tour is the arc after (v, u) in v's list,
which every arc finds in O(1) steps; cutting the cycle before the root's first arc gives a
list of the 2(n-1) arcs in the order of a depth-first walk. List ranking with weights along
that list gives everything (Tarjan and Vishkin, "An efficient parallel biconnectivity
algorithm", SIAM J. Computing 14, 1985; JáJá, "An Introduction to Parallel Algorithms", 1992,
section 3.2): an arc that comes before its twin goes down (parent to child); with S1(a) the
number of arcs from a to the end of the tour and S2(a) the number of down arcs among them, a
down arc a = (u, v) with twin t gives ``parent[v] = u``, ``preorder[v] = n - S2(a)``,
``depth[v] = S1(a) - 2 S2(a) + 1`` and ``size[v] = S2(a) - S2(t)``.

The arcs are grouped by their tail with Batcher's bitonic sort (key ``tail * 2(n-1) + arc``):
O(log^2 n) time and O(n log^2 n) work, the whole run's bound. The tour and its quantities
after the sort take O(log n) time and O(n) expected work (two random-mate list rankings,
:mod:`pram.algorithms.ranking`); a tree given as adjacency lists, as the textbook assumes,
needs only that part. The per-phase ledger shows both.

>>> import numpy as np
>>> from pram import Machine
>>> m = Machine("erew")
>>> tree = euler_tour(m, np.array([[0, 1], [0, 2], [2, 3]]), root=0)
>>> tree.parent.tolist(), tree.depth.tolist(), tree.size.tolist(), m.violations
([-1, 0, 0, 2], [0, 1, 1, 2], [4, 1, 2, 1], [])
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from pram import Array, InputError, Machine, Program, Read, Step, Words, Write, iota, phase, words
from pram.algorithms import networks
from pram.algorithms.acting import NIL, coins, find_root, first_true
from pram.algorithms.ranking import mate_rounds, rank_randomly


@attrs.frozen
class Rooted:
    """A tree rooted by :func:`euler_tour`: one entry per vertex (the root's parent is -1,
    its depth and preorder number 0, its subtree size n)."""

    parent: Words
    depth: Words
    preorder: Words
    size: Words


def euler_tour(m: Machine, edges: Any, root: int = 0, *, seed: int = 0) -> Rooted:
    """Root the tree with ``edges`` (an ``(n - 1, 2)`` array on vertices ``0..n-1``) at
    ``root``, and number it, by the Euler tour technique (EREW).

    A vertex's arcs are listed in the order of its edges in ``edges``, so the preorder visits
    the root's children in that order, and another vertex's children in that cyclic order
    starting after its parent (the tour leaves a vertex by the arc after the one it came in
    by). Time O(log^2 n) (the sort; the rest O(log n)), work O(n log^2 n) (the rest O(n)
    expected). The list rankings' coins come from ``seed``.

    >>> m = Machine("erew")
    >>> euler_tour(m, np.array([[1, 0], [1, 2]]), root=1).preorder.tolist()
    [1, 0, 2]
    """
    pairs = _tree(edges, root)
    n = len(pairs) + 1
    if n == 1:
        one = np.zeros(1, dtype=np.int64)
        return Rooted(np.full(1, NIL, dtype=np.int64), one, one.copy(), np.ones(1, np.int64))
    arcs = 2 * (n - 1)
    us = m.array("euler/u", values=pairs[:, 0].copy())
    vs = m.array("euler/v", values=pairs[:, 1].copy())
    parent = m.array("euler/parent", values=np.full(n, NIL, dtype=np.int64))
    depth = m.array("euler/depth", values=np.zeros(n, dtype=np.int64))
    preorder = m.array("euler/preorder", values=np.zeros(n, dtype=np.int64))
    size = m.array("euler/size", values=np.full(n, n, dtype=np.int64))
    first = coins(m, "euler/coins 1", mate_rounds(arcs) * arcs, seed)
    second = coins(m, "euler/coins 2", mate_rounds(arcs) * arcs, seed + 1)
    m.run(phase("euler", number_tree(
        m, us, vs, n, root, (parent, depth, preorder, size), (first, second))))
    return Rooted(parent.to_numpy(), depth.to_numpy(), preorder.to_numpy(), size.to_numpy())


def number_tree(
    m: Machine, us: Array, vs: Array, n: int, root: int,
    out: tuple[Array, Array, Array, Array], coin: tuple[Array, Array],
) -> Program[None]:
    """Fill ``out = (parent, depth, preorder, size)`` for the non-root vertices (EREW).

    Phases: ``arcs`` (2 steps: each edge writes its two arcs' keys), ``sort`` (the bitonic
    network on the keys, padded to a power of two), ``tour`` (8 steps: every position learns
    its arc, its twin's position, the next arc of its tail's circular list and so its tour
    successor), ``rank 1`` and ``rank 2`` (the two list rankings) and ``quantities`` (6 steps).
    """
    parent, depth, preorder, size = out
    family = parent.name.rsplit("/", 1)[0]
    arcs = 2 * (n - 1)
    width = 1 << (arcs - 1).bit_length()
    keys = m.array(f"{family}/keys", values=n * arcs + np.arange(width, dtype=np.int64))
    yield from phase("arcs", _arc_keys(m, us, vs, n - 1, keys, arcs))
    yield from phase("sort", _group_arcs(m, keys))
    tour = m.array(f"{family}/tour", size=arcs)
    walkers = m.processors(arcs)  # processor q owns position q of the sorted arcs
    twin_at, tail, head = yield from phase("tour", _tour(m, walkers, keys, arcs, root, tour))
    s1 = m.array(f"{family}/S1", size=arcs)
    s2 = m.array(f"{family}/S2", size=arcs)
    ones = m.array(f"{family}/ones", values=np.ones(arcs, dtype=np.int64))
    down = m.array(f"{family}/down", size=arcs)
    yield from phase("rank 1", rank_randomly(m, tour, s1, arcs, coin[0], ones))
    position = iota(arcs)
    mine, twins = yield from phase("quantities", _read_pair(walkers, s1, position, twin_at))
    goes_down = mine > twins
    yield from phase("quantities", _write(walkers, down, position, np.where(goes_down, 1, 0)))
    yield from phase("rank 2", rank_randomly(m, tour, s2, arcs, coin[1], down))
    mine2, twins2 = yield from phase("quantities", _read_pair(walkers, s2, position, twin_at))
    yield Step(walkers, writes=(
        Write(parent, head, tail, where=goes_down),
        Write(preorder, head, n - mine2, where=goes_down),
        Write(depth, head, mine - 2 * mine2 + 1, where=goes_down),
        Write(size, head, mine2 - twins2, where=goes_down),
    ), phase="quantities")
    for scratch in (keys, tour, s1, s2, ones, down):
        m.free(scratch)


def _group_arcs(m: Machine, keys: Array) -> Program[None]:
    """Sort the arc keys with the bitonic network: the arcs of each tail become contiguous,
    in the order of their edges."""
    yield from networks.sort(m, keys, "bitonic")


def _read_pair(pid: Words, array: Array, position: Words, twin: Any) -> Program[tuple[Any, Any]]:
    """Each position reads its own entry of ``array``, then its twin's (2 steps: a position is
    its twin's twin, so one step would read every cell twice)."""
    (mine,) = yield Step(pid, reads=(Read(array, position),))
    (twins,) = yield Step(pid, reads=(Read(array, twin),))
    return mine, twins


def _write(pid: Words, array: Array, position: Words, value: Any) -> Program[None]:
    yield Step(pid, writes=(Write(array, position, value),))


def _arc_keys(m: Machine, us: Array, vs: Array, e: int, keys: Array, arcs: int) -> Program[None]:
    """Edge ``k`` writes ``u * arcs + 2k`` and ``v * arcs + 2k + 1``: arc 2k is (u, v), arc
    2k + 1 its twin (v, u)."""
    pid = m.processors(e)
    edge = iota(e)
    u, v = yield Step(pid, reads=(Read(us, edge), Read(vs, edge)))
    yield Step(pid, writes=(
        Write(keys, 2 * edge, u * arcs + 2 * edge),
        Write(keys, 2 * edge + 1, v * arcs + 2 * edge + 1),
    ))


def _tour(
    m: Machine, pid: Words, keys: Array, arcs: int, root: int, tour: Array
) -> Program[tuple[Any, Any, Any]]:
    """Write every position's tour successor (by position) to ``tour``; return, per
    position, its twin's position, its arc's tail and its arc's head (registers)."""
    family = tour.name.rsplit("/", 1)[0]
    at = m.array(f"{family}/position", size=arcs)
    before = m.array(f"{family}/tail before", size=arcs)
    after = m.array(f"{family}/tail after", size=arcs)
    start = m.array(f"{family}/first", size=arcs // 2 + 1)
    following = m.array(f"{family}/following", size=arcs)
    closes = m.array(f"{family}/closes", size=arcs)
    q = iota(arcs)
    (key,) = yield Step(pid, reads=(Read(keys, q),))
    tail, arc = key // arcs, key % arcs
    yield Step(pid, writes=(
        Write(at, arc, q),
        Write(before, np.minimum(q + 1, arcs - 1), tail, where=q + 1 < arcs),
        Write(after, np.maximum(q - 1, 0), tail, where=q >= 1),
    ))
    twin, left, right = yield Step(pid, reads=(
        Read(at, arc ^ 1), Read(before, q, where=q >= 1), Read(after, q, where=q + 1 < arcs)))
    heads = (q == 0) | (left != tail)
    lasts = (q == arcs - 1) | (right != tail)
    yield Step(pid, writes=(Write(start, tail, q, where=heads),))
    (wrap,) = yield Step(pid, reads=(Read(start, tail, where=lasts),))
    yield Step(pid, writes=(
        Write(following, q, np.where(lasts, wrap, q + 1)),
        Write(closes, q, np.where(lasts & (tail == root), 1, 0)),
    ))
    nxt, ends, twin_key = yield Step(pid, reads=(
        Read(following, twin), Read(closes, twin), Read(keys, twin)))
    yield Step(pid, writes=(Write(tour, q, np.where(ends == 1, NIL, nxt)),))
    for scratch in (at, before, after, start, following, closes):
        m.free(scratch)
    return twin, tail, twin_key // arcs


def _tree(edges: Any, root: int) -> Words:
    """``edges`` as an ``(n - 1, 2)`` array forming a tree on ``0..n-1``, or an InputError
    (a host-side check before any run)."""
    pairs = words(edges, "edges", ndim=2) if np.size(edges) else np.zeros((0, 2), np.int64)
    if pairs.shape[1:] != (2,):
        raise InputError(f"edges must have two columns, u and v (got shape {pairs.shape}); "
                         "pass the n - 1 edges of a tree, one (u, v) pair per row")
    n = len(pairs) + 1
    bad = first_true(((pairs < 0) | (pairs >= n)).reshape(-1))
    if bad is not None:
        raise InputError(f"edge {bad // 2} names vertex {pairs.reshape(-1)[bad]}, but a tree "
                         f"with {n - 1} edges has vertices 0..{n - 1}; relabel the vertices")
    if isinstance(root, bool) or not isinstance(root, int | np.integer) or not 0 <= root < n:
        raise InputError(f"root must be a vertex in 0..{n - 1} (got {root!r})")
    label = list(range(n))
    for k, (u, v) in enumerate(pairs.tolist()):
        a, b = find_root(label, u), find_root(label, v)
        if a == b:
            raise InputError(f"edge {k} ({u}, {v}) closes a cycle, so the edges are not a "
                             "tree; pass the n - 1 edges of a tree")
        label[a] = b
    return pairs


__all__ = ["Rooted", "euler_tour", "number_tree"]
