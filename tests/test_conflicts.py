"""Conflict detection against a brute-force checker written from engine.md's model table.

The checker looks at every pair of accesses of one global step, one pair at a time, and knows
nothing of the machine's scatter, sort or run tricks. The machine must report exactly the
violations the checker finds (no false positives, no false negatives) and leave memory exactly
as the model's write rule says, for every model and both modes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pytest
from hypothesis import given, settings

from pram import (
    COLLISION,
    MODELS,
    Array,
    Bundle,
    ConflictError,
    Kind,
    Machine,
    Program,
    Read,
    Step,
    Values,
    Violation,
    Write,
    parallel,
    phase,
)
from tests.strategies import ProgramSpec, StepSpec, programs, to_step

#: Kinds each model forbids; CRCW-common and ERCW-common forbid write/write only when the
#: values disagree, CRCW-weak also when they agree on a value other than 0 and 1.
FORBIDDEN = {
    "erew": {Kind.READ_READ, Kind.WRITE_WRITE, Kind.READ_WRITE},
    "crew": {Kind.WRITE_WRITE},
    "crcw-common": {Kind.WRITE_WRITE},
    "ercw": {Kind.READ_READ, Kind.WRITE_WRITE},
    "crcw-weak": {Kind.WRITE_WRITE},
}
NAMES = {"erew": "EREW", "crew": "CREW", "crcw-common": "CRCW-common",
         "ercw": "ERCW-common", "crcw-weak": "CRCW-weak"}
#: The models whose write/write violations are about the values written (and show them).
BY_VALUE = {"crcw-common", "ercw", "crcw-weak"}
Mode = Literal["collect", "raise"]
RANK = {Kind.READ_READ: 0, Kind.WRITE_WRITE: 1, Kind.READ_WRITE: 2}


@dataclass(frozen=True)
class Access:
    """One access of one processor in the brute force's flat view of a global step."""

    array: int
    cell: int
    processor: int
    write: bool
    value: int
    branch: int


@dataclass
class Outcome:
    """What the brute force expects from one global step."""

    violations: list[tuple[Any, ...]] = field(default_factory=list)
    # (array, cell) -> the effective value of each writer (its later port's value)
    writers: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict)


def accesses(specs: list[tuple[int, StepSpec]]) -> list[Access]:
    """Every access of a global step, in port order, masks applied."""
    found = []
    for branch, spec in specs:
        for port in (*spec.reads, *spec.writes):
            for i, pid in enumerate(spec.processors):
                if port.where is not None and not port.where[i]:
                    continue
                value = port.value[i] if port.value is not None else 0
                found.append(
                    Access(port.array, port.index[i], pid, port.value is not None, value, branch)
                )
    return found


def kind_of(a: Access, b: Access) -> Kind:
    if a.write and b.write:
        return Kind.WRITE_WRITE
    if a.write or b.write:
        return Kind.READ_WRITE
    return Kind.READ_READ


def brute_force(
    model: str, specs: list[tuple[int, StepSpec]], phases: list[str], step: int
) -> Outcome:
    """The violations and writers of one global step, by looking at every pair of accesses."""
    flat = accesses(specs)
    outcome = Outcome()
    for a in flat:
        if a.write:  # ports are in order, so a processor's later port overwrites its earlier
            outcome.writers.setdefault((a.array, a.cell), {})[a.processor] = a.value
    involved: dict[tuple[int, int, Kind], set[int]] = {}
    for i, a in enumerate(flat):
        for b in flat[i + 1 :]:
            if (a.array, a.cell) != (b.array, b.cell) or a.processor == b.processor:
                continue
            kind = kind_of(a, b)
            if kind not in FORBIDDEN.get(model, set()):
                continue
            if model in BY_VALUE and kind is Kind.WRITE_WRITE:
                mine = outcome.writers[(a.array, a.cell)]
                same = mine[a.processor] == mine[b.processor]
                if same and (model != "crcw-weak" or mine[a.processor] in (0, 1)):
                    continue
            involved.setdefault((a.array, a.cell, kind), set()).update((a.processor, b.processor))
    branch_of = {a.processor: a.branch for a in flat}
    for (array, cell, kind), pids in involved.items():
        ids = tuple(sorted(pids))
        values: tuple[int, ...] = ()
        if model in BY_VALUE and kind is Kind.WRITE_WRITE:
            values = tuple(outcome.writers[(array, cell)][p] for p in ids)
        labels = tuple(dict.fromkeys(phases[b] for b in sorted({branch_of[p] for p in ids})))
        outcome.violations.append(
            (NAMES[model], step, phases[branch_of[ids[0]]], f"a{array}", cell, kind, ids, values,
             labels if len(labels) > 1 else ())
        )
    return outcome


def array_order(specs: list[tuple[int, StepSpec]]) -> list[int]:
    """Arrays in the order the global step first names them (the machine's report order)."""
    order: list[int] = []
    for _, spec in specs:
        for port in (*spec.reads, *spec.writes):
            if port.array not in order:
                order.append(port.array)
    return order


def resolve(model: str, writers: dict[int, int], old: int) -> int | set[int]:
    """The value the model stores at a cell that held ``old`` (CRCW arbitrary: the set it
    may choose from)."""
    values = [writers[p] for p in sorted(writers)]
    if model == "crcw-arbitrary":
        return set(values)
    if len(values) > 1 and model == "crcw-collision":
        return COLLISION
    if len(set(values)) > 1 and model in ("crcw-tolerant", "crcw-collision+"):
        return old if model == "crcw-tolerant" else COLLISION
    best = values[0]  # the lowest processor id's value (priority, and after a forbidden clash)
    for v in values[1:]:
        if model == "crcw-sum":
            best += v
        elif (model == "crcw-max" and v > best) or (model == "crcw-min" and v < best):
            best = v
    return best


