"""The weakest model of a run: run once, classify every access, name the weakest clean model.

:func:`weakest_model` runs a program once on a machine that resolves every write (CRCW
priority by default), watches every global step, and sorts each meeting of two or more
processors at one cell into concurrent reads, a read meeting writes, and concurrent writes
(agreeing or not, and with which values). Each model of the lattice is then asked, through
its own hooks (:meth:`pram.Model.forbids`, :meth:`pram.Model.forbids_writes`), which of those
meetings it forbids: a model forbidding none is clean for this run, and for every model that
is too weak the result keeps the first violation it would have had.

The lattice (docs/decisions.md, "The weakest model of a run"): the chain of the textbooks,

    EREW < CREW < CRCW-common < CRCW-arbitrary < CRCW-priority,

each model allowing everything the one before allows (JáJá 1992, chapter 1; Karp and
Ramachandran 1990), and two refinements beside it: ERCW-common (above EREW, below
CRCW-common, incomparable with CREW) and CRCW-weak (above CREW, below CRCW-common). The
weakest model reported is the first clean model of the chain; the refinements that are
clean and lie below it are reported too ("also clean under CRCW-weak"). CRCW-arbitrary and
CRCW-priority forbid nothing: a run with disagreeing concurrent writes is clean under both,
and reported as CRCW-arbitrary; whether its answer may depend on which writer wins (so that
it needs priority, or a combining rule) is the program's to say, not the accesses'.

>>> import numpy as np
>>> from pram import Read, Step
>>> def shared(m):
...     a = m.array("a", values=np.arange(4))
...     m.run(one_step(m, a))
>>> def one_step(m, a):
...     yield Step(m.processors(4), reads=[Read(a, np.array([0, 0, 1, 2]))])
>>> found = weakest_model(shared)  # or weakest_model(lambda m: one_step(m, ...))
>>> found.model, found.counts["concurrent_reads"], found.evidence["erew"].message
('crew', 1, 'EREW forbids concurrent reads: processors 0 and 1 read a[0] in step 1')
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import attrs

from pram._numpy import np
from pram.errors import InputError
from pram.machine import Machine
from pram.memory import Words
from pram.models import Model, model
from pram.run import watching
from pram.trace import Trace
from pram.violations import Kind, Violation

#: The chain of the lattice, weakest first; each model allows everything the one before does.
CHAIN = ("erew", "crew", "crcw-common", "crcw-arbitrary", "crcw-priority")
#: The refinements beside the chain, each with the chain models it lies strictly between.
BESIDE = {"ercw": ("erew", "crcw-common"), "crcw-weak": ("crew", "crcw-common")}


_RANK = {Kind.READ_READ: 0, Kind.WRITE_WRITE: 1, Kind.READ_WRITE: 2}


@attrs.frozen
class Meeting:
    """Two or more processors at one cell in one step, of one kind (as the engine sorts them)."""

    kind: Kind
    step: int
    phase: str
    array: str
    index: int
    processors: tuple[int, ...]
    values: tuple[int, ...] = ()  # the values written, for write/write, aligned with processors
    phases: tuple[str, ...] = ()  # every branch's phase, when the branches' phases differ


@attrs.frozen
class Weakest:
    """What :func:`weakest_model` found: the weakest clean model and the evidence for it.

    ``model`` is the weakest clean model of the chain; ``also_clean`` the refinements (ERCW
    common, CRCW weak) clean and weaker than it; ``counts`` the meetings of each kind over the
    run (cells, per step, met by two or more processors); ``evidence`` the first violation
    of every model that is too weak, by model name.
    """

    model: str
    also_clean: tuple[str, ...]
    counts: dict[str, int]
    evidence: dict[str, Violation]
    steps: int
    #: How many meetings each model of the lattice forbids, by model name.
    violations: dict[str, int] = attrs.field(factory=dict)

    @property
    def text(self) -> str:
        """One line: ``CREW: 47 concurrent reads, no concurrent writes (EREW: ...)``."""
        c = self.counts
        parts = [_count(c["concurrent_reads"], "concurrent read")]
        if c["read_writes"]:
            parts.append(_count(c["read_writes"], "read meeting writes", "reads meeting writes"))
        writes = c["concurrent_writes"]
        if writes:
            agreeing = "all agreeing" if not c["disagreeing_writes"] else (
                f"{c['disagreeing_writes']} disagreeing")
            parts.append(f"{_count(writes, 'concurrent write')}, {agreeing}")
        else:
            parts.append("no concurrent writes")
        line = f"{model(self.model).name}: {', '.join(parts)}"
        if self.also_clean:
            line += f"; also clean under {', '.join(model(n).name for n in self.also_clean)}"
        weaker = [n for n in CHAIN[: CHAIN.index(self.model)] if n in self.evidence]
        if weaker:
            name = weaker[-1]
            line += f" ({model(name).name}: {_count(self.violations[name], 'violation')}, "
            line += f"e.g. {self.evidence[name].message})"
        return line

    def as_dict(self) -> dict[str, Any]:
        """The result for JSON: names, counts and each too-weak model's first violation."""
        return {
            "weakest": model(self.model).name,
            "also_clean": [model(n).name for n in self.also_clean],
            "steps": self.steps,
            "counts": dict(self.counts),
            "too_weak": {
                model(n).name: {"violations": self.violations[n], "first": v.message}
                for n, v in self.evidence.items()
            },
            "text": self.text,
        }


