"""Register files: :func:`hold` makes a register from sizes; :func:`widen` and :func:`narrow`
go between processors chosen by data and those they were chosen from, moving no value.
"""

from __future__ import annotations

from typing import Any

from pram._held import owners_of as _owners_of
from pram._held import raw_of as _raw_of
from pram._numpy import np
from pram.errors import HonestyError
from pram.registers.allowed import ANOTHER_RUN, THROUGH_MEMORY, refuse
from pram.registers.ids import Chosen, Ids, freeze, same
from pram.registers.operations import made, operand
from pram.registers.register import Register
from pram.run import Run, current


def hold(processors: Ids | Register, values: Any = 0) -> Register:
    """A register of ``processors``, each holding its entry of ``values`` (computed from sizes).

    ``hold(pid, pid)`` gives every processor its own id. Selecting from it with a boolean
    register (``everyone[wants]``) gives the processors that decided to act, which a
    :class:`pram.Step` takes as its processors without the host learning who they are.

    ``values`` is a scalar or a plain array broadcastable to the processors' shape, or a
    register of the same processors. This is how a program starts a register file, e.g. one
    word per processor that later reads fill in with ``r[selection] = read``.
    """
    run = current()
    if type(processors) is Register:  # processors that decided to act: their own ids
        run = processors._run if processors._run is not None else run
        ids: Any = _owners_of(processors)
    elif type(processors) is np.ndarray and processors.dtype.kind in "iu":
        ids = freeze(processors)
    else:
        raise HonestyError(
            f"hold needs an integer array of processor ids (got {type(processors).__name__}); "
            "pass the ids Machine.processors handed out"
        )
    if values is processors and type(processors) is np.ndarray:
        result = Register(ids, ids, run)  # each processor holds its own id
    elif type(values) is Register:
        if values._run is not None and run is not None and values._run is not run:
            refuse("hold with a register of another run", ANOTHER_RUN)
        if _owners_of(values) is not ids and not same(_owners_of(values), ids):
            refuse("hold with a register of other processors", THROUGH_MEMORY)
        result = Register(_raw_of(values).copy(), ids, values._run or run)
    else:
        data = operand(Register, values, "hold", type(ids) is Chosen)
        if type(data) is np.ndarray and data.ndim:
            data = np.array(np.broadcast_to(data, ids.shape))
        else:
            data = np.full(ids.shape, data)
        result = Register(data, ids, run)
    if run is not None:
        run._operations += 1
        if run._observer is not None:
            run.operation("hold", (ids, values), result)
    return result


def widen(register: Register, fill: Any = 0) -> Register:
    """A register of the processors ``register``'s processors were chosen from: each chosen
    one holding its own value, every other ``fill``. No value moves: a processor that did not
    choose itself holds a constant. For a register whose processors were not chosen by data,
    a copy of it."""
    chosen = _owners_of(register)
    if type(chosen) is not Chosen:
        return register.copy()
    rows = getattr(chosen, "rows", None)
    if rows is not None:  # a batch's selection keeps the full width: fill the others
        fill = operand(Register, fill, "widen", False)
        values = _raw_of(register)
        data = np.where(rows, values, np.asarray(fill).astype(
            np.result_type(values.dtype, np.min_scalar_type(fill))))
        filled: Register = made(Register, "widen", (register, fill), data, chosen.parent,
                                register._run)
        return filled
    data = np.full(chosen.parent.shape, operand(Register, fill, "widen", False),
                   dtype=np.result_type(_raw_of(register).dtype, np.min_scalar_type(fill)))
    data[_raw_of(chosen.key)] = _raw_of(register)
    widened: Register = made(Register, "widen", (register, fill), data, chosen.parent,
                             register._run)
    return widened


def narrow(register: Register, like: Register) -> Register:
    """The entries of ``register`` for the processors ``like`` belongs to, when those were
    chosen from ``register``'s processors by data (the same mask selects them again)."""
    chosen = _owners_of(like)
    if type(chosen) is not Chosen:
        refuse("narrow like a register whose processors were not chosen by data",
               "select with a plain key instead")
    return register[chosen.key]  # type: ignore[no-any-return]


def chosen(register: Register) -> bool:
    """Whether ``register``'s processors chose themselves by their data (a selection by a
    register mask): a fact about how it was made, not about data."""
    return type(_owners_of(register)) is Chosen


def run_of(register: Register) -> Run | None:
    """The run ``register`` belongs to (None: made from sizes outside any run)."""
    return register._run



__all__ = ["chosen", "hold", "narrow", "run_of", "widen"]
