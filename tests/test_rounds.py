"""Rounds, the textbooks' step, counted by the machine beside its steps.

A step that only reads followed by a step that only writes is one round, whichever
processors take them and whatever their phase labels (its work: the readers and the writers,
each processor once); every other step is a round by itself (:mod:`pram.engine.rounds`).
Here: the swap of two cells, Hillis and Steele's scan, each part of the rule, the EREW check
of a round, phases, loop tests, batches (every instance's rounds and round work its single
run's) and that no other count moved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from pram import Bundle, Machine, Program, Read, Step, Until, Write, hold, iota, parallel, phase
from pram.algorithms.primitives import segmented_scan
from tests.test_batch_loops import same_as_singles


def swap(m: Machine, a: Any) -> Program[None]:
    """Two processors swap two cells: each reads one, then writes it into the other."""
    pid = m.processors(2)
    (x,) = yield Step(pid, reads=(Read(a, np.array([0, 1])),))
    yield Step(pid, writes=(Write(a, np.array([1, 0]), x),))


def run_on_zeros(program: Callable[[Machine, Any], Program[None]], cells: int) -> Machine:
    """An EREW machine that ran ``program`` on an array ``a`` of ``cells`` zeros."""
    m = Machine("erew")
    m.run(program(m, m.array("a", values=np.zeros(cells, dtype=np.int64))))
    return m


def test_a_swap_is_one_round_of_two_processors() -> None:
    """Steps 2 and work 4, as before; rounds 1, and the round's work 2 (the two processors).
    On EREW: cell 0 is read by processor 0 and written by processor 1 in the one round, which
    the textbook's round allows (reads before writes), and the machine flags nothing."""
    m = Machine("erew")
    a = m.array("a", values=np.array([5, 7]))
    m.run(swap(m, a))
    assert a.to_numpy().tolist() == [7, 5]
    assert (m.cost.time, m.cost.work) == (2, 4)
    assert (m.cost.rounds, m.cost.round_work) == (1, 2)
    assert not m.violations
    assert m.cost.as_dict()["rounds"] == 1 and m.cost.as_dict()["round_work"] == 2


def hillis_steele(m: Machine, x: Any, n: int) -> Program[None]:
    """Hillis and Steele's scan (CREW): in round d = 1, 2, 4, ... processor i >= d reads
    x[i - d] and x[i], then writes their sum to x[i]. One read step and one write step a
    round, no set-up: log2 n rounds for n = 2^k."""
    d = 1
    while d < n:
        pid = m.processors(n - d)  # processor j stands for i = j + d
        i = d + iota(n - d)
        left, mine = yield Step(pid, reads=(Read(x, i - d), Read(x, i)))
        yield Step(pid, writes=(Write(x, i, left + mine),))
        d *= 2


@pytest.mark.parametrize("k", range(0, 9))
def test_hillis_steele_at_n_2_to_the_k_takes_log2_n_rounds(k: int) -> None:
    """rounds = log2 n (the textbook's, Hillis and Steele 1986), time 2 log2 n, and the
    rounds' work the readers of each round: sum over d of n - d."""
    n = 1 << k
    values = np.arange(1, n + 1)
    m = Machine("crew")
    x = m.array("x", values=values)
    m.run(hillis_steele(m, x, n))
    assert x.to_numpy().tolist() == np.cumsum(values).tolist()
    assert m.cost.rounds == k
    assert m.cost.time == 2 * k
    assert m.cost.round_work == sum(n - (1 << r) for r in range(k))
    assert m.cost.work == 2 * m.cost.round_work
    assert not m.violations


@pytest.mark.parametrize("k", range(1, 9))
def test_the_segmented_scan_has_one_set_up_round(k: int) -> None:
    """The project's EREW doubling scan (:func:`segmented_scan`) reads each processor's pair
    first (a read step followed by another read step: a round by itself), then log2 n rounds
    of a read and a write."""
    n = 1 << k
    m = Machine("erew")
    values = m.array("v", values=np.arange(n))
    flags = m.array("f", values=np.zeros(n, dtype=np.int64))
    m.run(segmented_scan(m, values, flags, n))
    assert values.to_numpy().tolist() == np.cumsum(np.arange(n)).tolist()
    assert (m.cost.rounds, m.cost.time) == (1 + k, 1 + 2 * k)


