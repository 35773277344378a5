"""Instances of a batch parked at a loop test, and their rejoining (:class:`Parked`).

When a loop test splits a batch, the batch follows the instances whose loop goes on; the
others are *parked* where they left: they take no step (uncharged, their rows of memory and
of registers unchanged), exactly as instances that idle. When the batch later reaches the
same loop test and is sent the answer the parked ones were sent, the program leaves the loop
there as their single runs did, and they *rejoin*: from there on they take the batch's steps
again, each charged only its own.

That is exact only if everything the program's later behaviour depends on is what it was
when they left. :func:`capture` takes that state: every generator reachable from the
program (the generators it delegates to, those :func:`pram.parallel` drives), each at its
code position with the values of its locals, cells and value stack (the iterator of a
``for`` loop is on the stack), and every value reachable from them, as plain values (numbers,
strings, tuples, lists and dicts by their contents, arrays of the machine by identity). A
value whose later behaviour cannot be decided from what it holds (an object of a class of the
program's, an exception) makes the state undecided: those instances never rejoin, and run in
a later pass of their own (:mod:`pram.engine.passes`). Registers hold one row per instance:
at a rejoin each register reachable from the program takes back, in the parked instances'
rows, the values it held when they left (:meth:`Parked.rejoin`). What the machine itself
holds (the processor ids handed out, the table of arrays, the cells allocated) must be the
same too (:func:`host_state`).
"""

from __future__ import annotations

import gc
import struct
import types
from typing import TYPE_CHECKING, Any

import attrs

from pram._held import cost_of as _cost_of
from pram._held import owners_of as _owners_of
from pram._held import put_raw as _put_raw
from pram._held import put_selections as _put_selections
from pram._held import raw_of as _raw_of
from pram._numpy import np
from pram.memory import Array, Flags
from pram.registers.ids import Chosen, same_processors
from pram.registers.register import Register
from pram.run import Run

if TYPE_CHECKING:
    from pram.machine import Machine

__all__ = ["Parked", "Undecided", "capture", "host_state", "site"]


class Undecided(Exception):
    """A state whose equality to a later one cannot be decided from what it holds."""


#: Values compared by value (immutable, with value equality that is identity of state: not
#: floats, where -0.0 == 0.0, nor ranges, where range(0, 0) == range(5, 5); see _Walk.token).
_VALUES: frozenset[type] = frozenset({type(None), bool, int, str, bytes, type(Ellipsis)})

#: Objects compared by identity: nothing the program reaches through them is host state the
#: program's later behaviour reads (the machine and its arrays are compared by the engine;
#: a function by its closure and defaults too, :meth:`_Walk.token`).
_SAME: tuple[type, ...] = (
    types.MethodDescriptorType, types.WrapperDescriptorType, types.ModuleType,
    types.CodeType, type, Run)

#: Iterators of the builtins, compared by where they stand (what ``__reduce__`` gives).
_ITERATORS: frozenset[type] = frozenset({
    type(iter(range(0))), type(iter(range(1 << 64))), type(iter([])), type(iter(())),
    type(reversed([])), enumerate, zip})


class State:
    """The program's state at a loop test: ``tokens``, plain data equal for equal states, and
    the registers reached (in the order ``tokens`` names them), each with its rows of the
    instances ``rows`` as they were."""

    __slots__ = ("keep", "registers", "tokens")

    def __init__(self, tokens: Any, registers: list[tuple[Register, Any]], keep: list[Any]
                 ) -> None:
        self.tokens, self.registers = tokens, registers
        #: The objects reached (kept alive, so that an id in ``tokens`` names one object).
        self.keep = keep


