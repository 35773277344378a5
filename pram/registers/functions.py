"""numpy's array functions on registers (NEP 18, :class:`pram.Register`'s
``__array_function__``): the allow-list's functions (:data:`pram.registers.allowed.FUNCTIONS`),
lookups in constant tables, and sizes; everything else is refused naming the fix.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from pram._held import owners_of as _owners_of
from pram._held import raw_of as _raw_of
from pram._numpy import np
from pram.registers import allowed
from pram.registers.allowed import ANOTHER_RUN, THROUGH_MEMORY, refuse
from pram.registers.operations import _after_run, _unwrap, made, numeric_dtype, run_of, select, wrap
from pram.run import Run

if TYPE_CHECKING:
    from pram.registers.register import Register


def array_function(
    self: Register,
    func: Callable[..., Any],
    types: Sequence[type],
    args: Sequence[Any],
    kwargs: dict[str, Any],
) -> Any:
    """``func(*args, **kwargs)`` with registers among ``args``: :class:`pram.Register`'s
    ``__array_function__`` (``types`` is numpy's and unused)."""
    kind = type(self)  # pram.Register, which is final
    if func is np.where and not kwargs and len(args) == 3:
        chosen = _where(kind, args)
        if chosen is not None:
            return chosen
    run = run_of(kind, args, *kwargs.values())
    if run is None:
        return _after_run(kind, func, args, kwargs)  # output, after the run
    name = getattr(func, "__name__", None) or repr(func)
    if func is np.choose:
        return _lookup(kind, args, kwargs, run)
    if func is getattr(np, "astype", None) and args and type(args[0]) is kind:
        # np.astype(x, dtype, copy=...) is the method: the same dtype and narrowing checks
        dtype = args[1] if len(args) > 1 else kwargs.get("dtype")
        if len(args) > 2 or set(kwargs) - {"dtype", "copy"}:
            refuse("np.astype with more than a dtype and copy", "takes dtype (and copy)")
        return args[0].astype(dtype)
    if func in allowed.TABLES:  # whatever the register's place: only x may be one
        return _against_tables(kind, func, name, args, kwargs, run)
    if func is np.searchsorted and len(args) == 2 and type(args[1]) is kind and \
            type(args[0]) is not kind and set(kwargs) <= {"side"}:
        # each processor's rank in a sorted table of constants: np.digitize turned round
        table = _constant_table(args[0], "np.searchsorted")
        side = kwargs.get("side", "left")
        if side not in ("left", "right"):
            refuse("np.searchsorted(..., side=...)", "takes side='left' or 'right'")
        return _against("searchsorted", args[1], table, (table, args[1]),
                        lambda values: np.searchsorted(table, values, side=side), run)
    keywords = allowed.FUNCTIONS.get(func)
    if keywords is None:
        refuse(f"np.{name}", allowed.REASONS.get(name, allowed.DEFAULT))
    for key in kwargs:
        if key not in keywords:
            refuse(f"np.{name}(..., {key}=...)", "takes no such argument on registers; "
                   f"it takes {', '.join(sorted(keywords)) or 'positional arguments only'}")
    if func is np.where and len(args) != 3:
        refuse("np.where with one argument", allowed.REASONS["nonzero"])
    if func in allowed.SIZES:
        for arg in args:
            if type(arg) is kind:
                arg._sized(f"np.{name} of a register of processors chosen by data")
        return func(*[_per_instance(a) if type(a) is kind else a for a in args],
                    **kwargs)
    if func is np.select:
        return select(kind, args, kwargs, run)
    if "dtype" in kwargs:
        kwargs = {**kwargs,
                  "dtype": numeric_dtype(kwargs["dtype"], f"np.{name}(..., dtype=...)")}
    constants = 0
    if func in allowed.AGAINST_CONSTANTS:
        if len(args) < 2 or type(args[1]) is kind:
            refuse(f"np.{name} against a register", "compares with other processors' "
                   f"values; compare against plain constants, or {THROUGH_MEMORY}")
        constants = int(np.size(args[1]))
        plain_args = (args[0],)
    else:
        plain_args = tuple(args)
    values, owners = _unwrap(kind, name, (*plain_args, *kwargs.values()), run)
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
    return wrap(kind, name, tuple(args), result, owners, run)


def _lookup(kind: type[Register], args: Sequence[Any], kwargs: dict[str, Any],
            run: Run) -> Register:
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
            or table.dtype.kind not in allowed.KINDS or type(index) is not kind
            or index.dtype.kind not in "biu" or len(args) > 2
            or set(kwargs) - {"choices", "mode"} or mode not in ("wrap", "clip")):
        refuse("np.choose", "on registers is a lookup in a constant table only: "
               "np.choose(index, table) with an integer register index, a plain non-empty "
               "1-d numeric numpy array computed from sizes and constants, and mode 'wrap' "
               f"or 'clip'; values of other processors move through memory: {THROUGH_MEMORY}")
    if index._run is not run and index._run is not None:
        refuse("np.choose on a register of another run", ANOTHER_RUN)
    values = np.take(table, _raw_of(index), mode=mode)
    found: Register = made(kind, "choose", (index, table), values, _owners_of(index), run)
    return found


