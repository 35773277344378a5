"""The machinery behind a register's numpy protocol: operands checked against the allow-list,
raw values unwrapped, results wrapped as registers of the same processors and run, counted as
local work and told to the observer. :mod:`pram.registers` binds its class here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, cast

import numpy.typing as npt

from pram import allowed
from pram._held import owners_of, put_raw, put_selections, raw_of, selections_of
from pram._numpy import np
from pram.allowed import THROUGH_MEMORY
from pram.errors import HonestyError, IntegerOverflowError
from pram.ids import Chosen, Ids, same
from pram.memory import WORD as _WORD
from pram.run import Run

if TYPE_CHECKING:
    from pram.registers import Register
else:
    Register = None  # bound by pram.registers once the class exists


def _refuse(operation: str, reason: str) -> NoReturn:
    raise HonestyError(f"{operation} {reason}")


_ANOTHER_RUN = (
    "belongs to another run (or machine); registers live for one run of one machine: "
    f"{THROUGH_MEMORY}, and read results with Array.to_numpy() after the run"
)


def _run_of(operands: Sequence[Any], *more: Any) -> Run | None:
    """The active run the registers among ``operands`` (and ``more``) belong to, or None when
    none belongs to an active run (then the operation works on plain values: output).
    Registers of two runs, or of a finished run beside an active one, are refused."""
    found: Run | None = None
    for x in (*operands, *more):
        if type(x) is Register:
            run = x._run
        elif type(x) in (list, tuple):
            run = _run_of(x)
        else:
            continue
        if run is None or run is found:
            continue
        if found is None and run._active:
            found = run
            continue
        if found is not None or run._active:
            _refuse("an operation on registers of two runs", _ANOTHER_RUN)
    if found is None:
        return None
    for x in (*operands, *more):  # a finished run's register beside the active run
        if type(x) is Register and x._run is not None and x._run is not found:
            _refuse("an operation on registers of two runs", _ANOTHER_RUN)
    return found


def _host(func: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
    """``func`` on the plain values of every register among ``args``: after a run only."""

    def plain(x: Any) -> Any:
        if type(x) is Register:
            return raw_of(x)
        if type(x) in (list, tuple):
            return type(x)(plain(y) for y in x)
        return x

    return func(*plain(args), **{k: plain(v) for k, v in kwargs.items()})


def _dtype(dtype: Any, what: str) -> np.dtype[Any]:
    try:
        resolved = np.dtype(dtype)
    except TypeError:
        resolved = np.dtype(object)
    if resolved.kind not in allowed.KINDS:
        _refuse(f"{what} to {resolved}", "is not a numeric dtype; registers hold bool, "
                "integers, floats or complex (objects and strings would hand values to the "
                "host)")
    return resolved  # type: ignore[no-any-return]


def _operand(value: Any, what: str, opaque: bool) -> Any:
    """A non-register operand: a number, or a plain numeric array of exactly that type (not
    beside processors chosen by data, whose number the array's shape would have to know)."""
    kind = type(value)
    if kind in allowed.SCALARS:
        return value
    if kind is np.ndarray and value.dtype.kind in allowed.KINDS:
        if value.ndim and opaque:
            _refuse(f"{what} with a plain array beside processors chosen by data",
                    "would need their number; use a scalar, or a register of the same "
                    "processors (hold)")
        return value
    if kind in (list, tuple) and any(type(x) is Register for x in value):
        _refuse(f"{what} with a sequence of registers", allowed.REASONS["concatenate"])
    _refuse(f"{what} with an operand of type {kind.__name__}", "is not a register, a number "
            "or a plain numeric numpy array; convert it with numpy.asarray(x, dtype=...) "
            "from sizes")


def _unwrap(name: str, operands: Sequence[Any], run: Run) -> tuple[list[Any], Ids]:
    """The raw operands of operation ``name``, and the processors every register among them
    belongs to (refusing other processors, other runs and operands off the allow-list)."""
    owners: Any = None
    for operand in operands:
        if type(operand) is Register:
            ids = owners_of(operand)
            if owners is None:
                owners = ids
            elif ids is not owners and not same(ids, owners):
                chosen = type(ids) is Chosen or type(owners) is Chosen
                _refuse(f"np.{name} on registers of different processors",
                        "combines values of different processors"
                        + (" (registers chosen by data combine only when chosen by one mask "
                           "register: keep the mask and select each with it)" if chosen else "")
                        + f"; {THROUGH_MEMORY}")
            if operand._run is not run and operand._run is not None:
                _refuse(f"np.{name} on registers of two runs", _ANOTHER_RUN)
    opaque = type(owners) is Chosen
    raw: list[Any] = []
    for operand in operands:
        if type(operand) is Register:
            raw.append(raw_of(operand))
        elif operand is None or isinstance(operand, np.dtype):
            raw.append(operand)
        else:
            plain = _operand(operand, f"np.{name}", opaque)
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
        made = np.broadcast_shapes(*shapes)
    except ValueError:
        return  # no shape at all: numpy refuses the operation itself, as on a single machine
    _spread(name, made, owners)


def _spread(name: str, shape: tuple[int, ...], owners: Ids) -> NoReturn:
    """Refuse a result of ``shape`` from registers of ``owners``: the operand that made it
    broadcast over other processors."""
    given = f"shape {shape} from registers of shape {owners.shape}"
    if type(owners) is Chosen:
        given = "another shape from registers of processors chosen by data"
    _refuse(
        f"np.{name} giving {given}",
        "spreads values over other processors (an operand broadcast beyond the "
        f"register's shape); {THROUGH_MEMORY}",
    )


def _made(name: str, operands: tuple[Any, ...], values: Any, owners: Ids, run: Run | None) -> Any:
    """A register of ``owners`` (and ``run``) holding ``values``: counted and observed."""
    result = Register(values, owners, run)
    if run is not None:
        run._operations += 1
        if run._observer is not None:
            run.operation(name, operands, result)
    return result


def _wrap(name: str, operands: tuple[Any, ...], result: Any, owners: Ids, run: Run) -> Any:
    """``result`` as register(s) of ``owners``, counted and observed; refuse other shapes."""
    if isinstance(result, tuple):
        wrapped: Any = tuple(_bound(name, r, owners, run) for r in result)
    else:
        wrapped = _bound(name, result, owners, run)
    run._operations += 1
    if run._observer is not None:
        run.operation(name, operands, wrapped)
    return wrapped


def _batch(run: Run | None) -> int | None:
    """The instances of the batched machine ``run`` runs on (None: a single machine)."""
    return None if run is None else getattr(run._machine, "batch", None)


def _kept(run: Run | None, before: Any, after: Any) -> Any:
    """``after``, a register's new values in place of ``before``, except in the rows of the
    instances of a batch idling in a loop they ended: a change in place during the loop's
    later rounds leaves their registers as they were, as in their single runs."""
    if run is None:
        return after
    engine = getattr(run._machine, "_engine", None)
    alive = None if engine is None else engine.alive
    if alive is None or after.ndim < 2 or after.shape[0] != len(alive):
        return after
    shape = (len(alive),) + (1,) * (after.ndim - 1)
    return np.where(alive.reshape(shape), after, np.broadcast_to(before, after.shape))


def _bound(name: str, result: Any, owners: Ids, run: Run) -> Register:
    if type(result) is not np.ndarray or (result.shape != owners.shape and not (
            result.shape[1:] == owners.shape and result.ndim == owners.ndim + 1
            and result.shape[0] == _batch(run))):
        _spread(name, getattr(result, "shape", ()), owners)
    if result.dtype.kind not in allowed.KINDS:
        _refuse(f"np.{name} giving dtype {result.dtype}", "is not a numeric result")
    return Register(result, owners, run)


def _into(name: str, operands: tuple[Any, ...], result: Any, out: Any, where: Any,
          owners: Ids, run: Run) -> Any:
    """A ufunc's ``out=`` (and ``where=``): registers of the same processors, filled in."""
    targets = out if type(out) is tuple else (out,)
    results = result if type(result) is tuple else (result,)
    mask = where
    if type(where) is Register:
        if not same(owners_of(where), owners) or where.dtype != np.bool_:
            _refuse(f"np.{name}(..., where=...) with a mask of other processors", THROUGH_MEMORY)
        mask = raw_of(where)
    elif where is not True:
        _refuse(f"np.{name}(..., where=...) with a plain mask", "use a register mask of the "
                "same processors, or np.where")
    for target, values in zip(targets, results, strict=True):
        if type(target) is not Register or not same(owners_of(target), owners) \
                or target._run is not run:
            _refuse(f"np.{name}(..., out=...) into something else than a register of the same "
                    "processors", "writes into memory outside the processors' registers; use "
                    "the result of the operation instead")
        if values.shape != owners.shape:
            _bound(name, values, owners, run)
        kept = values if mask is True else np.where(mask, values, raw_of(target))
        if not np.can_cast(kept.dtype, raw_of(target).dtype, "same_kind"):
            raise TypeError(f"np.{name}(..., out=...) cannot cast {kept.dtype} to "
                            f"{raw_of(target).dtype}")
        put_raw(target, _kept(run, raw_of(target),
                              kept.astype(raw_of(target).dtype, copy=False)))
        put_selections(target, None)
    run._operations += 1
    if run._observer is not None:
        run.operation(name, operands, out)
    return out


def _select_function(args: Sequence[Any], kwargs: dict[str, Any], run: Run) -> Register:
    """``np.select(conditions, choices, default)`` over registers of one set of processors."""
    if len(args) not in (2, 3) or type(args[0]) not in (list, tuple) \
            or type(args[1]) not in (list, tuple):
        _refuse("np.select without two lists", "pass a list of conditions and one of choices")
    conditions, owners = _unwrap("select", tuple(args[0]), run)
    choices, others = _unwrap("select", (*args[1], *args[2:], *kwargs.values()), run)
    if others is not None and owners is not None and not same(owners, others):
        _refuse("np.select on registers of different processors", THROUGH_MEMORY)
    owners = owners if owners is not None else others
    with np.errstate(all="ignore"):
        result = np.select(conditions, choices[: len(args[1])],
                           *choices[len(args[1]):])
    return _wrap("select", tuple(args), result, owners, run)  # type: ignore[no-any-return]


def _key(register: Register, key: Any, verb: str) -> tuple[Any, Ids]:
    """The raw index for ``key`` into ``register`` and the processors it selects: a plain key
    (by size; refused on processors chosen by data, whose number it would have to know), or a
    boolean register of the same processors (each deciding whether it is selected)."""
    owners = owners_of(register)
    sealed = register._sealed()
    if type(key) is Register:
        if key.dtype != np.bool_ or not same(owners_of(key), owners):
            _refuse(
                f"{verb} register[index] with an index that is a register",
                "(fancy indexing by data) moves values between processors; a processor may "
                "compute an address from its own registers and read it in a step: "
                f"{THROUGH_MEMORY}",
            )
        batch = _batch(key._run) or _batch(register._run)
        if batch is not None and (sealed or key._sealed()):
            chosen = _choose_rows(owners, key, batch)  # every instance's own selection
            return chosen.rows, chosen  # type: ignore[attr-defined]
        if not sealed and not key._sealed():
            return raw_of(key), owners[raw_of(key)]
        return raw_of(key), _chosen(owners, key)
    if type(owners) is Chosen and sealed and not (type(key) is slice and key == slice(None)):
        _refuse(f"{verb} a register of processors chosen by data with a plain key",
                allowed.SIZE)
    if type(key) is int or (isinstance(key, np.integer) and type(key) in allowed.SCALARS):
        size = len(owners)
        if not -size <= int(key) < size:
            raise IndexError(f"index {int(key)} is out of range for a register of {size} "
                             "processors")
        start = int(key) % size
        key = slice(start, start + 1)  # one processor, still a register: its own value
    parts = key if type(key) is tuple else (key,)
    for part in parts:
        if part is None:
            _refuse(f"{verb} register[None]", "adds an axis that would spread each value over "
                    f"other processors; {THROUGH_MEMORY}")
        if sealed and not (type(part) in (int, slice) or type(part) is type(Ellipsis)
                           or (type(part) is np.ndarray and part.dtype.kind in "biu")
                           or type(part) in allowed.SCALARS):
            _refuse(f"{verb} register[index] with an index of type {type(part).__name__}",
                    "index by a slice, an integer or a plain array computed from sizes, or by "
                    "a boolean register of the same processors")
    return key, owners[key]


def _choose_rows(owners: Any, key: Register, batch: int) -> Chosen:
    """The processors of ``owners`` that boolean register ``key`` selects, in a batch of
    ``batch`` instances: the full width of ``owners`` with one row of flags per instance
    (``rows``), so every instance keeps its own selection. Nested selections AND their flags."""
    chosen = selections_of(key)
    if chosen is not None:
        return chosen
    flags = np.broadcast_to(raw_of(key), (batch, *owners.shape))
    above = getattr(owners, "rows", None) if type(owners) is Chosen else None
    rows = flags.copy() if above is None else flags & above
    rows.flags.writeable = False
    plain = owners.view(np.ndarray) if type(owners) is Chosen else owners
    made = plain.view(Chosen)
    made.flags.writeable = False
    made.parent = owners
    made.key = key
    made.mask = rows
    setattr(made, "rows", rows)  # noqa: B010  (the batch's flags, beside the mask)
    put_selections(key, made)
    return cast(Chosen, made)


def _chosen(owners: Ids, key: Register) -> Chosen:
    """The processors of ``owners`` that ``key`` selects: one array per mask register (every
    register it may select from has its processors), so registers selected alike compare by
    identity (never by value, which is data)."""
    chosen = selections_of(key)
    if chosen is not None:
        return chosen
    chosen = owners[raw_of(key)].view(Chosen)
    chosen.flags.writeable = False
    chosen.parent = owners
    chosen.key = key
    chosen.mask = raw_of(key).copy()  # the choice as made, for the machine's own comparison
    put_selections(key, chosen)
    return chosen  # type: ignore[no-any-return]



# ---- int64 overflow: the run fails, the program learns nothing ---------------------------

_LOW, _HIGH = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)
_SYMBOLS = {"add": "+", "subtract": "-", "multiply": "*", "left_shift": "<<", "power": "**",
            "floor_divide": "//"}


