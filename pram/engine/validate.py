"""Validation at the boundary: a step's ports as the engine's words, or a one-line refusal.

Every function here either returns a port's index, value or mask in the one form the engine
works on (an int64 array of one entry per acting processor) or raises :class:`StepError` or
:class:`HonestyError` naming the value and the fix. Each begins with the same first branch,
:func:`_as_words`: the usual argument (a word array of the step's shape, or a register of
exactly the step's processors) passes with no conversion; the fast path of the engine asks
exactly that predicate, so the two paths cannot disagree on what a usual argument is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy.typing as npt

from pram._held import owners_of as _owners_of
from pram._held import raw_of as _raw_of
from pram._numpy import np
from pram.engine.refusals import (
    INT64_MAX,
    INT64_MIN,
    cells,
    describe,
    outside_shape,
    reals_into_words,
    refuse_index,
    refuse_key,
    refuse_mask,
    refuse_per_processor,
    too_wide,
    too_wide_index,
)
from pram.errors import HonestyError, StepError
from pram.memory import REAL, WORD, Array, Flags, Words
from pram.registers import THROUGH_MEMORY, Register
from pram.registers.ids import Chosen, freeze, same_choice, same_memory, same_processors
from pram.run import Run
from pram.step import Read, Step, Write, is_step


class Port:
    """One :class:`Read` or :class:`Write` of one step, validated: its indices (and values)
    as words, compressed to the processors its ``where`` mask selects."""

    __slots__ = (
        "array", "ascending", "branch", "index", "is_write", "rank", "step", "value", "where"
    )

    def __init__(
        self,
        step: Step,
        branch: int,
        rank: int,
        array: Array,
        index: Words,
        where: Flags | None,
        value: Words | None,
    ) -> None:
        self.step = step
        self.branch = branch
        #: The rank of the step's first processor in the global step.
        self.rank = rank
        self.array = array
        self.index = index
        self.where = where
        self.value = value
        self.is_write = value is not None
        #: Whether the indices are known to be strictly ascending (so all distinct).
        self.ascending = False

    @property
    def processors(self) -> Words:
        """The ids of the processors that act through this port (for the checks that need
        them)."""
        pid = cast(Words, self.step.processors)  # word ids once the engine runs a step
        return pid if self.where is None else pid[self.where]

    #: Which of the port's indices act (those of a single machine's port all do: it holds
    #: the processors acting only; a batch's, :class:`pram.engine.views.BatchPort`, has a
    #: row of flags per instance).
    acting: Flags | None = None

    @property
    def spread(self) -> Flags | None:
        """The processors the values read are spread back to (the ``where`` mask), zeros
        between: the register of the step's processors."""
        return self.where

    def count(self) -> int:
        """The accesses through this port."""
        return len(self.index)


def word_ids(pid: Any) -> bool:
    """Whether a step's processors are already ids as the engine keeps them: a 1-d word array
    (plain, or :class:`pram.registers.ids.Chosen` by data)."""
    return (type(pid) is np.ndarray or type(pid) is Chosen) and pid.dtype is WORD \
        and pid.ndim == 1


def _as_words(x: Any, pid: Words, n: int, token: Run | None = None) -> Words | None:
    """``x`` as the ``n`` words of a step of processors ``pid`` if it needs no conversion (a
    word array of shape ``(n,)``, or a register of exactly these processors, of this run
    ``token`` or of none, holding one), else None. (:meth:`pram.engine.fast.FastPath._fast_one`
    writes out the test of a plain array: change both together.)"""
    if type(x) is Register:
        if _owners_of(x) is not pid or (x._run is not token and x._run is not None):
            return None
        x = _raw_of(x)
    if type(x) is not np.ndarray or x.dtype is not WORD or x.shape != (n,):
        return None
    return x


def word_constant(x: Any) -> bool:
    """Whether ``x`` is one integer that fits a word (a value every processor writes)."""
    return type(x) is int and INT64_MIN <= x <= INT64_MAX


def mask(where: Any, n: int, number: int, array: Array, pid: Words) -> Flags:
    """The ``where`` mask of a port into ``array`` as ``n`` flags."""
    opaque(where, pid, number, "the where mask of an access to", array)
    where = _owned(where, pid, number, "the where mask of an access to", array)
    if not isinstance(where, np.ndarray) or where.dtype != np.bool_ or where.shape != (n,):
        refuse_mask(where, n, number, array)
    return where


