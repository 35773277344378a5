"""Ending a loop on a value in memory: the control unit reads a cell, and learns one bit.

The host runs a program's loops, and under the honesty rules it cannot look at memory; so a
loop that ends "when nothing changed" (connected components), or "when no list is linked"
(pointer jumping), needs the machine to tell it. :class:`Until` is that one machine step:

    done = yield Until(flag, index, control)

Cost model (the textbook's "the control unit reads a cell", JáJá 1992, chapter 1; in a
CRCW program a flag that any processor may have set, e.g. every processor that changed a
pointer writes 1 to ``flag[round]``): the step is a read step like any other, made by one
processor, the control unit: it is charged one unit of time, one unit of work and one read,
checked against the model like any read, and an undefined cell is refused (or recorded, with
``strict=False``) like any read. The program is then sent one bool, ``True`` when the cell
holds ``value``, and nothing else: exactly one bit per loop test, and the ledger counts the
tests (``Cost.loop_tests``). The values themselves never reach the host.

Only one processor tests, and only one test is made per machine step (one per instance of a
batch): a test over p processors, or p parallel branches each testing a cell, would be a p-way
AND (over processors chosen by data, an OR) in one step, where EREW and CREW need
Omega(log p) steps. Both are refused; an OR or AND over many processors is the program's own
steps (a tree, or a CRCW write the model checks), and then one cell is tested.

On a batched machine (``Machine(batch=B)``, :mod:`pram.batch`) each instance's control
processor reads its own cell, and each instance its own bit. While the instances agree the
program is sent their bit; where they disagree the batch follows those whose loop goes on (sent
False) and the others leave its path, idle uncharged, and are run again from the start of the
run in a pass of their own, so that every instance's counts equal its single run's whatever the
loop's shape (one pass per distinct sequence of bits among the instances).

>>> import numpy as np
>>> from pram import Machine, Step, Write
>>> m = Machine("crcw-common")
>>> flag = m.array("flag", values=np.zeros(1, dtype=np.int64))
>>> def count_down(m, flag):
...     pid, control = m.processors(4), m.processors(1)
...     rounds = 0
...     while True:
...         rounds += 1
...         yield Step(pid, writes=[Write(flag, 0, 1, where=pid < rounds - 1)])
...         if (yield Until(flag, 0, control)):
...             return rounds
>>> m.run(count_down(m, flag)), m.cost.loop_tests, m.cost.time
(2, 2, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from pram._numpy import np
from pram.errors import InputError, StepError
from pram.memory import Array, Words
from pram.registers import Register
from pram.step import Read, Step, loop_test


@loop_test
@attrs.frozen(slots=True, init=False)
class Until(Step):
    """A loop test: the one control processor ``processors`` (an id, or an array of one id)
    reads ``array[index]``; the program is sent ``True`` when the cell holds ``value`` (1 by
    default), else ``False``.

    A :class:`pram.Step` with one read and no write, so the engine checks and charges it as
    any read step; only its reply differs: one bool instead of the values read.
    """

    value: int = 1

    def __init__(
        self,
        array: Array,
        index: Words | Register | int,
        processors: Words | Register | int,
        *,
        value: int = 1,
        phase: str = "",
    ) -> None:
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise InputError(f"value of Until must be an integer word (got {value!r})")
        if not -(1 << 63) <= int(value) < 1 << 63:  # no cell holds it: the test is never True
            raise InputError(f"value of Until must be an integer word (got {value!r}, beyond "
                             "int64, which no cell holds)")
        who = _control(processors)
        self.__attrs_init__(who, (Read(array, index),), (), phase, int(value))

    def replace(
        self, *, processors: Words | Register | None = None, phase: str | None = None
    ) -> Until:
        """This test with other ``processors`` or in another ``phase`` (what :func:`pram.phase`
        and the engine's resolution of self-selected processors ask of a step)."""
        return Until(
            self.reads[0].array,
            self.reads[0].index,  # type: ignore[arg-type]  # flat: an Until reads a flat array
            self.processors if processors is None else processors,
            value=self.value,
            phase=self.phase if phase is None else phase,
        )



def _control(processors: Words | Register | int) -> Words:
    """The one control processor of a loop test, as words; anything else is refused.

    One processor reading one cell is the textbook's control unit. A test over p processors
    would be a p-way AND (and, over processors chosen by data, a p-way OR) in one step, which
    EREW and CREW need Omega(log p) steps for; a register of processors may be chosen by data,
    so only a number or an array of exactly one id is taken."""
    if isinstance(processors, bool):
        pass
    elif isinstance(processors, int | np.integer):
        return np.array([processors], dtype=np.int64)
    elif type(processors) is np.ndarray and processors.shape == (1,):
        return processors
    got = (f"{len(processors)} processors" if type(processors) is np.ndarray
           else f"a {type(processors).__name__}")
    raise InputError(
        f"a loop test (Until) is read by one control processor, but it was given {got}: "
        "combine the flags into one cell first (a tree of steps, or a CRCW write of 1 by every "
        "processor that sets it), then test that cell with m.processors(1)"
    )


def one_test(steps: Sequence[Step], number: int) -> None:
    """Refuse a global step with more than one loop test: the machine has one control unit, and
    parallel branches each sending a bit would be a many-way AND or OR in one step."""
    count = sum(1 for step in steps if type(step) is Until)
    if count > 1:
        raise StepError(
            f"step {number} has {count} loop tests (Until) in parallel branches; the machine "
            "has one control unit, which reads one cell per step: combine the branches' flags "
            "into one cell in memory and test it once",
            number,
        )


def is_test(step: Any) -> bool:
    """Whether ``step`` is a loop test (:class:`Until`)."""
    return type(step) is Until


__all__ = ["Until", "is_test", "one_test"]
