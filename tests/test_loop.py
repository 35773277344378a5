"""The loop test: one bit per test, charged as the read step it is, counted in the ledger."""

from __future__ import annotations

import numpy as np
import pytest

from pram import (
    InputError,
    Kind,
    Machine,
    Program,
    Step,
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


def test_tests_in_parallel_branches_and_phases() -> None:
    """Two branches test in one global step: one unit of time, two processors, each branch
    sent its own bit, the phase charged; a batch's rule: all cells read must hold the value."""
    m = Machine("crew")
    flags = m.array("flags", values=np.array([1, 0, 1]))

    def branch(m: Machine, index: int) -> Program[bool]:
        return (yield Until(flags, index, m.processors(1)))

    def batch(m: Machine) -> Program[bool]:
        return (yield Until(flags, np.array([0, 2]), m.processors(2)))

    got = m.run(phase("tests", parallel(branch(m, 0), branch(m, 1))))
    assert got == [True, False] and m.cost.time == 1 and m.cost.work == 2
    assert m.cost.phases["tests"].work == 2 and m.cost.loop_tests == 2
    assert m.run(batch(m)) is True and m.cost.loop_tests == 3


def test_a_test_is_checked_like_any_read() -> None:
    """Two control processors reading one cell under EREW are a violation; an undefined cell
    is refused; self-selected processors (a register) are accepted."""
    m = Machine("erew")
    flag = m.array("flag", values=np.array([1]))

    def two(m: Machine) -> Program[bool]:
        return (yield Until(flag, np.array([0, 0]), m.processors(2)))

    assert m.run(two(m)) is True
    assert [v.kind for v in m.violations] == [Kind.READ_READ]

    def chosen(m: Machine) -> Program[bool]:
        pid = m.processors(3)
        who = hold(pid, pid)[pid == pid[1]]
        return (yield Until(flag, 0, who))

    assert m.run(chosen(m)) is True and m.cost.work == 3

    blank = m.array("blank", size=1)

    def undefined(m: Machine) -> Program[bool]:
        return (yield Until(blank, 0, m.processors(1)))

    with pytest.raises(UndefinedReadError):
        m.run(undefined(m))


def test_a_value_that_is_not_a_word_is_refused() -> None:
    """``value`` must be an integer word."""
    m = Machine()
    flag = m.array("flag", values=np.array([1]))
    with pytest.raises(InputError, match=r"value of Until must be an integer word \(got 1.5\)"):
        Until(flag, 0, 0, value=1.5)  # type: ignore[arg-type]