def opaque(x: Any, pid: Words, number: int, what: str, array: Array) -> None:
    """Refuse a plain array as ``what`` of an access to ``array`` by processors chosen by
    data, whatever its length: it would have to have one entry per processor, and their
    number is data (a length accepted for one input and refused for another tells it)."""
    if type(pid) is Chosen and isinstance(x, np.ndarray):
        raise HonestyError(
            f"{what} {array.name} in step {number} is a plain array, but the step's processors "
            "were chosen by data and their number is data; give a register of the same "
            "selection (select it with the same mask) or one integer"
        )


def presence(step_ports: Sequence[Any], pid: Words) -> Flags | None:
    """For a step of processors chosen by data (``pid``), the processors that hold every
    register among ``step_ports`` (an index, value or mask selected by another mask over the
    same processors, e.g. ``hold(pid, pid)[x > 5]`` acting with ``y[x > 5]``): None when all
    do. A processor that lacks an operand makes no such access; nothing is refused, so the
    program learns nothing from comparing the selections (which would be data)."""
    if type(pid) is not Chosen:
        return None
    held: Flags | None = None
    for x in _spread(step_ports):
        if type(x) is not Register or _owners_of(x) is pid:
            continue
        owners = _owners_of(x)
        if type(owners) is not Chosen or np.array_equal(owners.mask, pid.mask) \
                or not same_choice(owners.parent, pid.parent) \
                or owners.mask.shape != pid.mask.shape:
            continue  # the same selection, or refused by _own_register
        mine = owners.mask[pid.mask]
        held = mine if held is None else held & mine
    return held


def index(
    index: Any, n: int, number: int, array: Array, where: Flags | None, pid: Words
) -> Words:
    """A port's indices into ``array``, compressed to the processors ``where`` selects."""
    opaque(index, pid, number, "the index into", array)
    words = _as_words(index, pid, n, _any_run(index))
    if words is None:
        words = _converted_index(index, n, number, array, where, pid)
    return words if where is None else words[where]


def _converted_index(
    index: Any, n: int, number: int, array: Array, where: Flags | None, pid: Words
) -> Words:
    """An index that needs converting (a register, one integer, an array of another integer
    dtype) as one word per processor, or its refusal."""
    index = _owned(index, pid, number, "the index into", array)
    if isinstance(index, int | np.integer) and not isinstance(index, bool):
        if not INT64_MIN <= int(index) <= INT64_MAX:
            too_wide_index(int(index), number, array)
        return np.full(n, int(index), dtype=np.int64)
    if not isinstance(index, np.ndarray) or index.shape != (n,) or index.dtype.kind not in "iu":
        refuse_index(index, n, number, array)
    return _words(index, f"index into {array.name}", number, where,
                  f"{array.name} has {cells(array)}")


def value(
    value: Any, n: int, number: int, array: Array, where: Flags | None, pid: Words
) -> Words:
    """A port's values written to ``array``, compressed to the processors ``where`` selects."""
    opaque(value, pid, number, "the value written to", array)
    words = _as_words(value, pid, n, _any_run(value))
    if words is None and array.dtype is REAL:
        reals = cast(Words, _converted_real(value, n, number, array, where, pid))
        return reals if where is None else reals[where]
    if words is None:
        if isinstance(value, float | np.floating):
            reals_into_words(value, number, array)
        if isinstance(value, int | np.integer) and not isinstance(value, bool):
            if not word_constant(int(value)):
                too_wide(f"value written to {array.name}", int(value), number)
            return np.full(n if where is None else int(np.count_nonzero(where)), value, np.int64)
        words = _converted_value(value, n, number, array, where, pid)
    return words if where is None else words[where]


