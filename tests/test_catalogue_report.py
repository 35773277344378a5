"""The catalogue through the command line and the report: held-out files, models, sweeps."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pram.reports.catalogue import (
    CONTROLS,
    INSTANCES,
    JUDGED_ON,
    LEVELS,
    WEAKER,
    catalogue,
    instances,
    mean_checks,
    part_checks,
    sizes,
    tasks,
)
from pram.reports.measure import Task, algorithm, run_all, sweep
from pram.reports.registry import Options
from tests.commands import assert_answers_held_out, one_line_error, run_json

# ---- held-out inputs through --input and --output ------------------------------------------------

SUCCESSORS = np.array([3, 5, -1, 6, 2, 0, 4])  # the list 1 5 0 3 6 4 2


def held_out(tmp_path: Path) -> dict[str, tuple[Path, np.ndarray]]:
    """One input file per entry and the answer an outside reference gives for it."""
    rng = np.random.default_rng(2026)
    values = rng.integers(-50, 50, size=37)
    a, b = np.sort(rng.integers(0, 30, size=11)), np.sort(rng.integers(0, 30, size=23))
    x, y = rng.integers(-9, 9, size=(5, 5)), rng.integers(-9, 9, size=(5, 5))
    files: dict[str, tuple[Path, np.ndarray]] = {}

    def save(name: str, answer: np.ndarray, **arrays: np.ndarray) -> None:
        if len(arrays) == 1:
            path = tmp_path / f"{name}.npy"
            np.save(path, next(iter(arrays.values())))
        else:
            path = tmp_path / f"{name}.npz"
            np.savez(path, **arrays)
        files[name] = (path, answer)

    save("list-ranking", np.array([4, 6, 0, 3, 1, 5, 2]), s=SUCCESSORS)
    save("prefix-sums", np.cumsum(values), v=values)
    save("merge", np.sort(np.concatenate([a, b])), a=a, b=b)
    save("matrix-multiply", x @ y, a=x, b=y)
    save("max", np.array([values.max(), np.argmax(values)]), v=values)
    save("rank-sort", np.sort(values), v=values)
    return files


MODELS = {"list-ranking": "erew", "prefix-sums": "erew", "merge": "crew",
          "matrix-multiply": "crew", "max": "crcw-common", "rank-sort": "crcw-sum"}


@pytest.mark.parametrize("name", list(MODELS))
def test_each_entry_answers_a_held_out_file_under_its_own_model(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    """--input/--output: the answer equals numpy's, under the entry's own model, 0 violations."""
    path, answer = held_out(tmp_path)[name]
    assert_answers_held_out(capsys, name, MODELS[name], path, answer, tmp_path / "answer.npy")


@pytest.mark.parametrize("name", list(WEAKER))
def test_each_entry_is_flagged_under_the_weaker_model(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    """Under the next weaker model the run is flagged and exits 1."""
    path, _ = held_out(tmp_path)[name]
    status, run = run_json(capsys, "run", name, "--input", str(path), "--model", WEAKER[name])
    assert status == 1
    assert run["model"] == WEAKER[name]
    assert isinstance(run["violations"], int) and run["violations"] > 0


# ---- input checks --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successors", "message"),
    [
        ([1, 7, -1], "holds successors[1] = 7, outside -1..2; give each node's successor as a "
         "node index, or -1 for the tail"),
        ([1, -2, -1], "holds successors[1] = -2, outside -1..2; give each node's successor as "
         "a node index, or -1 for the tail"),
        ([-1, 0, -1], "has 2 tails (successor -1); one list has exactly one, so link the lists "
         "into one"),
        ([1, 2, 0], "has 0 tails (successor -1); one list has exactly one, so link the lists "
         "into one"),
        ([2, 2, -1], "gives node 2 two predecessors (nodes 0 and 1); in one list each node "
         "follows at most one other"),
        ([-1, 2, 3, 1], "is not one list: from the head, node 0, the tail is reached after 1 "
         "of 4 nodes and the rest form a cycle; break the cycle"),
    ],
)
def test_a_successor_file_that_is_not_one_list_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, successors: list[int], message: str
) -> None:
    """Out-of-range successors, two tails, two predecessors and cycles: one line, exit 2."""
    path = tmp_path / "list.npy"
    np.save(path, np.array(successors))
    assert one_line_error(capsys, "run", "list-ranking", "--input", str(path)) == (
        f"pram run: error: input file {str(path)!r} {message}"
    )


def test_unsorted_merge_input_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An unsorted array of a merge input is named with the first descent."""
    path = tmp_path / "merge.npz"
    np.savez(path, a=np.array([1, 2, 3]), b=np.array([4, 9, 5]))
    assert one_line_error(capsys, "run", "merge", "--input", str(path)) == (
        "pram run: error: b must be sorted ascending (got b[1] = 9 > b[2] = 5); sort them first"
    )


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        (np.ones((2, 3)), np.ones((2, 3)), "'a' in {path!r} has shape (2, 3); it must be a "
         "square matrix n x n with n >= 1"),
        (np.ones((2, 2)), np.ones((3, 3)), "'a' and 'b' in {path!r} have shapes (2, 2) and "
         "(3, 3); give two square matrices of the same size"),
    ],
)
def test_matrices_that_are_not_square_of_one_size_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, a: np.ndarray, b: np.ndarray,
    message: str,
) -> None:
    """Non-square or mismatched matrices: one line naming the shapes, exit 2."""
    path = tmp_path / "matrices.npz"
    np.savez(path, a=a.astype(np.int64), b=b.astype(np.int64))
    assert one_line_error(capsys, "run", "matrix-multiply", "--input", str(path)) == (
        "pram run: error: " + message.format(path=str(path))
    )


