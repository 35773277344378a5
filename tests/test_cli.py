"""The ``pram`` command line: JSON against the contract, exit statuses, one-line errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pram.algorithms.sequential import recall
from tests.commands import assert_refusal_output, call, run_json
from tests.helpers import bench_figures

RUN_KEYS: dict[str, type | tuple[type, ...]] = {
    "algorithm": str,
    "n": int,
    "keys": str,
    "model": str,
    "work": int,
    "time": int,
    "rounds": int,
    "round_work": int,
    "max_processors": int,
    "reads": int,
    "writes": int,
    "memory_cells": int,
    "peak_cells": int,
    "violations": int,
    "correct": bool,
    "bounds": dict,
}


def assert_run_object(obj: dict[str, object]) -> None:
    for key, kind in RUN_KEYS.items():
        assert isinstance(obj[key], kind), (key, obj[key])
    bounds = obj["bounds"]
    assert isinstance(bounds, dict)
    for measure in ("work", "time"):
        assert isinstance(bounds[measure]["formula"], str)
        assert isinstance(bounds[measure]["ratio"], float)


# ---- pram run ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "sizes"),
    [
        (["mqar", "--n", "96"], {"n": 96, "d": 16}),
        (["mqar", "--n", "96", "--sort", "per-block"], {"n": 96}),
        (["mqar", "--n", "48", "--keys", "bits", "--d", "6", "--comparator", "tree"],
         {"n": 48, "d": 6}),
        (["mqar-sequential", "--n", "96"], {"n": 96}),
        (["mqar-allpairs", "--n", "48"], {"n": 48}),
        (["pbs", "--n", "40", "--m", "17"], {"n": 40, "m": 17}),
        (["pbs", "--n", "20", "--keys", "bits"], {"n": 20, "m": 20, "d": 16}),
        (["sort", "--n", "33", "--network", "odd-even"], {"n": 33}),
    ],
)
def test_run_json_follows_the_contract(
    capsys: pytest.CaptureFixture[str], argv: list[str], sizes: dict[str, int]
) -> None:
    """``pram run --json`` prints one object with the contract's keys and types; exit 0."""
    status, obj = run_json(capsys, "run", *argv)
    assert status == 0
    if obj["algorithm"] == "mqar-sequential":  # not run on the machine: no cells counted
        assert obj["rounds"] is None and obj["round_work"] is None  # nor rounds
        obj = {**obj, "reads": 0, "writes": 0, "memory_cells": 0, "peak_cells": 0,
               "rounds": 0, "round_work": 0}
    assert_run_object(obj)
    assert obj["algorithm"] == argv[0]
    assert obj["correct"] is True and obj["violations"] == 0
    for key, value in sizes.items():
        assert obj[key] == value


def test_run_json_of_mqar_carries_the_contract_formulas(capsys: pytest.CaptureFixture[str]) -> None:
    """MQAR's bounds are N d log2(N)^2 and d log2(N)^2, ratio = measured / formula here."""
    _, obj = run_json(capsys, "run", "mqar", "--n", "3072")
    bounds = obj["bounds"]
    assert isinstance(bounds, dict)
    assert bounds["work"]["formula"] == "N d log2(N)^2"
    assert bounds["time"]["formula"] == "d log2(N)^2"
    # word keys: the formulas use d = 1, N = 3072
    assert bounds["work"]["ratio"] == pytest.approx(obj["work"] / (3072 * np.log2(3072) ** 2))
    assert bounds["time"]["ratio"] == pytest.approx(obj["time"] / np.log2(3072) ** 2)
    assert obj["d"] == 16 and obj["keys"] == "word" and obj["model"] == "erew"


def test_run_reports_padding(capsys: pytest.CaptureFixture[str]) -> None:
    """A length that is not 3 * 2^L is padded, and the run says so."""
    _, obj = run_json(capsys, "run", "mqar", "--n", "10")
    assert obj["notes"] == [
        "N = 10 padded with 2 tokens to 3 * 2^2 = 12; padded triples never match"
    ]
    assert obj["bound_sizes"] == {"N": 12.0, "d": 1.0}


