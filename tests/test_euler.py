"""The Euler tour technique: parent, depth, preorder and subtree size equal a depth-first
walk's, EREW clean, O(log n) time and O(n) work after the sort."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import InputError, Machine
from pram.algorithms import euler
from pram.algorithms.euler import euler_tour


def walk(n: int, edges: list[list[int]], root: int) -> tuple[list[int], ...]:
    """The sequential reference: an iterative depth-first walk that leaves a vertex's
    neighbours in the order of its edges, starting after the one it came from."""
    around: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        around[u].append(v)
        around[v].append(u)
    parent, depth, preorder, size = [-1] * n, [0] * n, [0] * n, [1] * n
    counter = 0
    stack = [(root, -1)]
    finished: list[int] = []
    while stack:
        vertex, came_from = stack.pop()
        preorder[vertex] = counter
        counter += 1
        finished.append(vertex)
        nexts = around[vertex]
        if came_from >= 0:
            k = nexts.index(came_from)
            nexts = nexts[k + 1:] + nexts[:k]
        for child in reversed(nexts):
            parent[child], depth[child] = vertex, depth[vertex] + 1
            stack.append((child, vertex))
    for vertex in reversed(finished):
        if parent[vertex] >= 0:
            size[parent[vertex]] += size[vertex]
    return parent, depth, preorder, size


@st.composite
def trees(draw: st.DrawFn) -> tuple[int, list[list[int]], int]:
    """A random tree on 0..n-1 (random labels, random edge order and orientation), a root."""
    n = draw(st.integers(min_value=1, max_value=70))
    labels = draw(st.permutations(range(n)))
    edges = []
    for k in range(1, n):
        other = draw(st.integers(0, k - 1))
        pair = [labels[k], labels[other]]
        edges.append(pair if draw(st.booleans()) else pair[::-1])
    return n, draw(st.permutations(edges)), draw(st.integers(0, n - 1))


def test_the_module_examples_run() -> None:
    """The docstrings' examples give what they print."""
    assert doctest.testmod(euler).failed == 0


@settings(max_examples=40, deadline=None)
@given(trees(), st.integers(0, 1000))
def test_the_numbers_are_a_depth_first_walks(tree: tuple[int, list[list[int]], int],
                                             seed: int) -> None:
    """Parent, depth, preorder number and subtree size equal the walk's, EREW clean."""
    n, edges, root = tree
    m = Machine("erew")
    got = euler_tour(m, np.array(edges, dtype=np.int64).reshape(-1, 2), root, seed=seed)
    assert (got.parent.tolist(), got.depth.tolist(), got.preorder.tolist(),
            got.size.tolist()) == walk(n, edges, root)
    assert m.violations == [] and m.undefined_reads == []


def test_after_the_sort_time_is_logarithmic_and_work_linear() -> None:
    """Outside the sort phase, time / log2 n stays under 40 (36.3 at n = 128, 32.7 at 2048)
    and work / n under 85 (about 78: two rankings of 2(n - 1) arcs) and does not grow, from
    n = 128 to 2048 (random trees and a path, the deepest)."""
    for shape in ("random", "path"):
        time_ratio, work_ratio = [], []
        for n in (128, 512, 2048):
            rng = np.random.default_rng(n)
            if shape == "path":
                edges = np.array([[k, k + 1] for k in range(n - 1)])
            else:
                edges = np.array([[int(rng.integers(0, k)), k] for k in range(1, n)])
            m = Machine("erew")
            euler_tour(m, edges, 0)
            sort = m.cost.phases["euler/sort"]
            time_ratio.append((m.cost.time - sort.time) / math.log2(n))
            work_ratio.append((m.cost.work - sort.work) / n)
        assert max(time_ratio) < 40 and time_ratio[-1] <= time_ratio[0]
        assert max(work_ratio) < 85 and work_ratio[-1] <= work_ratio[0] + 1


def test_a_cycle_is_refused() -> None:
    """Edges that close a cycle are not a tree: refused before any run, naming the edge."""
    with pytest.raises(InputError, match=r"edge 2 \(2, 0\) closes a cycle"):
        euler_tour(Machine("erew"), [[0, 1], [1, 2], [2, 0]])