def _count(n: int, one: str, many: str | None = None) -> str:
    if n == 0:
        return f"no {many or one + 's'}"
    return f"{n} {one if n == 1 else (many or one + 's')}"


class Classifier:
    """Sorts every access of every global step of a run into meetings, from the machine's
    trace of the run after it ended (:meth:`replay`, as :func:`classified` does).

    It is never an observer: an observer is the machine's ``m.observer``, which a program can
    read and behave differently under (exclusive reads while watched, concurrent ones else),
    so that the run classified would not be the run it makes otherwise.
    """

    def __init__(self) -> None:
        self.meetings: list[Meeting] = []
        self.counts = {"concurrent_reads": 0, "read_writes": 0, "concurrent_writes": 0,
                       "disagreeing_writes": 0}
        self.steps = 0

    def replay(self, trace: Trace) -> Classifier:
        """Sort the accesses of every step of ``trace``, the machine's own record of a run
        (what :func:`weakest_model` classifies: nothing the program can see or change)."""
        for traced in trace.steps:
            self.steps = traced.number
            by_array: dict[str, list[tuple[str, Words, Words, Words, bool, int]]] = {}
            for a in traced.accesses:
                write = a.kind == "write"
                value = a.values if write else np.zeros(len(a.cells), np.int64)
                by_array.setdefault(a.array, []).append(
                    (a.array.split("#")[0], a.cells, a.processors, value, write, a.branch))
            for ports in by_array.values():
                if sum(len(port[1]) for port in ports) > 1:
                    self._meetings(traced.number, ports, list(traced.phases))
        return self

    def _meetings(
        self, number: int, ports: list[tuple[str, Words, Words, Words, bool, int]],
        phases: list[str],
    ) -> None:
        """Record the meetings at the cells of one array (as the engine's slow path sorts
        them: by cell, a write's later port of one processor replacing its earlier)."""
        name = ports[0][0]
        found: list[Meeting] = []
        cells = np.concatenate([p[1] for p in ports])
        pids = np.concatenate([p[2] for p in ports])
        values = np.concatenate([p[3] for p in ports])
        writes = np.concatenate([np.full(len(p[1]), p[4]) for p in ports])
        branch = np.concatenate([np.full(len(p[1]), p[5]) for p in ports])
        for kind, mask in ((Kind.READ_READ, ~writes), (Kind.WRITE_WRITE, writes)):
            c, p, v, b = cells[mask], pids[mask], values[mask], branch[mask]
            if len(c) < 2:
                continue
            order = np.lexsort((p, c))
            c, p, v, b = c[order], p[order], v[order], b[order]
            last = np.r_[(c[1:] != c[:-1]) | (p[1:] != p[:-1]), True]
            c, p, v, b = c[last], p[last], v[last], b[last]
            starts = np.flatnonzero(np.r_[True, c[1:] != c[:-1]])
            ends = np.append(starts[1:], len(c)).astype(np.int64)
            shared = ends - starts > 1
            for s, e in zip(starts[shared].tolist(), ends[shared].tolist(), strict=True):
                shown = tuple(v[s:e].tolist()) if kind is Kind.WRITE_WRITE else ()
                found.append(Meeting(kind, number, phases[int(b[s])], name, int(c[s]),
                                     tuple(p[s:e].tolist()), shown, _labels(phases, b[s:e])))
        # read/write: cells both read and written, by two or more processors in all
        both = np.intersect1d(cells[~writes], cells[writes])
        if len(both):
            at = np.isin(cells, both)
            c, p, b = cells[at], pids[at], branch[at]
            order = np.lexsort((p, c))
            c, p, b = c[order], p[order], b[order]
            first = np.r_[True, (c[1:] != c[:-1]) | (p[1:] != p[:-1])]
            c, p, b = c[first], p[first], b[first]
            starts = np.flatnonzero(np.r_[True, c[1:] != c[:-1]])
            ends = np.append(starts[1:], len(c)).astype(np.int64)
            shared = ends - starts > 1
            for s, e in zip(starts[shared].tolist(), ends[shared].tolist(), strict=True):
                found.append(Meeting(Kind.READ_WRITE, number, phases[int(b[s])], name,
                                     int(c[s]), tuple(p[s:e].tolist()), (),
                                     _labels(phases, b[s:e])))
        # in the machine's report order: by cell, then read/read, write/write, read/write
        for meeting in sorted(found, key=lambda f: (f.index, _RANK[f.kind])):
            self._record(meeting)

    def weakest(self) -> Weakest:
        """The weakest clean model of the run watched so far, with the evidence: each model
        of the lattice asked through its hooks which meetings it forbids."""
        evidence: dict[str, Violation] = {}
        violations: dict[str, int] = {}
        for name in (*CHAIN, *BESIDE):
            rules = model(name)
            hits = [meeting for meeting in self.meetings if forbidden(rules, meeting)]
            violations[name] = len(hits)
            if hits:
                first = hits[0]
                evidence[name] = Violation(rules.name, first.kind, first.step, first.phase,
                                           first.array, first.index, first.processors,
                                           first.values if rules.judges_values else (),
                                           first.phases)
        weakest = next(name for name in CHAIN if name not in evidence)  # arbitrary forbids none
        below = CHAIN.index(weakest)
        also = tuple(name for name, (low, high) in BESIDE.items()
                     if name not in evidence and CHAIN.index(high) <= below)
        return Weakest(weakest, also, dict(self.counts), evidence, self.steps, violations)

    def _record(self, meeting: Meeting) -> None:
        self.meetings.append(meeting)
        if meeting.kind is Kind.READ_READ:
            self.counts["concurrent_reads"] += 1
        elif meeting.kind is Kind.READ_WRITE:
            self.counts["read_writes"] += 1
        else:
            self.counts["concurrent_writes"] += 1
            self.counts["disagreeing_writes"] += len(set(meeting.values)) > 1


