"""Registers: what a step's reads return, bound to the processors of that step and to its run.

Between steps a processor may only compute on its own registers, in O(1) (engine.md, "A step").
A :class:`Register` enforces that by construction. It holds one value per processor together
with the ids of the processors the values belong to and the token of the run it belongs to
(:mod:`pram.run`), and numpy routes every operation on it through
:meth:`Register.__array_ufunc__` and :meth:`Register.__array_function__` (NEP 13, 18). While its
run is active, what it accepts is an allow-list (:mod:`pram.allowed`), nothing else:

- operands are registers of the same processors and run, numbers (Python's, numpy's numeric
  scalars) and plain numeric ``numpy.ndarray`` of exactly that type (computed from sizes);
  dtypes are bool, integers, floats or complex;
- elementwise ufuncs without a core signature, called (no ufunc methods), with ``out=`` and
  ``where=`` only registers of the same processors; the array functions of
  :data:`pram.allowed.FUNCTIONS`, each with its keyword arguments; ``astype``, ``copy``,
  ``view`` with the same itemsize, in-place operators, ``copy.copy``;
- every operation is total: floating-point reports are silenced, so no exception or warning
  depends on the data (an integer power with a register exponent is refused by type);
- indexing by a plain key (a slice, a boolean mask or integers computed from sizes) selects
  processors by size together with their values; indexing by a boolean register of the same
  processors gives the processors that chose themselves by their data. Such a register is
  *opaque*: its size is data, so ``len``, ``shape``, ``size``, ``repr`` and every other way of
  asking refuse while the run is active, and it combines only with scalars and registers of
  the same selection (the same mask register); a :class:`pram.Step` and :func:`hold` take it;
- everything else raises :class:`pram.HonestyError` naming the operation and the fix.

After the run a register is output, like ``Array.to_numpy()``: numpy may do anything with it.

>>> import numpy as np
>>> from pram import Machine, Read, Step, Write, iota
>>> m = Machine()
>>> a = m.array("a", values=np.array([3, 4]))
>>> def double(m, a):
...     pid = m.processors(2)
...     x, = yield Step(pid, reads=[Read(a, iota(2))])
...     yield Step(pid, writes=[Write(a, iota(2), np.where(x > 3, 2 * x, x))])
>>> m.run(double(m, a)); a.to_numpy().tolist()
[3, 8]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy.typing as npt
from numpy.lib.mixins import NDArrayOperatorsMixin

from pram import allowed, operations
from pram._held import Held, owners_of, put_owners, put_raw, put_selections, raw_of
from pram._numpy import np
from pram.allowed import THROUGH_MEMORY
from pram.errors import HonestyError
from pram.ids import Chosen, Ids, freeze, immutable, same, same_processors
from pram.operations import (
    _ANOTHER_RUN,
    _batch,
    _dtype,
    _host,
    _into,
    _kept,
    _key,
    _made,
    _operand,
    _refuse,
    _run_of,
    _select_function,
    _unwrap,
    _wrap,
)
from pram.run import Observer, Run, running


def _operator(ufunc: np.ufunc) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The forward and reflected operator of ``ufunc`` for :class:`Register`: registers of one
    array of processors and run, or a Python int or bool, without numpy's dispatch (every other
    case takes it, and with it every check of :meth:`Register.__array_ufunc__`). An int64
    result of an operation that can overflow is checked (:func:`pram.operations.checked`).

    Registers of one array of processors are the same ids (the same object, or equal ids
    that were not chosen by data: :func:`pram.ids.same`, as the dispatch asks). An operation
    that may report on integers (:data:`pram.allowed.LOUD`) takes this path only as ``//`` or
    ``%`` by a positive constant, which cannot divide by zero or overflow."""
    name = ufunc.__name__
    loud = ufunc in allowed.LOUD
    divides = ufunc is np.floor_divide or ufunc is np.remainder
    overflows = ufunc in operations.CHECKED

    def forward(self: Register, other: Any) -> Any:
        run = self._run
        if run is not None and run._active and raw_of(self).dtype.kind in "biu":
            kind = type(other)
            if kind is Register:
                if (not loud and other._run is run and raw_of(other).dtype.kind in "biu"
                        and (owners_of(other) is owners_of(self)
                             or same(owners_of(other), owners_of(self)))):
                    values = ufunc(raw_of(self), raw_of(other))
                    if overflows:
                        operations.checked(name, (raw_of(self), raw_of(other)), values,
                                           owners_of(self), run)
                    return _made(name, (self, other), values, owners_of(self), run)
            elif (kind is int or kind is bool) and (not loud or (divides and other > 0)):
                values = ufunc(raw_of(self), other)
                if overflows:
                    operations.checked(name, (raw_of(self), other), values, owners_of(self),
                                       run)
                return _made(name, (self, other), values, owners_of(self), run)
        return ufunc(self, other)

    def reflected(self: Register, other: Any) -> Any:
        run = self._run
        kind = type(other)
        if (run is not None and run._active and not loud and (kind is int or kind is bool)
                and raw_of(self).dtype.kind in "biu"):
            values = ufunc(other, raw_of(self))
            if overflows:
                operations.checked(name, (other, raw_of(self)), values, owners_of(self), run)
            return _made(name, (other, self), values, owners_of(self), run)
        return ufunc(other, self)

    return forward, reflected