class _Walk:
    """One walk over the values reachable from a program (:func:`capture`)."""

    def __init__(self, rows: Flags | None, machine: Machine) -> None:
        self.rows, self.machine = rows, machine
        self.order: dict[int, int] = {}
        self.keep: list[Any] = []
        self.registers: list[tuple[Register, Any]] = []

    def token(self, x: Any) -> Any:
        kind = type(x)
        if kind in _VALUES:
            return kind, x
        if kind is float or kind is complex:  # by their bits: -0.0 and 0.0 differ (1 / x)
            return kind.__name__, struct.pack("<2d", x.real, x.imag)
        if kind is range or kind is slice:
            return kind.__name__, self.token((x.start, x.stop, x.step))
        if kind is tuple:
            return "tuple", tuple(self.token(v) for v in x)
        if isinstance(x, np.generic):
            if x.dtype.kind not in "biufc":
                raise Undecided(type(x).__name__)
            return "scalar", x.dtype.str, x.tobytes()
        if kind is types.BuiltinFunctionType:  # a function of a module, or a bound method
            owner = x.__self__
            if owner is None or type(owner) is types.ModuleType:
                return "same", id(x)
            return "bound", self.token(owner), x.__name__
        if isinstance(x, (*_SAME, Array)) or x is self.machine or (
                kind is np.ndarray and _immutable(x)):
            self.keep.append(x)
            return "same", id(x)
        if kind is Register:  # every way to it (the rows of each are restored, _restore)
            self.keep.append(x)
            return "register", self._register(x)
        seen = self.order.get(id(x))
        if seen is not None:  # a second way to the same object: the aliasing is state too
            return "seen", seen
        self.order[id(x)] = len(self.order)
        self.keep.append(x)
        if kind is list:
            return "list", tuple(self.token(v) for v in x)
        if kind is dict:
            return "dict", tuple((self.token(k), self.token(v)) for k, v in x.items())
        if kind is types.GeneratorType:
            return self._generator(x)
        if kind is types.FunctionType:  # its attributes too (a counter kept on a function)
            return ("function", id(x), self.token(x.__closure__), self.token(x.__defaults__),
                    self.token(x.__kwdefaults__), self.token(x.__dict__))
        if kind is types.CellType:
            try:
                return "cell", self.token(x.cell_contents)
            except ValueError:  # an empty cell
                return "cell", None
        if kind is types.MethodType:
            return "method", self.token(x.__self__), self.token(x.__func__)
        if kind is np.ndarray:
            if x.dtype.kind not in "biufc":
                raise Undecided("an array of objects")
            # its layout too (C or Fortran order shows in ravel, in tobytes), and a view by
            # what it views: the view and a copy of it hold the same values, but a write to
            # the base changes only the view
            layout = ("ndarray", x.dtype.str, x.shape, x.strides, x.tobytes())
            base = x.base
            if base is None:
                return layout
            if type(base) is not np.ndarray:
                raise Undecided("a view of memory that is not an array")
            offset = x.__array_interface__["data"][0] - base.__array_interface__["data"][0]
            return ("view", *layout, self.token(base), offset)
        if kind in _ITERATORS:
            return "iterator", kind.__name__, self.token(x.__reduce__())
        if attrs.has(kind) and kind.__module__ in ("pram.step", "pram.loop") \
                and getattr(kind, "__attrs_attrs__", None) is not None:
            return "step", kind.__name__, tuple(
                self.token(getattr(x, field.name)) for field in attrs.fields(kind))
        raise Undecided(kind.__name__)

    def _register(self, x: Register) -> int:
        owners = _owners_of(x)
        if type(owners) is Chosen:
            raise Undecided("a register of processors chosen by data")
        raw = _raw_of(x)
        rows = self.rows
        kept = None
        if rows is not None:
            kept = raw[rows] if raw.ndim > owners.ndim else raw.copy()
        self.registers.append((x, kept))
        return len(self.registers) - 1

    def _generator(self, x: types.GeneratorType[Any, Any, Any]) -> Any:
        frame = x.gi_frame
        if frame is None:
            return "finished", x.gi_code.co_qualname
        if x.gi_running:
            raise Undecided("a running generator")
        names = frame.f_locals
        code = x.gi_code
        held = [r for r in gc.get_referents(x)
                if not (r is code or r is frame or r is names or r is x.__name__
                        or r is x.__qualname__
                        or (type(r) is types.FunctionType and r.__code__ is code))]
        return ("generator", code.co_qualname, id(code), frame.f_lasti, tuple(names),
                tuple(self.token(v) for v in held))


def _immutable(x: Any) -> bool:
    """Whether nothing can change the numpy array ``x`` (in immutable memory: processor ids)."""
    base = x.base
    return not x.flags.writeable and (isinstance(base, bytes) or (
        type(base) is np.ndarray and isinstance(base.base, bytes)))


def capture(program: Any, rows: Flags | None, machine: Machine) -> State:
    """The state of ``program`` (a suspended generator) and of everything reachable from it
    (:class:`State`), the registers' rows of the instances ``rows`` kept (None: none);
    :class:`Undecided` when some value's equality cannot be decided."""
    walk = _Walk(rows, machine)
    tokens = walk.token(program)
    return State(tokens, walk.registers, walk.keep)