def test_naive_search_exits_1_under_erew_and_0_under_crew(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The negative control: EREW flags the naive search (exit 1), CREW accepts it (exit 0)."""
    status, obj = run_json(capsys, "run", "pbs-naive", "--n", "32")
    assert status == 1 and isinstance(obj["violations"], int) and obj["violations"] > 0
    assert obj["first_violations"][0].startswith(  # type: ignore[index]
        "EREW forbids concurrent reads: processors"
    )
    status, obj = run_json(capsys, "run", "pbs-naive", "--n", "32", "--model", "crew")
    assert status == 0 and obj["violations"] == 0 and obj["correct"] is True


def test_a_single_run_decides_no_bound(capsys: pytest.CaptureFixture[str]) -> None:
    """One run gives ratios but no verdict (a sweep decides): all-pairs at N = 768 exits 0."""
    status, obj = run_json(capsys, "run", "mqar-allpairs", "--n", "768")
    bounds = obj["bounds"]
    assert isinstance(bounds, dict)
    assert status == 0 and bounds["work"]["holds"] is None and obj["correct"] is True
    assert bounds["work"]["ratio"] > 3


def test_run_input_and_output_round_trip(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--input runs on the user's tokens, --output writes one answer per triple."""
    rng = np.random.default_rng(3)
    tokens = rng.integers(0, 5, size=61)
    source, target = tmp_path / "u.npy", tmp_path / "answers.npy"
    np.save(source, tokens)
    status, obj = run_json(capsys, "run", "mqar", "--input", str(source), "--output",
                           str(target))
    assert status == 0 and obj["n"] == 61 and obj["d"] == 3 and obj["correct"] is True
    assert obj["notes"][0] == "d = 3: the bits the largest token (4) needs"  # type: ignore[index]
    answers = np.load(target)
    assert answers.dtype == np.int64
    assert obj["dtype"] == "int64"  # the JSON says what --output wrote
    assert answers.tolist() == recall(tokens[:60]).answers.tolist()


def test_run_input_for_pbs_and_sort(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """pbs takes an .npz of sorted queries and keys, sort an .npy; outputs as the contract says."""
    np.savez(tmp_path / "s.npz", queries=np.array([1, 4, 4, 9]), keys=np.array([2, 4, 6]))
    status, _, _ = call(capsys, "run", "pbs", "--input", str(tmp_path / "s.npz"), "--output",
                        str(tmp_path / "c.npy"))
    assert status == 0
    assert np.load(tmp_path / "c.npy").tolist() == [0, 1, 1, 3]
    np.save(tmp_path / "v.npy", np.array([5, -2, 7, 0]))
    status, _, _ = call(capsys, "run", "sort", "--input", str(tmp_path / "v.npy"), "--output",
                        str(tmp_path / "sorted.npy"))
    assert status == 0
    assert np.load(tmp_path / "sorted.npy").tolist() == [-2, 0, 5, 7]


def test_raise_mode_stops_at_the_first_violation(capsys: pytest.CaptureFixture[str]) -> None:
    """--mode raise ends the run at the first violation: one line naming it, exit 1."""
    status, out, err = call(capsys, "run", "pbs-naive", "--n", "16", "--mode", "raise")
    assert status == 1 and out == ""
    assert err.strip() == (
        "pram run: ConflictError: EREW forbids concurrent reads: processors 0, 1, 2, 3, 4, 5, "
        "... (16 in all) read pbs-naive.keys[8] in step 1 (phase 'pbs-naive/probe 0')"
    )


def test_distinct_processors_check_is_available(capsys: pytest.CaptureFixture[str]) -> None:
    """--distinct-processors turns on the engine's check; a clean sort passes it."""
    status, obj = run_json(capsys, "run", "sort", "--n", "40", "--distinct-processors")
    assert status == 0 and obj["correct"] is True


def test_distinct_processors_cannot_be_turned_off(capsys: pytest.CaptureFixture[str]) -> None:
    """--no-distinct-processors let one processor id combine many values in one step: the
    check is always on, so the flag is gone (exit 2, named) and only --distinct-processors
    stays for the commands that give it."""
    status, out, err = call(capsys, "run", "sort", "--n", "8", "--no-distinct-processors")
    assert status == 2 and out == "" and "--no-distinct-processors" in err
    assert "Traceback" not in err


def test_sweep_plot_writes_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--plot FILE writes the ratio plot and says so on stderr."""
    status, _, err = call(capsys, "sweep", "sort", "--n", "8,16,32", "--plot",
                          str(tmp_path / "s.svg"))
    assert status == 0 and (tmp_path / "s.svg").stat().st_size > 1000
    assert "".join(err.split()) == f"wrote{tmp_path / 's.svg'}"  # a long path may wrap


def test_run_prints_a_rich_report_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --json the report names the algorithm, the verdicts and the bounds."""
    status, out, err = call(capsys, "run", "mqar", "--n", "48")
    assert status == 0 and err == ""
    assert out.startswith("Algorithm 11, parallel MQAR over dyadic intervals (mqar)")
    assert "EREW: no violations" in out and "answer: correct (equal to Algorithm 9)" in out


# ---- pram sweep --------------------------------------------------------------------------------


def test_sweep_json_has_runs_and_bound_verdicts(capsys: pytest.CaptureFixture[str]) -> None:
    """``pram sweep --json``: {"runs": [...], "bounds": {"work": {"holds": ...}, ...}}."""
    status, obj = run_json(capsys, "sweep", "mqar", "--n", "48,96,192,384")
    assert status == 0
    runs = obj["runs"]
    assert isinstance(runs, list) and [r["n"] for r in runs] == [48, 96, 192, 384]
    for r in runs:
        assert_run_object(r)
    bounds = obj["bounds"]
    assert isinstance(bounds, dict)
    for key in ("work", "time"):  # four sizes: holds, or undetermined with advice
        assert bounds[key]["verdict"] in ("holds", "undetermined")
        assert bounds[key]["holds"] is (bounds[key]["verdict"] == "holds")
    assert len(bounds["work"]["ratios"]) == 4


def test_sweep_over_d_checks_the_tree_comparator(capsys: pytest.CaptureFixture[str]) -> None:
    """Sweeping n and d with the tree comparator adds the log2(d) time bound."""
    status, obj = run_json(capsys, "sweep", "mqar", "--n", "96,192,384", "--d", "4,8",
                           "--keys", "bits", "--comparator", "tree")
    assert status == 0
    bounds = obj["bounds"]
    assert isinstance(bounds, dict)
    assert bounds["time (tree)"]["formula"] == "log2(d) log2(N)^2"
    assert len(obj["runs"]) == 6  # type: ignore[arg-type]


def test_sweep_of_all_pairs_fails_the_work_check(capsys: pytest.CaptureFixture[str]) -> None:
    """The check can fail: all-pairs exceeds N d log2(N)^2, so the sweep exits 1."""
    status, obj = run_json(capsys, "sweep", "mqar-allpairs", "--n", "48,96,192,384,768")
    bounds = obj["bounds"]
    assert isinstance(bounds, dict)
    assert status == 1 and bounds["work"]["holds"] is False
    assert bounds["work"]["verdict"] == "exceeded"
    # 4 sizes: enough to see the excess, too few for a least-squares law to call N^2 tight
    assert (bounds["work (N^2)"]["verdict"], bounds["work (N^2)"]["tight"]) == ("holds", True)


def test_sweep_json_carries_verdicts_tightness_laws_and_predictions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The sort's laws are exact and predict n = 2^16 exactly: n (L^2 + L)/2 and L^2 + L."""
    status, obj = run_json(capsys, "sweep", "sort", "--n", "8,16,32,64,128,256",
                           "--predict", "65536")
    bounds, laws = obj["bounds"], obj["laws"]
    assert isinstance(bounds, dict) and isinstance(laws, dict)
    assert status == 0
    assert {k: (b["verdict"], b["holds"], b["tight"]) for k, b in bounds.items()} == {
        "work": ("holds", True, True), "time": ("holds", True, True)}
    assert (laws["work"]["formula"], laws["work"]["exact"]) == ("1/2 n L^2 + 1/2 n L", True)
    assert laws["work"]["predictions"] == {"65536": 65536 * (16 * 16 + 16) // 2}
    assert (laws["time"]["formula"], laws["time"]["predictions"]) == ("L^2 + L", {"65536": 272})
    assert laws["time"]["max_residual"] == 0.0


def test_a_two_size_sweep_is_undetermined_and_exits_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two sizes cannot decide: undetermined (never holds), printed with advice, exit 0."""
    status, obj = run_json(capsys, "sweep", "mqar-allpairs", "--n", "48,96")
    bounds = obj["bounds"]
    assert isinstance(bounds, dict)
    assert status == 0
    assert {b["verdict"] for b in bounds.values()} == {"undetermined"}
    assert not any(b["holds"] for b in bounds.values())
    assert "extend the sweep" in bounds["work"]["reason"]


@pytest.mark.parametrize(
    "argv",
    [
        ["mqar-sequential", "--n", "48,96,192"],
        ["mqar", "--n", "48,96", "--keys", "bits", "--d", "4,8"],
    ],
)
def test_short_sweeps_of_algorithms_that_meet_their_bounds_are_not_exceeded(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """The false EXCEEDED verdicts of the old growth fit are gone: too few sizes to tell."""
    status, obj = run_json(capsys, "sweep", *argv)
    bounds = obj["bounds"]
    assert isinstance(bounds, dict)
    assert status == 0
    assert {b["verdict"] for b in bounds.values()} == {"undetermined"}


def test_sweep_of_pbs_with_m_equal_n_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    """n and m moving together are one size for the growth check."""
    status, obj = run_json(capsys, "sweep", "pbs", "--n", "16,64,256,1024,4096")
    assert status == 0
    assert obj["bounds"]["work"]["holds"] is True  # type: ignore[index]


def test_run_shows_and_prints_the_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    """``pram run`` shows rounds beside time, and its JSON has them, the run's and each
    phase's: Wyllie's list ranking is ceil(log2 n) + 1 rounds (the set-up, then one a jump)
    in twice as many steps."""
    status, out, _ = call(capsys, "run", "list-ranking", "--n", "1000")
    assert status == 0
    rows: dict[str, str] = {}
    for line in out.splitlines():  # the cost table's rows come first
        if line.strip().startswith(("time ", "rounds ")):
            rows.setdefault(line.split()[0], line.split()[1])
    assert (rows["time"], rows["rounds"]) == ("22", "11")
    _, obj = run_json(capsys, "run", "list-ranking", "--n", "1000")
    assert (obj["time"], obj["rounds"], obj["round_work"]) == (22, 11, 11 * 1000)
    phases = obj["phases"]
    assert isinstance(phases, dict) and phases["list-ranking"]["rounds"] == 11


def test_sweep_measures_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    """``pram sweep --measure rounds``: the declared time bound judged on rounds (its law
    exact, L + 1), the work bound on the rounds' work; ``--bound rounds=...`` too."""
    status, obj = run_json(capsys, "sweep", "list-ranking", "--n", "64,128,256,512,1024",
                           "--measure", "rounds")
    assert status == 0
    bounds, laws = obj["bounds"], obj["laws"]
    assert isinstance(bounds, dict) and isinstance(laws, dict)
    assert set(bounds) == {"rounds", "round_work"}
    assert bounds["rounds"]["verdict"] == "holds"
    assert laws["rounds"]["text"].startswith("rounds = L + 1, L = log2(n), exact")
    assert bounds["rounds"]["measured"] == [7.0, 8.0, 9.0, 10.0, 11.0]
    status, obj = run_json(capsys, "sweep", "list-ranking", "--n", "64,128,256,512",
                           "--bound", "rounds=n")
    laws = obj["laws"]
    assert isinstance(laws, dict) and laws["rounds"]["text"].startswith("rounds = L + 1,")


def test_rounds_of_an_algorithm_off_the_machine_are_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_error(capsys, "sweep", "mqar-sequential", "--n", "48,96", "--measure",
                         "rounds")
    assert "--measure rounds" in err and "off the machine" in err
    err = one_line_error(capsys, "sweep", "list-ranking", "--n", "16,32", "--instances", "2",
                         "--measure", "rounds")
    assert "--measure rounds does not apply with --instances" in err


def test_sweep_progress_goes_to_stderr_only(capsys: pytest.CaptureFixture[str]) -> None:
    """With --json nothing but the object reaches standard output."""
    status, out, _ = call(capsys, "sweep", "sort", "--n", "8,16", "--json")
    assert status == 0 and len(out.splitlines()) == 1


# ---- invalid arguments and input -----------------------------------------------------------------


def one_line_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, out, err = call(capsys, *argv)
    assert status == 2, err
    assert_refusal_output(argv, out, err)
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "mqar", "--n", "-5"],
         "pram run: argument --n: invalid size '-5'; give a positive integer"),
        (["run", "mqar", "--n", "0"],
         "pram run: argument --n: invalid size '0'; give a positive integer"),
        (["run", "mqar", "--n", "ten"],
         "pram run: argument --n: invalid size 'ten'; give a positive integer"),
        (["run", "mqar", "--d", "63"],
         "pram run: error: --d must be at most 62 so a token fits a word (got 63)"),
        (["run", "mqar", "--n", "2"],
         "pram run: error: --n must be at least 3 for MQAR (one key, value, query; got 2)"),
        (["run", "mqar", "--seed", "-1"],
         "pram run: argument --seed: invalid seed '-1'; give a non-negative integer"),
        (["sweep", "mqar", "--n", "48,-96"],
         "pram sweep: argument --n: invalid size '-96' in '48,-96'; give positive integers "
         "separated by commas, e.g. 48,96,192"),
        (["sweep", "mqar", "--n", "48"],
         "pram sweep: error: a sweep needs at least 2 sizes to check a bound (got 1); give "
         "more with --n, e.g. --n 48,96,192"),
        (["run", "mqar", "--m", "5"],
         "pram run: error: --m (the number of keys) applies only to pbs and pbs-naive; leave "
         "it out for mqar"),
        (["run", "mqar", "--output", "answers.txt"],
         "pram run: error: --output 'answers.txt' must end in .npy; rename it, e.g. "
         "'answers.npy'"),
        (["run", "mqar", "--output", "no/such/dir/a.npy"],
         "pram run: error: --output 'no/such/dir/a.npy': directory 'no/such/dir' does not "
         "exist; create it first"),
        (["sweep", "sort", "--n", "8,16", "--plot", "p.pdf"],
         "pram sweep: error: --plot 'p.pdf' must end in .png or .svg; rename it, e.g. 'p.png'"),
        (["sweep", "sort", "--n", "8,16", "--predict", "1k"],
         "pram sweep: argument --predict: invalid size '1k' in '1k'; give positive "
         "integers separated by commas, e.g. 48,96,192"),
    ],
)
def test_invalid_arguments_give_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """Each bad argument is refused in one line naming the value and the fix."""
    assert one_line_error(capsys, *argv) == message


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "nope"],
        ["run", "mqar", "--model", "crcw"],
        ["run", "mqar", "--keys", "bytes"],
        ["frobnicate"],
        [],
    ],
)
def test_unknown_choices_give_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Unknown algorithms, models, key kinds and commands are refused in one line."""
    err = one_line_error(capsys, *argv)
    assert err.startswith("pram")


def test_unknown_algorithm_lists_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    """The refusal of an unknown algorithm names it and every algorithm there is."""
    assert one_line_error(capsys, "run", "nope") == (
        "pram run: argument ALGORITHM: invalid choice: 'nope' (choose from 'mqar', "
        "'mqar-sequential', 'mqar-allpairs', 'pbs', 'pbs-naive', 'sort', 'list-ranking', "
        "'prefix-sums', 'merge', 'matrix-multiply', 'max', 'rank-sort', "
        "'list-ranking-random', 'euler-tour', 'tree-contraction', 'components', 'compaction', "
        "'max-loglog', 'max-cascading', 'selection')"
    )


def write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def test_invalid_input_files_give_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Missing files, text files, wrong arrays, shapes, dtypes and values are refused clearly."""
    missing = str(tmp_path / "missing.npy")
    assert one_line_error(capsys, "run", "mqar", "--input", missing) == (
        f"pram run: error: input file {missing!r} does not exist; give the path of a .npy file "
        "holding the token sequence (non-negative integers, length N >= 3)"
    )
    text = write(tmp_path / "tokens.npy", b"1 2 3 4\n")
    assert one_line_error(capsys, "run", "mqar", "--input", text).startswith(
        f"pram run: error: input file {text!r} is not a readable .npy file ("
    )
    np.savez(tmp_path / "a.npz", tokens=np.arange(6))
    assert one_line_error(capsys, "run", "mqar", "--input", str(tmp_path / "a.npz")) == (
        f"pram run: error: input file {str(tmp_path / 'a.npz')!r} is an .npz archive; it must "
        "be a .npy file holding the token sequence (non-negative integers, length N >= 3)"
    )
    np.save(tmp_path / "grid.npy", np.zeros((2, 3), dtype=np.int64))
    grid = str(tmp_path / "grid.npy")
    assert one_line_error(capsys, "run", "mqar", "--input", grid) == (
        f"pram run: error: the array in {grid!r} must be one-dimensional (got shape (2, 3)); "
        "pass a flat array"
    )
    np.save(tmp_path / "f.npy", np.array([1.5, 2.0, 3.0]))
    floats = str(tmp_path / "f.npy")
    assert one_line_error(capsys, "run", "mqar", "--input", floats) == (
        f"pram run: error: the array in {floats!r} must be integers (got dtype float64); "
        "make them integers explicitly, e.g. numpy.rint(x).astype(numpy.int64) for reals (a "
        "plain cast would truncate them)"
    )
    np.save(tmp_path / "neg.npy", np.array([1, -4, 3]))
    assert one_line_error(capsys, "run", "mqar", "--input", str(tmp_path / "neg.npy")) == (
        f"pram run: error: input file {str(tmp_path / 'neg.npy')!r} holds tokens[1] = -4; "
        "tokens must be non-negative integers, so renumber the vocabulary from 0"
    )
    np.save(tmp_path / "wide.npy", np.array([1, 300, 3]))
    assert one_line_error(capsys, "run", "mqar", "--input", str(tmp_path / "wide.npy"),
                          "--d", "8") == (
        "pram run: error: tokens[1] = 300 does not fit in d = 8 bits; raise --d to at least 9 "
        "or leave --d out"
    )
    np.save(tmp_path / "short.npy", np.array([1, 2]))
    assert "holds 2 tokens; MQAR needs at least one triple" in one_line_error(
        capsys, "run", "mqar", "--input", str(tmp_path / "short.npy"))


