"""``--module`` as a first-class citizen of the command line: every way a user's module can
go wrong is one line naming the file and line (exit 2), its prints never corrupt ``--json``,
its paths are checked as regular files, the size guard sees its inputs and ``--instances``,
and the command ends after its output."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from tests.commands import call, one_line_error, run_json
from tests.helpers import COPY_MODULE, PRAM_COMMAND

#: A correct declaration: doubling in two steps, n processors.
GOOD = '''
import numpy as np
import pram
from pram import Read, Step, Write, iota


def build(n, rng):
    return rng.integers(0, 100, n)


@pram.declare(build=build, reference=lambda x: 2 * x, bounds={"work": "n", "time": "1"})
def double(m, x):
    n = len(x)
    pid, i = m.processors(n), iota(n)
    (v,) = yield Step(pid, reads=[Read(x, i)])
    yield Step(pid, writes=[Write(x, i, 2 * v)])
    return x
'''


def _module(tmp_path: Path, text: str, name: str = "mine.py") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


@pytest.fixture
def good(tmp_path: Path) -> str:
    return _module(tmp_path, GOOD, "good.py")


def _declared(body: str, build: str = "build", reference: str = "lambda x: 2 * x",
              extra: str = "") -> str:
    """GOOD with one more declaration ``bad`` of the given parts."""
    return (GOOD + extra + f"\nbad = pram.Algorithm(name='bad', build={build}, "
            f"program={body}, reference={reference})\n")


@pytest.mark.parametrize(("source", "words"), [
    ("raise KeyboardInterrupt\n", "raised KeyboardInterrupt in mine.py:1 while it was imported"),
    ("import os\nos._exit(0)\n", "called os._exit(0) in mine.py:2 while it was imported"),
    ("import sys\nsys.exit(0)\n", "called sys.exit(0) in mine.py:2 while it was imported"),
    ("import sys\nsys.exit('bye')\n", "called sys.exit('bye') in mine.py:2"),
    ("x = 1\nraise ValueError('no data')\n", "raised ValueError in mine.py:2 while it was "
     "imported (no data)"),
    ("import helper_broken\n", "has a syntax error at line 2 of helper_broken.py"),
    ("import helper_missing_xyz\n", "raised ModuleNotFoundError in mine.py:1"),
])
def test_an_import_that_fails_is_one_line_naming_the_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, words: str
) -> None:
    """KeyboardInterrupt raised by the module was a traceback, os._exit(0) a silent exit 0,
    a helper's syntax error blamed on the module's line 1."""
    (tmp_path / "helper_broken.py").write_text("x = 1\ndef f(:\n    pass\n")
    path = _module(tmp_path, source)
    line = one_line_error(capsys, "run", "--module", path, "x")
    assert words in line, line


def test_a_null_byte_and_an_empty_module_are_named_without_line_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A null byte in the module was "a syntax error at line None of mine.py"; --module ''
    was read as a file named ':NAME'."""
    path = _module(tmp_path, "x = 1\x00\n")
    line = one_line_error(capsys, "run", "--module", path, "x")
    assert f"--module {path!r} has a syntax error: " in line and "null bytes; fix the file" in line
    for empty in ("", " "):
        line = one_line_error(capsys, "run", "--module", empty, "double")
        assert line.endswith(f"--module {empty!r} names no file or module; give the path of a "
                             "Python file that declares the algorithm (or package.module:NAME)")


