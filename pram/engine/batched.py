"""Batched runs: many instances of one program in lockstep on one machine.

Under the honesty rules a program's host control flow cannot depend on data, so every honest
program takes the same steps, with the same processors, on every input of the same sizes.
``Machine(batch=B)`` runs B instances together: every array holds one row of cells per
instance, every register one row of values per instance (or one row shared by all, for
values computed from sizes), and each global step is one pass of numpy over all instances.
Python's cost is paid once per step for the whole batch.

Each instance is still its own PRAM: its own memory, its own ledger (:class:`Ledgers`), its
own violations, resolutions and undefined reads (each with its ``instance``), and its own
random choices (CRCW arbitrary: one generator per instance, seeded like a single machine's).
The counts of an instance equal those of a single run on its input, exactly; the differential
test (tests/test_batch.py) checks that on random programs under every model.

What differs between instances, and how the engine (:class:`BatchEngine`) takes it:

- indices, values and masks from registers (one row per instance), and processors chosen by
  data (``hold(pid, pid)[x > 4]``): a selection keeps the full width of the processors it was
  chosen from, with one row of flags per instance (the processors that chose themselves); a
  step taken by them counts, per instance, only those;
- a cell two processors met at: the step's accesses are tested for every instance at once, and
  only the instances in which two processors met go through the single machine's slow path
  (:func:`pram.engine.conflicts.resolve`), in one call with their cells side by side as one array's
  (under CRCW arbitrary one call per instance, each drawing its own random choices);
- loop tests (:class:`pram.Until`), in passes: under the honesty rules the host's control
  flow depends only on sizes and on the bits loop tests give it, so instances answered alike
  at every test so far are on one path. Where the instances taking steps disagree, the batch
  follows those whose loop goes on (answered False) and the program is sent False; the others
  leave the pass's path and idle from there on (no access, no charge, no local work, no
  record: :attr:`BatchEngine.alive`). When the program ends, each group that left runs in a
  pass of its own, from the start of the run, on the same machine, every other instance inert
  (:meth:`BatchEngine.next_pass`): the group's rows of memory, its ledgers, its random
  generators and its records are the run's start's again, the table of arrays too (an array
  allocated again under a name and size an earlier pass used is the same array), and the
  program is made again from its unstarted generator (:func:`remaker`). A group may split
  again. Each pass runs the host as a single run of any of its instances would, so every
  instance's counts, records, memory and answer (:attr:`pram.Machine.results`) equal its
  single run's for any loop, at the price of one pass per distinct sequence of answers (and,
  for every run, a copy of memory at its start). The program's own Python (a host list it
  appends to, a print) runs once per pass. A program that cannot be made again, or a machine
  with an observer (it would see several passes), is refused at the first disagreement
  (:class:`pram.BatchPathError`), never counted wrong. A later pass is checked against its
  group's path (:meth:`BatchEngine._test`: the same loop-test steps at the same time with the
  same answers up to its departure), which refuses a program whose remade generator does not
  retrace it (one made before ``m.run`` and held where the capture cannot see it). What a
  pass makes afresh: the program's code, closure cells, generator and iterator arguments; not
  any other argument or global object the program changes (a pass sees it as the pass before
  left it). An array a later pass allocates under a name an earlier pass left at its end with
  another size is refused (one array per name holds every instance). A loop test of
  processors chosen by data answers each instance over the processors that chose themselves.

A step whose processors would differ between instances in a way a batch cannot express does
not reach the engine: a host decision on data is refused by the registers. What is refused
here is named in the error, with the instance.
"""

from __future__ import annotations

import copy
import inspect
import types
from collections.abc import Callable, Iterator, Sequence
from types import GeneratorType
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np
import numpy.typing as npt

from pram.cost import Cost, Ledger, PhaseCost
from pram.engine import conflicts, validate
from pram.engine.core import in_range, phase_shares
from pram.engine.memo import Scratch, StepMemo
from pram.engine.validate import refuse_array
from pram.errors import (
    BatchPathError,
    ConflictError,
    HonestyError,
    InputError,
    StepError,
    UndefinedReadError,
)
from pram.ids import Chosen, same_choice, same_processors
from pram.loop import is_test
from pram.memory import WORD, Array, Flags, Words
from pram.models import Arbitrary
from pram.registers import THROUGH_MEMORY, Register
from pram.step import Read, Step, Values, Write
from pram.violations import UndefinedRead

if TYPE_CHECKING:
    from pram.machine import Machine
    from pram.run import Run

Counts = npt.NDArray[np.int64]

__all__ = ["BatchEngine", "Ledgers", "batched", "chosen_rows", "merge_rows", "root"]


# ---- registers of a batch -------------------------------------------------------------------


def batched(values: npt.NDArray[Any], processors: npt.NDArray[Any]) -> bool:
    """Whether register ``values`` over ``processors`` hold one row per instance."""
    return values.ndim > processors.ndim


def merge_rows(passes: Sequence[tuple[Any, Flags | None]], first: Any) -> Any:
    """What a run of several passes returns (:meth:`pram.Machine.run`): registers returned by
    every pass put together row by row, each instance's row from the pass that ran it (its
    flags), through tuples and lists of the same length; any other value (or registers the
    passes returned in different shapes) is ``first``, instance 0's pass's."""
    values = [value for value, _ in passes]
    head = values[0]
    if all(type(v) is type(head) for v in values):
        if isinstance(head, tuple | list) and all(len(v) == len(head) for v in values):
            parts = [merge_rows([(v[k], mine) for v, (_, mine) in zip(values, passes,
                                                                    strict=True)],
                                first[k] if isinstance(first, tuple | list) else head[k])
                     for k in range(len(head))]
            return type(head)(parts)
        if isinstance(head, Register):
            return _merged_register(passes, first)
    return first


def _merged_register(passes: Sequence[tuple[Any, Flags | None]], first: Register) -> Any:
    pids = [value._processors for value, _ in passes]
    if any(type(p) is Chosen or not same_processors(p, pids[0]) for p in pids):
        return first  # processors chosen by data: each pass's register is its own
    batch = next(len(mine) for _, mine in passes if mine is not None)
    rows: npt.NDArray[Any] | None = None
    for value, mine in passes:
        held = value._values
        if held.ndim == pids[0].ndim:  # one row shared by every instance: values from sizes
            held = np.broadcast_to(held, (batch, *held.shape))
        if rows is None:
            rows = np.array(held, copy=True)
        elif held.shape != rows.shape or held.dtype != rows.dtype:
            return first
        rows[mine if mine is not None else slice(None)] = held[
            mine if mine is not None else slice(None)]
    return Register(rows, pids[0], passes[0][0]._run)  # type: ignore[arg-type]


def chosen_rows(ids: Any) -> Flags | None:
    """The flags ``(batch, n)`` of processors chosen by data in a batch (which of the full
    width of ``ids`` chose themselves, per instance), or None for other ids."""
    if type(ids) is Chosen:
        return getattr(ids, "rows", None)
    return None


def root(ids: Any) -> Any:
    """The ids a (possibly nested) selection in a batch was first chosen from."""
    while chosen_rows(ids) is not None:
        ids = ids.parent
    return ids


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


# ---- the ledgers ---------------------------------------------------------------------------


class _Tally:
    """One count of every instance: a part the same for all (a Python int) plus, once some
    step charged instances differently, one entry per instance.

    While instances idle (a pass's ``alive`` flags), the steps charge a count to those taking
    them: a run of such charges under one set of flags is summed (or, for a peak, maxed) as
    a Python int and spread over the flags once (when the flags change or the count is
    read), not once per step. A tally either sums (:meth:`add`) or peaks (:meth:`peak`)."""

    __slots__ = ("_each", "_held", "_mask", "_top", "base")

    def __init__(self) -> None:
        self.base = 0
        self._each: Counts | None = None
        #: Flags of the instances a run of charges was held for (None: none held).
        self._mask: Flags | None = None
        #: What they were held: a sum, and a highest.
        self._held = 0
        self._top = 0

    @property
    def each(self) -> Counts | None:
        """One entry per instance (None while the same for all), the held charges spread."""
        if self._mask is not None:
            self._spread()
        return self._each

    @each.setter
    def each(self, value: Counts | None) -> None:
        if self._mask is not None:
            self._spread()
        self._each = value

    def _spread(self) -> None:
        mask = self._mask
        assert mask is not None
        if self._each is None:
            self._each = np.zeros(len(mask), dtype=np.int64)
        if self._held:
            self._each += self._held * mask
        if self._top:
            np.maximum(self._each, self._top * mask, out=self._each)
        self._mask, self._held, self._top = None, 0, 0

    def add(self, amount: int | Counts, alive: Flags | None, batch: int) -> None:
        if type(amount) is int:
            if alive is None:
                self.base += amount
                return
            if alive is not self._mask:
                if self._mask is not None:
                    self._spread()
                self._mask = alive
            self._held += amount
            return
        each = self.each
        if each is None:
            each = self._each = np.zeros(batch, dtype=np.int64)
        each += amount if alive is None else amount * alive

    def peak(self, amount: int | Counts, alive: Flags | None, batch: int) -> None:
        if type(amount) is int:
            if alive is None:
                if amount > self.base:
                    self.base = amount
                return
            if alive is not self._mask:
                if self._mask is not None:
                    self._spread()
                self._mask = alive
            if amount > self._top:
                self._top = amount
            return
        each = self.each
        if each is None:
            each = self._each = np.zeros(batch, dtype=np.int64)
        np.maximum(each, amount if alive is None else amount * alive, out=each)

    def total(self, i: int) -> int:
        return self.base + (0 if self.each is None else int(self.each[i]))

    def copy(self) -> _Tally:
        made = _Tally()
        made.base, made.each = self.base, None if self.each is None else self.each.copy()
        return made

    def column(self, batch: int, peak: bool) -> Counts:
        """Every instance's count (``peak``: its highest), one entry each."""
        if self.each is None:
            return np.full(batch, self.base, dtype=np.int64)
        if peak:
            return np.maximum(self.each, self.base)
        return self.each + self.base

    def highest(self, i: int) -> int:
        return max(self.base, 0 if self.each is None else int(self.each[i]))


