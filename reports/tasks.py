"""Where runs execute: a task, a runner, the runs back in order.

The runners that send tasks to other processes or a Dask cluster are in
:mod:`pram.reports.parallel`; here are the task, the protocol, the serial runner and the
runner of runs already made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeAlias

import attrs

from pram.declaration import drawing
from pram.reports.options import Options
from pram.reports.runs import Job, Run, perform_job, prepare
from pram.reports.trials import Trial, run_job_batch


@attrs.frozen(getstate_setstate=False)  # the task's own, which leave the job behind
class Task:
    """One run to do: algorithm ``name`` with ``options`` (picklable, cheap to send).

    ``job``: the entry and options already prepared and checked here (by a sweep, once per
    size), so a run in this process neither looks the entry up nor checks the options again;
    it stays behind when the task is sent to another process, which prepares its own.
    """

    name: str
    options: Options
    job: Job | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

    def __getstate__(self) -> dict[str, Any]:
        """The task as sent to a worker: everything but the job (its entry holds functions)."""
        return {f.name: getattr(self, f.name) for f in attrs.fields(type(self))
                if f.name != "job"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in {**state, "job": None}.items():
            object.__setattr__(self, key, value)

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
    :func:`ordered`)."""
    return [r for r in ordered(tasks, by, progress=progress, label=label)
            if isinstance(r, Run)]


def ordered(
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

@attrs.frozen(getstate_setstate=False)  # Task's, which leave the job behind
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
    """Do ``task`` here: a run, or for a :class:`Batch` its trials (with the task's job when
    it was prepared in this process, else one prepared now)."""
    job = task.job
    with drawing():  # a declaration's instances: one child process per task
        if isinstance(task, Batch):
            return run_job_batch(job or prepare(task.name, task.options), task.seeds,
                                 batched=task.batched)
        return perform_job(job or prepare(task.name, task.options), checked=job is not None)

