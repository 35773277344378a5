"""The machine's plain-step path agrees with its general path on every global step.

:meth:`pram.Machine._plain` executes the usual global step (no masks, ascending indices,
branches on processors apart) with fewer tests, and hands every other step to the general
path. Here random global steps of one to three branches, plain or nearly so, run on two
machines, one with the plain path switched off: replies, memory, ledgers, violations and
errors must be the same.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Machine, Read, Step, StepError, Write, hold
from pram.registers import contents


@st.composite
def branches(draw: st.DrawFn, sizes: list[int], plain: bool) -> dict[str, Any]:
    """One branch: its processors' count and ports with ascending or scattered indices (now
    and then out of range or masked), values as arrays, registers or integers. A ``plain``
    branch has handed-out ids and ascending, unmasked ports, so that whole global steps take
    the plain path often."""
    n = draw(st.integers(min_value=1 if plain else 0, max_value=40))

    def port(write: bool) -> dict[str, Any]:
        array = draw(st.integers(min_value=0, max_value=len(sizes) - 1))
        size = sizes[array]
        kind = "ascending" if plain else draw(
            st.sampled_from(["ascending", "scattered", "constant"]))
        if kind == "ascending":
            stride = draw(st.integers(min_value=1, max_value=3))
            last = max(0, size - 1 - stride * (n - 1)) if plain else max(0, size - 1)
            start = draw(st.integers(min_value=0 if plain else -2, max_value=last))
            index: Any = start + stride * np.arange(n, dtype=np.int64)
        elif kind == "scattered":
            cells = st.integers(min_value=-1, max_value=size)
            index = np.array(draw(st.lists(cells, min_size=n, max_size=n)), dtype=np.int64)
        else:
            index = draw(st.integers(min_value=0, max_value=size - 1))
        where = (np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=np.bool_)
                 if not plain and draw(st.integers(min_value=0, max_value=5)) == 0 else None)
        value = draw(st.sampled_from(["array", "register", "int"])) if write else None
        return {"array": array, "index": index, "where": where, "value": value,
                "as_register": draw(st.booleans())}

    ports = st.integers(min_value=0, max_value=2 if plain else 3)
    return {
        "n": n,
        "reads": [port(False) for _ in range(draw(ports))],
        "writes": [port(True) for _ in range(draw(ports))],
        "ids": "handed out" if plain else draw(
            st.sampled_from(["handed out", "permuted", "repeated", "shared"])),
        "phase": draw(st.sampled_from(["", "outer/inner", "other"])),
    }


@st.composite
def global_steps(draw: st.DrawFn) -> dict[str, Any]:
    """A random global step of one to three branches over one to three arrays, some of whose
    cells are undefined, under a random model."""
    sizes = draw(st.lists(st.integers(min_value=1, max_value=120), min_size=1, max_size=3))
    return {
        "sizes": sizes,
        "defined": draw(st.lists(st.booleans(), min_size=len(sizes), max_size=len(sizes))),
        "branches": draw(st.lists(branches(sizes, draw(st.booleans())), min_size=1, max_size=3)),
        "model": draw(st.sampled_from(["erew", "crew", "crcw-common", "crcw-arbitrary"])),
        "distinct": draw(st.booleans()),
        "seed": draw(st.integers(min_value=0, max_value=2**16)),
    }


def outcome(spec: dict[str, Any], plain: bool) -> dict[str, Any]:
    """Everything one machine shows after running ``spec``'s step (or the error it raised)."""
    m = Machine(spec["model"], distinct_processors=spec["distinct"], strict=False)
    if not plain:
        m._plain = lambda steps, facts: None  # type: ignore[method-assign]
    rng = np.random.default_rng(spec["seed"])
    arrays = [
        m.array(f"a{i}", values=rng.integers(-9, 9, size)) if defined
        else m.array(f"a{i}", size=size)
        for i, (size, defined) in enumerate(zip(spec["sizes"], spec["defined"], strict=True))
    ]
    steps = []
    first: Any = None  # the first branch's ids, which a "shared" branch lists again
    for branch in spec["branches"]:
        n = branch["n"]
        pid: Any = m.processors(n)
        if branch["ids"] == "permuted":
            pid = rng.permutation(np.array(pid))
        elif branch["ids"] == "repeated" and n > 1:
            pid = np.array(pid)
            pid[-1] = pid[0]
        elif branch["ids"] == "shared" and first is not None and len(first) >= n:
            pid = first[:n]
        first = pid if first is None else first

        def words(x: Any, register: bool, pid: Any = pid) -> Any:
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
        steps.append(Step(pid, reads=reads, writes=writes, phase=branch["phase"]))
    try:
        replies = m.execute(steps)
    except Exception as error:  # both paths must fail alike
        return {"error": (type(error).__name__, str(error))}
    return {
        "replies": [[contents(r).tolist() for r in reply] for reply in replies],
        "memory": [(a._cells.tolist(), None if a.defined is None else a.defined.tolist())
                   for a in arrays],
        "cost": attrs.asdict(m.cost),
        "violations": [str(v) for v in m.violations],
        "undefined": [str(u) for u in m.undefined_reads],
    }


@settings(max_examples=400, deadline=None)
@given(global_steps())
def test_plain_and_general_paths_agree(spec: dict[str, Any]) -> None:
    """The same global step gives the same replies, memory, ledger and verdicts both ways."""
    assert outcome(spec, plain=True) == outcome(spec, plain=False)


def test_plain_steps_take_the_plain_path() -> None:
    """A step of handed-out ids reading and writing ascending cells, alone or beside another
    branch, never reaches the general path, so the comparison above covers it."""
    m = Machine()
    a, b = m.array("a", values=np.arange(64)), m.array("b", size=128)
    general = []
    m._gather_accesses = lambda *args: general.append(args)  # type: ignore[method-assign]
    pid, other = m.processors(64), m.processors(64)
    (got,) = m.execute([Step(pid, reads=[Read(a, pid)], writes=[Write(b, pid, 2 * pid)])])[0]
    left = Step(pid, reads=[Read(a, pid)], writes=[Write(b, pid, 1)])
    right = Step(other, writes=[Write(b, other, 2)], phase="right")
    m.execute([left, right])
    assert general == []
    assert contents(got).tolist() == list(range(64))
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