def as_tuple(v: Violation) -> tuple[Any, ...]:
    return (v.model, v.step, v.phase, v.array, v.index, v.kind, v.processors, v.values, v.phases)


def branch_program(specs: tuple[StepSpec, ...], arrays: list[Array]) -> Program[list[Values]]:
    """Yield the branch's steps in turn; return what its reads returned."""
    replies = []
    for spec in specs:
        replies.append((yield to_step(spec, arrays)))
    return replies


def global_steps(program: ProgramSpec) -> list[list[tuple[int, StepSpec]]]:
    """Step t of every branch long enough, with its branch number."""
    longest = 0
    for steps in program.branches:
        longest = len(steps) if len(steps) > longest else longest
    return [
        [(b, steps[t]) for b, steps in enumerate(program.branches) if t < len(steps)]
        for t in range(longest)
    ]


def expected_reads(spec: StepSpec, memory: list[list[int]]) -> list[list[int]]:
    """What each read port of ``spec`` returns: memory before the step, 0 where masked off."""
    return [
        [
            memory[port.array][cell] if port.where is None or port.where[i] else 0
            for i, cell in enumerate(port.index)
        ]
        for port in spec.reads
    ]


def differential(model: str, mode: Mode, program: ProgramSpec) -> None:
    """Drive ``program``'s branches in parallel, checking each global step against the brute
    force: violations, values read and memory after the step."""
    m = Machine(model, mode=mode, seed=7)
    arrays = [
        m.array(f"a{i}", values=np.array(v, dtype=np.int64)) for i, v in enumerate(program.arrays)
    ]
    branches = [
        phase(label, branch_program(steps, arrays)) if label else branch_program(steps, arrays)
        for label, steps in zip(program.phases, program.branches, strict=True)
    ]
    driver = parallel(*branches)
    memory = [list(v) for v in program.arrays]
    request = next(driver)
    schedule = global_steps(program)
    for t, specs in enumerate(schedule, start=1):
        assert isinstance(request, Bundle)
        assert [s.phase for s in request.steps] == [program.phases[b] for b, _ in specs]
        outcome = brute_force(model, specs, list(program.phases), t)
        if mode == "raise" and outcome.violations:
            order = array_order(specs)
            first = min(
                outcome.violations, key=lambda v: (order.index(int(v[3][1:])), v[4], RANK[v[5]])
            )
            with pytest.raises(ConflictError) as error:
                m.execute(request.steps)
            assert as_tuple(error.value.violation) == first
            assert m.violations == [error.value.violation]  # recorded, then raised
            assert m.cost.time == t - 1  # the step was refused before it cost anything
            assert [a.to_numpy().tolist() for a in arrays] == memory
            return
        seen = len(m.violations)
        replies = m.execute(request.steps)
        assert sorted(map(as_tuple, m.violations[seen:]), key=repr) == sorted(
            outcome.violations, key=repr
        )
        for (_, spec), reply in zip(specs, replies, strict=True):
            assert [r.tolist() for r in reply] == expected_reads(spec, memory)
        for (array, cell), writers in outcome.writers.items():
            value = resolve(model, writers, memory[array][cell])
            if isinstance(value, set):
                chosen = int(arrays[array].to_numpy()[cell])
                assert chosen in value
                value = chosen
            memory[array][cell] = value
        assert [a.to_numpy().tolist() for a in arrays] == memory
        try:
            request = driver.send(replies)
        except StopIteration:
            assert t == len(schedule)
    assert m.cost.time == len(schedule)


ALL_MODELS = sorted(MODELS)
MODES: list[Mode] = ["collect", "raise"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("model", ALL_MODELS)
@settings(max_examples=40, deadline=None)
@given(program=programs())
def test_small_steps_agree_with_brute_force(model: str, mode: Mode, program: ProgramSpec) -> None:
    """Small random steps (the set-based check) report exactly the brute force's violations."""
    differential(model, mode, program)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("model", ALL_MODELS)
@settings(max_examples=15, deadline=None)
@given(
    program=programs(
        min_processors=13,
        max_processors=30,
        max_cells=160,
        max_branches=2,
        max_steps=2,
        max_ports=2,
    )
)
def test_large_steps_agree_with_brute_force(model: str, mode: Mode, program: ProgramSpec) -> None:
    """Large random steps (over 24 accesses: the vectorised check) agree with the brute force."""
    differential(model, mode, program)


def test_the_slow_path_decides_when_ranks_run_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the 32-bit ranks (2^31 processors in a step) the rank test defers to the slow path."""
    import pram.engine.conflicts
    import pram.engine.memo

    monkeypatch.setitem(vars(pram.engine.memo), "RANKS_MAX", 10)
    monkeypatch.setitem(vars(pram.engine.conflicts), "RANKS_MAX", 10)
    m = Machine("erew")
    a = m.array("a", values=np.arange(60, dtype=np.int64))
    pid = m.processors(30)
    (got,) = m.execute([Step(pid, reads=[Read(a, 2 * pid)], writes=[Write(a, 2 * pid + 1, pid)])])[
        0
    ]
    assert got.tolist() == list(range(0, 60, 2))
    assert m.violations == []
    m.execute([Step(pid, reads=[Read(a, pid // 2)])])
    assert len(m.violations) == 15