def _extremes(x: Any) -> tuple[int, int]:
    """The least and greatest value of an operand (a raw register's values or a scalar)."""
    if type(x) is np.ndarray:
        if not x.size:
            return 0, 0
        return int(x.min()), int(x.max())
    return int(x), int(x)


def _exact(name: str, operands: Sequence[Any], shape: tuple[int, ...]) -> Any:
    """Which entries of an operation's result (of ``shape``, flattened) overflow, computed
    exactly (Python integers over the candidates only: asked once a bound said an overflow
    is possible)."""
    size = int(np.prod(shape))
    columns = [np.broadcast_to(np.asarray(x), shape).reshape(-1) for x in operands]
    as_float = [c.astype(np.float64) for c in columns]
    with np.errstate(all="ignore"):
        if name in ("negative", "absolute"):
            near = columns[0] == _LOW
        elif name == "add":
            near = np.abs(as_float[0] + as_float[1]) >= 2.0 ** 62
        elif name == "subtract":
            near = np.abs(as_float[0] - as_float[1]) >= 2.0 ** 62
        elif name == "multiply" or name == "square":
            near = np.abs(as_float[0] * as_float[-1]) >= 2.0 ** 62
        elif name == "left_shift":
            near = columns[0] != 0
        elif name == "floor_divide":
            near = (columns[0] == _LOW) & (columns[1] == -1)
        else:  # power
            near = np.abs(as_float[0]) >= 2
    wrong = np.zeros(size, dtype=np.bool_)
    for i in np.flatnonzero(near).tolist():
        a = int(columns[0][i])
        b = int(columns[-1][i])
        if name == "negative":
            exact = -a
        elif name == "absolute":
            exact = abs(a)
        elif name == "add":
            exact = a + b
        elif name == "subtract":
            exact = a - b
        elif name in ("multiply", "square"):
            exact = a * b
        elif name == "left_shift":
            exact = a << b if 0 <= b < 64 else (0 if a == 0 else _HIGH + 1)
        elif name == "floor_divide":
            exact = a // b
        else:
            exact = (a ** b if b * abs(a).bit_length() <= 128 else _HIGH + 1) if b >= 0 else 0
        wrong[i] = not _LOW <= exact <= _HIGH
    return wrong


