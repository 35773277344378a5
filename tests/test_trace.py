"""The trace a machine records: equal to what it counted, a faithful replay, sealed, bounded."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from pram import HonestyError, InputError, Machine, Read, Step, Write
from pram.reports.entries import algorithm
from pram.reports.measure import execute
from pram.reports.options import Options
from pram.trace import Trace

CASES = [("sort", 16), ("pbs-naive", 16), ("pbs", 32), ("mqar", 48), ("list-ranking", 16),
         ("max", 8), ("rank-sort", 8)]


def _runs(name: str, n: int) -> tuple[object, object]:
    options = Options(n=n, model=algorithm(name).model)
    return execute(name, options), execute(name, options, trace_cells=1_000_000)


def _replay(trace: Trace) -> dict[str, np.ndarray]:
    """Every array's contents after the last step, from the first snapshot and the writes."""
    memory = {a.name: a.values.copy() for a in trace.arrays.values()}
    for step in trace.steps:
        for access in step.accesses:
            if access.kind == "read":
                np.testing.assert_array_equal(memory[access.array][access.cells], access.values)
            else:
                assert access.after is not None and access.before is not None
                np.testing.assert_array_equal(memory[access.array][access.cells], access.before)
                memory[access.array][access.cells] = access.after
    return memory


@pytest.mark.parametrize(("name", "n"), CASES)
def test_counts_identical_with_and_without_trace(name: str, n: int) -> None:
    """Tracing changes no count, and the trace's steps sum to what the machine counted."""
    plain, traced = _runs(name, n)
    assert attrs.asdict(plain.cost) == attrs.asdict(traced.cost)  # type: ignore[attr-defined]
    assert plain.violations == traced.violations  # type: ignore[attr-defined]
    trace = traced.trace  # type: ignore[attr-defined]
    cost = traced.cost  # type: ignore[attr-defined]
    assert trace.totals() == {"time": cost.time, "work": cost.work, "reads": cost.reads,
                              "writes": cost.writes, "rounds": cost.rounds}
    running = np.cumsum([s.step_work for s in trace.steps])
    assert [s.work for s in trace.steps] == running.tolist()
    assert [s.step_work for s in trace.steps] == cost.profile
    assert [s.time for s in trace.steps] == list(range(1, cost.time + 1))
    assert trace.cells == cost.memory_cells + cost.reads + cost.writes


def test_conflicts_are_the_machines_violations() -> None:
    """The naive search's conflicts in the trace are the machine's, each in its own step."""
    _, run = _runs("pbs-naive", 16)
    traced = [v for s in run.trace.steps for v in s.conflicts]  # type: ignore[attr-defined]
    assert len(traced) == run.violations > 0  # type: ignore[attr-defined]
    assert tuple(traced[: len(run.first_violations)]) == run.first_violations  # type: ignore[attr-defined]
    for s in run.trace.steps:  # type: ignore[attr-defined]
        assert all(v.step == s.number for v in s.conflicts)


def _swap(m: Machine, a: object) -> object:
    pid = m.processors(4)
    x, = yield Step(pid, reads=[Read(a, pid)])  # type: ignore[arg-type]
    yield Step(pid, writes=[Write(a, 3 - pid, x + 1)])  # type: ignore[arg-type]
    yield Step(pid[:2], writes=[Write(a, pid[:2], x[:2] * 10)])  # type: ignore[arg-type]


def test_replay_of_writes_gives_final_memory() -> None:
    """Replaying the first snapshot and every write gives the machine's memory after the run,
    and every read returns memory as the replay holds it before the step."""
    m = Machine(trace=True)
    a = m.array("a", values=np.array([5, 6, 7, 8]))
    m.run(_swap(m, a))
    assert _replay(m.trace)["a"].tolist() == a.to_numpy().tolist() == [50, 60, 7, 6]
    first = m.trace.step(1).accesses[0]
    assert (first.kind, first.processors.tolist(), first.values.tolist()) == (
        "read", [0, 1, 2, 3], [5, 6, 7, 8])


@pytest.mark.parametrize(("name", "n"), [("sort", 16), ("mqar", 48), ("prefix-sums", 16)])
def test_replay_of_algorithm_matches_its_output(name: str, n: int) -> None:
    """For library programs too, the replayed memory holds what every read returned."""
    _, traced = _runs(name, n)
    _replay(traced.trace)  # type: ignore[attr-defined]


