"""The run: the token that binds registers to one run of one machine, and who observes it.

:meth:`pram.Machine.run` makes one :class:`Run` per run. Every register a step's reads return,
and every register computed from them, carries that token, so whether a register is sealed is a
property of the register, not of the thread asking: a thread pool, a process pool's feeder
thread or a scratch :class:`pram.Machine` meet the same refusals as the program itself. When the
run ends the token goes inactive and its registers become output, like ``Array.to_numpy()``,
until a later run goes on where they are met (:func:`live`): a register belongs to the run that
made it, so one kept for a later run of its machine (or of this thread) is refused there.

The token also counts the elementwise register operations the processors do between two steps
(the ledger's ``local``), and passes them on to the run's :class:`Observer`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pram.errors import HonestyError

if TYPE_CHECKING:
    from pram.step import Step, Values


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


class Run:
    """One run of one machine: active from :meth:`pram.Machine.run`'s start to its end.

    ``operations`` counts the elementwise register operations since the previous step (the
    machine charges and resets it at every step); ``observing`` is set while the observer is
    told something, so that it (and only it) may look at register contents mid-run.
    """

    __slots__ = ("_active", "_charged", "_machine", "_made", "_observer", "_observing",
                 "_operations")

    def __init__(self, machine: object, observer: Observer | None) -> None:
        if hasattr(self, "_machine"):  # made again mid-run: a new observer, local work erased
            raise HonestyError(
                "a run's token is made once, by Machine.run; calling its __init__ again would "
                "swap its observer or erase the local work counted; pass observer= to Machine"
            )
        self._machine = machine
        self._observer = observer
        self._active = True
        self._observing = False
        self._operations = 0
        #: The operations the machine charged before the step it executes now: the share of
        #: that step's phases (``PhaseCost.local``), taken by the engine as it accounts.
        self._charged = 0
        #: The steps the program made in this thread while the run went on (see
        #: :func:`made`): the driver compares them with the steps it executed.
        self._made = 0

    # Read-only to programs: only pram's own machinery (which uses the private slots) counts,
    # observes and ends a run.
    active = property(lambda self: self._active, doc="Whether the run is in progress.")
    observer = property(lambda self: self._observer, doc="Who observes the run.")
    operations = property(lambda self: self._operations,
                          doc="Elementwise register operations since the previous step.")

    def operation(self, name: str, operands: tuple[Any, ...], result: Any) -> None:
        """Tell the observer of one elementwise operation (the count is the caller's)."""
        if self._observer is not None:
            self._tell(self._observer.operation, name, operands, result)

    def step(self, number: int, steps: Sequence[Step], replies: Sequence[Values]) -> None:
        """Tell the observer of global step ``number``."""
        if self._observer is not None:
            self._tell(self._observer.step, number, steps, replies)

    def _tell(self, hook: Callable[..., None], *arguments: Any) -> None:
        """Call the observer's ``hook``, marked as observing while it runs."""
        self._observing = True
        try:
            hook(*arguments)
        finally:
            self._observing = False

    def __reduce__(self) -> Any:
        raise HonestyError(
            "pickling a run's token sends its registers out of the run; values leave a run "
            "through memory, read with Array.to_numpy() after it"
        )

    def __repr__(self) -> str:
        return f"Run(active={self._active})"


class _Current(threading.local):
    """The run this thread's :meth:`pram.Machine.run` drives, if any (one at a time)."""

    def __init__(self) -> None:
        self.run: Run | None = None


_CURRENT = _Current()

#: What each watcher collects (see :func:`watching`): every machine made, and every machine
#: whose run or step starts, in any thread, so a measured call that makes a machine it was not
#: given, or runs steps on one it made beforehand (a closure), is seen.
_WATCHERS: list[Watched] = []


class Watched(list[object]):
    """The machines a measured call made or ran, each once, in order; :attr:`made` lists
    those it made (a machine made before the call and run in it is in the list, not in
    ``made``)."""

    def __init__(self) -> None:
        super().__init__()
        #: The machines made during the call.
        self.made: list[object] = []


def made(count: int = 1) -> None:
    """Count ``count`` steps made (by a program: 1; a copy pram makes of a step it replaces:
    -1) in the run this thread drives, if any: a step made but never yielded is reported when
    the pass ends (:class:`pram.StepNotYieldedWarning`)."""
    run = _CURRENT.run
    if run is not None:
        run._made += count


#: The refusal of a register of an ended run met while a later run goes on.
ENDED = (
    "a register of an earlier run is used while a later run goes on, which would carry the "
    "earlier run's values into it without memory; a register belongs to the run that made "
    "it: write its values to memory before that run ends, and read them in the next run"
)


def live(run: Run) -> bool:
    """Whether the registers of ``run`` are sealed where they are met: True while ``run`` is
    active; False once it has ended (they are output, like ``Array.to_numpy()``), unless a
    later run goes on, of their machine (in any thread) or in this thread: then a use of
    them is refused (:data:`ENDED`). The one place a register's run decides whether it may
    be used: every way a register of an inactive run would be read as plain values asks it,
    and a register of another run in a step is refused by the step's own token."""
    if run._active:
        return True
    if _CURRENT.run is not None or getattr(run._machine, "_token", None) is not None:
        raise HonestyError(ENDED)
    return False


def current() -> Run | None:
    """The run this thread drives (registers made by :func:`pram.hold` join it), or None."""
    return _CURRENT.run


def begin(machine: object, observer: Observer | None) -> tuple[Run, Callable[[], None]]:
    """A fresh run of ``machine``, made this thread's run, and the one function that ends it
    (its registers become output). Only the caller holds that function: a program that could
    end its own run mid-way would read its registers as output; a program cannot start
    another run inside its own."""
    token = Run(machine, observer)
    if _CURRENT.run is not None:
        raise HonestyError(
            "a run inside a running program (a nested Machine.run) would answer questions "
            "about data outside the run's steps; run programs one after another, and compose "
            "them inside one run with yield from"
        )
    _CURRENT.run = token

    def end() -> None:
        token._active = False
        if _CURRENT.run is token:
            _CURRENT.run = None

    return token, end


def machine_made(machine: object) -> None:
    """Called by every :class:`pram.Machine` as it is made: each watcher sees it."""
    for seen in _WATCHERS:
        seen.made.append(machine)
        seen.append(machine)


def machine_used(machine: object) -> None:
    """Called by :meth:`pram.Machine.run` and :meth:`pram.Machine.execute` as they start:
    each watcher sees the machine (once), wherever it was made, so the steps of a machine
    made before a measured call are refused by that call rather than left uncounted."""
    for seen in _WATCHERS:
        if not any(m is machine for m in seen):
            seen.append(machine)


class watching:
    """``with watching() as seen:``: ``seen`` lists every machine made or run inside, in any
    thread (how :func:`pram.sweep`, :func:`pram.weakest_model` and a declaration's run tell
    that every machine that worked during a measured call is the one measured); ``seen.made``
    those made inside."""

    def __enter__(self) -> Watched:
        self._seen = Watched()
        _WATCHERS.append(self._seen)
        return self._seen

    def __exit__(self, *exc: object) -> None:
        _WATCHERS.remove(self._seen)


def running() -> bool:
    """Whether this thread drives a run."""
    return _CURRENT.run is not None


__all__ = ["ENDED", "Observer", "Run", "Watched", "begin", "current", "live", "machine_made",
           "machine_used", "made", "running", "watching"]
