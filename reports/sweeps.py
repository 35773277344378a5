"""Sweeps: an algorithm over several sizes, one run per size or ``--instances K`` at each,
and the bound checks over them (the laws of the counts, see :mod:`pram.laws.bounds`).

One :class:`Sweep` holds either kind: its ``runs`` (one per size) or its ``summaries`` (K
instances per size, see :mod:`pram.reports.instances`). :func:`refuse_sweep` prepares and
checks every size once, before the first run; :func:`sweep` runs them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from pram import Check, Formula, InputError, check
from pram.laws.bounds import combined, mean_check
from pram.reports.display import SweepDisplay
from pram.reports.instances import Summary, batch_tasks, parts_of, refuse_instances, trials_of
from pram.reports.options import Options
from pram.reports.registry import Algorithm
from pram.reports.runs import Job, Run, measure_of, prepare, refuse
from pram.reports.tasks import Runner, Task, ordered

# ---- sweeps ----------------------------------------------------------------------------------


@attrs.frozen
class Sweep(SweepDisplay):
    """One algorithm over several sizes, and the bound checks over them.

    A sweep of single runs holds one :class:`Run` per size in ``runs``, its ``checks`` on the
    runs' counts and ``phase_checks`` on each phase's. A sweep of ``--instances K`` holds a
    :class:`Summary` per size in ``summaries``; its ``checks`` are the bounds the algorithm
    claims, on the mean and on the maximum of their measure (``"work (mean)"``, ``"work
    (max)"``), and ``count_checks`` the other data-dependent counts (``"reads (max)"``), each
    against the work bound's formula: their laws, and whether they grow faster than the work
    bound (information, it changes no exit status).
    """

    algorithm: Algorithm
    options: Options
    runs: tuple[Run, ...]
    checks: Mapping[str, Check]
    #: Checks of each phase against its own bound, keyed ``"sort work"`` and the like.
    phase_checks: Mapping[str, Check] = attrs.field(factory=dict)
    #: Sizes at which the laws are evaluated (``--predict``).
    predict: tuple[int, ...] = ()
    #: With ``--instances K``: the summary of the K instances at each size (and no runs).
    summaries: tuple[Summary, ...] = ()
    count_checks: Mapping[str, Check] = attrs.field(factory=dict)

    @property
    def ok(self) -> bool:
        """Whether every run (every instance) is correct and clean and no bound check is
        exceeded (by the mean or the maximum, over instances)."""
        points = (all(s.ok for s in self.summaries) if self.summaries else
                  all(r.correct is not False and r.violations == 0 for r in self.runs))
        return points and all(c.verdict != "exceeded" for c in self.checks.values())

    def varying(self) -> list[str]:
        """The counts that differ between instances at some size of the sweep."""
        if not self.summaries:
            return []
        found = {k for s in self.summaries for k in s.varying()}
        return [k for k in self.summaries[0].counts() if k in found]

    def laws(self) -> dict[str, dict[str, Any]]:
        """The law of each measure checked (and of each phase's), with its predictions; over
        instances, of each statistic checked, e.g. ``"reads (max)"``."""
        if self.summaries:
            return {key: law_dict(key, c, self.predict)
                    for key, c in {**self.checks, **self.count_checks}.items()}
        out: dict[str, dict[str, Any]] = {}
        for key, c in {**self.checks, **self.phase_checks}.items():
            name = key if key in self.phase_checks else measure_of(key)
            if name not in out:
                out[name] = law_dict(name, c, self.predict)
        return out

    def as_dict(self, *, nested_phases: bool = True, wall_clock: bool = True) -> dict[str, Any]:
        """The sweep as JSON: every run (see :meth:`Run.as_dict`) or every size's summary
        (see :meth:`Summary.as_dict`), every bound check and the laws."""
        if self.summaries:
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
#: machine's floating-point library (summation order, fused multiply-add), and an
#: ill-conditioned fit's coefficients (-1971.51077682 beside 4961.11003597) moved in the 12th
#: digit from one machine to another, so JSON keeps 9.
FITTED_DIGITS = 9


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
    predict: Sequence[int] = (),
    jobs: Sequence[Job] | None = None,
) -> Sweep:
    """Run ``name`` at every size of ``ns`` (and every d of ``ds``), then check its bounds;
    with ``options.instances`` K, K random instances at every size, in lockstep batches, and
    the laws of their means and maxima.

    ``runner`` says where the runs execute (default: here, one after the other; see
    :mod:`pram.reports.parallel`); the runs come back in the sweep's order whatever it is.
    ``progress(done, total, label)`` is called before the first run, as each run finishes, and
    once at the end. ``jobs``: the sizes :func:`refuse_sweep` prepared and checked already.
    """
    if jobs is None:
        jobs = refuse_sweep(name, ns, options, ds)
    entry = jobs[0].entry
    tasks: list[Task] = []
    owner: list[int] = []
    for i, job in enumerate(jobs):
        made = (batch_tasks(job, parts_of(runner)) if options.instances is not None
                else [Task(name, job.options, job=job)])
        tasks += made
        owner += [i] * len(made)
    done = ordered(tasks, runner, progress=progress)
    if progress is not None:
        progress(len(tasks), len(tasks), "done")
    if options.instances is None:
        runs = [r for r in done if isinstance(r, Run)]
        return Sweep(entry, options, tuple(runs), checks_of(entry, runs),
                     phase_checks_of(entry, runs), tuple(predict))
    summaries = []
    for i, job in enumerate(jobs):
        trials = tuple(t for j, batch in enumerate(done) if owner[j] == i
                       for t in trials_of(batch))
        summaries.append(Summary(entry, job.options, trials, owner.count(i),
                                 sum(t.seconds for t in trials)))
    return _instances_sweep(entry, options, summaries, predict)


def _instances_sweep(entry: Algorithm, options: Options, summaries: Sequence[Summary],
                     predict: Sequence[int]) -> Sweep:
    """The sweep of the summaries of ``--instances K``, with the checks of its statistics."""
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
    found = Sweep(entry, options, (), checks, summaries=tuple(summaries))
    if work is not None:
        for measure in found.varying():
            if measure in claimed:
                continue
            for statistic in STATISTICS:
                counts[f"{measure} ({statistic})"] = _statistic_check(
                    summaries, measure, statistic, work.formula)
    return attrs.evolve(found, count_checks=counts, predict=tuple(predict))


def refuse_sweep(
    name: str, ns: Sequence[int], options: Options, ds: Sequence[int] | None = None
) -> list[Job]:
    """Check a sweep before its first run: at least two points, in which some size varies (a
    bound check fits a law over the sizes), and every point (options that apply, memory; with
    ``--instances``, the instances in lockstep too). The job of every point, prepared and
    checked once, for :func:`sweep`."""
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
    jobs = []
    for n, d in points:
        job = prepare(name, attrs.evolve(options, n=n, d=d if d is not None else options.d))
        if options.instances is not None:
            refuse_instances(job)
        else:
            refuse(job)
        jobs.append(job)
    return jobs


#: ``--measure rounds``: the ledger count each declared measure is judged on instead (time
#: on rounds, the textbooks' steps; work on the work of rounds).
ON_ROUNDS = {"time": "rounds", "work": "round_work"}


def checks_of(entry: Algorithm, runs: Iterable[Run], *, rounds: bool = False
              ) -> dict[str, Check]:
    """Check every bound of ``entry`` over ``runs`` (see :mod:`pram.laws.bounds`); with
    ``rounds``, each bound of time on the runs' rounds and each of work on their rounds' work
    (:data:`ON_ROUNDS`; keyed ``"rounds"``, ``"round_work (tree)"``), the same formulas.

    A total is exceeded when one of its phases exceeds the same bound (the phases' counts add
    up to it), and the verdict then names the phase.
    """
    done = list(runs)
    phases = phase_checks_of(entry, done, rounds=rounds)
    out = {}
    for key, bound in entry.bounds.items():
        if key not in done[0].bounds:
            continue
        measure = measure_of(key)
        if rounds:
            measure = ON_ROUNDS[measure]
            key = measure + key[len(measure_of(key)):]
            total = counts_check(done, measure, bound.formula,
                                 [float(getattr(r.cost, measure)) for r in done])
        else:
            total = bound_check(done, key, bound.formula)
        same = {
            name: phases[f"{name} {measure}"]
            for name, bounds in entry.phase_bounds.items()
            if f"{name} {measure}" in phases
            and bounds[_declared(measure)].formula is bound.formula
        }
        out[key] = combined(same, total)
    return out


def _declared(measure: str) -> str:
    """The declared measure a checked one stands for (``rounds`` for ``time``)."""
    return next((k for k, v in ON_ROUNDS.items() if v == measure), measure)


def phase_checks_of(entry: Algorithm, runs: Iterable[Run], *, rounds: bool = False
                    ) -> dict[str, Check]:
    """Check each phase of ``entry`` that has bounds against them, keyed ``"sort work"``
    (with ``rounds``, on the phase's rounds and their work: ``"sort round_work"``)."""
    done = list(runs)
    out: dict[str, Check] = {}
    if len(done) < 2:
        return out
    for name, bounds in entry.phase_bounds.items():
        if not all(name in r.cost.phases for r in done):
            continue
        for measure, bound in bounds.items():
            if rounds:
                measure = ON_ROUNDS[measure]
            values = [float(getattr(r.cost.phases[name], measure)) for r in done]
            out[f"{name} {measure}"] = counts_check(done, measure, bound.formula, values)
    return out


def on_rounds(result: Sweep) -> Sweep:
    """``result`` with its bounds judged on rounds (``pram sweep --measure rounds``): each
    declared time bound on the runs' rounds, each work bound on their rounds' work, the laws
    those counts' (:func:`checks_of` with ``rounds``)."""
    return attrs.evolve(result, checks=checks_of(result.algorithm, result.runs, rounds=True),
                        phase_checks=phase_checks_of(result.algorithm, result.runs,
                                                     rounds=True))


def bound_check(
    runs: Sequence[Run],
    key: str,
    formula: Formula,
    *,
    limit: float | None = None,
) -> Check:
    """Check the measure of bound ``key`` of ``runs`` against ``formula`` over their sizes.

    ``limit``, if given, also caps measured / formula (the registry sets none: the verdict
    comes from the laws of the counts, see :mod:`pram.laws.bounds`).
    """
    return counts_check(runs, measure_of(key), formula, [r.bounds[key].measured for r in runs],
                  limit=limit)


def counts_check(
    runs: Sequence[Run],
    measure: str,
    formula: Formula,
    values: Sequence[float],
    *,
    limit: float | None = None,
) -> Check:
    """The check of ``values`` (one count per run of ``runs``) against ``formula``, the runs'
    sizes that alias an earlier size (m = n) folded into it."""
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

    return attrs.evolve(formula, evaluate=restored, twins={**formula.twins, **aliases})


#: The statistics over the instances of a size whose laws ``pram sweep --instances K`` finds.
STATISTICS = ("mean", "max")


def _statistic_check(
    summaries: Sequence[Summary], measure: str, statistic: str, formula: Formula
) -> Check:
    """The check of ``statistic`` (mean or max) of ``measure`` over the sizes of a sweep."""
    sizes = [s.bound_sizes for s in summaries]
    aliases = _aliases(sizes)
    at = [{k: v for k, v in b.items() if k not in aliases} for b in sizes]
    formula = _unaliased(formula, aliases)
    if statistic == "mean":  # the noise between instances is part of the verdict
        return mean_check(measure, formula, [
            (b, [float(t.counts[measure]) for t in s.trials])
            for s, b in zip(summaries, at, strict=True)])
    return check(measure, formula, [(b, float(s.counts()[measure][statistic]))
                                    for s, b in zip(summaries, at, strict=True)])
