"""Run an algorithm on a fresh machine and record what it cost; sweep it over sizes; run many
random instances of it (``--instances K``) and summarise them.

Every figure of a :class:`Run` is the machine's ledger (or, for an algorithm outside the
machine, the operations it counted itself); the bound formulas only divide it. A
:class:`Summary` holds one :class:`Trial` per instance, each counted by its own ledger (on a
batched machine, one per instance), and only takes minima, means and maxima of them.
"""

from __future__ import annotations

import copy
import math
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeAlias

import attrs
import numpy as np
import numpy.typing as npt

from pram import (
    Check,
    Cost,
    Formula,
    InputError,
    Machine,
    PhaseCost,
    PRAMError,
    Resolution,
    Violation,
    Words,
    check,
)
from pram.declaration import mismatch as _mismatch
from pram.laws.bounds import combined
from pram.models import model as model_named
from pram.reports.display import RunDisplay, SweepDisplay
from pram.reports.entries import algorithm, load_declared, names
from pram.reports.guard import refuse_input, refuse_oversized
from pram.reports.options import Options, json_fields, validate
from pram.reports.preflight import refuse_inapplicable
from pram.reports.registry import Algorithm, Bound, Instance
from pram.trace import Trace
from pram.weakest import Classifier, Weakest

#: How many violations a run keeps by name in its report and JSON.
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
            out.update({"reads": None, "writes": None, "memory_cells": None, "peak_cells": None})
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


def build(name: str, options: Options) -> Instance:
    """The instance ``options`` asks for: the ``--input`` file, or a random one from the seed."""
    validate(options)
    refuse_inapplicable(name, options)
    family = algorithm(name).family
    if options.m is not None and "m" not in family.defaults:
        users = ", ".join(n for n in names() if "m" in algorithm(n).family.defaults)
        raise InputError(
            f"--m (the number of keys) applies only to {users.replace(', ', ' and ')}; "
            f"leave it out for {name}"
        )
    if options.input is not None:
        refuse_input(name, options.input, options)  # from the file's headers, before loading
        instance = family.load(options.input, options)
        refuse_oversized(name, options, instance.sizes)
        return instance
    refuse_oversized(name, options)
    return family.build(options, np.random.default_rng(options.seed))


def execute(
    name: str, options: Options, instance: Instance | None = None, *,
    trace_cells: int | None = None,
) -> Run:
    """Run algorithm ``name`` on ``instance`` (default: :func:`build`) on a fresh machine;
    with ``trace_cells``, a machine that traces every step (at most that many cells)."""
    validate(options)
    if options.module is not None:  # a declared algorithm (a worker loads it here)
        load_declared(options.module)
    entry = algorithm(name)
    if instance is None:
        instance = build(name, options)
    else:
        refuse_inapplicable(name, attrs.evolve(options, input=None))
        refuse_oversized(name, options, instance.sizes)
    extra: dict[str, Any] = {} if trace_cells is None else {
        "trace": True, "trace_cells": trace_cells
    }
    extra.update({} if options.distinct_processors is None else {
        "distinct_processors": options.distinct_processors
    })
    # --weakest-model classifies the accesses of this run, the one reported (one run, not two)
    classifier = Classifier() if options.weakest_model else None
    machine = Machine(
        options.model,
        mode=options.mode,  # type: ignore[arg-type]
        seed=options.seed,
        observer=classifier,
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
        mismatch = _compare(solution.output, expected, entry.tolerance)
        correct = mismatch is None
    measured = {"work": float(cost.work), "time": float(cost.time)}
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
        weakest=classifier.weakest() if classifier is not None else None,
        resolutions=len(machine.resolutions),
        first_resolutions=tuple(machine.resolutions[:SHOWN_VIOLATIONS]),
        trace=None if trace_cells is None else machine.trace,
    )


def measure_of(key: str) -> str:
    """The ledger measure a bound named ``key`` constrains (``"time (tree)"`` -> ``"time"``)."""
    return key.split()[0]


def _evaluate(
    key: str, bound: Bound, sizes: Mapping[str, float], measured: Mapping[str, float]
) -> BoundResult:
    value = bound.formula(sizes)
    return BoundResult(key, bound.formula.text, value, measured[measure_of(key)], None)


def formula_text(formula: Formula, options: Options | None) -> str:
    """The formula's text, saying ``(d = 1)`` where word keys make the formulas use it (a
    token is one word, so its width does not enter the counts)."""
    if options is not None and options.keys == "word" and " d" in f" {formula.text}":
        return f"{formula.text} (d = 1)"
    return formula.text


def _compare(got: Words, expected: Words, tolerance: float | None = None) -> str | None:
    """None when equal (within ``tolerance``, see :func:`pram.declaration.mismatch`), else a
    sentence naming the first differing entry."""
    if tolerance is not None or np.asarray(got).dtype.kind not in "iub":
        return _mismatch(got, expected, tolerance)
    got = np.asarray(got)
    if got.shape != expected.shape:
        return f"the answer has {got.size} entries but the reference has {expected.size}"
    differ = np.flatnonzero(got != expected)
    if differ.size == 0:
        return None
    i = int(differ[0])
    return (
        f"{differ.size} of {expected.size} entries differ; first at index {i}: "
        f"got {int(got.reshape(-1)[i])}, expected {int(expected.reshape(-1)[i])}"
    )


