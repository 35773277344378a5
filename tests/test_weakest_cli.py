"""``pram run --weakest-model`` and ``--model`` with every model the machine has.

The weakest model named on the command line is checked against two outside references: the
library call :func:`pram.weakest_model` on the same instance, and the violations the machine
itself flags when the same run goes under each model too weak.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pram import MODELS, Machine, model, weakest_model
from pram.reports.cli import build_parser
from pram.reports.entries import algorithm
from pram.reports.options import Options
from tests.commands import call, run_json
from tests.helpers import declared_module


@pytest.mark.parametrize(("name", "expected", "n"), [
    ("merge", "CREW", "64"), ("max", "CRCW-common", "64"), ("mqar", "EREW", "192")])
def test_weakest_model_of_the_catalogue_runs(
    capsys: pytest.CaptureFixture[str], name: str, expected: str, n: str
) -> None:
    """merge says CREW, max CRCW common, mqar EREW; exit 0 (the answer is correct); the JSON's
    counts are the library's on the same instance, and each too-weak model's count is what
    the machine flags when the run goes under that model."""
    status, obj = run_json(capsys, "run", name, "--n", n, "--weakest-model")
    assert status == 0 and obj["correct"] is True and obj["violations"] == 0
    found = obj["weakest_model"]
    assert isinstance(found, dict)
    assert found["weakest"] == expected and found["text"].startswith(f"{expected}: ")
    entry = algorithm(name)
    options = Options(n=int(n))
    instance = entry.family.build(options, np.random.default_rng(0))
    library = weakest_model(lambda m: entry.solve(m, instance, options))
    assert found["counts"] == library.counts and found["text"] == library.text
    flag = {model(key).name: key for key in MODELS}  # "ERCW-common" -> "ercw"
    for shown, evidence in found["too_weak"].items():
        _, under = run_json(capsys, "run", name, "--n", n, "--model", flag[shown])
        assert under["violations"] == evidence["violations"], shown
        assert under["first_violations"][0] == evidence["first"], shown
    status, out, _ = call(capsys, "run", name, "--n", n, "--weakest-model")
    text = " ".join(out.split())
    assert status == 0 and f"weakest model: {expected}: " in text
    for shown in found["too_weak"]:
        assert f"not clean under {shown} (" in text


def test_merge_needs_crew_because_of_concurrent_reads_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, obj = run_json(capsys, "run", "merge", "--n", "32", "--weakest-model")
    found = obj["weakest_model"]
    assert isinstance(found, dict)
    counts = found["counts"]
    assert counts["concurrent_reads"] > 0 and counts["concurrent_writes"] == 0
    assert set(found["too_weak"]) == {"EREW", "ERCW-common"}  # both forbid shared reads


def test_the_weakest_model_changes_no_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    """The weakest model is information: merge needs CREW and still exits 0; under --model
    erew the run's own violations fail it (exit 1), with or without --weakest-model."""
    assert call(capsys, "run", "merge", "--n", "16", "--weakest-model")[0] == 0
    status, obj = run_json(capsys, "run", "merge", "--n", "16", "--model", "erew",
                           "--weakest-model")
    assert status == 1 and obj["violations"] > 0 and obj["correct"] is True
    assert isinstance(obj["weakest_model"], dict)
    assert obj["weakest_model"]["weakest"] == "CREW"
    _, plain = run_json(capsys, "run", "merge", "--n", "16")
    assert "weakest_model" not in plain


def test_weakest_model_is_refused_where_it_cannot_apply(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = call(capsys, "run", "mqar-sequential", "--weakest-model")
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--weakest-model does not apply to mqar-sequential" in err and "leave it out" in err
    status, _, err = call(capsys, "sweep", "merge", "--n", "8,16", "--weakest-model")
    assert status == 2 and "--weakest-model" in err


def test_model_offers_every_model_of_the_machine() -> None:
    """The choices of --model are pram.MODELS, generated, in its order."""
    run = build_parser()._subparsers._group_actions[0].choices["run"]  # type: ignore[union-attr]
    option = next(a for a in run._actions if a.dest == "model")
    assert tuple(option.choices) == tuple(MODELS)


@pytest.mark.parametrize("name", list(MODELS))
def test_every_model_runs_an_exclusive_program(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """Wyllie's list ranking is EREW: clean and correct under every model, which the JSON
    names."""
    status, obj = run_json(capsys, "run", "list-ranking", "--n", "32", "--model", name)
    assert status == 0 and obj["model"] == name and obj["violations"] == 0
    assert obj["correct"] is True


@pytest.mark.parametrize("name", ["crcw-tolerant", "crcw-collision", "crcw-collision+"])
def test_a_run_shows_the_resolutions_of_its_rule(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """The O(1) maximum's writers all write 0: plain collision settles every shared cell with
    the symbol (as many resolutions as the machine records on the same instance), tolerant
    and collision+ none; the report lists them, and the JSON carries them only for the rules
    that settle."""
    entry = algorithm("max")
    options = Options(n=32, model=name)
    instance = entry.family.build(options, np.random.default_rng(0))
    m = Machine(name)
    entry.solve(m, instance, options)
    status, obj = run_json(capsys, "run", "max", "--n", "32", "--model", name)
    assert status == 0 and obj["correct"] is True  # a collision is a nonzero "not the max"
    assert obj["resolutions"] == len(m.resolutions)
    assert obj["first_resolutions"] == [str(r) for r in m.resolutions[:5]]
    assert (len(m.resolutions) > 0) == (name == "crcw-collision")
    _, out, _ = call(capsys, "run", "max", "--n", "32", "--model", name)
    text = " ".join(out.split())
    if m.resolutions:
        assert f"resolutions: {len(m.resolutions)} cells settled" in text
        assert m.resolutions[0].message in text
    else:
        assert "resolutions:" not in text
    _, plain = run_json(capsys, "run", "max", "--n", "32")
    assert "resolutions" not in plain


def test_a_program_that_cannot_end_under_a_rule_fails_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Connected components under CRCW tolerant: disagreeing hooks keep the old pointers and
    the rounds would not end; the run stops at the round bound, exit 1, one line naming the
    model it is written for (not a traceback)."""
    status, out, err = call(capsys, "run", "components", "--n", "16", "--model", "crcw-tolerant")
    assert status == 1 and out == "" and len(err.strip().splitlines()) == 1
    assert "under CRCW-tolerant" in err and "crcw-arbitrary" in err


#: A declaration that reads exclusively while an observer watches, concurrently else.
SHY = declared_module("shy", "", '''
    pid = m.processors(n)
    index = iota(n) if m.observer is not None else np.zeros(n, dtype=np.int64)
    yield Step(pid, reads=[Read(x, index)])
    return x
''')


def test_the_run_classified_is_the_run_made_without_classifying(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    """The issue's cheat on the command line: a program reading m.observer was classified
    EREW under --weakest-model, and violated EREW when run without it. The run is classified
    from the machine's own trace, so the program sees the same machine either way."""
    path = tmp_path / "shy.py"
    path.write_text(SHY)
    argv = ("run", "--module", str(path), "shy", "--n", "8", "--model", "erew")
    _, plain = run_json(capsys, *argv)
    _, classified = run_json(capsys, *argv, "--weakest-model")
    assert plain["violations"] == classified["violations"] == 1
    found = classified["weakest_model"]
    assert isinstance(found, dict) and found["weakest"] == "CREW"
    assert found["counts"]["concurrent_reads"] == 1