def _inplace(ufunc: np.ufunc) -> Callable[..., Any]:
    """``register op= other``: the operation, its result kept in the register (same kind)."""

    def apply(self: Register, other: Any) -> Register:
        result = ufunc(self, other)
        values = raw_of(result) if type(result) is Register else np.asarray(result)
        if type(result) is Register and owners_of(result) is not owners_of(self) \
                and not same_processors(owners_of(result), owners_of(self)):
            _refuse(f"register {ufunc.__name__}= a register of other processors", THROUGH_MEMORY)
        if not np.can_cast(values.dtype, raw_of(self).dtype, "same_kind"):
            raise TypeError(
                f"{ufunc.__name__}= would turn a register of {raw_of(self).dtype} into "
                f"{values.dtype}; write register = register {ufunc.__name__} other instead"
            )
        put_raw(self, _kept(self._run, raw_of(self),
                            values.astype(raw_of(self).dtype, copy=False)))
        put_selections(self, None)
        run = self._run
        if run is not None and run._observer is not None and type(result) is Register:
            run.operation("copy", (result,), self)  # the observer sees self hold the result
        return self

    return apply


def _lookup(args: Sequence[Any], kwargs: dict[str, Any], run: Run) -> Register:
    """``np.choose(index, table)``: each processor looks up its own entry of a constant table.

    The table is a plain numeric 1-d ``numpy.ndarray`` (made by the host from sizes and
    constants, so every processor may hold it: the model's program text), the index an
    integer register; the result is a register of the index's processors, one operation
    each. The lookup is total: an index out of range wraps around (``mode="wrap"``, or
    ``"clip"`` if asked for), since an error would tell the program about data.
    (``np.take(table, index)`` cannot be taken: numpy converts its index to a plain array
    without asking the register, which refuses that.)"""
    index = args[0] if args else None
    table = args[1] if len(args) > 1 else kwargs.get("choices")
    if type(table) in (list, tuple) and table and all(type(v) in allowed.SCALARS for v in table):
        table = np.array(table)  # a list of constants is program text too
    mode = kwargs.get("mode", "wrap")
    if (type(table) is not np.ndarray or table.ndim != 1 or not table.size
            or table.dtype.kind not in allowed.KINDS or type(index) is not Register
            or index.dtype.kind not in "biu" or len(args) > 2
            or set(kwargs) - {"choices", "mode"} or mode not in ("wrap", "clip")):
        _refuse("np.choose", "on registers is a lookup in a constant table only: "
                "np.choose(index, table) with an integer register index, a plain non-empty "
                "1-d numeric numpy array computed from sizes and constants, and mode 'wrap' "
                f"or 'clip'; values of other processors move through memory: {THROUGH_MEMORY}")
    if index._run is not run and index._run is not None:
        _refuse("np.choose on a register of another run", _ANOTHER_RUN)
    values = np.take(table, raw_of(index), mode=mode)
    found: Register = _made("choose", (index, table), values, owners_of(index), run)
    return found


