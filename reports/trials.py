"""Many random instances of one size: the trial of each, run in lockstep on one batched
machine (or one by one), each counted by its own ledger.

What comes back is one :class:`Trial` per instance, plain values only, so it travels back from
a worker as it is; :mod:`pram.reports.instances` summarises them.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from pram import InputError, Machine, PRAMError, Violation
from pram.reports.options import Options
from pram.reports.runs import (
    SHOWN_VIOLATIONS,
    Job,
    Run,
    compare,
    draw,
    perform_job,
    prepare,
    refuse,
)

#: The counts a summary reports, for an algorithm on the machine and for one off it (RAM
#: model: the program counts its operations itself, there are no cells).
MEASURES = ("time", "work", "rounds", "round_work", "reads", "writes", "local", "max_local",
            "max_processors", "memory_cells", "peak_cells", "loop_tests")
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
    return run_job_batch(prepare(name, attrs.evolve(options, instances=None)), seeds,
                         batched=batched)


def run_job_batch(job: Job, seeds: Sequence[int], *, batched: bool = True) -> tuple[Trial, ...]:
    """:func:`run_batch` of a prepared job (checked here once, for every seed)."""
    from pram.reports.batched import solver

    options = job.options
    if options.instances is not None:
        job = attrs.evolve(job, options=attrs.evolve(options, instances=None))
    refuse(job)
    start = time.perf_counter()
    solve = solver(job.entry.name, job.options) if batched else None
    if solve is None:
        trials = []
        for s in seeds:
            seeded = attrs.evolve(job, options=attrs.evolve(job.options, seed=s))
            try:
                trials.append(trial_of(perform_job(seeded, checked=True)))
            except PRAMError as error:  # --mode raise stopped it: say which instance
                if isinstance(error, InputError):
                    raise
                raise _named(error, s - options.seed, s) from None
        made = tuple(trials)
    else:
        try:
            made = _lockstep(job, seeds, solve)
        except PRAMError as error:
            if isinstance(error, InputError):
                raise
            b = error.instance if error.instance is not None else 0
            raise _named(error, seeds[b] - options.seed, seeds[b]) from None
    share = (time.perf_counter() - start) / max(1, len(made))
    return tuple(attrs.evolve(t, seconds=share) for t in made)


def _lockstep(job: Job, seeds: Sequence[int], solve: Callable[..., Any]) -> tuple[Trial, ...]:
    """The instances of ``seeds`` on one ``Machine(batch=B)``, solved by ``solve`` (a batched
    solver of :mod:`pram.reports.batched`): one trial each, as :func:`trial_of` makes them."""
    entry, options = job.entry, job.options
    instances = [draw(job, s) for s in seeds]
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
            mismatch = compare(solution.output, entry.expected(instance))
            correct = mismatch is None
        out.append(Trial(
            seed=seed,
            sizes=dict(instance.sizes),
            bound_sizes=dict(solution.bound_sizes),
            counts={k: int(getattr(cost, k)) for k in MEASURES},
            violations=len(violations[b]),
            first_violations=tuple(_unnumbered(v) for v in violations[b][:SHOWN_VIOLATIONS]),
            undefined_reads=undefined[b],
            correct=correct,
            mismatch=mismatch,
            notes=(*instance.notes, *solution.notes),
            lockstep=True,
        ))
    return tuple(out)


def _named(error: PRAMError, instance: int, seed: int) -> PRAMError:
    """``error`` (of its own type and attributes) saying which instance of ``--instances``
    raised it and its seed, as in ``instance 3 (seed 4): EREW forbids ...``, in place of a
    batched machine's own ``instance i: `` (the instance its :attr:`PRAMError.instance`
    names; an error every instance of a batch would raise, such as a refusal of a register
    operation, names none and is said of the batch's first)."""
    named = copy.copy(error)
    message = str(error)
    if error.instance is not None:
        message = message.removeprefix(f"instance {error.instance}: ")
    named.args = (f"instance {instance} (seed {seed}): {message}",)
    named.instance = instance
    return named


def _instance(record: Any) -> int:
    """The instance a batched machine's violation or undefined read belongs to."""
    instance = record.instance
    assert instance is not None, "a batched machine names the instance of every record"
    return int(instance)


def _unnumbered(record: Violation) -> str:
    """A batched machine's violation without its ``instance 17: `` (a summary names the
    instance by its seed, as for a single run)."""
    return record.message.removeprefix(f"instance {_instance(record)}: ")
