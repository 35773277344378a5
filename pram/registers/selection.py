"""Selecting processors, which keeps each value with its own: ``register[key]`` and
``register[key] = value`` (:class:`pram.Register`'s ``__getitem__`` and ``__setitem__``).

A plain key (a slice, a boolean mask or integers computed from sizes) selects processors by
size together with their values; a boolean register of the same processors gives the
processors that chose themselves by their data (:class:`pram.registers.ids.Chosen`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, cast

import numpy.typing as npt

from pram._held import owners_of as _owners_of
from pram._held import put_raw as _put_raw
from pram._held import put_selections as _put_selections
from pram._held import raw_of as _raw_of
from pram._held import selections_of as _selections_of
from pram._numpy import np
from pram.registers import allowed
from pram.registers.allowed import ANOTHER_RUN, THROUGH_MEMORY, refuse
from pram.registers.ids import Chosen, Ids, same
from pram.registers.operations import batch_of, inexact, kept, operand
from pram.run import live

if TYPE_CHECKING:
    from pram.registers.register import Register


def getitem(self: Register, key: Any) -> Any:
    """``self[key]``: the processors ``key`` selects, each with its own value (after the run,
    an integer key gives the value itself)."""
    kind = type(self)  # pram.Register, which is final
    run = self._run
    if (type(key) is int or isinstance(key, np.integer)) and not self._sealed():
        return _raw_of(self)[key]  # output, after the run: the value itself
    raw, owners = _key(self, key, "reading")
    if getattr(owners, "rows", None) is not None:  # a batch's selection: full width kept
        values = owners if _raw_of(self) is _owners_of(self) else _raw_of(self)
    elif _raw_of(self).ndim > _owners_of(self).ndim:  # a batch's register, by a plain key
        values = _raw_of(self)[_in_rows(raw)]
    else:
        values = owners if _raw_of(self) is _owners_of(self) else _raw_of(self)[raw]
    if type(owners) is Chosen and type(values) is not np.ndarray:
        values = values.view(np.ndarray)
    result = kind(values, owners, run)
    if run is not None and run._observer is not None:
        run.operation("getitem", (self, key), result)
    return result


def setitem(self: Register, key: Any, value: Any) -> None:
    """``self[key] = value``: each processor ``key`` selects takes its own entry of ``value``
    (a register of the same processors, a number or a plain array from sizes)."""
    kind = type(self)  # pram.Register, which is final
    run = self._run
    if run is not None and live(run) and sys.getrefcount(self) <= _TEMPORARY:
        refuse("assigning into a selection of a register (chained, as in "
               "x[1:][mask] = 0)", "changes a temporary copy, which is then lost; assign "
               "with one key (x[mask] = 0, the mask over all of x's processors), or name "
               "the selection first (y = x[1:]; y[mask] = 0) and use y")
    raw, target = _key(self, key, "assigning")
    if type(value) is kind:
        if value._run is not run and value._run is not None and run is not None:
            refuse("register[key] = a register of another run", ANOTHER_RUN)
        chosen = _owners_of(value)
        if chosen is not target and type(chosen) is Chosen and type(target) is Chosen \
                and type(key) is kind and chosen.parent is not None \
                and same(chosen.parent, _owners_of(self)):
            # y[mask] = z[other mask] over the same processors (masks computed apart, as
            # in y[x > 5] = z[x > 5]): each processor chosen by both masks takes its own
            # value of z; comparing the masks would tell the program about data, so
            # nothing is compared and nothing refused.
            both = raw & chosen.mask
            if getattr(chosen, "rows", None) is not None:  # a batch: full width kept
                given = _raw_of(value)
            else:
                given = _raw_of(value)[both[chosen.mask]]
            raw = both
        elif chosen is not target and not same(chosen, target):
            refuse(
                "register[key] = value with a value of other processors",
                f"a register holds each processor's own values; {THROUGH_MEMORY}",
            )
        else:
            given = _raw_of(value)
    else:
        given = operand(kind, value, "register[key] = value", type(target) is Chosen)
    _cast_into(_raw_of(self).dtype, given)
    before = kind(_raw_of(self), _owners_of(self), run)
    if getattr(target, "rows", None) is not None or _raw_of(self).ndim > \
            _owners_of(self).ndim or (type(value) is kind and _raw_of(value).ndim
                                     > _owners_of(value).ndim):
        _put_raw(self, kept(run, _raw_of(self), _batched_set(
            _raw_of(self), _owners_of(self), raw, given,
            getattr(target, "rows", None) is not None, batch_of(run) or len(_raw_of(self)))))
        _put_selections(self, None)
        if run is not None:
            run._operations += 1
            if run._observer is not None:
                run.operation("setitem", (before, key, value), self)
        return
    values = _raw_of(self).copy()
    if values.dtype.kind in "biu" and not inexact((given,)):
        values[raw] = given
    else:
        with np.errstate(all="ignore"):
            values[raw] = given  # a cast that overflows reports nothing
    _put_raw(self, values)
    _put_selections(self, None)
    if run is not None:
        run._operations += 1
        if run._observer is not None:
            run.operation("setitem", (before, key, value), self)


def _key(register: Register, key: Any, verb: str) -> tuple[Any, Ids]:
    """The raw index for ``key`` into ``register`` and the processors it selects: a plain key
    (by size; refused on processors chosen by data, whose number it would have to know), or a
    boolean register of the same processors (each deciding whether it is selected)."""
    kind = type(register)
    owners = _owners_of(register)
    sealed = register._sealed()
    if type(key) is kind:
        if key.dtype != np.bool_ or not same(_owners_of(key), owners):
            refuse(
                f"{verb} register[index] with an index that is a register",
                "(fancy indexing by data) moves values between processors; a processor may "
                "compute an address from its own registers and read it in a step: "
                f"{THROUGH_MEMORY}",
            )
        batch = batch_of(key._run) or batch_of(register._run)
        if batch is not None and (sealed or key._sealed()):
            chosen = _choose_rows(owners, key, batch)  # every instance's own selection
            return chosen.rows, chosen  # type: ignore[attr-defined]
        if not sealed and not key._sealed():
            return _raw_of(key), owners[_raw_of(key)]
        return _raw_of(key), _chosen(owners, key)
    if type(owners) is Chosen and sealed and not (type(key) is slice and key == slice(None)):
        refuse(f"{verb} a register of processors chosen by data with a plain key",
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
            refuse(f"{verb} register[None]", "adds an axis that would spread each value over "
                   f"other processors; {THROUGH_MEMORY}")
        if sealed and not (type(part) in (int, slice) or type(part) is type(Ellipsis)
                           or (type(part) is np.ndarray and part.dtype.kind in "biu")
                           or type(part) in allowed.SCALARS):
            refuse(f"{verb} register[index] with an index of type {type(part).__name__}",
                   "index by a slice, an integer or a plain array computed from sizes, or by "
                   "a boolean register of the same processors")
    return key, owners[key]


def _choose_rows(owners: Any, key: Register, batch: int) -> Chosen:
    """The processors of ``owners`` that boolean register ``key`` selects, in a batch of
    ``batch`` instances: the full width of ``owners`` with one row of flags per instance
    (``rows``), so every instance keeps its own selection. Nested selections AND their flags."""
    chosen = _selections_of(key)
    if chosen is not None:
        return chosen
    flags = np.broadcast_to(_raw_of(key), (batch, *owners.shape))
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
    _put_selections(key, made)
    return cast(Chosen, made)


def _chosen(owners: Ids, key: Register) -> Chosen:
    """The processors of ``owners`` that ``key`` selects: one array per mask register (every
    register it may select from has its processors), so registers selected alike compare by
    identity (never by value, which is data)."""
    chosen = _selections_of(key)
    if chosen is not None:
        return chosen
    chosen = owners[_raw_of(key)].view(Chosen)
    chosen.flags.writeable = False
    chosen.parent = owners
    chosen.key = key
    chosen.mask = _raw_of(key).copy()  # the choice as made, for the machine's own comparison
    _put_selections(key, chosen)
    return chosen  # type: ignore[no-any-return]


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
    """The reference count :func:`setitem` sees on a temporary (``x[1:][m] = 0``),
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


__all__ = ["getitem", "setitem"]
