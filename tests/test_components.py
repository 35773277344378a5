"""Connected components by hooking and shortcutting: the partition of a plain union-find,
CRCW arbitrary and priority clean, flagged under CREW and CRCW common, and the edge-list
reader."""

from __future__ import annotations

import doctest
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Formula, InputError, Kind, Machine, check
from pram.algorithms import components
from pram.algorithms.acting import find_root
from pram.algorithms.components import connected_components, parse_edges, read_edges, sv_rounds


def union_find(n: int, edges: list[list[int]]) -> list[int]:
    """The sequential reference: union by pointers, with path halving."""
    parent = list(range(n))
    for u, v in edges:
        parent[find_root(parent, u)] = find_root(parent, v)
    return [find_root(parent, x) for x in range(n)]


def partition(labels: list[int]) -> list[int]:
    """Labels renamed by first appearance, so that two labellings of one partition agree."""
    seen: dict[int, int] = {}
    return [seen.setdefault(label, len(seen)) for label in labels]


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[list[int]]]:
    """Several components: random vertices split into groups, each a path, a star or a random
    connected graph, plus extra edges inside groups, listed in a random order."""
    n = draw(st.integers(min_value=1, max_value=60))
    order = draw(st.permutations(range(n)))
    groups = draw(st.integers(min_value=1, max_value=max(1, n // 3)))
    edges: list[list[int]] = []
    for g in range(groups):
        members = order[g::groups]
        shape = draw(st.sampled_from(["path", "star", "tree"]))
        for k in range(1, len(members)):
            other = {"path": k - 1, "star": 0}.get(shape)
            if other is None:
                other = draw(st.integers(0, k - 1))
            edges.append([members[k], members[other]])
        if len(members) > 2:
            extra = draw(st.integers(0, 3))
            for _ in range(extra):
                edges.append([draw(st.sampled_from(members)), draw(st.sampled_from(members))])
    return n, draw(st.permutations(edges))


def test_the_module_examples_run() -> None:
    """The docstrings' examples give what they print."""
    assert doctest.testmod(components).failed == 0


@pytest.mark.parametrize("model", ["crcw-arbitrary", "crcw-priority"])
@settings(max_examples=40, deadline=None)
@given(graph=graphs(), seed=st.integers(0, 1000))
def test_the_partition_is_union_finds(model: str, graph: tuple[int, list[list[int]]],
                                      seed: int) -> None:
    """The components equal a sequential union-find's, with no violation, and the last round
    that changed a pointer lies within the rounds run."""
    n, edges = graph
    m = Machine(model, seed=seed)
    found = connected_components(m, n, np.array(edges, dtype=np.int64).reshape(-1, 2))
    assert partition(found.labels.tolist()) == partition(union_find(n, edges))
    assert m.violations == [] and found.busy == found.rounds - 1 <= sv_rounds(n)
    assert found.tests == found.rounds == m.cost.loop_tests


def test_random_graphs_at_larger_sizes() -> None:
    """Sparse random graphs (many components) at n = 500 and 2000: right partition, and the
    loop ends one round after the last that changed anything, well within the
    ceil(log_{3/2} n) + 1 rounds of the bound."""
    for n in (500, 2000):
        for seed in range(3):
            rng = np.random.default_rng(seed)
            edges = rng.integers(0, n, (n // 2, 2))
            m = Machine("crcw-arbitrary", seed=seed)
            found = connected_components(m, n, edges)
            assert partition(found.labels.tolist()) == partition(union_find(n, edges.tolist()))
            assert m.violations == [] and 1 <= found.busy == found.rounds - 1 < sv_rounds(n)


def test_time_is_18_steps_a_round_and_work_linear_per_round() -> None:
    """Time is 18 steps a measured round (17 and the loop test) + 1, with the rounds within
    log_{3/2} n + 3, O(log n); each round's work is 13 n + 8 e + 1 (the control processor
    reading the flag), and reading the edges 2e more: O((n + e) log n) in all."""
    for n in (64, 256, 1024):
        edges = np.random.default_rng(n).integers(0, n, (2 * n, 2))
        m = Machine("crcw-arbitrary")
        found = connected_components(m, n, edges)
        assert m.cost.time == 18 * found.rounds + 1 and m.cost.loop_tests == found.rounds
        assert found.rounds <= math.log(n) / math.log(1.5) + 3
        assert m.cost.work == found.rounds * (13 * n + 8 * 2 * n + 1) + 2 * 2 * n


def test_the_loop_ends_on_the_first_quiet_round() -> None:
    """A path of n vertices needs more rounds than an edgeless graph (one quiet round, one
    test): the rounds are measured from the data, not fixed by n."""
    n = 64
    quiet = connected_components(Machine("crcw-arbitrary"), n, np.zeros((0, 2), np.int64))
    path = connected_components(Machine("crcw-arbitrary"), n, np.c_[0 : n - 1, 1:n])
    assert (quiet.rounds, quiet.busy, quiet.tests) == (1, 0, 1)
    assert 2 <= path.rounds == path.tests <= sv_rounds(n) + 1
    assert partition(path.labels.tolist()) == [0] * n


@pytest.mark.parametrize("model", ["crew", "crcw-common"])
def test_weaker_models_flag_the_hooks(model: str) -> None:
    """Under CREW, and under CRCW common (the arcs of one star write different labels into
    its root), the hooking writes are flagged as write/write conflicts."""
    n = 40
    edges = np.array([[k, (k * 7 + 3) % n] for k in range(n)])
    m = Machine(model)
    connected_components(m, n, edges)
    assert any(v.kind is Kind.WRITE_WRITE and v.array == "components/parent"
               for v in m.violations)


def test_an_edge_list_file_gives_union_finds_partition(tmp_path: Path) -> None:
    """A file of `u v` lines, with comments and blank lines, is read and solved."""
    rng = np.random.default_rng(7)
    edges = rng.integers(0, 300, (200, 2))
    text = "# a random graph\n\n" + "\n".join(f"{u} {v}" for u, v in edges.tolist()) + "\n"
    path = tmp_path / "graph.txt"
    path.write_text(text)
    n, read = read_edges(path)
    assert n == int(edges.max()) + 1 and read.tolist() == edges.tolist()
    m = Machine("crcw-arbitrary")
    found = connected_components(m, n, read)
    assert partition(found.labels.tolist()) == partition(union_find(n, edges.tolist()))
    assert found.tests == found.rounds == m.cost.loop_tests and found.busy == found.rounds - 1


def test_a_bad_line_is_named_with_its_number() -> None:
    """A line that is not two non-negative integers is refused with its number and a fix."""
    with pytest.raises(InputError) as refused:
        parse_edges("0 1\n1 2 5\n", "g.txt")
    assert str(refused.value) == ("g.txt line 2: expected two non-negative integers `u v` "
                                  "(got '1 2 5'); fix that line or start it with #")


def test_an_edge_outside_the_vertices_is_refused() -> None:
    """An edge naming a vertex >= n is refused before any run."""
    with pytest.raises(InputError, match=r"edge 1 names vertex 9, outside 0\.\.3"):
        connected_components(Machine("crcw-arbitrary"), 4, [[0, 1], [9, 2]])


def test_the_time_bound_check_holds() -> None:
    """Over n = 64..1024 (random graphs with n edges), pram.check finds time O(log n)."""
    log = Formula("log2(n)", lambda s: math.log2(s["n"]))
    times = []
    for n in (64, 128, 256, 512, 1024):
        m = Machine("crcw-arbitrary")
        connected_components(m, n, np.random.default_rng(n).integers(0, n, (n, 2)))
        times.append(({"n": n}, m.cost.time))
    assert check("time", log, times).verdict == "holds"
