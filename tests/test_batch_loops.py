"""Loop tests in a batch, whatever the loop's shape: every instance as its single run.

A batch (``Machine(batch=B)``) follows, at a loop test where its instances disagree, those
whose loop goes on; the others are parked there and rejoin the batch where it leaves the loop
the same way with the program's state theirs (:mod:`pram.engine.parking`), or else are run
again, from the run's start, in a pass of their own (:mod:`pram.engine.passes`); the tests at
the end count the passes each shape takes. Here each shape of loop a program may take (a host
bound beside the test, an answer ignored, an exit on False, rounds counted by the host and
used after the loop, processors or arrays made in the loop, a register of the body used after
it, two exits, nested loops, loops in phases and in parallel branches) is run batched and
singly on each instance, and everything is compared: the answer (``m.results``), the memory
of every array, the ledger (time, work, reads, writes, local, processors, loop tests, profile,
phases) and the violations, resolutions and undefined reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import (
    BatchPathError,
    HonestyError,
    InputError,
    Machine,
    Read,
    Step,
    StepError,
    Until,
    Write,
    iota,
    parallel,
    phase,
)
from pram.engine.instances import _owners_of as owners_of
from pram.engine.instances import _raw_of as raw_of
from pram.registers import Register
from pram.testing import check_batch

Make = Callable[[Machine, dict[str, Any]], Any]


def _value(result: Any, i: int | None) -> Any:
    """A program's answer as plain data (instance ``i``'s row of a batch's register)."""
    if isinstance(result, tuple | list):
        return tuple(_value(r, i) for r in result)
    if type(result) is Register:
        values = np.asarray(result)
        batched = raw_of(result).ndim > owners_of(result).ndim
        return (values[i] if i is not None and batched else values).tolist()
    return result


def _records(records: list[Any], i: int) -> list[Any]:
    return [attrs.evolve(r, instance=None) for r in records if r.instance == i]


def same_as_singles(make: Make, inputs: dict[str, Any], model: str = "erew",
                    **options: Any) -> Machine:
    """Run ``make(m, arrays)`` batched over the rows of ``inputs`` and singly on each row;
    assert that every instance's answer, arrays (those allocated by the program too),
    ledger and records equal its single run's."""
    batch = len(next(iter(inputs.values())))
    m = Machine(model, batch=batch, **options)
    arrays = {name: m.array(name, values=np.asarray(v)) for name, v in inputs.items()}
    value = m.run(make(m, arrays))
    assert len(m.results) == batch
    costs = m.costs
    for i in range(batch):
        s = Machine(model, **options)
        mine = {name: s.array(name, values=np.asarray(v)[i]) for name, v in inputs.items()}
        single = s.run(make(s, mine))
        assert _value(m.results[i], i) == _value(single, None), f"answer of instance {i}"
        if isinstance(single, Register | tuple | list):  # m.run's value: rows put together
            assert _value(value, i) == _value(single, None), f"returned row of instance {i}"
        assert s.results == (single,)
        for name, array in s.arrays.items():
            ours = m.arrays[name]
            theirs = array.to_numpy()
            defined = np.ones(theirs.shape, bool) if array.defined is None else array.defined
            known = np.ones(theirs.shape, bool) if ours.defined is None else ours.defined[i]
            assert known.tolist() == defined.tolist(), f"defined cells of {name}, {i}"
            assert ours.to_numpy()[i][defined].tolist() == theirs[defined].tolist(), \
                f"memory {name} of instance {i}"
        assert costs[i] == s.cost, f"ledger of instance {i}"
        assert _records(m.violations, i) == s.violations, f"violations of instance {i}"
        assert _records(m.resolutions, i) == s.resolutions, f"resolutions of {i}"
        assert _records(m.undefined_reads, i) == s.undefined_reads, f"undefined of {i}"
    return m


def countdown(a: dict[str, Any], control: Any, count: str = "count", flag: str = "flag"
              ) -> Any:
    """One round: ``count[0] -= 1``, and ``flag[0] = 1`` once it reached 0."""
    (x,) = yield Step(control, reads=[Read(a[count], 0)])
    yield Step(control, writes=[Write(a[count], 0, x - 1),
                                Write(a[flag], 0, np.where(x - 1 <= 0, 1, 0))])


def counted(a: dict[str, Any], control: Any) -> Any:
    """Countdown rounds until the loop test ends them; return how many the host counted (in a
    local of the program's own generator, made afresh in every pass)."""
    rounds = 0
    while True:
        rounds += 1
        yield from countdown(a, control)
        if (yield Until(a["flag"], 0, control)):
            return rounds


def finish(a: dict[str, Any], control: Any, source: str = "count") -> Any:
    """After the loop: ``out[0] = source[0] + 100``."""
    (y,) = yield Step(control, reads=[Read(a[source], 0)])
    yield Step(control, writes=[Write(a["out"], 0, y + 100)])
    return y


def loop_inputs(counts: list[int], **more: Any) -> dict[str, Any]:
    batch = len(counts)
    inputs = {"count": np.array(counts)[:, None], "flag": np.zeros((batch, 1), np.int64),
              "out": np.zeros((batch, 4), np.int64),
              "a": np.arange(4 * batch).reshape(batch, 4) % 5}
    inputs.update(more)
    return inputs


def until_done(m: Machine, a: dict[str, Any]) -> Any:
    control = m.processors(1)
    while True:
        yield from countdown(a, control)
        if (yield Until(a["flag"], 0, control)):
            break
    return (yield from finish(a, control))


def rounds_done(m: Machine, a: dict[str, Any]) -> Any:
    """:func:`until_done` whose rounds the host counts and uses after the loop: an instance
    that left the loop early differs from the batch in a local where it would rejoin, so it
    runs in a later pass of its own."""
    control = m.processors(1)
    rounds = yield from counted(a, control)
    for _ in range(rounds):
        (y,) = yield Step(control, reads=[Read(a["out"], 1)])
        yield Step(control, writes=[Write(a["out"], 1, y + 1)])
    return (yield from finish(a, control))