def _against_tables(kind: type[Register], func: Any, name: str, args: Sequence[Any],
                    kwargs: dict[str, Any], run: Run) -> Register:
    """``np.interp(x, xp, fp)`` and ``np.searchsorted`` turned round (``x`` first, see
    :data:`pram.registers.allowed.TABLES`): each processor's value against plain constant
    tables (program text, as :func:`_lookup`'s), one operation per constant. A register as a
    table or a keyword's value would be other processors' values: refused, as is a call
    whose ``x`` is not a register (then a register stands elsewhere)."""
    if len(args) < 2 or type(args[0]) is not kind:
        refuse(f"np.{name} with a register as a table", "reads other processors' values; "
               f"give the register as x and plain constants as the tables, or {THROUGH_MEMORY}")
    tables = [_constant_table(t, f"np.{name}") for t in args[1:]]
    keywords = allowed.FUNCTIONS[func]
    for key, value in kwargs.items():
        if key not in keywords:
            refuse(f"np.{name}(..., {key}=...)", "takes no such argument on registers; it "
                   f"takes {', '.join(sorted(keywords)) or 'positional arguments only'}")
        if type(value) is kind:
            refuse(f"np.{name}(..., {key}=a register)", "takes a plain constant there; "
                   f"other processors' values move through memory: {THROUGH_MEMORY}")
    x: Register = args[0]
    return _against(name, x, tables[0], (x, *tables),
                    lambda values: func(values, *tables, **kwargs), run)


def _against(name: str, x: Register, table: npt.NDArray[Any], operands: tuple[Any, ...],
             compute: Callable[[npt.NDArray[Any]], Any], run: Run) -> Register:
    """``compute`` of each processor's value in ``x`` against a constant ``table``: one
    operation per constant (the first counted by the machine as the operation itself)."""
    if x._run is not run and x._run is not None:
        refuse(f"np.{name} on a register of another run", ANOTHER_RUN)
    with np.errstate(all="ignore"):
        values = compute(_raw_of(x))
    run._operations += len(table) - 1
    found: Register = made(type(x), name, operands, values, _owners_of(x), run)
    return found


def _constant_table(table: Any, what: str) -> npt.NDArray[Any]:
    """A plain 1-d numeric table of constants (a numpy array, or a list or tuple of Python
    or numpy numbers), or a refusal: a register here would be other processors' values."""
    if type(table) in (list, tuple) and table and all(type(v) in allowed.SCALARS for v in table):
        table = np.array(table)
    if type(table) is not np.ndarray or table.ndim != 1 or not table.size or \
            table.dtype.kind not in allowed.KINDS:
        refuse(what, "on registers takes plain non-empty 1-d numeric tables of constants "
               f"(computed from sizes and constants); other processors' values move through "
               f"memory: {THROUGH_MEMORY}")
    return table


def _where(kind: type[Register], args: Sequence[Any]) -> Any:
    """``np.where(condition, a, b)`` on registers of one array of processors (the same
    object) and one active run, and Python numbers: what :func:`array_function` does
    for them, without its general checks; None for anything else (which takes them)."""
    first = next((x for x in args if type(x) is kind), None)
    if first is None:
        return None
    owners, run = _owners_of(first), first._run
    if run is None or not run._active:
        return None
    raw = []
    for x in args:
        given = type(x)
        if given is kind:
            if _owners_of(x) is not owners or x._run is not run:
                return None
            raw.append(_raw_of(x))
        elif given is int or given is bool or given is float:
            raw.append(x)
        else:
            return None
    return wrap(kind, "where", tuple(args), np.where(*raw), owners, run)


def _per_instance(register: Register) -> npt.NDArray[Any]:
    """A register's values as one instance sees them: a batch's register by its first row
    (sizes and dtype, the same in every row)."""
    values = _raw_of(register)
    return values[0] if values.ndim > _owners_of(register).ndim else values


__all__ = ["array_function"]
