"""Programs made again for a later pass of a batched run (:func:`remaker`): a loop test whose
instances disagree sends the leaving ones into a pass of their own, from the run's start."""

from __future__ import annotations

import copy
import inspect
import types
from collections.abc import Callable, Iterator
from types import GeneratorType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

__all__ = ["remaker"]


# ---- programs made again -------------------------------------------------------------------


class _Unmade(Exception):
    """A program the machine cannot make again; the message says why."""


#: Iterators of the builtins a copy restarts where the original stood (a generator
#: expression's ``range``, a list's or a tuple's iterator), as arguments of a program.
_COPIED: tuple[type, ...] = (
    type(iter(range(0))), type(iter(range(1 << 64))), type(iter([])), type(iter(())))


#: Containers whose items are looked at for programs to make again.
_NESTED: tuple[type, ...] = (tuple, list)


def remaker(program: Any) -> tuple[Callable[[], Any] | None, str]:
    """How to make ``program``, an unstarted generator, again: a function returning a new
    generator made as it was (its function rebuilt from its code, globals and closure, called
    with its arguments), and ``""``; or None and why it cannot be.

    An unstarted generator's frame holds its arguments and, since Python 3.11, its closure's
    free variables too (the generator's code copies them into the frame before it is first
    run), which ``gi_frame.f_locals`` shows (Python 3.13, PEP 667, shows the same through a
    proxy, read here as a dict). Arguments that are themselves unstarted generators (the
    programs :func:`pram.phase` and :func:`pram.parallel` are given), alone or in tuples and
    lists, are made again the same way; other arguments are the same objects. A started
    generator, a generator that is not Python's, or an iterator the machine cannot copy
    cannot be made again.
    """
    try:
        return _capture(program), ""
    except _Unmade as why:
        return None, str(why)


def _capture(value: Any) -> Callable[[], Any]:
    """A function making ``value`` again (for a value that needs no making: the value)."""
    if isinstance(value, GeneratorType):
        return _generator(value)
    if type(value) in _COPIED:
        kept = copy.copy(value)
        copied = lambda: copy.copy(kept)  # noqa: E731
        copied._made = True  # type: ignore[attr-defined]
        return copied
    if type(value) in (tuple, list):
        kinds = set(map(type, value))  # (one look per kind of item, not per item)
        if not any(kind in _NESTED or hasattr(kind, "__next__") for kind in kinds):
            return lambda: value  # nothing in it to make again
        parts = [_capture(v) for v in value]
        if any(getattr(p, "_made", False) for p in parts):
            kind = type(value)
            made = lambda: kind(p() for p in parts)  # noqa: E731
            made._made = True  # type: ignore[attr-defined]
            return made
    elif isinstance(value, Iterator):
        raise _Unmade(f"an argument is an iterator ({type(value).__name__}) a new pass would "
                      "find used")
    return lambda: value


def _generator(program: GeneratorType[Any, Any, Any]) -> Callable[[], Any]:
    code = program.gi_code
    if inspect.getgeneratorstate(program) != inspect.GEN_CREATED:
        raise _Unmade(f"the generator {code.co_qualname} has started")
    frame = program.gi_frame
    assert frame is not None  # an unstarted generator has its frame
    found = dict(frame.f_locals)
    names = code.co_varnames
    given = code.co_argcount
    keywords = names[given:given + code.co_kwonlyargcount]
    at = given + code.co_kwonlyargcount
    rest = names[at] if code.co_flags & inspect.CO_VARARGS else None
    more = names[at + (rest is not None)] if code.co_flags & inspect.CO_VARKEYWORDS else None
    try:
        positional = [_capture(found[name]) for name in names[:given]]
        named = {name: _capture(found[name]) for name in keywords}
        extra = _capture(found[rest]) if rest is not None else None
        spread = found[more] if more is not None else {}
        spread_made = {key: _capture(v) for key, v in spread.items()}
        free = [(name in found, _capture(found[name]) if name in found else None)
                for name in code.co_freevars]
    except KeyError as missing:
        raise _Unmade(f"the generator {code.co_qualname} shows no argument {missing}") from None
    module = frame.f_globals

    def made() -> Any:
        cells = tuple(types.CellType(make()) if bound and make is not None
                      else types.CellType() for bound, make in free)
        function = types.FunctionType(code, module, code.co_name, None, cells or None)
        function.__qualname__ = code.co_qualname
        return function(*[p() for p in positional], *(extra() if extra else ()),
                        **{k: v() for k, v in named.items()},
                        **{k: v() for k, v in spread_made.items()})

    made._made = True  # type: ignore[attr-defined]
    return made
