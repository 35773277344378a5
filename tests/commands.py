"""The command line run in-process, for the tests of its commands."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from pram.reports.cli import main


def call(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``pram argv`` in-process; return (status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    """Run ``pram argv --json``; return the status and the one JSON object printed."""
    status, out, _ = call(capsys, *argv, "--json")
    lines = out.splitlines()
    assert len(lines) == 1, "--json prints exactly one line, one object"
    obj = json.loads(lines[0])
    assert isinstance(obj, dict)
    return status, obj


def refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``pram argv``; assert exit 2 with nothing on stdout and exactly one line, ended,
    on stderr; return that line."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    return err.strip()


def one_line_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``pram argv``, expecting exit 2 with one line on standard error (and with
    ``--json`` one JSON object on standard output saying so); return the line."""
    status, out, err = call(capsys, *argv)
    assert status == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert_refusal_output(argv, out, err)
    return err.strip()


def assert_refusal_output(argv: Sequence[str], out: str, err: str) -> None:
    """A refused command's standard output: nothing, or with ``--json`` exactly one JSON
    object naming the refusal and its line."""
    if "--json" not in argv:
        assert out == ""
        return
    refusal = json.loads(out)
    assert refusal["ok"] is False and refusal["status"] == 2 and refusal["error"] == "refused"
    assert refusal["message"] == err.strip()


def assert_answers_held_out(
    capsys: pytest.CaptureFixture[str], name: str, model: str, path: Path, answer: np.ndarray,
    output: Path, *extra: str,
) -> None:
    """``pram run name --input path --output output`` (and ``extra``) exits 0 under ``model``
    with no violation and a correct answer, and writes ``answer`` as int64 words."""
    status, run = run_json(capsys, "run", name, "--input", str(path), "--output", str(output),
                           *extra)
    assert (status, run["model"], run["violations"], run["correct"]) == (0, model, 0, True)
    written = np.load(output)
    assert written.dtype == np.int64
    assert written.tolist() == answer.tolist()