# ---- the shapes --------------------------------------------------------------------------


def test_instances_that_agree_take_one_pass() -> None:
    """Every instance ends after the same rounds: one pass (the host's Python runs once)."""
    passes: list[int] = []

    def make(m: Machine, a: dict[str, Any]) -> Any:
        passes.append(1)
        return until_done(m, a)

    same_as_singles(make, loop_inputs([3, 3, 3]))
    assert len(passes) == 1 + 3  # the batch's one pass, then the three single runs


def test_instances_that_end_their_loop_early_rejoin_without_a_later_pass() -> None:
    """Instances ending after 1, 3, 1, 2 rounds park where they leave the loop and rejoin
    the batch where it leaves it: one pass (the program's Python runs once), every instance
    as its single run."""
    started: list[int] = []

    def program(m: Machine, a: dict[str, Any]) -> Any:
        started.append(1)
        return (yield from until_done(m, a))

    m = same_as_singles(program, loop_inputs([1, 3, 1, 2]))
    assert len(started) == 1 + 4  # the batch's one pass, then the four single runs
    assert [c.loop_tests for c in m.costs] == [1, 3, 1, 2]
    assert len({id(v) for v in m.results}) == 1


def test_two_hundred_instances_of_two_hundred_round_counts_take_one_pass() -> None:
    started: list[int] = []

    def program(m: Machine, a: dict[str, Any]) -> Any:
        started.append(1)
        return (yield from until_done(m, a))

    counts = [(7 * i) % 23 + 1 for i in range(40)]
    m = same_as_singles(program, loop_inputs(counts))
    assert len(started) == 1 + 40
    assert [c.loop_tests for c in m.costs] == counts


def test_one_pass_per_distinct_path_where_instances_cannot_rejoin() -> None:
    """Instances ending after 1, 3, 1, 2 rounds counted by the host, which uses the count
    after the loop, take three paths: three passes, each running the program's own Python
    once (host side effects happen once per pass)."""
    started: list[int] = []

    def program(m: Machine, a: dict[str, Any]) -> Any:
        started.append(1)
        return (yield from rounds_done(m, a))

    m = Machine(batch=4)
    a = {name: m.array(name, values=v) for name, v in loop_inputs([1, 3, 1, 2]).items()}
    m.run(program(m, a))
    assert len(started) == 3
    assert [c.loop_tests for c in m.costs] == [1, 3, 1, 2]
    assert [_value(v, i) for i, v in enumerate(m.results)] == [[0]] * 4
    assert a["out"].to_numpy()[:, 0].tolist() == [100] * 4


