"""The machine: step semantics, composition, accounting, undefined and out-of-range accesses,
refusal of bad input, and the two modes of reporting violations."""

from __future__ import annotations

import platform
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from pram import (
    MAX_ACCESSES,
    AddressError,
    Array,
    Bundle,
    ConflictError,
    Cost,
    HonestyError,
    InputError,
    Kind,
    Machine,
    PhaseCost,
    Program,
    Read,
    Register,
    Step,
    StepError,
    UndefinedRead,
    UndefinedReadError,
    Values,
    Violation,
    Write,
    iota,
    parallel,
    parallel_all,
    phase,
)
from pram.testing import assert_erew
from tests.helpers import ints, whole

RunSteps = Callable[[Machine, Sequence[Step]], list[Values]]


def idle(steps: int, n: int, m: Machine) -> Program[int]:
    """A branch of ``steps`` steps in which ``n`` processors act and touch nothing."""
    pid = m.processors(n)
    for _ in range(steps):
        yield Step(pid)
    return steps


# ---- read-before-write ----------------------------------------------------------------------


def test_reads_see_memory_from_before_the_step(run_steps: RunSteps) -> None:
    """A read and a write of one cell in one step: the read returns the old value."""
    m = Machine("crew")
    a = m.array("a", values=ints(10, 20))
    pid = m.processors(2)
    [(got,)] = run_steps(
        m, [Step(pid, reads=[Read(a, ints(0, 1))], writes=[Write(a, ints(1, 0), ints(7, 8))])]
    )
    assert got.tolist() == [10, 20]
    assert a.to_numpy().tolist() == [8, 7]
    assert m.violations == []


def test_a_processor_never_sees_its_own_same_step_write(run_steps: RunSteps, m: Machine) -> None:
    """A processor reading and writing one cell in one step reads the old value."""
    a = m.array("a", values=ints(3))
    [(got,)] = run_steps(m, [Step(ints(0), reads=[Read(a, ints(0))], writes=[Write(a, 0, 9)])])
    assert (got.tolist(), a.to_numpy().tolist(), m.violations) == ([3], [9], [])


def test_writes_are_seen_by_the_next_step(run_steps: RunSteps, m: Machine) -> None:
    """A value written in step t is read back in step t + 1."""
    a = m.array("a", size=2)
    pid = m.processors(2)
    replies = run_steps(
        m, [Step(pid, writes=[Write(a, pid, ints(5, 6))]), Step(pid, reads=[Read(a, 1 - pid)])]
    )
    assert replies[1][0].tolist() == [6, 5]


def test_reads_are_aligned_with_processors_and_zero_where_masked(
    run_steps: RunSteps, m: Machine
) -> None:
    """Each read returns one value per processor of the step, 0 where its mask is False."""
    a = m.array("a", values=ints(4, 5, 6))
    pid = m.processors(3)
    where = np.array([True, False, True])
    [(plain, masked)] = run_steps(
        m, [Step(pid, reads=[Read(a, ints(2, 1, 0)), Read(a, ints(0, 1, 2), where)])]
    )
    assert plain.tolist() == [6, 5, 4]
    assert masked.tolist() == [4, 0, 6]


def test_masked_writes_leave_cells_alone(run_steps: RunSteps, m: Machine) -> None:
    """A write whose mask is False for a processor does not happen and is not counted."""
    a = m.array("a", values=ints(0, 0))
    pid = m.processors(2)
    run_steps(m, [Step(pid, writes=[Write(a, pid, ints(1, 2), np.array([False, True]))])])
    assert a.to_numpy().tolist() == [0, 2]
    assert (m.cost.writes, m.cost.work) == (1, 2)


def test_a_constant_index_and_value_apply_to_every_processor(
    run_steps: RunSteps, m: Machine
) -> None:
    """An integer index or value means the same for every processor of the step."""
    a = m.array("a", values=ints(1, 2, 3))
    run_steps(m, [Step(ints(4), writes=[Write(a, 2, 9)])])
    assert a.to_numpy().tolist() == [1, 2, 9]


# ---- semantics decisions --------------------------------------------------------------------


def test_a_processor_touching_one_cell_twice_does_not_conflict_with_itself(
    run_steps: RunSteps, m: Machine
) -> None:
    """Two reads and two writes of one cell by one processor are no EREW violation."""
    a = m.array("a", values=ints(1, 2))
    run_steps(
        m,
        [
            Step(
                ints(0),
                reads=[Read(a, ints(0)), Read(a, ints(0))],
                writes=[Write(a, ints(0), ints(5)), Write(a, ints(0), ints(6))],
            )
        ],
    )
    assert m.violations == []


def test_a_processor_writing_one_cell_twice_lands_its_later_port(
    run_steps: RunSteps, m: Machine
) -> None:
    """Of one processor's two writes to one cell, the later port's value lands."""
    a = m.array("a", values=ints(0))
    run_steps(m, [Step(ints(0), writes=[Write(a, 0, 5), Write(a, 0, 6)])])
    assert a.to_numpy().tolist() == [6]


def test_a_later_port_also_lands_when_others_write_the_cell(run_steps: RunSteps) -> None:
    """Under CRCW-sum, a processor's two writes to a cell count once: its later value."""
    m = Machine("crcw-sum")
    a = m.array("a", values=ints(0))
    pid = m.processors(2)
    run_steps(m, [Step(pid, writes=[Write(a, 0, ints(100, 1)), Write(a, 0, ints(5, 2))])])
    assert a.to_numpy().tolist() == [7]


def test_one_violation_per_cell_and_kind_with_all_processors(
    run_steps: RunSteps, m: Machine
) -> None:
    """Three readers and a writer at one cell: one read/read and one read/write violation."""
    a = m.array("a", values=ints(0, 0))
    pid = ints(9, 2, 5, 7)
    run_steps(
        m,
        [
            Step(
                pid,
                reads=[Read(a, ints(1, 1, 1, 0), np.array([True, True, True, False]))],
                writes=[Write(a, 1, 4, np.array([False, False, False, True]))],
            )
        ],
    )
    assert m.violations == [
        Violation("EREW", Kind.READ_READ, 1, "", "a", 1, (2, 5, 9)),
        Violation("EREW", Kind.READ_WRITE, 1, "", "a", 1, (2, 5, 7, 9)),
    ]


def test_a_forbidden_write_clash_lands_the_lowest_processors_value(
    run_steps: RunSteps, m: Machine
) -> None:
    """In collect mode, after a forbidden write/write the lowest processor id's value lands."""
    a = m.array("a", values=ints(0))
    run_steps(m, [Step(ints(8, 3, 5), writes=[Write(a, 0, ints(80, 30, 50))])])
    assert a.to_numpy().tolist() == [30]
    assert [v.processors for v in m.violations] == [(3, 5, 8)]


