"""Cases of the outside edge batteries (493, then 496 cases on --module, --instances, JSON,
traces, inputs, files, signals, environments and the Python API, written from the docs by
testers who had not seen the code) that failed before their rounds' fixes: each now one line
and exit 2 (an InputError in Python), or handled quietly. Cases another test module already
holds (the writer's link check in test_faults, a default option refused for a built-in in
test_options, a formula over its length limit in test_declaration, ...) are not repeated."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import pram
from pram import InputError
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


@pytest.mark.parametrize(("name", "argv"), [
    ("o.npy", ["run", "--module", "m.py", "copy", "--n", "8", "--output", "o.npy"]),
    ("t.html", ["trace", "--module", "m.py", "copy", "--n", "4", "--html", "t.html"]),
    ("p.png", ["sweep", "--module", "m.py", "copy", "--n", "8,16", "--plot", "p.png"]),
])
def test_an_output_linking_to_the_module_is_refused_and_the_module_kept(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        name: str, argv: list[str]) -> None:
    """`ln -s m.py o.npy; pram run --module m.py copy --output o.npy` wrote the answers over
    the module (the writer follows a link, and the module was not counted as an input); so did
    trace --html and sweep --plot. Each is refused before the run, naming the option."""
    monkeypatch.chdir(tmp_path)
    source = MODULE.replace("BOUND", "n")
    (tmp_path / "m.py").write_text(source)
    (tmp_path / name).symlink_to(tmp_path / "m.py")
    line = one_line_error(capsys, *argv)
    option = argv[-2]
    assert f"{option} {name!r} is the file given as --module 'm.py'" in line
    assert f"give {option} another name" in line
    assert (tmp_path / "m.py").read_text() == source


@pytest.mark.parametrize("option", [
    ["--keys", "word"], ["--network", "bitonic"], ["--comparator", "serial"],
    ["--sort", "merge-tree"], ["--search", "pbs"]])
def test_an_option_at_its_default_does_not_apply_to_a_declaration(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, option: list[str]) -> None:
    """`pram run --module m.py copy --keys word` (the default value) passed unseen, while
    --keys bits was refused."""
    module = tmp_path / "m.py"
    module.write_text(MODULE.replace("BOUND", "n"))
    line = one_line_error(capsys, "run", "--module", str(module), "copy", "--n", "8", *option)
    assert f"{option[0]} {option[1]} does not apply to copy: it applies only to " in line
    assert line.endswith("; leave it out")


def _declared(source: str) -> pram.Algorithm:
    """The declaration ``copy`` of a module's ``source``, from Python."""
    namespace: dict[str, object] = {}
    exec(compile(source, "copy.py", "exec"), namespace)  # the battery's module
    found = namespace["copy"]
    assert isinstance(found, pram.Algorithm)
    return found


#: The battery's one-input copy declaration, from Python.
COPY = _declared(MODULE.replace("BOUND", "n"))


@pytest.mark.parametrize(("call_it", "words"), [
    (lambda: pram.sweep(COPY, [float("nan")]), "sizes must hold positive integers, the sizes a "
     "sweep runs (got nan in [nan])"),
    (lambda: pram.sweep(COPY, [True, 16]), "sizes must hold positive integers, the sizes a "
     "sweep runs (got True in [True, 16])"),
    (lambda: pram.sweep(COPY, [8, 16], seed="a"), "seed must be a non-negative integer (got 'a')"),
    (lambda: pram.Machine(batch=10**12), "batch=1,000,000,000,000 instances is more than one "
     "machine holds (at most "),
    (lambda: pram.Machine(batch=10**9), "batch=1,000,000,000 instances is more than one "
     "machine holds (at most "),
    (lambda: COPY.solve(pram.Machine(), {"zz": np.arange(4)}), "but the framework calls "
     "program(m, zz=...); give it that signature"),
])
def test_a_python_value_that_cannot_work_is_refused_naming_it(call_it: object,
                                                               words: str) -> None:
    """From the Python API: a NaN size was numpy's ValueError, True was taken as size 1, a
    text seed numpy's TypeError, batch=10**12 a bare MemoryError and batch=10**9 a hang, and
    an input name the program does not take a TypeError from inside the framework."""
    assert callable(call_it)
    with pytest.raises(InputError, match=re.escape(words)):
        call_it()


