"""A declaration's ``build`` and ``load`` run in a child process (issue 33): nothing they keep
in the module's globals reaches the program, only the arrays they return come back, the same
bit for bit, and a command or sweep that draws many instances forks once.

The cheat closed (outside batteries, ``decl-build-stash`` and P93): a ``build`` that kept its
instance in a module global, whose program wrote that host copy sorted in one step.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import pram
from pram import InputError, Step, Write, iota
from pram.declaration import drawing, drawn
from pram.settings import seed_of
from tests.commands import call, one_line_error, run_json

STASH: dict[str, Any] = {}


def _stashing(n: int, rng: np.random.Generator) -> dict[str, np.ndarray[Any, Any]]:
    values = rng.permutation(7 * n)[:n].astype(np.int64)
    STASH["v"] = values.copy()
    return {"a": values}


def _sorted_from_the_stash(m: pram.Machine, a: pram.Array) -> Any:
    n = a.size
    out = m.array("out", size=n)
    yield Step(m.processors(n), writes=[Write(out, iota(n), np.sort(STASH["v"]))])
    return out


def test_a_build_stashing_its_instance_hands_the_program_nothing() -> None:
    STASH.clear()
    cheat = pram.Algorithm(name="stasher", build=_stashing, program=_sorted_from_the_stash,
                           reference=np.sort, bounds={"time": "1"})
    assert "a" in cheat.instance(16, 3) and STASH == {}  # built in the child: kept there
    with pytest.raises(KeyError, match="'v'"):
        pram.sweep(cheat, [16, 32])
    assert STASH == {}


def _pids(n: int, rng: np.random.Generator) -> dict[str, np.ndarray[Any, Any]]:
    return {"values": rng.integers(0, 10**6, n), "pid": np.array([os.getpid()] * n)}


PIDS = pram.Algorithm(name="pids", build=_pids, program=lambda m, values, pid: None,
                      reference=lambda values, pid: values)


def test_the_instances_are_the_ones_build_makes_in_place_bit_for_bit() -> None:
    for n, seed in ((1, 0), (64, 0), (100, 7), (10**6, 12)):
        drawn_apart = PIDS.instance(n, seed)
        here = _pids(n, np.random.default_rng(seed_of(seed)))
        assert drawn_apart["values"].dtype is np.dtype(np.int64)  # numpy's own dtype object
        assert np.array_equal(drawn_apart["values"], here["values"])
        assert drawn_apart["values"].flags.writeable
        assert int(drawn_apart["pid"][0]) != os.getpid()
    reals = pram.Algorithm(name="reals", build=lambda n, rng: rng.standard_normal(n),
                           program=lambda m, x: None, reference=lambda x: x)
    x = reals.instance(8, 5)["input"]
    assert x.dtype is np.dtype(np.float64)
    assert x.tobytes() == np.random.default_rng(5).standard_normal(8).tobytes()


def test_a_drawing_block_forks_once_for_all_its_instances() -> None:
    with drawing():
        pids = {int(PIDS.instance(8, s)["pid"][0]) for s in range(50)}
    assert len(pids) == 1 and os.getpid() not in pids
    apart = {int(PIDS.instance(8, s)["pid"][0]) for s in range(3)}  # outside: one each
    assert len(apart) == 3


def test_what_build_raises_is_raised_with_its_type_message_and_the_childs_traceback() -> None:
    def failing(n: int, rng: np.random.Generator) -> Any:
        raise ValueError(f"no instance of size {n}")

    d = pram.Algorithm(name="failing", build=failing, program=lambda m, x: None,
                       reference=lambda x: x)
    with pytest.raises(ValueError, match="no instance of size 8") as raised:
        d.instance(8)
    assert any("failing" in note for note in raised.value.__notes__)
    wrong = pram.Algorithm(name="wrong", build=lambda n, rng: [1, 2], program=lambda m, x: None,
                           reference=lambda x: x)
    with pytest.raises(InputError, match="build returned list; it must return a dict"):
        wrong.instance(8)


def test_a_build_that_ends_its_process_is_one_line() -> None:
    def ending(n: int, rng: np.random.Generator) -> Any:
        os._exit(3)

    d = pram.Algorithm(name="ending", build=ending, program=lambda m, x: None,
                       reference=lambda x: x)
    with pytest.raises(InputError) as refused:
        d.instance(8)
    assert str(refused.value) == (
        "the build of ending at n = 8 ended the process that draws the instances (exit "
        "status 3) instead of returning; fix its build(n, rng) so that it returns the inputs")
    with drawing():  # a session forks afresh after a child died
        with pytest.raises(InputError, match="exit status 3"):
            d.instance(8)
        assert PIDS.instance(4)["values"].size == 4


def test_what_build_prints_reaches_the_callers_streams_in_order(
        capsys: pytest.CaptureFixture[str]) -> None:
    def chatty(n: int, rng: np.random.Generator) -> Any:
        print("one")
        print("two", file=sys.stderr)
        print("three")
        return rng.integers(0, 9, n)

    d = pram.Algorithm(name="chatty", build=chatty, program=lambda m, x: None,
                       reference=lambda x: x)
    d.instance(4)
    out, err = capsys.readouterr()
    assert (out, err) == ("one\nthree\n", "two\n")


def test_drawn_runs_in_place_inside_the_child() -> None:
    """load is called through read inside the command line's own child: no grandchild."""
    def nested(n: int) -> int:
        return drawn(os.getpid, what="os.getpid", fix="")  # type: ignore[no-any-return]

    assert drawn(nested, 1, what="nested", fix="") != os.getpid()


