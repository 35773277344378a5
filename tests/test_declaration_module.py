"""``--module`` and :class:`pram.Algorithm`: a module's program that changes its input or exits
is not a success, a program, reference or build that raises is one line naming it, a module
imports its own helpers, and ``pram report`` writes the folder of the declaration's name."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import pram
from pram import (
    InputError,
)
from tests.commands import call, one_line_error, run_json
from tests.helpers import declared_module

MODULE = declared_module("copy", "import os\nimport sys\n", '''
    b = m.array("b", size=n)
    pid = m.processors(n)
    (v,) = yield Step(pid, reads=[Read(x, iota(n))])
    if os.environ.get("PRAM_TEST_EXIT"):
        sys.exit(0)
    yield Step(pid, writes=[Write(b, iota(n), v + 1)])  # one more than the input: wrong
    return b
''')


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


def test_a_declaration_of_no_sizes_is_refused() -> None:
    with pytest.raises(InputError, match="sizes must hold at least one size"):
        pram.Algorithm(name="x", build=lambda n, rng: {}, program=lambda m: None,
                       reference=lambda: None, sizes=())


# ---- F10, F11 and the module's folder: --module ---------------------------------------------


SEGMENTED = textwrap.dedent("""
    import numpy as np
    import pram
    from helper21 import make
    from pram.algorithms.primitives import prefix_sums

    def program(m, a):
        yield from prefix_sums(m, a, len(a))
        return a

    def broken_build(n, rng):
        raise ValueError("no instance today")

    segmented = pram.Algorithm(name="segscan21", build=make, program=program,
                               reference=np.cumsum, sizes=(4, 8))
    broken = pram.Algorithm(name="broken21", build=broken_build, program=program,
                            reference=np.cumsum)
""")


@pytest.fixture
def module(tmp_path: Path) -> Path:
    (tmp_path / "helper21.py").write_text(
        "def make(n, rng):\n    return {'a': rng.integers(0, 9, n)}\n")
    path = tmp_path / "seg21.py"
    path.write_text(SEGMENTED)
    return path


def test_module_imports_its_helper_and_a_failing_build_is_one_line(
    capsys: pytest.CaptureFixture[str], module: Path
) -> None:
    status, out, _ = call(capsys, "run", "--module", str(module), "segmented", "--n", "4")
    assert status == 0 and "correct" in out
    line = one_line_error(capsys, "run", "--module", str(module), "broken")
    assert "build of declaration 'broken21' raised ValueError" in line
    assert "no instance today" in line and "fix its build" in line


def test_report_writes_the_folder_of_the_declarations_name(
    capsys: pytest.CaptureFixture[str], module: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    status, _, _ = call(capsys, "report", "--module", str(module), "segmented",
                        "--out", str(out))
    assert status == 0
    assert sorted(p.name for p in (out / "segscan21").iterdir()) == [
        "measurements.csv", "measurements.json", "summary.md"]  # no bounds: no ratio plot
