"""Registers: what a step's reads return, bound to the processors of that step.

Between steps a processor may only compute on its own registers, in O(1) (engine.md, "A step").
A :class:`Register` enforces that by construction. It holds one value per processor together
with the ids of the processors the values belong to, and numpy routes every operation on it
through :meth:`Register.__array_ufunc__` and :meth:`Register.__array_function__` (NEP 13, 18):

- elementwise ufuncs (arithmetic, comparisons, ``minimum``, bit operations, ...), ``np.where``
  with three arguments, ``np.clip``, ``astype`` and the like give a register of the same
  processors, when every register operand belongs to the same processors in the same order and
  every other operand is a scalar or a plain array (plain arrays are computed from sizes: data
  cannot leave a register while a program runs) that broadcasts to the register's shape;
- indexing by a plain key (a slice, a boolean mask or integers computed from sizes) selects the
  same entries of the values and of the processor ids, so every value stays with its processor;
  assigning into a register (``r[key] = x``) is allowed on the same terms: ``x`` must belong to
  exactly the processors ``r[key]`` belongs to;
- everything else raises :class:`pram.HonestyError` naming the operation and the fix: a ufunc's
  ``reduce``, ``accumulate``, ``outer``, ``at`` and ``reduceat``, every array function not on the
  allow-list (sorts, searches, reductions, scans, concatenation, ...), indexing by a register,
  combining registers of different processors and, while a program runs, iteration,
  ``tolist``, ``item``, ``int``, ``bool``, ``float``, ``__index__`` and escaping to a plain
  array (after the run a register is output, like ``Array.to_numpy()``).

The machine accepts a register as a step's index, value or ``where`` mask only from the
processors it belongs to, in the same order: values move between processors through memory.

>>> import numpy as np
>>> from pram import Machine, Read, Step, Write
>>> m = Machine()
>>> a = m.array("a", values=np.array([3, 4]))
>>> def double(m, a):
...     pid = m.processors(2)
...     x, = yield Step(pid, reads=[Read(a, pid)])
...     yield Step(pid, writes=[Write(a, pid, np.where(x > 3, 2 * x, x))])
>>> m.run(double(m, a)); a.to_numpy().tolist()
[3, 8]
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

import numpy as np
import numpy.typing as npt
from numpy.lib.mixins import NDArrayOperatorsMixin

from pram.errors import HonestyError

if TYPE_CHECKING:
    from pram.step import Step, Values

#: The fix for every move of a value between processors.
THROUGH_MEMORY = (
    "values move between processors through memory: write them, then read them in a later step"
)


class Observer(Protocol):
    """What watches a run: every global step and every elementwise operation on registers."""

    def step(self, number: int, steps: Sequence[Step], replies: Sequence[Values]) -> None:
        """Called by the machine after global step ``number`` executed: its Steps (one per
        parallel branch; their indices, values and masks may be Registers, plain arrays or
        ints) and, aligned with them, what each Step's reads returned (tuples of Registers)."""

    def operation(self, name: str, operands: tuple[Any, ...], result: Any) -> None:
        """Called after every elementwise operation that produced a Register: ``name`` is the
        ufunc's name ("add", "minimum", "less", ...) or the array function's ("where",
        "astype", "clip", ...); ``operands`` as given (Registers, scalars, plain arrays);
        ``result`` the Register (or tuple of Registers) it produced."""


class _State(threading.local):
    """Whether a program runs (sealing memory and plain-array escapes) and who observes it.

    One per thread, so a run in one thread (a Dask worker's, say) neither seals the host code of
    another nor reports its operations to another run's observer.
    """

    def __init__(self) -> None:
        self.running = 0
        self.observer: Observer | None = None


#: The state of this thread: set by :meth:`pram.Machine.run` for the run's duration.
STATE = _State()


def running() -> bool:
    """Whether a program is running on some machine (its memory is sealed)."""
    return STATE.running > 0


