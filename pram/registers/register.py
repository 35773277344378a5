"""The class :class:`pram.Register`: one value per processor, bound to its processors and run.

What a register accepts is told in :mod:`pram.registers`; this module holds the class, its
sizes, its operators and the refusals of every way to hand its values to the host. Its numpy
protocol and its selections are the machinery of :mod:`pram.registers.operations`,
:mod:`pram.registers.functions` and :mod:`pram.registers.selection`, which never import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy.typing as npt
from numpy.lib.mixins import NDArrayOperatorsMixin

from pram._held import Held
from pram._held import owners_of as _owners_of
from pram._held import put_owners as _put_owners
from pram._held import put_raw as _put_raw
from pram._held import put_selections as _put_selections
from pram._held import raw_of as _raw_of
from pram._numpy import np
from pram.errors import HonestyError
from pram.registers import allowed, overflow
from pram.registers.allowed import THROUGH_MEMORY, refuse
from pram.registers.functions import array_function
from pram.registers.ids import Chosen, Ids, freeze, immutable, same, same_processors
from pram.registers.operations import (
    _after_run,
    _unwrap,
    inexact,
    into,
    kept,
    made,
    numeric_dtype,
    run_of,
    wrap,
)
from pram.registers.selection import getitem, setitem
from pram.run import Run, live

#: The two-operand ufuncs that report nothing on integers, one result each: on two integer
#: registers of one run and one array of processors, Register.__array_ufunc__'s checks all
#: pass and its result is the ufunc's, so it computes them directly.
_QUIET_PAIRS: frozenset[np.ufunc] = frozenset(
    u for u in allowed.QUIET_ON_INTEGERS & allowed.UFUNCS
    if u.nin == 2 and u.nout == 1 and u not in allowed.LOUD)


def _operator(ufunc: np.ufunc) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The forward and reflected operator of ``ufunc`` for :class:`Register`: registers of one
    array of processors and run, or a Python int or bool, without numpy's dispatch (every other
    case takes it, and with it every check of :meth:`Register.__array_ufunc__`). An int64
    result of an operation that can overflow is checked (:func:`pram.registers.overflow.checked`).

    Registers of one array of processors are the same ids (the same object, or equal ids
    that were not chosen by data: :func:`pram.registers.ids.same`, as the dispatch asks). An
    operation that may report on integers (:data:`pram.registers.allowed.LOUD`) takes this
    path only as ``//`` or ``%`` by a positive constant, which cannot divide by zero or
    overflow."""
    name = ufunc.__name__
    loud = ufunc in allowed.LOUD
    divides = ufunc is np.floor_divide or ufunc is np.remainder
    overflows = ufunc in overflow.CHECKED

    def forward(self: Register, other: Any) -> Any:
        run = self._run
        if run is not None and run._active and _raw_of(self).dtype.kind in "biu":
            kind = type(other)
            if kind is Register:
                if (not loud and other._run is run and _raw_of(other).dtype.kind in "biu"
                        and (_owners_of(other) is _owners_of(self)
                             or same(_owners_of(other), _owners_of(self)))):
                    values = ufunc(_raw_of(self), _raw_of(other))
                    if overflows:
                        overflow.checked(name, (_raw_of(self), _raw_of(other)), values,
                                         _owners_of(self), run)
                    return made(Register, name, (self, other), values, _owners_of(self), run)
            elif (kind is int or kind is bool) and (not loud or (divides and other > 0)):
                values = ufunc(_raw_of(self), other)
                if overflows:
                    overflow.checked(name, (_raw_of(self), other), values, _owners_of(self),
                                     run)
                return made(Register, name, (self, other), values, _owners_of(self), run)
        return ufunc(self, other)

    def reflected(self: Register, other: Any) -> Any:
        run = self._run
        kind = type(other)
        if (run is not None and run._active and not loud and (kind is int or kind is bool)
                and _raw_of(self).dtype.kind in "biu"):
            values = ufunc(other, _raw_of(self))
            if overflows:
                overflow.checked(name, (other, _raw_of(self)), values, _owners_of(self), run)
            return made(Register, name, (other, self), values, _owners_of(self), run)
        return ufunc(other, self)

    return forward, reflected