def test_a_declaration_is_found_by_its_name_past_its_programs_function(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A program function ``twice`` declared as ``TWICE = pram.Algorithm(name="twice", ...)``:
    the NAME twice was refused as "a function, not a pram.Algorithm"."""
    source = GOOD + ("\ndef twice(m, x):\n    return (yield from double.program(m, x))\n\n"
                     "TWICE = pram.Algorithm(name='twice', build=build, program=twice, "
                     "reference=lambda x: 2 * x)\n")
    path = _module(tmp_path, source)
    status, obj = run_json(capsys, "run", "--module", path, "twice", "--n", "8")
    assert (status, obj["algorithm"], obj["correct"], obj["work"]) == (0, "twice", True, 16)
    line = one_line_error(capsys, "run", "--module", path, "build")
    assert "'build' is a function, not a pram.Algorithm" in line


@pytest.mark.parametrize(("parts", "words"), [
    ({"build": "lambda n, rng: (_ for _ in ()).throw(KeyboardInterrupt)", "body": "double"},
     "the build of declaration 'bad' raised KeyboardInterrupt in mine.py:"),
    ({"body": "lambda m, x: __import__('os')._exit(0)"},
     "the program of declaration 'bad' called os._exit(0) in mine.py:"),
    ({"body": "lambda m, x: __import__('sys').exit(3)"},
     "the program of declaration 'bad' called sys.exit(3) in mine.py:"),
    ({"body": "double", "reference": "lambda x: np.array([object()] * len(x))"},
     "the reference of bad returned an array of object"),
    ({"body": "double", "reference": "lambda x: 1 / 0"},
     "the reference of declaration 'bad' raised ZeroDivisionError in mine.py:"),
    ({"body": "lambda m, x: m.array('big', 1 << 62)"},
     "an array of 4,611,686,018,427,387,904 cells"),
    ({"body": "lambda m, x: x"}, "returned Array instead of a program"),
])
def test_an_error_of_the_users_code_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], parts: dict[str, str], words: str
) -> None:
    """Build, program and reference: each failure names the part, the file and line; a
    2^62-cell array is the input's size, not "OverflowError, fix the program"."""
    path = _module(tmp_path, _declared(**parts))
    line = one_line_error(capsys, "run", "--module", path, "bad", "--n", "8")
    assert words in line, line


def test_a_load_that_raises_and_a_fifo_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FIFO as the module or as --input hung forever; a load that raised was a traceback."""
    source = _declared("double", extra="\ndef load(path):\n    raise ValueError('bad file')\n",
                       reference="lambda x: 2 * x, load=load")
    path = _module(tmp_path, source)
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    line = one_line_error(capsys, "run", "--module", str(fifo), "x")
    assert "is a FIFO" in line
    line = one_line_error(capsys, "run", "--module", path, "bad", "--input", str(fifo))
    assert "--input" in line and "is a FIFO" in line
    data = tmp_path / "d.npy"
    np.save(data, np.arange(4))
    line = one_line_error(capsys, "run", "--module", path, "bad", "--input", str(data))
    assert "the load of declaration 'bad' raised ValueError in mine.py:" in line
    assert "(bad file)" in line


@pytest.mark.parametrize(("loaded", "what"), [
    ("np.array([], dtype=np.int64)", "returned no entries as its first array 'input' (shape (0,))"),
    ("np.array(5)", "returned a scalar as its first array 'input' (shape ())"),
    ("{'a': np.array(5), 'b': np.arange(3)}",
     "returned a scalar as its first array 'a' (shape ())"),
])
def test_a_load_that_gives_no_size_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], loaded: str, what: str
) -> None:
    """n is the length of the first array load returns: an empty one was a ZeroDivisionError
    traceback (a bound's ratio at n = 0), a 0-d one a TypeError (len() of unsized object)."""
    path = _module(tmp_path, _declared("double", reference=f"lambda x: 2 * x, load=lambda p: "
                                                           f"{loaded}, bounds={{'work': 'n'}}"))
    data = tmp_path / "d.npy"
    np.save(data, np.arange(4))
    line = one_line_error(capsys, "run", "--module", path, "bad", "--input", str(data), "--json")
    assert f"the load of bad {what} reading {str(data)!r}; the run's n is that array's length" \
        in line, line


@pytest.mark.parametrize("extra", [[], ["--instances", "2"]])
def test_a_bound_not_positive_at_the_run_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    """A declared bound of 0 at the run's n was a ZeroDivisionError traceback (measured /
    formula); refused as a sweep refuses it, and the run at an n where it is positive goes."""
    path = _module(tmp_path, GOOD.replace('{"work": "n", "time": "1"}',
                                          '{"work": "n - 8", "time": "1"}'))
    line = one_line_error(capsys, "run", "--module", path, "double", "--n", "8", *extra)
    assert line.endswith("formula n - 8 is 0 at n=8; a bound check divides by it, so run at "
                         "sizes where it is positive (or declare a bound that is)"), line
    status, obj = run_json(capsys, "run", "--module", path, "double", "--n", "16", *extra)
    assert status == 0 and obj["bounds"]["work"]["formula"] == "n - 8"


def test_prints_go_to_stderr_and_json_stays_one_object(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Text printed at import, in build, program and reference came before the object."""
    source = "print('at import')\n" + GOOD.replace(
        "    n = len(x)\n", "    print('in program')\n    n = len(x)\n").replace(
        "    return rng.integers", "    print('in build')\n    return rng.integers")
    path = _module(tmp_path, source)
    for command in (("run",), ("sweep", "--n", "8,16,32")):
        status, out, err = call(capsys, command[0], "--module", path, "double",
                                *command[1:], "--json")
        assert status == 0 and len(out.splitlines()) == 1
        json.loads(out)
        assert "at import" in err or command[0] == "sweep"  # imported once per process
        assert "in program" in err and "in build" in err


def test_writes_past_sys_stdout_and_atexit_functions_keep_the_json_one_object(
    tmp_path: Path,
) -> None:
    """Outside battery: os.write(1, ...) and a subprocess's echo at import and in the program
    came before the object on standard output; an atexit function printed after it, and one
    calling os._exit(0) ended a failed run with status 0."""
    source = ("import atexit, os, subprocess\nos.write(1, b'raw at import\\n')\n"
              "subprocess.run(['echo', 'echo at import'])\n"
              "atexit.register(print, 'printed at exit')\n" + GOOD.replace(
                  "    n = len(x)\n", "    os.write(1, b'raw in program\\n')\n    n = len(x)\n"))
    done = _pram("run", "--module", _module(tmp_path, source), "double", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["correct"] is True and len(done.stdout.splitlines()) == 1
    for words in ("raw at import", "echo at import", "raw in program", "printed at exit"):
        assert words in done.stderr
    wrong = _module(tmp_path, "import atexit, os\natexit.register(os._exit, 0)\n" + GOOD.replace(
        "reference=lambda x: 2 * x", "reference=lambda x: 3 * x"), "wrong.py")
    done = _pram("run", "--module", wrong, "double", "--json")
    assert done.returncode == 1 and json.loads(done.stdout)["correct"] is False
    assert "of the module called os._exit(0) at the command's end" in done.stderr


def test_a_module_that_changes_folder_does_not_move_the_output(tmp_path: Path) -> None:
    """Outside battery: os.chdir at import sent --output o.npy into the other folder."""
    (tmp_path / "elsewhere").mkdir()
    module = _module(tmp_path, "import os\nos.chdir('elsewhere')\n" + GOOD)
    done = _pram("run", "--module", module, "double", "--n", "8", "--output", "o.npy",
                 cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "o.npy").exists() and not (tmp_path / "elsewhere" / "o.npy").exists()


def test_the_json_of_a_declaration_has_no_mqar_fields(
    good: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _, run = run_json(capsys, "run", "--module", good, "double")
    assert not {"keys", "comparator", "sort", "search", "network"} & set(run)
    assert (run["model"], run["seed"], run["correct"]) == ("erew", 0, True)


def test_the_size_guard_sees_a_declarations_inputs_and_instances(
    good: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's command ran on (about 800 GB); a huge n is refused before the build."""
    line = one_line_error(capsys, "run", "--module", good, "double", "--n", "100000",
                          "--instances", "1000000", "--max-memory", "2G")
    assert "--instances 1000000" in line and "needs about" in line
    line = one_line_error(capsys, "run", "--module", good, "double", "--n", str(10**12))
    assert "double at n = 1,000,000,000,000 needs about" in line and "the largest n" in line
    status, _, _ = call(capsys, "run", "--module", good, "double", "--n", "64",
                        "--instances", "3", "--max-memory", "2G")
    assert status == 0


def test_nan_at_the_same_place_is_the_same_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was "got nan, expected nan", exit 1; a NaN on one side only still differs."""
    source = GOOD.replace("    return rng.integers(0, 100, n)",
                          "    x = rng.standard_normal(n)\n    x[0] = np.nan\n    return x")
    path = _module(tmp_path, source)
    _, run = run_json(capsys, "run", "--module", path, "double", "--n", "8")
    assert run["correct"] is True
    wrong = _module(tmp_path, source.replace("reference=lambda x: 2 * x",
                                             "reference=lambda x: np.nan_to_num(2 * x)"),
                    "wrong.py")
    _, run = run_json(capsys, "run", "--module", wrong, "double", "--n", "8")
    assert run["correct"] is False and "got nan, expected 0.0" in str(run["mismatch"])


@pytest.mark.parametrize(("reference", "expected"), [
    ("lambda x: np.full(len(x), np.nan)", "expected nan"),
    ("lambda x: np.full(len(x), np.inf)", "expected inf"),
    ("lambda x: 2 * x + 0.5", ".5"),
])
def test_a_reference_of_reals_beside_an_integer_answer_is_compared_as_reals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reference: str, expected: str
) -> None:
    """A reference of NaN or inf for an integer answer was a traceback (int() of NaN), and
    one of 85.5 read "got 85, expected 85": the command line cut the reference to integers."""
    path = _module(tmp_path, GOOD.replace("reference=lambda x: 2 * x", f"reference={reference}"))
    for argv in (("run", "--n", "8"), ("run", "--n", "8", "--instances", "2"),
                 ("sweep", "--n", "8,16")):
        status, out = run_json(capsys, *argv, "--module", path, "double")
        assert status == 1, out
    status, run = run_json(capsys, "run", "--module", path, "double", "--n", "8")
    assert run["correct"] is False and expected in str(run["mismatch"]), run["mismatch"]


def test_a_trace_says_whether_the_answer_is_right(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """pram trace exits 0 whatever the run's verdicts, but a wrong answer went unsaid (an
    outside battery): its JSON gives correct, null under --no-check."""
    wrong = _module(tmp_path, GOOD.replace("reference=lambda x: 2 * x",
                                           "reference=lambda x: 3 * x"), "wrong.py")
    runs = {flags: run_json(capsys, "trace", "--module", path, "double", "--n", "8",
                            "--steps", "1", *flags)
            for path, flags in ((wrong, ()), (wrong, ("--no-check",)))}
    assert [(status, obj["correct"]) for status, obj in runs.values()] == [(0, False), (0, None)]
    status, right = run_json(capsys, "trace", "--module", _module(tmp_path, GOOD), "double",
                             "--n", "8", "--steps", "1")
    assert (status, right["correct"]) == (0, True)


def test_two_declarations_of_one_name_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _module(tmp_path, GOOD + "\nagain = pram.Algorithm(name='double', build=build, "
                   "program=double.program, reference=lambda x: 3 * x)\n")
    for name in ("double", "again"):
        line = one_line_error(capsys, "run", "--module", path, name)
        assert "declares two algorithms named 'double' (" in line


def test_an_unknown_option_is_named(good: str, capsys: pytest.CaptureFixture[str]) -> None:
    """It hid behind "the following arguments are required: --n"."""
    line = one_line_error(capsys, "sweep", "sort", "--bogus")
    assert "unrecognized argument '--bogus'" in line


def test_sweep_checks_another_bound(good: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--bound MEASURE=FORMULA replaces the declared bound of that measure."""
    status, swept = run_json(capsys, "sweep", "--module", good, "double", "--n",
                             "8,16,32,64,128", "--bound", "work=log2(n)")
    assert status == 1 and swept["bounds"]["work"]["verdict"] == "exceeded"
    assert swept["bounds"]["time"]["verdict"] == "holds"
    status, swept = run_json(capsys, "sweep", "sort", "--n", "8,16,32,64,128", "--bound",
                             "work=n log2(n)^2", "--bound", "time=log2(n)^2")
    assert status == 0 and swept["bounds"]["work"]["tight"] is True
    line = one_line_error(capsys, "sweep", "sort", "--n", "8,16", "--bound", "depth=n")
    assert "MEASURE one of work, time, rounds, round_work, reads, writes" in line


def test_a_bound_is_read_in_the_algorithm_s_own_sizes(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """--bound on MQAR refused a formula in N ("uses the name 'N'") and one in n alike (fresh
    outside battery): a bound is read in the sizes it names, and one naming a size the
    algorithm's runs lack is refused before the sweep runs, naming its sizes."""
    status, swept = run_json(capsys, "sweep", "mqar", "--n", "48,96,192,384,768,1536",
                             "--bound", "work=N log2(N)")
    assert status == 1 and swept["bounds"]["work"]["verdict"] == "exceeded"
    line = one_line_error(capsys, "sweep", "mqar", "--n", "48,96,192", "--bound",
                          "time=log2(n)^2")
    assert "mqar's runs have no size 'n' (its sizes: N, d)" in line
    assert "--bound 'time=d log2(N)^2'" in line


def _pram(*argv: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """``pram argv`` in a process of its own (standard output and error captured unless
    ``kwargs`` say otherwise)."""
    script = "import sys; from pram.reports.cli import main; sys.exit(main(sys.argv[1:]))"
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE} | kwargs
    return subprocess.run([sys.executable, "-c", script, *argv], text=True, timeout=120,
                          check=False, **streams)  # type: ignore[call-overload]


def test_the_command_ends_after_its_output_though_user_threads_remain(
    tmp_path: Path,
) -> None:
    """A non-daemon thread the program started kept the command alive after the run."""
    source = GOOD.replace("    n = len(x)\n", "    __import__('threading').Thread(target="
                          "__import__('time').sleep, args=(600,)).start()\n    n = len(x)\n")
    path = _module(tmp_path, source)
    done = _pram("run", "--module", path, "double", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["correct"] is True
    assert "1 thread the code run started" in done.stderr


def test_a_module_that_breaks_numpy_changes_neither_what_is_read_nor_what_is_written(
    tmp_path: Path,
) -> None:
    """``np.save = None`` (and ``np.load``, ``np.savez``) at a module's import made writing
    --output a traceback: the command's reader and writer use numpy as pram found it."""
    source = GOOD.replace(
        "import numpy as np\n",
        "import numpy as np\nnp.save = np.savez = np.load = None\n", 1).replace(
        "@pram.declare(build=build,", "@pram.declare(build=build, load=lambda p: np.arange(6),")
    path = _module(tmp_path, source)
    data, out = tmp_path / "in.npy", tmp_path / "out.npy"
    np.save(data, np.arange(6))
    done = _pram("run", "--module", path, "double", "--output", str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["correct"] is True and "Traceback" not in done.stderr
    assert np.load(out).size == 64  # the declaration's default n
    # the declaration's own load gives the input; the answer is still written whole
    done = _pram("run", "--module", path, "double", "--input", str(data), "--output", str(out))
    assert done.returncode == 0, done.stderr
    assert np.load(out).tolist() == [0, 2, 4, 6, 8, 10]


def test_help_to_a_full_disk_is_not_a_success() -> None:
    """argparse swallowed the failed write: --help > /dev/full exited 0."""
    with open("/dev/full", "w") as full:
        done = _pram("run", "--help", stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 2 and "the help could not be written" in done.stderr


def test_matplotlib_is_quiet_with_a_read_only_home(tmp_path: Path, good: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    home.chmod(0o555)
    env = {k: v for k, v in os.environ.items()
           if k not in ("MPLCONFIGDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")} | {
        "HOME": str(home)}
    done = _pram("sweep", "--module", good, "double", "--n", "8,16,32", "--plot",
                 str(tmp_path / "p.png"), env=env)
    assert done.returncode == 0
    assert "".join(done.stderr.split()) == f"wrote{tmp_path / 'p.png'}"  # (folded at 80)


def test_matplotlib_is_quiet_with_a_home_that_does_not_exist(tmp_path: Path, good: str) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("MPLCONFIGDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")} | {
        "HOME": str(tmp_path / "nowhere")}
    done = _pram("sweep", "--module", good, "double", "--n", "8,16,32", "--plot",
                 str(tmp_path / "p.png"), env=env)
    assert done.returncode == 0 and not (tmp_path / "nowhere").exists()
    assert "".join(done.stderr.split()) == f"wrote{tmp_path / 'p.png'}"


def test_a_pram_error_the_users_code_raises_itself_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A build or reference that raised pram.InputError itself was "pram run: error: mine",
    with no part, file or line, unlike any other error of the user's code."""
    source = GOOD.replace("    return rng.integers(0, 100, n)",
                          "    raise pram.InputError('mine')")
    line = one_line_error(capsys, "run", "--module", _module(tmp_path, source), "double",
                          "--n", "8")
    assert "the build of declaration 'double' raised InputError in mine.py:" in line
    assert "at n = 8 (mine); fix its build(n, rng)" in line
    wrong = GOOD.replace("reference=lambda x: 2 * x",
                         "reference=lambda x: (_ for _ in ()).throw(pram.InputError('ref'))")
    line = one_line_error(capsys, "run", "--module", _module(tmp_path, wrong, "ref.py"),
                          "double", "--n", "8")
    assert "the reference of declaration 'double' raised InputError in ref.py:" in line


def test_no_output_is_the_module_by_a_hard_link(
    tmp_path: Path, good: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = Path(good).read_bytes()
    for flag, name, command in (("--html", "hl.html", "trace"), ("--output", "hl.npy", "run"),
                                ("--plot", "hl.png", "sweep")):
        link = tmp_path / name
        os.link(good, link)
        sizes = ["--n", "8,16,32,64"] if command == "sweep" else ["--n", "8"]
        line = one_line_error(capsys, command, "--module", good, "double", *sizes, flag,
                              str(link))
        assert f"{flag} {str(link)!r} is the file given as --module" in line
    assert Path(good).read_bytes() == before


@pytest.mark.parametrize(("header", "body"), [
    (b"# -*- coding: latin-1 -*-\n", "x = '\xe9'\n".encode("latin-1")),
    (b"\xef\xbb\xbf", "x = '\xe9'\n".encode()),
    (b"# caf\xe9, a latin-1 byte in a comment, which an import passes over\n", b"x = 1\n"),
])
def test_lint_decodes_source_as_python_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], header: bytes, body: bytes
) -> None:
    """What an import of the file accepts, the lint reads (and checks)."""
    path = tmp_path / "src.py"
    path.write_bytes(header + body)
    compile(path.read_bytes(), str(path), "exec")  # Python's own reading accepts it
    status, out, _ = call(capsys, "lint", str(path))
    assert status == 0 and "1 file: nothing that run time cannot stop" in out


def test_lint_refuses_what_python_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A non-UTF-8 byte in code without a coding line: Python cannot read it, nor the lint."""
    path = tmp_path / "src.py"
    path.write_bytes(b"x = '\xe9'\n")
    with pytest.raises(SyntaxError):
        compile(path.read_bytes(), str(path), "exec")
    status, out, _ = call(capsys, "lint", str(path))
    assert status == 1 and "cannot be parsed" in out and "so not checked" in out


def test_lint_of_a_deeply_nested_expression_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.py"
    path.write_text("x = " + "-" * 100_000 + "1\n")
    status, out, _ = call(capsys, "lint", str(path))
    assert status == 1 and "nested too deeply to parse" in out


def test_a_backend_matplotlib_refuses_is_one_line(
    good: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """MPLBACKEND=bogus was matplotlib's ValueError traceback (in a fresh process, where
    matplotlib starts under the command)."""
    pytest.importorskip("matplotlib")
    done = subprocess.run(
        [sys.executable, "-m", "pram.reports.cli", "sweep", "--module", good, "double", "--n",
         "8,16,32,64", "--plot", str(tmp_path / "p.png")],
        capture_output=True, text=True, env=os.environ | {"MPLBACKEND": "bogus"}, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "matplotlib refused to start" in done.stderr and "MPLBACKEND='bogus'" in done.stderr
    assert not (tmp_path / "p.png").exists()


def test_a_build_of_strings_is_named_as_strings(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A build returning np.array(['x'] * n) was blamed on "a signal handler of the module's"
    (fresh outside battery): the inputs' check names the string values, as it names objects."""
    path = _module(tmp_path, (
        "import numpy as np, pram\n"
        "from pram import Step\n"
        "def prog(m, a):\n"
        "    yield Step(m.processors(1))\n"
        "    return a\n"
        "def build(n, rng):\n"
        "    return {'a': np.array(['x'] * n)}\n"
        "strings = pram.Algorithm(name='strings', build=build, program=prog,\n"
        "                         reference=lambda a: a)\n"))
    line = one_line_error(capsys, "run", "--module", path, "strings", "--n", "16")
    assert "input 'a' holds <U1 values" in line and "signal handler" not in line


def test_an_alarm_a_program_sets_ends_the_command_with_one_line(tmp_path: Path) -> None:
    """A program's signal.alarm ended the command with the shell's "Alarm clock" alone (fresh
    outside battery): SIGALRM (and SIGXCPU, a CPU-time limit) end it as SIGTERM does."""
    path = _module(tmp_path, (
        "import signal, time\n"
        "import numpy as np, pram\n"
        "from pram import Read, Step, iota\n"
        "def prog(m, a):\n"
        "    signal.alarm(1)\n"
        "    time.sleep(30)\n"
        "    yield Step(m.processors(1), reads=[Read(a, iota(1))])\n"
        "    return a\n"
        "alarmed = pram.Algorithm(name='alarmed', build=lambda n, rng: {'a': np.arange(n)},\n"
        "                         program=prog, reference=lambda a: a)\n"))
    done = _pram("run", "--module", path, "alarmed", "--n", "8")
    assert (done.returncode, done.stdout, done.stderr) == (142, "", "pram run: alarm clock\n")


# ---- edge cases found from the docs by testers who had not seen the code: each was a
# traceback or a wrong success, now one line and exit 2 (an InputError in Python) ----


@pytest.mark.parametrize(("bound", "why"), [
    ("n/(n-8)", "a division by zero"), ("sqrt(n-100)", "math domain error"),
    ("n^1000", "too large for a float")])
def test_a_bound_undefined_at_the_size_is_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, bound: str, why: str) -> None:
    """A formula a size makes undefined was a ZeroDivisionError, ValueError or OverflowError
    traceback (exit 1), in a declaration and in --bound alike."""
    module = tmp_path / "bounded.py"
    module.write_text(COPY_MODULE.replace("BOUND", bound))
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
    (tmp_path / "a:b.py").write_text(COPY_MODULE.replace("BOUND", "n"))
    status, out, err = call(capsys, "run", "--module", "a:b.py", "copy", "--n", "8", "--json")
    assert status == 0 and '"correct": true' in out, err
    status, out, err = call(capsys, "run", "--module", "a:b.py:copy", "--n", "8", "--json")
    assert status == 0, err


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
    source = COPY_MODULE.replace("BOUND", "n")
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
    module.write_text(COPY_MODULE.replace("BOUND", "n"))
    line = one_line_error(capsys, "run", "--module", str(module), "copy", "--n", "8", *option)
    assert f"{option[0]} {option[1]} does not apply to copy: it applies only to " in line
    assert line.endswith("; leave it out")


def test_lint_of_a_folder_without_python_files_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """It said "0 files: nothing that run time cannot stop" and exited 0: a wrong folder
    passed as a clean one."""
    (tmp_path / "notes.txt").write_text("no code here\n")
    line = one_line_error(capsys, "lint", str(tmp_path))
    assert "holds no Python file" in line and repr(str(tmp_path)) in line



def test_lint_of_a_folder_passes_over_a_dangling_link_and_a_fifo(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An editor's dangling lock link or a FIFO named *.py in a folder refused the whole
    folder (exit 2), so its other files went unchecked (an outside battery): they are passed
    over, named on standard error, and the rest is checked."""
    import os

    (tmp_path / "a.py").write_text("import gc\n")
    (tmp_path / ".#x.py").symlink_to(tmp_path / "nowhere")
    os.mkfifo(tmp_path / "f.py")
    status, out, err = call(capsys, "lint", str(tmp_path))
    assert (status, out.strip()) == (1, f"{tmp_path / 'a.py'}:1: import gc")
    assert err.startswith("pram lint: note: 2 entries named *.py are not regular files, passed "
                          "over (")


BROKEN = """
class Unsayable(Exception):
    def __str__(self):
        raise RuntimeError("no words")

def ref(a):
    if PART == "reference": raise Unsayable()
    return a.copy()
""" + COPY_MODULE.replace("BOUND", "n").replace(
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


def test_a_modules_code_does_not_see_the_commands_arguments(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A module that read --seed from sys.argv at import could draw its instance itself, and
    a program that read --input's path could sort the file on the host (third outside honesty
    battery): the user's code sees the command's name alone."""
    module = tmp_path / "argv.py"
    module.write_text(COPY_MODULE.replace("BOUND", "n").replace(
        "def build(n, rng):", "import sys\nSEEN = list(sys.argv)\n\ndef build(n, rng):").replace(
        "    n = a.size\n", "    n = a.size\n    assert len(sys.argv) == 1 and len(SEEN) == 1, "
        "(sys.argv, SEEN)\n    assert len(sys.orig_argv) == 1, sys.orig_argv\n"))
    status, _, err = call(capsys, "run", "--module", str(module), "copy", "--n", "8",
                            "--seed", "3")
    assert status == 0, err


def test_a_modules_own_signal_handler_raising_is_one_line(tmp_path: Path) -> None:
    """A module whose SIGINT handler raises ValueError, Ctrl-C while its build sleeps: the
    size guard's probe took the handler's error for the build's, and the run went on to exit
    0 (third outside edge battery). Now one line naming the handler's line, exit 2."""
    (tmp_path / "m.py").write_text(COPY_MODULE.replace("BOUND", "n").replace(
        "def build(n, rng):\n",
        "import signal, time\n\ndef h(*a):\n    raise ValueError('my handler')\n\n"
        "signal.signal(signal.SIGINT, h)\n\ndef build(n, rng):\n"
        "    open('started', 'w').close()\n    time.sleep(30)\n"))
    child = subprocess.Popen([PRAM_COMMAND, "run", "--module", "m.py", "copy", "--n", "8"],
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


def test_a_reference_keeps_nothing_for_a_later_instance(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A reference that kept its inputs in a module global handed the program of a later
    instance the inputs of the earlier ones (fourth outside battery): it runs apart now."""
    module = tmp_path / "kept.py"
    module.write_text(COPY_MODULE.replace("BOUND", "n").replace(
        "def build(n, rng):", "KEPT = []\n\ndef build(n, rng):").replace(
        "    n = a.size\n", "    n = a.size\n    assert not KEPT, 'a reference kept inputs'\n"
    ).replace(
        "reference=lambda a: a.copy()", "reference=lambda a: KEPT.append(a) or a.copy()"))
    status, _, err = call(capsys, "run", "--module", str(module), "copy", "--n", "8",
                          "--instances", "3")
    assert status == 0, err


#: A declaration whose program, or whose module as it is imported, reads the answer from
#: its --input file on the host (an outside honesty battery's cheat: "correct" in one step).
REREAD = """
import glob
import numpy as np
import pram
from pram import Step, Write
{at_import}

def program(m, a):
    values = {values}
    out = m.array("out", 1)
    yield Step(m.processors(1), writes=[Write(out, 0, int(values.max()))])
    return out

largest = pram.Algorithm(name="largest", build=lambda n, rng: {{"a": rng.integers(0, 99, n)}},
                         load=lambda path: {{"a": np.load(path)}}, program=program,
                         reference=lambda a: np.array([a.max()]))
"""


@pytest.mark.parametrize(("at_import", "values"), [
    ("", "np.load(sorted(glob.glob('inp*.npy'))[0])"),
    ("KEPT = np.load(sorted(glob.glob('inp*.npy'))[0])", "KEPT"),
])
def test_a_declaration_reading_its_input_on_the_host_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    at_import: str, values: str,
) -> None:
    """Only the framework's child opens a declaration's --input (its load, the size guard's
    look at the headers): the program, or its module as it is imported, opening it is
    refused naming the file; a program that leaves the file alone runs with --input (its
    load reads it in the child)."""
    monkeypatch.chdir(tmp_path)
    np.save(tmp_path / "inp.npy", np.array([3, 97, 5]))
    path = _module(tmp_path, REREAD.format(at_import=at_import, values=values))
    status, _, err = call(capsys, "run", "--module", path, "largest", "--input", "inp.npy")
    assert status in (1, 2) and "Traceback" not in err
    assert "opening 'inp.npy', the declaration's --input, in the process that runs its " \
           "module" in err
    honest = _module(tmp_path, REREAD.format(at_import="", values="np.array([97])")
                     .replace("int(values.max())", "97"), "honest.py")
    status, done = run_json(capsys, "run", "--module", honest, "largest", "--input", "inp.npy")
    assert status == 0 and done["correct"] is True


@pytest.mark.parametrize("child", ["time.sleep(0.5); os._exit(0)", "pass"])
def test_a_process_the_module_forks_ends_unheard(tmp_path: Path, child: str) -> None:
    """A module that forked at import: the command printed its JSON and exited 0, then the
    child, its os._exit refused like the module's own, printed a second object (a refusal)
    and an error line; a child that went on ran the command a second time."""
    path = _module(tmp_path, GOOD.replace(
        "import numpy as np\n", f"import numpy as np\nimport os, time\nif os.fork() == 0:\n"
        f"    {child}\n", 1))
    done = _pram("run", "--module", path, "double", "--n", "8", "--json")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    (line,) = done.stdout.splitlines()
    assert json.loads(line)["correct"] is True


def test_an_input_the_declaration_cannot_take_is_refused_before_its_code_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--input for a declaration without load was refused after its build had run twice (the
    size guard's probes); --input naming the module's own file was blamed on the module's
    import ("HonestyError in <frozen importlib...>; fix the module")."""
    marks = tmp_path / "built"
    path = _module(tmp_path, GOOD.replace(
        "def build(n, rng):\n", f"def build(n, rng):\n    open({str(marks)!r}, 'a').write('x')\n"))
    data = tmp_path / "x.npy"
    np.save(data, np.arange(8))
    line = one_line_error(capsys, "run", "--module", path, "double", "--input", str(data))
    assert "--input does not apply to double: its declaration has no load" in line, line
    assert not marks.exists()
    line = one_line_error(capsys, "run", "--module", path, "double", "--input", path)
    assert f"--input {path!r} is the module's own file" in line, line


def test_a_message_of_a_hundred_thousand_characters_is_quoted_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A build raising ValueError('x' * 100_000) made an error line of 100 KB."""
    path = _module(tmp_path, GOOD.replace(
        "def build(n, rng):\n", "def build(n, rng):\n    raise ValueError('x' * 100_000)\n"))
    line = one_line_error(capsys, "run", "--module", path, "double", "--n", "8")
    assert "raised ValueError in mine.py:" in line and len(line) < 800, len(line)
    assert "(99,700 characters)" in line


def test_a_plot_of_bounds_not_declared_or_judged_on_rounds_is_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--plot read each ratio from the runs' own bounds: a --bound on a declaration without
    bounds, or --measure rounds, was a KeyError traceback, and no bound at all a ValueError
    of matplotlib's. The ratios are now the checks' own; with no bound at all it is refused."""
    pytest.importorskip("matplotlib")
    path = _module(tmp_path, GOOD.replace(', bounds={"work": "n", "time": "1"}', ""))
    line = one_line_error(capsys, "sweep", "--module", path, "double", "--n", "8,16,32",
                          "--plot", str(tmp_path / "none.png"))
    assert "--plot draws measured / formula for each bound, and double declares none" in line
    for argv in (["--module", path, "double", "--bound", "work=n"],
                 ["sort", "--measure", "rounds"]):
        picture = tmp_path / "ratios.png"
        status, _, _ = call(capsys, "sweep", *argv, "--n", "8,16,32,64", "--plot", str(picture))
        assert status == 0 and picture.stat().st_size > 1000
        picture.unlink()


@pytest.mark.parametrize("name", ["second-one", "second.one"])
def test_a_declaration_is_found_by_a_name_with_a_dash_or_a_dot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """The docs let NAME be a declaration's name, but one with '-' or '.' was "names no
    algorithm", with a fix that named it twice."""
    path = _module(tmp_path, GOOD + f"\nsecond = pram.Algorithm(name={name!r}, build=build, "
                   "program=double.program, reference=lambda x: 2 * x)\n")
    for argv in (["--module", path, name], ["--module", f"{path}:{name}"]):
        status, run = run_json(capsys, "run", *argv, "--n", "8")
        assert status == 0 and run["algorithm"] == name, run


def test_a_deleted_working_folder_is_not_blamed_on_the_module(tmp_path: Path) -> None:
    """In a working folder since deleted, a good module was "raised FileNotFoundError in
    contextlib.py:137 ... fix the module": the command's own os.getcwd() failed."""
    path = _module(tmp_path, GOOD)
    gone = tmp_path / "gone"
    gone.mkdir()
    script = ("import os, sys; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); "
              "from pram.reports.cli import main; sys.exit(main(sys.argv[2:]))")
    done = subprocess.run([sys.executable, "-c", script, str(gone), "run", "--module", path,
                           "double", "--n", "8", "--json"], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["correct"] is True