class _Share:
    """A phase's share of every instance's ledger (see :class:`pram.PhaseCost`)."""

    __slots__ = ("local", "max_local", "max_processors", "reads", "time", "work", "writes")

    def __init__(self) -> None:
        self.time, self.work, self.reads = _Tally(), _Tally(), _Tally()
        self.writes, self.max_processors = _Tally(), _Tally()
        self.local, self.max_local = _Tally(), _Tally()

    def copy(self) -> _Share:
        made = _Share()
        made.time, made.work, made.reads = self.time.copy(), self.work.copy(), self.reads.copy()
        made.writes, made.max_processors = self.writes.copy(), self.max_processors.copy()
        made.local, made.max_local = self.local.copy(), self.max_local.copy()
        return made

    def charge(self, n: int | Counts, r: int | Counts, w: int | Counts, alive: Flags | None,
               batch: int) -> None:
        self.time.add(1, alive, batch)
        self.work.add(n, alive, batch)
        self.reads.add(r, alive, batch)
        self.writes.add(w, alive, batch)
        self.max_processors.peak(n, alive, batch)


class Ledgers:
    """The ledgers of a batch's instances, counted together: what is the same for all once,
    what differs as one entry per instance. :meth:`cost` makes instance ``i``'s
    :class:`pram.Cost`, equal to the ledger of a single run on its input."""

    def __init__(self, batch: int) -> None:
        self.batch = batch
        self.all = _Share()
        self.loop_tests = _Tally()
        self.local = _Tally()
        self.max_local = _Tally()
        self.phases: dict[str, _Share] = {}
        #: The register operations charged before the step about to be charged (its phases'
        #: share of local work, as a single run's phases take it).
        self.pending = 0
        #: Per global step: its active processors (an int, or one per instance), its phase
        #: labels, and which instances took it (None: all).
        self.steps: list[tuple[int | Counts, tuple[str, ...], Flags | None]] = []

    def charge(self, n: int | Counts, r: int | Counts, w: int | Counts, alive: Flags | None,
               labels: tuple[str, ...], shares: dict[str, list[Any]] | None) -> None:
        """Charge one global step: ``n`` processors, ``r`` reads, ``w`` writes (ints, or one
        per instance) to the instances ``alive`` (None: all), and each phase its share."""
        batch = self.batch
        self.all.charge(n, r, w, alive, batch)
        if shares:
            for label, (pn, pr, pw) in shares.items():
                share = self.phases.get(label)
                if share is None:
                    share = self.phases[label] = _Share()
                share.charge(pn, pr, pw, alive, batch)
                if self.pending:
                    share.local.add(self.pending, alive, batch)
                    share.max_local.peak(self.pending, alive, batch)
        self.pending = 0
        self.steps.append((n, labels, alive))

    def operations(self, count: int, alive: Flags | None) -> None:
        """Charge ``count`` elementwise register operations done between two steps."""
        self.local.add(count, alive, self.batch)
        self.max_local.peak(count, alive, self.batch)
        self.pending = count

    def time(self, i: int) -> int:
        """The steps instance ``i`` took so far."""
        return self.all.time.total(i)

    def copy(self, steps: int | None = None) -> Ledgers:
        """These ledgers as they are now, sharing no count a later charge changes (what a new
        pass of a run starts from); their list of steps shared (it only grows: a snapshot
        keeps it and its length), or with ``steps``, a copy of its first ``steps``."""
        made = Ledgers(self.batch)
        made.all, made.loop_tests = self.all.copy(), self.loop_tests.copy()
        made.local, made.max_local = self.local.copy(), self.max_local.copy()
        made.phases = {label: share.copy() for label, share in self.phases.items()}
        made.steps = self.steps if steps is None else self.steps[:steps]
        return made

    @staticmethod
    def merged(batch: int, parts: Sequence[tuple[Flags, Ledgers]], shared: int) -> Ledgers:
        """One set of ledgers from the passes of a run (:meth:`BatchEngine.next_pass`): each
        instance's counts from ``parts``' ledgers whose flags hold it (the pass it finished
        in), the first ``shared`` steps (before the run) common to all."""
        made = Ledgers(batch)

        def pick(tally_of: Any, peak: bool) -> _Tally:
            picked = _Tally()
            picked.each = np.zeros(batch, dtype=np.int64)
            for mine, ledgers in parts:
                tally = tally_of(ledgers)
                if tally is not None:
                    picked.each[mine] = tally.column(batch, peak)[mine]
            return picked

        def share(share_of: Any) -> _Share:
            made = _Share()
            for field in _Share.__slots__:
                setattr(made, field, pick(lambda ledgers, f=field: None if share_of(ledgers)
                                          is None else getattr(share_of(ledgers), f),
                                          field in ("max_processors", "max_local")))
            return made

        made.all = share(lambda ledgers: ledgers.all)
        made.loop_tests = pick(lambda ledgers: ledgers.loop_tests, False)
        made.local = pick(lambda ledgers: ledgers.local, False)
        made.max_local = pick(lambda ledgers: ledgers.max_local, True)
        labels = dict.fromkeys(label for _, ledgers in parts for label in ledgers.phases)
        made.phases = {label: share(lambda ledgers, k=label: ledgers.phases.get(k))
                       for label in labels}
        made.steps = list(parts[0][1].steps[:shared])
        for mine, ledgers in parts:
            both: dict[int, Flags] = {}  # one set of flags per set the pass's steps share
            for n, labels_, alive in ledgers.steps[shared:]:
                took: Flags | None = mine
                if alive is not None:
                    took = both.get(id(alive))
                    if took is None:
                        took = both[id(alive)] = alive & mine
                made.steps.append((n, labels_, took))
        return made

    def costs(self, memory_cells: int | Sequence[int],
              peak_cells: int | Sequence[int]) -> tuple[Cost, ...]:
        """Every instance's ledger, made together: the counts as columns of one array per
        field, the profile and phase labels shared while every instance took every step.
        ``memory_cells`` and ``peak_cells`` are the same for all, or one per instance."""
        batch = self.batch
        cells = [memory_cells] * batch if isinstance(memory_cells, int) else list(memory_cells)
        peaks = [peak_cells] * batch if isinstance(peak_cells, int) else list(peak_cells)

        def column(tally: _Tally) -> list[int]:
            if tally.each is None:
                return [tally.base] * batch
            return (tally.each + tally.base).tolist()  # type: ignore[no-any-return]

        def highest(tally: _Tally) -> list[int]:
            if tally.each is None:
                return [tally.base] * batch
            return np.maximum(tally.each, tally.base).tolist()  # type: ignore[no-any-return]

        every = self.all
        fields = [column(every.time), column(every.work), column(every.reads),
                  column(every.writes), highest(every.max_processors),
                  column(self.loop_tests), column(self.local), highest(self.max_local)]
        shares = {label: (column(share.time), column(share.work), column(share.reads),
                          column(share.writes), highest(share.max_processors),
                          column(share.local), highest(share.max_local))
                  for label, share in self.phases.items()}
        uniform = all(alive is None and type(n) is int for n, _, alive in self.steps)
        if uniform:
            profile = [int(n) for n, _, _ in self.steps]
            labels = [labels for _, labels, _ in self.steps]
        else:
            runs = self._runs()
        made = []
        for i in range(batch):
            if uniform:
                mine, phases_of = list(profile), list(labels)
            else:
                mine, phases_of = [], []
                for took, counts, labelled in runs:
                    if took is None or took[i]:
                        mine.extend(counts if type(counts) is list else counts[:, i].tolist())
                        phases_of.extend(labelled)
            phases = {label: PhaseCost(t[i], w[i], r[i], x[i], p[i], o[i], h[i])
                      for label, (t, w, r, x, p, o, h) in shares.items() if t[i]}
            made.append(Cost(
                time=fields[0][i], work=fields[1][i], reads=fields[2][i],
                writes=fields[3][i], max_processors=fields[4][i], memory_cells=cells[i],
                peak_cells=peaks[i], loop_tests=fields[5][i], local=fields[6][i],
                max_local=fields[7][i], profile=mine, step_phases=phases_of, phases=phases,
            ))
        return tuple(made)

    def _runs(self) -> list[tuple[Flags | None, Any, list[tuple[str, ...]]]]:
        """The steps in runs of consecutive steps taken by the same instances (one set of
        flags, as a pass between two departures): each run's flags (None: every instance),
        its processors per step (a list when the same for every instance, else a ``(steps,
        batch)`` array) and its phase labels; an instance's profile is the runs it took, so
        no table of every step by every instance is made."""
        batch = self.batch
        runs: list[tuple[Flags | None, Any, list[tuple[str, ...]]]] = []
        start, steps = 0, self.steps
        for k in range(1, len(steps) + 1):
            if k < len(steps) and steps[k][2] is steps[start][2]:
                continue
            part = steps[start:k]
            counts: Any = [n for n, _, _ in part]
            if any(type(n) is not int for n in counts):
                counts = np.array([np.broadcast_to(n, (batch,)) for n in counts],
                                  dtype=np.int64).reshape(len(part), batch)
            runs.append((part[0][2], counts, [labels for _, labels, _ in part]))
            start = k
        return runs

    def cost(self, i: int, memory_cells: int, peak_cells: int) -> Cost:
        """Instance ``i``'s ledger (what :meth:`costs` makes for all, one instance)."""
        every = self.all
        profile: list[int] = []
        step_phases: list[tuple[str, ...]] = []
        for n, labels, alive in self.steps:
            if alive is not None and not alive[i]:
                continue
            profile.append(n if type(n) is int else int(n[i]))  # type: ignore[index]
            step_phases.append(labels)
        phases = {}
        for label, share in self.phases.items():
            if share.time.total(i):
                phases[label] = PhaseCost(
                    share.time.total(i), share.work.total(i), share.reads.total(i),
                    share.writes.total(i), share.max_processors.highest(i),
                    share.local.total(i), share.max_local.highest(i))
        return Cost(
            time=every.time.total(i), work=every.work.total(i), reads=every.reads.total(i),
            writes=every.writes.total(i), max_processors=every.max_processors.highest(i),
            memory_cells=memory_cells, peak_cells=peak_cells,
            loop_tests=self.loop_tests.total(i), local=self.local.total(i),
            max_local=self.max_local.highest(i), profile=profile, step_phases=step_phases,
            phases=phases,
        )


