"""The techniques entries of the catalogue through the command line: held-out files against
references written here (a walk, Python's own arithmetic, a breadth-first search, numpy),
random instances, negative controls, sweeps and one-line refusals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pram.algorithms.contraction import parse_expression
from pram.reports.catalogue import CONTROLS
from pram.reports.techniques import CONTROLS as TECHNIQUE_CONTROLS
from tests.commands import assert_answers_held_out, one_line_error, run_json
from tests.helpers import random_expression

MODELS = {"list-ranking-random": "erew", "euler-tour": "erew", "tree-contraction": "erew",
          "components": "crcw-arbitrary", "compaction": "erew", "max-loglog": "crcw-common",
          "max-cascading": "crcw-common", "selection": "erew"}


# ---- references written here, independent of the entries' own ------------------------------


def walk_ranks(successors: np.ndarray) -> list[int]:
    """Links to the tail, by following each node's successors to the end."""
    out = []
    for start in range(len(successors)):
        node, links = start, 0
        while successors[node] != -1:
            node, links = int(successors[node]), links + 1
        out.append(links)
    return out


def tour_numbers(n: int, edges: np.ndarray) -> list[list[int]]:
    """(parent, depth, preorder, size) per vertex by a recursive walk from vertex 0 that visits
    a vertex's neighbours in the order of its edges, starting after its parent."""
    around: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges.tolist():
        around[u].append(v)
        around[v].append(u)
    rows = [[-1, 0, 0, 1] for _ in range(n)]
    count = [0]

    def visit(v: int, parent: int, depth: int) -> int:
        rows[v][:3] = [parent, depth, count[0]]
        count[0] += 1
        start = around[v].index(parent) + 1 if parent >= 0 else 0
        size = 1
        for w in around[v][start:] + around[v][:start]:
            if w != parent:
                size += visit(w, v, depth + 1)
        rows[v][3] = size
        return size

    visit(0, -1, 0)
    return rows


def random_tree(rng: np.random.Generator, n: int) -> np.ndarray:
    """The n - 1 edges of a random tree on 0..n-1 (each vertex below a random earlier one in
    a random order), in a random order."""
    order = rng.permutation(n)
    edges = [(int(order[i]), int(order[rng.integers(0, i)])) for i in range(1, n)]
    return np.array(edges, dtype=np.int64)[rng.permutation(n - 1)]


def component_minima(n: int, edges: np.ndarray) -> list[int]:
    """Each vertex's smallest connected vertex, by breadth-first search from every vertex in
    increasing order."""
    around: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges.tolist():
        around[u].append(v)
        around[v].append(u)
    label = [-1] * n
    for s in range(n):
        if label[s] < 0:
            label[s], frontier = s, [s]
            while frontier:
                frontier = [w for v in frontier for w in around[v] if label[w] < 0
                            and not label.__setitem__(w, s)]
    return label


# ---- held-out inputs through --input and --output -------------------------------------------

SUCCESSORS = np.array([3, 5, -1, 6, 2, 0, 4])  # the list 1 5 0 3 6 4 2