def _inplace(ufunc: np.ufunc) -> Callable[..., Any]:
    """``register op= other``: the operation, its result kept in the register (same kind)."""

    def apply(self: Register, other: Any) -> Register:
        result = ufunc(self, other)
        values = _raw_of(result) if type(result) is Register else np.asarray(result)
        if type(result) is Register and _owners_of(result) is not _owners_of(self) \
                and not same_processors(_owners_of(result), _owners_of(self)):
            refuse(f"register {ufunc.__name__}= a register of other processors", THROUGH_MEMORY)
        if not np.can_cast(values.dtype, _raw_of(self).dtype, "same_kind"):
            raise TypeError(
                f"{ufunc.__name__}= would turn a register of {_raw_of(self).dtype} into "
                f"{values.dtype}; write register = register {ufunc.__name__} other instead"
            )
        _put_raw(self, kept(self._run, _raw_of(self),
                           values.astype(_raw_of(self).dtype, copy=False)))
        _put_selections(self, None)
        run = self._run
        if run is not None and run._observer is not None and type(result) is Register:
            run.operation("copy", (result,), self)  # the observer sees self hold the result
        return self

    return apply


class Register(Held, NDArrayOperatorsMixin):
    """One value per processor, bound to the processors it belongs to and to one run.

    Made by the machine for each :class:`pram.Read` of a step (aligned with the step's
    processors; 0 where a ``where`` mask is False), by elementwise operations on registers, and
    by :func:`hold`. ``shape``, ``ndim``, ``size``, ``dtype`` and ``len`` describe it (sizes,
    not data), except for an opaque register (processors chosen by data), whose size is data.
    See :mod:`pram.registers` for what a program can and cannot do with it.
    """

    # The values, the processors and the selections are in Held's slots, which no
    # attribute path reaches (pram._held): each is data once processors chose themselves.
    __slots__ = ("_run",)

    def __init__(self, values: npt.NDArray[Any], processors: Ids, run: Run | None = None) -> None:
        if type(values) is not np.ndarray or values.dtype.kind not in allowed.KINDS:
            raise HonestyError(
                f"a Register holds a numeric numpy array (got {type(values).__name__}); "
                "make registers with pram.hold"
            )
        _put_raw(self, values)
        _put_owners(self, processors)
        self._run = run
        #: The processors this register selects when it is the mask (see
        #: pram.registers.selection).
        _put_selections(self, None)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError("pram.Register is final: a subclass could hide values from the checks")

    def _sealed(self) -> bool:
        run = self._run
        return run is not None and live(run)

    def _host(self, what: str, why: str = allowed.HOST) -> npt.NDArray[Any]:
        """The values, for the host after the run: ``what`` is refused (``why``) while the
        register's run is active, as data turned into host control flow or moved."""
        if self._sealed():
            refuse(what, why)
        return _raw_of(self)

    def _sized(self, what: str) -> None:
        if type(_owners_of(self)) is Chosen and self._sealed():
            refuse(what, allowed.SIZE)

    # ---- sizes, which are not data (unless the processors chose themselves) ------------

    @property
    def shape(self) -> tuple[int, ...]:
        self._sized("the shape of a register of processors chosen by data")
        if _raw_of(self).ndim > _owners_of(self).ndim and self._sealed():
            return _owners_of(self).shape  # a batch's register: one row per instance
        return _raw_of(self).shape

    @property
    def ndim(self) -> int:
        if _raw_of(self).ndim > _owners_of(self).ndim and self._sealed():
            return _owners_of(self).ndim
        return _raw_of(self).ndim

    @property
    def size(self) -> int:
        self._sized("the size of a register of processors chosen by data")
        if _raw_of(self).ndim > _owners_of(self).ndim and self._sealed():
            return _owners_of(self).size
        return _raw_of(self).size

    @property
    def dtype(self) -> np.dtype[Any]:
        return _raw_of(self).dtype

    def __len__(self) -> int:
        self._sized("len() of a register of processors chosen by data")
        if _raw_of(self).ndim > _owners_of(self).ndim and self._sealed():
            return len(_owners_of(self))
        return len(_raw_of(self))

    def __repr__(self) -> str:
        if self._sealed():
            if type(_owners_of(self)) is Chosen:
                return f"Register(processors chosen by data, dtype={self.dtype})"
            return f"Register(shape={self.shape}, dtype={self.dtype})"
        return f"Register({_raw_of(self).tolist()!r})"

    __str__ = __repr__

    # ---- elementwise work --------------------------------------------------------------

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if len(inputs) == 2 and not kwargs and ufunc in _QUIET_PAIRS and method == "__call__":
            # Two integer registers of one run and one array of processors through a ufunc
            # quiet on integers (np.minimum(x, y)): what the checks below find for them,
            # without them, as the operators do (_operator).
            a, b = inputs
            if type(a) is Register and type(b) is Register:
                run = a._run
                owners = _owners_of(a)
                if run is not None and run._active and b._run is run \
                        and _raw_of(a).dtype.kind in "biu" and _raw_of(b).dtype.kind in "biu" \
                        and (_owners_of(b) is owners or same(_owners_of(b), owners)):
                    values = ufunc(_raw_of(a), _raw_of(b))
                    if ufunc in overflow.CHECKED:
                        overflow.checked(ufunc.__name__, (_raw_of(a), _raw_of(b)), values,
                                         owners, run)
                    return made(Register, ufunc.__name__, inputs, values, owners, run)
        run = run_of(Register, inputs, kwargs.get("out"), kwargs.get("where"))
        if run is None:
            return _after_run(Register, getattr(ufunc, method), inputs, kwargs)  # output, after run
        name = getattr(ufunc, "__name__", repr(ufunc))
        if method != "__call__":
            refuse(f"np.{name}.{method}", allowed.METHODS.get(method, allowed.METHODS["at"]))
        if ufunc.signature is not None:
            refuse(f"the generalised ufunc {name!r}", "folds the values of many processors "
                   "(its core dimensions span processors); reduce with a tree of machine "
                   "steps (pram.algorithms.primitives shows the pattern)")
        if ufunc not in allowed.UFUNCS:
            refuse(f"the ufunc {name!r}", "is not one of numpy's own elementwise operations "
                   "(a Python function applied to register values would hand them to the "
                   "host); use numpy's ufuncs")
        for key in kwargs:
            if key not in allowed.UFUNC_KEYWORDS:
                refuse(f"np.{name}(..., {key}=...)", "takes no such argument on registers; "
                       "pass dtype=, or out= and where= registers of the same processors")
        out = kwargs.pop("out", None)
        where = kwargs.pop("where", True)
        if "dtype" in kwargs:
            kwargs["dtype"] = numeric_dtype(kwargs["dtype"], f"np.{name}(..., dtype=...)")
        args, owners = _unwrap(Register, name, inputs, run)
        if ufunc is np.power or ufunc is np.float_power:
            exponent = inputs[1] if len(inputs) > 1 else None
            if type(exponent) is Register and exponent.dtype.kind in "biu" and \
                    np.result_type(*args).kind in "biu":
                refuse("an integer power with a register exponent", "fails for negative "
                       "exponents, which would tell the host about data; raise to a float "
                       "power (x ** y.astype(float)) or clip the exponent with np.maximum")
        if ufunc not in allowed.QUIET_ON_INTEGERS or inexact(args) or "dtype" in kwargs:
            with np.errstate(all="ignore"):
                result = ufunc(*args, **kwargs)
        else:  # integers and bools: no floating-point report can arise
            result = ufunc(*args, **kwargs)
        if ufunc in overflow.CHECKED:
            overflow.checked(name, args, result, owners, run)
        if out is None and where is not True:
            refuse(f"np.{name}(..., where=...) without out=", "hands back memory other "
                   "processors held where the mask is False; pass out= a register of the "
                   "same processors, or use np.where")
        if out is not None:
            return into(Register, name, inputs, result, out, where, owners, run)
        return wrap(Register, name, inputs, result, owners, run)

    __array_function__ = array_function  # the array functions (pram.registers.functions)

    # Operators between registers of one array of processors, or with a Python scalar, while a
    # program runs: what __array_ufunc__ would do, without numpy's dispatch to it.
    __add__, __radd__ = _operator(np.add)
    __sub__, __rsub__ = _operator(np.subtract)
    __mul__, __rmul__ = _operator(np.multiply)
    __floordiv__, __rfloordiv__ = _operator(np.floor_divide)
    __mod__, __rmod__ = _operator(np.remainder)
    __and__, __rand__ = _operator(np.bitwise_and)
    __or__, __ror__ = _operator(np.bitwise_or)
    __xor__, __rxor__ = _operator(np.bitwise_xor)
    __lshift__, __rlshift__ = _operator(np.left_shift)
    __rshift__, __rrshift__ = _operator(np.right_shift)
    __lt__ = _operator(np.less)[0]
    __le__ = _operator(np.less_equal)[0]
    __gt__ = _operator(np.greater)[0]
    __ge__ = _operator(np.greater_equal)[0]
    __eq__ = _operator(np.equal)[0]
    __ne__ = _operator(np.not_equal)[0]
    __iadd__ = _inplace(np.add)
    __isub__ = _inplace(np.subtract)
    __imul__ = _inplace(np.multiply)
    __itruediv__ = _inplace(np.true_divide)
    __ifloordiv__ = _inplace(np.floor_divide)
    __imod__ = _inplace(np.remainder)
    __ipow__ = _inplace(np.power)
    __iand__ = _inplace(np.bitwise_and)
    __ior__ = _inplace(np.bitwise_or)
    __ixor__ = _inplace(np.bitwise_xor)
    __ilshift__ = _inplace(np.left_shift)
    __irshift__ = _inplace(np.right_shift)
    __imatmul__ = _inplace(np.matmul)

    def __invert__(self) -> Any:
        run = self._run
        if run is not None and run._active and _raw_of(self).dtype.kind in "biu":
            # what np.invert(self) does on bools and integers, without numpy's dispatch
            return made(Register, "invert", (self,), np.invert(_raw_of(self)), _owners_of(self),
                        run)
        return np.invert(self)

    def __neg__(self) -> Any:
        return np.negative(self)

    def __round__(self, ndigits: int | None = None) -> Any:
        return np.round(self, ndigits or 0)

    def astype(self, dtype: Any, *args: Any, **kwargs: Any) -> Any:
        """The values converted to ``dtype``, still bound to the same processors."""
        run = self._run
        if run is None or not live(run):
            return Register(_raw_of(self).astype(dtype, *args, **kwargs), _owners_of(self), run)
        dtype = numeric_dtype(dtype, "register.astype")
        if args or set(kwargs) - {"copy"}:
            refuse("register.astype with order=, casting= or subok=", "takes dtype (and copy)")
        with np.errstate(all="ignore"):
            values = _raw_of(self).astype(dtype)
        overflow.checked_cast(_raw_of(self), values, _owners_of(self), run)
        return made(Register, "astype", (self, dtype), values, _owners_of(self), run)

    # ndarray methods that numpy has as functions of each processor's own value
    def clip(self, min: Any = None, max: Any = None, **kwargs: Any) -> Any:
        """``np.clip(self, min, max)``: each processor's value clipped into the range."""
        return np.clip(self, min, max, **kwargs)

    def round(self, decimals: int = 0) -> Any:
        """``np.round(self, decimals)``."""
        return np.round(self, decimals)

    def conjugate(self) -> Any:
        """``np.conjugate(self)``."""
        return np.conjugate(self)

    conj = conjugate

    @property
    def real(self) -> Any:
        """``np.real(self)``: each processor's value's real part."""
        return np.real(self)

    @property
    def imag(self) -> Any:
        """``np.imag(self)``: each processor's value's imaginary part."""
        return np.imag(self)

    def copy(self) -> Register:
        """A register of the same processors holding the same values."""
        copied: Register = made(Register, "copy", (self,), _raw_of(self).copy(),
                                _owners_of(self), self._run)
        return copied

    __copy__ = copy

    def __deepcopy__(self, memo: Any) -> Register:
        return self.copy()

    def view(self, dtype: Any) -> Register:
        """The same bits read as ``dtype`` of the same itemsize (one value per processor)."""
        dtype = numeric_dtype(dtype, "register.view")
        if dtype.itemsize != _raw_of(self).dtype.itemsize:
            refuse(f"register.view({dtype}) of another itemsize", "spreads values over "
                   f"other processors' entries; use astype, or {THROUGH_MEMORY}")
        viewed: Register = made(Register, "view", (self, dtype), _raw_of(self).view(dtype),
                                _owners_of(self), self._run)
        return viewed

    # ---- selecting processors, which keeps each value with its own -------------------------

    __getitem__ = getitem  # pram.registers.selection
    __setitem__ = setitem

    # ---- everything that turns data into host control flow or moves it -------------------

    # After a run, a register is output, like Array.to_numpy(): the host may read it.

    def __iter__(self) -> Any:
        return iter(self._host("iterating over a register").tolist())

    def __contains__(self, item: Any) -> bool:
        return item in self._host("`in` on a register", allowed.REASONS["searchsorted"])

    def __bool__(self) -> bool:
        if self._sealed():
            refuse("bool() of a register (an if, while, and, or or not on register values, "
                   "as in `if x[0] > 3:`, where x[0] is still a register: processor 0's "
                   "value, not a number)", "would turn data into host control flow; decide "
                   "per processor with np.where(x > 3, a, b) or where= masks, end a loop on "
                   "data with a loop test (pram.Until), or read the value after the run")
        return bool(_raw_of(self))

    def __int__(self) -> int:
        return int(self._host("int() of a register"))

    def __float__(self) -> float:
        return float(self._host("float() of a register"))

    def __complex__(self) -> complex:
        return complex(self._host("complex() of a register"))

    def __index__(self) -> int:
        return int(self._host("using a register as a Python index (__index__)").__index__())

    def __format__(self, spec: str) -> str:
        if self._sealed():
            if spec:
                refuse("formatting a register's values", allowed.HOST)
            return repr(self)
        return format(_raw_of(self), spec) if spec else repr(self)

    def tolist(self) -> Any:
        return self._host("register.tolist()").tolist()

    def item(self, *args: Any) -> Any:
        return self._host("register.item()").item(*args)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> npt.NDArray[Any]:
        if self._sealed():
            refuse("np.asarray of a register, or a plain array indexed by a register (an "
                   "escape to a plain array)", allowed.ESCAPE
                   + "; to select entries of a plain array by a register mask (i[mask]), "
                   "make it a register of the same processors first: hold(pid, i)[mask]; a "
                   "lookup in a constant table (np.take(table, x), table[x]) is "
                   "np.choose(x, table); a list of registers given to numpy "
                   "(np.maximum.reduce([x, y]), np.array([x, y])) is made a plain array too: "
                   + allowed.OWN)
        values = _raw_of(self) if dtype is None else _raw_of(self).astype(dtype)
        return values.copy() if copy is not False else values

    def __getattr__(self, name: str) -> Any:
        # ndarray methods a register does not have: name the refusal, not a missing attribute.
        reason = allowed.REASONS.get(name)
        if reason is None or name.startswith("_"):
            # an ndarray's method or property that numpy also has as a function (x.clip,
            # x.real): name the function, which takes registers where it works elementwise
            fix = (f"; call np.{name}(x, ...), which takes a register where it works on each "
                   "processor's own value" if not name.startswith("_")
                   and hasattr(np.ndarray, name) and callable(getattr(np, name, None)) else "")
            raise AttributeError(f"a Register has no attribute {name!r}{fix}")
        if not self._sealed():
            return getattr(_raw_of(self), name)  # output, after the run
        refuse(f"register.{name}", reason)

    def __reduce_ex__(self, protocol: Any) -> Any:
        if self._sealed():
            refuse("pickling a register (sending it to another process or thread)",
                   allowed.ESCAPE)
        return (np.array, (_raw_of(self),))

    def __reduce__(self) -> Any:
        return self.__reduce_ex__(2)


def contents(register: Register) -> npt.NDArray[Any]:
    """The raw values of ``register``: for the machine and its observers (refused to a
    program while the register's run is active). Ids chosen by data given as a step's
    processors (what observers see) are handed back as a plain array."""
    if isinstance(register, np.ndarray):
        return register.view(np.ndarray)
    run = register._run
    if run is not None and live(run) and not run._observing:
        refuse("pram.registers.contents of a register", allowed.ESCAPE)
    return _raw_of(register)


def processors(register: Register) -> Ids:
    """The ids of the processors ``register`` belongs to, entry by entry (refused while the
    run is active when they were chosen by data: their number is data)."""
    run = register._run
    ids = _owners_of(register)
    if type(ids) is Chosen:
        if run is not None and live(run) and not run._observing:
            refuse("the processors of a register chosen by data", allowed.SIZE)
    elif not immutable(ids):
        # Ids selected by a plain key (x[np.array([0, 1])]) are a fresh array: writing it would
        # rename the register's processors, so the register is bound to a frozen copy first.
        ids = freeze(ids)
        _put_owners(register, ids)
    return ids


__all__ = ["Register", "contents", "processors"]