@pytest.mark.parametrize(("processors", "writers", "cells", "round_work"), [
    # processors 0 and 1 read, 1 and 2 write: processor 1 counted once in the round
    pytest.param(3, slice(1, None), [0, 1], 3, id="writers-not-among-the-readers-join"),
    # two processors read, two others write: one round of four processors
    pytest.param(4, slice(2, None), [2, 3], 4, id="writers-apart-from-the-readers"),
])
def test_writers_after_two_readers_make_one_round_of_both(
    processors: int, writers: slice, cells: list[int], round_work: int
) -> None:
    """Processors 0 and 1 read, then ``writers`` write ``cells``: one round (a read step,
    then a write step), whose work is the processors active in it, each counted once; the
    steps' work is 4 as before."""

    def program(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(processors)
        yield Step(pid[:2], reads=(Read(a, np.array([0, 1])),))
        yield Step(pid[writers], writes=(Write(a, np.array(cells), 9),))

    m = run_on_zeros(program, max(cells) + 1)
    assert (m.cost.rounds, m.cost.round_work, m.cost.time, m.cost.work) == (1, round_work, 2, 4)


def test_fewer_writers_than_readers_join_the_round() -> None:
    """Writers a part of the readers (ids of another array, the same values): one round,
    its work the three readers."""

    def program(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(3)
        yield Step(pid, reads=(Read(a, iota(3)),))
        yield Step(np.array([pid[2], pid[0]]), writes=(Write(a, np.array([0, 1]), 4),))

    m = run_on_zeros(program, 3)
    assert (m.cost.rounds, m.cost.round_work, m.cost.time, m.cost.work) == (1, 3, 2, 5)


def test_a_step_that_reads_and_writes_is_a_round_by_itself() -> None:
    """Read, then read-and-write, then write: the middle step neither joins nor opens a
    round (it writes), so the last stands alone too: three rounds."""

    def program(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(2)
        yield Step(pid, reads=(Read(a, iota(2)),))
        yield Step(pid, reads=(Read(a, iota(2)),), writes=(Write(a, iota(2) + 2, 1),))
        yield Step(pid, writes=(Write(a, iota(2), 3),))

    m = run_on_zeros(program, 4)
    assert (m.cost.rounds, m.cost.time) == (3, 3)


def test_two_reads_then_a_write_pair_the_last_read() -> None:
    """Read, read, write: the first read is a round alone, the second pairs with the write."""

    def program(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(2)
        yield Step(pid, reads=(Read(a, iota(2)),))
        yield Step(pid, reads=(Read(a, iota(2)),))
        yield Step(pid, writes=(Write(a, iota(2), 3),))
        yield Step(pid, writes=(Write(a, iota(2), 4),))  # a write after a write: alone

    m = run_on_zeros(program, 2)
    assert (m.cost.rounds, m.cost.round_work, m.cost.time) == (3, 6, 4)


def test_a_round_spanning_two_phases_is_a_round_of_each() -> None:
    """A read in one phase and a write in another are one round of the run; each phase
    counts it with the processors of its own step, and a phase around both counts it once,
    its work the readers and the writers each once."""

    def split(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(3)
        yield from phase("reading", _read(a, pid[:2]))
        yield from phase("writing", _write(a, pid[1:]))

    def _read(a: Any, pid: Any) -> Program[None]:
        yield Step(pid, reads=(Read(a, iota(2)),))

    def _write(a: Any, pid: Any) -> Program[None]:
        yield Step(pid, writes=(Write(a, iota(2), 1),))

    m = Machine("erew")
    a = m.array("a", values=np.zeros(2, dtype=np.int64))
    m.run(phase("outer", split(m, a)))
    assert (m.cost.rounds, m.cost.round_work, m.cost.time, m.cost.work) == (1, 3, 2, 4)
    shares = {label: (share.rounds, share.round_work, share.time, share.work)
              for label, share in m.cost.phases.items()}
    assert shares == {"outer": (1, 3, 2, 4), "outer/reading": (1, 2, 1, 2),
                      "outer/writing": (1, 2, 1, 2)}
    m = Machine("erew")
    a = m.array("a", values=np.zeros(2, dtype=np.int64))
    m.run(phase("both", swap(m, a)))
    assert m.cost.rounds == 1
    share = m.cost.phases["both"]
    assert (share.rounds, share.round_work, share.time, share.work) == (1, 2, 2, 4)


def test_a_loop_test_opens_no_round() -> None:
    """The loop test's bit goes to the host, not to a processor: the write after it is a
    round by itself, even by the control processor that read."""

    def program(m: Machine, a: Any) -> Program[None]:
        control = m.processors(1)
        yield Until(a, 0, control)
        yield Step(control, writes=(Write(a, 0, 1),))

    m = run_on_zeros(program, 1)
    assert (m.cost.rounds, m.cost.time, m.cost.loop_tests) == (2, 2, 1)


def test_a_round_never_spans_two_runs() -> None:
    """A run ending on a read and the next starting with a write: two rounds."""

    def reading(m: Machine, a: Any) -> Program[None]:
        yield Step(m.processors(1), reads=(Read(a, 0),))

    def writing(m: Machine, a: Any) -> Program[None]:
        yield Step(m.processors(1), writes=(Write(a, 0, 1),))

    m = Machine("erew")
    a = m.array("a", values=np.zeros(1, dtype=np.int64))
    m.run(reading(m, a))
    m.run(writing(m, a))
    assert (m.cost.rounds, m.cost.time) == (2, 2)


def choosing(
    cells: int, *, readers_above: int, writers_above: int
) -> Callable[[Machine, dict[str, Any]], Program[None]]:
    """A batch's program on ``cells`` processors that choose themselves by data: each reads
    its cell of ``a``, those whose value is above ``readers_above`` read it again, then those
    above ``writers_above`` write 0 into it."""

    def make(m: Machine, arrays: dict[str, Any]) -> Program[None]:
        a = arrays["a"]
        pid = m.processors(cells)
        (x,) = yield Step(pid, reads=(Read(a, iota(cells)),))
        readers = hold(pid, pid)[x > readers_above]
        yield Step(readers, reads=(Read(a, hold(readers, readers) - pid[0]),))
        writers = hold(pid, pid)[x > writers_above]
        yield Step(writers, writes=(Write(a, hold(writers, writers) - pid[0], 0),))

    return make


def test_a_batch_counts_every_instance_its_single_runs_rounds() -> None:
    """Processors that choose themselves by data: instance by instance, the writers are
    among the readers or not, and each instance's rounds and round work (the readers and
    the writers, each once) are its single run's."""

    rows = np.array([[5, 6, 1, 1], [3, 6, 1, 1], [0, 0, 0, 0], [9, 9, 9, 9]])
    m = same_as_singles(choosing(4, readers_above=4, writers_above=2), {"a": rows})
    # Every instance: the first read alone (4 processors), then a read and a write joined;
    # the joined round's work, instance by instance: readers {0, 1} and writers {0, 1}: 2;
    # readers {1}, writers {0, 1}: 2 (processor 0 added); none and none: 0; all and all: 4.
    assert [c.rounds for c in m.costs] == [2, 2, 2, 2]
    assert [c.round_work for c in m.costs] == [6, 6, 4, 8]
    assert [c.time for c in m.costs] == [3, 3, 3, 3]


def test_a_batch_of_the_swap_and_of_the_scan() -> None:
    """Every instance of a batch counts the rounds its single run counts."""
    rows = np.arange(8).reshape(4, 2)
    m = same_as_singles(lambda m, arrays: swap(m, arrays["a"]), {"a": rows})
    assert [(c.rounds, c.round_work) for c in m.costs] == [(1, 2)] * 4
    rows = np.arange(32).reshape(4, 8)
    m = same_as_singles(lambda m, arrays: hillis_steele(m, arrays["x"], 8), {"x": rows},
                        model="crew")
    assert [c.rounds for c in m.costs] == [3] * 4


def test_a_batch_whose_branches_share_processors_chosen_apart() -> None:
    """Two branches of one step whose processors chose themselves by data, each processor in
    one branch or the other (a batch lists both at full width): each instance's writers are
    found among its readers in whichever branch read, as in its single run."""

    def side(m: Machine, a: Any, who: Any, offset: int) -> Program[None]:
        (got,) = yield Step(who, reads=(Read(a, hold(who, who) - offset),))
        again = hold(who, who)[got >= 0]  # the same processors, chosen again
        yield Step(again, writes=(Write(a, hold(again, again) - offset, 1),))

    def make(m: Machine, arrays: dict[str, Any]) -> Program[None]:
        a = arrays["a"]
        pid = m.processors(4)
        (x,) = yield Step(pid, reads=(Read(a, iota(4)),))
        yield from parallel(side(m, a, hold(pid, pid)[x > 4], int(pid[0])),
                            side(m, a, hold(pid, pid)[x <= 4], int(pid[0])))

    rows = np.array([[5, 6, 1, 1], [3, 6, 7, 1], [0, 0, 0, 0], [9, 9, 9, 9]])
    m = same_as_singles(make, {"a": rows})
    assert [c.rounds for c in m.costs] == [2] * 4


def test_the_trace_numbers_each_step_with_its_round() -> None:
    """A traced step carries the ledger's rounds after it, the round it is part of: the
    swap's read and write are both round 1, and the trace's totals count one round."""
    m = Machine("erew", trace=True)
    a = m.array("a", values=np.array([5, 7]))
    m.run(swap(m, a))
    assert [s.rounds for s in m.trace.steps] == [1, 1]
    assert [s["rounds"] for s in m.trace.as_dict()["steps"]] == [1, 1]
    assert m.trace.totals()["rounds"] == m.cost.rounds == 1


def test_a_write_after_a_read_by_nobody() -> None:
    """A read step of no processor, then a write: one round, its work the writer; and in a
    batch, each instance's round work its own writers."""

    def program(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(2)
        yield Step(pid[:0], reads=(Read(a, iota(0)),))
        yield Step(pid[:1], writes=(Write(a, 0, 1),))

    m = run_on_zeros(program, 2)
    assert (m.cost.rounds, m.cost.round_work, m.cost.time) == (1, 1, 2)

    # nobody reads a second time (no value above 100), some write
    m = same_as_singles(choosing(2, readers_above=100, writers_above=4),
                        {"a": np.array([[5, 1], [1, 1]])})
    assert [(c.rounds, c.round_work) for c in m.costs] == [(2, 3), (2, 2)]


def test_branches_in_phases_of_their_own() -> None:
    """Two branches in phases ``a`` and ``b`` read (a round by itself: the next step reads
    too); then they read again, phase ``a``'s processors chosen by the values they read, and
    the next global step, of three branches in ``a``, ``b`` and ``c``, writes: one round of
    the four processors. Each phase counts it with its own branches' processors, each once:
    ``a`` read {0, 1} and wrote {1, 2} (3), ``b`` read {2, 3} and wrote {3} (2), and ``c``,
    which holds no reading branch, counts the round of its writer {0} by itself (1). In a
    batch every instance's ledger is its single run's, phase by phase."""

    def make(m: Machine, arrays: dict[str, Any]) -> Program[None]:
        a = arrays["a"]
        pid = m.processors(4)
        left, right = pid[:2], pid[2:]
        (x,), _ = yield Bundle((Step(left, reads=(Read(a, iota(2)),), phase="a"),
                                Step(right, reads=(Read(a, iota(2) + 2),), phase="b")))
        chosen = hold(left, left)[x > 4]
        yield Bundle((Step(chosen, reads=(Read(a, hold(chosen, chosen) - pid[0]),), phase="a"),
                      Step(right, reads=(Read(a, iota(2) + 2),), phase="b")))
        yield Bundle((Step(pid[1:3], writes=(Write(a, iota(2), 1),), phase="a"),
                      Step(pid[3:], writes=(Write(a, 2, 1),), phase="b"),
                      Step(pid[:1], writes=(Write(a, 3, 1),), phase="c")))

    m = Machine("erew")
    a = m.array("a", values=np.array([5, 6, 0, 0]))
    m.run(make(m, {"a": a}))
    assert (m.cost.rounds, m.cost.round_work, m.cost.time, m.cost.work) == (2, 8, 3, 12)
    assert {label: (share.rounds, share.round_work)
            for label, share in m.cost.phases.items()} == {"a": (2, 5), "b": (2, 4),
                                                          "c": (1, 1)}
    rows = np.array([[5, 6, 0, 0], [0, 6, 0, 0], [0, 0, 0, 0], [9, 0, 9, 9]])
    m = same_as_singles(make, {"a": rows})
    # Phase a's part of the joined round: its readers {0, 1}, {1}, none, {0} and its
    # writers {1, 2}: 3, 2, 2, 3; the run's: always the four processors.
    assert [c.phases["a"].round_work for c in m.costs] == [5, 4, 4, 5]
    assert [c.round_work for c in m.costs] == [8] * 4