def held_out(tmp_path: Path) -> dict[str, tuple[Path, np.ndarray, tuple[str, ...]]]:
    """One input file per entry, the answer a reference here gives, and extra arguments."""
    rng = np.random.default_rng(23)
    files: dict[str, tuple[Path, np.ndarray, tuple[str, ...]]] = {}
    order = rng.permutation(300)
    successors = np.full(300, -1, dtype=np.int64)
    successors[order[:-1]] = order[1:]
    np.save(tmp_path / "list.npy", successors)
    files["list-ranking-random"] = (tmp_path / "list.npy", np.array(walk_ranks(successors)), ())
    tree = random_tree(rng, 200)
    np.save(tmp_path / "tree.npy", tree)
    files["euler-tour"] = (tmp_path / "tree.npy", np.array(tour_numbers(200, tree)), ())
    text = random_expression(rng, 150, 10)
    left, right, op, value = parse_expression(text)
    np.savez(tmp_path / "expression.npz", left=left, right=right, op=op, value=value)
    answer = eval(text) % 2**64  # Python's own integers
    answer = answer - 2**64 if answer >= 2**63 else answer
    files["tree-contraction"] = (tmp_path / "expression.npz", np.array([answer]), ())
    # three blocks of vertices with edges only inside each, and the isolated vertex 7
    blocks = [np.arange(0, 7), np.arange(8, 40), np.arange(40, 90)]
    pairs = np.concatenate([rng.choice(b, size=(2 * len(b), 2)) for b in blocks])
    (tmp_path / "graph.txt").write_text(
        "# three components and an isolated vertex\n"
        + "".join(f"{u} {v}\n" for u, v in pairs.tolist()))
    files["components"] = (tmp_path / "graph.txt", np.array(component_minima(90, pairs)), ())
    values = rng.integers(-500, 500, size=77)
    marks = rng.integers(0, 2, size=77)
    np.savez(tmp_path / "marked.npz", values=values, marks=marks)
    files["compaction"] = (tmp_path / "marked.npz", values[marks == 1], ())
    np.save(tmp_path / "values.npy", values)
    for name in ("max-loglog", "max-cascading"):
        files[name] = (tmp_path / "values.npy", np.array([max(values.tolist())]), ())
    files["selection"] = (tmp_path / "values.npy", np.array([sorted(values.tolist())[9]]),
                          ("--k", "9"))
    return files