def _against_tables(func: Any, name: str, args: Sequence[Any], kwargs: dict[str, Any],
                    run: Run) -> Register:
    """``np.interp(x, xp, fp)`` and ``np.searchsorted`` turned round (``x`` first, see
    :data:`pram.allowed.TABLES`): each processor's value against plain constant tables (program
    text, as :func:`_lookup`'s), one operation per constant."""
    tables = [_constant_table(t, f"np.{name}") for t in args[1:]]
    keywords = allowed.FUNCTIONS[func]
    for key in kwargs:
        if key not in keywords:
            _refuse(f"np.{name}(..., {key}=...)", "takes no such argument on registers; it "
                    f"takes {', '.join(sorted(keywords)) or 'positional arguments only'}")
    x: Register = args[0]
    return _against(name, x, tables[0], (x, *tables),
                    lambda values: func(values, *tables, **kwargs), run)


def _against(name: str, x: Register, table: npt.NDArray[Any], operands: tuple[Any, ...],
             compute: Callable[[npt.NDArray[Any]], Any], run: Run) -> Register:
    """``compute`` of each processor's value in ``x`` against a constant ``table``: one
    operation per constant (the first counted by the machine as the operation itself)."""
    if x._run is not run and x._run is not None:
        _refuse(f"np.{name} on a register of another run", _ANOTHER_RUN)
    with np.errstate(all="ignore"):
        values = compute(raw_of(x))
    run._operations += len(table) - 1
    found: Register = _made(name, operands, values, owners_of(x), run)
    return found


def _constant_table(table: Any, what: str) -> npt.NDArray[Any]:
    """A plain 1-d numeric table of constants (a numpy array, or a list or tuple of Python
    or numpy numbers), or a refusal: a register here would be other processors' values."""
    if type(table) in (list, tuple) and table and all(type(v) in allowed.SCALARS for v in table):
        table = np.array(table)
    if type(table) is not np.ndarray or table.ndim != 1 or not table.size or \
            table.dtype.kind not in allowed.KINDS:
        _refuse(what, "on registers takes plain non-empty 1-d numeric tables of constants "
                f"(computed from sizes and constants); other processors' values move through "
                f"memory: {THROUGH_MEMORY}")
    return table


def _where(args: Sequence[Any]) -> Any:
    """``np.where(condition, a, b)`` on registers of one array of processors (the same
    object) and one active run, and Python numbers: what :meth:`Register.__array_function__`
    does for them, without its general checks; None for anything else (which takes them)."""
    first = next((x for x in args if type(x) is Register), None)
    if first is None:
        return None
    owners, run = owners_of(first), first._run
    if run is None or not run._active:
        return None
    raw = []
    for x in args:
        kind = type(x)
        if kind is Register:
            if owners_of(x) is not owners or x._run is not run:
                return None
            raw.append(raw_of(x))
        elif kind is int or kind is bool or kind is float:
            raw.append(x)
        else:
            return None
    return _wrap("where", tuple(args), np.where(*raw), owners, run)