def test_the_returned_registers_hold_every_instance_s_row() -> None:
    """Several passes each return a register; what ``m.run`` returns holds, row by row, each
    instance's value from its own pass (as a single run of it returns)."""

    def program(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        rounds = yield from counted(a, control)
        (x,) = yield Step(control, reads=[Read(a["a"], 0)])
        return x * 10 + rounds, [x + 1]

    m = same_as_singles(program, loop_inputs([1, 3, 1, 2]))
    assert len({id(v) for v in m.results}) == 3  # three passes


def test_a_loop_ended_by_break() -> None:
    same_as_singles(lambda m, a: until_done(m, a), loop_inputs([1, 3, 2, 5]))


def test_every_instance_its_own_rounds_with_eight_instances() -> None:
    m = same_as_singles(lambda m, a: until_done(m, a), loop_inputs([8, 1, 7, 2, 6, 3, 5, 4]))
    assert [c.loop_tests for c in m.costs] == [8, 1, 7, 2, 6, 3, 5, 4]


def bounded(rounds: int) -> Make:
    """Countdown rounds in a ``for`` loop of ``rounds``, ended early by the loop test; then
    :func:`finish`."""

    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        for _ in range(rounds):
            yield from countdown(a, control)
            if (yield Until(a["flag"], 0, control)):
                break
        yield from finish(a, control)

    return make


def test_a_host_bound_beside_the_test() -> None:
    make = bounded(2)
    same_as_singles(make, loop_inputs([1, 3, 2]))


def test_an_ignored_answer() -> None:
    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        for _ in range(3):
            yield from countdown(a, control)
            yield Until(a["flag"], 0, control)
        yield from finish(a, control)

    same_as_singles(make, loop_inputs([1, 3]))


def test_an_exit_on_false() -> None:
    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        while True:
            (x,) = yield Step(control, reads=[Read(a["count"], 0)])
            yield Step(control, writes=[Write(a["count"], 0, x - 1),
                                        Write(a["flag"], 0, np.where(x - 1 > 0, 1, 0))])
            if not (yield Until(a["flag"], 0, control)):
                break
        yield from finish(a, control)

    same_as_singles(make, loop_inputs([1, 3, 2]))


def test_rounds_counted_by_the_host_used_after_the_loop() -> None:
    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        rounds = yield from counted(a, control)
        for _ in range(rounds):
            (y,) = yield Step(control, reads=[Read(a["out"], 1)])
            yield Step(control, writes=[Write(a["out"], 1, y + 1)])
        return rounds

    m = same_as_singles(make, loop_inputs([1, 3, 2]))
    assert m.results == (1, 3, 2)


def test_processors_handed_out_in_the_loop() -> None:
    """Ids handed out in the loop, and a violation naming ids after it (EREW)."""
    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        while True:
            helper = m.processors(2)
            yield Step(helper, reads=[Read(a["a"], iota(2))])
            yield from countdown(a, control)
            if (yield Until(a["flag"], 0, control)):
                break
        yield Step(m.processors(2), reads=[Read(a["a"], 0)])

    m = same_as_singles(make, loop_inputs([1, 3]))
    assert len(m.violations) == 2


def test_arrays_allocated_and_freed_in_the_loop() -> None:
    """Scratch arrays made each round: memory_cells and peak_cells per instance."""
    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        r = 0
        while True:
            r += 1
            scratch = m.array(f"scratch {r}", 2)
            (x,) = yield Step(control, reads=[Read(a["count"], 0)])
            yield Step(control, writes=[Write(scratch, 0, x), Write(a["count"], 0, x - 1),
                                        Write(a["flag"], 0, np.where(x - 1 <= 0, 1, 0))])
            if r % 2:
                m.free(scratch)
            if (yield Until(a["flag"], 0, control)):
                break
        yield from finish(a, control)

    m = same_as_singles(make, loop_inputs([1, 4, 2]))
    assert [c.memory_cells for c in m.costs] == [12, 18, 14]  # 10, and 2 a round


def test_an_array_the_program_allocates_is_one_array_for_every_instance() -> None:
    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        rounds = m.array("rounds", values=np.zeros(1, np.int64))
        while True:
            (r,) = yield Step(control, reads=[Read(rounds, 0)])
            yield Step(control, writes=[Write(rounds, 0, r + 1)])
            yield from countdown(a, control)
            if (yield Until(a["flag"], 0, control)):
                break

    m = same_as_singles(make, loop_inputs([2, 1, 3]))
    assert m.arrays["rounds"].to_numpy()[:, 0].tolist() == [2, 1, 3]


def test_a_register_of_the_body_used_after_the_loop() -> None:
    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        while True:
            (x,) = yield Step(control, reads=[Read(a["count"], 0)])
            yield Step(control, writes=[Write(a["count"], 0, x - 1),
                                        Write(a["flag"], 0, np.where(x - 1 <= 0, 1, 0))])
            if (yield Until(a["flag"], 0, control)):
                break
        yield Step(control, writes=[Write(a["out"], 0, x + 100)])
        return x

    same_as_singles(make, loop_inputs([1, 3, 2]))


def test_two_exits() -> None:
    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        while True:
            yield from countdown(a, control)
            if (yield Until(a["flag"], 0, control)):
                break
            yield from countdown(a, control, "other", "flag2")
            if (yield Until(a["flag2"], 0, control)):
                break
        yield from finish(a, control)

    inputs = loop_inputs([1, 4, 3, 6], other=np.array([[5], [1], [3], [2]]),
                         flag2=np.zeros((4, 1), np.int64))
    same_as_singles(make, inputs)


def nested(m: Machine, a: dict[str, Any]) -> Any:
    """An outer loop ended by ``flags[0]`` around an inner one ended by ``flags[1]``, which
    starts from ``init`` every outer round, in one phase; then :func:`finish` of ``inner``."""
    control = m.processors(1)
    while True:
        (v,) = yield Step(control, reads=[Read(a["init"], 0)])
        yield Step(control, writes=[Write(a["inner"], 0, v), Write(a["flags"], 1, 0)])
        while True:
            (x,) = yield Step(control, reads=[Read(a["inner"], 0)])
            yield Step(control, writes=[Write(a["inner"], 0, x - 1),
                                        Write(a["flags"], 1, np.where(x - 1 <= 0, 1, 0))])
            if (yield Until(a["flags"], 1, control)):
                break
        (x,) = yield Step(control, reads=[Read(a["count"], 0)])
        yield Step(control, writes=[Write(a["count"], 0, x - 1),
                                    Write(a["flags"], 0, np.where(x - 1 <= 0, 1, 0))])
        if (yield Until(a["flags"], 0, control)):
            break
    yield from finish(a, control, "inner")


def test_nested_loops_on_one_array_split_again() -> None:
    """Outer and inner loops testing cells of one array in one phase: groups split at the
    inner loop, then again at the outer one."""
    inputs = loop_inputs([2, 1, 3, 2, 2], inner=np.zeros((5, 1), np.int64),
                         init=np.array([[1], [3], [2], [2], [1]]),
                         flags=np.zeros((5, 2), np.int64))
    same_as_singles(nested, inputs)


def test_a_loop_in_each_parallel_branch_is_refused() -> None:
    """Two loops tested in one global step are refused on a batch as on a single machine,
    naming the step (one control unit, one bit per step)."""
    m = Machine("erew", batch=2)
    a = {"flag": m.array("flag", values=np.ones((2, 1), np.int64)),
         "flag2": m.array("flag2", values=np.ones((2, 1), np.int64))}

    def branch(flag: str) -> Any:
        return (yield Until(a[flag], 0, m.processors(1)))

    with pytest.raises(StepError, match="step 1 has 2 loop tests"):
        m.run(parallel(branch("flag"), branch("flag2")))


def beside(m: Machine, a: dict[str, Any]) -> Any:
    """A countdown loop in one parallel branch, five straight rounds of two processors in
    the other."""

    def looping() -> Any:
        control = m.processors(1)
        while True:
            yield from countdown(a, control)
            if (yield Until(a["flag"], 0, control)):
                break
        yield from finish(a, control)

    def straight() -> Any:
        two = m.processors(2)
        for _ in range(5):
            (z,) = yield Step(two, reads=[Read(a["a"], iota(2))])
            yield Step(two, writes=[Write(a["a"], iota(2), z + 1)])

    return parallel(looping(), straight())


def test_a_loop_beside_a_straight_branch() -> None:
    def make(m: Machine, a: dict[str, Any]) -> Any:
        def program() -> Any:
            yield from beside(m, a)
            yield from finish(a, m.processors(1))

        return program()

    same_as_singles(make, loop_inputs([1, 3, 6]))


def test_a_loop_inside_phases_and_each_round_in_its_own_phase() -> None:
    def make(m: Machine, a: dict[str, Any]) -> Any:
        def body(control: Any) -> Any:
            while True:
                yield from countdown(a, control)
                if (yield Until(a["flag"], 0, control)):
                    break

        def one_round(control: Any) -> Any:
            yield from countdown(a, control, "other", "flag2")
            return (yield Until(a["flag2"], 0, control))

        def program() -> Any:
            control = m.processors(1)
            yield from phase("outer", phase("inner", body(control)))
            r = 0
            while True:
                r += 1
                if (yield from phase(f"round {r}", one_round(control))):
                    break
            yield from finish(a, control)

        return program()

    inputs = loop_inputs([2, 1, 4], other=np.array([[1], [3], [2]]),
                         flag2=np.zeros((3, 1), np.int64))
    m = same_as_singles(make, inputs, "crew")
    assert [sorted(c.phases) for c in m.costs][1] == [
        "outer", "outer/inner", "round 1", "round 2", "round 3"]


def test_a_program_with_keyword_only_and_star_arguments() -> None:
    def program(m: Machine, *names: str, a: dict[str, Any], extra: int = 0,
                **more: int) -> Any:
        control = m.processors(1)
        while True:
            for name in names:
                yield from countdown(a, control, name)
            if (yield Until(a["flag"], 0, control)):
                break
        (y,) = yield Step(control, reads=[Read(a["count"], 0)])
        yield Step(control, writes=[Write(a["out"], 0, y + extra + more["plus"])])
        return extra

    m = same_as_singles(lambda m, a: program(m, "count", a=a, extra=5, plus=2),
                        loop_inputs([1, 3, 2]))
    assert m.results == (5, 5, 5)


def test_a_positional_only_program_given_a_generator_expression() -> None:
    """Arguments made again: a generator of branches (a generator expression) is remade."""
    def program(m: Machine, branches: Any, /) -> Any:
        return (yield from parallel(*branches))

    def make(m: Machine, a: dict[str, Any]) -> Any:
        def branch(k: int) -> Any:
            control = m.processors(1)
            while True:
                yield from countdown(a, control)
                if (yield Until(a["flag"], 0, control)):
                    break
            return k

        return program(m, (branch(k) for k in range(1)))

    same_as_singles(make, loop_inputs([2, 1, 3]))


def test_crcw_arbitrary_choices_drawn_again_in_each_pass() -> None:
    """Random choices before and after the split: each instance's as in its single run."""
    def make(m: Machine, a: dict[str, Any]) -> Any:
        pid, control = m.processors(4), m.processors(1)
        (x,) = yield Step(pid, reads=[Read(a["a"], iota(4))])
        yield Step(pid, writes=[Write(a["out"], 0, x)])
        while True:
            yield from countdown(a, control)
            yield Step(pid, writes=[Write(a["out"], 1, x + iota(4))])
            if (yield Until(a["flag"], 0, control)):
                break
        yield Step(pid, writes=[Write(a["out"], 2, x * 2)])

    same_as_singles(make, loop_inputs([1, 3, 2, 3]), "crcw-arbitrary", seed=7)


def test_violations_before_and_after_a_split_recorded_once_per_instance() -> None:
    def make(m: Machine, a: dict[str, Any]) -> Any:
        pid = m.processors(2)
        yield Step(pid, reads=[Read(a["a"], 0)])  # EREW: two readers of one cell
        yield from until_done(m, a)
        yield Step(pid, writes=[Write(a["out"], 3, iota(2))])  # two writers
        yield Step(pid, reads=[Read(a["undefined"], 0)])  # never written

    inputs = loop_inputs([1, 3, 2], undefined=np.zeros((3, 1), np.int64))
    m = Machine(batch=3, strict=False)
    arrays = {name: m.array(name, values=v) for name, v in inputs.items()}
    arrays["undefined"] = m.array("never", 1)
    m.run(make(m, arrays))
    # per instance: the two readers, the two writers, and the two readers of the cell
    # never written (each reading it undefined)
    assert sorted(v.instance for v in m.violations) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert sorted(r.instance for r in m.undefined_reads) == [0, 0, 1, 1, 2, 2]
    same_as_singles(make, inputs)


def test_a_machine_runs_again_after_a_run_of_several_passes() -> None:
    """Ledgers and memory carry on: a second run counts from the first's per instance."""
    m = Machine(batch=3)
    a = {name: m.array(name, values=v) for name, v in loop_inputs([1, 3, 2]).items()}
    m.run(until_done(m, a))
    first = [c.time for c in m.costs]
    with pytest.raises(InputError, match=r"m\.costs\[i\]"):
        _ = m.cost
    m.run(until_done(m, a))  # count is now 0 or below: one round each
    assert [c.time - t for c, t in zip(m.costs, first, strict=True)] == [5, 5, 5]
    assert a["out"].to_numpy()[:, 0].tolist() == [99, 99, 99]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=5))