def _operator(ufunc: np.ufunc) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The forward and reflected operator of ``ufunc`` for :class:`Register` (see there)."""
    name = ufunc.__name__

    def forward(self: Register, other: Any) -> Any:
        kind = type(other)
        if STATE.running:
            if kind is Register and other._processors is self._processors:
                result = ufunc(self._values, other._values)
                return _wrap(name, (self, other), result, self._processors)
            if kind is int or kind is bool:
                return _wrap(name, (self, other), ufunc(self._values, other), self._processors)
        return ufunc(self, other)

    def reflected(self: Register, other: Any) -> Any:
        kind = type(other)
        if STATE.running and (kind is int or kind is bool):
            return _wrap(name, (other, self), ufunc(other, self._values), self._processors)
        return ufunc(other, self)

    return forward, reflected


def _unary(ufunc: np.ufunc) -> Callable[..., Any]:
    """The unary operator of ``ufunc`` for :class:`Register`."""
    name = ufunc.__name__

    def apply(self: Register) -> Any:
        if STATE.running:
            return _wrap(name, (self,), ufunc(self._values), self._processors)
        return ufunc(self)

    return apply


class Register(NDArrayOperatorsMixin):
    """One value per processor, bound to the processors it belongs to.

    Made by the machine for each :class:`pram.Read` of a step (aligned with the step's
    processors; 0 where a ``where`` mask is False), by elementwise operations on registers, and
    by :func:`hold`. ``shape``, ``ndim``, ``size``, ``dtype`` and ``len`` describe it (sizes,
    not data). See the module's documentation for what a program can and cannot do with it.
    """

    __slots__ = ("_processors", "_values")

    def __init__(self, values: npt.NDArray[Any], processors: npt.NDArray[np.integer[Any]]) -> None:
        self._values = values
        self._processors = processors

    # ---- sizes, which are not data -----------------------------------------------------

    @property
    def shape(self) -> tuple[int, ...]:
        return self._values.shape

    @property
    def ndim(self) -> int:
        return self._values.ndim

    @property
    def size(self) -> int:
        return self._values.size

    @property
    def dtype(self) -> np.dtype[Any]:
        return self._values.dtype

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        if running():
            return f"Register(shape={self.shape}, dtype={self.dtype})"
        return f"Register({self._values.tolist()!r})"

    # ---- elementwise work --------------------------------------------------------------

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if not STATE.running and (method != "__call__" or "out" in kwargs):
            return _host(getattr(ufunc, method), inputs, kwargs)  # output, after the run
        if method != "__call__":
            _refuse(f"np.{ufunc.__name__}.{method}", _METHODS.get(method, _METHODS["at"]))
        if ufunc not in _UFUNCS:
            _refuse(
                f"the ufunc {ufunc.__name__!r}",
                "is not one of numpy's own elementwise operations (a Python function applied "
                "to register values would hand them to the host); use numpy's ufuncs",
            )
        if "out" in kwargs:
            _refuse(f"np.{ufunc.__name__}(..., out=...)", "it writes into an existing array; "
                    "use the result of the operation instead")
        try:
            args, processors = _unwrap(ufunc, inputs)
            if "where" in kwargs:
                (kwargs["where"],), _ = _unwrap(ufunc, (kwargs["where"],), processors)
            result = ufunc(*args, **kwargs)
            return _wrap(ufunc.__name__, inputs, result, processors)
        except _Outside:
            return _host(ufunc, inputs, kwargs)

    def __array_function__(
        self,
        func: Callable[..., Any],
        types: Sequence[type],
        args: Sequence[Any],
        kwargs: dict[str, Any],
    ) -> Any:
        if not STATE.running and (func not in _ALLOWED or (func is np.where and len(args) == 1)):
            return _host(func, args, kwargs)  # output, after the run
        if func is np.where and len(args) + len(kwargs) != 3:
            _refuse("np.where with one argument", _FUNCTIONS["nonzero"])
        if func not in _ALLOWED:
            name = getattr(func, "__name__", None) or repr(func)
            _refuse(f"np.{name}", _FUNCTIONS.get(name, _DEFAULT))
        if func in _SIZES:
            return func(*[_sized(a) for a in args], **kwargs)
        operands = (*args, *kwargs.values()) if kwargs else tuple(args)
        try:
            unwrapped, processors = _unwrap(func, operands)
            if kwargs:
                result = func(
                    *unwrapped[: len(args)],
                    **dict(zip(kwargs, unwrapped[len(args) :], strict=True)),
                )
            else:
                result = func(*unwrapped)
            return _wrap(func.__name__, operands, result, processors)
        except _Outside:
            return _host(func, args, kwargs)

    # Operators between registers of one array of processors, or with a Python scalar, while a
    # program runs: what __array_ufunc__ would do, without numpy's dispatch to it. Every other
    # case takes numpy's dispatch, and with it every check above.
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
    __invert__ = _unary(np.invert)
    __neg__ = _unary(np.negative)

    def astype(self, dtype: Any, *args: Any, **kwargs: Any) -> Register:
        """The values converted to ``dtype``, still bound to the same processors."""
        result = Register(self._values.astype(dtype, *args, **kwargs), self._processors)
        observer = STATE.observer
        if observer is not None:
            observer.operation("astype", (self, dtype), result)
        return result

    def copy(self) -> Register:
        """A register of the same processors holding the same values."""
        result = Register(self._values.copy(), self._processors)
        observer = STATE.observer
        if observer is not None:
            observer.operation("copy", (self,), result)
        return result

    # ---- selecting processors, which keeps each value with its own -------------------------

    def __getitem__(self, key: Any) -> Register:
        raw = _key(key, self._processors, "reading")
        owners = _select(self._processors, key, raw)
        values = owners if self._values is self._processors else self._values[raw]
        result = Register(values, owners)
        observer = STATE.observer
        if observer is not None:
            observer.operation("getitem", (self, key), result)
        return result

    def __setitem__(self, key: Any, value: Any) -> None:
        raw = _key(key, self._processors, "assigning")
        target = _select(self._processors, key, raw)
        if isinstance(value, Register):
            if not same_processors(value._processors, target):
                _refuse(
                    "register[key] = value with a value of other processors",
                    f"a register holds each processor's own values; {THROUGH_MEMORY}",
                )
            given = value._values
        else:
            given = _plain("register[key] = value", value)
        before = Register(self._values, self._processors)
        values = self._values.copy()
        values[raw] = given
        self._values = values
        observer = STATE.observer
        if observer is not None:
            observer.operation("setitem", (before, key, value), self)

    # ---- everything that turns data into host control flow or moves it -------------------

    # After a run, a register is output, like Array.to_numpy(): the host may read it.

    def __iter__(self) -> Any:
        if running():
            _refuse("iterating over a register", _HOST)
        return iter(self._values.tolist())

    def __contains__(self, item: Any) -> bool:
        if running():
            _refuse("`in` on a register", _FUNCTIONS["searchsorted"])
        return item in self._values

    def __bool__(self) -> bool:
        if running():
            _refuse("bool() of a register", _HOST)
        return bool(self._values)

    def __int__(self) -> int:
        if running():
            _refuse("int() of a register", _HOST)
        return int(self._values)

    def __float__(self) -> float:
        if running():
            _refuse("float() of a register", _HOST)
        return float(self._values)

    def __complex__(self) -> complex:
        if running():
            _refuse("complex() of a register", _HOST)
        return complex(self._values)

    def __index__(self) -> int:
        if running():
            _refuse("using a register as a Python index (__index__)", _HOST)
        return self._values.__index__()

    def tolist(self) -> Any:
        if running():
            _refuse("register.tolist()", _HOST)
        return self._values.tolist()

    def item(self, *args: Any) -> Any:
        if running():
            _refuse("register.item()", _HOST)
        return self._values.item(*args)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> npt.NDArray[Any]:
        if running():
            _refuse("np.asarray of a register (an escape to a plain array)", _ESCAPE)
        values = self._values if dtype is None else self._values.astype(dtype)
        return values.copy() if copy is not False else values

    def __getattr__(self, name: str) -> Any:
        # ndarray methods a register does not have: name the refusal, not a missing attribute.
        reason = _FUNCTIONS.get(name)
        if reason is None:
            raise AttributeError(f"a Register has no attribute {name!r}")
        if not running():
            return getattr(self._values, name)  # output, after the run
        _refuse(f"register.{name}", reason)

    def __reduce__(self) -> Any:
        if running():
            _refuse("pickling a register", _ESCAPE)
        return (np.array, (self._values,))


def hold(processors: npt.NDArray[np.integer[Any]] | Register, values: Any = 0) -> Register:
    """A register of ``processors``, each holding its entry of ``values`` (computed from sizes).

    ``hold(pid, pid)`` gives every processor its own id. Selecting from it with a boolean
    register (``everyone[wants]``) gives the processors that decided to act, which a
    :class:`pram.Step` takes as its processors without the host learning who they are.

    ``values`` is a scalar or a plain array broadcastable to the processors' shape, or a
    register of the same processors. This is how a program starts a register file, e.g. one
    word per processor that later reads fill in with ``r[selection] = read``.
    """
    if isinstance(processors, Register):
        pass
    elif not isinstance(processors, np.ndarray) or processors.dtype.kind not in "iu":
        raise HonestyError(
            f"hold needs an integer array of processor ids (got {type(processors).__name__}); "
            "pass the ids Machine.processors handed out"
        )
    if isinstance(processors, Register):  # processors that decided to act: their own ids
        processors = processors._processors
    if processors.flags.writeable:
        processors.flags.writeable = False  # changing the ids would move values
    if values is processors:
        result = Register(processors, processors)  # each processor holds its own id
    else:
        if isinstance(values, Register):
            if not same_processors(values._processors, processors):
                _refuse("hold with a register of other processors", THROUGH_MEMORY)
            data = values._values
        else:
            data = _plain("hold", values)
        if isinstance(data, int | float | np.generic):  # one value for all: no broadcast
            result = Register(np.full(processors.shape, data), processors)
        else:
            result = Register(np.array(np.broadcast_to(data, processors.shape)), processors)
    observer = STATE.observer
    if observer is not None:
        observer.operation("hold", (processors, values), result)
    return result


def place_ids(size: int, *parts: tuple[npt.NDArray[np.bool_], Any]) -> Register:
    """A register of ``size`` processors, each holding its own id, assembled from ``parts``.

    Each part is ``(mask, ids)``: a plain boolean mask of ``size`` entries and the ids placed
    where it holds, in order; ``ids`` are plain (from :meth:`pram.Machine.processors`) or a
    register of ids (a selection of ``hold(pid, pid)``, whose ids the host never sees). Ids
    are not data, so no value moves: this is how a program forms a team of processors around
    the ones that decided to act, e.g. each with its helpers.
    """
    placed = np.zeros(size, dtype=np.int64)
    for mask, part in parts:
        if isinstance(part, Register):
            if not (part._values is part._processors
                    or np.array_equal(part._values, part._processors)):
                _refuse("place_ids with a register that does not hold processor ids",
                        "would turn data into processor ids; select ids from hold(pid, pid)")
            part = part._processors
        placed[mask] = part
    placed.flags.writeable = False
    result = Register(placed, placed)
    observer = STATE.observer
    if observer is not None:
        observer.operation("place_ids", (size, *parts), result)
    return result


def contents(register: Register) -> npt.NDArray[Any]:
    """The raw values of ``register`` (for the machine and observers, never for programs)."""
    return register._values


def processors(register: Register) -> npt.NDArray[np.integer[Any]]:
    """The ids of the processors ``register`` belongs to, entry by entry."""
    return register._processors


# ---- the machinery -----------------------------------------------------------------------


class _Outside(Exception):
    """After a run: an operation that is no longer elementwise works on the plain values."""


def _host(func: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
    """``func`` on the plain values of every register among ``args``: after a run only."""

    def plain(x: Any) -> Any:
        if isinstance(x, Register):
            return x._values
        if isinstance(x, list | tuple):
            return type(x)(plain(y) for y in x)
        return x

    return func(*plain(args), **{k: plain(v) for k, v in kwargs.items()})


def _refuse(operation: str, reason: str) -> NoReturn:
    raise HonestyError(f"{operation} {reason}")


def same_processors(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> bool:
    """Whether two arrays of processor ids are the same ids in the same order (cheap first)."""
    if a is b:
        return True
    if a.shape != b.shape:
        return False
    if (
        a.dtype == b.dtype
        and a.strides == b.strides
        and a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
    ):
        return True  # two views of the same memory
    return bool(np.array_equal(a, b))


def _unwrap(
    operation: Any, operands: Sequence[Any], processors: npt.NDArray[Any] | None = None
) -> tuple[list[Any], npt.NDArray[Any]]:
    """The raw operands of ``operation`` (a ufunc or an array function), and the processors
    every register among them belongs to."""
    raw: list[Any] = []
    for operand in operands:
        if isinstance(operand, Register):
            owners = operand._processors
            if processors is None:
                processors = owners
            elif owners is not processors and not same_processors(owners, processors):
                if not STATE.running:
                    raise _Outside
                _refuse(
                    f"np.{operation.__name__} on registers of different processors",
                    f"combines values of different processors; {THROUGH_MEMORY}",
                )
            raw.append(operand._values)
        elif isinstance(operand, list | tuple) and any(
            isinstance(x, Register) for x in operand
        ):
            _refuse(
                f"np.{operation.__name__} on a sequence of registers", _FUNCTIONS["concatenate"]
            )
        else:
            raw.append(operand)
    assert processors is not None  # numpy only calls a register's hooks when one takes part
    return raw, processors


def _wrap(name: str, operands: tuple[Any, ...], result: Any, processors: npt.NDArray[Any]) -> Any:
    """``result`` as register(s) of ``processors``, told to the observer; refuse other shapes."""
    if type(result) is np.ndarray and result.shape == processors.shape:
        wrapped: Any = Register(result, processors)
    elif isinstance(result, tuple):
        wrapped = tuple(_bound(name, r, processors) for r in result)
    else:
        wrapped = _bound(name, result, processors)
    observer = STATE.observer
    if observer is not None:
        observer.operation(name, operands, wrapped)
    return wrapped


def _bound(name: str, result: Any, processors: npt.NDArray[Any]) -> Register:
    if not isinstance(result, np.ndarray) or result.shape != processors.shape:
        if not STATE.running:
            raise _Outside
        shape = getattr(result, "shape", ())
        _refuse(
            f"np.{name} giving shape {shape} from registers of shape {processors.shape}",
            "spreads values over other processors (an operand broadcast beyond the "
            f"register's shape); {THROUGH_MEMORY}",
        )
    return Register(result, processors)


def _plain(operation: str, value: Any) -> Any:
    """A non-register operand: fine as long as no register hides inside it."""
    if isinstance(value, list | tuple) and any(isinstance(x, Register) for x in value):
        _refuse(f"{operation} with a sequence of registers", _FUNCTIONS["concatenate"])
    return value


def _sized(value: Any) -> Any:
    """A register replaced by its values, for functions that only look at sizes."""
    return value._values if isinstance(value, Register) else value


def _key(key: Any, owners: npt.NDArray[Any], verb: str) -> Any:
    """The raw index for ``key``: plain, or a boolean register of the same processors (each
    processor deciding whether it is selected); refuse any other index that is data."""
    if isinstance(key, Register):
        if key.dtype == np.bool_ and same_processors(key._processors, owners):
            return key._values
        _refuse(
            f"{verb} register[index] with an index that is a register",
            "(fancy indexing by data) moves values between processors; a processor may "
            "compute an address from its own registers and read it in a step: "
            f"{THROUGH_MEMORY}",
        )
    parts = key if isinstance(key, tuple) else (key,)
    for part in parts:
        if isinstance(part, Register) or (
            isinstance(part, list) and any(isinstance(x, Register) for x in part)
        ):
            _refuse(
                f"{verb} register[index] with an index that is a register",
                "(fancy indexing by data) moves values between processors; a processor may "
                "compute an address from its own registers and read it in a step: "
                f"{THROUGH_MEMORY}",
            )
        if part is None:
            _refuse(
                f"{verb} register[None]",
                "adds an axis that would spread each value over other processors; "
                f"{THROUGH_MEMORY}",
            )
    return key


#: Recent selections of processors by a register mask: (where the processors lie, the mask
#: register, the processors kept alive, the selected processors), so that registers selected
#: alike share one array of ids and compare by identity. A mask register's values are never
#: written in place (assignment copies), so a selection stays valid while its mask lives.
_SELECTIONS: list[tuple[tuple[Any, ...], Any, npt.NDArray[Any], npt.NDArray[Any]]] = []


def _select(owners: npt.NDArray[Any], key: Any, raw: Any) -> npt.NDArray[Any]:
    if not isinstance(key, Register):
        return owners[raw]  # type: ignore[no-any-return]
    where = (owners.__array_interface__["data"][0], owners.shape, owners.strides)
    for seen_where, seen_key, _, selected in _SELECTIONS:
        if seen_key is key and seen_where == where:
            return selected
    selected = owners[raw]
    _SELECTIONS.insert(0, (where, key, owners, selected))
    del _SELECTIONS[8:]
    return selected  # type: ignore[no-any-return]


_SORT = (
    "moves values between processors; sort with a network of machine steps, "
    "e.g. pram.algorithms.sorting"
)
_SEARCH = "searches across processors; search with machine steps, e.g. pram.algorithms.pbs"
_REDUCE = (
    "folds the values of many processors into one; reduce with a tree of machine steps "
    "(pram.algorithms.primitives shows the pattern)"
)
_SCAN = (
    "scans across processors; compute prefix sums with machine steps, e.g. "
    "pram.algorithms.primitives.prefix_sums"
)
_MOVE = f"moves values between processors; {THROUGH_MEMORY}"
_HOST = (
    "turns register values into host control flow; a processor decides per value with "
    "np.where and where= masks, and loop bounds come from sizes"
)
_ESCAPE = (
    "while a program runs lets data leave the processors; compute on the register "
    "(elementwise), and read results with Array.to_numpy() after the run"
)
_DEFAULT = (
    "is not an elementwise operation on registers; between steps a processor computes only "
    "on its own registers (ufuncs, np.where, astype), and values move through memory"
)
_METHODS = {
    "reduce": _REDUCE,
    "accumulate": _SCAN,
    "reduceat": _REDUCE,
    "outer": (
        "pairs every processor's value with every other's; compare values in machine steps, "
        f"{THROUGH_MEMORY}"
    ),
    "at": f"combines values of many processors in one place; {THROUGH_MEMORY}",
}
_FUNCTIONS: dict[str, str] = {}
for _names, _reason in (
    ("sort argsort lexsort partition argpartition sort_complex msort", _SORT),
    (
        "searchsorted unique unique_counts unique_inverse unique_values unique_all isin in1d "
        "intersect1d union1d setdiff1d setxor1d nonzero flatnonzero argwhere extract "
        "compress count_nonzero digitize histogram histogram2d histogramdd bincount index",
        _SEARCH,
    ),
    (
        "sum prod max min amax amin argmax argmin any all mean median average std var ptp "
        "percentile quantile nansum nanprod nanmax nanmin nanargmax nanargmin nanmean "
        "nanmedian nanstd nanvar nanpercentile nanquantile dot vdot inner matmul einsum "
        "tensordot trace vecdot array_equal array_equiv allclose isclose_all",
        _REDUCE,
    ),
    ("cumsum cumprod nancumsum nancumprod cumulative_sum cumulative_prod diff ediff1d "
     "gradient convolve correlate trapezoid trapz interp", _SCAN),
    (
        "roll concatenate concat stack hstack vstack dstack column_stack block append insert "
        "delete repeat tile flip fliplr flipud rot90 transpose swapaxes moveaxis reshape "
        "ravel flatten squeeze expand_dims broadcast_to take put choose take_along_axis "
        "put_along_axis place putmask copyto resize pad split array_split select piecewise "
        "fill view",
        _MOVE,
    ),
    ("tobytes tofile dump dumps", _ESCAPE),
):
    for _name in _names.split():
        _FUNCTIONS[_name] = _reason

#: numpy's own ufuncs: the elementwise operations a register accepts.
_UFUNCS: frozenset[np.ufunc] = frozenset(
    getattr(np, name) for name in dir(np) if isinstance(getattr(np, name, None), np.ufunc)
    and getattr(np, name).__name__ == name
)
#: Array functions that act elementwise, giving a register of the same processors.
_ALLOWED: frozenset[Any] = frozenset(
    {np.where, np.clip, np.copy, np.zeros_like, np.ones_like, np.full_like, np.empty_like,
     np.shape, np.ndim, np.size, np.result_type, np.astype}
)
#: Allowed array functions whose answer depends on sizes only.
_SIZES: frozenset[Any] = frozenset({np.shape, np.ndim, np.size, np.result_type})

__all__ = [
    "Observer",
    "Register",
    "contents",
    "hold",
    "place_ids",
    "processors",
    "running",
    "same_processors",
]