def _live(owners: Ids, run: Run, shape: tuple[int, ...]) -> Any:
    """On a batched machine, which entries (flattened) of a result of ``shape`` belong to a
    processor that acts in an instance taking steps: not those a selection by data left
    out (a batch keeps its full width) nor those of an instance idling in a loop it ended;
    None when every entry does."""
    engine = getattr(run._machine, "_engine", None)
    if engine is None or len(shape) <= owners.ndim:
        return None
    rows = getattr(owners, "rows", None) if type(owners) is Chosen else None
    alive = engine.alive
    if rows is None and alive is None:
        return None
    live = np.ones(shape, dtype=np.bool_)
    if rows is not None:
        live &= rows
    if alive is not None:
        live &= alive.reshape((len(alive),) + (1,) * (len(shape) - 1))
    return live.reshape(-1)


def _who(first: int, owners: Ids, result: Any, machine: Any) -> tuple[int | None, int, int]:
    """For the flat entry ``first`` of a result: its instance on a batched machine (None on a
    single one), the processor, and the step the work came before (the instance's own)."""
    n = int(owners.size) or 1
    if result.ndim > owners.ndim:
        i = first // n
        engine = machine._engine
        return i, int(owners.reshape(-1)[first % n]), engine.ledgers.time(i) + 1
    return None, int(owners.reshape(-1)[first]), int(machine._cost.time) + 1


