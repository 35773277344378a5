"""One run: an algorithm on a fresh machine, and what it cost.

Every figure of a :class:`Run` is the machine's ledger (or, for an algorithm outside the
machine, the operations it counted itself); the bound formulas only divide it.

A run flows one way: :func:`prepare` looks the entry up and validates the options, once;
:func:`refuse` checks that the options apply and the sizes fit, once; :func:`draw` makes the
instance; :func:`perform_job` runs it. :func:`execute` is the four in a row, for one run.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from pram import (
    Cost,
    Formula,
    InputError,
    Machine,
    PhaseCost,
    Resolution,
    Violation,
    Words,
)
from pram.declaration import mismatch as _mismatch
from pram.depth import Depths
from pram.models import model as model_named
from pram.reports.display import RunDisplay
from pram.reports.entries import algorithm, load_declared, names
from pram.reports.guard import refuse_input, refuse_oversized
from pram.reports.options import Options, json_fields, validate
from pram.reports.preflight import refuse_inapplicable
from pram.reports.registry import Algorithm, Bound, Instance
from pram.trace import Trace
from pram.weakest import EVERYTHING, Weakest, classified

SHOWN_VIOLATIONS = 5


@attrs.frozen
class BoundResult:
    """One bound at one run: the formula's value at the run's sizes and measured / formula."""

    measure: str
    formula: str
    value: float
    measured: float
    limit: float | None

    @property
    def ratio(self) -> float:
        """Measured / the formula's value: what the bound's constant must cover."""
        return self.measured / self.value

    @property
    def holds(self) -> bool | None:
        """None: a single run decides no bound (a sweep does, see :func:`checks_of`)."""
        return None

    def as_dict(self) -> dict[str, Any]:
        """The bound at this run, for JSON (``holds`` is null: a sweep decides a bound)."""
        return {
            "formula": self.formula,
            "ratio": self.ratio,
            "formula_value": self.value,
            "measured": self.measured,
            "limit": self.limit,
            "holds": self.holds,
        }


@attrs.frozen
class Run(RunDisplay):
    """One algorithm run on one instance: sizes, cost, violations, correctness and bounds."""

    algorithm: Algorithm
    options: Options
    sizes: Mapping[str, int]
    bound_sizes: Mapping[str, float]
    cost: Cost
    violations: int
    first_violations: tuple[Violation, ...]
    undefined_reads: int
    correct: bool | None
    mismatch: str | None
    notes: tuple[str, ...]
    bounds: Mapping[str, BoundResult]
    seconds: float
    output: Words = attrs.field(repr=False, eq=False)
    #: The weakest clean model of this very run (``Options.weakest_model``), else None.
    weakest: Weakest | None = None
    #: Cells the model settled without a written value (CRCW tolerant, collision, collision+).
    resolutions: int = 0
    first_resolutions: tuple[Resolution, ...] = ()
    #: The machine's trace, for a run executed with ``trace_cells`` (see :func:`execute`).
    trace: Trace | None = attrs.field(default=None, repr=False, eq=False)
    #: The depths of the run's cells and the critical chain of its last answer cell
    #: (``Options.depth``, :meth:`pram.depth.Depths.as_dict`), else None.
    depth: Mapping[str, Any] | None = None
    #: The machine's depth recorder, for a run with ``Options.depth`` (the trace page's).
    depths: Depths | None = attrs.field(default=None, repr=False, eq=False)

    @property
    def model(self) -> str:
        """The model's display name, e.g. ``EREW``; ``RAM`` for an algorithm off the machine."""
        if not self.algorithm.on_machine:
            return "RAM"
        return model_named(self.options.model).name

    @property
    def ok(self) -> bool:
        """Whether everything the run checks holds: answer, model and bound constants."""
        return (
            self.correct is not False
            and self.violations == 0
            and all(b.holds is not False for b in self.bounds.values())
        )

    def answer(self) -> npt.NDArray[Any]:
        """The run's answer as ``--output`` writes it: float64 when the answer holds reals
        (a float array stays real), else int64 words."""
        answer = np.asarray(self.output)
        return answer if answer.dtype.kind == "f" else np.asarray(answer, dtype=np.int64)

    def as_dict(self, *, nested_phases: bool = True, wall_clock: bool = True) -> dict[str, Any]:
        """The run as the JSON object of the command-line contract (and a little more).

        ``nested_phases=False`` keeps only the top-level phases and ``wall_clock=False`` drops
        the seconds, for exports that must come out the same on every run.
        """
        o = self.options
        out: dict[str, Any] = {"algorithm": self.algorithm.name}
        out.update({k: int(v) for k, v in self.sizes.items()})
        out.update(json_fields(self.algorithm, o))
        out["input"] = o.input
        if o.module is not None:  # a declared algorithm: where it came from
            out["module"] = o.module
        out.update(self.cost.as_dict())
        if not self.algorithm.on_machine:  # counted by the program: no cells, reads or writes
            out.update({"reads": None, "writes": None, "memory_cells": None, "peak_cells": None,
                        "rounds": None, "round_work": None})
        out.update(
            {
                "violations": self.violations,
                "first_violations": [v.message for v in self.first_violations],
                "undefined_reads": self.undefined_reads,
                "correct": self.correct,
                "mismatch": self.mismatch,
                "notes": list(self.notes),
                "bound_sizes": {k: float(v) for k, v in self.bound_sizes.items()},
                # each ratio with the sizes its formula used (d = 1 for word keys)
                "bounds": {
                    k: {**b.as_dict(), "at": {n: float(v) for n, v in self.bound_sizes.items()}}
                    for k, b in self.bounds.items()
                },
                "phases": {
                    label: attrs.asdict(p)
                    for label, depth, p in phase_rows(self.cost)
                    if nested_phases or depth == 0
                },
            }
        )
        if self.algorithm.on_machine and model_named(o.model).resolution is not None:
            out["resolutions"] = self.resolutions
            out["first_resolutions"] = [r.message for r in self.first_resolutions]
        if self.weakest is not None:
            out["weakest_model"] = self.weakest.as_dict()
        if self.depth is not None:
            out["depth"] = dict(self.depth)
        if wall_clock:
            out["seconds"] = self.seconds
        return out