# ---- where runs execute: a task, a runner, the runs back in order ---------------------------
#
# The runners that send tasks to other processes or a Dask cluster are in
# :mod:`pram.reports.parallel`; here are the task, the protocol and the serial runner.


@attrs.frozen
class Task:
    """One run to do: algorithm ``name`` with ``options`` (picklable, cheap to send)."""

    name: str
    options: Options

    @property
    def label(self) -> str:
        """The run's sizes as the progress bar shows them, e.g. ``n=96 d=8``."""
        o = self.options
        return f"n={o.n}" + (f" d={o.d}" if o.d is not None else "")


#: A finished task: its run (a batch's trials, for a :class:`Batch`), or the error it raised.
Outcome: TypeAlias = "Run | tuple[Trial, ...] | Exception"


class Runner(Protocol):
    """Runs tasks and yields ``(index, run)`` as each finishes, in any order, or ``(index,
    error)`` for a task that raised; the caller may stop reading at any point."""

    def results(self, tasks: Sequence[Task]) -> Iterator[tuple[int, Outcome]]:
        """Run every task of ``tasks``; yield each one's index and run (or error) as it ends."""
        ...


@attrs.frozen
class Serial:
    """Every run here, one after the other, in the order given."""

    def results(self, tasks: Sequence[Task]) -> Iterator[tuple[int, Outcome]]:
        """Run the tasks in order in this process."""
        for i, task in enumerate(tasks):
            try:
                yield i, perform(task)
            except Exception as error:
                yield i, error


def run_all(
    tasks: Sequence[Task],
    by: Runner | None = None,
    *,
    progress: Callable[[int, int, str], None] | None = None,
    label: Callable[[Task], str] = lambda task: task.label,
) -> list[Run]:
    """Every task's run, in the order of ``tasks``, whichever runner ``by`` ran them (see
    :func:`_ordered`)."""
    return [r for r in _ordered(tasks, by, progress=progress, label=label)
            if isinstance(r, Run)]


def _ordered(
    tasks: Sequence[Task],
    by: Runner | None = None,
    *,
    progress: Callable[[int, int, str], None] | None = None,
    label: Callable[[Task], str] = lambda task: task.label,
) -> list[Run | tuple[Trial, ...]]:
    """Every task's result, in the order of ``tasks``, whichever runner ``by`` ran them.

    ``progress(done, total, label)`` is called once before the first run and once as each run
    finishes, with the finished run's label. When tasks raise, the error raised is the one of
    the first failing task in order, as in a serial run, as soon as every task before it is
    done (the runner stops the others).
    """
    if progress is not None:
        progress(0, len(tasks), label(tasks[0]) if tasks else "")
    runs: dict[int, Run | tuple[Trial, ...]] = {}
    errors: dict[int, Exception] = {}
    for i, outcome in (by or Serial()).results(tasks):
        if isinstance(outcome, Exception):
            errors[i] = outcome
        else:
            runs[i] = outcome
            if progress is not None:
                progress(len(runs), len(tasks), label(tasks[i]))
        first = min(errors, default=None)
        if first is not None and all(j in runs for j in range(first)):
            raise errors[first]
    return [runs[i] for i in range(len(tasks))]


@attrs.frozen
class Done:
    """Runs already made (by one :func:`run_all` over many sweeps): a runner that hands them
    out by task, and runs here any task it was not given."""

    runs: dict[Task, Run]

    def results(self, tasks: Sequence[Task]) -> Iterator[tuple[int, Outcome]]:
        """The stored run of each task (or a fresh one), in order."""
        for i, task in enumerate(tasks):
            found = self.runs.get(task)
            try:
                yield i, found if found is not None else perform(task)
            except Exception as error:
                yield i, error


# ---- sweeps ----------------------------------------------------------------------------------


