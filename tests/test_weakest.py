"""The weakest model of a run: merge is CREW, the O(1) maximum CRCW common, MQAR EREW, and
every model's verdict equals what the machine itself flags when the program runs under it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings

import pram
from pram import (
    InputError,
    Machine,
    Program,
    Read,
    Step,
    Weakest,
    Write,
    parallel,
    phase,
    weakest_model,
)
from pram.algorithms import mqar
from pram.algorithms.catalogue import maximum, merge
from pram.algorithms.components import connected_components
from pram.testing import assert_flagged
from pram.weakest import BESIDE, CHAIN
from tests.strategies import ProgramSpec, programs, to_step

RNG = np.random.default_rng(23)
A = np.sort(RNG.integers(0, 100, 40))
B = np.sort(RNG.integers(0, 100, 25))
VALUES = RNG.integers(-20, 20, 24)
TOKENS = mqar.random_tokens(64, np.random.default_rng(5))

PROGRAMS: dict[str, Callable[[Machine], Any]] = {
    "merge": lambda m: merge(m, A, B),
    "max": lambda m: maximum(m, VALUES),
    "mqar": lambda m: mqar.recall(m, TOKENS),
}
JUDGED = [*CHAIN[:3], *BESIDE]  # the models that forbid something


def same_as_the_machine(run: Callable[[Machine], Any], found: Weakest) -> None:
    """Under every model that forbids something, the machine flags exactly as many
    violations as the classification counts, the first one being the evidence."""
    for name in JUDGED:
        m = Machine(name, mode="collect", strict=False)
        run(m)
        assert len(m.violations) == found.violations[name], name
        if m.violations:
            assert found.evidence[name] == m.violations[0]
        else:
            assert name not in found.evidence


@pytest.mark.parametrize(("name", "expected"), [
    ("merge", "crew"), ("max", "crcw-common"), ("mqar", "erew")])
def test_the_catalogue_programs_need_the_models_they_name(name: str, expected: str) -> None:
    """merge: CREW (shared reads of the other array); max: CRCW common (many agreeing writes
    of 0, so CRCW weak too); MQAR: EREW, no meeting at all."""
    found = weakest_model(PROGRAMS[name])
    assert found.model == expected
    same_as_the_machine(PROGRAMS[name], found)
    if name == "merge":
        assert found.counts["concurrent_reads"] > 0 and found.counts["concurrent_writes"] == 0
        assert found.text.startswith(f"CREW: {found.counts['concurrent_reads']} concurrent "
                                     "reads, no concurrent writes (EREW: ")
    if name == "max":
        assert found.also_clean == ("crcw-weak",) and "crew" in found.evidence
        assert "also clean under CRCW-weak" in found.text
    if name == "mqar":
        assert found.evidence == {}
        assert found.text == "EREW: no concurrent reads, no concurrent writes"


def test_disagreeing_writes_need_a_resolving_model() -> None:
    """Connected components' hooks disagree: CRCW arbitrary, with CRCW common's first
    disagreeing write as evidence."""
    edges = np.random.default_rng(1).integers(0, 30, (40, 2))
    found = weakest_model(lambda m: connected_components(m, 30, edges), run_model="crcw-arbitrary")
    assert found.model == "crcw-arbitrary" and found.counts["disagreeing_writes"] > 0
    assert found.evidence["crcw-common"].message.startswith(
        "CRCW-common forbids disagreeing writes")


def test_the_json_holds_every_too_weak_model() -> None:
    """The dict serialises, and names each too-weak model with its count and first violation."""
    found = weakest_model(PROGRAMS["max"])
    data = json.loads(json.dumps(found.as_dict()))
    assert data["weakest"] == "CRCW-common" and data["also_clean"] == ["CRCW-weak"]
    assert set(data["too_weak"]) == {"EREW", "CREW", "ERCW-common"}
    assert data["too_weak"]["CREW"]["violations"] == found.violations["crew"] > 0
    assert data["text"] == found.text


def test_a_read_meeting_a_write_is_erew_only() -> None:
    """One processor reads a cell another writes: EREW forbids it, CREW and ERCW do not."""

    def run(m: Machine) -> None:
        a = m.array("a", values=np.zeros(2, dtype=np.int64))
        pid = m.processors(2)
        m.run(phase("p", iter_one(Step(pid, reads=[Read(a, 0, pid == pid[0])],
                                       writes=[Write(a, 0, 5, pid == pid[1])]))))

    found = weakest_model(run)
    assert found.model == "crew" and found.also_clean == () and found.counts["read_writes"] == 1
    assert "ercw" not in found.evidence and found.evidence["erew"].phase == "p"


def iter_one(step: Step) -> Any:
    yield step


@settings(max_examples=60, deadline=None)
@given(program=programs())
def test_random_programs_agree_with_the_machine(program: ProgramSpec) -> None:
    """On random programs (fixed indices and values, so every model sees the same accesses),
    each model's violations are the machine's, and the weakest model is the first clean one
    of the chain."""

    def run(m: Machine) -> None:
        arrays = [m.array(f"a{i}", values=np.array(v, dtype=np.int64))
                  for i, v in enumerate(program.arrays)]

        def branch(steps: Any) -> Any:
            for spec in steps:
                yield to_step(spec, arrays)

        m.run(parallel(*(phase(label, branch(steps)) if label else branch(steps)
                         for label, steps in zip(program.phases, program.branches,
                                                 strict=True))))

    found = weakest_model(run)
    same_as_the_machine(run, found)
    assert found.model == next(n for n in CHAIN if found.violations.get(n, 0) == 0)


def _shy(m: Machine) -> Any:
    """Exclusive reads while someone watches (an observer, a trace), concurrent ones else."""
    a = m.array("a", values=np.arange(4))
    watched = m.observer is not None
    try:
        _ = m.trace
    except pram.HonestyError:
        pass
    except pram.InputError:
        watched = True  # cannot happen in a run: whether the machine traces is not told
    index = np.arange(4) if watched else np.zeros(4, dtype=np.int64)
    yield Step(m.processors(4), reads=[Read(a, index)])


def test_a_program_that_looks_for_its_observer_does_not_fool_the_classification() -> None:
    """The issue's cheat: a program reading m.observer was classified EREW and violated EREW
    when run. The classification now comes from the machine's own trace after the run."""
    found = weakest_model(lambda m: _shy(m))
    assert found.model == "crew" and found.counts["concurrent_reads"] == 1
    m = Machine("erew", mode="collect")
    m.run(_shy(m))
    assert len(m.violations) == found.violations["erew"] == 1