# ---- the engine ----------------------------------------------------------------------------


class _Port:
    """One Read or Write of one step of a batch, validated: indices ``(n,)`` shared by every
    instance or ``(batch, n)``; ``where`` None (every processor), ``(n,)`` or ``(batch, n)``;
    values likewise (or one integer)."""

    __slots__ = ("array", "branch", "index", "is_write", "own", "pid", "rank", "step",
                 "value", "where")

    def __init__(self, step: Step, branch: int, rank: int, pid: Words, array: Array,
                 index: Words, where: Flags | None, value: Words | int | None) -> None:
        self.step, self.branch, self.rank, self.pid = step, branch, rank, pid
        self.array, self.index, self.where, self.value = array, index, where, value
        #: ``where`` before the instances that idle were masked out of it (see _met).
        self.own = where
        self.is_write = value is not None

    def count(self) -> int | Counts:
        """The accesses through this port, per instance (an int when the same for all)."""
        where = self.where
        if where is None:
            return len(self.pid)
        if where.ndim == 1:
            return int(np.count_nonzero(where))
        counted: Counts = np.count_nonzero(where, axis=1).astype(np.int64)
        return counted


class _One:
    """One instance's view of a port, shaped as the single machine's slow path reads it
    (:func:`pram.engine.conflicts.resolve`): compressed to the processors that act."""

    __slots__ = ("array", "branch", "index", "is_write", "processors", "value")

    def __init__(self, port: _Port, i: int, array: _Row, acting: Flags | None) -> None:
        index = port.index if port.index.ndim == 1 else port.index[i]
        pid = port.pid
        value = port.value
        if value is not None:
            given = np.asarray(value)  # as the port holds them (words written to reals too)
            value = np.broadcast_to(given[i] if given.ndim == 2 else given, index.shape)
        if acting is not None:
            index, pid = index[acting], pid[acting]
            value = None if value is None else value[acting]
        self.array, self.branch, self.is_write = array, port.branch, port.is_write
        self.index = np.ascontiguousarray(index)
        self.processors = np.ascontiguousarray(pid).astype(np.int64, copy=False)
        self.value = None if value is None else np.ascontiguousarray(value)


class _Row:
    """One instance's row of an array, named like it (what the slow path reads of it)."""

    __slots__ = ("_array", "_cells", "name", "shape", "size")

    def __init__(self, array: Array, i: int) -> None:
        self.name, self.size, self._array = array.name, array.size, array
        self.shape = getattr(array, "shape", (array.size,))
        self._cells = array._cells[i]

    def cell(self, index: int) -> str:
        """Cell ``index`` by name, as the array names it (for messages)."""
        name: Any = getattr(self._array, "cell", None)
        return f"{self.name}[{index}]" if name is None else str(name(index))


class _Many:
    """A port of several instances as one array's port (:meth:`BatchEngine._resolve_together`):
    instance ``rows[j]``'s cell c as cell ``j * size + c``, only the processors that act."""

    __slots__ = ("array", "branch", "index", "is_write", "processors", "value")

    def __init__(self, port: _Port, rows: Words, size: int, batch: int,
                 array: _Together) -> None:
        n = len(port.pid)
        shape = (len(rows), n)
        index = np.broadcast_to(port.index, (batch, n))[rows]
        index = index + (np.arange(len(rows), dtype=np.int64) * size)[:, None]
        acting = None if port.where is None else np.broadcast_to(port.where, (batch, n))[rows]
        pid = np.broadcast_to(port.pid.astype(np.int64, copy=False), shape)
        value = port.value
        if value is not None:
            given = np.asarray(value)  # as the port holds them (words written to reals too)
            value = np.broadcast_to(given, (batch, n))[rows] if given.ndim == 2 else \
                np.broadcast_to(given, shape)
        if acting is None:
            self.index, self.processors = index.reshape(-1), np.ascontiguousarray(pid).reshape(-1)
            self.value = None if value is None else np.ascontiguousarray(value).reshape(-1)
        else:
            self.index, self.processors = index[acting], pid[acting]
            self.value = None if value is None else value[acting]
        self.array, self.branch, self.is_write = array, port.branch, port.is_write