def _converted_value(
    value: Any, n: int, number: int, array: Array, where: Flags | None, pid: Words
) -> Words:
    """Values written to an int64 array that need converting (a register, an array of another
    integer dtype or of bools) as one word per processor, or the refusal (reals included:
    they are never truncated into words)."""
    value = _owned(value, pid, number, "the value written to", array)
    if isinstance(value, np.ndarray) and value.shape == (n,) and value.dtype.kind == "f":
        reals_into_words(value, number, array)
    if not isinstance(value, np.ndarray) or value.shape != (n,) or value.dtype.kind not in "iub":
        refuse_per_processor(f"value written to {array.name}", number, "an integer", n,
                             " or one integer", value)
    return _words(value, f"value written to {array.name}", number, where,
                  "use values below 2**63")


def _words(x: npt.NDArray[Any], subject: str, number: int, where: Flags | None,
           fix: str) -> Words:
    """Integers ``x`` of one step (an index or values written) as int64 words: unsigned ones
    above 2**63 - 1 refused as ``subject`` (naming the ``fix``) where ``where`` selects."""
    if x.dtype is WORD:
        return cast(Words, x)
    if x.dtype == np.uint64:
        fits(x, subject, number, where, fix)
    return x.astype(np.int64)


def _converted_real(
    value: Any, n: int, number: int, array: Array, where: Flags | None, pid: Words
) -> npt.NDArray[np.float64]:
    """A port's values written to the float64 ``array``: one number for every processor, or a
    register or array of numbers of one per processor (integers taken as the reals they are)."""
    if isinstance(value, int | float | np.integer | np.floating) and not isinstance(value, bool):
        return np.full(n, float(value), dtype=np.float64)
    value = _owned(value, pid, number, "the value written to", array)
    if not isinstance(value, np.ndarray) or value.shape != (n,) or value.dtype.kind not in "iuf":
        refuse_per_processor(f"value written to {array.name}", number, "a numeric", n,
                             " or one number", value)
    return value.astype(np.float64, copy=False)


def address(
    key: Any, n: int, number: int, array: Array, where: Flags | None, pid: Words, verb: str,
    phase: str = "",
) -> Words:
    """A port's cells in ``array``, compressed to the processors ``where`` selects: one index
    per processor into a flat array, a pair ``(i, j)`` into a two-dimensional one (row-major,
    each axis checked against the shape)."""
    flat = len(array.shape) == 1
    if flat and type(key) is not tuple:
        return index(key, n, number, array, where, pid)
    if flat or type(key) is not tuple or len(key) != 2:
        refuse_key(array, number)
    rows, columns = array.shape
    i = index(key[0], n, number, array, where, pid)
    j = index(key[1], n, number, array, where, pid)
    outside = (i < 0) | (i >= rows) | (j < 0) | (j >= columns)
    if outside.any():
        bad = int(np.flatnonzero(outside)[0])
        who = pid if where is None else pid[where]
        outside_shape(int(who[bad]), verb, array, int(i[bad]), int(j[bad]), number, phase)
    return cast(Words, i * columns + j)


def fits(x: Any, what: str, number: int, where: Flags | None, fix: str) -> None:
    """Refuse uint64 entries beyond int64, which a cast would silently wrap to negatives."""
    if x.dtype != np.uint64 or not len(x):
        return
    acting = x if where is None else x[where]
    if len(acting) and int(acting.max()) > INT64_MAX:
        too_wide(what, int(acting.max()), number, fix)




def _any_run(x: Any) -> Run | None:
    """The run of ``x`` if it is a register (checked against the step's run by
    :func:`this_run` before), so :func:`_as_words` takes it."""
    return x._run if type(x) is Register else None


def this_run(reads: Sequence[Read], writes: Sequence[Write], number: int,
             token: Run | None) -> None:
    """Refuse a register of another run (or machine) as an index, value or mask of step
    ``number``, which belongs to the run ``token``."""
    for port in (*reads, *writes):
        for x in _spread((getattr(port, "index", None), getattr(port, "value", None),
                          getattr(port, "where", None))):
            if type(x) is Register and x._run is not None and x._run is not token:
                raise HonestyError(
                    f"a register of another run (or machine) is used in step {number}; a "
                    f"register belongs to the run that made it: {THROUGH_MEMORY} (to a "
                    "later run: write them to memory before the run ends, and read them in "
                    "the next run)"
                )