@pytest.mark.parametrize(("value", "says"), [
    ("-5G", "--max-memory '-5G' is not a size"), ("-1", "--max-memory '-1' is not a size")])
def test_a_value_that_looks_like_an_option_is_checked_as_the_value(
        capsys: pytest.CaptureFixture[str], value: str, says: str) -> None:
    """``--max-memory -5G`` was argparse's "expected one argument", which names no value."""
    line = one_line_error(capsys, "run", "sort", "--n", "8", "--max-memory", value)
    assert says in line
    assert "expected one argument" in one_line_error(capsys, "run", "sort", "--input", "--json")


def test_lint_of_a_folder_without_python_files_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """It said "0 files: nothing that run time cannot stop" and exited 0: a wrong folder
    passed as a clean one."""
    (tmp_path / "notes.txt").write_text("no code here\n")
    line = one_line_error(capsys, "lint", str(tmp_path))
    assert "holds no Python file" in line and repr(str(tmp_path)) in line


def test_an_error_standard_error_cannot_take_still_exits_2() -> None:
    """With standard error on a full device the refusal of --n 0 exited 1 (rich's write
    failed); the status alone must still say "bad input"."""
    with open(os.devnull if not Path("/dev/full").exists() else "/dev/full", "w") as full:
        done = subprocess.run([PRAM, "run", "sort", "--n", "0"], stderr=full,
                              stdout=subprocess.PIPE, timeout=120)
    assert (done.returncode, done.stdout) == (2, b"")


BROKEN = """
class Unsayable(Exception):
    def __str__(self):
        raise RuntimeError("no words")

def ref(a):
    if PART == "reference": raise Unsayable()
    return a.copy()
""" + MODULE.replace("BOUND", "n").replace(
    "def build(n, rng):\n", "def build(n, rng):\n    if PART == 'build': raise Unsayable()\n"
).replace(
    "def prog(m, a):\n", "def prog(m, a):\n    if PART == 'program': raise Unsayable()\n"
).replace("reference=lambda a: a.copy()", "reference=ref") + """
if PART == "import": raise Unsayable()

class Evil:
    @property
    def __class__(self):
        raise RuntimeError("evil")

x = Evil()
"""


@pytest.mark.parametrize("part", ["import", "build", "program", "reference"])
def test_an_error_whose_message_cannot_be_shown_is_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, part: str) -> None:
    """An exception class of the user's whose __str__ raises gave a traceback ("During
    handling of the above exception...") and exit 1 (third outside edge battery)."""
    module = tmp_path / "broken.py"
    module.write_text(f"PART = {part!r}\n" + BROKEN)
    line = one_line_error(capsys, "run", "--module", str(module), "copy", "--n", "8")
    assert "raised Unsayable in broken.py:" in line
    assert "its message cannot be shown: str() raised RuntimeError" in line