def test_step_numbers_are_one_based(run_steps: RunSteps, m: Machine) -> None:
    """The first step is step 1 in reports and errors."""
    a = m.array("a", values=ints(0))
    run_steps(m, [Step(ints(0, 1), reads=[Read(a, ints(0, 0))])])
    assert m.violations[0].step == 1


def test_an_empty_step_costs_time_and_no_work(run_steps: RunSteps, m: Machine) -> None:
    """A step with no processors counts one unit of time and no work."""
    run_steps(m, [Step(ints()), Step(ints())])
    assert (m.cost.time, m.cost.work, m.cost.profile) == (2, 0, [0, 0])


# ---- composition -----------------------------------------------------------------------------


def test_parallel_branches_of_unequal_length(m: Machine) -> None:
    """Depth of parallel branches is the longer branch; work is the sum of both."""
    results = m.run(parallel(idle(5, 2, m), idle(2, 3, m)))
    assert results == [5, 2]
    assert (m.cost.time, m.cost.work) == (5, 5 * 2 + 2 * 3)
    assert m.cost.profile == [5, 5, 2, 2, 2]
    assert m.cost.max_processors == 5


def test_branches_are_checked_together(m: Machine) -> None:
    """Two branches reading one cell in the same global step is a concurrent read."""
    a = m.array("a", values=ints(1))

    def reader(pid: int) -> Program[Register]:
        (x,) = yield Step(ints(pid), reads=[Read(a, ints(0))])
        return x

    assert [x.tolist() for x in m.run(parallel(reader(4), reader(1)))] == [[1], [1]]
    assert m.violations == [Violation("EREW", Kind.READ_READ, 1, "", "a", 0, (1, 4))]


def test_branches_receive_their_own_replies(m: Machine) -> None:
    """Each branch gets the values of its own reads, in its own order."""
    a = m.array("a", values=ints(10, 11, 12, 13))

    def reader(first: int) -> Program[tuple[Register, Register]]:
        pid = m.processors(2)
        (x,) = yield Step(pid, reads=[Read(a, ints(first, first + 1))])
        (y,) = yield Step(pid, reads=[Read(a, ints(first + 1, first))])
        return x, y

    got = [[*x.tolist(), *y.tolist()] for x, y in m.run(parallel_all(reader(i) for i in (0, 2)))]
    assert got == [[10, 11, 11, 10], [12, 13, 13, 12]]


def test_nested_parallel_branches_share_global_steps(m: Machine) -> None:
    """Parallel inside parallel: all leaves act in the same global steps."""
    results = m.run(parallel(parallel(idle(1, 1, m), idle(3, 1, m)), idle(2, 1, m)))
    assert results == [[1, 3], 2]
    assert m.cost.profile == [3, 2, 1]


def test_an_empty_parallel_costs_nothing(m: Machine) -> None:
    """Running no branches in parallel takes no step."""
    assert m.run(parallel()) == []
    assert m.cost.time == 0


def test_a_bundle_is_one_global_step(m: Machine) -> None:
    """A program may yield a Bundle itself; it receives one reply per step."""
    a = m.array("a", values=ints(1, 2))

    def program() -> Program[Any]:
        replies = yield Bundle(
            (Step(ints(0), reads=[Read(a, 0)]), Step(ints(1), reads=[Read(a, 1)]))
        )
        return [r[0] for r in replies]

    assert [r.tolist() for r in m.run(program())] == [[1], [2]]
    assert m.cost.time == 1


# ---- accounting ------------------------------------------------------------------------------


def ledger_program(m: Machine, a: Array) -> Program[None]:
    """3 steps: 4 processors read, 2 write, then 3 read and write under a nested phase."""
    pid = m.processors(4)
    yield Step(pid, reads=[Read(a, pid)])
    yield from phase("outer", _outer(m, a, pid))


def _outer(m: Machine, a: Array, pid: np.ndarray) -> Program[None]:
    yield Step(pid[:2], writes=[Write(a, pid[:2], 1)])
    yield from phase("inner", _inner(a, pid))


def _inner(a: Array, pid: np.ndarray) -> Program[None]:
    yield Step(pid[:3], reads=[Read(a, pid[:3])], writes=[Write(a, pid[:3] + 4, 2)])


def test_exact_ledger(m: Machine) -> None:
    """Time, work, reads, writes, max processors, memory and profile are counted exactly."""
    a = m.array("a", values=np.zeros(7, dtype=np.int64))
    m.array("b", size=5)
    m.run(ledger_program(m, a))
    assert m.cost.as_dict() == {
        "time": 3,
        "work": 4 + 2 + 3,
        "reads": 4 + 3,
        "writes": 2 + 3,
        "max_processors": 4,
        "memory_cells": 12,
        "peak_cells": 12,
        "local": 0,
        "max_local": 0,
        # The read (phase "") and the write after it (phase "outer") are one round of the
        # four processors (the two writers among them), whatever their phases; the last
        # step reads and writes, a round by itself.
        "rounds": 2,
        "round_work": 4 + 3,
    }
    assert m.cost.profile == [4, 2, 3]
    assert m.cost.activity().tolist() == [4, 2, 3]
    assert m.cost.step_phases == [("",), ("outer",), ("outer/inner",)]


def test_nested_phase_breakdown(m: Machine) -> None:
    """A phase's share includes its nested phases; a nested label joins with '/'. The write
    that joins the run's first round counts in ``outer``, which holds no part of that round's
    read, as a round of its own writers (:mod:`pram.engine.rounds`)."""
    a = m.array("a", values=np.zeros(7, dtype=np.int64))
    m.run(ledger_program(m, a))
    assert m.cost.phases == {
        "outer": PhaseCost(time=2, work=5, reads=3, writes=5, max_processors=3, rounds=2,
                           round_work=5),
        "outer/inner": PhaseCost(time=1, work=3, reads=3, writes=3, max_processors=3,
                                 rounds=1, round_work=3),
    }


def test_a_phase_counts_only_its_own_processors(m: Machine) -> None:
    """Work and max processors of a phase leave out the branches running beside it."""
    m.run(parallel(phase("left", idle(2, 3, m)), phase("right", idle(1, 5, m))))
    assert m.cost.phases["left"] == PhaseCost(time=2, work=6, max_processors=3, rounds=2,
                                              round_work=6)
    assert m.cost.phases["right"] == PhaseCost(time=1, work=5, max_processors=5, rounds=1,
                                               round_work=5)
    assert m.cost.step_phases == [("left", "right"), ("left",)]


def test_brent_time_is_the_sum_of_ceilings(m: Machine) -> None:
    """T_p = sum over steps of max(1, ceil(active / p)), and T_p <= W / p + T."""
    m.run(parallel(idle(1, 7, m), idle(3, 2, m)))  # profile [9, 2, 2]
    assert m.cost.profile == [9, 2, 2]
    assert [m.cost.brent(p) for p in (1, 2, 3, 4, 9, 10)] == [13, 7, 5, 5, 3, 3]
    for p in range(1, 12):
        assert m.cost.brent(p) <= m.cost.work / p + m.cost.time