@attrs.frozen
class Sweep(SweepDisplay):
    """Runs of one algorithm over several sizes, and the bound checks over them."""

    algorithm: Algorithm
    options: Options
    runs: tuple[Run, ...]
    checks: Mapping[str, Check]
    #: Checks of each phase against its own bound, keyed ``"sort work"`` and the like.
    phase_checks: Mapping[str, Check] = attrs.field(factory=dict)
    #: Sizes at which the laws are evaluated (``--predict``).
    predict: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether every run is correct and clean and no bound check is exceeded."""
        return (
            all(r.correct is not False and r.violations == 0 for r in self.runs)
            and all(c.verdict != "exceeded" for c in self.checks.values())
        )

    def laws(self) -> dict[str, dict[str, Any]]:
        """The law of each measure checked (and of each phase's), with its predictions."""
        out: dict[str, dict[str, Any]] = {}
        for key, c in {**self.checks, **self.phase_checks}.items():
            name = key if key in self.phase_checks else measure_of(key)
            if name not in out:
                out[name] = law_dict(name, c, self.predict)
        return out

    def as_dict(self, *, nested_phases: bool = True, wall_clock: bool = True) -> dict[str, Any]:
        """The sweep as JSON: every run (see :meth:`Run.as_dict`) and every bound check."""
        return {
            "algorithm": self.algorithm.name,
            "runs": [
                r.as_dict(nested_phases=nested_phases, wall_clock=wall_clock) for r in self.runs
            ],
            "bounds": {k: _check_dict(c) for k, c in self.checks.items()},
            "phase_bounds": {k: _check_dict(c) for k, c in self.phase_checks.items()},
            "laws": self.laws(),
        }


def law_dict(name: str, c: Check, predict: Sequence[int]) -> dict[str, Any]:
    """The law of check ``c`` as JSON, named ``name``, with its predictions at ``predict``."""
    law: dict[str, Any] = c.law.as_dict()
    law["text"] = f"{name} = {c.law.describe().split(' = ', 1)[1]}"
    law["predictions"] = {str(s): _predict(c.law, s) for s in predict}
    if not law["exact"]:
        law |= {
            "coefficients": [fitted(v) for v in law["coefficients"]],
            "max_residual": fitted(law["max_residual"]),
            "predictions": {s: fitted(v) for s, v in law["predictions"].items()},
        }
    return law


#: Significant digits a least-squares figure carries: the fit's last few digits depend on the
#: machine's floating-point library (summation order, fused multiply-add), so JSON keeps 12.
FITTED_DIGITS = 12


def _predict(law: Any, size: int) -> int | float | None:
    """The law at ``size``, or None (null in the JSON) beyond the range of a float."""
    try:
        value: int | float = law.predict(size)
    except OverflowError:
        return None
    return None if isinstance(value, float) and not math.isfinite(value) else value


def fitted(value: Any) -> Any:
    """A least-squares float rounded to :data:`FITTED_DIGITS` significant digits, so the JSON
    of a sweep is the same on any machine (exact figures, ints and Fractions, pass unchanged)."""
    return float(f"{value:.{FITTED_DIGITS}g}") if isinstance(value, float) else value


def _check_dict(c: Check) -> dict[str, Any]:
    out = c.as_dict()
    out["measure"] = c.measure
    out["sizes"] = [dict(s) for s in c.sizes]
    out["measured"] = list(c.measured)
    return out


def grid(ns: Sequence[int], ds: Sequence[int] | None) -> list[tuple[int, int | None]]:
    """Every (n, d) pair of a sweep, d outermost so each d's sizes stay together."""
    if not ns:
        raise InputError("--n needs at least one size, e.g. --n 48,96,192")
    widths: list[int | None] = list(ds) if ds else [None]
    return [(n, d) for d in widths for n in ns]


def sweep(
    name: str,
    ns: Sequence[int],
    options: Options,
    ds: Sequence[int] | None = None,
    *,
    progress: Callable[[int, int, str], None] | None = None,
    runner: Runner | None = None,
) -> Sweep:
    """Run ``name`` at every size of ``ns`` (and every d of ``ds``), then check its bounds.

    ``runner`` says where the runs execute (default: here, one after the other; see
    :mod:`pram.reports.parallel`); the runs come back in the sweep's order whatever it is.
    ``progress(done, total, label)`` is called before the first run, as each run finishes, and
    once at the end.
    """
    entry = algorithm(name)
    points = grid(ns, ds)
    refuse_sweep(name, ns, options, ds)
    tasks = [Task(name, attrs.evolve(options, n=n, d=d if d is not None else options.d))
             for n, d in points]
    runs = run_all(tasks, runner, progress=progress)
    if progress is not None:
        progress(len(points), len(points), "done")
    return Sweep(entry, options, tuple(runs), checks_of(entry, runs), phase_checks_of(entry, runs))


def refuse_sweep(
    name: str, ns: Sequence[int], options: Options, ds: Sequence[int] | None = None
) -> None:
    """Check a sweep before its first run: at least two points, in which some size varies (a
    bound check fits a law over the sizes), and every point (options that apply, memory)."""
    points = grid(ns, ds)
    if len(points) < 2:
        raise InputError(
            f"a sweep needs at least 2 sizes to check a bound (got {len(points)}); "
            "give more with --n, e.g. --n 48,96,192"
        )
    if len(set(points)) < 2:
        raise InputError(
            f"a bound check needs a sweep in which some size varies (--n {ns[0]} given "
            f"{len(points)} times); give different sizes, e.g. --n {ns[0]},{2 * ns[0]}"
        )
    if options.keys != "bits" and len({n for n, _ in points}) < 2:
        # a word is one cell whatever its width: the formulas use d = 1, so only n can vary
        raise InputError(
            f"a bound check needs a sweep in which some size varies, and with word keys the "
            f"token width does not enter the counts (the formulas use d = 1); give different "
            f"sizes with --n, e.g. --n {ns[0]},{2 * ns[0]}, or add --keys bits to sweep --d"
        )
    for n, d in points:
        point = attrs.evolve(options, n=n, d=d if d is not None else options.d)
        validate(point)
        refuse_inapplicable(name, point)
        refuse_oversized(name, point)


def checks_of(entry: Algorithm, runs: Iterable[Run]) -> dict[str, Check]:
    """Check every bound of ``entry`` over ``runs`` (see :mod:`pram.bounds`).

    A total is exceeded when one of its phases exceeds the same bound (the phases' counts add
    up to it), and the verdict then names the phase.
    """
    done = list(runs)
    phases = phase_checks_of(entry, done)
    out = {}
    for key, bound in entry.bounds.items():
        if key not in done[0].bounds:
            continue
        total = bound_check(done, key, bound.formula)
        same = {
            name: phases[f"{name} {measure_of(key)}"]
            for name, bounds in entry.phase_bounds.items()
            if f"{name} {measure_of(key)}" in phases
            and bounds[measure_of(key)].formula is bound.formula
        }
        out[key] = combined(same, total)
    return out


def phase_checks_of(entry: Algorithm, runs: Iterable[Run]) -> dict[str, Check]:
    """Check each phase of ``entry`` that has bounds against them, keyed ``"sort work"``."""
    done = list(runs)
    out: dict[str, Check] = {}
    if len(done) < 2:
        return out
    for name, bounds in entry.phase_bounds.items():
        if not all(name in r.cost.phases for r in done):
            continue
        for measure, bound in bounds.items():
            values = [float(getattr(r.cost.phases[name], measure)) for r in done]
            out[f"{name} {measure}"] = _check(done, measure, bound.formula, values)
    return out


def bound_check(
    runs: Sequence[Run],
    key: str,
    formula: Formula,
    *,
    limit: float | None = None,
) -> Check:
    """Check the measure of bound ``key`` of ``runs`` against ``formula`` over their sizes.

    ``limit``, if given, also caps measured / formula (the registry sets none: the verdict
    comes from the laws of the counts, see :mod:`pram.bounds`).
    """
    return _check(runs, measure_of(key), formula, [r.bounds[key].measured for r in runs],
                  limit=limit)


def _check(
    runs: Sequence[Run],
    measure: str,
    formula: Formula,
    values: Sequence[float],
    *,
    limit: float | None = None,
) -> Check:
    aliases = _aliases([r.bound_sizes for r in runs])
    points = [
        ({k: v for k, v in r.bound_sizes.items() if k not in aliases}, value)
        for r, value in zip(runs, values, strict=True)
    ]
    return check(measure, _unaliased(formula, aliases), points, limit=limit)


def _aliases(sizes: Sequence[Mapping[str, float]]) -> dict[str, str]:
    """Sizes equal to an earlier size at every point of a sweep (m = n), mapped to it.

    A size that only moves together with another is one size as far as growth goes, so the
    check sees it once (and the formula gets it back from its twin).
    """
    names = list(sizes[0]) if sizes else []
    out: dict[str, str] = {}
    for i, name in enumerate(names):
        for twin in names[:i]:
            if twin not in out and all(s[name] == s[twin] for s in sizes):
                if len({s[name] for s in sizes}) > 1:
                    out[name] = twin
                break
    return out


def _unaliased(formula: Formula, aliases: Mapping[str, str]) -> Formula:
    if not aliases:
        return formula
    evaluate = formula.evaluate

    def restored(s: Mapping[str, float]) -> float:
        return evaluate({**s, **{alias: s[twin] for alias, twin in aliases.items()}})

    return Formula(formula.text, restored)


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


# ---- many random instances: --instances K ----------------------------------------------------
#
# K random instances (seeds s, s+1, ..., s+K-1) run in batches: each batch on one machine in
# lockstep (:func:`run_batch`), the batches here or over workers (a runner of
# :mod:`pram.reports.parallel`). What comes back is one :class:`Trial` per instance; the
# :class:`Summary` orders them by seed, so it is the same whatever the split.

#: The most instances one machine runs in lockstep; more are split into batches of this size.
BATCH_LIMIT = 1024

#: The counts a summary reports, for an algorithm on the machine and for one off it (RAM
#: model: the program counts its operations itself, there are no cells).
MEASURES = ("time", "work", "reads", "writes", "local", "max_local", "max_processors",
            "memory_cells", "peak_cells", "loop_tests")
RAM_MEASURES = ("time", "work", "max_processors")


@attrs.frozen
class Trial:
    """What one instance of a batch gave: its seed, its counts, its violations and its answer.

    Plain values only (no machine, no entry), so it travels back from a worker as it is.
    """

    seed: int
    sizes: Mapping[str, int]
    bound_sizes: Mapping[str, float]
    #: The counts of :data:`MEASURES` (or :data:`RAM_MEASURES` off the machine), by name.
    counts: Mapping[str, int]
    violations: int
    #: The first violations' messages (at most :data:`SHOWN_VIOLATIONS`).
    first_violations: tuple[str, ...]
    undefined_reads: int
    correct: bool | None
    mismatch: str | None
    notes: tuple[str, ...] = ()
    #: This instance's share of its batch's wall clock (the batch's seconds over its size).
    seconds: float = attrs.field(default=0.0, eq=False)
    #: Whether it ran in lockstep with its batch on one machine (else on its own machine).
    lockstep: bool = attrs.field(default=False, eq=False)


def trial_of(run: Run) -> Trial:
    """The :class:`Trial` of a single run (its counts, violations and answer)."""
    measures = MEASURES if run.algorithm.on_machine else RAM_MEASURES
    return Trial(
        seed=run.options.seed,
        sizes=dict(run.sizes),
        bound_sizes=dict(run.bound_sizes),
        counts={k: int(getattr(run.cost, k)) for k in measures},
        violations=run.violations,
        first_violations=tuple(v.message for v in run.first_violations),
        undefined_reads=run.undefined_reads,
        correct=run.correct,
        mismatch=run.mismatch,
        notes=run.notes,
        seconds=run.seconds,
    )


def run_batch(
    name: str, options: Options, seeds: Sequence[int], *, batched: bool = True
) -> tuple[Trial, ...]:
    """Run the random instances of ``seeds`` of algorithm ``name``: their trials, in order.

    ``batched=False`` runs each instance on its own fresh machine, one after the other (the
    reference a batched run is compared with: the trials are the same either way).
    """
    from pram.reports.batched import solver

    single = attrs.evolve(options, instances=None)
    start = time.perf_counter()
    solve = solver(name, single) if batched else None
    if solve is None:
        made = []
        for s in seeds:
            try:
                made.append(trial_of(execute(name, attrs.evolve(single, seed=s))))
            except PRAMError as error:  # --mode raise stopped it: say which instance
                if isinstance(error, InputError):
                    raise
                raise _named(error, s - options.seed, s) from None
        trials = tuple(made)
    else:
        try:
            trials = _lockstep(name, single, seeds, solve)
        except PRAMError as error:
            if isinstance(error, InputError):
                raise
            head, sep, rest = str(error).partition(": ")
            b = int(head.split()[1]) if sep and _INSTANCE.fullmatch(head) else 0
            raise _named(error, seeds[b] - options.seed, seeds[b], rest if sep and
                         _INSTANCE.fullmatch(head) else None) from None
    share = (time.perf_counter() - start) / max(1, len(trials))
    return tuple(attrs.evolve(t, seconds=share) for t in trials)


def _lockstep(
    name: str, options: Options, seeds: Sequence[int], solve: Callable[..., Any]
) -> tuple[Trial, ...]:
    """The instances of ``seeds`` on one ``Machine(batch=B)``, solved by ``solve`` (a batched
    solver of :mod:`pram.reports.batched`): one trial each, as :func:`trial_of` makes them."""
    entry = algorithm(name)
    instances = [build(name, attrs.evolve(options, seed=s)) for s in seeds]
    extra: dict[str, Any] = {} if options.distinct_processors is None else {
        "distinct_processors": options.distinct_processors
    }
    machine = Machine(options.model, mode=options.mode,  # type: ignore[arg-type]
                      seed=options.seed, batch=len(seeds), **extra)
    solutions = solve(machine, instances, options)
    violations: list[list[Violation]] = [[] for _ in seeds]
    for v in machine.violations:
        violations[_instance(v)].append(v)
    undefined = [0] * len(seeds)
    for u in machine.undefined_reads:
        undefined[_instance(u)] += 1
    out = []
    costs = machine.costs  # one ledger per instance (built on each access: take it once)
    for b, (seed, instance, solution) in enumerate(zip(seeds, instances, solutions,
                                                       strict=True)):
        cost = costs[b]
        correct: bool | None = None
        mismatch: str | None = None
        if options.check:
            mismatch = _compare(solution.output, entry.expected(instance))
            correct = mismatch is None
        out.append(Trial(
            seed=seed,
            sizes=dict(instance.sizes),
            bound_sizes=dict(solution.bound_sizes),
            counts={k: int(getattr(cost, k)) for k in MEASURES},
            violations=len(violations[b]),
            first_violations=tuple(_unnumbered(v.message)
                                   for v in violations[b][:SHOWN_VIOLATIONS]),
            undefined_reads=undefined[b],
            correct=correct,
            mismatch=mismatch,
            notes=(*instance.notes, *solution.notes),
            lockstep=True,
        ))
    return tuple(out)


#: How a batched machine names the instance of an error: ``instance 17``.
_INSTANCE = re.compile(r"instance \d+")


def _named(error: PRAMError, instance: int, seed: int, message: str | None = None) -> PRAMError:
    """``error`` (of its own type and attributes) saying which instance of ``--instances``
    raised it and its seed, as in ``instance 3 (seed 4): EREW forbids ...``; ``message`` the
    error's words without a batched machine's own ``instance i: `` (an error every instance
    of a batch would raise, such as a refusal of a register operation, names its first)."""
    named = copy.copy(error)
    named.args = (f"instance {instance} (seed {seed}): "
                  f"{str(error) if message is None else message}",)
    return named


def _instance(record: Any) -> int:
    """The instance a batched machine's violation or undefined read belongs to."""
    instance = record.instance
    assert instance is not None, "a batched machine names the instance of every record"
    return int(instance)


def _unnumbered(message: str) -> str:
    """A batched machine's message without its ``instance 17: `` prefix (a summary names the
    instance by its seed, as for a single run)."""
    head, sep, rest = message.partition(": ")
    return rest if sep and head.startswith("instance ") else message


@attrs.frozen
class Batch(Task):
    """A batch of instances to run on one machine: the seeds, beside the task's options."""

    seeds: tuple[int, ...] = ()
    #: Run them one by one instead of in lockstep (for the comparison of the two).
    batched: bool = True

    @property
    def label(self) -> str:
        """The sizes and the seeds, e.g. ``n=96 seeds 0-63``."""
        seeds = f"seed {self.seeds[0]}" if len(self.seeds) == 1 else (
            f"seeds {self.seeds[0]}-{self.seeds[-1]}")
        return f"{super().label} {seeds}"


def perform(task: Task) -> Run | tuple[Trial, ...]:
    """Do ``task`` here: a run, or for a :class:`Batch` its trials."""
    if isinstance(task, Batch):
        return run_batch(task.name, task.options, task.seeds, batched=task.batched)
    return execute(task.name, task.options)


def summary_stats(values: Sequence[float]) -> dict[str, float]:
    """``{"min", "mean", "max"}`` of ``values`` (ints stay ints; the mean is a float)."""
    return {"min": min(values), "mean": sum(values) / len(values), "max": max(values)}


@attrs.frozen
class Summary:
    """K instances of one algorithm at one size: each count's min / mean / max over them, every
    answer checked, the violations per instance."""

    algorithm: Algorithm
    options: Options
    #: One trial per instance, by seed.
    trials: tuple[Trial, ...]
    #: How many batches (machines in lockstep) ran them.
    batches: int = 1
    seconds: float = attrs.field(default=0.0, eq=False)

    @property
    def seeds(self) -> list[int]:
        """The seeds of the instances, in order."""
        return [t.seed for t in self.trials]

    @property
    def sizes(self) -> Mapping[str, int]:
        """The sizes the instances share (as the user gave them)."""
        return self.trials[0].sizes

    @property
    def bound_sizes(self) -> Mapping[str, float]:
        """The sizes the bound formulas are evaluated at (the first instance's)."""
        return self.trials[0].bound_sizes

    @property
    def model(self) -> str:
        """The model's display name, ``RAM`` for an algorithm off the machine."""
        if not self.algorithm.on_machine:
            return "RAM"
        return model_named(self.options.model).name

    def counts(self) -> dict[str, dict[str, float]]:
        """Each count's min / mean / max over the instances, by measure."""
        return {k: summary_stats([t.counts[k] for t in self.trials])
                for k in self.trials[0].counts}

    def varying(self) -> list[str]:
        """The counts that differ between instances: the data-dependent ones."""
        return [k for k, s in self.counts().items() if s["min"] != s["max"]]

    @property
    def lockstep(self) -> bool:
        """Whether every batch ran in lockstep on one machine (else one machine per instance:
        the entry has no batched solver in :mod:`pram.reports.batched` for these options)."""
        return all(t.lockstep for t in self.trials)

    @property
    def checked(self) -> int:
        """How many answers were compared with the reference."""
        return sum(t.correct is not None for t in self.trials)

    @property
    def correct(self) -> int:
        """How many answers equal the reference."""
        return sum(t.correct is True for t in self.trials)

    @property
    def wrong(self) -> list[Trial]:
        """The instances whose answer differs from the reference."""
        return [t for t in self.trials if t.correct is False]

    @property
    def violations(self) -> int:
        """Violations over every instance."""
        return sum(t.violations for t in self.trials)

    @property
    def flagged(self) -> list[Trial]:
        """The instances with at least one violation."""
        return [t for t in self.trials if t.violations]

    def first_violations(self) -> list[str]:
        """The first violations (at most :data:`SHOWN_VIOLATIONS`), each naming its seed."""
        found = [f"seed {t.seed}: {m}" for t in self.flagged for m in t.first_violations]
        return found[:SHOWN_VIOLATIONS]

    @property
    def ok(self) -> bool:
        """Whether every answer checked is right and no instance has a violation."""
        return not self.wrong and self.violations == 0

    def bounds(self) -> dict[str, dict[str, Any]]:
        """Each bound that applies: its formula and measured / formula's min / mean / max."""
        out: dict[str, dict[str, Any]] = {}
        for key, bound in self.algorithm.bounds.items():
            if not bound.applies(self.options):
                continue
            ratios = [t.counts[measure_of(key)] / bound.formula(t.bound_sizes)
                      for t in self.trials]
            out[key] = {"formula": bound.formula.text, "ratio": summary_stats(ratios)}
        return out

    def as_dict(self, *, wall_clock: bool = True) -> dict[str, Any]:
        """The summary as the JSON of ``pram run --instances K --json`` (see the README)."""
        o = self.options
        wrong = self.wrong
        out: dict[str, Any] = {"algorithm": self.algorithm.name, "instances": len(self.trials),
                               "seeds": self.seeds}
        out.update({k: int(v) for k, v in self.sizes.items()})
        out.update(json_fields(self.algorithm, o))
        out.pop("seed", None)
        out["counts"] = self.counts()
        out["data_dependent"] = self.varying()
        out["answers"] = {
            "checked": self.checked,
            "correct": self.correct if o.check else None,
            "reference": self.algorithm.checked_against,
            "wrong_seeds": [t.seed for t in wrong],
            "first_mismatch": f"seed {wrong[0].seed}: {wrong[0].mismatch}" if wrong else None,
        }
        out["violations"] = {
            "instances_with": len(self.flagged),
            "total": self.violations,
            "per_instance": [t.violations for t in self.trials],
            "first": self.first_violations(),
        }
        out["undefined_reads"] = sum(t.undefined_reads for t in self.trials)
        out["correct"] = (not wrong) if o.check else None
        out["ok"] = self.ok
        out["bound_sizes"] = {k: float(v) for k, v in self.bound_sizes.items()}
        out["bounds"] = self.bounds()
        out["notes"] = sorted({n for t in self.trials for n in t.notes})
        out["batches"] = self.batches
        out["lockstep"] = self.lockstep
        if wall_clock:
            out["seconds"] = self.seconds
        return out


def instance_seeds(options: Options) -> list[int]:
    """The seeds of ``--instances K``: ``seed`` to ``seed + K - 1``."""
    return list(range(options.seed, options.seed + (options.instances or 1)))


def refuse_instances(name: str, options: Options) -> None:
    """Refuse ``--instances`` the run cannot take, before any work, in one line: with
    ``--input`` (a file is one instance), or more instances in lockstep than memory holds."""
    validate(options)
    count = options.instances or 1
    if options.input is not None:
        raise InputError(
            f"--instances {count} does not apply with --input {options.input!r}: a file is one "
            "instance, --instances draws random ones from --seed; leave one of them out"
        )
    if options.weakest_model:
        raise InputError(
            f"--weakest-model does not apply with --instances {count}: it names the weakest "
            "clean model of one run; leave one of them out"
        )
    refuse_inapplicable(name, options)
    refuse_oversized(name, options)
    from pram.reports.guard import ceiling, largest, need_of, refuse_bytes

    at_once = min(count, BATCH_LIMIT)
    one = need_of(name, options)
    limit = ceiling(options.max_memory)
    if one * at_once > limit:
        fits = largest(lambda k: one * k <= limit, at_once)
        refuse_bytes(
            f"--instances {count} ({at_once} instances of {name} in lockstep)", one * at_once,
            options.max_memory,
            f"the most instances that fit at once is {fits}, so give --instances {fits} or less"
            if fits else None,
        )


def batches_of(seeds: Sequence[int], parts: int) -> list[tuple[int, ...]]:
    """``seeds`` in at least ``parts`` contiguous batches of nearly equal size, each at most
    :data:`BATCH_LIMIT` (fewer batches when there are fewer seeds)."""
    count = max(1, min(len(seeds), max(parts, -(-len(seeds) // BATCH_LIMIT))))
    size, extra = divmod(len(seeds), count)
    out, start = [], 0
    for i in range(count):
        end = start + size + (i < extra)
        out.append(tuple(seeds[start:end]))
        start = end
    return out


def _trials(done: Run | tuple[Trial, ...]) -> tuple[Trial, ...]:
    """A finished :class:`Batch`'s trials (a runner hands back what :func:`perform` made)."""
    assert not isinstance(done, Run), "a Batch task gives its trials, not a run"
    return done


def _parts(by: Runner | None) -> int:
    """How many workers ``by`` runs at once (1 here)."""
    return int(getattr(by, "parts", 1) or 1)


def run_instances(
    name: str,
    options: Options,
    *,
    runner: Runner | None = None,
    parts: int | None = None,
    batched: bool = True,
    progress: Callable[[int, int, str], None] | None = None,
) -> Summary:
    """Run ``options.instances`` random instances of ``name`` and summarise them.

    The instances are split into batches (``parts`` of them, default one per worker of
    ``runner``), each batch run on one machine in lockstep; the summary is the same whatever
    the split and whichever runner ran them. ``batched=False`` runs every instance on its own
    machine (the one-by-one reference).
    """
    refuse_instances(name, options)
    entry = algorithm(name)
    seeds = instance_seeds(options)
    tasks = [Batch(name, options, chunk, batched)
             for chunk in batches_of(seeds, parts or _parts(runner))]
    start = time.perf_counter()
    done = _ordered(tasks, runner, progress=progress, label=lambda task: task.label)
    seconds = time.perf_counter() - start
    trials = tuple(t for batch in done for t in _trials(batch))
    return Summary(entry, options, trials, len(tasks), seconds)


#: The statistics over the instances of a size whose laws ``pram sweep --instances K`` finds.
STATISTICS = ("mean", "max")


@attrs.frozen
class InstancesSweep:
    """K instances at every size of a sweep: a :class:`Summary` per size, and the laws and
    verdicts of the mean and of the maximum of each count over the instances.

    ``checks`` holds the bounds the algorithm claims, on the mean and on the maximum of their
    measure (``"work (mean)"``, ``"work (max)"``); ``count_checks`` the other data-dependent
    counts (``"reads (max)"``), each against the work bound's formula: their laws, and whether
    they grow faster than the work bound (information, it changes no exit status).
    """

    algorithm: Algorithm
    options: Options
    summaries: tuple[Summary, ...]
    checks: Mapping[str, Check]
    count_checks: Mapping[str, Check] = attrs.field(factory=dict)
    predict: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether every instance is correct and clean and no claimed bound is exceeded by the
        mean or the maximum."""
        return (all(s.ok for s in self.summaries)
                and all(c.verdict != "exceeded" for c in self.checks.values()))

    def varying(self) -> list[str]:
        """The counts that differ between instances at some size of the sweep."""
        found = {k for s in self.summaries for k in s.varying()}
        return [k for k in self.summaries[0].counts() if k in found]

    def laws(self) -> dict[str, dict[str, Any]]:
        """The law of each statistic checked, e.g. ``"reads (max)"``, with its predictions."""
        return {key: law_dict(key, c, self.predict)
                for key, c in {**self.checks, **self.count_checks}.items()}

    def as_dict(self, *, wall_clock: bool = True) -> dict[str, Any]:
        """The sweep as JSON: every size's summary, the checks and the laws."""
        return {
            "algorithm": self.algorithm.name,
            "instances": len(self.summaries[0].trials),
            "seeds": self.summaries[0].seeds,
            "data_dependent": self.varying(),
            "runs": [s.as_dict(wall_clock=wall_clock) for s in self.summaries],
            "bounds": {k: _check_dict(c) for k, c in self.checks.items()},
            "count_bounds": {k: _check_dict(c) for k, c in self.count_checks.items()},
            "laws": self.laws(),
        }


def _statistic_check(
    summaries: Sequence[Summary], measure: str, statistic: str, formula: Formula
) -> Check:
    """The check of ``statistic`` (mean or max) of ``measure`` over the sizes of a sweep."""
    sizes = [s.bound_sizes for s in summaries]
    aliases = _aliases(sizes)
    points = [({k: v for k, v in b.items() if k not in aliases},
               float(s.counts()[measure][statistic])) for s, b in zip(summaries, sizes,
                                                                       strict=True)]
    return check(measure, _unaliased(formula, aliases), points)


def sweep_instances(
    name: str,
    ns: Sequence[int],
    options: Options,
    ds: Sequence[int] | None = None,
    *,
    progress: Callable[[int, int, str], None] | None = None,
    runner: Runner | None = None,
    predict: Sequence[int] = (),
) -> InstancesSweep:
    """``options.instances`` random instances at every size of ``ns`` (and d of ``ds``), in
    lockstep batches (over ``runner``'s workers), and the laws of their means and maxima."""
    entry = algorithm(name)
    points = grid(ns, ds)
    refuse_sweep(name, ns, options, ds)
    sized = [attrs.evolve(options, n=n, d=d if d is not None else options.d) for n, d in points]
    for point in sized:
        refuse_instances(name, point)
    seeds = instance_seeds(options)
    tasks: list[Task] = []
    owner: list[int] = []
    for i, point in enumerate(sized):
        for chunk in batches_of(seeds, _parts(runner)):
            tasks.append(Batch(name, point, chunk))
            owner.append(i)
    done = _ordered(tasks, runner, progress=progress)
    summaries = []
    for i, point in enumerate(sized):
        trials = tuple(t for j, batch in enumerate(done) if owner[j] == i
                       for t in _trials(batch))
        summaries.append(Summary(entry, point, trials, owner.count(i),
                                 sum(t.seconds for t in trials)))
    if progress is not None:
        progress(len(tasks), len(tasks), "done")
    checks: dict[str, Check] = {}
    for key, bound in entry.bounds.items():
        if not bound.applies(options):
            continue
        for statistic in STATISTICS:
            checks[f"{key} ({statistic})"] = _statistic_check(
                summaries, measure_of(key), statistic, bound.formula)
    work = entry.bounds.get("work")
    claimed = {measure_of(k) for k in entry.bounds}
    counts: dict[str, Check] = {}
    found = InstancesSweep(entry, options, tuple(summaries), checks)
    if work is not None:
        for measure in found.varying():
            if measure in claimed:
                continue
            for statistic in STATISTICS:
                counts[f"{measure} ({statistic})"] = _statistic_check(
                    summaries, measure, statistic, work.formula)
    return attrs.evolve(found, count_checks=counts, predict=tuple(predict))