class _Together:
    """The instances ``rows`` of an array, side by side as one array (what the slow path
    reads of it: its name, its shape for the cells' names, and old contents by cell)."""

    __slots__ = ("_array", "_cells", "name", "rows", "shape", "size")

    def __init__(self, array: Array, rows: Words) -> None:
        self._array, self.rows, self.name = array, rows, array.name
        self.shape = getattr(array, "shape", (array.size,))
        self.size = array.size * len(rows)
        self._cells = self  # indexed by cell: see __getitem__

    def __getitem__(self, cells: Words) -> Any:
        size = self._array.size
        return self._array._cells[self.rows[cells // size], cells % size]


def _no_choice() -> np.random.Generator:
    """The slow path's random generator where no model draws from it."""
    return np.random.default_rng(0)


def _apart(record: Any, rows: Words, size: int, ledgers: Ledgers) -> Any:
    """A record of the instances side by side, as its own instance's (its cell, and the
    step by the instance's own count: an instance that idled in a loop took fewer)."""
    import attrs

    j, cell = divmod(int(record.index), size)
    i = int(rows[j])
    return attrs.evolve(record, index=cell, instance=i, step=ledgers.time(i) + 1)


class _Draw:
    """Instance ``i``'s random generator, made at its first choice (what the slow path
    calls)."""

    __slots__ = ("engine", "i")

    def __init__(self, engine: BatchEngine, i: int) -> None:
        self.engine, self.i = engine, i

    def __call__(self) -> np.random.Generator:
        return self.engine._generator(self.i)


class _Start:
    """What a batched run started from, which each later pass restores for its instances:
    the table of arrays and a copy of their cells (and of which cells hold a value), the
    ledgers, the machine's ledger, the records' lengths, the processor ids handed out, the
    cells alive and every instance's random generator."""

    __slots__ = ("alive_cells", "arrays", "cells", "cost", "ledgers", "processors", "random",
                 "records", "sizes", "steps")

    def __init__(self, host: Machine, engine: BatchEngine, copied: bool) -> None:
        self.arrays = dict(host.arrays)
        # (no copy of memory for a program that cannot be made again: no pass restores it)
        self.cells = [(array, array._cells.copy(order="K"),
                       None if array._defined is None else array._defined.copy(order="K"))
                      for array in self.arrays.values()] if copied else []
        self.ledgers = engine.ledgers.copy()  # the list of steps shared: it only grows
        self.steps = len(engine.ledgers.steps)
        self.cost = host._cost.fresh()
        self.records = (len(host._violations), len(host._resolutions),
                        len(host._undefined_reads))
        self.processors = host._next_processor
        self.alive_cells = host._alive_cells
        #: Each instance's generator as the run found it, kept at its first draw of the
        #: run (:meth:`BatchEngine._generator`): None when it had none.
        self.random: dict[int, np.random.Generator | None] = {}
        self.sizes = engine.sizes


class _Pass:
    """A pass of a batched run that ended: the instances it finished (those that never left
    its path), its ledgers and machine ledger, its table of arrays, the ids it handed out."""

    __slots__ = ("arrays", "cost", "finished", "ledgers", "processors")

    def __init__(self, finished: Flags, engine: BatchEngine) -> None:
        host = engine.host
        self.finished, self.ledgers, self.cost = finished, engine.ledgers, host._cost
        self.arrays, self.processors = dict(host.arrays), host._next_processor


class BatchEngine:
    """Executes global steps for a batched machine: every instance in one pass."""

    def __init__(self, host: Machine, batch: int) -> None:
        self.host = host
        self.batch = batch
        self.ledgers = Ledgers(batch)
        self.scratch = Scratch()
        #: The instances taking steps (None: all); the others left the pass's path at a loop
        #: test (they idle, and a later pass runs them), or are not the pass's.
        self.alive: Flags | None = None
        self._random: list[np.random.Generator | None] = [None] * batch
        #: Every instance's ``memory_cells`` and ``peak_cells`` once passes of a run
        #: allocated differently (None while they are the machine's for every instance).
        self.sizes: tuple[Counts, Counts] | None = None
        #: The instances of the pass running (None: the first pass, every instance).
        self.group: Flags | None = None
        #: The loop tests of the pass so far (to name one in a refusal).
        self.tests = 0
        #: Groups of instances that left a pass's path, each waiting for its pass, with the
        #: path it took to its departure (see :attr:`path`).
        self.pending: list[tuple[Flags, list[tuple[int, tuple[bool, ...]]]]] = []
        #: The pass's loop-test steps so far: the machine's time at each and the answers the
        #: program was sent (a later pass must retrace its group's to its departure).
        self.path: list[tuple[int, tuple[bool, ...]]] = []
        #: The path the pass running must retrace: its group's in the pass it left (empty
        #: in the first pass).
        self.expected: list[tuple[int, tuple[bool, ...]]] = []
        #: Arrays a pass of the run allocated, by name (a later pass allocating the name
        #: again with the same size gets the same array).
        self.made: dict[str, Array] = {}
        #: Arrays freed during the run (their cells are kept until it ends: a later pass
        #: may need the rows of its instances).
        self.freed: list[Array] = []
        self._start: _Start | None = None
        self._passes: list[_Pass] = []
        self._remake: Callable[[], Any] | None = None
        self._unmade = ""

    # ---- passes of a run -------------------------------------------------------------------

    def begin(self, program: Any) -> None:
        """A run starts (its memory sealed, its ledger fresh): keep how to make ``program``
        again and what the run starts from, for passes the instances may need."""
        self._remake, self._unmade = remaker(program)
        self._start = _Start(self.host, self, self._remake is not None)
        self._passes = []
        self.pending = []
        self.made = {}
        self.freed = []
        self.group = None
        self.alive = None
        self.tests = 0
        self.path, self.expected = [], []

    def next_pass(self) -> Any:
        """The pass that ran ended: the program for the next pass (its instances' rows of
        memory, ledgers, records and random generators restored to the run's start, every
        other instance inert), or None when every instance has finished."""
        if len(self.path) < len(self.expected):
            self._astray("ended")
        finished = np.ones(self.batch, np.bool_) if self.alive is None else self.alive.copy()
        self._passes.append(_Pass(finished, self))
        if not self.pending:
            return None
        group, self.expected = self.pending.pop(0)
        self.path = []
        host, start = self.host, self._start
        assert start is not None and self._remake is not None
        host.arrays = dict(start.arrays)
        for array, cells, defined in start.cells:
            array._freed, array._sealed = False, True
            array._cells[group] = cells[group]
            if defined is not None and array._defined is not None:
                array._defined[group] = defined[group]
        host._cost = start.cost.fresh()
        host._ledger = Ledger(host._cost)
        kept = start.records
        host._violations = _kept(host._violations, kept[0], group)
        host._resolutions = _kept(host._resolutions, kept[1], group)
        host._undefined_reads = _kept(host._undefined_reads, kept[2], group)
        host._next_processor = start.processors
        host._alive_cells = start.alive_cells
        host._failure = None
        host._modular = 0
        for i in np.flatnonzero(group).tolist():
            if i in start.random:  # else the run drew nothing for it: its generator as found
                made = start.random[i]
                self._random[i] = None if made is None else copy.deepcopy(made)
        self.ledgers = start.ledgers.copy(steps=start.steps)
        self.group, self.alive, self.tests = group, group.copy(), 0
        return self._remake()

    def allocated(self, name: str, array: Array) -> Array:
        """The array the machine keeps under ``name`` for the new ``array``: during a run,
        :meth:`_in_run`'s; between runs ``array`` itself, every instance's sizes grown."""
        if self.host._running:
            return self._in_run(name, array)
        self.grown(array.size, self.host._alive_cells + array.size)
        return array

    def _in_run(self, name: str, array: Array) -> Array:
        """``array`` just allocated by a run's program under ``name``: in a later pass, the
        array an earlier pass allocated under that name, if of the same size, shape and
        dtype, with the pass's rows reset to the new one's (so the arrays a run leaves are
        one object per name for every instance)."""
        earlier = self.made.get(name)
        group = self.group
        if group is not None:  # an array an earlier pass left under the name: the same size
            for done in self._passes:
                left = done.arrays.get(name)
                if left is not None and (left.size, left.shape, left.dtype) != (
                        array.size, array.shape, array.dtype):
                    self._apart_sizes(name, left, array)
        self.made[name] = array
        if group is None or earlier is None or earlier is array or (
                earlier.size, earlier.shape, earlier.dtype) != (
                array.size, array.shape, array.dtype) or earlier._cells.shape != \
                array._cells.shape:
            return array
        earlier._cells[group] = array._cells[group]
        if array._defined is not None:
            if earlier._defined is None:
                earlier._defined = np.ones(earlier._cells.shape, np.bool_, order="F")
            earlier._defined[group] = array._defined[group]
        elif earlier._defined is not None:
            earlier._defined[group] = True
        earlier._freed, earlier._sealed = False, array._sealed
        self.made[name] = earlier
        return earlier

    def _apart_sizes(self, name: str, earlier: Array, array: Array) -> NoReturn:
        """Refuse ``array``, allocated under ``name`` in a later pass with another size,
        shape or dtype than ``earlier``, the array an earlier pass left under that name as it
        ended (the run leaves one array per name; one a pass freed is no obstacle)."""
        assert self.group is not None
        found = np.flatnonzero(self.group).tolist()
        named = ", ".join(map(str, found[:8])) + (", ..." if len(found) > 8 else "")
        raise BatchPathError(
            f"m.array({name!r}) in the pass of instances {named} (run again from the start "
            f"after they left the batch's path at a loop test) has {_described(array)}, "
            "where an earlier pass of the run left it with "
            f"{_described(earlier)}: a batch holds one array per name for all its "
            "instances; size the array from the inputs (the largest size any instance may "
            "need), give it a name per size, or run one machine per instance",
            self.host._cost.time)

    def end(self) -> None:
        """The run's last pass ended: one set of ledgers from every pass's, each instance's
        sizes from its own pass, the arrays every pass left, the ids every pass handed out."""
        host, start, passes = self.host, self._start, self._passes
        assert start is not None
        if len(passes) > 1:
            self.ledgers = Ledgers.merged(
                self.batch, [(p.finished, p.ledgers) for p in passes], start.steps)
            first = passes[0]
            host._cost = first.cost
            host._ledger = Ledger(first.cost)
            host._next_processor = max(p.processors for p in passes)
            arrays = dict(first.arrays)
            for later in passes[1:]:
                for name, array in later.arrays.items():
                    arrays.setdefault(name, array)
            host.arrays = arrays
            for array in arrays.values():
                array._freed = False
            host._alive_cells = sum(array.size for array in arrays.values())
            memory = np.zeros(self.batch, np.int64)
            peak = np.zeros(self.batch, np.int64)
            for p in passes:
                memory[p.finished] = p.cost.memory_cells
                peak[p.finished] = p.cost.peak_cells
            self.sizes = self._sizes(start, memory, peak)
        elif start.sizes is not None:
            cost = host._cost
            self.sizes = self._sizes(start, np.full(self.batch, cost.memory_cells, np.int64),
                                     np.full(self.batch, cost.peak_cells, np.int64))
        self.settle()

    def _sizes(self, start: _Start, memory: Counts, peak: Counts
               ) -> tuple[Counts, Counts] | None:
        """Every instance's sizes after the run from those its pass counted (from the
        machine's at the run's start) and those it had before the run."""
        if start.sizes is not None:
            before, highest = start.sizes
            memory = memory + (before - start.cost.memory_cells)
            peak = np.maximum(peak, highest)
        if (memory == memory[0]).all() and (peak == peak[0]).all():
            return None
        return memory, peak

    def settle(self) -> None:
        """Forget the run's passes (as it ends, or fails), and release the cells of the
        arrays it freed."""
        for array in self.freed:
            if array.freed:
                array._cells = np.zeros(0, dtype=array._cells.dtype)
                array._defined = None
        for array in self.made.values():  # one a failed pass left out of the table too
            array._sealed = False
        self._start, self._passes, self.pending = None, [], []
        self.path, self.expected = [], []
        self.made, self.freed = {}, []
        self.group, self.alive, self._remake = None, None, None

    def grown(self, cells: int, alive_cells: int) -> None:
        """The host allocated ``cells`` between runs (``alive_cells`` alive now): every
        instance's sizes grow alike."""
        if self.sizes is not None:
            memory, peak = self.sizes
            self.sizes = memory + cells, np.maximum(peak, alive_cells)

    def costs(self, cost: Cost) -> tuple[Cost, ...]:
        """Every instance's ledger (the machine's ``cost`` gives the sizes, unless passes of
        a run allocated differently)."""
        if self.sizes is None:
            return self.ledgers.costs(cost.memory_cells, cost.peak_cells)
        memory, peak = self.sizes
        return self.ledgers.costs(memory.tolist(), peak.tolist())

    # ---- what the machine asks its engine (pram.engine.core.Engine answers for one) --------

    def release(self, array: Array) -> None:
        """Release the cells of ``array``, just freed: at once between runs; during one, as
        the run ends (a later pass may take them again)."""
        if self.host._running:
            self.freed.append(array)
        else:
            array._cells = np.zeros(0, dtype=array._cells.dtype)
            array._defined = None

    def cost(self, cost: Cost) -> Cost:
        """The ledger ``m.cost`` shows: the instances' one, when the same for all."""
        costs = self.costs(cost)
        if any(other != costs[0] for other in costs[1:]):
            raise InputError(
                f"the {self.batch} instances of this batched machine have "
                "different ledgers; read m.costs[i] for instance i"
            )
        return costs[0]

    def replace(self, cost: Cost) -> None:
        """Refuse ``m.cost = ...``: a batch's ledgers are counted per instance."""
        raise InputError(
            "m.cost = ... on a batched machine: its ledgers are counted per instance "
            "(m.costs); make a fresh Machine(batch=...) to count from zero"
        )

    def run(self, program: Any, drive: Any) -> tuple[Any, tuple[Any, ...]]:
        """Drive ``program`` with ``drive`` once per pass (one per distinct sequence of
        loop-test answers): the value, registers put together row by row from the passes,
        and every instance's value as its pass returned it."""
        self.begin(program)
        results: list[Any] = [None] * self.batch
        passes: list[tuple[Any, Flags | None]] = []
        while program is not None:
            value = drive(program)
            mine = self.alive
            passes.append((value, mine))
            for i in range(self.batch) if mine is None else np.flatnonzero(mine).tolist():
                results[i] = value
            program = self.next_pass()
        self.end()
        value = passes[0][0] if len(passes) == 1 else merge_rows(passes, results[0])
        return value, tuple(results)

    def charge_local(self, token: Run) -> None:
        """Charge the elementwise operations since the previous step to the instances
        taking steps."""
        self.ledgers.operations(token._operations, self.alive)
        token._operations = 0

    # ---- the step --------------------------------------------------------------------------

    def execute(self, steps: Sequence[Step]) -> list[Values]:
        """Execute one global step of every instance taking steps; see
        :meth:`pram.Machine.execute`."""
        host = self.host
        number = host._cost.time + 1
        alive = self.alive
        memo = StepMemo()
        # 0. The fast path: the usual step, shared indices (idle instances left untouched).
        fast = self._fast(steps, memo, alive)
        if fast is not None:
            return fast
        # 1. Normalise ports.
        ports: list[_Port] = []
        actors: list[int | Counts] = []
        ranked = 0
        for branch, step in enumerate(steps):
            pid = validate.processors_of(step, number)
            validate.this_run(step.reads, step.writes, number, host._token)
            validate.accesses(step.reads, step.writes, number)
            rows = chosen_rows(pid)
            plain: Words = pid.view(np.ndarray) if type(pid) is Chosen else pid
            actors.append(len(plain) if rows is None
                          else np.count_nonzero(rows, axis=1).astype(np.int64))
            for read in step.reads:
                validate.read_object(read, number)
                ports.append(self._port(step, branch, ranked, pid, plain, rows, read, None,
                                        number))
            for write in step.writes:
                validate.write_object(write, number)
                ports.append(self._port(step, branch, ranked, pid, plain, rows, write,
                                        write.value, number))
            ranked += len(plain)
        if alive is not None:  # an idle instance takes no access
            for port in ports:
                idle = np.broadcast_to(alive[:, None], (self.batch, len(port.pid)))
                port.where = idle if port.where is None else port.where & idle
        for port in ports:
            self._check_bounds(port, number)
        # 2. Check: no processor listed twice, and each array's ports against the model.
        if host.distinct_processors:
            if any(chosen_rows(s.processors) is not None for s in steps):
                self._check_chosen(steps, number)
            else:
                conflicts.check_processors(steps, ranked, number, memo, self.scratch)
        groups: dict[int, list[_Port]] = {}
        for port in ports:
            groups.setdefault(id(port.array), []).append(port)
        resolved: dict[int, dict[int, tuple[Words, Words] | None]] = {}
        for key, group in groups.items():
            met = self._met(group, ranked, alive)
            if met is not None:
                resolved[key] = self._resolve(group, met, steps)
        # 3. Read.
        replies: list[list[Register]] = [[] for _ in steps]
        reads: list[int | Counts] = [0] * len(steps)
        writes: list[int | Counts] = [0] * len(steps)
        for port in ports:
            if not port.is_write:
                reads[port.branch] = reads[port.branch] + port.count()
                replies[port.branch].append(self._read(port, number))
        # 4. Commit.
        for port in ports:
            if port.is_write:
                writes[port.branch] = writes[port.branch] + port.count()
                settled = resolved.get(id(port.array))
                self._store(port, None if settled is None else settled)
        for key, settled in resolved.items():
            array = groups[key][0].array
            for i, outcome in settled.items():
                if outcome is not None:
                    cells, values = outcome
                    array._cells[i, cells] = values
                    if array._defined is not None:
                        array._defined[i, cells] = True
        # 5. Account.
        self._account(steps, actors, reads, writes, alive)
        answers: list[Any] = [tuple(reply) for reply in replies]
        tests = [branch for branch, step in enumerate(steps) if is_test(step)]
        if tests:
            bits = self._test([steps[b] for b in tests], [answers[b] for b in tests], alive)
            for branch, bit in zip(tests, bits, strict=True):
                answers[branch] = bit
        return answers

    # ---- 0. the fast path ------------------------------------------------------------------

    def _fast(self, steps: Sequence[Step], memo: StepMemo, alive: Flags | None
              ) -> list[Values] | None:
        """Execute the global step if it is the usual one for every instance at once, or
        return None having changed nothing: the single machine's fast path (its tests, on
        the indices every instance shares), with values one row per instance.

        That is: word processor ids not chosen by data, distinct; no ``where`` masks; indices
        plain arrays or integers (shared by every instance), ascending and in range; values
        integers, plain arrays or registers of the step's processors; the checked ports into
        one array meeting at no cell; no undefined cell read. Every instance then takes the
        same accesses, so one test answers for all of them. Instances that idle (``alive``
        false) read what their rows hold (values no count, record or memory of theirs sees:
        operations check only the rows of instances taking steps), write nothing and are not
        charged, as on the general path.
        """
        token = self.host._token
        for step in steps:
            if type(step) is not Step:
                return None
            who = step.processors
            if type(who) is not np.ndarray or who.dtype is not WORD or who.ndim != 1 \
                    or not len(who) or validate.too_many(step.reads, step.writes):
                return None
            n = len(who)
            for read in step.reads:
                if type(read) is not Read or read.where is not None or not _shared(
                        read.index, n):
                    return None
            for write in step.writes:
                if type(write) is not Write or write.where is not None or not _shared(
                        write.index, n):
                    return None
                value, held = write.value, write.array._cells.dtype
                if type(value) is Register:
                    if value._processors is not who or value._run is not token \
                            or value._values.dtype != held:
                        return None
                elif not (validate.word_constant(value) and held is WORD) and not (
                        type(value) is np.ndarray and value.dtype == held
                        and value.shape == (n,)):
                    return None
        host = self.host
        if host.distinct_processors and not conflicts.ids_distinct(steps, memo):
            return None
        checks_reads = host.model.checks_reads
        checked: dict[int, tuple[Array, list[conflicts.Cells]]] = {}
        ranked = 0
        arrays = host.arrays
        for step in steps:
            n = len(step.processors)
            for kind, checks in ((step.reads, checks_reads), (step.writes, True)):
                for port in kind:
                    array, index = port.array, port.index
                    if type(array) is not Array or arrays.get(array.name) is not array \
                            or len(getattr(array, "shape", ())) > 1:
                        return None  # a two-dimensional array: the general path
                    if type(index) is int:
                        if not 0 <= index < array.size or (n > 1 and checks):
                            return None  # one cell for all: the general path judges it
                        continue
                    if not _ascending_in(index, array, memo):  # type: ignore[arg-type]
                        return None
                    if checks:
                        checked.setdefault(id(array), (array, []))[1].append(
                            (index, ranked, None))  # type: ignore[arg-type]
            ranked += n
        for array, cells in checked.values():
            if len(cells) > 1 and not conflicts.distinct_cells(
                cells, array.size, ranked, memo, self.scratch,
                each_ascending=True, last_ascending=True,
            ):
                return None
        replies: list[Values] = []
        for step in steps:
            values = []
            for read in step.reads:
                array = read.array
                index = read.index if type(read.index) is not int else np.full(
                    len(step.processors), read.index, np.int64)
                if array._defined is not None:
                    known = _columns(array, "_defined").take(index, axis=0)
                    if not (known.all() if alive is None else known[:, alive].all()):
                        return None  # the general path reports the undefined cells
                values.append(index)
            replies.append(tuple(values))  # type: ignore[arg-type]
        answers: list[Values] = []
        for step, indices in zip(steps, replies, strict=True):
            taken = []
            for read, index in zip(step.reads, indices, strict=True):
                taken.append(Register(_columns(read.array, "_cells").take(index, axis=0).T,
                                      step.processors, token))  # type: ignore[arg-type]
            answers.append(tuple(taken))
        live = None if alive is None else np.flatnonzero(alive)
        for step in steps:
            for write in step.writes:
                columns = _columns(write.array, "_cells")
                value = write.value
                raw = value._values if type(value) is Register else value
                if live is not None:  # only the rows of the instances taking steps
                    if type(raw) is np.ndarray and raw.ndim == 2:
                        raw = raw[live]
                    to = write.index
                    target: Any = ((to[:, None] if type(to) is np.ndarray
                                   else np.array([[to]], np.int64)), live)
                else:
                    target = write.index
                columns[target] = raw.T if type(raw) is np.ndarray and raw.ndim == 2 \
                    else (raw[:, None] if type(raw) is np.ndarray else raw)
                if write.array._defined is not None:
                    _columns(write.array, "_defined")[target] = True
        actors = [len(s.processors) for s in steps]
        self._account(steps, actors,  # type: ignore[arg-type]
                      [n * len(s.reads) for n, s in zip(actors, steps, strict=True)],
                      [n * len(s.writes) for n, s in zip(actors, steps, strict=True)], alive)
        return answers

    # ---- 1. normalise ----------------------------------------------------------------------

    def _port(self, step: Step, branch: int, rank: int, pid: Words, plain: Words,
              rows: Flags | None, access: Read | Write, value: Any, number: int) -> _Port:
        array = access.array
        if type(array) is not Array or self.host.arrays.get(array.name) is not array:
            refuse_array(array, number)
        n = len(plain)
        where: Flags | None = rows
        if access.where is not None:
            mask, held = self._operand(access.where, pid, plain, "the where mask of an access to",
                                       array, number)
            if type(mask) is not np.ndarray or mask.dtype != np.bool_ \
                    or mask.shape[-1:] != (n,):
                validate.refuse_mask(mask, n, number, array)
            where = _and(_and(where, mask), held)
        shape: tuple[int, ...] = getattr(array, "shape", (array.size,))
        key: Any = access.index
        parts = key if type(key) is tuple else (key,)
        if (type(key) is tuple) != (len(shape) == 2) or len(parts) != len(shape):
            validate.refuse_key(array, number)
        axes = []
        for part in parts:
            index, held = self._operand(part, pid, plain, "the index into", array, number)
            where = _and(where, held)
            axes.append(self._cells_of(index, n, array, number))
        if len(axes) == 2:
            self._check_pair(axes[0], axes[1], shape, where, plain, array, step, number,
                             value is not None)
            index = axes[0] * shape[1] + axes[1]
        else:
            index = axes[0]
        if value is not None:
            # Words of the step's own processors written to reals stay words until stored,
            # as on a single machine (pram.engine.validate.value): the model judges and records
            # the values written, 1 not 1.0.
            words = (type(value) is Register and value._processors is pid) or \
                type(value) is np.ndarray
            value, held = self._operand(value, pid, plain, "the value written to", array,
                                        number)
            where = _and(where, held)
            value = self._value_of(value, n, array, number, words)
        return _Port(step, branch, rank, plain, array, index, where, value)

    @staticmethod
    def _cells_of(index: Any, n: int, array: Array, number: int) -> Words:
        """One index per processor (shared, or one row per instance) as words."""
        if isinstance(index, np.ndarray):
            if index.dtype.kind not in "iu" or index.shape[-1:] != (n,):
                validate.refuse_index(index, n, number, array)
            return index.astype(np.int64, copy=False)
        if isinstance(index, float):
            validate.refuse_index(index, n, number, array)
        return np.full(n, index, dtype=np.int64)

    @staticmethod
    def _value_of(value: Any, n: int, array: Array, number: int, words: bool = False) -> Any:
        """A port's values as the array's dtype: int64 words (reals refused, never cut) or
        float64 reals (integers taken as the reals they are; int64 words given as a register
        of the step's processors or a plain array, ``words``, kept as words until stored)."""
        real = array._cells.dtype == np.float64
        if isinstance(value, np.ndarray):
            if value.dtype.kind == "f" and not real:
                validate.reals_into_words(value, number, array)
            if value.dtype.kind not in ("iubf" if real else "iub") or value.shape[-1:] != (n,):
                kind = "a numeric" if real else "an integer"
                raise StepError(
                    f"value written to {array.name} in step {number} must be {kind} array of "
                    f"shape ({n},) or one {'number' if real else 'integer'} (got "
                    f"{validate.describe(value)})",
                    number,
                )
            if real and words and value.dtype == WORD:
                return value
            return value.astype(array._cells.dtype, copy=False)
        if isinstance(value, float):
            if not real:
                validate.reals_into_words(value, number, array)
            return value
        return float(value) if real else value

    def _check_pair(self, i: Words, j: Words, shape: tuple[int, ...], where: Flags | None,
                    pid: Words, array: Array, step: Step, number: int, write: bool) -> None:
        """Refuse a pair outside a two-dimensional array's shape, each axis on its own."""
        rows, columns = shape
        outside = (i < 0) | (i >= rows) | (j < 0) | (j >= columns)
        if where is not None:
            outside = outside & where
        if not outside.any():
            return
        full = np.broadcast_to(outside, (self.batch, outside.shape[-1]))
        k, bad = (int(x) for x in np.argwhere(full)[0])
        row = int(i[bad] if i.ndim == 1 else i[k, bad])
        column = int(j[bad] if j.ndim == 1 else j[k, bad])
        validate.outside_shape(int(pid[bad]), "write" if write else "read", array, row, column,
                                self.ledgers.time(k) + 1, step.phase, instance=k)

    def _operand(self, x: Any, pid: Words, plain: Words, what: str, array: Array,
                 number: int) -> tuple[Any, Flags | None]:
        """An index, value or mask as raw values (and, for a register of another selection of
        the step's processors, the flags of who holds it)."""
        if type(x) is Register:
            owners = x._processors
            if owners is pid:
                return x._values, None
            if (chosen_rows(owners) is not None and chosen_rows(pid) is not None \
                    and root(owners) is root(pid)) or (
                        chosen_rows(owners) is not None and chosen_rows(pid) is not None
                        and same_choice(root(owners), root(pid))):
                return x._values, chosen_rows(owners)
            if type(owners) is not Chosen and type(pid) is not Chosen \
                    and same_processors(owners, pid):
                return x._values, None
            raise HonestyError(
                f"{what} {array.name} in step {number} is a register of other processors than "
                f"the step's (or in another order); {THROUGH_MEMORY}"
            )
        if isinstance(x, np.ndarray):
            if type(pid) is Chosen:
                validate.opaque(x, pid, number, what, array)
            if x.ndim != 1:
                raise StepError(
                    f"{what} {array.name} in step {number} is a plain array of shape {x.shape}; "
                    "a batch shares plain arrays (computed from sizes) between its instances: "
                    "pass one entry per processor, and per-instance data through memory",
                    number,
                )
            return x, None
        if isinstance(x, float | np.floating) and array._cells.dtype == np.float64 \
                and what == "the value written to":
            return float(x), None
        if isinstance(x, int | np.integer) and not isinstance(x, bool):
            if not validate.word_constant(int(x)):
                if what == "the index into":
                    validate.too_wide_index(int(x), number, array)
                validate.too_wide(f"value written to {array.name}", int(x), number)
            return int(x), None
        raise StepError(
            f"{what} {array.name} in step {number} must be a register, an integer array or one "
            f"integer (got {validate.describe(x)})",
            number,
        )

    def _check_bounds(self, port: _Port, number: int) -> None:
        """Refuse an index outside the array, in the first instance (and by the first
        processor) that gave one."""
        index, size = port.index, port.array.size
        if not index.size:
            return
        outside = (index < 0) | (index >= size)
        if port.where is not None:
            outside = outside & port.where
        if not outside.any():
            return
        if outside.ndim == 1:
            outside = np.broadcast_to(outside, (self.batch, len(outside)))
        i, bad = (int(x) for x in np.argwhere(outside)[0])
        cell = int(index[bad] if index.ndim == 1 else index[i, bad])
        validate.outside(int(port.pid[bad]), "write" if port.is_write else "read", port.array,
                          cell, self.ledgers.time(i) + 1, port.step.phase, instance=i)

    # ---- 2. check --------------------------------------------------------------------------

    def _check_chosen(self, steps: Sequence[Step], number: int) -> None:
        """Refuse a processor listed twice among the processors acting in one instance, when
        some of them chose themselves by data (a batch keeps the full width of a selection,
        so the ids listed are compared only where they act)."""
        batch = self.batch
        ids = np.concatenate([s.processors.view(np.ndarray).astype(np.int64, copy=False)
                              for s in steps])
        acting = np.concatenate([
            np.ones((batch, len(s.processors)), np.bool_) if chosen_rows(s.processors) is None
            else chosen_rows(s.processors) for s in steps], axis=1)
        twice = _two_meet(np.broadcast_to(ids, acting.shape), np.zeros(len(ids), np.int64),
                          1, acting, same=True)
        if not twice.any():
            return
        i = int(np.flatnonzero(twice)[0])
        mine = np.sort(ids[acting[i]])
        pid = int(mine[np.flatnonzero(mine[1:] == mine[:-1])[0]])
        try:
            conflicts.acts_twice(pid, [s for s, a in zip(steps, np.split(
                acting[i], np.cumsum([len(s.processors) for s in steps])[:-1]), strict=True)
                if a.any()], number)
        except StepError as error:
            raise StepError(f"instance {i}: {error}", number, instance=i) from None

    def _met(self, group: list[_Port], ranked: int, alive: Flags | None) -> Flags | None:
        """The instances taking steps (``alive``, None: all) in which two processors met at a
        cell of ``group``'s array through the ports the model checks (None: in none).

        A step whose indices and masks every instance shares is tested once for all on the
        ports' own masks (the idle instances dropped from the answer), as when every
        instance takes steps; any other is tested row by row, the idle masked out."""
        checks_reads = self.host.model.checks_reads
        checked = [p for p in group if p.is_write or checks_reads]
        if sum(len(p.pid) for p in checked) < 2:
            return None
        shared = all(p.index.ndim == 1 and (p.own is None or p.own.ndim == 1)
                     for p in checked)
        if shared:
            cells = np.concatenate([p.index if p.own is None else p.index[p.own]
                                    for p in checked])
            ranks = np.concatenate([
                np.arange(p.rank, p.rank + len(p.pid)) if p.own is None
                else np.arange(p.rank, p.rank + len(p.pid))[p.own] for p in checked])
            if not _two_meet(cells[None, :], ranks[None, :], ranked)[0]:
                return None
            return np.ones(self.batch, dtype=np.bool_) if alive is None else alive.copy()
        cells2 = np.concatenate([np.broadcast_to(p.index, (self.batch, len(p.pid)))
                                 for p in checked], axis=1)
        ranks1 = np.concatenate([np.arange(p.rank, p.rank + len(p.pid)) for p in checked])
        acting = np.concatenate([
            np.ones((self.batch, len(p.pid)), np.bool_) if p.where is None
            else np.broadcast_to(p.where, (self.batch, len(p.pid))) for p in checked], axis=1)
        met = _two_meet(cells2, ranks1, ranked, acting)  # the idle masked out: no garbage
        return met if met.any() else None

    def _resolve(self, group: list[_Port], met: Flags, steps: Sequence[Step]
                 ) -> dict[int, tuple[Words, Words] | None]:
        """The single machine's slow path, for each instance in which two processors met:
        one call for all of them (their cells side by side, as one array's), unless each
        instance draws its own random choices (CRCW arbitrary)."""
        if not isinstance(self.host.model, Arbitrary):
            return self._resolve_together(group, met, steps)
        host = self.host
        settled: dict[int, tuple[Words, Words] | None] = {}
        array = group[0].array
        for i in np.flatnonzero(met).tolist():
            row = _Row(array, i)
            ones = [_One(p, i, row, None if p.where is None else
                         (p.where if p.where.ndim == 1 else p.where[i])) for p in group]
            found: list[Any] = []
            resolutions: list[Any] = []
            number = self.ledgers.time(i) + 1
            try:
                outcome = conflicts.resolve(
                    ones,  # type: ignore[arg-type]
                    number, steps, host.model, host.mode == "raise", found,
                    _Draw(self, i), resolutions)
            except ConflictError as error:
                tagged = _tag(error.violation, i)
                host._violations.append(tagged)
                raise ConflictError(tagged) from None
            if outcome is not None:  # else every write lands as written
                settled[i] = outcome
            host._violations.extend(_tag(v, i) for v in found)
            host._resolutions.extend(_tag(r, i) for r in resolutions)
        return settled

    def _resolve_together(self, group: list[_Port], met: Flags, steps: Sequence[Step]
                          ) -> dict[int, tuple[Words, Words] | None]:
        """:meth:`_resolve` in one call: instance ``rows[j]``'s cell c is cell ``j * size +
        c`` of one array of the instances that met, so the slow path judges and settles
        each cell as in a single run (its records come in instance order, by cell within)."""
        host = self.host
        array = group[0].array
        size = array.size
        rows = np.flatnonzero(met)
        together = _Together(array, rows)
        ports = [_Many(p, rows, size, self.batch, together) for p in group]
        found: list[Any] = []
        resolutions: list[Any] = []
        try:
            outcome = conflicts.resolve(
                ports,  # type: ignore[arg-type]
                host._cost.time + 1, steps, host.model, host.mode == "raise", found,
                _no_choice, resolutions)
        except ConflictError as error:
            tagged = _apart(error.violation, rows, size, self.ledgers)
            host._violations.append(tagged)
            raise ConflictError(tagged) from None
        host._violations.extend(_apart(v, rows, size, self.ledgers) for v in found)
        host._resolutions.extend(_apart(r, rows, size, self.ledgers) for r in resolutions)
        settled: dict[int, tuple[Words, Words] | None] = {}
        if outcome is None:
            return settled
        cells, values = outcome
        which = cells // size if size else np.zeros_like(cells)
        bounds = np.searchsorted(which, np.arange(len(rows) + 1))  # cells come sorted
        for j, i in enumerate(rows.tolist()):
            start, end = int(bounds[j]), int(bounds[j + 1])
            settled[i] = (cells[start:end] - j * size, values[start:end])
        return settled

    def _generator(self, i: int) -> np.random.Generator:
        """Instance ``i``'s random choices (CRCW arbitrary), seeded like a single machine's;
        as found at the run's start kept at its first draw of a run that a later pass may
        need to draw again."""
        made = self._random[i]
        start = self._start
        if start is not None and self._remake is not None and i not in start.random:
            start.random[i] = None if made is None else copy.deepcopy(made)
        if made is None:
            made = self._random[i] = np.random.default_rng(self.host._seed)
        return made

    # ---- 3. read, 4. commit ----------------------------------------------------------------

    def _read(self, port: _Port, number: int) -> Register:
        """The values read, one row per instance (0 where a processor does not act)."""
        array, index, where = port.array, port.index, port.where
        if array.size == 0:  # nothing can be read (an access would have been refused)
            values = np.zeros((self.batch, len(port.pid)), dtype=array._cells.dtype)
            return Register(values, port.step.processors, self.host._token)  # type: ignore[arg-type]
        if where is not None:
            index = np.where(where, index, 0)  # a processor that does not act reads nothing
        values = self._gather(_columns(array, "_cells"), index)
        if array._defined is not None:
            known = self._gather(_columns(array, "_defined"), index)
            unknown = ~known if where is None else ~known & where
            if unknown.any():
                self._undefined(port, unknown, index)
        if where is not None:
            values = np.where(where, values, 0)
        return Register(values, port.step.processors, self.host._token)  # type: ignore[arg-type]

    def _gather(self, columns: npt.NDArray[Any], index: Words) -> npt.NDArray[Any]:
        """``(batch, n)`` cells of ``columns`` (the ``(size, batch)`` memory): by a shared
        index, n runs of ``batch`` words; by one index
        per instance, one word each."""
        if index.ndim == 1:
            return columns.take(index, axis=0).T
        batch = self.batch
        flat = index * batch + np.arange(batch, dtype=np.int64)[:, None]
        return columns.reshape(-1).take(flat)

    def _undefined(self, port: _Port, unknown: Flags, index: Words) -> None:
        host = self.host
        unknown = np.broadcast_to(unknown, (self.batch, unknown.shape[-1]))
        shape: tuple[int, ...] = getattr(port.array, "shape", ())
        columns = shape[1] if len(shape) == 2 else 0  # a cell named by pair, as on one machine
        for i in np.flatnonzero(unknown.any(axis=1)).tolist():
            row = index if index.ndim == 1 else index[i]
            for j in np.flatnonzero(unknown[i]).tolist():
                record = UndefinedRead(self.ledgers.time(i) + 1, port.step.phase,
                                       port.array.name, int(row[j]), int(port.pid[j]),
                                       columns, instance=i)
                if host.strict:
                    raise UndefinedReadError(
                        record.message, step=record.step, array=record.array,
                        index=record.index, processor=record.processor, instance=i,
                    )
                host._undefined_reads.append(record)

    def _store(self, port: _Port, settled: dict[int, Any] | None) -> None:
        """Write ``port``'s values in every instance whose writes to the array were not
        resolved by the model (those are stored from the resolution)."""
        array, index, where = port.array, port.index, port.where
        value: Any = port.value
        if settled:
            keep = np.ones(self.batch, dtype=np.bool_)
            keep[list(settled)] = False
            kept = np.broadcast_to(keep[:, None], (self.batch, len(port.pid)))
            where = kept if where is None else where & kept
        cells, defined = _columns(array, "_cells"), _columns(array, "_defined")
        if where is None and index.ndim == 1:
            target = index
            cells[target] = value.T if isinstance(value, np.ndarray) and value.ndim == 2 \
                else (value[:, None] if isinstance(value, np.ndarray) else value)
            if defined is not None:
                defined[target] = True
            return
        batch, n = self.batch, index.shape[-1]
        flat = index * batch + np.arange(batch, dtype=np.int64)[:, None]
        full = np.broadcast_to(np.asarray(value, dtype=cells.dtype), (batch, n))
        if where is not None:
            acting = np.broadcast_to(where, (batch, n))
            flat, full = flat[acting], full[acting]
        cells.reshape(-1)[flat] = full
        if defined is not None:
            defined.reshape(-1)[flat] = True

    # ---- 5. account, and loop tests --------------------------------------------------------

    def _account(self, steps: Sequence[Step], actors: list[int | Counts],
                 reads: list[int | Counts], writes: list[int | Counts],
                 alive: Flags | None) -> None:
        n: int | Counts = 0
        r: int | Counts = 0
        w: int | Counts = 0
        for pn, pr, pw in zip(actors, reads, writes, strict=True):
            n, r, w = n + pn, r + pr, w + pw
        shares = phase_shares(steps, list(zip(actors, reads, writes, strict=True)))
        labels = (steps[0].phase,) if len(steps) == 1 else tuple(sorted({s.phase for s in steps}))
        self.ledgers.charge(_int(n), _int(r), _int(w), alive, labels,
                            {k: [_int(x) for x in v] for k, v in shares.items()})
        self.host._cost.time += 1

    def _test(self, tests: list[Any], values: list[Values], alive: Flags | None
              ) -> list[bool]:
        """The loop tests of one global step in a batch, answered (:meth:`_answer`), and
        checked, in a later pass, against the path its group took in the pass it left: the
        same tests at the same step with the same answers up to its departure, or the
        program made again is not the program that ran (:meth:`_astray`)."""
        bits = self._answer(tests, values, alive)
        if self._remake is None:  # no later pass: nothing to retrace
            return bits
        step = (self.host._cost.time, tuple(bits))
        k = len(self.path)
        self.path.append(step)
        if k < len(self.expected) and self.expected[k] != step:
            self._astray("reached", self.expected[k], step)
        return bits

    def _answer(self, tests: list[Any], values: list[Values], alive: Flags | None
                ) -> list[bool]:
        """The loop tests of one global step in a batch (one per parallel branch that tests):
        each instance taking steps learns whether each of its loops ended.

        While they agree, the program is sent their answers. When they disagree, the batch
        follows those whose loops go on (answered False; of several tests, the instances
        answered False at the most tests first, in branch order) and is sent their answers;
        each other group of instances answered alike leaves the pass's path (they idle from
        here on, uncharged) and waits for a pass of its own (:meth:`next_pass`), which runs
        the program again from the run's start with only them, so that it goes their way
        here. A program that cannot be made again, or a machine with an observer (it would
        see the steps of several passes), is refused here (:class:`pram.BatchPathError`)."""
        batch = self.batch
        ended = np.empty((len(tests), batch), np.bool_)
        for k, (step, (read,)) in enumerate(zip(tests, values, strict=True)):
            held = np.broadcast_to(read._values, (batch, read._values.shape[-1])) == step.value
            chosen = chosen_rows(step.processors)
            if chosen is not None:  # only the processors that chose themselves, per instance
                held = held | ~chosen  # (none chosen: every cell read holds it, vacuously)
            ended[k] = np.all(held, axis=1)
            self.ledgers.loop_tests.add(1, alive, batch)
            self.tests += 1
        if len(tests) == 1:  # the usual case, and its usual answer: every instance agrees
            mine = ended[0] if alive is None else ended[0][alive]
            if mine.all():
                return [True]
            if not mine.any():
                return [False]
        if alive is None:
            live = np.arange(batch)
            answered = ended.T
        else:
            live = np.flatnonzero(alive)
            answered = ended[:, live].T
        if (answered == answered[:1]).all():  # they agree (the usual case): one path
            return answered[0].tolist()  # type: ignore[no-any-return]
        paths = {tuple(row) for row in answered.tolist()}
        followed = min(paths, key=lambda path: (sum(path), path))

        def taking(path: tuple[bool, ...]) -> Flags:
            """The instances taking ``path`` at these tests."""
            flags = np.zeros(batch, np.bool_)
            flags[live] = (np.array(path) == answered).all(axis=1)
            return flags

        going = taking(followed)
        time = self.host._cost.time
        for path in sorted(paths - {followed}):
            if self._remake is None or self.host.observer is not None:
                self._refuse(tests[0], taking(path), going)
            self.pending.append((taking(path), [*self.path, (time, path)]))
        self.alive = going
        return list(followed)

    def _astray(self, how: str, expected: tuple[int, tuple[bool, ...]] | None = None,
                found: tuple[int, tuple[bool, ...]] | None = None) -> NoReturn:
        """Refuse a later pass whose program, made again, did not retrace the path its
        instances took to where they left the pass before: it ``how`` = "ended" before
        reaching their departure test, or "reached" a loop test at another step or with
        other answers (``expected`` the pass before's, ``found`` this one's)."""
        assert self.group is not None
        leaving = np.flatnonzero(self.group).tolist()
        named = ", ".join(map(str, leaving[:8])) + (", ..." if len(leaving) > 8 else "")
        depart, _ = self.expected[-1]
        number = self.host._cost.time
        if how == "ended":
            what = (f"the program made again for them ended at step {number}, after "
                    f"{len(self.path)} of the {len(self.expected)} loop-test steps up to "
                    "their departure")
        else:
            assert expected is not None and found is not None
            what = (f"the program made again for them reached loop-test step "
                    f"{len(self.path)} at step {found[0]} answered {list(found[1])}, where "
                    f"the pass they left reached it at step {expected[0]} answered "
                    f"{list(expected[1])}")
        raise BatchPathError(
            f"instances {named} left the batch's path at the loop test of step {depart} and "
            f"were run again from the start of the run in a pass of their own, but {what}: "
            "the program made again is not the one that ran, likely because it holds a "
            "generator or state made before m.run that making it again cannot see (a "
            "generator in an attribute or a global, a generator expression, an argument "
            "object or a global the program changes); make the "
            "program from its inputs inside the program function, e.g. "
            "m.run(program(m, ...)), or run one machine per instance", number)

    def _refuse(self, step: Any, leaving: Flags, going: Flags) -> NoReturn:
        number = self.host._cost.time

        def named(flags: Flags) -> str:
            found = np.flatnonzero(flags).tolist()
            return ", ".join(map(str, found[:8])) + (", ..." if len(found) > 8 else "")

        where = (f"instances {named(leaving)} end their loop and instances {named(going)} "
                 f"go on at loop test {self.tests} of the run (step {number}, Until on array "
                 f"{step.reads[0].array.name!r}): a batch runs the instances that leave its "
                 "path in a pass of their own, from the start of the run")
        if self._remake is not None:  # an observer would see the steps of several passes
            raise BatchPathError(
                f"{where}, which the machine's observer would see as more steps; remove the "
                "observer (m.observer = None), or run one machine per instance", number)
        raise BatchPathError(
            f"{where}, which needs the program made again, and this one cannot be "
            f"({self._unmade}); pass m.run an unstarted generator, e.g. "
            "m.run(program(m, ...)), or run one machine per instance",
            number,
        )




def _columns(array: Array, part: str) -> Any:
    """An array's cells (``part="_cells"``) or flags of which hold a value (``"_defined"``)
    as the ``(size, batch)`` memory they are (see :func:`pram.memory.rows`), a view that
    writes reach; a batch's array in another layout is put in this one first."""
    rows = getattr(array, part)
    if rows is None:
        return None
    if not rows.T.flags.c_contiguous:
        rows = np.asfortranarray(rows)
        setattr(array, part, rows)
    return rows.T




def _shared(index: Any, n: int) -> bool:
    """Whether a fast step's index is one every instance shares: a word array of ``n``
    cells, or one integer."""
    if type(index) is int:
        return True
    return type(index) is np.ndarray and index.dtype is WORD and index.shape == (n,)


def _ascending_in(index: Words, array: Array, memo: StepMemo) -> bool:
    """Whether ``index`` is ascending and within ``array`` (so its cells are distinct)."""
    return in_range(index, array, memo)


def _and(a: Flags | None, b: Flags | None) -> Flags | None:
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _int(x: int | Counts) -> int | Counts:
    """``x`` as a Python int when it is one count for every instance."""
    if type(x) is int:
        return x
    if isinstance(x, np.integer):
        return int(x)
    return x


def _two_meet(cells: Words, ranks: Words, ranked: int, acting: Flags | None = None, *,
              same: bool = False) -> Flags:
    """Per row of ``cells`` (accesses of one instance, ``ranks`` the processors' ranks):
    whether two processors of different ranks touched one cell (``acting`` masks accesses);
    with ``same``, whether any cell appears twice at all."""
    key = cells * ranked + ranks
    if acting is not None:
        low = min(int(key.min()), 0) if key.size else 0
        spare = low - (np.arange(1, cells.shape[1] + 1, dtype=np.int64) * ranked)
        key = np.where(acting, key, spare)
    key = np.sort(key, axis=1)
    cell = key // ranked
    same_cell = cell[:, 1:] == cell[:, :-1]
    if same:
        return same_cell.any(axis=1)  # type: ignore[no-any-return]
    other = key[:, 1:] != key[:, :-1]
    return (same_cell & other).any(axis=1)  # type: ignore[no-any-return]


def _described(array: Array) -> str:
    """An array's size (and shape, when two-dimensional) and dtype, for a message."""
    shape = f", shape {array.shape}" if len(array.shape) == 2 else ""
    return f"size {array.size}{shape}, dtype {array.dtype}"


def _kept(records: list[Any], before: int, group: Flags) -> list[Any]:
    """``records`` without those a pass of ``group``'s instances made (after the first
    ``before``, kept): what a new pass of the group starts from."""
    return records[:before] + [r for r in records[before:] if not group[r.instance]]


def _tag(record: Any, i: int) -> Any:
    """``record`` (a violation or resolution) of instance ``i``."""
    import attrs

    return attrs.evolve(record, instance=i)