def test_a_matrix_product_that_may_overflow_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Entries whose products could leave int64 are refused before the run."""
    path = tmp_path / "big.npz"
    np.savez(path, a=np.full((2, 2), 1 << 40), b=np.full((2, 2), 1 << 40))
    assert one_line_error(capsys, "run", "matrix-multiply", "--input", str(path)) == (
        f"pram run: error: input file {str(path)!r}: n times the largest |a| times the largest "
        f"|b| is {2 << 80}, beyond int64, so the product may overflow; use smaller values"
    )


# ---- sweeps --------------------------------------------------------------------------------------


def test_list_ranking_sweep_time_verdict_holds(capsys: pytest.CaptureFixture[str]) -> None:
    """pram sweep list-ranking: the O(log n) time and O(n log n) work checks hold."""
    status, result = run_json(capsys, "sweep", "list-ranking", "--n", "16,64,256,1024,4096")
    bounds = result["bounds"]
    assert isinstance(bounds, dict)
    assert status == 0
    assert (bounds["time"]["holds"], bounds["work"]["holds"]) == (True, True)


def test_max_sweep_takes_four_steps_at_every_size(capsys: pytest.CaptureFixture[str]) -> None:
    """pram sweep max --n 16..256 (doubling): 4 steps at every size, under CRCW common."""
    status, result = run_json(capsys, "sweep", "max", "--n", "16,32,64,128,256")
    runs = result["runs"]
    assert isinstance(runs, list)
    assert status == 0
    assert [(r["n"], r["time"], r["model"], r["violations"]) for r in runs] == [
        (n, 4, "crcw-common", 0) for n in (16, 32, 64, 128, 256)
    ]


def test_sweeps_under_a_weaker_model_exit_1() -> None:
    """A sweep of max under CREW is not ok: every run has violations."""
    result = sweep("max", [4, 8], Options(model="crew"))
    assert not result.ok
    assert all(r.violations > 0 for r in result.runs)


# ---- the report's section ------------------------------------------------------------------------


def test_catalogue_section_sweeps_every_entry_and_flags_the_controls() -> None:
    """Quick catalogue: six classic sweeps then eight techniques under their own models, none
    exceeded; every control flagged (the classics' four first)."""
    section = catalogue(quick=True)
    assert [(s.algorithm.name, s.runs[0].options.model) for s in section.sweeps] == [
        *MODELS.items(), ("list-ranking-random", "erew"), ("euler-tour", "erew"),
        ("tree-contraction", "erew"), ("components", "crcw-arbitrary"), ("compaction", "erew"),
        ("max-loglog", "crcw-common"), ("max-cascading", "crcw-common"), ("selection", "erew")]
    assert section.ok
    # The quick sweeps are short: a data-dependent count may be undetermined, never exceeded.
    assert all(c.verdict in ("holds", "undetermined")
               for s in section.sweeps for c in s.checks.values())
    assert [(c.run.algorithm.name, c.run.options.model) for c in section.controls] == list(
        CONTROLS)
    assert list(CONTROLS)[: len(WEAKER)] == list(WEAKER.items())
    assert all(c.run.violations > 0 for c in section.controls)
    markdown = section.markdown()
    assert markdown.startswith("## Catalogue of classic algorithms\n")
    assert "| `max` | CRCW-common | 4..64 | 4..4 | 3..3 | 40..8,320 |" in markdown


def test_mean_checks_judge_the_mean_count_over_seeded_instances() -> None:
    """Tree contraction's work depends on the random tree: the mean check's measured counts are
    numpy's mean of the seeded runs' work, at the sizes of seed 0's runs."""
    ns = [16, 32, 64, 128, 256]
    seeded = [run_all([Task("tree-contraction", Options(n=n, seed=seed)) for n in ns], None)
              for seed in range(3)]
    works = np.array([[r.cost.work for r in runs] for runs in seeded], dtype=float)
    assert len({tuple(row) for row in works}) > 1  # the seeds give different trees
    checks = mean_checks(algorithm("tree-contraction"), seeded)
    assert list(checks["work"].measured) == pytest.approx(works.mean(axis=0).tolist())
    assert checks["work"].verdict != "exceeded"


def test_part_checks_judge_a_bound_on_its_own_sizes() -> None:
    """The doubly logarithmic tree's time judged on n = 2^(2^k) alone: the check's sizes and
    counts are those runs', and there the time is 4 log2(log2 n) + 4, 4 steps a level."""
    ns = [2, 4, 8, 16, 128, 256]
    runs = run_all([Task("max-loglog", Options(n=n, model="crcw-common")) for n in ns], None)
    part = [n for n in LEVELS if n in ns]
    checks = part_checks(algorithm("max-loglog"), runs, {"time": part})
    assert list(checks) == ["time"]
    assert [s["n"] for s in checks["time"].sizes] == part == [2, 4, 16, 256]
    times = [r.cost.time for r in runs if r.sizes["n"] in part]
    assert list(checks["time"].measured) == times == [4 * (k + 1) for k in range(4)]
    # the complete trees in between take one level less than the next 2^(2^k): 8 and 128
    assert [r.cost.time for r in runs if r.sizes["n"] not in part] == [8, 12]


def test_the_report_plans_its_seeded_instances_and_its_loglog_sizes() -> None:
    """The full plan runs every seeded instance of tree contraction (seeds 0..4 at each size),
    the doubly logarithmic tree on n = 2^(2^k) and on its complete trees n = 2^(2^k - 1), its
    time judged on the first alone, and the cascade to 2^17; quick runs one seed."""
    plan = sizes()
    assert plan["max-loglog"] == [2, 4, 8, 16, 128, 256, 32768, 65536]
    assert JUDGED_ON == {"max-loglog": {"time": [2, 4, 16, 256, 65536]}}
    assert plan["max-cascading"][-1] == 1 << 17
    planned = {(t.name, t.options.n, t.options.seed) for t in tasks()}
    assert {(n, s) for name, n, s in planned if name == "tree-contraction"} == {
        (n, s) for n in plan["tree-contraction"] for s in range(INSTANCES["tree-contraction"])}
    assert instances("tree-contraction", quick=True) == 1
    assert all(t.options.seed == 0 for t in tasks(quick=True))
