"""Edges found by a fourth outside battery (written from the README, the tutorial and the
specs alone): options given twice, long output names, a module's program that changes its
inputs or exits, and sizes of ``iota`` that are not whole numbers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import pram
from pram import InputError

from .commands import call, one_line_error, run_json


@pytest.mark.parametrize("argv, flag", [
    (("run", "sort", "--n", "8", "--output", "a.npy", "--output", "b.npy"), "--output"),
    (("run", "sort", "--n", "16", "--n", "32"), "--n"),
    (("run", "sort", "--n", "8", "--seed", "1", "--seed", "2"), "--seed"),
    (("run", "sort", "--n", "8", "--model", "erew", "--model", "crew"), "--model"),
    (("sweep", "sort", "--n", "8,16", "--n", "32,64,128,256"), "--n"),
    (("example", "tokens", "t.npy", "--n", "30", "--n", "60"), "--n"),
])
def test_an_option_given_twice_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch,
                                          argv: tuple[str, ...], flag: str) -> None:
    """The first value was dropped unsaid (``--output a.npy --output b.npy`` wrote b only)."""
    monkeypatch.chdir(tmp_path)
    line = one_line_error(capsys, *argv)
    assert f"{flag} given twice" in line and "give it once" in line
    assert list(tmp_path.iterdir()) == []  # refused before any work


def test_a_flag_given_twice_loses_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    status, run = run_json(capsys, "run", "sort", "--n", "8", "--json")
    assert status == 0 and run["correct"] is True


@pytest.mark.parametrize("length", [238, 251])
def test_an_output_name_as_long_as_the_file_system_takes_is_written(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, length: int) -> None:
    """The temporary file repeated the whole name and 18 bytes more: names of 238 to 255
    bytes were refused though the file system takes them."""
    name = tmp_path / ("a" * (length - 4) + ".npy")
    status, _, err = call(capsys, "run", "sort", "--n", "8", "--output", str(name))
    assert status == 0, err
    assert np.load(name).tolist() == sorted(np.load(name).tolist())
    assert [p.name for p in tmp_path.iterdir()] == [name.name]


MODULE = '''
import os
import sys

import numpy as np

import pram
from pram import Read, Step, Write, iota


def build(n, rng):
    return rng.integers(0, 100, n)


@pram.declare(build=build, reference=lambda x: x, bounds={"work": "n", "time": "1"})
def copy(m, x):
    n = len(x)
    b = m.array("b", size=n)
    pid = m.processors(n)
    (v,) = yield Step(pid, reads=[Read(x, iota(n))])
    if os.environ.get("PRAM_TEST_EXIT"):
        sys.exit(0)
    yield Step(pid, writes=[Write(b, iota(n), v + 1)])  # one more than the input: wrong
    return b
'''


def test_a_module_program_with_a_wrong_answer_is_not_correct(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(MODULE)
    status, run = run_json(capsys, "run", "--module", str(tmp_path / "m.py"), "copy")
    assert (status, run["correct"]) == (1, False)


def test_a_module_that_exits_is_not_a_silent_success(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "m.py").write_text(MODULE)
    monkeypatch.setenv("PRAM_TEST_EXIT", "1")
    line = one_line_error(capsys, "run", "--module", str(tmp_path / "m.py"), "copy")
    assert "sys.exit(0)" in line


@pytest.mark.parametrize("bad", [-1, 2.5, True, "3", None])
def test_iota_takes_whole_numbers_only(bad: object) -> None:
    with pytest.raises(InputError, match="iota takes a non-negative whole number"):
        pram.iota(bad)  # type: ignore[arg-type]


def test_iota_of_numpy_integers() -> None:
    assert pram.iota(np.int64(3)).tolist() == [0, 1, 2] and pram.iota(0).tolist() == []


RAISING = MODULE.replace("    yield Step(pid, writes=",
                         "    if os.environ.get('PRAM_TEST_RAISE'):\n"
                         "        raise ValueError('boom')\n    yield Step(pid, writes=")


def test_a_module_program_that_raises_is_one_line_naming_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """It ended with the Python traceback of the user's error; the build's own errors were
    already one line."""
    (tmp_path / "m.py").write_text(RAISING)
    monkeypatch.setenv("PRAM_TEST_RAISE", "1")
    line = one_line_error(capsys, "run", "--module", str(tmp_path / "m.py"), "copy")
    number = RAISING.splitlines().index("        raise ValueError('boom')") + 1
    assert f"the program of declaration 'copy' raised ValueError in m.py:{number}" in line
    assert "(boom); fix the program" in line


def test_a_module_reference_that_raises_is_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = MODULE.replace("reference=lambda x: x,", "reference=lambda x: x[len(x) * 2],")
    (tmp_path / "m.py").write_text(source)
    line = one_line_error(capsys, "run", "--module", str(tmp_path / "m.py"), "copy")
    assert "the reference of declaration 'copy' raised IndexError in m.py:" in line