@attrs.frozen
class Control:
    """A negative control: a run under a model that must flag it (``expect_violations``), or
    its twin under a model that must not.

    ``must_answer``: the answer must still be right (the naive search only reads concurrently,
    so its answers stand); a program whose concurrent writes are resolved under a weaker model
    may answer wrong, and then only the flag is predicted.
    """

    run: Run
    expect_violations: bool = True
    must_answer: bool = False

    @property
    def as_predicted(self) -> bool:
        """Whether violations appear exactly when expected (and the answer is right where it
        must be)."""
        flagged = (self.run.violations > 0) == self.expect_violations
        return flagged and (not self.must_answer or self.run.correct is not False)

    @property
    def first(self) -> str:
        """The first violation's message, or ``"none"``: what the reports quote of it."""
        shown = self.run.first_violations
        return shown[0].message if shown else "none"


@attrs.frozen
class Job:
    """An algorithm's entry and the options of one run (or of one size of ``--instances``),
    the entry looked up and the options validated once, by :func:`prepare`."""

    entry: Algorithm
    options: Options


def prepare(name: str, options: Options) -> Job:
    """The job of running ``name`` with ``options``: the options validated and the entry
    looked up (a ``--module`` declaration loaded first), once for everything that follows."""
    validate(options)
    if options.module is not None:  # a declared algorithm (a worker loads it here)
        load_declared(options.module)
    return Job(algorithm(name), options)


def refuse(job: Job) -> None:
    """Refuse, before any work, what the job cannot run: an option that does not apply, a
    size the entry does not take, a size (of the arguments or of the ``--input`` file's
    headers) that does not fit."""
    entry, options = job.entry, job.options
    refuse_inapplicable(entry, options)
    if options.m is not None and "m" not in entry.family.defaults:
        users = ", ".join(n for n in names() if "m" in algorithm(n).family.defaults)
        raise InputError(
            f"--m (the number of keys) applies only to {users.replace(', ', ' and ')}; "
            f"leave it out for {entry.name}"
        )
    if options.input is not None:
        if entry.declaration is not None:
            entry.declaration.reads_input()
        refuse_input(entry.name, options.input, options)  # from the file's headers
    else:
        refuse_oversized(entry, options)


def draw(job: Job, seed: int | None = None) -> Instance:
    """The instance the job asks for: the ``--input`` file, or a random one from ``seed``
    (default: the options' seed). :func:`refuse` has checked the job."""
    options = job.options
    if options.input is not None:
        instance = job.entry.family.load(options.input, options)
        refuse_oversized(job.entry, options, instance.sizes)
        return instance
    if seed is not None and seed != options.seed:
        options = attrs.evolve(options, seed=seed)
    return job.entry.family.build(options, np.random.default_rng(options.seed))


def build(name: str, options: Options) -> Instance:
    """The instance ``options`` asks for: the ``--input`` file, or a random one from the seed."""
    job = prepare(name, options)
    refuse(job)
    return draw(job)


def execute(
    name: str, options: Options, instance: Instance | None = None, *,
    trace_cells: int | None = None,
) -> Run:
    """Run algorithm ``name`` on ``instance`` (default: :func:`build`) on a fresh machine;
    with ``trace_cells``, a machine that traces every step (at most that many cells)."""
    return perform_job(prepare(name, options), instance, trace_cells=trace_cells)


