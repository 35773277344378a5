"""Cases of the outside edge battery (493 cases on --module, --instances, JSON, traces, inputs,
files, signals and environments, written from the docs by a tester who had not seen the code)
that failed before this round's fixes: each now one line and exit 2, or handled quietly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tests.commands import call, one_line_error

#: The installed command (its start-up handles a signal from its first line on).
PRAM = str(Path(sys.executable).with_name("pram"))

MODULE = '''
import numpy as np
from pram import Read, Step, Write, iota
import pram

def build(n, rng):
    return {"a": rng.integers(0, 100, n)}

def prog(m, a):
    n = a.size
    pid = m.processors(n)
    (x,) = yield Step(pid, reads=[Read(a, iota(n))])
    out = m.array("out", n)
    yield Step(pid, writes=[Write(out, iota(n), x)])
    return out

copy = pram.Algorithm(name="copy", build=build, program=prog, reference=lambda a: a.copy(),
                      bounds={"work": "BOUND", "time": "1"})
'''


@pytest.mark.parametrize(("bound", "why"), [
    ("n/(n-8)", "a division by zero"), ("sqrt(n-100)", "math domain error"),
    ("n^1000", "too large for a float")])
def test_a_bound_undefined_at_the_size_is_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, bound: str, why: str) -> None:
    """A formula a size makes undefined was a ZeroDivisionError, ValueError or OverflowError
    traceback (exit 1), in a declaration and in --bound alike."""
    module = tmp_path / "bounded.py"
    module.write_text(MODULE.replace("BOUND", bound))
    line = one_line_error(capsys, "run", "--module", str(module), "copy", "--n", "8", "--json")
    assert f"formula {bound} cannot be evaluated at n=8 ({why})" in line
    line = one_line_error(capsys, "sweep", "sort", "--n", "8,16", "--bound", f"work={bound}")
    assert f"formula {bound} cannot be evaluated at d=1, n=8 ({why})" in line


def test_a_colon_in_a_module_file_name_is_the_file(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """--module 'a:b.py' NAME was read as the file 'a' and the name 'b.py', with a fix that
    did not work; a NAME is an identifier, so 'b.py' is part of the file's name."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a:b.py").write_text(MODULE.replace("BOUND", "n"))
    status, out, err = call(capsys, "run", "--module", "a:b.py", "copy", "--n", "8", "--json")
    assert status == 0 and '"correct": true' in out, err
    status, out, err = call(capsys, "run", "--module", "a:b.py:copy", "--n", "8", "--json")
    assert status == 0, err


def test_an_output_name_that_is_not_utf8_is_written(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    """A file name of bytes that are not UTF-8 (as a shell passes $'x\\xff.npy') was a
    UnicodeEncodeError traceback in the temporary file's name; it is written as given."""
    target = os.fsdecode(os.fsencode(str(tmp_path)) + b"/x\xff.npy")
    status, _, err = call(capsys, "run", "sort", "--n", "8", "--output", target)
    assert status == 0, err
    assert np.load(target).tolist() == sorted(np.load(target).tolist())


def test_a_circuit_on_an_empty_input_is_refused(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    empty = tmp_path / "empty.npy"
    np.save(empty, np.zeros(0, np.int64))
    line = one_line_error(capsys, "circuit", "sort", "--input", str(empty))
    assert "holds no tokens" in line and "--n N" in line


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_standard_output_is_named() -> None:
    """`pram run ... > /dev/full` said "'a file' could not be written"."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([PRAM, "run", "sort", "--n", "8"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2
    assert "'standard output' could not be written: the disk is full" in done.stderr


def test_ctrl_c_while_workers_start_is_one_line() -> None:
    """A terminal's Ctrl-C (SIGINT to the whole process group) while --workers starts its
    processes printed their KeyboardInterrupt tracebacks from the middle of their imports."""
    for delay in (0.9, 1.5):
        p = subprocess.Popen(
            [PRAM, "run", "sort", "--n", "4096", "--instances", "400", "--workers", "2"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        time.sleep(delay)
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=120)
        lines = [line for line in err.splitlines() if line.strip()]
        if p.returncode == 0:
            continue  # finished before the signal: nothing to see
        # (on a busy machine the signal may come while the command still loads: "pram: ...")
        assert p.returncode == 130 and lines in (["pram run: interrupted"],
                                                 ["pram: interrupted"]), err[-3000:]


def test_a_home_this_user_cannot_look_in_gives_matplotlib_a_folder(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """sudo -u keeps a HOME the user may not read: looking for matplotlib's folder raised
    PermissionError in every command, --help included; now the folder counts as not writable
    and a temporary one is used."""
    from pram.reports import preflight

    real = Path.exists

    def exists(self: Path) -> bool:
        if str(self).startswith(str(tmp_path / "home")):
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "exists", exists)
    monkeypatch.delenv("MPLCONFIGDIR", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    preflight.matplotlib_home()
    assert os.environ["MPLCONFIGDIR"] and Path(os.environ["MPLCONFIGDIR"]).is_dir()