def test_the_helpers_take_one_convention_and_refuse_the_wrong_kind() -> None:
    """weakest_model and assert_flagged both take a function of the fresh machine that runs
    the program or returns it; a generator (made on another machine), a non-callable, or a
    function that ran nothing there is refused naming the convention (it was EREW, 0 steps)."""
    both = PROGRAMS["merge"]
    gives = weakest_model(lambda m: merge_program(m))
    runs = weakest_model(lambda m: m.run(merge_program(m)))
    assert gives.counts == runs.counts and gives.steps == runs.steps > 0
    assert weakest_model(both).model == "crew"
    assert_flagged(lambda m: merge_program(m), "erew")
    assert_flagged(lambda m: m.run(merge_program(m)), "erew")
    for helper in (weakest_model, lambda f: assert_flagged(f, "erew")):
        with pytest.raises(pram.InputError, match="got a program already made"):
            helper(merge_program(Machine()))
        with pytest.raises(pram.InputError, match="takes a function, not int"):
            helper(3)
        with pytest.raises(pram.InputError, match="ran no program on the machine"):
            helper(lambda m: None)
    with pytest.raises(pram.InputError, match="made or ran another machine"):
        weakest_model(lambda m: (m.run(merge_program(m)), Machine()))


def test_weakest_model_refuses_steps_on_a_machine_made_before_the_call() -> None:
    """A closure over a machine made beforehand ran the concurrent reads there, and nothing
    concurrent on the machine classified: the run was called EREW. A machine whose run or
    step starts during the call is seen as well as one made in it, so this is refused."""
    outside = Machine("crcw-priority")

    def cheat(m: Machine) -> None:
        with outside.scope():  # the concurrent reads, on a machine not watched
            outside.run(merge_program(outside))
        a = m.array("a", values=np.arange(2))

        def apart() -> Any:  # two processors, two cells: exclusive
            yield Step(m.processors(2), reads=[Read(a, np.arange(2))])

        m.run(apart())

    def driven(m: Machine) -> None:
        with outside.scope():
            b = outside.array("b", values=np.arange(2))
            outside.execute([Step(np.arange(2), reads=[Read(b, np.zeros(2, np.int64))])])
        cheat(m)

    for program in (cheat, driven):
        with pytest.raises(pram.InputError, match="made or ran another machine"):
            weakest_model(program)
    assert weakest_model(merge_program).model == "crew"  # the same steps, on m: not EREW


def merge_program(m: Machine) -> Any:
    """Two processors read a[0] (concurrent), one step."""
    a = m.array("a", values=np.arange(2))
    yield Step(m.processors(2), reads=[Read(a, np.zeros(2, dtype=np.int64))])


def test_a_program_that_steps_by_its_machines_model_has_no_weakest_model() -> None:
    """A program reading m.model stayed clean under CRCW priority (weakest_model's run) and
    read concurrently under EREW, and weakest_model answered EREW (third outside battery):
    the weakest model found is confirmed by a run on it."""
    def sniffing(m: Machine) -> None:
        a = m.array("a", values=np.arange(4))
        index = np.arange(4) if "priority" in repr(m.model) else np.zeros(4, dtype=np.int64)

        def program() -> Program[None]:
            yield Step(m.processors(4), reads=[Read(a, index)])

        m.run(program())

    with pytest.raises(InputError, match="its steps depend on the machine's model"):
        weakest_model(sniffing)