def test_brent_counts_an_empty_step_as_one_step(run_steps: RunSteps, m: Machine) -> None:
    """A step with no active processor still takes a step, so T_p reaches T, never less."""
    run_steps(m, [Step(ints(0, 1, 2)), Step(ints()), Step(ints(3))])
    assert [m.cost.brent(p) for p in (1, 2, 3, 10**9)] == [5, 4, 3, 3]
    assert m.cost.brent(10**9) == m.cost.time


def test_brent_refuses_a_non_positive_p(m: Machine) -> None:
    """Brent's time on 0 processors is refused with the value named."""
    message = "p must be a positive integer number of processors (got 0)"
    with pytest.raises(InputError, match=whole(message)):
        m.cost.brent(0)


def test_memory_counts_every_allocated_cell(m: Machine) -> None:
    """memory_cells is the sum of the sizes of all arrays allocated."""
    m.array("a", size=3)
    m.array("b", values=ints(1, 2))
    m.array("c", size=0)
    assert m.cost.memory_cells == 5


def test_peak_cells_count_the_most_cells_alive_at_once(m: Machine) -> None:
    """peak_cells is the largest sum of sizes of arrays allocated and not yet freed."""
    a = m.array("a", size=3)
    b = m.array("b", values=ints(1, 2))
    m.free(a)
    m.array("c", size=4)
    m.free(b)
    m.array("d", size=1)
    assert (m.cost.memory_cells, m.cost.peak_cells) == (10, 6)


def test_a_freed_array_name_may_be_allocated_again(m: Machine) -> None:
    """Freeing an array releases its name; the new array is counted as new cells."""
    m.free(m.array("a", size=2))
    again = m.array("a", values=ints(7, 8, 9))
    assert again.to_numpy().tolist() == [7, 8, 9]
    assert (m.cost.memory_cells, m.cost.peak_cells) == (5, 3)


def test_free_refuses_an_array_freed_already(m: Machine) -> None:
    """Freeing an array twice is refused with the array named."""
    a = m.array("a", size=2)
    m.free(a)
    message = (
        "free takes an array allocated on this machine and not yet freed "
        "(got Array('a', size=2))"
    )
    with pytest.raises(InputError, match=whole(message)):
        m.free(a)


def test_free_refuses_an_array_of_another_machine(m: Machine) -> None:
    """An array of another machine cannot be freed here, and stays alive there."""
    other = Machine()
    a = other.array("a", values=ints(4))
    message = (
        "free takes an array allocated on this machine and not yet freed "
        "(got Array('a', size=1))"
    )
    with pytest.raises(InputError, match=whole(message)):
        m.free(a)
    assert a.to_numpy().tolist() == [4]


def test_a_step_may_not_access_a_freed_array(m: Machine) -> None:
    """A step reading a freed array is refused, naming the array and the step."""
    a = m.array("a", values=ints(1, 2))
    m.free(a)
    message = (
        "array 'a' accessed in step 1 was freed; free an array only after the last step "
        "that accesses it"
    )
    with pytest.raises(StepError, match=whole(message)):
        m.execute((Step(m.processors(1), reads=[Read(a, 0)]),))


def test_a_freed_array_cannot_be_copied_out(m: Machine) -> None:
    """to_numpy of a freed array is refused with the fix."""
    a = m.array("a", values=ints(1, 2))
    m.free(a)
    message = "array 'a' was freed; copy it out with to_numpy before freeing it"
    with pytest.raises(InputError, match=whole(message)):
        a.to_numpy()


# ---- undefined reads --------------------------------------------------------------------------


def test_strict_undefined_read_raises(run_steps: RunSteps, m: Machine) -> None:
    """In strict mode, reading a never-written cell raises, naming step, cell and processor."""
    a = m.array("a", size=3)
    pid = m.processors(2)
    message = (
        "undefined read: processor 1 read a[2] in step 2 before anything was written there; "
        "give the array initial values or write it first"
    )
    with pytest.raises(UndefinedReadError, match=whole(message)) as error:
        run_steps(m, [Step(pid, writes=[Write(a, pid, 0)]), Step(pid, reads=[Read(a, pid + 1)])])
    assert (error.value.step, error.value.array, error.value.index, error.value.processor) == (
        2,
        "a",
        2,
        1,
    )


def test_lenient_undefined_reads_are_recorded(run_steps: RunSteps) -> None:
    """With strict=False, undefined reads are recorded (with the phase) and the run goes on."""
    m = Machine("erew", strict=False)
    a = m.array("a", size=3)
    pid = m.processors(3)

    def program() -> Program[None]:
        yield Step(pid[:1], writes=[Write(a, 1, 5)])
        yield from phase("scan", iter_steps([Step(pid, reads=[Read(a, pid)])]))

    m.run(program())
    assert m.undefined_reads == [
        UndefinedRead(2, "scan", "a", 0, 0),
        UndefinedRead(2, "scan", "a", 2, 2),
    ]
    assert m.cost.time == 2


def iter_steps(steps: Sequence[Step]) -> Program[list[Values]]:
    """A program that yields ``steps`` in turn and returns what they read."""
    replies = []
    for step in steps:
        replies.append((yield step))
    return replies


def test_a_written_cell_is_defined(run_steps: RunSteps, m: Machine) -> None:
    """After a write, reading the cell is no undefined read."""
    a = m.array("a", size=1)
    replies = run_steps(
        m, [Step(ints(0), writes=[Write(a, 0, 4)]), Step(ints(0), reads=[Read(a, 0)])]
    )
    assert replies[1][0].tolist() == [4]


def test_a_masked_read_of_an_undefined_cell_is_no_read(run_steps: RunSteps, m: Machine) -> None:
    """A read switched off by its mask does not touch the cell."""
    a = m.array("a", size=1)
    run_steps(m, [Step(ints(0), reads=[Read(a, 0, np.array([False]))])])
    assert m.undefined_reads == []


# ---- out-of-range accesses -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "verb", "shown"), [(ints(0, 4), "read", 4), (ints(-1, 0), "write", -1)]
)
def test_out_of_range_access_names_step_array_index_and_processor(
    run_steps: RunSteps, m: Machine, index: np.ndarray, verb: str, shown: int
) -> None:
    """An index outside the array raises AddressError naming step, array, index, processor."""
    a = m.array("a", values=ints(1, 2, 3))
    pid = ints(6, 7)
    bad = 7 if shown == 4 else 6
    access = {"reads": [Read(a, index)]} if verb == "read" else {"writes": [Write(a, index, 0)]}
    message = (
        f"processor {bad} tried to {verb} a[{shown}] in step 2 (phase 'copy'), "
        "but a has indices 0 to 2"
    )

    def program() -> Program[None]:
        yield Step(pid)
        yield from phase("copy", iter_steps([Step(pid, **access)]))

    with pytest.raises(AddressError, match=whole(message)) as error:
        m.run(program())
    assert (error.value.step, error.value.array, error.value.index, error.value.processor) == (
        2,
        "a",
        shown,
        bad,
    )
    assert isinstance(error.value, IndexError)