def _labels(phases: list[str], branches: Words) -> tuple[str, ...]:
    """The phases of the ``branches`` met, in branch order, when they differ (else none)."""
    labels = tuple(dict.fromkeys(phases[b] for b in sorted(set(branches.tolist()))))
    return labels if len(labels) > 1 else ()


def forbidden(rules: Model, meeting: Meeting) -> bool:
    """Whether ``rules`` forbids ``meeting``, asked through the model's own hooks."""
    if meeting.kind is not Kind.WRITE_WRITE:
        return rules.checks_reads and rules.forbids(meeting.kind, True)
    agree = len(set(meeting.values)) == 1
    if not rules.judges_values:
        return rules.forbids(Kind.WRITE_WRITE, agree)
    low, high = np.array([min(meeting.values)]), np.array([max(meeting.values)])
    return bool(rules.forbids_writes(low, high)[0])


#: What a trace records at most for :func:`weakest_model`: every access of the run it
#: classifies (the trace is its evidence), so no ceiling but memory's.
EVERYTHING = 1 << 40


def classified(machine: Machine) -> Weakest:
    """The weakest clean model of the run ``machine`` just made, read from the machine's own
    trace of it (a machine made with ``trace=True``, and ``trace_cells`` enough for every
    access, e.g. :data:`EVERYTHING`): nothing a program can see or change while it runs, since
    whether a machine traces is not told mid-run. ``pram run --weakest-model`` classifies the
    run it reports this way, and :func:`weakest_model` its own run."""
    return Classifier().replay(machine.trace).weakest()


