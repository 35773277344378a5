"""The machine's fast path agrees with its general path on every program.

``Machine(fast_path=True)`` (the default) runs the usual global step (no masks, ascending
indices, branches on disjoint ranges of processors) with only the first-branch tests of the
general path, and hands every other step to the general path; ``fast_path=False`` sends every
step there. Here random programs of one to four global steps, each of one to three branches,
usual or nearly so, run both ways under all eight access models: replies, memory, ledgers,
violations and errors must be the same. Sizes reach past every threshold of the engine: more
than 24 accesses to an array and processors in a step (the Python loops), index arrays longer
than 4,096 (the probe before the order test), processor ids spread wider than the id table.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import MODELS, Bundle, HonestyError, Machine, Read, Step, StepError, Write, hold
from pram.engine.instances import _cells_of as cells_of
from pram.registers import contents

#: Ids of this size are spread wider than the processor check's table (2^23, or 4 per
#: processor of the step), so the check sorts them instead.
FAR = 1 << 40


@st.composite
def branches(draw: st.DrawFn, sizes: list[int], usual: bool, most: int) -> dict[str, Any]:
    """One branch: its processors' count and ports with ascending or scattered indices (now
    and then out of range or masked), values as arrays, registers or integers. A ``usual``
    branch has handed-out ids and ascending, unmasked ports, so that whole global steps take
    the fast path often."""
    n = draw(st.integers(min_value=1 if usual else 0, max_value=most))

    def port(write: bool) -> dict[str, Any]:
        array = draw(st.integers(min_value=0, max_value=len(sizes) - 1))
        size = sizes[array]
        kind = "ascending" if usual else draw(
            st.sampled_from(["ascending", "scattered", "constant"]))
        if kind == "ascending":
            stride = draw(st.integers(min_value=1, max_value=3))
            last = max(0, size - 1 - stride * (n - 1)) if usual else max(0, size - 1)
            start = draw(st.integers(min_value=0 if usual else -2, max_value=last))
            index: Any = start + stride * np.arange(n, dtype=np.int64)
        elif kind == "scattered":
            # Random cells, and now and then one just out of range on either side.
            seed = draw(st.integers(min_value=0, max_value=2**16))
            index = np.random.default_rng(seed).integers(0, size, n)
            if n and draw(st.integers(min_value=0, max_value=4)) == 0:
                index[draw(st.integers(min_value=0, max_value=n - 1))] = draw(
                    st.sampled_from([-1, size]))
        else:
            index = draw(st.integers(min_value=0, max_value=size - 1))
        where = (np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=np.bool_)
                 if not usual and draw(st.integers(min_value=0, max_value=5)) == 0 else None)
        value = draw(st.sampled_from(["array", "register", "int"])) if write else None
        return {"array": array, "index": index, "where": where, "value": value,
                "as_register": draw(st.booleans())}

    ports = st.integers(min_value=0, max_value=2 if usual else 3)
    return {
        "n": n,
        "reads": [port(False) for _ in range(draw(ports))],
        "writes": [port(True) for _ in range(draw(ports))],
        "ids": "handed out" if usual else draw(
            st.sampled_from(["handed out", "permuted", "repeated", "shared", "far"])),
        "phase": draw(st.sampled_from(["", "outer/inner", "other"])),
    }


@st.composite
def programs(draw: st.DrawFn, most: int = 40, largest: int = 120) -> dict[str, Any]:
    """A random program of one to four global steps of one to three branches each (of at most
    ``most`` processors) over one to three arrays (of at most ``largest`` cells), some of
    whose cells are undefined, under a random model."""
    sizes = draw(st.lists(st.integers(min_value=1, max_value=largest), min_size=1, max_size=3))
    step = st.lists(branches(sizes, draw(st.booleans()), most), min_size=1, max_size=3)
    return {
        "sizes": sizes,
        "defined": draw(st.lists(st.booleans(), min_size=len(sizes), max_size=len(sizes))),
        "steps": draw(st.lists(step, min_size=1, max_size=4)),
        "model": draw(st.sampled_from(sorted(MODELS))),
        "mode": draw(st.sampled_from(["collect", "raise"])),
        "seed": draw(st.integers(min_value=0, max_value=2**16)),
    }


def outcome(spec: dict[str, Any], fast_path: bool) -> dict[str, Any]:
    """Everything one machine shows after running ``spec``'s program (or the error it raised,
    with what it had done by then)."""
    m = Machine(spec["model"], mode=spec["mode"], strict=False, seed=spec["seed"],
                fast_path=fast_path)
    rng = np.random.default_rng(spec["seed"])
    arrays = [
        m.array(f"a{i}", values=rng.integers(-9, 9, size)) if defined
        else m.array(f"a{i}", size=size)
        for i, (size, defined) in enumerate(zip(spec["sizes"], spec["defined"], strict=True))
    ]
    global_steps = []
    for branches in spec["steps"]:
        steps = []
        first: Any = None  # the first branch's ids, which a "shared" branch lists again
        for branch in branches:
            steps.append(build(m, arrays, branch, rng, first))
            first = steps[0].processors
        global_steps.append(steps)
    got_back: list[Any] = []

    def program() -> Any:
        for steps in global_steps:
            got = yield (steps[0] if len(steps) == 1 else Bundle(tuple(steps)))
            got_back.append([got] if len(steps) == 1 else got)

    error = None
    try:
        m.run(program())
    except Exception as refused:  # both paths must fail alike
        error = (type(refused).__name__, str(refused))
    # The registers read, as values once the run is over (a program may not look mid-run).
    replies = [[[contents(r).tolist() for r in reply] for reply in got] for got in got_back]
    return {
        "error": error,
        "replies": replies,
        "memory": [(cells_of(a).tolist(), None if a.defined is None else a.defined.tolist())
                   for a in arrays],
        "cost": attrs.asdict(m.cost),
        "violations": [str(v) for v in m.violations],
        "undefined": [str(u) for u in m.undefined_reads],
    }


def build(m: Machine, arrays: list[Any], branch: dict[str, Any], rng: np.random.Generator,
          first: Any) -> Step:
    """The step of one drawn branch, on fresh processors (or on ``first``'s, if shared)."""
    n = branch["n"]
    pid: Any = m.processors(n)
    if branch["ids"] == "permuted":
        pid = rng.permutation(np.array(pid))
    elif branch["ids"] == "repeated" and n > 1:
        pid = np.array(pid)
        pid[-1] = pid[0]
    elif branch["ids"] == "shared" and first is not None and len(first) >= n:
        pid = first[:n]
    elif branch["ids"] == "far":  # spread wider than the id table, in random order
        pid = FAR * rng.permutation(n).astype(np.int64) + np.array(pid)

    def words(x: Any, register: bool) -> Any:
        return hold(pid, x) if register and isinstance(x, np.ndarray) else x

    reads = [Read(arrays[p["array"]], words(p["index"], p["as_register"]), p["where"])
             for p in branch["reads"]]
    writes = []
    for p in branch["writes"]:
        kind = p["value"]
        value: Any = (7 if kind == "int" else hold(pid, rng.integers(-9, 9, n))
                      if kind == "register" else rng.integers(-9, 9, n))
        writes.append(Write(arrays[p["array"]], words(p["index"], p["as_register"]), value,
                            p["where"]))
    return Step(pid, reads=reads, writes=writes, phase=branch["phase"])


@settings(max_examples=300, deadline=None)
@given(programs())
def test_fast_and_general_paths_agree(spec: dict[str, Any]) -> None:
    """The same program gives the same replies, memory, ledger and verdicts both ways."""
    assert outcome(spec, fast_path=True) == outcome(spec, fast_path=False)


@settings(max_examples=12, deadline=None)
@given(programs(most=5000, largest=12000))
def test_fast_and_general_paths_agree_on_long_ports(spec: dict[str, Any]) -> None:
    """The same, with ports of thousands of processors: past the probe of index arrays longer
    than 4,096 entries before the order test."""
    assert outcome(spec, fast_path=True) == outcome(spec, fast_path=False)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_every_model_agrees_on_a_long_program(model: str) -> None:
    """A fixed program past every threshold (5,000 processors, ascending, interleaved,
    reversed and shared cells, ids spread far) gives the same results both ways."""
    spec = {
        "sizes": [10_001, 60], "defined": [True, False], "model": model,
        "mode": "collect", "seed": 3,
        "steps": [
            [{"n": 5000, "ids": "handed out", "phase": "a",
              "reads": [port(0, 2 * np.arange(5000))],
              "writes": [port(0, 2 * np.arange(5000) + 1, "register")]}],
            [{"n": 5000, "ids": "handed out", "phase": "b",
              "reads": [port(0, np.arange(5000)[::-1].copy())],
              "writes": [port(1, np.arange(5000) % 60, "array")]},
             {"n": 30, "ids": "far", "phase": "c", "reads": [port(1, np.arange(30))],
              "writes": []}],
            [{"n": 4097, "ids": "handed out", "phase": "",
              "reads": [port(0, np.arange(4097))], "writes": [port(1, 5, "int")]}],
        ],
    }
    fast, general = outcome(spec, fast_path=True), outcome(spec, fast_path=False)
    assert fast == general
    assert general["error"] is None and general["cost"]["time"] == 3
    # Step 2 writes each of 60 cells from 83 or 84 processors with random values, and reads
    # half of them in another branch; step 3 writes one cell from 4,097 with one value, 7
    # (which CRCW weak forbids: only 0 and 1 may be written at once).
    expected = {"erew": 60 + 30 + 1, "crew": 60 + 1, "crcw-common": 60, "ercw": 60,
                "crcw-weak": 60 + 1}.get(model, 0)
    assert len(general["violations"]) == expected


def port(array: int, index: Any, value: str | None = None) -> dict[str, Any]:
    """A drawn port written out by hand."""
    return {"array": array, "index": index, "where": None, "value": value,
            "as_register": False}


def general_phases(run: Any) -> list[str]:
    """The engine functions ``run()`` called that belong to the general path only."""
    called: list[str] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code.co_name in ("_ports", "check_processors"):
            called.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return called


@pytest.mark.parametrize("fast_path", [True, False])
def test_usual_steps_take_the_fast_path(fast_path: bool) -> None:
    """A step of handed-out ids reading and writing ascending cells, alone or beside another
    branch, never reaches the general path, so the comparisons above cover it; with
    ``fast_path=False`` it does."""
    m = Machine(fast_path=fast_path)
    a, b = m.array("a", values=np.arange(64)), m.array("b", size=128)
    pid, other = m.processors(64), m.processors(64)
    alone = Step(pid, reads=[Read(a, pid)], writes=[Write(b, pid, 2 * pid)])
    left = Step(pid, reads=[Read(a, pid)], writes=[Write(b, pid, 1)])
    right = Step(other, writes=[Write(b, other, 2)], phase="right")
    got: list[Any] = []
    called = general_phases(lambda: got.extend(m.execute([alone])[0]))
    called += general_phases(lambda: m.execute([left, right]))
    # The general path validates each branch's ports, then checks the processors once.
    general = ["_ports", "check_processors", "_ports", "_ports", "check_processors"]
    assert called == ([] if fast_path else general)
    assert contents(got[0]).tolist() == list(range(64))
    assert b.to_numpy().tolist() == [1] * 64 + [2] * 64
    assert (m.cost.time, m.cost.work, m.cost.reads, m.cost.writes) == (2, 192, 128, 192)
    assert m.cost.phases["right"].work == 64


def test_only_the_handed_out_ids_go_untested() -> None:
    """Another array over the same immutable memory (here its halves as int32) is tested like
    any other, so it cannot pass duplicate ids off as distinct."""
    m = Machine()
    a = m.array("a", values=np.arange(64))
    pid = m.processors(32)
    halves = np.frombuffer(pid.base, dtype=np.int32)  # 0, 0, 1, 0, 2, 0, ...
    with pytest.raises(StepError, match="processor 0 acts twice"):
        m.execute([Step(halves, reads=[Read(a, np.arange(64))])])
    shifted = np.frombuffer(pid.base, dtype=np.int64, offset=8)
    m.execute([Step(shifted, reads=[Read(a, shifted)])])
    assert m.cost.work == 31 and m.violations == []


def test_views_of_the_handed_out_ids_pass_and_other_arrays_over_them_are_tested() -> None:
    """Aligned views of the handed-out ids with a positive stride of whole words (slices,
    rows and columns of the pool reshaped) are ascending without a numpy pass; an array over
    the same memory with stride 0 or a stride of half a word, or at half a word's offset, is
    tested like any other, so it cannot pass duplicate ids off as distinct."""
    from pram.engine.memo import StepMemo, ascending

    m = Machine()
    a = m.array("a", values=np.arange(64))
    pid = m.processors(32)
    pool = pid.reshape(4, 8)
    for view in (pid[3:20], pid[::3], pool[1], pool[:, 2], pool.reshape(-1)):
        called: list[str] = []

        def profile(frame: FrameType, event: str, arg: object, called: list[str] = called
                    ) -> None:
            if event == "c_call" and getattr(arg, "__name__", "") == "count_nonzero":
                called.append("count_nonzero")

        sys.setprofile(profile)
        try:
            assert ascending(view, StepMemo())
        finally:
            sys.setprofile(None)
        assert called == []  # no numpy pass
        m.execute([Step(view, reads=[Read(a, view)])])
    assert m.violations == []
    assert not ascending(pid[::-1], StepMemo())
    twice = np.ndarray((3,), np.int64, buffer=pid, strides=(0,))  # 0, 0, 0
    with pytest.raises(StepError, match="processor 0 acts twice"):
        m.execute([Step(twice, reads=[Read(a, np.arange(3))])])
    for other in (np.ndarray((8,), np.int64, buffer=pid, strides=(4,)),  # 0, 2^32, 1, ...
                  np.ndarray((3,), np.int64, buffer=pid, offset=4)):  # not aligned
        assert ascending(other, StepMemo()) == bool(np.all(other[1:] > other[:-1]))


@pytest.mark.parametrize("fast_path", [True, False])
def test_a_register_of_another_run_is_refused_either_way(fast_path: bool) -> None:
    """Registers live for one run: the fast path does not take one of an earlier run as an
    index, and the general path refuses it (issue 19: registers belong to one run)."""
    m = Machine(fast_path=fast_path)
    a = m.array("a", values=np.arange(4))
    pid = m.processors(4)

    def first() -> Any:
        x, = yield Step(pid, reads=[Read(a, pid)])
        return x

    earlier = m.run(first())

    def second() -> Any:
        yield Step(pid, reads=[Read(a, earlier)])

    with pytest.raises(HonestyError, match="another run"):
        m.run(second())
    assert m.cost.time == 1  # the refused step was not charged