def perform_job(
    job: Job, instance: Instance | None = None, *, trace_cells: int | None = None,
    checked: bool = False,
) -> Run:
    """Run the job on ``instance`` (default: :func:`draw`) on a fresh machine; ``checked``:
    :func:`refuse` has already checked the job (a sweep checks every size first)."""
    entry, options = job.entry, job.options
    if instance is None:
        if not checked:
            refuse(job)
        instance = draw(job)
    else:
        refuse_inapplicable(entry, attrs.evolve(options, input=None))
        refuse_oversized(entry, options, instance.sizes)
    # --weakest-model classifies the run it reports (one run, not two) from the machine's own
    # trace of it, never an observer: a program may read m.observer, not whether m traces
    extra: dict[str, Any] = {} if trace_cells is None and not options.weakest_model else {
        "trace": True, "trace_cells": EVERYTHING if trace_cells is None else trace_cells
    }
    extra.update({} if options.distinct_processors is None else {
        "distinct_processors": options.distinct_processors
    })
    machine = Machine(
        options.model,
        mode=options.mode,  # type: ignore[arg-type]
        seed=options.seed,
        depth=options.depth,
        **extra,
    )
    start = time.perf_counter()
    solution = entry.solve(machine, instance, options)
    seconds = time.perf_counter() - start
    cost = solution.cost if solution.cost is not None else machine.cost
    correct: bool | None = None
    mismatch: str | None = None
    if options.check:
        expected = entry.expected(instance)
        mismatch = compare(solution.output, expected, entry.tolerance)
        correct = mismatch is None
    measured = {"work": float(cost.work), "time": float(cost.time),
                "rounds": float(cost.rounds), "round_work": float(cost.round_work)}
    bounds = {
        key: _evaluate(key, bound, solution.bound_sizes, measured)
        for key, bound in entry.bounds.items()
        if bound.applies(options)
    }
    return Run(
        algorithm=entry,
        options=options,
        sizes=dict(instance.sizes),
        bound_sizes=dict(solution.bound_sizes),
        cost=cost,
        violations=len(machine.violations),
        first_violations=tuple(machine.violations[:SHOWN_VIOLATIONS]),
        undefined_reads=len(machine.undefined_reads),
        correct=correct,
        mismatch=mismatch,
        notes=(*instance.notes, *solution.notes),
        bounds=bounds,
        seconds=seconds,
        output=solution.output,
        weakest=classified(machine) if options.weakest_model else None,
        resolutions=len(machine.resolutions),
        first_resolutions=tuple(machine.resolutions[:SHOWN_VIOLATIONS]),
        trace=None if trace_cells is None else machine.trace,
        depth=machine.depths.as_dict(cost.time) if options.depth else None,
        depths=machine.depths if options.depth else None,
    )


def measure_of(key: str) -> str:
    """The ledger measure a bound named ``key`` constrains (``"time (tree)"`` -> ``"time"``)."""
    return key.split()[0]


#: The end of the refusal of a bound that is not positive at a run's sizes.
RUN_AT_POSITIVE = "run at sizes where it is positive (or declare a bound that is)"


def _evaluate(
    key: str, bound: Bound, sizes: Mapping[str, float], measured: Mapping[str, float]
) -> BoundResult:
    value = bound.formula.positive(sizes, RUN_AT_POSITIVE)
    return BoundResult(key, bound.formula.text, value, measured[measure_of(key)], None)


def formula_text(formula: Formula, options: Options | None) -> str:
    """The formula's text, saying ``(d = 1)`` where word keys make the formulas use it (a
    token is one word, so its width does not enter the counts)."""
    if options is not None and options.keys == "word" and " d" in f" {formula.text}":
        return f"{formula.text} (d = 1)"
    return formula.text


def compare(got: Words, expected: Words, tolerance: float | None = None) -> str | None:
    """None when equal (within ``tolerance``), else a sentence naming the first differing
    entry: :func:`pram.declaration.mismatch`, the one comparison of an answer with its
    reference (a reference of reals beside an integer answer is compared as reals, never
    cut to integers: 85 against 85.5 differs, and a NaN or an infinity is named as such)."""
    return _mismatch(got, expected, tolerance)


def phase_rows(cost: Cost) -> list[tuple[str, int, PhaseCost]]:
    """The phases of a run in order of first appearance, as (label, depth, cost) rows.

    A nested label ``sort/keys`` comes right after its parent ``sort``.
    """
    order: dict[str, int] = {}
    for labels in cost.step_phases:
        for path in labels:
            parts = path.split("/") if path else []
            for i in range(len(parts)):
                order.setdefault("/".join(parts[: i + 1]), len(order))
    for label in cost.phases:
        order.setdefault(label, len(order))

    def key(label: str) -> tuple[int, ...]:
        parts = label.split("/")
        return tuple(order.get("/".join(parts[: i + 1]), 0) for i in range(len(parts)))

    return [(label, label.count("/"), cost.phases[label]) for label in sorted(cost.phases, key=key)]