def run_on(make: Any, machine: Machine, who: str) -> Any:
    """The one convention of the helpers that run a program on a machine of their own
    (:func:`weakest_model`, :func:`pram.testing.assert_flagged`): ``make(m)`` gets the fresh
    machine and either runs the program on it (``lambda m: m.run(prog(m, ...))``, or a
    front door such as ``lambda m: merge(m, a, b)``) or returns the program, which is then
    run (``lambda m: prog(m, ...)``). Anything else is refused naming that convention: a
    program made already (a generator, made on another machine), or a function that neither
    ran a program on ``m`` nor returned one (its answer would come from no step at all)."""
    fix = (f"pass a function of the fresh machine that runs the program on it or returns "
           f"it, e.g. {who}(lambda m: prog(m, m.array('a', values=x)))")
    if isinstance(make, Generator):
        raise InputError(
            f"{who} got a program already made (a generator), so on another machine; {fix}")
    if not callable(make):
        raise InputError(f"{who} takes a function, not {type(make).__name__}; {fix}")
    made = make(machine)
    if isinstance(made, Generator):
        return machine.run(made)
    if not machine.results:
        raise InputError(
            f"{who}: the function given ran no program on the machine it was given and "
            f"returned {type(made).__name__}; {fix}, or m.run(prog(m, ...)) inside it"
        )
    return made


def weakest_model(
    program: Callable[[Machine], Any], *, run_model: str | Model = "crcw-priority",
    seed: int = 0,
) -> Weakest:
    """Run ``program(m)`` once on a fresh machine under ``run_model`` and return the weakest
    model of the lattice under which the run is clean, with the evidence (see the module).

    ``program`` receives the machine and runs on it (``lambda m: merge(m, a, b)``,
    ``lambda m: m.run(prog(m, ...))``) or returns the program to run (``lambda m: prog(m,
    ...)``): see :func:`run_on`. ``run_model`` resolves the concurrent writes while it runs
    (CRCW priority by default, so every write lands). The classification is read from the
    machine's own trace of the run after it ended: the machine has no observer a program
    could look at or change, and a machine made or run during the call besides the one given
    is refused (its steps would not be classified). A weakest model that forbids anything is
    confirmed by a second run on it: a program stepping otherwise there (one that reads
    ``m.model``) is refused.
    """
    found = classified(_ran(program, run_model, seed))
    if model(found.model).name.lower() not in ("crcw-arbitrary", "crcw-priority"):
        # Confirmed on the model named: a program that reads its machine's model (m.model)
        # could step otherwise under the one it was classified on.
        again = _ran(program, found.model, seed)
        if again.violations:
            raise InputError(
                f"weakest_model: the run under {model(run_model).name} is clean under "
                f"{model(found.model).name}, but the program's run under "
                f"{model(found.model).name} is not ({again.violations[0].message}): its steps "
                "depend on the machine's model, so no model is the weakest for it; let the "
                "program's steps depend on its data and sizes only"
            )
    return found


def _ran(program: Callable[[Machine], Any], run_model: str | Model, seed: int) -> Machine:
    """A fresh traced machine under ``run_model`` after ``program`` ran on it (see
    :func:`run_on`), refusing a program that made or ran another machine."""
    machine = Machine(run_model, mode="collect", strict=False, seed=seed, trace=True,
                      trace_cells=EVERYTHING)
    with watching() as made:
        run_on(program, machine, "weakest_model")
    if any(m is not machine for m in made):
        raise InputError(
            "weakest_model: the function given made or ran another machine; its steps would "
            "not be classified: run every step on m, the machine it is given"
        )
    return machine


__all__ = ["BESIDE", "CHAIN", "EVERYTHING", "Classifier", "Meeting", "Weakest", "classified",
           "run_on", "weakest_model"]
