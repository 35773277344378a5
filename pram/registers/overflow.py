"""int64 overflow: the run fails, the program learns nothing.

After an elementwise operation on int64 registers that can leave the int64 range (``+``,
``-``, ``*``, ``<<``, ``**``, ...) and after a narrowing cast, :func:`checked` and
:func:`checked_cast` record an :class:`pram.IntegerOverflowError` on the machine, which fails
the run before its next step; nothing is raised inside the program.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from pram._held import cost_of as _cost_of
from pram._held import engine_of as _engine_of
from pram._held import engine_or_none as _engine_or_none
from pram._held import failure_of as _failure_of
from pram._held import put_failure as _put_failure
from pram._numpy import np
from pram.errors import IntegerOverflowError
from pram.memory import WORD as _WORD
from pram.registers.ids import Chosen, Ids
from pram.run import Run

_LOW, _HIGH = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)
#: Sums and differences of two word registers of at most this many entries are checked by
#: the result's sign (one pass, three temporaries), larger ones by their operands' bounds (four
#: reductions, no temporary). Measured: 1.9 against 3.5 us at 512 entries, 3.5 against 4.2 at
#: 4,096, 87 against 10 at 32,768 (a batch's rows).
SIGN_TEST_UP_TO = 4096

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
    engine: Any = _engine_or_none(run._machine)
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
        engine: Any = _engine_of(machine)  # a batch's: its ledgers
        return i, int(owners.reshape(-1)[first % n]), engine.ledgers.time(i) + 1
    return None, int(owners.reshape(-1)[first]), int(_cost_of(machine).time) + 1


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
        elif type(a) is np.ndarray and type(b) is np.ndarray and a.dtype is _WORD \
                and b.dtype is _WORD and result.size <= SIGN_TEST_UP_TO:
            # Two registers of words: the result (computed afresh, wrapped) left the range
            # exactly where its sign differs from both addends' (a difference: where the
            # operands' signs differ and the result's differs from the minuend's). One pass
            # and one reduction decide; an overflow found goes on to be named below.
            flipped = (a ^ result) & (b ^ result) if name == "add" else (a ^ b) & (a ^ result)
            if int(np.minimum.reduce(flipped, axis=None)) >= 0:
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
    if _failure_of(machine) is not None:
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
    _put_failure(machine, IntegerOverflowError(
        f"{_in(instance)}int64 overflow in {name}: processor {processor} computed {shown}, beyond "
        f"the int64 range, in the work before step {step}; use dtype=float for reals, or reduce "
        "modulo a bound (np.remainder) before the values outgrow 2**63 - 1",
        operation=name, processor=processor, operands=values, step=step, instance=instance,
    ))


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
    if _failure_of(machine) is not None:
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
    _put_failure(machine, IntegerOverflowError(
        what, operation="astype", processor=processor, operands=(), step=step,
        instance=instance,
    ))


#: The int64 operations :func:`checked` asks about, by ufunc.
CHECKED: Mapping[np.ufunc, str] = MappingProxyType({
    np.add: "add", np.subtract: "subtract", np.multiply: "multiply", np.square: "square",
    np.negative: "negative", np.absolute: "absolute", np.left_shift: "left_shift",
    np.power: "power", np.floor_divide: "floor_divide",
})


__all__ = ["CHECKED", "checked", "checked_cast"]
