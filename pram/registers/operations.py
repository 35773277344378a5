"""The machinery behind a register's numpy protocol: operands checked against the allow-list,
raw values unwrapped, results wrapped as registers of the same processors and run, counted as
local work and told to the observer.

Nothing here imports the class (:mod:`pram.registers.register` imports this module): every
function that recognises or makes registers is given their class, ``kind`` (the register
at hand's, ``type(self)``: :class:`pram.Register` is final, so that is it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import numpy.typing as npt

from pram._held import engine_or_none as _engine_or_none
from pram._held import owners_of as _owners_of
from pram._held import put_raw as _put_raw
from pram._held import put_selections as _put_selections
from pram._held import raw_of as _raw_of
from pram._numpy import np
from pram.registers import allowed
from pram.registers.allowed import ANOTHER_RUN, THROUGH_MEMORY, refuse
from pram.registers.ids import Chosen, Ids, same
from pram.run import Run, live

if TYPE_CHECKING:
    from pram.registers.register import Register


def run_of(kind: type[Register], operands: Sequence[Any], *more: Any) -> Run | None:
    """The active run the registers among ``operands`` (and ``more``) belong to, or None when
    none belongs to an active run (then the operation works on plain values: output).
    Registers of two runs, or of a finished run beside an active one, are refused."""
    found: Run | None = None
    for x in (*operands, *more):
        if type(x) is kind:
            run = x._run
        elif type(x) in (list, tuple):
            run = run_of(kind, x)
        else:
            continue
        if run is None or run is found:
            continue
        sealed = live(run)  # a register of an ended run met in a later run is refused
        if found is None and sealed:
            found = run
            continue
        if found is not None or sealed:
            refuse("an operation on registers of two runs", ANOTHER_RUN)
    if found is None:
        return None
    for x in (*operands, *more):  # a finished run's register beside the active run
        if type(x) is kind and x._run is not None and x._run is not found:
            refuse("an operation on registers of two runs", ANOTHER_RUN)
    return found


def _after_run(kind: type[Register], func: Callable[..., Any], args: Sequence[Any],
               kwargs: dict[str, Any]) -> Any:
    """``func`` on the plain values of every register among ``args``: after a run only (a
    register of a run still going on is refused here too, whoever calls)."""

    def plain(x: Any) -> Any:
        if type(x) is kind:
            if x._run is not None and live(x._run):
                refuse(f"{getattr(func, '__name__', 'a function')} of a register",
                       allowed.ESCAPE)
            return _raw_of(x)
        if type(x) in (list, tuple):
            return type(x)(plain(y) for y in x)
        return x

    return func(*plain(args), **{k: plain(v) for k, v in kwargs.items()})


def numeric_dtype(dtype: Any, what: str) -> np.dtype[Any]:
    """``dtype`` resolved, if registers may hold it (bool, integers, floats, complex)."""
    try:
        resolved = np.dtype(dtype)
    except TypeError:
        resolved = np.dtype(object)
    if resolved.kind not in allowed.KINDS:
        refuse(f"{what} to {resolved}", "is not a numeric dtype; registers hold bool, "
               "integers, floats or complex (objects and strings would hand values to the "
               "host)")
    return resolved  # type: ignore[no-any-return]


def operand(kind: type[Register], value: Any, what: str, opaque: bool) -> Any:
    """A non-register operand: a number, or a plain numeric array of exactly that type (not
    beside processors chosen by data, whose number the array's shape would have to know)."""
    given = type(value)
    if given in allowed.SCALARS:
        return value
    if given is np.ndarray and value.dtype.kind in allowed.KINDS:
        if value.ndim and opaque:
            refuse(f"{what} with a plain array beside processors chosen by data",
                   "would need their number; use a scalar, or a register of the same "
                   "processors (hold)")
        return value
    if given in (list, tuple) and any(type(x) is kind for x in value):
        refuse(f"{what} with a sequence of registers", allowed.REASONS["concatenate"])
    refuse(f"{what} with an operand of type {given.__name__}", "is not a register, a number "
           "or a plain numeric numpy array; convert it with numpy.asarray(x, dtype=...) "
           "from sizes")


def _unwrap(kind: type[Register], name: str, operands: Sequence[Any],
           run: Run) -> tuple[list[Any], Ids]:
    """The raw operands of operation ``name``, and the processors every register among them
    belongs to (refusing other processors, other runs and operands off the allow-list)."""
    owners: Any = None
    for x in operands:
        if type(x) is kind:
            ids = _owners_of(x)
            if owners is None:
                owners = ids
            elif ids is not owners and not same(ids, owners):
                chosen = type(ids) is Chosen or type(owners) is Chosen
                refuse(f"np.{name} on registers of different processors",
                       "combines values of different processors"
                       + (" (registers chosen by data combine only when chosen by one mask "
                          "register: keep the mask and select each with it)" if chosen else "")
                       + f"; {THROUGH_MEMORY}")
            if x._run is not run and x._run is not None:
                refuse(f"np.{name} on registers of two runs", ANOTHER_RUN)
    opaque = type(owners) is Chosen
    raw: list[Any] = []
    for x in operands:
        if type(x) is kind:
            raw.append(_raw_of(x))
        elif x is None or isinstance(x, np.dtype):
            raw.append(x)
        else:
            plain = operand(kind, x, f"np.{name}", opaque)
            if type(plain) is np.ndarray and plain.ndim and owners is not None:
                _within(name, plain, owners, operands)
            raw.append(plain)
    return raw, owners


def _within(name: str, plain: npt.NDArray[Any], owners: Ids, operands: Sequence[Any]) -> None:
    """Refuse a plain operand that broadcasts beyond the registers' processors, by the shape
    a single machine's result would have (:func:`_spread`). On a batched machine a register
    holds one row per instance and a plain array is shared by every instance, so it must fit
    one instance's row: ``x + plain`` of shape ``(batch, n)`` would otherwise be taken as a
    row per instance and hand each instance values chosen by its position in the batch."""
    shape = owners.shape
    if plain.shape == shape or (plain.ndim <= len(shape) and all(
            d == 1 or d == e for d, e in zip(plain.shape[::-1], shape[::-1], strict=False))):
        return
    shapes = [shape] + [x.shape for x in operands if type(x) is np.ndarray]
    try:
        broadcast = np.broadcast_shapes(*shapes)
    except ValueError:
        return  # no shape at all: numpy refuses the operation itself, as on a single machine
    _spread(name, broadcast, owners)


def _spread(name: str, shape: tuple[int, ...], owners: Ids) -> NoReturn:
    """Refuse a result of ``shape`` from registers of ``owners``: the operand that made it
    broadcast over other processors."""
    given = f"shape {shape} from registers of shape {owners.shape}"
    if type(owners) is Chosen:
        given = "another shape from registers of processors chosen by data"
    refuse(
        f"np.{name} giving {given}",
        "spreads values over other processors (an operand broadcast beyond the "
        f"register's shape); {THROUGH_MEMORY}",
    )


def made(kind: type[Register], name: str, operands: tuple[Any, ...], values: Any, owners: Ids,
         run: Run | None) -> Any:
    """A register of ``owners`` (and ``run``) holding ``values``: counted and observed."""
    result = kind(values, owners, run)
    if run is not None:
        run._operations += 1
        if run._observer is not None:
            run.operation(name, operands, result)
    return result


def wrap(kind: type[Register], name: str, operands: tuple[Any, ...], result: Any, owners: Ids,
         run: Run) -> Any:
    """``result`` as register(s) of ``owners``, counted and observed; refuse other shapes."""
    if isinstance(result, tuple):
        wrapped: Any = tuple(_bound(kind, name, r, owners, run) for r in result)
    else:
        wrapped = _bound(kind, name, result, owners, run)
    run._operations += 1
    if run._observer is not None:
        run.operation(name, operands, wrapped)
    return wrapped


def batch_of(run: Run | None) -> int | None:
    """The instances of the batched machine ``run`` runs on (None: a single machine)."""
    return None if run is None else getattr(run._machine, "batch", None)


def kept(run: Run | None, before: Any, after: Any) -> Any:
    """``after``, a register's new values in place of ``before``, except in the rows of the
    instances of a batch idling in a loop they ended: a change in place during the loop's
    later rounds leaves their registers as they were, as in their single runs."""
    if run is None:
        return after
    engine = _engine_or_none(run._machine)
    alive = None if engine is None else engine.alive
    if alive is None or after.ndim < 2 or after.shape[0] != len(alive):
        return after
    shape = (len(alive),) + (1,) * (after.ndim - 1)
    return np.where(alive.reshape(shape), after, np.broadcast_to(before, after.shape))


def _bound(kind: type[Register], name: str, result: Any, owners: Ids, run: Run) -> Register:
    """``result`` as a register of ``owners``: of their shape (or a batch's, one row per
    instance) and numeric, else refused."""
    if type(result) is not np.ndarray or (result.shape != owners.shape and not (
            result.shape[1:] == owners.shape and result.ndim == owners.ndim + 1
            and result.shape[0] == batch_of(run))):
        _spread(name, getattr(result, "shape", ()), owners)
    if result.dtype.kind not in allowed.KINDS:
        refuse(f"np.{name} giving dtype {result.dtype}", "is not a numeric result")
    return kind(result, owners, run)


def into(kind: type[Register], name: str, operands: tuple[Any, ...], result: Any, out: Any,
         where: Any, owners: Ids, run: Run) -> Any:
    """A ufunc's ``out=`` (and ``where=``): registers of the same processors, filled in."""
    targets = out if type(out) is tuple else (out,)
    results = result if type(result) is tuple else (result,)
    mask = where
    if type(where) is kind:
        if not same(_owners_of(where), owners) or where.dtype != np.bool_:
            refuse(f"np.{name}(..., where=...) with a mask of other processors", THROUGH_MEMORY)
        mask = _raw_of(where)
    elif where is not True:
        refuse(f"np.{name}(..., where=...) with a plain mask", "use a register mask of the "
               "same processors, or np.where")
    for target, values in zip(targets, results, strict=True):
        if type(target) is not kind or not same(_owners_of(target), owners) \
                or target._run is not run:
            refuse(f"np.{name}(..., out=...) into something else than a register of the same "
                   "processors", "writes into memory outside the processors' registers; use "
                   "the result of the operation instead")
        if values.shape != owners.shape:
            _bound(kind, name, values, owners, run)
        masked = values if mask is True else np.where(mask, values, _raw_of(target))
        if not np.can_cast(masked.dtype, _raw_of(target).dtype, "same_kind"):
            raise TypeError(f"np.{name}(..., out=...) cannot cast {masked.dtype} to "
                            f"{_raw_of(target).dtype}")
        _put_raw(target, kept(run, _raw_of(target),
                             masked.astype(_raw_of(target).dtype, copy=False)))
        _put_selections(target, None)
    run._operations += 1
    if run._observer is not None:
        run.operation(name, operands, out)
    return out


def select(kind: type[Register], args: Sequence[Any], kwargs: dict[str, Any],
           run: Run) -> Register:
    """``np.select(conditions, choices, default)`` over registers of one set of processors."""
    if len(args) not in (2, 3) or type(args[0]) not in (list, tuple) \
            or type(args[1]) not in (list, tuple):
        refuse("np.select without two lists", "pass a list of conditions and one of choices")
    conditions, owners = _unwrap(kind, "select", tuple(args[0]), run)
    choices, others = _unwrap(kind, "select", (*args[1], *args[2:], *kwargs.values()), run)
    if others is not None and owners is not None and not same(owners, others):
        refuse("np.select on registers of different processors", THROUGH_MEMORY)
    owners = owners if owners is not None else others
    with np.errstate(all="ignore"):
        result = np.select(conditions, choices[: len(args[1])],
                           *choices[len(args[1]):])
    return wrap(kind, "select", tuple(args), result, owners, run)  # type: ignore[no-any-return]


def inexact(values: Sequence[Any]) -> bool:
    """Whether any of ``values`` is a float or complex array or number (may report)."""
    for v in values:
        kind = type(v)
        if kind is np.ndarray:
            if v.dtype.kind in "fc":
                return True
        elif kind is float or kind is complex or (kind is not int and kind is not bool
                                                  and v is not None
                                                  and np.dtype(kind).kind in "fc"):
            return True
    return False


__all__ = ["batch_of", "inexact", "into", "kept", "made", "numeric_dtype", "operand",
           "run_of", "select", "wrap"]
