"""The loop test: one bit per test, charged as the read step it is, counted in the ledger."""

from __future__ import annotations

import numpy as np
import pytest

from pram import (
    InputError,
    Machine,
    Program,
    Read,
    Step,
    StepError,
    UndefinedReadError,
    Until,
    Write,
    hold,
    parallel,
    phase,
)
from pram.memory import Array


def countdown(m: Machine, counter: Array, n: int) -> Program[int]:
    """Each round one more of n processors writes 1 to its cell; the loop ends when the last
    cell is 1 (the loop test reads it), so the rounds are n: found from memory."""
    pid, control = m.processors(n), m.processors(1)
    rounds = 0
    while True:
        yield Step(pid, writes=[Write(counter, pid - pid[0], 1, where=pid - pid[0] == rounds)])
        rounds += 1
        done = yield Until(counter, n - 1, control)
        assert done is True or done is False  # one bit, not the values read
        if done:
            return rounds


def test_the_loop_ends_on_the_cell_and_each_test_is_a_charged_read() -> None:
    """n rounds, each a write step of n processors and a test: time 2n, work n n + n (one
    control processor reading each round), reads n, and n loop tests counted."""
    for n in (1, 5, 30):
        m = Machine("erew")
        counter = m.array("counter", values=np.zeros(n, dtype=np.int64))
        assert m.run(countdown(m, counter, n)) == n
        assert (m.cost.time, m.cost.work, m.cost.reads, m.cost.writes) == (2 * n, n * n + n, n, n)
        assert m.cost.loop_tests == n and m.violations == []


def test_the_value_asked_is_the_bit() -> None:
    """``value=0`` ends on a cell holding 0: the answer is whether the cell equals the value."""
    m = Machine()
    flag = m.array("flag", values=np.array([0, 3]))

    def ask(m: Machine) -> Program[list[bool]]:
        control = m.processors(1)
        answers = []
        for index, value in ((0, 0), (0, 1), (1, 3), (1, 0)):
            answers.append((yield Until(flag, index, control, value=value)))
        return answers

    assert m.run(ask(m)) == [True, False, True, False]


def test_one_test_per_step_and_its_phase_charged() -> None:
    """A test in a phase is charged to the phase; two parallel branches testing in one global
    step are refused (the machine has one control unit: two bits in one step would be a 2-way
    AND, and p branches a p-way AND or OR, which EREW and CREW need Omega(log p) steps for)."""
    m = Machine("crew")
    flags = m.array("flags", values=np.array([1, 0, 1]))

    def branch(m: Machine, index: int) -> Program[bool]:
        return (yield Until(flags, index, m.processors(1)))

    assert m.run(phase("tests", branch(m, 0))) is True
    assert (m.cost.time, m.cost.work, m.cost.loop_tests) == (1, 1, 1)
    assert m.cost.phases["tests"].work == 1
    with pytest.raises(StepError, match=r"step 2 has 2 loop tests \(Until\) in parallel branches"):
        m.run(parallel(branch(m, 0), branch(m, 1)))


def test_a_test_is_one_control_processor_reading_one_cell() -> None:
    """Several processors (an n-way AND in one step), a register of processors (chosen by
    data: an n-way OR), a bool are refused before any step; an undefined cell is refused like
    any read; an id or an array of one id is the control unit."""
    m = Machine("erew")
    flag = m.array("flag", values=np.array([1]))
    pid = m.processors(3)
    for who in (m.processors(2), hold(pid, pid)[pid == pid[1]], hold(pid, pid), True,
                np.array([[1]])):
        with pytest.raises(InputError, match="one control processor"):
            Until(flag, 0, who)  # type: ignore[arg-type]

    def one(m: Machine) -> Program[bool]:
        return (yield Until(flag, 0, 7))

    assert m.run(one(m)) is True and m.cost.work == 1 and m.violations == []
    blank = m.array("blank", size=1)

    def undefined(m: Machine) -> Program[bool]:
        return (yield Until(blank, 0, m.processors(1)))

    with pytest.raises(UndefinedReadError):
        m.run(undefined(m))


def test_the_maximum_of_many_values_cannot_be_had_from_loop_tests() -> None:
    """The cheat the rule stops: "every value is below t" as one test of n processors, bisected
    over t, found the maximum of 4,096 values in 6 steps on EREW. Now refused outright."""
    m = Machine("erew")
    values = m.array("values", values=np.arange(4096) % 16)
    flags = m.array("flags", size=4096)

    def cheat(m: Machine) -> Program[int]:
        pid = m.processors(4096)
        (v,) = yield Step(pid, reads=[Read(values, pid)])
        yield Step(pid, writes=[Write(flags, pid, np.where(v < 8, 1, 0))])
        return int((yield Until(flags, pid, pid)))

    with pytest.raises(InputError, match="given 4096 processors"):
        m.run(cheat(m))


def test_a_value_that_is_not_a_word_is_refused() -> None:
    """``value`` must be an integer word."""
    m = Machine()
    flag = m.array("flag", values=np.array([1]))
    with pytest.raises(InputError, match=r"value of Until must be an integer word \(got 1.5\)"):
        Until(flag, 0, 0, value=1.5)  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"\(got 1180591620717411303424, beyond int64, which "
                       r"no cell holds\)"):
        Until(flag, 0, 0, value=2**70)  # it was taken, and the test never answered True