# ---- the command line ---------------------------------------------------------------------

MODULE = '''
import os
import numpy as np
import pram
from pram import Read, Step, Write, iota

STASH = {}


def build(n, rng):
    v = rng.integers(0, 10**6, n)
    STASH["v"] = v.copy()
    if n == 8:
        print("built", n)
    return {"values": v}


def load(path):
    v = np.load(path)
    STASH["v"] = v.copy()
    return {"values": v}


def honest(m, values):
    n = values.size
    out = m.array("out", n)
    pid = m.processors(n)
    (x,) = yield Step(pid, reads=[Read(values, iota(n))])
    yield Step(pid, writes=[Write(out, iota(n), x * 2)])
    return out


def cheat(m, values):
    n = values.size
    out = m.array("out", n)
    yield Step(m.processors(n), writes=[Write(out, iota(n), STASH["v"] * 2)])
    return out


good = pram.Algorithm(name="good", build=build, program=honest, reference=lambda values: 2 * values,
                      load=load)
stash = pram.Algorithm(name="stash", build=build, program=cheat,
                       reference=lambda values: 2 * values, load=load)
'''


@pytest.fixture
def module(tmp_path: Path) -> str:
    path = tmp_path / "drawn.py"
    path.write_text(textwrap.dedent(MODULE))
    np.save(tmp_path / "in.npy", np.arange(5))
    return str(path)


def test_the_command_line_keeps_what_build_and_load_stash_in_the_child(
        module: str, capsys: pytest.CaptureFixture[str]) -> None:
    for extra in ((), ("--input", str(Path(module).with_name("in.npy")))):
        line = one_line_error(capsys, "run", "--module", module, "stash", *extra)
        assert "the program of declaration 'stash' raised KeyError in drawn.py" in line
    status, run = run_json(capsys, "run", "--module", module, "good", "--instances", "20")
    assert status == 0 and run["correct"] is True and run["instances"] == 20
    status, out, err = call(capsys, "run", "--module", module, "good", "--n", "8", "--json")
    assert status == 0 and out.count("\n") == 1 and "built 8" in err  # prints: stderr


SLOW = '''
import time
import numpy as np
import pram


def build(n, rng):
    time.sleep(60)
    return rng.integers(0, 9, n)


slow = pram.Algorithm(name="slow", build=build, program=lambda m, x: None,
                      reference=lambda x: x)
'''


def test_ctrl_c_during_a_build_ends_the_command_and_its_child(tmp_path: Path) -> None:
    path = tmp_path / "slow.py"
    path.write_text(textwrap.dedent(SLOW))
    pram_command = Path(sys.executable).with_name("pram")
    started = subprocess.Popen(
        [str(pram_command), "run", "--module", str(path), "slow", "--n", "100"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(_group(started.pid)) < 2:
            time.sleep(0.1)  # the command, and the child drawing its instance
        assert len(_group(started.pid)) >= 2
        os.killpg(started.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends
        out, err = started.communicate(timeout=20)
    finally:
        if started.poll() is None:
            os.killpg(started.pid, signal.SIGKILL)
    assert (started.returncode, out, err) == (130, "", "pram run: interrupted\n")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _group(started.pid):
        time.sleep(0.1)
    assert _group(started.pid) == []


def _group(pgid: int) -> list[str]:
    """The live processes of process group ``pgid`` (zombies are gone)."""
    found = subprocess.run(["ps", "-o", "pid=,stat=", "-g", str(pgid)], capture_output=True,
                           text=True).stdout.split("\n")
    return [line for line in found if line.strip() and "Z" not in line.split()[-1]]


@pytest.mark.parametrize(("made", "words"), [
    ({"a": [1, 2]}, "whose entry 'a' is of type list, not a numpy array"),
    ({"a": np.int64(5)}, "whose entry 'a' is of type int64, not a numpy array"),
    ({}, "returned an empty dict"),
    ({3: np.arange(2)}, "whose entry 3 is not named by a string"),
])
def test_a_build_of_a_bad_dict_names_the_entry(made: object, words: str) -> None:
    """It read "build returned dict; it must return a dict of numpy arrays", which
    contradicts itself and names no entry."""
    algorithm = pram.Algorithm(name="bad", build=lambda n, rng: made,
                               program=lambda m, a: iter(()), reference=lambda a: a)
    with pytest.raises(InputError, match=re.escape(words)):
        algorithm.inputs(made, "build")