@pytest.mark.parametrize("name", list(MODELS))
def test_each_technique_answers_a_held_out_file_under_its_own_model(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    """--input/--output: the answer written equals the reference here, under the entry's own
    model, with no violation and exit 0."""
    path, answer, extra = held_out(tmp_path)[name]
    assert_answers_held_out(capsys, name, MODELS[name], path, answer, tmp_path / "answer.npy",
                            *extra)


@pytest.mark.parametrize("name", list(MODELS))
def test_each_technique_is_correct_on_random_instances(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """Three seeds of a random instance each: correct against the entry's reference, clean."""
    for seed in ("1", "2", "3"):
        status, run = run_json(capsys, "run", name, "--n", "100", "--seed", seed)
        assert (status, run["correct"], run["violations"]) == (0, True, 0), run["mismatch"]


@pytest.mark.parametrize(("name", "weaker"), TECHNIQUE_CONTROLS)
def test_each_technique_is_flagged_under_a_weaker_model(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, weaker: str
) -> None:
    """Components under CREW and CRCW common, the maxima under CREW: flagged, exit 1."""
    path, _, extra = held_out(tmp_path)[name]
    status, run = run_json(capsys, "run", name, "--input", str(path), "--model", weaker, *extra)
    assert (status, run["model"]) == (1, weaker)
    assert isinstance(run["violations"], int) and run["violations"] > 0
    assert (name, weaker) in CONTROLS


def test_selection_defaults_to_the_median_and_takes_every_rank(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Without --k the median (k = n // 2); --k 0 and --k n-1 are the extremes."""
    values = np.array([5, -3, 12, 12, 0, 7, -8, 1, 4])
    path = tmp_path / "values.npy"
    np.save(path, values)
    out = tmp_path / "k.npy"
    for extra, expected in (((), sorted(values)[4]), (("--k", "0"), -8), (("--k", "8"), 12)):
        status, run = run_json(capsys, "run", "selection", "--input", str(path), "--output",
                               str(out), *extra)
        assert (status, run["k"], np.load(out).tolist()) == (
            0, int(extra[1]) if extra else 4, [expected])


def test_components_reports_its_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    """The note names the rounds run, the loop tests that ended them (one a round) and how
    many changed a pointer (at most all of them)."""
    status, run = run_json(capsys, "run", "components", "--n", "200")
    notes = run["notes"]
    assert status == 0 and isinstance(notes, list)
    rounds, tests, busy = (int(w) for w in notes[0].split() if w.isdigit())
    assert tests == rounds and 1 <= busy <= rounds


def test_random_mate_work_is_linear_on_average(capsys: pytest.CaptureFixture[str]) -> None:
    """Mean work per node over 12 seeds barely moves from n = 256 to n = 4096 (O(n) expected;
    Wyllie's n log n would grow by half), and every run is correct."""
    mean = {}
    for n in (256, 4096):
        works = []
        for seed in range(12):
            status, run = run_json(capsys, "run", "list-ranking-random", "--n", str(n),
                                   "--seed", str(seed))
            assert (status, run["correct"]) == (0, True)
            assert isinstance(run["work"], int)
            works.append(run["work"] / n)
        mean[n] = sum(works) / len(works)
    assert mean[4096] < 1.15 * mean[256]


@pytest.mark.parametrize("name", ["components", "max-loglog", "tree-contraction"])
def test_a_technique_sweep_holds_its_bounds(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """pram sweep NAME over five doublings: no verdict is exceeded (data-dependent counts over
    a 16-fold span may be undetermined, with advice), exit 0."""
    status, result = run_json(capsys, "sweep", name, "--n", "16,32,64,128,256")
    bounds = result["bounds"]
    assert isinstance(bounds, dict) and status == 0
    for key in ("time", "work"):
        assert bounds[key]["verdict"] in ("holds", "undetermined")
        assert bounds[key]["verdict"] == "holds" or bounds[key]["advice"]


# ---- input checks ---------------------------------------------------------------------------


def test_bad_inputs_are_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A cycle in a tree, a one-child node, a third column in an edge list, marks of another
    length, a rank beyond n and --k elsewhere: one line each, exit 2, naming the fix."""
    cycle = tmp_path / "cycle.npy"
    np.save(cycle, np.array([[0, 1], [1, 2], [2, 0]]))
    assert one_line_error(capsys, "run", "euler-tour", "--input", str(cycle)).endswith(
        "edge 2 (2, 0) closes a cycle, so the edges are not a tree; pass the n - 1 edges of "
        "a tree")
    odd = tmp_path / "odd.npz"
    np.savez(odd, left=np.array([1, -1]), right=np.array([-1, -1]), op=np.zeros(2, np.int64),
             value=np.zeros(2, np.int64))
    assert one_line_error(capsys, "run", "tree-contraction", "--input", str(odd)) == (
        f"pram run: error: input file {str(odd)!r}: node 0 has one child; every internal node "
        "needs two (left and right), a leaf none (-1 and -1)")
    weighted = tmp_path / "weighted.txt"
    weighted.write_text("0 1\n1 2 5\n")
    assert "line 2: expected two non-negative integers `u v`" in one_line_error(
        capsys, "run", "components", "--input", str(weighted))
    marked = tmp_path / "marked.npz"
    np.savez(marked, values=np.arange(4), marks=np.ones(3, np.int64))
    assert one_line_error(capsys, "run", "compaction", "--input", str(marked)) == (
        f"pram run: error: input file {str(marked)!r} holds 4 values and 3 marks; give one "
        "mark per value, at least one value")
    values = tmp_path / "values.npy"
    np.save(values, np.arange(5))
    assert one_line_error(capsys, "run", "selection", "--input", str(values), "--k", "5") == (
        f"pram run: error: --k 5 is not a rank among the 5 values of {str(values)!r}; give "
        "--k in 0..4, or leave it out for the median (k = n // 2)")
    assert one_line_error(capsys, "run", "max-loglog", "--k", "3") == (
        "pram run: error: --k 3 does not apply to max-loglog: it applies only to selection; "
        "leave it out")
    assert "invalid rank '-1'" in one_line_error(capsys, "run", "selection", "--k", "-1")