def test_a_global_with_a_class_property_of_its_own_is_passed_over(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A global whose __class__ property raised broke the search for declarations."""
    module = tmp_path / "evil.py"
    module.write_text("PART = None\n" + BROKEN)
    status, _, err = call(capsys, "run", "--module", str(module), "copy", "--n", "8")
    assert status == 0, err
    assert "has no 'nope'" in one_line_error(capsys, "run", "--module", str(module), "nope")


def test_a_declarations_title_is_text() -> None:
    """title=5 was taken (every other field is checked)."""
    with pytest.raises(InputError, match="title is the text reports show"):
        pram.Algorithm(name="x", build=lambda n, rng: np.zeros(n), program=lambda m, x: x,
                       reference=lambda x: x, title=5)  # type: ignore[arg-type]


def test_a_modules_code_does_not_see_the_commands_arguments(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A module that read --seed from sys.argv at import could draw its instance itself, and
    a program that read --input's path could sort the file on the host (third outside honesty
    battery): the user's code sees the command's name alone."""
    module = tmp_path / "argv.py"
    module.write_text(MODULE.replace("BOUND", "n").replace(
        "def build(n, rng):", "import sys\nSEEN = list(sys.argv)\n\ndef build(n, rng):").replace(
        "    n = a.size\n", "    n = a.size\n    assert len(sys.argv) == 1 and len(SEEN) == 1, "
        "(sys.argv, SEEN)\n    assert len(sys.orig_argv) == 1, sys.orig_argv\n"))
    status, _, err = call(capsys, "run", "--module", str(module), "copy", "--n", "8",
                            "--seed", "3")
    assert status == 0, err


@pytest.mark.parametrize("argv", [
    ("sweep", "sort", "--n", "8,16", "--workers", str(2**31)),
    ("run", "sort", "--n", "8", "--instances", "4", "--workers", str(10**30)),
])
def test_a_worker_count_beyond_a_c_int_is_one_line(
        capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    """--workers 2^31 overflowed the pool's semaphore (tracebacks, leaked semaphores, exit 1;
    third outside edge battery)."""
    line = one_line_error(capsys, *argv)
    assert "--workers" in line and "at most 4096" in line


def test_a_prediction_beyond_a_float_is_shown(capsys: pytest.CaptureFixture[str]) -> None:
    """--predict 10^400 overflowed a float where the report showed an exact law's exact
    prediction (the JSON gives the integer, or null)."""
    status, out, err = call(capsys, "sweep", "sort", "--n", "8,16,32,64,128", "--predict",
                            "1" + "0" * 400)
    assert status == 0 and "e+" in out and "Traceback" not in err


def test_a_check_of_a_count_beyond_a_float_is_refused() -> None:
    """pram.check raised a bare OverflowError for an int count of 10^400."""
    with pytest.raises(InputError, match="is not a pair of sizes"):
        pram.check("work", pram.formula("n"), [({"n": 8}, 10**400), ({"n": 16}, 32.0)])


def test_parentheses_count_towards_a_formulas_depth() -> None:
    """Parentheses leave no node in the parse: 101 of them passed the 100-deep limit."""
    with pytest.raises(InputError, match="nests its parts more than 100 deep"):
        pram.formula("(" * 101 + "n" + ")" * 101)
    assert pram.formula("(" * 100 + "n" + ")" * 100)({"n": 3}) == 3


def test_a_modules_own_signal_handler_raising_is_one_line(tmp_path: Path) -> None:
    """A module whose SIGINT handler raises ValueError, Ctrl-C while its build sleeps: the
    size guard's probe took the handler's error for the build's, and the run went on to exit
    0 (third outside edge battery). Now one line naming the handler's line, exit 2."""
    (tmp_path / "m.py").write_text(MODULE.replace("BOUND", "n").replace(
        "def build(n, rng):\n",
        "import signal, time\n\ndef h(*a):\n    raise ValueError('my handler')\n\n"
        "signal.signal(signal.SIGINT, h)\n\ndef build(n, rng):\n"
        "    open('started', 'w').close()\n    time.sleep(30)\n"))
    child = subprocess.Popen([PRAM, "run", "--module", "m.py", "copy", "--n", "8"],
                             cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    deadline = time.monotonic() + 60
    while not (tmp_path / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 2, err
    assert err.strip().count("\n") == 0 and "raised ValueError in m.py:" in err, err


def test_a_declarations_bound_is_read_by_its_text(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    """bounds={'time': Formula('O(log n)', lambda s: s['n'])} made pram sweep --module print
    'holds, tight' for linear time (fourth outside battery): a Formula's text must read."""
    with pytest.raises(InputError, match=r"bound 'time': its text 'O\(log n\)' is not a formula"):
        pram.Algorithm(name="x", build=lambda n, rng: np.zeros(n), program=lambda m, x: x,
                       reference=lambda x: x,
                       bounds={"time": pram.Formula("O(log n)", lambda s: s["n"])})


def test_a_reference_keeps_nothing_for_a_later_instance(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A reference that kept its inputs in a module global handed the program of a later
    instance the inputs of the earlier ones (fourth outside battery): it runs apart now."""
    module = tmp_path / "kept.py"
    module.write_text(MODULE.replace("BOUND", "n").replace(
        "def build(n, rng):", "KEPT = []\n\ndef build(n, rng):").replace(
        "    n = a.size\n", "    n = a.size\n    assert not KEPT, 'a reference kept inputs'\n"
    ).replace(
        "reference=lambda a: a.copy()", "reference=lambda a: KEPT.append(a) or a.copy()"))
    status, _, err = call(capsys, "run", "--module", str(module), "copy", "--n", "8",
                          "--instances", "3")
    assert status == 0, err
