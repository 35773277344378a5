"""Programs and their steps.

A PRAM program is a generator that yields one :class:`Step` per synchronous step and receives
the values its reads returned. Parallel branches (:func:`parallel`) share global steps; phases
(:func:`phase`) label the steps of a sub-program for the per-phase accounting.

>>> import numpy as np
>>> def swap_halves(m, a):
...     pid = m.processors(2)
...     i = iota(2)  # each processor's rank: cells by rank, never by id
...     x, = yield Step(pid, reads=[Read(a, i)])
...     yield Step(pid, writes=[Write(a, 1 - i, x)])
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import Any, TypeAlias, TypeGuard, TypeVar

import attrs

from pram._numpy import np
from pram.errors import InputError
from pram.memory import Array, Flags, Words
from pram.registers import Register
from pram.run import Run, current, made

T = TypeVar("T")

#: What one step's reads return: one array per :class:`Read`, aligned with the processors.
Values: TypeAlias = tuple[Register, ...]


@attrs.frozen(slots=True)
class Read:
    """Each processor of the step reads ``array[index[i]]`` (only where ``where[i]`` holds).

    An integer ``index`` means the same cell for every processor. A two-dimensional array
    takes a pair ``(rows, columns)``, each an index array, a register or an integer: processor
    ``k`` reads ``array[rows[k], columns[k]]``.
    """

    array: Array
    index: Words | Register | int | tuple[Words | Register | int, Words | Register | int]
    where: Flags | Register | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError(
            f"{cls.__mro__[1].__name__} is final: the machine takes only its own exact type "
            "(a subclass could hide processors or accesses from the ledger)"
        )


@attrs.frozen(slots=True)
class Write:
    """Each processor writes ``value[i]`` (a register, or one constant) to ``array[index[i]]``
    (a pair ``(rows, columns)`` into a two-dimensional array, as for :class:`Read`)."""

    array: Array
    index: Words | Register | int | tuple[Words | Register | int, Words | Register | int]
    value: Words | Register | int | float
    where: Flags | Register | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError(
            f"{cls.__mro__[1].__name__} is final: the machine takes only its own exact type "
            "(a subclass could hide processors or accesses from the ledger)"
        )


def _frozen(items: Any, what: str, entry: str) -> tuple[Any, ...]:
    """A step's ``reads`` or ``writes`` (or a bundle's ``steps``) frozen into a tuple when it
    is made: the machine executes and the ledger counts that tuple, and nothing else. Only a
    plain list or tuple is taken: a subclass could answer ``len`` (which the ledger asks)
    differently from iteration (which the machine executes), and a list kept by the program
    could change after the step was made. Each entry's exact type is checked as the step runs
    (a :class:`StepError` naming the step)."""
    kind = type(items)
    if kind is list:
        return tuple(items)
    if kind is tuple:
        return items  # type: ignore[no-any-return]
    raise InputError(
        f"{what} must be a plain list or tuple of {entry} objects (got {kind.__name__}); "
        f"pass [{entry}(...), ...]"
    )


# Named converters (attrs' mypy plugin takes only named functions), one rule: _frozen.
def _reads(reads: tuple[Read, ...] | list[Read]) -> tuple[Read, ...]:
    """:func:`_frozen` for a step's reads."""
    return _frozen(reads, "Step reads", "Read")


def _writes(writes: tuple[Write, ...] | list[Write]) -> tuple[Write, ...]:
    """:func:`_frozen` for a step's writes."""
    return _frozen(writes, "Step writes", "Write")


def _steps(steps: tuple[Step, ...] | list[Step]) -> tuple[Step, ...]:
    """:func:`_frozen` for a bundle's steps."""
    return _frozen(steps, "Bundle steps", "Step")


