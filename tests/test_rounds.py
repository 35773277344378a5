"""Rounds, the textbooks' step, counted by the machine beside its steps.

A step that only reads and the step after it that only writes, by processors among the
readers, in the same phase, are one round (its work: the readers); every other step is a
round by itself (:mod:`pram.engine.rounds`). Here: the swap of two cells, Hillis and Steele's
scan, each part of the rule, the EREW check of a round, phases, loop tests, batches (every
instance's rounds its single run's) and that no other count moved.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pram import Machine, Program, Read, Step, Until, Write, hold, iota, parallel, phase
from pram.algorithms.primitives import segmented_scan
from tests.test_batch_loops import same_as_singles


def swap(m: Machine, a: Any) -> Program[None]:
    """Two processors swap two cells: each reads one, then writes it into the other."""
    pid = m.processors(2)
    (x,) = yield Step(pid, reads=(Read(a, np.array([0, 1])),))
    yield Step(pid, writes=(Write(a, np.array([1, 0]), x),))


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


def test_writers_not_among_the_readers_make_two_rounds() -> None:
    """Processor 2 did not read: it cannot have computed from the round's reads, so the
    write step is a round by itself."""

    def program(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(3)
        yield Step(pid[:2], reads=(Read(a, np.array([0, 1])),))
        yield Step(pid[1:], writes=(Write(a, np.array([0, 1]), 9),))

    m = Machine("erew")
    a = m.array("a", values=np.zeros(2, dtype=np.int64))
    m.run(program(m, a))
    assert (m.cost.rounds, m.cost.round_work, m.cost.time, m.cost.work) == (2, 4, 2, 4)


def test_fewer_writers_than_readers_join_the_round() -> None:
    """Writers a part of the readers (ids of another array, the same values): one round,
    its work the three readers."""

    def program(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(3)
        yield Step(pid, reads=(Read(a, iota(3)),))
        yield Step(np.array([pid[2], pid[0]]), writes=(Write(a, np.array([0, 1]), 4),))

    m = Machine("erew")
    a = m.array("a", values=np.zeros(3, dtype=np.int64))
    m.run(program(m, a))
    assert (m.cost.rounds, m.cost.round_work, m.cost.time, m.cost.work) == (1, 3, 2, 5)


def test_a_step_that_reads_and_writes_is_a_round_by_itself() -> None:
    """Read, then read-and-write, then write: the middle step neither joins nor opens a
    round (it writes), so the last stands alone too: three rounds."""

    def program(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(2)
        yield Step(pid, reads=(Read(a, iota(2)),))
        yield Step(pid, reads=(Read(a, iota(2)),), writes=(Write(a, iota(2) + 2, 1),))
        yield Step(pid, writes=(Write(a, iota(2), 3),))

    m = Machine("erew")
    a = m.array("a", values=np.zeros(4, dtype=np.int64))
    m.run(program(m, a))
    assert (m.cost.rounds, m.cost.time) == (3, 3)


def test_two_reads_then_a_write_pair_the_last_read() -> None:
    """Read, read, write: the first read is a round alone, the second pairs with the write."""

    def program(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(2)
        yield Step(pid, reads=(Read(a, iota(2)),))
        yield Step(pid, reads=(Read(a, iota(2)),))
        yield Step(pid, writes=(Write(a, iota(2), 3),))
        yield Step(pid, writes=(Write(a, iota(2), 4),))  # a write after a write: alone

    m = Machine("erew")
    a = m.array("a", values=np.zeros(2, dtype=np.int64))
    m.run(program(m, a))
    assert (m.cost.rounds, m.cost.round_work, m.cost.time) == (3, 6, 4)


def test_a_round_stays_in_its_phase() -> None:
    """A read in one phase and a write in another do not pair; within one phase they do, and
    the phase's share counts the round once."""

    def split(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(2)
        yield from phase("reading", _read(a, pid))
        yield from phase("writing", _write(a, pid))

    def _read(a: Any, pid: Any) -> Program[None]:
        yield Step(pid, reads=(Read(a, iota(2)),))

    def _write(a: Any, pid: Any) -> Program[None]:
        yield Step(pid, writes=(Write(a, iota(2), 1),))

    m = Machine("erew")
    a = m.array("a", values=np.zeros(2, dtype=np.int64))
    m.run(split(m, a))
    assert m.cost.rounds == 2
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

    m = Machine("erew")
    a = m.array("a", values=np.zeros(1, dtype=np.int64))
    m.run(program(m, a))
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


def test_a_batch_counts_every_instance_its_single_runs_rounds() -> None:
    """Processors that choose themselves by data: instance by instance, the writers are
    among the readers or not, and each instance's rounds are its single run's."""

    def make(m: Machine, arrays: dict[str, Any]) -> Program[None]:
        a = arrays["a"]
        pid = m.processors(4)
        (x,) = yield Step(pid, reads=(Read(a, iota(4)),))
        readers = hold(pid, pid)[x > 4]
        yield Step(readers, reads=(Read(a, hold(readers, readers) - pid[0]),))
        writers = hold(pid, pid)[x > 2]
        yield Step(writers, writes=(Write(a, hold(writers, writers) - pid[0], 0),))

    rows = np.array([[5, 6, 1, 1], [3, 6, 1, 1], [0, 0, 0, 0], [9, 9, 9, 9]])
    m = same_as_singles(make, {"a": rows})
    rounds = [c.rounds for c in m.costs]
    # instance 0: readers {0, 1}, writers {0, 1}: joined; 1: readers {1}, writers {0, 1}: not;
    # 2: no reader, no writer: joined (no writer to be missing); 3: all, all: joined.
    assert rounds == [2, 3, 2, 2]
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
    """A read step of no processor, then a write: the writer did not read, two rounds; and
    in a batch, the instances whose writers chose none join (no writer is missing)."""

    def program(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(2)
        yield Step(pid[:0], reads=(Read(a, iota(0)),))
        yield Step(pid[:1], writes=(Write(a, 0, 1),))

    m = Machine("erew")
    a = m.array("a", values=np.zeros(2, dtype=np.int64))
    m.run(program(m, a))
    assert (m.cost.rounds, m.cost.time) == (2, 2)

    def make(m: Machine, arrays: dict[str, Any]) -> Program[None]:
        a = arrays["a"]
        pid = m.processors(2)
        (x,) = yield Step(pid, reads=(Read(a, iota(2)),))
        nobody = hold(pid, pid)[x > 100]
        yield Step(nobody, reads=(Read(a, hold(nobody, nobody) - pid[0]),))
        some = hold(pid, pid)[x > 4]
        yield Step(some, writes=(Write(a, hold(some, some) - pid[0], 0),))

    m = same_as_singles(make, {"a": np.array([[5, 1], [1, 1]])})
    assert [c.rounds for c in m.costs] == [3, 2]