def test_invalid_search_files_give_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """pbs needs an .npz with sorted 'queries' and 'keys'."""
    np.savez(tmp_path / "q.npz", queries=np.array([1, 2]))
    path = str(tmp_path / "q.npz")
    assert one_line_error(capsys, "run", "pbs", "--input", path) == (
        f"pram run: error: input file {path!r} has no array 'keys' (it holds queries); it must "
        "be an .npz file holding sorted integer arrays 'queries' and 'keys'"
    )
    np.savez(tmp_path / "u.npz", queries=np.array([1, 2]), keys=np.array([3, 7, 2]))
    assert one_line_error(capsys, "run", "pbs", "--input", str(tmp_path / "u.npz")) == (
        "pram run: error: keys must be sorted ascending (got keys[1] = 7 > keys[2] = 2); "
        "sort them first"
    )
    np.save(tmp_path / "one.npy", np.array([1, 2]))
    assert "is a single .npy array; it must be an .npz file" in one_line_error(
        capsys, "run", "pbs", "--input", str(tmp_path / "one.npy"))


def test_bench_wires_to_the_measurement(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pram bench --json`` prints what reports.bench.measure() returns, in the contract shape."""
    import pram.reports.bench

    figures = bench_figures(large=(3e7, 1.5e7, 9e7, 3e7), tiny=1e-5,
                            small=((2e-5, 1e-6), (3e-5, 5e-6)), ratios=(20.0, 6.0, 3.0, 2.0))
    figures["programs"] = {"prefix-sums": {"n": 1024, "seconds": 1.5e-3},
                           "bitonic-sort": {"n": 1024, "seconds": 1.2e-2}}
    monkeypatch.setitem(vars(pram.reports.bench), "measure", lambda **options: figures)
    status, obj = run_json(capsys, "bench")
    assert status == 0 and obj == figures
    status, out, _ = call(capsys, "bench")
    assert status == 0 and "simulator throughput" in out
    assert "prefix-sums, whole program" in out and "12.00 ms" in out
    slow = {**figures, "tiny_step": {"processors": 1, "seconds_per_step": 1e-3}}
    monkeypatch.setitem(vars(pram.reports.bench), "measure", lambda **options: slow)
    status, out, _ = call(capsys, "bench")
    assert status == 1 and "MISSED" in out


# ---- the installed script ------------------------------------------------------------------------


def script() -> list[str]:
    found = Path(sys.executable).with_name("pram")
    return [str(found)] if found.exists() else [sys.executable, "-m", "pram.reports.cli"]


def test_the_pram_script_runs_and_refuses_in_one_line(tmp_path: Path) -> None:
    """The console script: JSON on stdout with exit 0; a bad size is one line and exit 2."""
    done = subprocess.run([*script(), "run", "mqar", "--n", "48", "--json"],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["correct"] is True
    bad = subprocess.run([*script(), "run", "mqar", "--n", "-3"], capture_output=True,
                         text=True, check=False, timeout=120)
    assert bad.returncode == 2 and bad.stdout == ""
    assert re.fullmatch(r"pram run: argument --n: invalid size '-3'; give a positive integer\n",
                        bad.stderr)


def test_a_bound_too_long_to_read_is_one_short_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A formula of 3000 terms is refused naming the length limit, without a RecursionError
    and without echoing its 6000 characters."""
    err = one_line_error(capsys, "sweep", "sort", "--n", "8,16,32,64", "--bound",
                         "work=" + "+".join(["n"] * 3000))
    assert "invalid bound of work" in err and "over the limit of 1000" in err
    assert len(err) < 300