@attrs.frozen(slots=True)
class Step:
    """One synchronous step: the active ``processors`` and what each reads and writes.

    ``processors`` may also be a register of processor ids selected by the processors
    themselves (see :func:`pram.hold`): each processor deciding whether it acts.
    The i-th entry of every index, value and ``where`` array belongs to ``processors[i]``. A
    processor makes at most one access per :class:`Read` or :class:`Write`, so the number of
    them bounds what one processor does in a step. ``phase`` is set by :func:`phase`.
    """

    processors: Words | Register
    reads: tuple[Read, ...] = attrs.field(default=(), converter=_reads)
    writes: tuple[Write, ...] = attrs.field(default=(), converter=_writes)
    phase: str = ""

    def __attrs_post_init__(self) -> None:
        made()  # the driver compares the steps made with those it executed

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # One subclass exists: the loop test (pram.loop.Until, a read step whose reply is one
        # bool), defined while pram.loop is imported (which ``import pram`` does) and final
        # too. Any other subclass is refused, and the machine compares the exact type with the
        # class registered then, so a look-alike defined later is refused at run time as well.
        if _LOOP_TEST[0] is None and cls.__module__ == "pram.loop" and cls.__bases__ == (Step,):
            return
        raise TypeError(
            f"{cls.__mro__[1].__name__} is final: the machine takes only its own exact type "
            "(a subclass could hide processors or accesses from the ledger)"
        )


#: The one subclass of :class:`Step`, the loop test :class:`pram.loop.Until` (registered by
#: :func:`loop_test` when pram.loop is imported; no other class is taken afterwards).
_LOOP_TEST: list[type[Step] | None] = [None]


def loop_test(cls: type[Step]) -> type[Step]:
    """Register ``cls`` (pram.loop's Until) as the one subclass of :class:`Step` the machine
    takes; a second registration is refused."""
    if _LOOP_TEST[0] is not None:
        raise TypeError("the loop test is pram.Until; no other subclass of Step is taken")
    _LOOP_TEST[0] = cls
    return cls


def is_step(request: Any) -> TypeGuard[Step]:
    """Whether ``request`` is a step the machine takes: exactly a :class:`Step`, or exactly
    the loop test :class:`pram.loop.Until` (never another subclass)."""
    kind = type(request)
    return kind is Step or (kind is _LOOP_TEST[0] and kind is not None)


@attrs.frozen(slots=True)
class Bundle:
    """The steps that parallel branches take in one global step (frozen into a tuple when
    the bundle is made, as a step's reads and writes are)."""

    steps: tuple[Step, ...] = attrs.field(converter=_steps)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError(
            f"{cls.__mro__[1].__name__} is final: the machine takes only its own exact type "
            "(a subclass could hide processors or accesses from the ledger)"
        )


#: A PRAM program: yields steps (or bundles of them), receives read values, returns a result.
Program: TypeAlias = Generator["Step | Bundle", Any, T]


def phase(label: str, program: Program[T]) -> Program[T]:
    """Run ``program`` with its steps labelled ``label`` (nested labels join with ``/``)."""
    if not isinstance(label, str) or not label:
        raise InputError(f"a phase label must be a non-empty string (got {label!r})")
    _program(program, "phase")
    return _phase(label, program)


def _phase(label: str, program: Program[T]) -> Program[T]:
    try:
        request = next(program)
        while True:
            if isinstance(request, Step):  # Step or Until: no other subclass can exist
                request = _labelled(label, request)
            else:
                request = Bundle(tuple(_labelled(label, s) for s in request.steps))
            request = program.send((yield request))
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]


def _labelled(label: str, step: Step) -> Step:
    path = f"{label}/{step.phase}" if step.phase else label
    made(-1)  # a copy in place of the step the program yielded, not a step of its own
    if type(step) is not Step:
        return step.replace(phase=path)  # type: ignore[attr-defined, no-any-return]  # Until
    return Step(step.processors, step.reads, step.writes, path)


