"""What the fields of a declaration may hold, each checked once where it is given: its name
(never a built-in's), its sizes, its model and tolerance, and whether a function of it can
take the call the framework makes (see :mod:`pram.declaration.algorithm`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pram._numpy import np
from pram.errors import InputError
from pram.models import MODELS

#: The names of the project's own algorithms, the built-in entries of the command line's table
#: (``pram.reports.entries``, whose test holds the two equal): a declaration may not take
#: one, since ``pram run NAME`` means the built-in.
BUILT_IN = frozenset({
    "compaction", "components", "euler-tour", "list-ranking", "list-ranking-random",
    "matrix-multiply", "max", "max-cascading", "max-loglog", "merge", "mqar",
    "mqar-allpairs", "mqar-sequential", "pbs", "pbs-naive", "prefix-sums", "rank-sort",
    "selection", "sort", "tree-contraction",
})


def not_built_in(name: str) -> str:
    """``name``, or a refusal when it is the name of a built-in algorithm (:data:`BUILT_IN`)."""
    if name in BUILT_IN:
        raise InputError(
            f"the declaration {name!r} has the name of a built-in algorithm; give it another "
            "name (name=... in pram.Algorithm or pram.declare)"
        )
    return name


#: The sizes a sweep and ``pram report --module`` use when none are given.
SIZES = (16, 32, 64, 128, 256)


def model_named(name: str) -> str:
    """``name`` when it names a model of :data:`pram.MODELS`, else a refusal listing them."""
    if not isinstance(name, str) or name not in MODELS:  # (a list is unhashable)
        raise InputError(f"model must be one of {', '.join(MODELS)} (got {name!r})")
    return name


def tolerance_of(value: float | None) -> float | None:
    """``value`` as the tolerance of a real answer: None (exact) or a number in [0, 1)."""
    if value is None:
        return None
    if (isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1):
        raise InputError(
            f"tolerance must be a number from 0 up to (not including) 1, the relative and "
            f"absolute error allowed in each entry of a real answer, e.g. 1e-9 (got {value!r}; "
            "at 1 an answer of zeros would pass for any reference)"
        )
    return float(value)


def size_of(value: int) -> int:
    """``value`` as the size ``n`` a run uses: a positive integer (8.5 or "8" is refused,
    never truncated or read)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise InputError(f"n must be a positive integer, the size run uses (got {value!r})")
    return int(value)


def sizes_of(values: Sequence[int], field: str = "sizes") -> tuple[int, ...]:
    """``values`` as sizes: a sequence (never a string, which would be its characters) of
    positive integers; refused naming ``field`` and the first bad size."""
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
        raise InputError(
            f"{field} must be a list of positive integers, e.g. {field}=[16, 32, 64] (got "
            f"{values!r}, a {type(values).__name__})"
        )
    given = list(values)
    for value in given:
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
            raise InputError(
                f"{field} must hold positive integers, the sizes a sweep runs (got {value!r} "
                f"in {given!r}); e.g. {field}=[16, 32, 64]"
            )
    return tuple(int(v) for v in given)


def sweep_sizes(values: Sequence[int]) -> tuple[int, ...]:
    """The sizes of a sweep: positive integers, at least one (a report of no size is empty)."""
    sizes = sizes_of(values)
    if not sizes:
        raise InputError(
            "sizes must hold at least one size, the sizes pram report sweeps (got an empty "
            f"sequence); pass some, e.g. sizes={SIZES}, or leave sizes out for that default"
        )
    return sizes


def wrong_arity(function: Callable[..., Any], count: int, names: Sequence[str] = ()
                ) -> str | None:
    """None when ``function`` can be called with ``count`` positional arguments and the
    keywords ``names`` (or its signature cannot be read), else its name and signature as
    written, e.g. ``f(n)``, for a refusal naming the call the framework makes."""
    try:
        signature = inspect.signature(function)
        signature.bind(*([None] * count), **dict.fromkeys(names))
    except ValueError:  # a builtin without a signature: the call itself will tell
        return None
    except TypeError:
        return f"{getattr(function, '__name__', type(function).__name__)}{signature}"
    return None


__all__ = ["BUILT_IN", "SIZES", "model_named", "not_built_in", "size_of", "sizes_of",
           "sweep_sizes", "tolerance_of", "wrong_arity"]
