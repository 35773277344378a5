"""What a register accepts, as lists: operand types, dtypes, ufuncs and array functions.

Everything not listed here is refused (see :mod:`pram.registers`), by :func:`refuse`: the
lists say what is allowed, never what is forbidden, so a numpy callable nobody thought of is
refused by default. The reasons below only choose the fix a refusal names.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NoReturn

from pram._numpy import np
from pram.errors import HonestyError

#: The fix for every move of a value between processors.
THROUGH_MEMORY = (
    "values move between processors through memory: write them, then read them in a later step"
)

#: The fix for a register of another run (or machine) met in an operation.
ANOTHER_RUN = (
    "belongs to another run (or machine); a register belongs to the run that made it: "
    f"{THROUGH_MEMORY} (to a later run: write them to memory before the run ends, and read "
    "them in the next run), and read results with Array.to_numpy() after the run"
)


def refuse(operation: str, reason: str) -> NoReturn:
    """Refuse ``operation`` on a register, naming ``reason`` (and the fix): every refusal of
    the register machinery is this :class:`pram.HonestyError`."""
    raise HonestyError(f"{operation} {reason}")


#: dtype kinds a register may hold or an operand may have: bool, integers, floats, complex.
KINDS = frozenset("biufc")

#: The exact types of scalar operands: Python's numbers and numpy's numeric scalar types.
SCALARS: frozenset[type] = frozenset(
    {int, float, bool, complex}
    | {t for t in set(np.sctypeDict.values()) if np.dtype(t).kind in KINDS}
)

#: numpy's own elementwise ufuncs (no core signature: ``matmul``, ``vecdot``, ``matvec`` and
#: ``vecmat`` are generalised ufuncs that fold across processors, and are not here).
UFUNCS: frozenset[np.ufunc] = frozenset(
    u for name in dir(np)
    if isinstance(u := getattr(np, name, None), np.ufunc)
    and u.__name__ == name and u.signature is None and u.nin >= 1
)

#: Ufuncs that may warn or raise on some values (division by zero, overflow, invalid): run
#: with every floating-point report silenced, so that no exception or warning carries data.
LOUD: frozenset[np.ufunc] = frozenset(
    getattr(np, name) for name in (
        "divide", "true_divide", "floor_divide", "remainder", "mod", "fmod", "divmod", "power",
        "float_power", "reciprocal", "ldexp",
    ) if hasattr(np, name)
)

#: Ufuncs that report nothing on integer and bool operands (integer arithmetic wraps): they
#: skip the silencing, which costs more than the operation on small registers.
QUIET_ON_INTEGERS: frozenset[np.ufunc] = frozenset(
    getattr(np, name) for name in (
        "add", "subtract", "multiply", "negative", "positive", "absolute", "sign", "invert",
        "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "equal",
        "not_equal", "less", "less_equal", "greater", "greater_equal", "maximum", "minimum",
        "fmax", "fmin", "logical_and", "logical_or", "logical_xor", "logical_not", "square",
    )
)

#: Keyword arguments a ufunc call on registers may take (``out`` and ``where`` are checked
#: apart: only registers of the same processors).
UFUNC_KEYWORDS = frozenset({"dtype", "out", "where"})

#: Elementwise array functions, each with the keyword arguments it may take.
_FUNCTIONS: dict[Any, frozenset[str]] = {
    np.where: frozenset(),
    np.clip: frozenset({"a_min", "a_max", "min", "max"}),
    np.copy: frozenset(),
    np.zeros_like: frozenset({"dtype"}),
    np.ones_like: frozenset({"dtype"}),
    np.full_like: frozenset({"dtype", "fill_value"}),
    np.empty_like: frozenset({"dtype"}),  # made total: zeros, never memory others held
    np.round: frozenset({"decimals"}),
    np.around: frozenset({"decimals"}),
    np.isclose: frozenset({"rtol", "atol", "equal_nan"}),
    np.nan_to_num: frozenset({"nan", "posinf", "neginf", "copy"}),
    np.select: frozenset({"default"}),
    np.isin: frozenset({"invert"}),
    np.digitize: frozenset({"right"}),
    np.interp: frozenset({"left", "right", "period"}),
    np.angle: frozenset({"deg"}),
    np.fix: frozenset(),
    np.real: frozenset(),
    np.imag: frozenset(),
    np.shape: frozenset(),
    np.ndim: frozenset(),
    np.size: frozenset(),
    np.result_type: frozenset(),
}
# ``np.astype`` exists from numpy 2.1 on; older numpy has only the method (allowed below).
if hasattr(np, "astype"):
    _FUNCTIONS[np.astype] = frozenset({"copy"})
#: Read-only, as every table here: an entry added (``FUNCTIONS[np.sort] = ...``) would let
#: every register after it take a function that moves values between processors.
FUNCTIONS: Mapping[Any, frozenset[str]] = MappingProxyType(_FUNCTIONS)

#: Array functions that read each processor's value against plain tables of constants given
#: after it (``np.interp(x, xp, fp)``): each costs as many local operations as the first table
#: has entries. (``np.searchsorted(table, x)`` puts the table first; numpy's own
#: ``np.digitize(x, table)`` is that search, allowed above.)
TABLES = frozenset({np.interp})

#: Allowed array functions whose answer depends on sizes only.
SIZES = frozenset({np.shape, np.ndim, np.size, np.result_type})

#: Allowed array functions that compare each processor's value with plain constants (the
#: second argument): each costs as many local operations as there are constants.
AGAINST_CONSTANTS = frozenset({np.isin, np.digitize})

SORT = (
    "moves values between processors; sort with a network of machine steps, "
    "e.g. pram.algorithms.sorting"
)
SEARCH = "searches across processors; search with machine steps, e.g. pram.algorithms.pbs"
REDUCE = (
    "folds the values of many processors into one; reduce with a tree of machine steps "
    "(pram.algorithms.primitives shows the pattern)"
)
SCAN = (
    "scans across processors; compute prefix sums with machine steps, e.g. "
    "pram.algorithms.primitives.prefix_sums"
)
MOVE = f"moves values between processors; {THROUGH_MEMORY}"
#: How a processor combines its own registers (what np.stack([x, y]).max(0) or
#: np.maximum.reduce([x, y]) would mean): a ufunc on them, pairwise.
OWN = "combine a processor's own registers pairwise: np.maximum(x, y), or "\
    "functools.reduce(np.maximum, [x, y, z])"
STACK = f"puts registers side by side as one, which {MOVE}; to {OWN}"
HOST = (
    "turns register values into host control flow; a processor decides per value with "
    "np.where and where= masks, and loop bounds come from sizes"
)
ESCAPE = (
    "while a program runs lets data leave the processors; compute on the register "
    "(elementwise), and read results with Array.to_numpy() after the run"
)
DEFAULT = (
    "is not an elementwise operation on registers; between steps a processor computes only "
    "on its own registers (ufuncs, np.where, astype), and values move through memory"
)
SIZE = (
    "would tell the host how many processors chose themselves by their data; let the step "
    "take the register (Step(who, ...), hold, elementwise operations), never its size"
)
METHODS: Mapping[str, str] = MappingProxyType({
    "reduce": REDUCE,
    "accumulate": SCAN,
    "reduceat": REDUCE,
    "outer": (
        "pairs every processor's value with every other's; compare values in machine steps, "
        f"{THROUGH_MEMORY}"
    ),
    "at": f"combines values of many processors in one place; {THROUGH_MEMORY}",
})
_REASONS: dict[str, str] = {}
for _names, _reason in (
    ("sort argsort lexsort partition argpartition sort_complex msort", SORT),
    (
        "searchsorted unique unique_counts unique_inverse unique_values unique_all in1d "
        "intersect1d union1d setdiff1d setxor1d nonzero flatnonzero argwhere extract "
        "compress count_nonzero histogram histogram2d histogramdd bincount index",
        SEARCH,
    ),
    (
        "sum prod max min amax amin argmax argmin any all mean median average std var ptp "
        "percentile quantile nansum nanprod nanmax nanmin nanargmax nanargmin nanmean "
        "nanmedian nanstd nanvar nanpercentile nanquantile dot vdot inner matmul einsum "
        "tensordot trace vecdot matvec vecmat array_equal array_equiv allclose",
        REDUCE,
    ),
    ("cumsum cumprod nancumsum nancumprod cumulative_sum cumulative_prod diff ediff1d "
     "gradient convolve correlate trapezoid trapz interp", SCAN),
    (
        "roll append insert delete repeat tile flip fliplr flipud rot90 transpose swapaxes "
        "moveaxis reshape ravel flatten squeeze expand_dims broadcast_to take put choose "
        "take_along_axis put_along_axis place putmask copyto resize pad split array_split "
        "piecewise fill",
        MOVE,
    ),
    ("concatenate concat stack hstack vstack dstack column_stack block", STACK),
    ("tobytes tofile dump dumps", ESCAPE),
):
    for _name in _names.split():
        _REASONS[_name] = _reason
REASONS: Mapping[str, str] = MappingProxyType(_REASONS)

__all__ = [
    "AGAINST_CONSTANTS", "ANOTHER_RUN", "FUNCTIONS", "KINDS", "LOUD", "METHODS", "OWN",
    "REASONS",
    "SCALARS", "SIZES", "THROUGH_MEMORY", "UFUNCS", "UFUNC_KEYWORDS", "refuse",
]