def modular(program: Program[T]) -> Program[T]:
    """Run ``program`` with its int64 register arithmetic modulo 2**64: an overflow wraps, as
    numpy's int64 does, instead of failing the run with :class:`pram.IntegerOverflowError`.

    For algorithms that are exact in the ring of integers modulo 2**64 (an expression of ``+``
    and ``*`` evaluated by tree contraction, a hash): the declaration is the program's text,
    not data, so it tells the host nothing, and it changes no count (no step, no operation).
    Everywhere else an overflow means the program is wrong, and the run fails.
    """
    _program(program, "modular")
    return _modular(program)


def _modular(program: Program[T]) -> Program[T]:
    run = current()
    machine: Any = run._machine if run is not None else None

    def advance(reply: Any, first: bool) -> Step | Bundle:
        if machine is not None:
            machine._modular += 1
        try:
            return next(program) if first else program.send(reply)
        finally:
            if machine is not None:
                machine._modular -= 1

    try:
        request = advance(None, True)
        while True:
            request = advance((yield request), False)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]


def parallel(*programs: Program[Any]) -> Program[list[Any]]:
    """Run ``programs`` side by side: step t of each branch is part of global step t.

    A branch that finishes early stops contributing. Returns the branches' results in order.
    """
    return (yield from parallel_all(programs))


def parallel_all(programs: Iterable[Program[Any]]) -> Program[list[Any]]:
    """:func:`parallel` over an iterable of programs.

    The branches' processors work side by side, so the local work between two steps is the
    most any branch did, not their sum: the run's count of elementwise operations
    (``Cost.local``) is charged that way.
    """
    branches = [_program(branch, "parallel") for branch in programs]
    results: list[Any] = [None] * len(branches)
    requests: dict[int, Step | Bundle] = {}
    run = current()
    start = run._operations if run is not None else 0
    for b, branch in enumerate(branches):
        before = run._operations if run is not None else 0
        try:
            requests[b] = next(branch)
        except StopIteration as stop:
            results[b] = stop.value
        if run is not None:
            _side_by_side(run, start, before)
    while requests:
        steps: list[Step] = []
        spans: list[tuple[int, int, bool]] = []
        for b, request in requests.items():
            start = len(steps)
            if isinstance(request, Step):  # Step or Until: no other subclass can exist
                steps.append(request)
            else:
                steps.extend(request.steps)
            spans.append((b, start, is_step(request)))
        answers: list[Values] = yield Bundle(tuple(steps))
        start = run._operations if run is not None else 0
        for i, (b, first, single) in enumerate(spans):
            end = spans[i + 1][1] if i + 1 < len(spans) else len(steps)
            reply = answers[first] if single else answers[first:end]
            before = run._operations if run is not None else 0
            try:
                requests[b] = branches[b].send(reply)
            except StopIteration as stop:
                results[b] = stop.value
                del requests[b]
            if run is not None:
                _side_by_side(run, start, before)
    return results


def _side_by_side(run: Run, start: int, before: int) -> None:
    """After one branch ran from ``before``: the count since ``start`` is the most any branch
    did since then (the branches run side by side), not the sum."""
    spent = run._operations - before
    run._operations = max(before, start + spent)


def _program(program: Any, where: str) -> Program[Any]:
    """``program`` if it is a generator (a running PRAM program), else an InputError."""
    if not isinstance(program, Generator):
        raise InputError(
            f"{where} takes PRAM programs, i.e. generators yielding steps (got {program!r}); "
            "call the program function to make one"
        )
    return program


def iota(n: int) -> Words:
    """``0, 1, ..., n-1``: each processor's rank within its group (O(1) per processor)."""
    whole = type(n) is int or (isinstance(n, np.integer) and not isinstance(n, bool))
    if not whole or n < 0:
        raise InputError(f"iota takes a non-negative whole number of ranks (got {n!r})")
    try:
        return np.arange(n, dtype=np.int64)
    except (MemoryError, ValueError):  # too many to hold: an input, not a bug
        raise InputError(f"iota({n:,}): {n:,} ranks cannot be allocated on this machine; "
                         "ask for fewer") from None