def test_random_round_counts(counts: list[int]) -> None:
    m = same_as_singles(lambda m, a: until_done(m, a), loop_inputs(counts))
    assert [c.loop_tests for c in m.costs] == counts


# ---- refusals ----------------------------------------------------------------------------


def test_a_started_generator_is_refused_at_the_first_disagreement() -> None:
    m = Machine(batch=3)
    a = {name: m.array(name, values=v) for name, v in loop_inputs([1, 3, 1]).items()}

    def started(program: Any, first: Any) -> Any:
        reply = yield first
        return (yield from _resume(program, reply))

    program = rounds_done(m, a)
    with pytest.raises(BatchPathError, match=(
            r"^instances 0, 2 end their loop and instances 1 go on at loop test 1 of the "
            r"run \(step 3, Until on array 'flag'\).*\(the generator rounds_done has "
            r"started\); pass m.run an unstarted generator, e.g. m.run\(program\(m, \.\.\.\)\), "
            r"or run one machine per instance$")) as refused:
        m.run(started(program, next(program)))
    assert isinstance(refused.value, StepError) and refused.value.step == 3


def test_a_started_generator_runs_when_its_instances_rejoin() -> None:
    """A program that cannot be made again needs no later pass when every instance that
    left the loop early rejoins the batch: each instance as its single run."""

    def started(m: Machine, a: dict[str, Any]) -> Any:
        program = until_done(m, a)
        first = next(program)

        def resumed() -> Any:
            reply = yield first
            return (yield from _resume(program, reply))

        return resumed()

    same_as_singles(started, loop_inputs([1, 3, 1, 2]))