def _spread(operands: Sequence[Any]) -> Sequence[Any]:
    """``operands`` with a pair of indices (into a two-dimensional array) as its two parts."""
    if not any(type(x) is tuple for x in operands):
        return operands
    spread: list[Any] = []
    for x in operands:
        spread.extend(x if type(x) is tuple else (x,))
    return spread


def processors_of(step: Any, number: int) -> Words:
    """The processors of ``step`` (one step of a bundle), or a refusal."""
    if not is_step(step):
        raise StepError(f"a Bundle must hold Step objects (got {step!r}) in step {number}", number)
    pid = step.processors
    if not word_ids(pid) and (
        not isinstance(pid, np.ndarray) or pid.ndim != 1 or pid.dtype.kind not in "iu"
    ):
        raise StepError(
            f"processors of step {number} must be a 1-d integer array (got {describe(pid)})",
            number,
        )
    return cast(Words, pid)


def _acting(steps: Sequence[Step], number: int, token: Run) -> list[Step]:
    """``steps`` with every register of processors (the processors that decided to act, each
    holding its own id) replaced by the ids it belongs to, and plain ids by ids in immutable
    memory (:func:`pram.registers.ids.freeze`): the registers a step's reads return are
    bound to them, so nothing may change them later."""
    result = []
    for step in steps:
        if not is_step(step):
            result.append(step)  # refused by the step's validation
            continue
        who = step.processors
        if type(who) is Register:
            if who._run is not token:
                raise HonestyError(
                    f"the processors of step {number} are a register of another run; "
                    "select the processors that act from hold(pid, pid) in this run"
                )
            owners = _owners_of(who)
            held = _raw_of(who)
            # hold(pid, pid)[mask] holds its ids as a plain view of them: the same memory
            if held is not owners and not same_memory(held, owners) \
                    and not np.array_equal(held, owners):
                raise HonestyError(
                    f"the processors of step {number} are a register that does not hold "
                    "processor ids; select the processors that act from hold(pid, pid) "
                    "with a mask"
                )
            step = (
                Step(cast(Words, owners), step.reads, step.writes, step.phase)
                if type(step) is Step
                else step.replace(processors=cast(Words, owners))  # type: ignore[attr-defined]
            )
        elif type(who) is np.ndarray and who.dtype.kind in "iu" and who.ndim == 1:
            frozen = freeze(who)
            if frozen is not who:
                step = (
                    Step(cast(Words, frozen), step.reads, step.writes, step.phase)
                    if type(step) is Step
                    else step.replace(processors=cast(Words, frozen))  # type: ignore[attr-defined]
                )
        result.append(step)
    return result


def _owned(x: Any, pid: Words, number: int, what: str, array: Array) -> Any:
    """``x`` itself, or if it is a register its contents, refused unless it belongs to the
    step's processors (:func:`_own_register`)."""
    return _own_register(x, pid, number, what, array) if isinstance(x, Register) else x


def _own_register(register: Register, pid: Words, number: int, what: str, array: Array) -> Any:
    """The contents of ``register`` (``what`` of an access to ``array``) if it belongs to the
    step's processors, in order. A register selected by another mask over the same
    processors as the step's (``hold(pid, pid)[x > 500]`` acting with ``y[x > 500]``, masks
    computed apart) is taken aligned with the step's processors, nothing compared in a way
    the program could observe: a processor that does not hold it makes no such access
    (:func:`presence`)."""
    owners = _owners_of(register)
    if type(owners) is Chosen and type(pid) is Chosen and owners is not pid \
            and owners.mask.shape == pid.mask.shape and same_choice(owners.parent, pid.parent):
        if np.array_equal(owners.mask, pid.mask):
            return _raw_of(register)
        # Another selection of the same processors: each processor of the step's selection
        # that holds the register takes its own value; the others make no such access
        # (presence() masks them), so their entry is 0.
        spread = np.zeros(owners.mask.shape, _raw_of(register).dtype)
        spread[owners.mask] = _raw_of(register)
        return spread[pid.mask]
    if owners is not pid and (type(owners) is Chosen or type(pid) is Chosen
                              or not same_processors(owners, pid)):
        raise HonestyError(
            f"{what} {array.name} in step {number} is a register of other processors than the "
            f"step's (or in another order); {THROUGH_MEMORY}"
        )
    return _raw_of(register)