def _in(instance: int | None) -> str:
    """``"instance i: "`` before a message about one instance of a batch, else nothing."""
    return "" if instance is None else f"instance {instance}: "


def checked(name: str, operands: Sequence[Any], result: Any, owners: Ids, run: Run) -> None:
    """After an int64 ``add``, ``subtract``, ``multiply``, ``square``, ``negative``,
    ``absolute``, ``left_shift``, ``power`` or ``floor_divide`` (only ``-2**63 // -1``):
    record an :class:`IntegerOverflowError` on the machine if any processor's result
    overflowed (the first such error of the run).

    The check is a bound from the operands' least and greatest values (one reduction each),
    exact whenever one operand is a constant; only when the bound allows an overflow are
    the entries computed exactly. Nothing is raised here, inside the program: the machine
    fails the run before its next step (:meth:`pram.Machine.run`), so no ``try`` in the
    program can turn the overflow into a test of its data.
    """
    if type(result) is not np.ndarray or result.dtype is not _WORD or not result.size \
            or run._machine._modular:  # type: ignore[attr-defined]  # pram.modular: it wraps
        return
    if len(operands) == 2 and (name == "add" or name == "subtract"):
        a, b = operands
        # The usual case, a register and a constant: one reduction decides, exactly.
        if type(a) is np.ndarray and type(b) is int and a.dtype is _WORD:
            step = b if name == "add" else -b
            if (int(a.max()) <= _HIGH - step) if step >= 0 else (int(a.min()) >= _LOW - step):
                return
        elif type(b) is np.ndarray and type(a) is int and b.dtype is _WORD:
            if name == "add":
                if (int(b.max()) <= _HIGH - a) if a >= 0 else (int(b.min()) >= _LOW - a):
                    return
            elif (int(b.min()) >= a - _HIGH) if a >= 0 else (int(b.max()) <= a - _LOW):
                return
    if name == "floor_divide" and type(operands[-1]) is int and operands[-1] != -1:
        return  # only LOW // -1 leaves the range: no reduction needed to know it cannot
    kinds = [x.dtype.kind if type(x) is np.ndarray else "" for x in operands]
    if any(kind and kind not in "biu" for kind in kinds):
        return  # a real operand: the result is not integer arithmetic on words
    if name in ("negative", "absolute"):
        low, _ = _extremes(operands[0])
        if low != _LOW:
            return
    else:
        (a_low, a_high), (b_low, b_high) = _extremes(operands[0]), _extremes(operands[-1])
        if name == "add":
            low, high = a_low + b_low, a_high + b_high
        elif name == "subtract":
            low, high = a_low - b_high, a_high - b_low
        elif name in ("multiply", "square"):
            corners = (a_low * b_low, a_low * b_high, a_high * b_low, a_high * b_high)
            low, high = min(corners), max(corners)
        elif name == "floor_divide":  # only LOW // -1 leaves the range
            if a_low != _LOW or not b_low <= -1 <= b_high:
                return
            low, high = _LOW, _HIGH + 1
        elif name == "left_shift":
            if b_low < 0 or b_high >= 64:
                low, high = (0, 0) if a_low == a_high == 0 else (_LOW - 1, _HIGH + 1)
            else:
                low = min(a_low << b_low, a_low << b_high)
                high = max(a_high << b_low, a_high << b_high)
        else:  # power, with a constant exponent (a register exponent is refused by type)
            top = max(abs(a_low), abs(a_high))
            if top <= 1 or b_high < 0:
                high = 1
            else:  # a bound in bits first: no huge power is ever computed
                high = top ** b_high if b_high * top.bit_length() <= 128 else _HIGH + 1
            low = -high
        if low >= _LOW and high <= _HIGH:
            return
    wrong = _exact(name, operands, result.shape)
    live = _live(owners, run, result.shape)
    if live is not None:
        wrong &= live
    if not wrong.any():
        return
    machine = run._machine
    if getattr(machine, "_failure", None) is not None:
        return  # the run has failed already: the first overflow is the one reported
    first = int(np.flatnonzero(wrong)[0])
    values = tuple(int(np.broadcast_to(np.asarray(x), result.shape).reshape(-1)[first])
                   for x in operands)
    symbol = _SYMBOLS.get(name)
    if name == "negative":
        shown = f"-({values[0]})"
    elif name == "absolute":
        shown = f"abs({values[0]})"
    elif name == "square":
        shown = f"{values[0]} ** 2"
    else:
        shown = f"{values[0]} {symbol} {values[-1]}"
    instance, processor, step = _who(first, owners, result, machine)
    machine._failure = IntegerOverflowError(  # type: ignore[attr-defined]
        f"{_in(instance)}int64 overflow in {name}: processor {processor} computed {shown}, beyond "
        f"the int64 range, in the work before step {step}; use dtype=float for reals, or reduce "
        "modulo a bound (np.remainder) before the values outgrow 2**63 - 1",
        operation=name, processor=processor, operands=values, step=step, instance=instance,
    )