def test_trace_refused_while_running_like_sealed_memory() -> None:
    """m.trace, and a trace object held from before, raise HonestyError inside a program."""
    m = Machine(trace=True)
    a = m.array("a", values=np.arange(4))
    held = m.trace
    seen: list[str] = []

    def peek(m: Machine, a: object) -> object:
        pid = m.processors(4)
        yield Step(pid, reads=[Read(a, pid)])  # type: ignore[arg-type]
        for attempt in (lambda: m.trace, lambda: held.steps, lambda: held.arrays):
            with pytest.raises(HonestyError) as error:
                attempt()
            seen.append(str(error.value))
        with pytest.raises(HonestyError):
            a.to_numpy()  # type: ignore[attr-defined]

    m.run(peek(m, a))
    assert seen[0] == ("m.trace while a program runs reads the run outside the machine's "
                       "steps; read m.trace after the run")
    assert "read m.trace after the run" in seen[1]
    assert len(held.steps) == 1 and held is m.trace


def test_ceiling_refuses_before_any_step_when_arrays_exceed_it() -> None:
    """A ceiling below an array's cells refuses its allocation, before any step."""
    m = Machine(trace=True, trace_cells=3)
    with pytest.raises(InputError) as error:
        m.array("a", values=np.arange(4))
    assert str(error.value) == (
        "the trace would hold 4 cells before step 1 (array 'a' adds 4), beyond its ceiling of "
        "3; a whole run records its ledger's memory_cells + reads + writes, so run it "
        "untraced and give Machine(trace=True, trace_cells=...) at least that, or trace a "
        "smaller instance"
    )
    assert (error.value.cells, error.value.ceiling, error.value.step) == (4, 3, 1)  # type: ignore[attr-defined]
    assert m.cost.time == 0 and not m.arrays


def test_ceiling_refuses_the_step_that_would_cross_it_before_executing_it() -> None:
    """The step that would cross the ceiling is not executed: memory and ledger as before it."""
    m = Machine(trace=True, trace_cells=10)
    a = m.array("a", values=np.arange(4))
    refusal = r"would hold 12 cells before step 2 \(step 2 adds 4\), beyond its ceiling of 10"
    with pytest.raises(InputError, match=refusal):
        m.run(_swap(m, a))
    assert m.cost.time == 1 and a.to_numpy().tolist() == [0, 1, 2, 3]
    assert len(m.trace.steps) == 1 and m.trace.cells == 8


def test_a_machine_without_trace_says_how_to_get_one() -> None:
    """m.trace on a machine made without trace=True names the switch."""
    with pytest.raises(InputError, match=r"Machine\(trace=True\)"):
        Machine().trace  # noqa: B018


@pytest.mark.parametrize("bad", [0, -1, True, 2.5])
def test_trace_cells_must_be_positive_integer(bad: object) -> None:
    """trace_cells is refused unless a positive integer, with the default named."""
    with pytest.raises(InputError, match=r"trace_cells must be a positive integer"):
        Machine(trace=True, trace_cells=bad)  # type: ignore[arg-type]


def test_arrays_allocated_and_freed_during_run_are_labelled() -> None:
    """An array made during the run is snapshotted then; a name made again gets a label."""
    m = Machine(trace=True)

    def program(m: Machine) -> object:
        pid = m.processors(2)
        b = m.array("b", 2)
        yield Step(pid, writes=[Write(b, pid, pid + 7)])
        m.free(b)
        c = m.array("b", values=np.array([1, 1]))
        yield Step(pid, reads=[Read(c, pid)])

    m.run(program(m))
    arrays = m.trace.arrays
    assert list(arrays) == ["b", "b#2"]
    assert (arrays["b"].since, arrays["b"].freed, arrays["b#2"].since) == (0, 1, 1)
    assert [a.array for s in m.trace.steps for a in s.accesses] == ["b", "b#2"]


def test_a_step_refused_by_the_model_records_nothing() -> None:
    """In mode="raise" a conflict refuses its step: the trace keeps the steps before it, and
    its cells are still the ledger's memory + reads + writes."""
    from pram import ConflictError

    m = Machine(mode="raise", trace=True)
    a = m.array("a", values=np.arange(4))

    def clash(m: Machine, a: object) -> object:
        pid = m.processors(4)
        yield Step(pid, reads=[Read(a, pid)])  # type: ignore[arg-type]
        yield Step(pid, reads=[Read(a, pid * 0)])  # type: ignore[arg-type]

    with pytest.raises(ConflictError):
        m.run(clash(m, a))
    assert len(m.trace.steps) == m.cost.time == 1
    assert m.trace.cells == m.cost.memory_cells + m.cost.reads + m.cost.writes == 8