class Register(Held, NDArrayOperatorsMixin):
    """One value per processor, bound to the processors it belongs to and to one run.

    Made by the machine for each :class:`pram.Read` of a step (aligned with the step's
    processors; 0 where a ``where`` mask is False), by elementwise operations on registers, and
    by :func:`hold`. ``shape``, ``ndim``, ``size``, ``dtype`` and ``len`` describe it (sizes,
    not data), except for an opaque register (processors chosen by data), whose size is data.
    See the module's documentation for what a program can and cannot do with it.
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
        put_raw(self, values)
        put_owners(self, processors)
        self._run = run
        #: The processors this register selects when it is the mask (see _chosen).
        put_selections(self, None)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError("pram.Register is final: a subclass could hide values from the checks")

    def _sealed(self) -> bool:
        run = self._run
        return run is not None and run._active

    def _sized(self, what: str) -> None:
        if type(owners_of(self)) is Chosen and self._sealed():
            _refuse(what, allowed.SIZE)

    # ---- sizes, which are not data (unless the processors chose themselves) ------------

    @property
    def shape(self) -> tuple[int, ...]:
        self._sized("the shape of a register of processors chosen by data")
        if raw_of(self).ndim > owners_of(self).ndim and self._sealed():
            return owners_of(self).shape  # a batch's register: one row per instance
        return raw_of(self).shape

    @property
    def ndim(self) -> int:
        if raw_of(self).ndim > owners_of(self).ndim and self._sealed():
            return owners_of(self).ndim
        return raw_of(self).ndim

    @property
    def size(self) -> int:
        self._sized("the size of a register of processors chosen by data")
        if raw_of(self).ndim > owners_of(self).ndim and self._sealed():
            return owners_of(self).size
        return raw_of(self).size

    @property
    def dtype(self) -> np.dtype[Any]:
        return raw_of(self).dtype

    def __len__(self) -> int:
        self._sized("len() of a register of processors chosen by data")
        if raw_of(self).ndim > owners_of(self).ndim and self._sealed():
            return len(owners_of(self))
        return len(raw_of(self))

    def __repr__(self) -> str:
        if self._sealed():
            if type(owners_of(self)) is Chosen:
                return f"Register(processors chosen by data, dtype={self.dtype})"
            return f"Register(shape={self.shape}, dtype={self.dtype})"
        return f"Register({raw_of(self).tolist()!r})"

    __str__ = __repr__

    # ---- elementwise work --------------------------------------------------------------

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        run = _run_of(inputs, kwargs.get("out"), kwargs.get("where"))
        if run is None:
            return _host(getattr(ufunc, method), inputs, kwargs)  # output, after the run
        name = getattr(ufunc, "__name__", repr(ufunc))
        if method != "__call__":
            _refuse(f"np.{name}.{method}", allowed.METHODS.get(method, allowed.METHODS["at"]))
        if ufunc.signature is not None:
            _refuse(f"the generalised ufunc {name!r}", "folds the values of many processors "
                    "(its core dimensions span processors); reduce with a tree of machine "
                    "steps (pram.algorithms.primitives shows the pattern)")
        if ufunc not in allowed.UFUNCS:
            _refuse(f"the ufunc {name!r}", "is not one of numpy's own elementwise operations "
                    "(a Python function applied to register values would hand them to the "
                    "host); use numpy's ufuncs")
        for key in kwargs:
            if key not in allowed.UFUNC_KEYWORDS:
                _refuse(f"np.{name}(..., {key}=...)", "takes no such argument on registers; "
                        "pass dtype=, or out= and where= registers of the same processors")
        out = kwargs.pop("out", None)
        where = kwargs.pop("where", True)
        if "dtype" in kwargs:
            kwargs["dtype"] = _dtype(kwargs["dtype"], f"np.{name}(..., dtype=...)")
        args, owners = _unwrap(name, inputs, run)
        if ufunc is np.power or ufunc is np.float_power:
            exponent = inputs[1] if len(inputs) > 1 else None
            if type(exponent) is Register and exponent.dtype.kind in "biu" and \
                    np.result_type(*args).kind in "biu":
                _refuse("an integer power with a register exponent", "fails for negative "
                        "exponents, which would tell the host about data; raise to a float "
                        "power (x ** y.astype(float)) or clip the exponent with np.maximum")
        if ufunc not in allowed.QUIET_ON_INTEGERS or _inexact(args) or "dtype" in kwargs:
            with np.errstate(all="ignore"):
                result = ufunc(*args, **kwargs)
        else:  # integers and bools: no floating-point report can arise
            result = ufunc(*args, **kwargs)
        if ufunc in operations.CHECKED:
            operations.checked(name, args, result, owners, run)
        if out is None and where is not True:
            _refuse(f"np.{name}(..., where=...) without out=", "hands back memory other "
                    "processors held where the mask is False; pass out= a register of the "
                    "same processors, or use np.where")
        if out is not None:
            return _into(name, inputs, result, out, where, owners, run)
        return _wrap(name, inputs, result, owners, run)

    def __array_function__(
        self,
        func: Callable[..., Any],
        types: Sequence[type],
        args: Sequence[Any],
        kwargs: dict[str, Any],
    ) -> Any:
        if func is np.where and not kwargs and len(args) == 3:
            chosen = _where(args)
            if chosen is not None:
                return chosen
        run = _run_of(args, *kwargs.values())
        if run is None:
            return _host(func, args, kwargs)  # output, after the run
        name = getattr(func, "__name__", None) or repr(func)
        if func is np.choose:
            return _lookup(args, kwargs, run)
        if func is getattr(np, "astype", None) and args and type(args[0]) is Register:
            # np.astype(x, dtype, copy=...) is the method: the same dtype and narrowing checks
            dtype = args[1] if len(args) > 1 else kwargs.get("dtype")
            if len(args) > 2 or set(kwargs) - {"dtype", "copy"}:
                _refuse("np.astype with more than a dtype and copy", "takes dtype (and copy)")
            return args[0].astype(dtype)
        if func in allowed.TABLES and len(args) >= 2 and type(args[0]) is Register:
            return _against_tables(func, name, args, kwargs, run)
        if func is np.searchsorted and len(args) == 2 and type(args[1]) is Register and \
                type(args[0]) is not Register and set(kwargs) <= {"side"}:
            # each processor's rank in a sorted table of constants: np.digitize turned round
            table = _constant_table(args[0], "np.searchsorted")
            side = kwargs.get("side", "left")
            if side not in ("left", "right"):
                _refuse("np.searchsorted(..., side=...)", "takes side='left' or 'right'")
            return _against("searchsorted", args[1], table, (table, args[1]),
                            lambda values: np.searchsorted(table, values, side=side), run)
        keywords = allowed.FUNCTIONS.get(func)
        if keywords is None:
            _refuse(f"np.{name}", allowed.REASONS.get(name, allowed.DEFAULT))
        for key in kwargs:
            if key not in keywords:
                _refuse(f"np.{name}(..., {key}=...)", "takes no such argument on registers; "
                        f"it takes {', '.join(sorted(keywords)) or 'positional arguments only'}")
        if func is np.where and len(args) != 3:
            _refuse("np.where with one argument", allowed.REASONS["nonzero"])
        if func in allowed.SIZES:
            for arg in args:
                if type(arg) is Register:
                    arg._sized(f"np.{name} of a register of processors chosen by data")
            return func(*[_per_instance(a) if type(a) is Register else a for a in args],
                        **kwargs)
        if func is np.select:
            return _select_function(args, kwargs, run)
        if "dtype" in kwargs:
            kwargs = {**kwargs, "dtype": _dtype(kwargs["dtype"], f"np.{name}(..., dtype=...)")}
        constants = 0
        if func in allowed.AGAINST_CONSTANTS:
            if len(args) < 2 or type(args[1]) is Register:
                _refuse(f"np.{name} against a register", "compares with other processors' "
                        f"values; compare against plain constants, or {THROUGH_MEMORY}")
            constants = int(np.size(args[1]))
            plain_args = (args[0],)
        else:
            plain_args = tuple(args)
        values, owners = _unwrap(name, (*plain_args, *kwargs.values()), run)
        raw = values[: len(plain_args)] + list(args[len(plain_args):])
        given = dict(zip(kwargs, values[len(plain_args):], strict=True))
        if func is np.empty_like:
            func = np.zeros_like  # total: never memory another processor held
        if func is np.where or func is np.clip:
            result = func(*raw, **given)  # integers and bools: nothing to report
        else:
            with np.errstate(all="ignore"):
                result = func(*raw, **given)
        if constants:
            run._operations += constants - 1  # one comparison per constant, for each processor
        return _wrap(name, tuple(args), result, owners, run)

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
        if run is not None and run._active and raw_of(self).dtype.kind in "biu":
            # what np.invert(self) does on bools and integers, without numpy's dispatch
            return _made("invert", (self,), np.invert(raw_of(self)), owners_of(self), run)
        return np.invert(self)

    def __neg__(self) -> Any:
        return np.negative(self)

    def __round__(self, ndigits: int | None = None) -> Any:
        return np.round(self, ndigits or 0)

    def astype(self, dtype: Any, *args: Any, **kwargs: Any) -> Any:
        """The values converted to ``dtype``, still bound to the same processors."""
        run = self._run
        if run is None or not run._active:
            return Register(raw_of(self).astype(dtype, *args, **kwargs), owners_of(self), run)
        dtype = _dtype(dtype, "register.astype")
        if args or set(kwargs) - {"copy"}:
            _refuse("register.astype with order=, casting= or subok=", "takes dtype (and copy)")
        with np.errstate(all="ignore"):
            values = raw_of(self).astype(dtype)
        operations.checked_cast(raw_of(self), values, owners_of(self), run)
        return _made("astype", (self, dtype), values, owners_of(self), run)

    def copy(self) -> Register:
        """A register of the same processors holding the same values."""
        copied: Register = _made("copy", (self,), raw_of(self).copy(), owners_of(self),
                                 self._run)
        return copied

    __copy__ = copy

    def __deepcopy__(self, memo: Any) -> Register:
        return self.copy()

    def view(self, dtype: Any) -> Register:
        """The same bits read as ``dtype`` of the same itemsize (one value per processor)."""
        dtype = _dtype(dtype, "register.view")
        if dtype.itemsize != raw_of(self).dtype.itemsize:
            _refuse(f"register.view({dtype}) of another itemsize", "spreads values over "
                    f"other processors' entries; use astype, or {THROUGH_MEMORY}")
        viewed: Register = _made("view", (self, dtype), raw_of(self).view(dtype),
                                 owners_of(self), self._run)
        return viewed

    # ---- selecting processors, which keeps each value with its own -------------------------

    def __getitem__(self, key: Any) -> Any:
        run = self._run
        if (type(key) is int or isinstance(key, np.integer)) and not self._sealed():
            return raw_of(self)[key]  # output, after the run: the value itself
        raw, owners = _key(self, key, "reading")
        if getattr(owners, "rows", None) is not None:  # a batch's selection: full width kept
            values = owners if raw_of(self) is owners_of(self) else raw_of(self)
        elif raw_of(self).ndim > owners_of(self).ndim:  # a batch's register, by a plain key
            values = raw_of(self)[_in_rows(raw)]
        else:
            values = owners if raw_of(self) is owners_of(self) else raw_of(self)[raw]
        if type(owners) is Chosen and type(values) is not np.ndarray:
            values = values.view(np.ndarray)
        result = Register(values, owners, run)
        if run is not None and run._observer is not None:
            run.operation("getitem", (self, key), result)
        return result

    def __setitem__(self, key: Any, value: Any) -> None:
        run = self._run
        if sys.getrefcount(self) <= _TEMPORARY and run is not None and run._active:
            _refuse("assigning into a selection of a register (chained, as in "
                    "x[1:][mask] = 0)", "changes a temporary copy, which is then lost; assign "
                    "with one key (x[mask] = 0, the mask over all of x's processors), or name "
                    "the selection first (y = x[1:]; y[mask] = 0) and use y")
        raw, target = _key(self, key, "assigning")
        if type(value) is Register:
            if value._run is not run and value._run is not None and run is not None:
                _refuse("register[key] = a register of another run", _ANOTHER_RUN)
            chosen = owners_of(value)
            if chosen is not target and type(chosen) is Chosen and type(target) is Chosen \
                    and type(key) is Register and chosen.parent is not None \
                    and same(chosen.parent, owners_of(self)):
                # y[mask] = z[other mask] over the same processors (masks computed apart, as
                # in y[x > 5] = z[x > 5]): each processor chosen by both masks takes its own
                # value of z; comparing the masks would tell the program about data, so
                # nothing is compared and nothing refused.
                both = raw & chosen.mask
                if getattr(chosen, "rows", None) is not None:  # a batch: full width kept
                    given = raw_of(value)
                else:
                    given = raw_of(value)[both[chosen.mask]]
                raw = both
            elif chosen is not target and not same(chosen, target):
                _refuse(
                    "register[key] = value with a value of other processors",
                    f"a register holds each processor's own values; {THROUGH_MEMORY}",
                )
            else:
                given = raw_of(value)
        else:
            given = _operand(value, "register[key] = value", type(target) is Chosen)
        _cast_into(raw_of(self).dtype, given)
        before = Register(raw_of(self), owners_of(self), run)
        if getattr(target, "rows", None) is not None or raw_of(self).ndim > \
                owners_of(self).ndim or (type(value) is Register and raw_of(value).ndim
                                          > owners_of(value).ndim):
            put_raw(self, _kept(run, raw_of(self), _batched_set(
                raw_of(self), owners_of(self), raw, given,
                getattr(target, "rows", None) is not None, _batch(run) or len(raw_of(self)))))
            put_selections(self, None)
            if run is not None:
                run._operations += 1
                if run._observer is not None:
                    run.operation("setitem", (before, key, value), self)
            return
        values = raw_of(self).copy()
        if values.dtype.kind in "biu" and not _inexact((given,)):
            values[raw] = given
        else:
            with np.errstate(all="ignore"):
                values[raw] = given  # a cast that overflows reports nothing
        put_raw(self, values)
        put_selections(self, None)
        if run is not None:
            run._operations += 1
            if run._observer is not None:
                run.operation("setitem", (before, key, value), self)

    # ---- everything that turns data into host control flow or moves it -------------------

    # After a run, a register is output, like Array.to_numpy(): the host may read it.

    def __iter__(self) -> Any:
        if self._sealed():
            _refuse("iterating over a register", allowed.HOST)
        return iter(raw_of(self).tolist())

    def __contains__(self, item: Any) -> bool:
        if self._sealed():
            _refuse("`in` on a register", allowed.REASONS["searchsorted"])
        return item in raw_of(self)

    def __bool__(self) -> bool:
        if self._sealed():
            _refuse("bool() of a register (an if, while, and, or or not on register values, "
                    "as in `if x[0] > 3:`, where x[0] is still a register: processor 0's "
                    "value, not a number)", "would turn data into host control flow; decide "
                    "per processor with np.where(x > 3, a, b) or where= masks, end a loop on "
                    "data with a loop test (pram.Until), or read the value after the run")
        return bool(raw_of(self))

    def __int__(self) -> int:
        if self._sealed():
            _refuse("int() of a register", allowed.HOST)
        return int(raw_of(self))

    def __float__(self) -> float:
        if self._sealed():
            _refuse("float() of a register", allowed.HOST)
        return float(raw_of(self))

    def __complex__(self) -> complex:
        if self._sealed():
            _refuse("complex() of a register", allowed.HOST)
        return complex(raw_of(self))

    def __index__(self) -> int:
        if self._sealed():
            _refuse("using a register as a Python index (__index__)", allowed.HOST)
        return raw_of(self).__index__()

    def __format__(self, spec: str) -> str:
        if self._sealed():
            if spec:
                _refuse("formatting a register's values", allowed.HOST)
            return repr(self)
        return format(raw_of(self), spec) if spec else repr(self)

    def tolist(self) -> Any:
        if self._sealed():
            _refuse("register.tolist()", allowed.HOST)
        return raw_of(self).tolist()

    def item(self, *args: Any) -> Any:
        if self._sealed():
            _refuse("register.item()", allowed.HOST)
        return raw_of(self).item(*args)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> npt.NDArray[Any]:
        if self._sealed():
            _refuse("np.asarray of a register, or a plain array indexed by a register (an "
                    "escape to a plain array)", allowed.ESCAPE
                    + "; to select entries of a plain array by a register mask (i[mask]), "
                    "make it a register of the same processors first: hold(pid, i)[mask]; a "
                    "lookup in a constant table (np.take(table, x), table[x]) is "
                    "np.choose(x, table)")
        values = raw_of(self) if dtype is None else raw_of(self).astype(dtype)
        return values.copy() if copy is not False else values

    def __getattr__(self, name: str) -> Any:
        # ndarray methods a register does not have: name the refusal, not a missing attribute.
        reason = allowed.REASONS.get(name)
        if reason is None or name.startswith("_"):
            raise AttributeError(f"a Register has no attribute {name!r}")
        if not self._sealed():
            return getattr(raw_of(self), name)  # output, after the run
        _refuse(f"register.{name}", reason)

    def __reduce_ex__(self, protocol: Any) -> Any:
        if self._sealed():
            _refuse("pickling a register (sending it to another process or thread)",
                    allowed.ESCAPE)
        return (np.array, (raw_of(self),))

    def __reduce__(self) -> Any:
        return self.__reduce_ex__(2)


def contents(register: Register) -> npt.NDArray[Any]:
    """The raw values of ``register``: for the machine and its observers (refused to a
    program while the register's run is active). Ids chosen by data given as a step's
    processors (what observers see) are handed back as a plain array."""
    if isinstance(register, np.ndarray):
        return register.view(np.ndarray)
    run = register._run
    if run is not None and run._active and not run._observing:
        _refuse("pram.registers.contents of a register", allowed.ESCAPE)
    return raw_of(register)


def processors(register: Register) -> Ids:
    """The ids of the processors ``register`` belongs to, entry by entry (refused while the
    run is active when they were chosen by data: their number is data)."""
    run = register._run
    ids = owners_of(register)
    if type(ids) is Chosen:
        if run is not None and run._active and not run._observing:
            _refuse("the processors of a register chosen by data", allowed.SIZE)
    elif not immutable(ids):
        # Ids selected by a plain key (x[np.array([0, 1])]) are a fresh array: writing it would
        # rename the register's processors, so the register is bound to a frozen copy first.
        ids = freeze(ids)
        put_owners(register, ids)
    return ids


# ---- the machinery -----------------------------------------------------------------------

def _per_instance(register: Register) -> npt.NDArray[Any]:
    """A register's values as one instance sees them: a batch's register by its first row
    (sizes and dtype, the same in every row)."""
    values = raw_of(register)
    return values[0] if values.ndim > owners_of(register).ndim else values


def _batched_set(values: npt.NDArray[Any], owners: Ids, raw: Any, given: Any,
                 rows: bool, batch: int) -> npt.NDArray[Any]:
    """``values[raw] = given`` for a register of a batch (one row of values per instance, or
    one row for all): ``raw`` the flags ``(batch, n)`` of a selection by data, which keeps
    the full width, or a plain key over the processors (the last axis)."""
    given = np.asarray(given)
    if rows:
        shape = raw.shape
        result = np.array(np.broadcast_to(values, shape), dtype=np.result_type(values.dtype))
        with np.errstate(all="ignore"):
            result[raw] = np.broadcast_to(given, shape)[raw]
        return result
    result = np.array(np.broadcast_to(values, (batch, *owners.shape)))
    with np.errstate(all="ignore"):
        result[_in_rows(raw)] = given
    return result


def _in_rows(key: Any) -> tuple[Any, ...]:
    """A plain key over one instance's processors as the key into a batch's register values
    (one row per instance, the instances first): every row indexed alike, as a single
    machine indexes its one row (``x[..., 0]`` and ``x[0]`` of a block of processors keep
    their meaning; the instance axis is never indexed)."""
    return (slice(None), *(key if type(key) is tuple else (key,)))


def _references() -> int:
    """The reference count :meth:`Register.__setitem__` sees on a temporary (``x[1:][m] = 0``),
    measured on this interpreter with a class of the same shape; 0 (no check) where a named
    target (``y[m] = 0``) shows no more."""
    counts: list[int] = []

    class Probe:
        def __getitem__(self, key: Any) -> Probe:
            return Probe()

        def __setitem__(self, key: Any, value: Any) -> None:
            counts.append(sys.getrefcount(self))

    def assign(probe: Probe) -> None:
        probe[1:][0] = 0
        named = probe[1:]
        named[0] = 0

    assign(Probe())
    chained, named = counts
    return chained if chained < named else 0


#: See :func:`_references`.
_TEMPORARY = _references()


def _cast_into(dtype: np.dtype[Any], given: Any) -> None:
    """The one cast rule of ``register[key] = value``, decided on the dtypes alone over the
    register's full width, whatever the key selects: complex values into a register that is
    not complex are refused (numpy would discard the imaginary parts, and warn only when some
    processor is selected: a warning that depends on the data, an n-way OR with no step);
    every other cast is numpy's, with its reports silenced (the assignment is total)."""
    if dtype.kind == "c":
        return
    kind = type(given)
    given_kind = given.dtype.kind if kind is np.ndarray or isinstance(given, np.generic) \
        else "c" if kind is complex else ""
    if given_kind == "c":
        raise TypeError(
            f"register[key] = complex values into a register of {dtype} would discard their "
            "imaginary parts (whatever the key selects); assign np.real(value), or make the "
            "register complex first (register.astype(complex))"
        )


def _inexact(values: Sequence[Any]) -> bool:
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


# The operations' machinery makes registers of this class (bound here: no import cycle).
setattr(operations, "Register", Register)  # noqa: B010

__all__ = [
    "THROUGH_MEMORY",
    "Chosen",
    "Observer",
    "Register",
    "contents",
    "freeze",
    "processors",
    "running",
    "same_processors",
]