def test_a_started_generator_runs_while_the_instances_agree() -> None:
    m = Machine(batch=2)
    a = {name: m.array(name, values=v) for name, v in loop_inputs([2, 2]).items()}
    program = until_done(m, a)
    first = next(program)

    def started() -> Any:
        reply = yield first
        return (yield from _resume(program, reply))

    assert m.run(started()).tolist() == [[0], [0]]
    assert m.cost.loop_tests == 2


def _resume(program: Any, reply: Any) -> Any:
    """Drive ``program`` (started) on from ``reply``."""
    try:
        while True:
            reply = yield program.send(reply)
    except StopIteration as stop:
        return stop.value


def test_results_on_a_single_machine() -> None:
    m = Machine()
    assert m.results == ()
    a = {name: m.array(name, values=np.asarray(v)[0])
         for name, v in loop_inputs([2]).items()}
    value = m.run(until_done(m, a))
    assert m.results == (value,)


def test_check_batch_reads_each_instance_from_its_own_pass() -> None:
    """check_batch (the program's answer, no output array) on a loop of data-dependent
    rounds: each instance's answer is its pass's."""
    def counted(m: Machine, count: Any, flag: Any) -> Any:
        control = m.processors(1)
        total = m.array("total", values=np.zeros(1, np.int64))
        while True:
            (x, t) = yield Step(control, reads=[Read(count, 0), Read(total, 0)])
            yield Step(control, writes=[Write(count, 0, x - 1), Write(total, 0, t + x),
                                        Write(flag, 0, np.where(x - 1 <= 0, 1, 0))])
            if (yield Until(flag, 0, control)):
                break
        (t,) = yield Step(control, reads=[Read(total, 0)])
        return t

    counts = np.array([[3], [1], [4], [2]])
    check_batch(counted, {"count": counts, "flag": np.zeros((4, 1), np.int64)},
                lambda count, flag: np.array([count[0] * (count[0] + 1) // 2]))


def test_an_observer_is_refused_at_the_first_disagreement() -> None:
    """An observer would see the steps of several passes: refused where a second is due."""
    class Steps:
        def __init__(self) -> None:
            self.seen = 0

        def step(self, number: int, steps: Any, replies: Any) -> None:
            self.seen += 1

        def operation(self, name: str, operands: Any, result: Any) -> None:
            pass

    watching = Steps()
    m = Machine(batch=2, observer=watching)
    a = {name: m.array(name, values=v) for name, v in loop_inputs([2, 2]).items()}
    m.run(until_done(m, a))  # the instances agree: one pass, seen once
    assert watching.seen == m.cost.time == 8
    b = Machine(batch=2, observer=Steps())
    a = {name: b.array(name, values=v) for name, v in loop_inputs([1, 2]).items()}
    with pytest.raises(BatchPathError, match=r"^instances 0 end their loop and instances 1 go "
                       r"on at loop test 1 .* the machine's observer would see as more "
                       r"steps; remove the observer \(m.observer = None\)"):
        b.run(until_done(b, a))


def test_crcw_arbitrary_generators_drawn_in_an_earlier_run() -> None:
    """A later pass draws as the run found each generator (mid-stream after an earlier run),
    not as freshly seeded: the memory after two runs equals two single runs'."""
    def draws(m: Machine, a: dict[str, Any]) -> Any:
        pid = m.processors(4)
        (x,) = yield Step(pid, reads=[Read(a["a"], iota(4))])
        yield Step(pid, writes=[Write(a["out"], 0, x + iota(4) * 10)])  # 4 writers of out[0]

    def looping(m: Machine, a: dict[str, Any]) -> Any:
        yield from draws(m, a)
        control = m.processors(1)
        (y,) = yield Step(control, reads=[Read(a["out"], 0)])
        yield Step(control, writes=[Write(a["out"], 2, y)])
        yield from until_done(m, a)
        yield from draws(m, a)

    inputs = loop_inputs([1, 3, 2, 3])
    m = Machine("crcw-arbitrary", batch=4, seed=3)
    arrays = {name: m.array(name, values=v) for name, v in inputs.items()}
    m.run(draws(m, arrays))
    m.run(looping(m, arrays))
    for i in range(4):
        s = Machine("crcw-arbitrary", seed=3)
        mine = {name: s.array(name, values=v[i]) for name, v in inputs.items()}
        s.run(draws(s, mine))
        s.run(looping(s, mine))
        assert arrays["out"].to_numpy()[i].tolist() == mine["out"].to_numpy().tolist()
        assert m.costs[i] == s.cost


def test_an_input_array_freed_in_one_pass_is_there_for_the_next() -> None:
    """A pass frees an array the run started with (on one path only): a later pass finds it
    with its instances' cells as the run found them; the table after the run holds it."""
    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        r = 0
        while True:
            r += 1
            if r == 1:
                (x,) = yield Step(control, reads=[Read(a["a"], 1)])
                yield Step(control, writes=[Write(a["out"], 1, x)])
            yield from countdown(a, control)
            if r == 2:
                m.free(a["a"])
            if (yield Until(a["flag"], 0, control)):
                break
        yield from finish(a, control)

    m = same_as_singles(make, loop_inputs([2, 1, 3]))
    assert "a" in m.arrays and not m.arrays["a"].freed  # instance 1's path keeps it


def test_closures_and_generator_arguments_are_made_again() -> None:
    """The capture on this Python: a closure's free variables, and a generator given as an
    argument (made again, not reused) inside a tuple."""
    from pram.engine.remake import remaker

    def outer(k: int) -> Any:
        def inner(pair: tuple[Any, ...], *, step: int) -> Any:
            (first,) = pair
            total = 0
            for value in first:
                total += value * k * step
            yield total

        return inner((iter([1, 2, 3]),), step=2)

    made, why = remaker(outer(10))
    assert why == ""
    assert made is not None
    assert next(made()) == next(made()) == 120
    assert remaker(_started())[1] == "the generator _one has started"


def _started() -> Any:
    program = _one()
    next(program)
    return program


def _one() -> Any:
    yield 1
    yield 2


# ---- a later pass must retrace its group's path ------------------------------------------


class _Holder:
    """Holds a program made before m.run, which making ``go`` again cannot make again."""

    def __init__(self, program: Any) -> None:
        self.program = program

    def go(self) -> Any:
        return (yield from self.program)


_STORE: dict[str, Any] = {}


def _from_store() -> Any:
    return (yield from _STORE["program"])


_ASTRAY = (r"^instances 0 left the batch's path at the loop test of step 3 and were run "
           r"again from the start of the run in a pass of their own, but the program made "
           r"again for them ended at step 0, after 0 of the 1 loop-test steps up to their "
           r"departure: the program made again is not the one that ran, likely because it "
           r"holds a generator or state made before m.run .*make the program from its inputs "
           r"inside the program function, e.g. m.run\(program\(m, \.\.\.\)\), or run one "
           r"machine per instance$")


@pytest.mark.parametrize("how", ["attribute", "global", "generator expression"])
def test_a_program_hidden_from_the_remaker_is_refused_not_counted_silently(how: str) -> None:
    """A generator made before m.run and reached through an attribute, a global or a
    generator expression is used up by the first pass: the later pass ends at once, which
    the check of its path refuses (instead of counting the instance as time 0)."""
    from pram import parallel_all

    m = Machine(batch=2)
    a = {name: m.array(name, values=v) for name, v in loop_inputs([1, 3]).items()}
    if how == "attribute":
        program = _Holder(rounds_done(m, a)).go()
    elif how == "global":
        _STORE["program"] = rounds_done(m, a)
        program = _from_store()
    else:
        program = parallel_all(p for p in (rounds_done(m, a),))
    with pytest.raises(BatchPathError, match=_ASTRAY) as refused:
        m.run(program)
    assert isinstance(refused.value, StepError) and refused.value.step == 0
    assert not m.arrays["count"].sealed  # the run is over, whatever it left


def test_a_later_pass_reaching_a_test_at_another_step_is_refused() -> None:
    """A program whose host state outside the program's frame (here a global counter)
    makes the later pass take another number of steps before its first test."""
    calls: dict[str, int] = {"runs": 0}

    def program(m: Machine, a: dict[str, Any], calls: dict[str, int]) -> Any:
        calls["runs"] += 1
        control = m.processors(1)
        for _ in range(calls["runs"]):  # one more step in each pass
            yield Step(control, reads=[Read(a["a"], 0)])
        return (yield from rounds_done(m, a))

    m = Machine(batch=2)
    a = {name: m.array(name, values=v) for name, v in loop_inputs([1, 3]).items()}
    with pytest.raises(BatchPathError, match=(
            r"^instances 0 left the batch's path at the loop test of step 4 .*reached "
            r"loop-test step 1 at step 5 answered \[True\], where the pass they left reached "
            r"it at step 4 answered \[True\]")):
        m.run(program(m, a, calls))


def test_host_state_in_an_argument_object_is_shared_by_the_passes() -> None:
    """Documented (README, Machine.run): a pass makes the program afresh from its code,
    closure cells and generator or iterator arguments, not any other argument object. Rounds
    counted in a dict argument carry from one pass to the next (the later pass retraces
    its path to its departure, so nothing refuses it); counted in a local they are right."""

    def in_dict(m: Machine, a: dict[str, Any], stats: dict[str, int]) -> Any:
        control = m.processors(1)
        while True:
            stats["rounds"] += 1
            yield from countdown(a, control)
            if (yield Until(a["flag"], 0, control)):
                break
        for _ in range(stats["rounds"]):
            yield from finish(a, control)

    m = Machine(batch=2)
    a = {name: m.array(name, values=v) for name, v in loop_inputs([1, 3]).items()}
    stats = {"rounds": 0}
    m.run(in_dict(m, a, stats))
    assert stats["rounds"] == 3 + 1  # the first pass's three rounds, then the later pass's one
    assert [c.loop_tests for c in m.costs] == [1, 3]
    single = Machine()
    mine = {name: single.array(name, values=np.asarray(v)[0])
            for name, v in loop_inputs([1, 3]).items()}
    single.run(in_dict(single, mine, {"rounds": 0}))
    assert m.costs[0].time > single.cost.time  # instance 0 finished 4 times, not once

    def in_local(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        rounds = yield from counted(a, control)
        for _ in range(rounds):
            yield from finish(a, control)

    same_as_singles(in_local, loop_inputs([1, 3, 2]))


def test_an_array_sized_by_the_rounds_is_refused_in_the_later_pass() -> None:
    def program(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        rounds = yield from counted(a, control)
        after = m.array("after", 2 + rounds)
        yield Step(control, writes=[Write(after, 0, rounds)])
        return after

    m = Machine(batch=3)
    a = {name: m.array(name, values=v) for name, v in loop_inputs([1, 3, 1]).items()}
    with pytest.raises(BatchPathError, match=(
            r"^m.array\('after'\) in the pass of instances 0, 2 \(run again from the start "
            r"after they left the batch's path at a loop test\) has size 3, dtype int64, "
            r"where an earlier pass of the run left it with size 5, dtype int64: a "
            r"batch holds one array per name for all its instances; size the array from the "
            r"inputs")):
        m.run(program(m, a))
    assert "after" not in m.arrays
    assert a["count"].to_numpy().shape == (3, 1)  # the run is over: memory reads again


# ---- a loop test of processors chosen by data ---------------------------------------------


def test_until_of_processors_chosen_by_data_is_refused() -> None:
    """Processors that choose themselves by a value (an OR over the instance's processors in
    one step) are refused when the test is made, on a batch as on a single machine."""
    from pram import hold

    m = Machine("crew", batch=2)
    c = m.array("c", values=np.array([[5, 1, 2], [0, 0, 0]]))

    def program() -> Any:
        pid = m.processors(3)
        (v,) = yield Step(pid, reads=[Read(c, iota(3))])
        return (yield Until(c, 0, hold(pid, pid)[v > 1]))

    with pytest.raises(InputError, match="one control processor"):
        m.run(program())


def test_scratch_arrays_sized_by_the_round_and_freed_may_differ_between_passes() -> None:
    """Only an array a pass leaves at its end must keep its size in later passes: scratch
    arrays freed in the loop, sized by the round, are counted as in single runs."""

    def program(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        rounds = 0
        while True:
            rounds += 1
            scratch = m.array("scratch", 2 + rounds)
            yield from countdown(a, control)
            (x,) = yield Step(control, reads=[Read(a["count"], 0)])
            yield Step(control, writes=[Write(scratch, rounds, x)])
            m.free(scratch)
            if (yield Until(a["flag"], 0, control)):
                break
        yield from finish(a, control)

    m = same_as_singles(program, loop_inputs([1, 4, 2]))
    assert "scratch" not in m.arrays
    assert [c.peak_cells for c in m.costs] != [m.costs[0].peak_cells] * 3


def test_undefined_reads_of_the_instances_taking_steps_while_others_idle() -> None:
    """The fast path taking steps while instances idle: an instance that reads a cell its
    own run never wrote records the undefined read (the idle ones record nothing)."""

    def program(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        notes = m.array("notes", 4)
        rounds = 0
        while True:
            rounds += 1
            yield from countdown(a, control)
            if rounds <= 2:
                yield Step(control, writes=[Write(notes, rounds, rounds)])
            if (yield Until(a["flag"], 0, control)):
                break
        (x,) = yield Step(control, reads=[Read(notes, 2)])
        yield Step(control, writes=[Write(a["out"], 0, x)])

    m = same_as_singles(program, loop_inputs([1, 3, 2, 1]), strict=False)
    assert sorted(r.instance for r in m.undefined_reads) == [0, 3]


# ---- park and rejoin: which loops rejoin, which fall back to a later pass ---------------


def passes_of(make: Make, inputs: dict[str, Any], model: str = "erew", **options: Any
              ) -> tuple[Machine, int]:
    """``same_as_singles`` of ``make``, and how many passes the batched run took (how many
    times its program was made, counted by the program's own first step)."""
    made: list[int] = []

    def counting(m: Machine, a: dict[str, Any]) -> Any:
        def program() -> Any:
            if m.batch is not None:
                made.append(1)
            return (yield from make(m, a))

        return program()

    return same_as_singles(counting, inputs, model, **options), len(made)


def test_a_register_accumulated_in_the_body_rejoins_with_its_own_rows() -> None:
    """A register of the loop body carried round by round without memory and used after the
    loop: the instances that left early rejoin, the register's rows of theirs as they were
    when they left (their single runs' values)."""
    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        total = None
        while True:
            (x,) = yield Step(control, reads=[Read(a["count"], 0)])
            total = x if total is None else total + x * 3
            yield Step(control, writes=[Write(a["count"], 0, x - 1),
                                        Write(a["flag"], 0, np.where(x - 1 <= 0, 1, 0))])
            if (yield Until(a["flag"], 0, control)):
                break
        yield Step(control, writes=[Write(a["out"], 0, total + x)])
        return total

    m, passes = passes_of(make, loop_inputs([1, 4, 2, 3, 1]))
    assert passes == 1
    assert [_value(v, i) for i, v in enumerate(m.results)] == [[1], [22], [5], [12], [1]]


def test_a_loop_in_a_phase_and_in_a_subprogram_rejoins() -> None:
    def body(a: dict[str, Any], control: Any) -> Any:
        while True:
            yield from countdown(a, control)
            if (yield Until(a["flag"], 0, control)):
                break

    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        yield from phase("loop", body(a, control))
        yield from finish(a, control)

    m, passes = passes_of(make, loop_inputs([3, 1, 2, 5]), "crew")
    assert passes == 1
    assert [c.phases["loop"].time for c in m.costs] == [9, 3, 6, 15]


def test_a_loop_alone_in_a_parallel_branch_rejoins() -> None:
    def make(m: Machine, a: dict[str, Any]) -> Any:
        def looping() -> Any:
            control = m.processors(1)
            while True:
                yield from countdown(a, control)
                if (yield Until(a["flag"], 0, control)):
                    break
            return 7

        return parallel(looping())

    _, passes = passes_of(make, loop_inputs([2, 1, 3]))
    assert passes == 1


def test_a_loop_in_a_host_bounded_for_rejoins_where_the_bound_variable_is_the_same() -> None:
    """``for r in range(...)``: an instance that left at round r rejoins only where the
    batch leaves at that same round, never at another (``r``, and the iterator on the
    generator's stack, differ): here each instance ends at its own round, so each of those
    that left early runs in a later pass."""
    make = bounded(6)
    _, passes = passes_of(make, loop_inputs([1, 3, 2, 3]))
    assert passes == 3


def test_an_iterator_on_the_stack_without_a_local_keeps_instances_apart() -> None:
    """An iterator whose items are all alike (the round is nowhere in the locals): where it
    stands is on the generator's stack, which the rejoin compares, so an instance that left
    at round 1 of an ignored answer does not rejoin at round 3 (it would take fewer rounds)."""
    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        for _ in [None] * 4:
            yield from countdown(a, control)
            yield Until(a["flag"], 0, control)
        yield from finish(a, control)

    _, passes = passes_of(make, loop_inputs([1, 3, 2]))
    assert passes == 3


@pytest.mark.parametrize("shape", ["host counter", "host list", "host object",
                                   "processors in the loop", "array in the loop",
                                   "exit on false"])
def test_what_rejoin_cannot_show_the_same_runs_in_a_later_pass(shape: str) -> None:
    """Host state the program's later steps may read that differs where the instances would
    rejoin (a round counter, a list the loop appends to, an object of the program's, ids or
    cells handed out in the loop), or a loop the batch leaves on the answer the parked ones
    go on with: a later pass each, every count exact."""
    class Box:
        def __init__(self) -> None:
            self.rounds = 0

    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        rounds, seen, box = 0, [], Box()
        while True:
            if shape == "host counter":
                rounds += 1
            elif shape == "host list":
                seen.append(1)
            elif shape == "host object":
                box.rounds += 1
            elif shape == "processors in the loop":
                m.processors(1)
            elif shape == "array in the loop":
                m.free(m.array("scratch", 2))
            if shape == "exit on false":
                (x,) = yield Step(control, reads=[Read(a["count"], 0)])
                yield Step(control, writes=[Write(a["count"], 0, x - 1),
                                            Write(a["flag"], 0, np.where(x - 1 > 0, 1, 0))])
                if not (yield Until(a["flag"], 0, control)):
                    break
            else:
                yield from countdown(a, control)
                if (yield Until(a["flag"], 0, control)):
                    break
        for _ in range(rounds + len(seen) + box.rounds):
            (y,) = yield Step(control, reads=[Read(a["out"], 1)])
            yield Step(control, writes=[Write(a["out"], 1, y + 1)])
        yield from finish(a, control)

    _, passes = passes_of(make, loop_inputs([1, 3, 2, 3]))
    assert passes == 3


def test_groups_parked_at_one_test_rejoin_each_with_its_own_registers() -> None:
    """Many instances leaving one loop at different rounds, a register of the body used after
    it: one pass, each instance its single run's answer and ledger."""
    def make(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        while True:
            (x, y) = yield Step(control, reads=[Read(a["count"], 0), Read(a["a"], 0)])
            yield Step(control, writes=[Write(a["count"], 0, x - 1), Write(a["a"], 0, y + x),
                                        Write(a["flag"], 0, np.where(x - 1 <= 0, 1, 0))])
            if (yield Until(a["flag"], 0, control)):
                break
        return x * 100 + y

    counts = [5, 1, 4, 2, 3, 1, 5, 2]
    _, passes = passes_of(make, loop_inputs(counts))
    assert passes == 1


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=6),
       st.lists(st.integers(1, 4), min_size=6, max_size=6))
def test_random_nested_round_counts_rejoin_or_fall_back_exactly(
        outer: list[int], inner: list[int]) -> None:
    """Nested loops whose inner round count differs per instance and per outer round: parked
    instances rejoin at the inner loop's exit within the same outer round, or run later."""
    b = len(outer)
    inputs = loop_inputs(outer, inner=np.zeros((b, 1), np.int64),
                         init=np.array(inner[:b])[:, None], flags=np.zeros((b, 2), np.int64))
    same_as_singles(nested, inputs)


def test_a_loop_beside_a_straight_branch_that_was_running_when_they_left_falls_back() -> None:
    """Instances that left the loop while the straight branch beside it still ran cannot
    rejoin where the batch leaves it after that branch ended (their single runs still had
    its steps to take): a later pass each, every count exact."""
    _, passes = passes_of(beside, loop_inputs([1, 3, 6]))
    assert passes == 3


def _host_value_of_the_rounds(kind: str) -> Callable[[Machine, dict[str, Any]], Any]:
    """A program whose host keeps, through the loop, a value equal (==) whatever the rounds
    but not the same state (outside battery): -0.0 and 0.0, range(0, 0) and range(5, 5),
    C and Fortran order, a view and a copy; after the loop it sizes a step by that state."""

    def program(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        state: Any = {"zero": 0.0, "range": range(0, 0), "order": np.zeros((2, 2)),
                      "view": np.zeros(4)}[kind]
        base = np.zeros(8)
        while True:
            if kind == "zero":
                state = -state  # -0.0 after odd rounds
            elif kind == "range":
                state = range(state.start + 5, state.start + 5)
            elif kind == "order":
                state = np.asfortranarray(state) if state.flags.c_contiguous \
                    else np.ascontiguousarray(state)
            else:
                state = base[:4] if state.base is None else state.copy()
            yield from countdown(a, control)
            if (yield Until(a["flag"], 0, control)):
                break
        if kind == "zero":
            k = 1 + (np.copysign(1.0, state) < 0)
        elif kind == "range":
            k = 1 + state.start % 2
        elif kind == "order":
            k = 1 + state.flags.f_contiguous
        else:
            base[0] = 1.0
            k = 1 + int(state[0])
        pid = m.processors(int(k))
        yield Step(pid, reads=[Read(a["a"], iota(int(k)))])

    return program


@pytest.mark.parametrize("kind", ["zero", "range", "order", "view"])
def test_values_equal_by_eq_but_not_the_same_state_keep_instances_apart(kind: str) -> None:
    """Equal by == is not the same state: instances with one and two rounds get their own
    counts (they rejoined wrongly, the second instance's step sized by the first's state)."""
    same_as_singles(_host_value_of_the_rounds(kind), loop_inputs([1, 2, 3, 4]), model="crew")


def test_the_clock_after_a_rejoin_is_refused_not_one_instances() -> None:
    """m.cost.time after instances rejoined would be the batch's step count, not each
    instance's own (an outside battery read 9 where a single run reads 3): refused, with the
    fix; before any rejoin it is every instance's."""

    def program(m: Machine, a: dict[str, Any]) -> Any:
        control = m.processors(1)
        before = m.cost.time
        yield from until_done(m, a)
        yield Step(control, reads=[Read(a["a"], 0)])
        return before, m.cost.time

    m = Machine("crew", batch=2)
    arrays = {name: m.array(name, values=v) for name, v in loop_inputs([1, 3]).items()}
    with pytest.raises(HonestyError, match=r"m\.cost\.time while a batched program runs, after "
                       r"instances that left a loop rejoined the batch, is not one number"):
        m.run(program(m, arrays))
    agreeing = Machine("crew", batch=2)
    arrays = {name: agreeing.array(name, values=v) for name, v in loop_inputs([2, 2]).items()}
    single = Machine("crew")
    mine = {name: single.array(name, values=np.asarray(v)[0])
            for name, v in loop_inputs([2]).items()}
    assert agreeing.run(program(agreeing, arrays)) == single.run(program(single, mine))
