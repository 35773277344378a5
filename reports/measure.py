"""Run an algorithm on a fresh machine and record what it cost; sweep it over sizes.

Every figure of a :class:`Run` is the machine's ledger (or, for an algorithm outside the
machine, the operations it counted itself); the bound formulas only divide it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeAlias

import attrs
import numpy as np

from pram import (
    Check,
    Cost,
    Formula,
    InputError,
    Machine,
    PhaseCost,
    Resolution,
    Violation,
    Words,
    check,
)
from pram.bounds import combined
from pram.declaration import mismatch as _mismatch
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


#: A finished task: its run, or the error it raised.
Outcome: TypeAlias = "Run | Exception"


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
                yield i, execute(task.name, task.options)
            except Exception as error:
                yield i, error


def run_all(
    tasks: Sequence[Task],
    by: Runner | None = None,
    *,
    progress: Callable[[int, int, str], None] | None = None,
    label: Callable[[Task], str] = lambda task: task.label,
) -> list[Run]:
    """Every task's run, in the order of ``tasks``, whichever runner ``by`` ran them.

    ``progress(done, total, label)`` is called once before the first run and once as each run
    finishes, with the finished run's label. When tasks raise, the error raised is the one of
    the first failing task in order, as in a serial run, as soon as every task before it is
    done (the runner stops the others).
    """
    if progress is not None:
        progress(0, len(tasks), label(tasks[0]) if tasks else "")
    runs: dict[int, Run] = {}
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
                yield i, found if found is not None else execute(task.name, task.options)
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
            if name in out:
                continue
            law: dict[str, Any] = c.law.as_dict()
            law["text"] = f"{name} = {c.law.describe().split(' = ', 1)[1]}"
            law["predictions"] = {str(s): _predict(c.law, s) for s in self.predict}
            if not law["exact"]:
                law |= {
                    "coefficients": [fitted(v) for v in law["coefficients"]],
                    "max_residual": fitted(law["max_residual"]),
                    "predictions": {s: fitted(v) for s, v in law["predictions"].items()},
                }
            out[name] = law
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
