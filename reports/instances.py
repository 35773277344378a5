"""Many random instances of one size (``--instances K``) and their summary.

K random instances (seeds s, s+1, ..., s+K-1) run in batches: each batch on one machine in
lockstep (:func:`pram.reports.trials.run_job_batch`), the batches here or over workers (a
runner of :mod:`pram.reports.parallel`). What comes back is one :class:`Trial` per instance;
the :class:`Summary` orders them by seed, so it is the same whatever the split. A
:class:`Summary` only takes minima, means and maxima of the trials' counts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from pram import InputError
from pram.models import model as model_named
from pram.reports.options import Options, json_fields
from pram.reports.registry import Algorithm
from pram.reports.runs import (
    RUN_AT_POSITIVE,
    SHOWN_VIOLATIONS,
    Job,
    Run,
    measure_of,
    prepare,
    refuse,
)
from pram.reports.tasks import Batch, Runner, ordered
from pram.reports.trials import Trial

#: The most instances one machine runs in lockstep; more are split into batches of this size.
BATCH_LIMIT = 1024


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
            ratios = [t.counts[measure_of(key)] / bound.formula.positive(t.bound_sizes,
                                                                         RUN_AT_POSITIVE)
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


def refuse_instances(name: str | Job, options: Options | None = None) -> Job:
    """Refuse ``--instances`` the run cannot take, before any work, in one line: with
    ``--input`` (a file is one instance), or more instances in lockstep than memory holds.
    The job it checked (``name`` may be one prepared already), for :func:`run_instances`."""
    job = name if isinstance(name, Job) else prepare(name, options)  # type: ignore[arg-type]
    options = job.options
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
    if options.depth:
        raise InputError(
            f"--depth does not apply with --instances {count}: it records the cells of one run "
            "(a batch of instances keeps no depths); leave one of them out"
        )
    refuse(job)
    from pram.reports.guard import ceiling, largest, need_of, refuse_bytes

    at_once = min(count, BATCH_LIMIT)
    one = need_of(job.entry.name, options)
    limit = ceiling(options.max_memory)
    if one * at_once > limit:
        fits = largest(lambda k: one * k <= limit, at_once)
        refuse_bytes(
            f"--instances {count} ({at_once} instances of {job.entry.name} in lockstep)",
            one * at_once, options.max_memory,
            f"the most instances that fit at once is {fits}, so give --instances {fits} or less"
            if fits else None,
        )
    return job


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


def trials_of(done: Run | tuple[Trial, ...]) -> tuple[Trial, ...]:
    """A finished :class:`Batch`'s trials (a runner hands back what :func:`perform` made)."""
    assert not isinstance(done, Run), "a Batch task gives its trials, not a run"
    return done


def parts_of(by: Runner | None) -> int:
    """How many workers ``by`` runs at once (1 here)."""
    return int(getattr(by, "parts", 1) or 1)


def run_instances(
    name: str | Job,
    options: Options | None = None,
    *,
    runner: Runner | None = None,
    parts: int | None = None,
    batched: bool = True,
    progress: Callable[[int, int, str], None] | None = None,
    checked: bool = False,
) -> Summary:
    """Run ``options.instances`` random instances of ``name`` and summarise them.

    The instances are split into batches (``parts`` of them, default one per worker of
    ``runner``), each batch run on one machine in lockstep; the summary is the same whatever
    the split and whichever runner ran them. ``batched=False`` runs every instance on its own
    machine (the one-by-one reference). ``name`` may be a job :func:`refuse_instances` made
    (``checked``: and checked already).
    """
    job = name if checked and isinstance(name, Job) else refuse_instances(name, options)
    tasks = batch_tasks(job, parts or parts_of(runner), batched)
    start = time.perf_counter()
    done = ordered(tasks, runner, progress=progress)
    seconds = time.perf_counter() - start
    trials = tuple(t for batch in done for t in trials_of(batch))
    return Summary(job.entry, job.options, trials, len(tasks), seconds)


def batch_tasks(job: Job, parts: int, batched: bool = True) -> list[Batch]:
    """The job's seeds as batch tasks, at least ``parts`` of them (see :func:`batches_of`)."""
    o = job.options
    return [Batch(job.entry.name, o, chunk, batched, job=job)
            for chunk in batches_of(instance_seeds(o), parts)]