def checked_cast(source: Any, result: Any, owners: Ids, run: Run) -> None:
    """After ``astype(np.int64)`` of reals: record an :class:`IntegerOverflowError`, as
    :func:`checked` does, if a value was NaN, infinite or beyond the int64 range (numpy would
    give an arbitrary word), and likewise after a narrowing cast between integer types
    (int64 to int32, int8 or uint64, ...) if a value does not fit the new type (numpy would
    wrap it silently)."""
    if type(result) is not np.ndarray or not result.size or type(source) is not np.ndarray:
        return
    if source.dtype.kind in "iu" and result.dtype.kind in "iu":
        if getattr(run._machine, "_modular", 0):  # pram.modular: integer casts wrap too
            return
        # A value fits when it comes back unchanged and keeps its sign (-1 as uint64 would).
        wrong = (result.astype(source.dtype) != source) | ((source < 0) != (result < 0))
    elif result.dtype is _WORD and source.dtype.kind == "f":
        with np.errstate(all="ignore"):
            wrong = ~((source >= -(2.0 ** 63)) & (source < 2.0 ** 63))
    else:
        return
    live = _live(owners, run, wrong.shape)
    if live is not None:
        wrong = wrong.reshape(-1) & live
    if not wrong.any():
        return
    machine = run._machine
    if getattr(machine, "_failure", None) is not None:
        return
    first = int(np.flatnonzero(wrong)[0])
    instance, processor, step = _who(first, owners, result, machine)
    if source.dtype.kind == "f":
        value: float | int = float(source.reshape(-1)[first])
        what = (f"{_in(instance)}int64 overflow in astype: processor {processor} converted "
                f"{value!r} to int64, beyond the int64 range, in the work before step {step}; "
                "keep the values real (dtype=float), or clip them into the int64 range first "
                "(np.clip) and test for NaN (np.isnan) before converting")
    else:
        value = int(source.reshape(-1)[first])
        limits = np.iinfo(result.dtype)
        what = (f"{_in(instance)}{result.dtype} overflow in astype: processor {processor} "
                f"converted {value} from {source.dtype} to {result.dtype}, outside {limits.min} to "
                f"{limits.max}, in the work before step {step} (numpy would wrap it); keep "
                f"the values {source.dtype}, or clip them into that range first (np.clip)")
    machine._failure = IntegerOverflowError(  # type: ignore[attr-defined]
        what, operation="astype", processor=processor, operands=(), step=step,
        instance=instance,
    )


#: The int64 operations :func:`checked` asks about, by ufunc.
CHECKED: dict[np.ufunc, str] = {
    np.add: "add", np.subtract: "subtract", np.multiply: "multiply", np.square: "square",
    np.negative: "negative", np.absolute: "absolute", np.left_shift: "left_shift",
    np.power: "power", np.floor_divide: "floor_divide",
}


__all__: list[str] = []