def site(program: Any) -> tuple[tuple[int, int], ...]:
    """Where ``program`` stands: each generator it delegates to (``yield from``) and its
    code position (a quick test before :func:`capture`'s whole state)."""
    found: list[tuple[int, int]] = []
    while type(program) is types.GeneratorType:
        frame = program.gi_frame
        if frame is None:
            break
        found.append((id(program), frame.f_lasti))
        program = program.gi_yieldfrom
    return tuple(found)


def host_state(host: Machine) -> tuple[Any, ...]:
    """What the machine holds that a program's later steps and counts depend on: the ids it
    handed out, its table of arrays, the cells allocated and at most alive, the cells alive,
    the nesting of modular arithmetic."""
    cost = _cost_of(host)
    return (host._next_processor, tuple(host.arrays.items()), host._alive_cells,
            cost.memory_cells, cost.peak_cells, host._modular)


def _same_host(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    if a[0] != b[0] or a[2:] != b[2:] or len(a[1]) != len(b[1]):
        return False
    return all(n == m and x is y for (n, x), (m, y) in zip(a[1], b[1], strict=True))


class Parked:
    """Instances ``flags`` parked at a loop test: sent ``answer`` there while the batch went
    on, their program's state then (None: undecided, they never rejoin), and what their
    departure was (for a later pass, and for a refusal naming it)."""

    __slots__ = ("answer", "array", "flags", "going", "host", "number", "site", "state",
                 "step", "tests")

    def __init__(self, flags: Flags, answer: tuple[bool, ...], program: Any, step: Any,
                 host: Machine, departure: tuple[int, int, Flags]) -> None:
        self.flags, self.answer, self.step = flags, answer, step
        self.number, self.tests, self.going = departure
        self.array = step.reads[0].array
        self.site = site(program)
        try:
            self.state: State | None = capture(program, flags, host)
        except Undecided:
            self.state = None
        self.host = host_state(host)

    def rejoin(self, program: Any, answer: tuple[bool, ...], step: Any, machine: Machine
               ) -> bool:
        """Whether these instances rejoin the batch at this loop test, answered ``answer``:
        the same test at the same place with the same state; if so, every register reached
        takes back their rows as they were when they left."""
        state = self.state
        if state is None or answer != self.answer or step.reads[0].array is not self.array \
                or site(program) != self.site or not _same_host(self.host, host_state(machine)):
            return False
        try:
            now = capture(program, None, machine)
        except Undecided:
            return False
        if now.tokens != state.tokens:
            return False
        return _restore(now.registers, state.registers, self.flags)


def _restore(now: list[tuple[Register, Any]], then: list[tuple[Register, Any]], rows: Flags
             ) -> bool:
    """Give each register ``now`` reached, in the instances ``rows``, the values its
    counterpart held when they left (``then``, the same count and order); False, changing
    nothing, when one cannot hold them (another dtype, other processors, another run)."""
    changes: dict[int, tuple[Register, Any, Any]] = {}
    for (x, _), (y, kept) in zip(now, then, strict=True):
        raw, owners = _raw_of(x), _owners_of(x)
        if raw.dtype != kept.dtype or x._run is not y._run or type(owners) is Chosen:
            return False
        theirs = _owners_of(y)
        if owners is not theirs and not (owners.shape == theirs.shape
                                         and same_processors(owners, theirs)):
            return False
        earlier = changes.get(id(x))
        if earlier is not None:  # a register reached twice: both ways must want the same rows
            if not np.array_equal(earlier[2], kept):
                return False
            continue
        batched = raw.ndim > owners.ndim
        if batched:
            if np.array_equal(raw[rows], np.broadcast_to(kept, raw[rows].shape)):
                changes[id(x)] = (x, None, kept)
                continue
            values = raw.copy()
        else:
            if kept.shape == raw.shape and np.array_equal(raw, kept):
                changes[id(x)] = (x, None, kept)
                continue
            values = np.broadcast_to(raw, (len(rows), *raw.shape)).copy()
        values[rows] = kept
        changes[id(x)] = (x, values, kept)
    for x, values, _ in changes.values():
        if values is not None:
            _put_raw(x, values)
            _put_selections(x, None)
    return True