def test_any_access_to_an_empty_array_is_out_of_range(run_steps: RunSteps, m: Machine) -> None:
    """An array of no cells refuses every index."""
    a = m.array("a", size=0)
    message = "processor 0 tried to read a[0] in step 1, but a has no cells"
    with pytest.raises(AddressError, match=whole(message)):
        run_steps(m, [Step(ints(0), reads=[Read(a, 0)])])


def test_a_masked_out_of_range_index_is_not_an_access(run_steps: RunSteps, m: Machine) -> None:
    """An index outside the array is fine where the mask switches the access off."""
    a = m.array("a", values=ints(1))
    run_steps(m, [Step(ints(0, 1), reads=[Read(a, ints(0, 99), np.array([True, False]))])])
    assert m.cost.reads == 1


# ---- bad input to the public API --------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: Machine("CRCW"),
            "model must be one of erew, crew, crcw-common, crcw-arbitrary, crcw-priority, "
            "crcw-sum, crcw-max, crcw-min, ercw, crcw-weak, crcw-tolerant, crcw-collision, "
            "crcw-collision+ (got 'CRCW')",
        ),
        (lambda: Machine(mode="panic"), "mode must be 'collect' or 'raise' (got 'panic')"),  # type: ignore[arg-type]
        (lambda: Machine(seed=-3), "seed must be a non-negative integer (got -3)"),
        (lambda: Machine(trace="no"), "trace must be True or False (got 'no')"),  # type: ignore[arg-type]
        (lambda: Machine(strict="yes"), "strict must be True or False (got 'yes')"),  # type: ignore[arg-type]
        (lambda: Machine(fast_path=0), "fast_path must be True or False (got 0)"),  # type: ignore[arg-type]
        (
            lambda: Machine(distinct_processors=None),  # type: ignore[arg-type]
            "distinct_processors must be True (got None): without the check one processor id "
            "listed n times in a step combines n values in one step, uncharged; drop "
            "distinct_processors=False (or --no-distinct-processors), the check is on by default",
        ),
        (
            lambda: Machine().array("a", size=-1),
            "size of array 'a' must be a non-negative integer (got -1)",
        ),
        (
            lambda: Machine().array("a", size=2.0),  # type: ignore[arg-type]
            "size of array 'a' must be a non-negative integer (got 2.0)",
        ),
        (
            lambda: Machine().array("a"),
            "size of array 'a' must be a non-negative integer (got None)",
        ),
        (lambda: Machine().array("", size=1), "array name must be a non-empty string (got '')"),
        (
            lambda: Machine().array("a", values=np.zeros((2, 2, 2), dtype=np.int64)),
            "values of array 'a' must be one- or two-dimensional (got 3 dimensions); pass a "
            "flat array, or a matrix for shape=(r, c)",
        ),
        (
            lambda: Machine().array("a", values=np.array([1.5, 2.0])),
            "values of array 'a' must be integers (got dtype float64); pass dtype=float to keep "
            "them real, or make them integers explicitly, e.g. numpy.rint(x).astype(numpy.int64) "
            "for reals (a plain cast would truncate them)",
        ),
        (
            lambda: Machine().array("a", values=np.array([True])),
            "values of array 'a' must be integers (got dtype bool); make them integers "
            "explicitly, e.g. numpy.rint(x).astype(numpy.int64) for reals (a plain cast would "
            "truncate them)",
        ),
        (
            lambda: Machine().array("a", values=np.array([2**63], dtype=np.uint64)),
            "values of array 'a' must fit in int64 (got 9223372036854775808); use values below "
            "2**63",
        ),
        (
            lambda: Machine().array("a", size=3, values=ints(1, 2)),
            "size of array 'a' is 3 but 2 values were given; pass one of them",
        ),
        (
            lambda: Machine().processors(-2),
            "number of processors must be a non-negative integer (got -2)",
        ),
    ],
)
def test_bad_input_is_refused_with_the_value_named(make: Callable[[], Any], message: str) -> None:
    """Bad arguments to the machine raise InputError (a ValueError) naming value and fix."""
    with pytest.raises(InputError, match=whole(message)) as error:
        make()
    assert isinstance(error.value, ValueError)


def test_duplicate_array_names_are_refused(m: Machine) -> None:
    """Two arrays of one name on one machine are refused."""
    m.array("a", size=1)
    message = (
        "array 'a' already exists on this machine (a program run before may have allocated "
        "it); free it first with m.free(m.arrays['a']), run the program inside `with "
        "m.scope():` to free the arrays it allocates when the block ends, or choose another name"
    )
    with pytest.raises(InputError, match=whole(message)):
        m.array("a", size=2)


def test_arrays_take_a_copy_of_their_values(m: Machine) -> None:
    """Changing the host's array after allocation does not change the machine's memory."""
    values = ints(1, 2)
    a = m.array("a", values=values)
    values[0] = 99
    assert a.to_numpy().tolist() == [1, 2]
    a.to_numpy()[1] = 99
    assert a.to_numpy().tolist() == [1, 2]


def bad_steps(a: Array, other: Array) -> list[tuple[Any, str]]:
    two = ints(0, 1)
    return [
        (
            Step([0, 1]),  # type: ignore[arg-type]
            "processors of step 1 must be a 1-d integer array (got [0, 1])",
        ),
        (
            Step(np.array([0.0, 1.0])),
            "processors of step 1 must be a 1-d integer array (got array of dtype float64 and "
            "shape (2,))",
        ),
        (
            Step(two, reads=[Read(a, ints(0))]),
            "index into a in step 1 must be an integer array of shape (2,), one cell per "
            "processor (got array of dtype int64 and shape (1,))",
        ),
        (
            Step(two, reads=[Read(a, np.array([0.0, 1.0]))]),
            "index into a in step 1 must be an integer array of shape (2,), one cell per "
            "processor (got array of dtype float64 and shape (2,))",
        ),
        (
            Step(two, writes=[Write(a, two, np.array([1.5, 2.5]))]),
            "value written to a in step 1 holds reals (dtype float64), but a holds int64 words; "
            "allocate the array with dtype=float to hold reals, or round explicitly, e.g. "
            "np.rint(x).astype(np.int64)",
        ),
        (
            Step(two, writes=[Write(a, two, 2**64)]),
            "value written to a in step 1 must fit in int64 (got 18446744073709551616)",
        ),
        (
            Step(two, writes=[Write(a, two, np.array([1, 2**64 - 1], dtype=np.uint64))]),
            "value written to a in step 1 must fit in int64 (got 18446744073709551615); use "
            "values below 2**63",
        ),
        (
            Step(two, reads=[Read(a, np.array([0, 2**64 - 1], dtype=np.uint64))]),
            "index into a in step 1 must fit in int64 (got 18446744073709551615); a has "
            "indices 0 to 1",
        ),
        (
            Step(two, reads=[Read(a, 2**64 - 1)]),
            "index into a in step 1 must fit in int64 (got 18446744073709551615); a has "
            "indices 0 to 1",
        ),
        (
            Step(two, reads=[Read(a, two, np.array([1, 0]))]),
            "where of an access to a in step 1 must be a boolean array of shape (2,), one flag "
            "per processor (got array of dtype int64 and shape (2,))",
        ),
        (
            Step(two, reads=[Read(a, two)] * (MAX_ACCESSES + 1)),
            f"step 1 asks each processor for {MAX_ACCESSES + 1} reads and 0 writes; at most "
            f"{MAX_ACCESSES} of each are allowed, so split the work over more steps",
        ),
        (
            Step(two, reads=[Read(np.zeros(2), two)]),  # type: ignore[arg-type]
            "an access in step 1 names array([0., 0.]), which is not a pram Array; allocate "
            "arrays with Machine.array",
        ),
        (
            Step(two, reads=[Read(other, two)]),
            "array 'b' accessed in step 1 belongs to another machine; allocate it on this one",
        ),
        (
            Step(two, reads=[Write(a, two, 1)]),  # type: ignore[list-item]
            f"reads of step 1 must be Read objects (got {Write(a, two, 1)!r})",
        ),
        (
            "not a step",
            "a program must yield Step or Bundle objects (got 'not a step') before step 1",
        ),
        (Bundle(("x",)), "a Bundle must hold Step objects (got 'x') in step 1"),  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize("case", range(13))
def test_malformed_steps_are_refused_with_the_value_named(case: int) -> None:
    """A malformed step raises StepError (a ValueError) naming the step and what is wrong."""
    m = Machine()
    a = m.array("a", values=ints(0, 0))
    other = Machine().array("b", values=ints(0, 0))
    request, message = bad_steps(a, other)[case]

    def program() -> Program[None]:
        yield request

    with pytest.raises(StepError, match=whole(message)) as error:
        m.run(program())
    assert error.value.step == 1
    assert m.cost.time == 0


class _Empty(list):  # type: ignore[type-arg]
    """A list that tells ``len`` it holds nothing (what a ledger counting by ``len`` saw)."""

    def __len__(self) -> int:
        return 0


@pytest.mark.parametrize("field", ["reads", "writes"])
def test_a_step_freezes_its_accesses_into_a_plain_tuple(field: str) -> None:
    """A step's reads and writes are the tuple made with it: a list subclass (whose ``len``
    says 0 while it iterates one access) is refused, and a plain list kept by the program and
    changed after the step was made changes nothing the machine executes or counts."""
    m = Machine("erew")
    a = m.array("a", values=ints(0, 0))
    two = m.processors(2)
    access = Read(a, two) if field == "reads" else Write(a, two, 1)
    name = "Read" if field == "reads" else "Write"
    with pytest.raises(InputError, match=whole(
            f"Step {field} must be a plain list or tuple of {name} objects (got _Empty); "
            f"pass [{name}(...), ...]")):
        Step(two, **{field: _Empty([access])})
    kept = [access]
    step = Step(two, **{field: kept})
    kept.append(access)
    assert type(getattr(step, field)) is tuple and getattr(step, field) == (access,)

    def program() -> Program[None]:
        yield step

    m.run(program())
    assert (m.cost.reads, m.cost.writes) == ((2, 0) if field == "reads" else (0, 2))


def test_a_bundle_freezes_its_steps_into_a_plain_tuple() -> None:
    """A bundle's steps are frozen as a step's accesses are: a list subclass is refused, a
    plain list kept and changed later changes nothing the machine runs or counts."""
    m = Machine("erew")
    a = m.array("a", values=ints(0, 0))
    one, other = m.processors(1), m.processors(1)
    step = Step(one, reads=[Read(a, 0)])
    with pytest.raises(InputError, match=whole(
            "Bundle steps must be a plain list or tuple of Step objects (got _Empty); "
            "pass [Step(...), ...]")):
        Bundle(_Empty([step]))
    kept = [step]
    bundle = Bundle(kept)
    kept.append(Step(other, reads=[Read(a, 1)]))

    def program() -> Program[None]:
        yield bundle

    m.run(program())
    assert bundle.steps == (step,) and (m.cost.time, m.cost.reads) == (1, 1)


# ---- raise and collect -------------------------------------------------------------------------


def clash(m: Machine) -> Program[None]:
    """Step 1 is clean; steps 2 and 3 each have processors 0 and 1 write a[0]."""
    a = m.arrays["a"]
    pid = m.processors(2)
    yield Step(pid, writes=[Write(a, pid, pid)])
    yield Step(pid, writes=[Write(a, 0, ints(5, 6))])
    yield Step(pid, writes=[Write(a, 0, ints(7, 8))])


def test_raise_mode_stops_at_the_first_violation() -> None:
    """mode='raise' raises ConflictError at the first violation, before its step commits."""
    m = Machine("erew", mode="raise")
    a = m.array("a", values=ints(0, 0))
    message = "EREW forbids concurrent writes: processors 0 and 1 write a[0] in step 2"
    with pytest.raises(ConflictError, match=whole(message)) as error:
        m.run(clash(m))
    assert error.value.violation == Violation("EREW", Kind.WRITE_WRITE, 2, "", "a", 0, (0, 1))
    assert a.to_numpy().tolist() == [0, 1]
    assert m.cost.time == 1
    assert m.violations == [error.value.violation]


def test_a_caught_conflict_still_fails_assert_erew() -> None:
    """In raise mode the violation is recorded before it is raised, so catching it hides nothing."""
    m = Machine("erew", mode="raise")
    m.array("a", values=ints(0, 0))
    with pytest.raises(ConflictError):
        m.run(clash(m))
    with pytest.raises(AssertionError, match="EREW forbids concurrent writes"):
        assert_erew(m)


def test_collect_mode_records_every_violation_and_finishes() -> None:
    """mode='collect' records each violation and runs the program to its end."""
    m = Machine("erew")
    a = m.array("a", values=ints(0, 0))
    m.run(clash(m))
    assert [(v.step, v.kind, v.processors) for v in m.violations] == [
        (2, Kind.WRITE_WRITE, (0, 1)),
        (3, Kind.WRITE_WRITE, (0, 1)),
    ]
    assert a.to_numpy().tolist() == [7, 1]
    assert m.cost.time == 3


def test_a_violation_across_branches_names_the_phase_of_every_branch(m: Machine) -> None:
    """Branches in different phases clash: the report names each branch's phase, in order."""
    a = m.array("a", values=ints(0))
    left = phase("left", iter_steps([Step(ints(5), reads=[Read(a, 0)])]))
    middle = phase("middle", iter_steps([Step(ints(7), reads=[Read(a, 0)])]))
    right = phase("right", iter_steps([Step(ints(2), reads=[Read(a, 0)])]))
    m.run(parallel(left, middle, right))
    assert [(v.phase, v.phases) for v in m.violations] == [("right", ("left", "middle", "right"))]
    assert m.violations[0].message == (
        "EREW forbids concurrent reads: processors 2, 5 and 7 read a[0] in step 1 "
        "(phases 'left', 'middle' and 'right')"
    )


def test_a_violation_within_one_phase_names_it_once(m: Machine) -> None:
    """Two branches of one phase clash: the phase is named once, as for a single branch."""
    a = m.array("a", values=ints(0))
    both = parallel(*(iter_steps([Step(ints(p), reads=[Read(a, 0)])]) for p in (3, 1)))
    m.run(phase("level", both))
    assert [(v.phase, v.phases) for v in m.violations] == [("level", ())]
    assert m.violations[0].message.endswith("read a[0] in step 1 (phase 'level')")


def test_violation_messages() -> None:
    """Each kind of violation reads as rule, who, what and when."""
    rr = Violation("EREW", Kind.READ_READ, 4, "pbs/level 2", "keys", 12, (3, 9))
    rw = Violation("EREW", Kind.READ_WRITE, 1, "", "a", 0, (1, 2, 3))
    ww = Violation("CRCW-common", Kind.WRITE_WRITE, 2, "", "a", 5, (0, 4), (7, 8))
    many = Violation("EREW", Kind.WRITE_WRITE, 3, "", "a", 1, tuple(range(10)))
    assert [v.message for v in (rr, rw, ww, many)] == [
        "EREW forbids concurrent reads: processors 3 and 9 read keys[12] in step 4 "
        "(phase 'pbs/level 2')",
        "EREW forbids reading and writing one cell: processors 1, 2 and 3 read and write a[0] "
        "in step 1",
        "CRCW-common forbids disagreeing writes: processors 0 and 4 write 7 and 8 to a[5] "
        "in step 2",
        "EREW forbids concurrent writes: processors 0, 1, 2, 3, 4, 5, ... (10 in all) write a[1] "
        "in step 3",
    ]
    assert str(rr) == rr.message


def test_many_violations_are_named_without_a_loop_per_cell(run_steps: RunSteps) -> None:
    """Ten thousand clashing cells in one step give ten thousand exact records."""
    m = Machine("erew")
    n = 20_000
    a = m.array("a", values=np.zeros(n // 2, dtype=np.int64))
    pid = m.processors(n)
    run_steps(m, [Step(pid, reads=[Read(a, pid // 2)])])
    assert len(m.violations) == n // 2
    assert m.violations[-1] == Violation(
        "EREW", Kind.READ_READ, 1, "", "a", n // 2 - 1, (n - 2, n - 1)
    )


# ---- processors listed twice ------------------------------------------------------------------


@pytest.mark.parametrize(
    "ids",
    [
        [3, 1, 3],
        [2**40, 5, 2**40],
        [-1, 0, -1],
        [*range(40), 7],
        [*range(2**40, 2**40 + 30), 2**40],
        [*range(-(2**40), 2**40, 2**36), 2**36],
    ],
)
def test_distinct_processors_refuses_an_id_listed_twice_in_a_step(ids: list[int]) -> None:
    """With distinct_processors, an id twice in one step is refused (small, huge, negative
    and large steps alike)."""
    m = Machine("erew", distinct_processors=True)
    twice = ids[-1]
    message = (
        f"processor {twice} acts twice in step 1; a processor acts at most once per step, so "
        "give each parallel branch its own processors (Machine.processors hands out fresh ones)"
    )
    with pytest.raises(StepError, match=whole(message)):
        m.execute([Step(np.array(ids, dtype=np.int64))])


@pytest.mark.parametrize("n", [2, 30])
def test_distinct_processors_refuses_an_id_shared_by_two_branches(n: int) -> None:
    """With distinct_processors, two branches acting with one id in one step are refused."""
    m = Machine("erew", distinct_processors=True)
    pid = m.processors(n)
    left = phase("left", iter_steps([Step(pid)]))
    right = phase("right", iter_steps([Step(pid[-1:])]))
    message = (
        f"processor {n - 1} acts twice in step 1 (phase 'right'); a processor acts at most once "
        "per step, so give each parallel branch its own processors (Machine.processors hands "
        "out fresh ones)"
    )
    with pytest.raises(StepError, match=whole(message)):
        m.run(parallel(left, right))


def test_distinct_processors_accepts_distinct_ids() -> None:
    """Distinct ids across branches pass the check, large steps included."""
    m = Machine("erew", distinct_processors=True)
    m.run(parallel(idle(2, 40, m), idle(1, 3, m)))
    assert m.cost.work == 2 * 40 + 3


@pytest.mark.parametrize(
    "ids", [[*range(2**40, 2**40 + 30)], [*range(-(2**40), 2**40, 2**36)], [*range(-15, 15)]]
)
def test_distinct_processors_accepts_distinct_ids_far_from_zero(ids: list[int]) -> None:
    """Ids far from zero, negative or spread wide pass the check when they are distinct."""
    m = Machine("erew", distinct_processors=True)
    m.execute(
        [
            Step(np.array(ids, dtype=np.int64)[: len(ids) // 2]),
            Step(np.array(ids, dtype=np.int64)[len(ids) // 2 :]),
        ]
    )
    assert m.cost.work == len(ids)


def test_ascending_branches_whose_ids_interleave_pass_when_distinct() -> None:
    """Two branches with ascending, interleaved but distinct ids (ranges overlap) pass."""
    m = Machine("erew")
    m.execute([Step(np.arange(0, 60, 2)), Step(np.arange(1, 60, 2))])
    assert m.cost.work == 60


def test_ascending_branches_sharing_one_id_are_refused() -> None:
    """Two branches with ascending ids, one in common, are refused (overlapping ranges)."""
    m = Machine("erew")
    message = "processor 40 acts twice in step 1; "
    with pytest.raises(StepError, match=message):
        m.execute([Step(np.arange(0, 60, 2)), Step(np.arange(39, 42))])


def test_ascending_ports_that_meet_at_one_cell_conflict() -> None:
    """Two ascending read ports whose ranges overlap at one cell are a violation there."""
    m = Machine("erew")
    a = m.array("a", values=np.zeros(100, dtype=np.int64))
    pid = m.processors(30)
    m.execute([Step(pid, reads=[Read(a, pid), Read(a, pid + 29)])])
    assert [(v.index, v.processors) for v in m.violations] == [(29, (0, 29))]


def test_the_check_is_on_by_default(m: Machine) -> None:
    """A machine refuses an id listed twice unless told otherwise."""
    assert m.distinct_processors
    with pytest.raises(StepError, match="processor 4 acts twice in step 1; "):
        m.execute([Step(ints(4, 4))])


def _or_by_one_id(m: Machine, n: int, where: int) -> tuple[Any, Any]:
    """An n-way OR by one processor id listed n times: it reads the n flags in one step and
    writes 1 where a flag is set, every write its own, so no two processors meet."""
    flags = np.zeros(n, dtype=np.int64)
    flags[where] = 1
    f = m.array("f", values=flags)
    out = m.array("out", values=ints(0))

    def program() -> Any:
        one = np.zeros(n, dtype=np.int64)
        (x,) = yield Step(one, reads=[Read(f, iota(n))])
        yield Step(one, writes=[Write(out, 0, 1, where=x == 1)])

    return m, program()


@pytest.mark.parametrize("off", [False, 0, None, np.False_])
def test_the_check_of_ids_listed_twice_cannot_be_turned_off(off: object) -> None:
    """Machine(distinct_processors=False) ran an n-way OR on EREW in 2 steps with no
    violation (one id listed n times, its writes to one cell reduced to its last, checked
    against no one): the check is always on, so the setting is refused, at the machine and
    as an attribute, and the same program on any machine is refused at its first step."""
    n = 64
    with pytest.raises(InputError, match=r"^distinct_processors must be True \(got "):
        Machine("erew", distinct_processors=off)  # type: ignore[arg-type]
    m = Machine("erew")
    with pytest.raises(InputError, match="drop distinct_processors=False"):
        m.distinct_processors = off  # type: ignore[assignment]
    assert m.distinct_processors is True
    for model in ("erew", "crew", "crcw-common"):
        machine, program = _or_by_one_id(Machine(model), n, 37)
        with pytest.raises(StepError, match="processor 0 acts twice in step 1; "):
            machine.run(program)
        assert machine.arrays["out"].to_numpy().tolist() == [0]


def test_a_phase_needs_a_label_and_a_program(m: Machine) -> None:
    """phase() refuses an empty label and a branch that is not a running program."""
    with pytest.raises(
        InputError, match=whole("a phase label must be a non-empty string (got '')")
    ):
        phase("", idle(1, 1, m))
    message = (
        "phase takes PRAM programs, i.e. generators yielding steps (got ['Step']); "
        "call the program function to make one"
    )
    with pytest.raises(InputError, match=whole(message)):
        phase("x", ["Step"])  # type: ignore[arg-type]


def test_parallel_needs_programs(m: Machine) -> None:
    """parallel() refuses a branch that is not a running program."""
    message = (
        "parallel takes PRAM programs, i.e. generators yielding steps (got 3); "
        "call the program function to make one"
    )
    with pytest.raises(InputError, match=whole(message)):
        m.run(parallel(idle(1, 1, m), 3))  # type: ignore[arg-type]


def test_a_large_array_starts_undefined_and_keeps_what_is_written(m: Machine) -> None:
    """An array of a million cells (pages of its own) reads back its writes and refuses an
    undefined read."""
    a = m.array("a", size=1 << 20)
    pid = m.processors(3)
    cells = np.array([0, 4096, (1 << 20) - 1])
    m.execute([Step(pid, writes=[Write(a, cells, pid + 7)])])
    assert a.to_numpy()[cells].tolist() == [7, 8, 9]
    assert int(a.to_numpy().sum()) == 7 + 8 + 9
    with pytest.raises(UndefinedReadError):
        m.execute([Step(pid[:1], reads=[Read(a, 1)])])


def test_a_step_made_but_not_yielded_is_reported_when_the_run_ends() -> None:
    """``Step(...)`` without ``yield`` does nothing: the run warns, naming how many, and the
    counts are those of the steps executed. Steps the machinery copies (a phase's label, the
    ids of processors chosen by data) and parallel branches are not reported."""
    import warnings

    from pram import StepNotYieldedWarning, hold, iota, parallel, phase

    m = Machine("erew")
    a = m.array("a", values=np.arange(4))

    def forgot(m: Machine) -> Any:
        pid = m.processors(4)
        Step(pid, writes=[Write(a, iota(4), 7)])  # not yielded: never executed
        Step(pid, writes=[Write(a, iota(4), 8)])
        (x,) = yield Step(pid, reads=[Read(a, iota(4))])
        return x

    with pytest.warns(StepNotYieldedWarning, match="^2 steps were made during the run but "
                      "never yielded"):
        m.run(forgot(m))
    assert (m.cost.time, m.cost.writes) == (1, 0) and a.to_numpy().tolist() == [0, 1, 2, 3]

    def honest(m: Machine) -> Any:
        pid = m.processors(4)
        (x,) = yield Step(pid, reads=[Read(a, iota(4))])
        who = hold(pid, pid)[x > 1]

        def branch(i: int) -> Any:
            return (yield Step(m.processors(1), reads=[Read(a, i)]))

        yield from phase("p", parallel(branch(0), branch(1)))
        yield Step(who, writes=[Write(a, hold(pid, iota(4))[x > 1], 0)])

    with warnings.catch_warnings():
        warnings.simplefilter("error", StepNotYieldedWarning)
        m.run(honest(m))


@pytest.mark.parametrize(("make", "words"), [
    (lambda: Machine(observer=5), "observer must be None or an object with methods step"),
    (lambda: Machine(mode="fast"), "mode must be 'collect' or 'raise' (got 'fast')"),
    (lambda: Machine(strict=3), "strict must be True or False (got 3)"),
    (lambda: Machine(fast_path="no"), "fast_path must be True or False (got 'no')"),
    (lambda: setattr(Machine(), "model", "crcw"), "model must be one of erew, crew"),
    (lambda: setattr(Machine(), "observer", object()), "observer must be None or an object"),
    (lambda: Machine().processors(2**62), "4,611,686,018,427,387,904 processors cannot be "
     "allocated on this machine; ask for fewer"),
    (lambda: iota(2**62), "ranks cannot be allocated on this machine; ask for fewer"),
])
def test_a_setting_or_size_that_cannot_work_is_refused_where_it_is_given(
    make: Callable[[], object], words: str
) -> None:
    """Each was accepted and failed later (an int observer at the first step, a model name
    assigned as a string inside a step) or leaked numpy's "array is too big"."""
    with pytest.raises(InputError, match=re.escape(words)):
        make()


def test_a_model_assigned_by_name_before_a_run_is_that_model() -> None:
    m = Machine()
    m.model = "crcw-priority"  # type: ignore[assignment]
    assert m.model.name == "CRCW-priority"


def test_a_made_machine_takes_no_new_setting_and_its_class_is_fixed() -> None:
    """m.mdoe = 'raise' (a typo) and m.seed = 5 were kept and read by nothing; a subclass of
    Machine told pram.sweep counts of its own (a cost property), and a module that set
    pram.Machine.array caught a declaration's inputs as the framework allocated them."""
    m = Machine()
    for name in ("mdoe", "seed"):
        with pytest.raises(InputError, match=f"a Machine has no setting '{name}'"):
            setattr(m, name, 5)
    m.mode = "raise"  # a setting, before a run
    assert m.mode == "raise"
    with pytest.raises(TypeError, match=r"pram\.Machine is final"):
        type("Cheaper", (Machine,), {"cost": property(lambda self: Cost())})
    with pytest.raises(TypeError, match=r"pram\.Array is final"):
        type("Mine", (Array,), {})
    for cls, name in ((Machine, "array"), (Machine, "run"), (Array, "to_numpy")):
        with pytest.raises(HonestyError, match=f"pram.{cls.__name__}.{name} = ... replaces"):
            setattr(cls, name, print)
        with pytest.raises(HonestyError, match="replaces what every run calls"):
            delattr(cls, name)


def fan_in_max(m: Machine, a: Any, n: int, fan_in: int) -> Any:
    """The maximum of a[0:n] into a[0] by a tree of fan-in ``fan_in``: each node reads its
    children in one step and writes their maximum in the next."""
    size = n
    while size > 1:
        nodes = -(-size // fan_in)
        pid = m.processors(nodes)
        children = yield Step(pid, reads=[
            Read(a, iota(nodes) * fan_in + j, iota(nodes) * fan_in + j < size)
            for j in range(fan_in)])
        best = children[0]
        for child in children[1:]:
            best = np.maximum(best, child)
        yield Step(pid, writes=[Write(a, iota(nodes), best)])
        size = nodes


@pytest.mark.parametrize("model", ["erew", "crew"])
def test_a_step_combines_at_most_max_accesses_values(model: str) -> None:
    """A processor combines at most MAX_ACCESSES cells a step: the maximum of 4,096 values by
    the widest tree, fan-in 8, takes 4 levels of two steps each (the binary tree 24), with no
    violation, and a node of fan-in 9 is refused. The docs say so (honesty.md)."""
    values = np.random.default_rng(3).integers(0, 10**6, 4096)
    steps = {}
    for fan_in in (2, MAX_ACCESSES):
        m = Machine(model)
        a = m.array("a", values=values)
        m.run(fan_in_max(m, a, 4096, fan_in))
        assert a.to_numpy()[0] == values.max() and m.violations == []
        steps[fan_in] = (m.cost.time, m.cost.rounds)
    assert steps == {2: (24, 12), 8: (8, 4)}
    m = Machine(model)
    with pytest.raises(StepError, match="asks each processor for 9 reads"):
        m.run(fan_in_max(m, m.array("a", values=values), 4096, MAX_ACCESSES + 1))


def pipelined_max(m: Machine, a: Any, n: int, reads: int) -> Any:
    """The maximum of a[0:n] into processor 0's register with ``reads`` reads a step and no
    tree: processor p's register covers a[k p : k p + R(t)] after step t (k = ``reads``),
    R(1) = k and R(2) = 2 k from the input, then each step reads k cells that processors
    wrote in the step before, each holding what its writer covered two steps back:
    R(t) = R(t - 1) + k R(t - 2). Each processor writes its register into k copies, one for
    each reader, alternating between two sets so that no cell is read and written at once."""
    k = reads
    count = n // k
    pid, p = m.processors(count), iota(count)
    copies = [[m.array(f"copy {s}.{j}", size=count) for j in range(k)] for s in range(2)]
    got = yield Step(pid, reads=[Read(a, k * p + j) for j in range(k)])
    best = got[0]
    for value in got[1:]:
        best = np.maximum(best, value)
    covered = [k]
    step = 2
    while covered[-1] < n:
        if step == 2:  # the input once more: no copy is written yet
            ports = [Read(a, k * p + k + j, k * p + k + j < n) for j in range(k)]
        else:
            offsets = [p + (covered[-1] + j * covered[-2]) // k for j in range(k)]
            ports = [Read(copies[step % 2][j], at, at < count)
                     for j, at in enumerate(offsets)]
        got = yield Step(pid, reads=ports, writes=[
            Write(copy, p, best) for copy in copies[(step + 1) % 2]])
        for value in got:
            best = np.maximum(best, value)
        covered.append(covered[-1] + k * (covered[-2] if step > 2 else 1))
        step += 1
    return best


@pytest.mark.parametrize("model", ["erew", "crew"])
def test_what_a_step_reads_bounds_how_soon_a_maximum_is_had(model: str) -> None:
    """With k reads a step, a register after step t depends on at most R(t) inputs, R(t) =
    R(t - 1) + k R(t - 2) (its own register and k cells, each written from a register of
    step t - 2), whatever the program: 2^t for k = 2, so log2 n steps, and fewer for more
    reads. A program that meets the recurrence, with no tree, takes the maximum of 4,096
    in 12 steps with 2 reads, 9 with 4 and 7 with MAX_ACCESSES = 8 (the fan-in-8 tree: 8),
    with no violation. The docs say so (honesty.md)."""
    values = np.random.default_rng(5).integers(0, 10**6, 4096)
    steps = {}
    for reads in (2, 4, MAX_ACCESSES):
        m = Machine(model)
        best = m.run(pipelined_max(m, m.array("a", values=values), 4096, reads))
        assert np.asarray(best)[0] == values.max() and m.violations == []
        steps[reads] = m.cost.time
        floor, covered = 0, [0, 0]  # R(t - 1) and R(t); a cell holds an input at least
        while covered[-1] < 4096:
            covered.append(covered[-1] + reads * max(covered[-2], 1))
            floor += 1
        assert m.cost.time == floor  # no program with this many reads a step does better
    assert steps == {2: 12, 4: 9, 8: 7}


def test_a_machine_keeps_large_blocks_on_glibc() -> None:
    """Making a machine sets glibc's malloc to keep blocks up to 1 GiB in the heap (a batched
    step's temporaries were mapped and page-faulted afresh each step); elsewhere it does
    nothing. The setting is made once and takes on every later call."""
    from pram.engine.heap import keep_large_blocks

    Machine()
    on_glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert keep_large_blocks() is on_glibc
    assert keep_large_blocks.cache_info().hits >= 1  # made once, by the first machine
