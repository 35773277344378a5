"""Where the runs of a sweep execute: here, in local processes, or on a Dask cluster.

A task (:class:`pram.reports.tasks.Task`) is what one run needs, an algorithm's name and its
:class:`Options`; a worker rebuilds the instance and a fresh machine from it and runs it, so no
machine ever travels between processes, only options out and the finished run's figures back.
A runner yields runs as they finish; :func:`run_all` puts them back in the order of the tasks,
so a sweep's counts and output order are the same whichever runner ran it. A
:class:`pram.reports.tasks.Batch` task (``--instances K``) is a batch of seeds: its worker
runs them in lockstep on one batched machine and sends back their trials (plain values).

>>> from pram.reports.registry import Options
>>> from pram.reports.tasks import Task, run_all
>>> [r.cost.time > 0 for r in run_all([Task("sort", Options(n=8)), Task("sort", Options(n=16))])]
[True, True]
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from pram import InputError, PRAMError
from pram.reports.entries import algorithm
from pram.reports.runs import Run, execute
from pram.reports.tasks import Batch, Done, Outcome, Runner, Serial, Task, perform, run_all
from pram.reports.trials import Trial

#: Seconds to wait for a Dask scheduler to answer before giving up.
CONNECT_TIMEOUT = 5

#: The command that installs the optional Dask extra.
DASK_INSTALL = "pip install 'pramsim[dask]'"


class WorkerDied(PRAMError, RuntimeError):
    """A worker process ended without finishing its runs, most often stopped by the system for
    using too much memory."""

    def __init__(self) -> None:
        super().__init__(
            "a worker process died during the runs (most often the system stops one that uses "
            "too much memory); give smaller sizes, fewer --workers, or a lower --max-memory so "
            "the size guard refuses them before any work"
        )


#: Processor-operations a step costs beside its work, in :func:`weight`'s guess (a small step
#: costs tens of microseconds, a processor-operation of a large step about a tenth of one).
STEP_COST = 1000.0


def weight(task: Task) -> float:
    """A guess of how long ``task`` runs, to start the largest runs first: its work bounds plus
    ``STEP_COST`` times its time bounds, at the sizes asked for.

    Only the order in which runs start depends on it, never a count.
    """
    o = task.options
    n = float(o.n or 2)
    d = float(o.d or 16) if o.keys == "bits" else 1.0
    sizes = {"N": n, "n": n, "m": float(o.m or n), "d": d}
    guess = 0.0
    for key, bound in algorithm(task.name).bounds.items():
        try:
            value = bound.formula(sizes)
        except (KeyError, ValueError, ArithmeticError):
            continue
        guess = max(guess, value * (1.0 if key.startswith("work") else STEP_COST))
    return (guess or n) * _count(task)


def _count(task: Task) -> int:
    """The instances ``task`` runs: a batch's seeds, else one."""
    return len(task.seeds) if isinstance(task, Batch) else 1


def execute_fields(task: Task) -> dict[str, Any]:
    """Run ``task`` on a fresh machine and return its :class:`Run` as picklable fields (for a
    :class:`Batch`, its trials, plain values already).

    The registry entry (which holds functions) stays behind; :func:`_rebuild` looks it up again
    by name on the other side.
    """
    if isinstance(task, Batch):
        return {"trials": perform(task)}
    run = execute(task.name, task.options)
    return {f.name: getattr(run, f.name) for f in attrs.fields(type(run)) if f.name != "algorithm"}


def _rebuild(task: Task, fields: dict[str, Any]) -> Run | tuple[Trial, ...]:
    if isinstance(task, Batch):
        trials: tuple[Trial, ...] = fields["trials"]
        return trials
    return Run(algorithm=algorithm(task.name), **fields)


def _largest_first(tasks: Sequence[Task]) -> list[int]:
    return sorted(range(len(tasks)), key=lambda i: -weight(tasks[i]))


@attrs.frozen
class Processes:
    """The runs in ``workers`` local processes, largest first, under one memory ceiling.

    The ceiling (``max_memory``, else the memory available) is shared: a run starts only when
    its need (``Algorithm.memory``) and those of the runs going fit together
    (:class:`pram.reports.guard.Budget`). Workers ignore Ctrl-C and die with the main process
    (:func:`pram.reports.signals.worker_start`); on a signal or any failure they are killed,
    never waited for.
    """

    workers: int
    #: What each worker does with a task (a module-level function, which spawn can import).
    work: Callable[[Task], dict[str, Any]] = execute_fields
    max_memory: int | None = None

    @property
    def parts(self) -> int:
        """How many tasks run at once: the batches ``--instances`` is split into."""
        return self.workers

    def results(self, tasks: Sequence[Task]) -> Iterator[tuple[int, Outcome]]:
        """Submit the tasks, largest first, to a pool of fresh processes, as the ceiling
        admits them."""
        import multiprocessing
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
        from concurrent.futures.process import BrokenProcessPool

        from pram.reports import signals
        from pram.reports.guard import Budget, ceiling, need_of

        limit = self.max_memory
        if limit is None and tasks:
            limit = tasks[0].options.max_memory
        budget = Budget(ceiling(limit))
        needs = {i: _need(tasks[i], need_of) for i in range(len(tasks))}
        waiting = _largest_first(tasks)
        # Fresh interpreters: forking a process whose progress bar runs a thread is unsafe.
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context,
                                   initializer=signals.worker_start)
        pending: dict[Any, int] = {}

        def submit() -> None:
            while waiting and len(pending) < self.workers:
                i = next((i for i in waiting if budget.admits(needs[i])), None)
                if i is None:
                    return
                try:
                    with signals.starting_workers():  # submit starts a worker when it needs one
                        future = pool.submit(self.work, tasks[i])
                except BrokenProcessPool:  # a worker died: the runs not started cannot run
                    return
                waiting.remove(i)
                budget.start(i, needs[i])
                pending[future] = i
            signals.track(list(getattr(pool, "_processes", {}).values()))

        finished_well = False
        try:
            submit()
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    i = pending.pop(future)
                    budget.finish(i)
                    error = future.exception()
                    if isinstance(error, BrokenProcessPool):
                        error = WorkerDied()
                    yield i, error if isinstance(error, Exception) else _rebuild(
                        tasks[i], future.result())
                submit()
            for i in list(waiting):  # never started: the pool broke under them
                yield i, WorkerDied()
            finished_well = True
        finally:
            processes = list(getattr(pool, "_processes", {}).values())
            if not finished_well:  # a signal, a failure, or the caller stopped: kill them
                signals.end_workers(processes)
            pool.shutdown(wait=True, cancel_futures=True)
            signals.untrack(processes)


def _need(task: Task, need_of: Callable[..., float]) -> float:
    try:
        return need_of(task.name, task.options) * _count(task)
    except Exception:  # a run refused later, in its worker, in its own words
        return 0.0


@attrs.frozen
class Dask:
    """The runs as tasks on a Dask distributed cluster, largest first.

    ``address`` is a scheduler's (``tcp://host:8786``) or ``local`` for a LocalCluster of
    ``workers`` processes (default: one per core) started and stopped here. The workers must
    be able to import pram (the same installation, or the same version installed there).
    """

    address: str
    workers: int | None = None
    #: For a local cluster: worker processes (True) or threads in this process (False).
    processes: bool = True

    @property
    def parts(self) -> int:
        """The batches ``--instances`` is split into: one per worker asked for, else one per
        core (a remote cluster's workers are not counted before it is reached)."""
        return self.workers or _cores()

    def results(self, tasks: Sequence[Task]) -> Iterator[tuple[int, Outcome]]:
        """Submit every task, largest first (also by priority), and yield them as they finish."""
        distributed = _import_distributed()
        cluster = None
        finished_well = False
        try:
            if self.address == "local":
                cluster = distributed.LocalCluster(
                    n_workers=self.workers or _cores(),
                    threads_per_worker=1,
                    processes=self.processes,
                    dashboard_address=":0",
                    silence_logs=logging.ERROR,
                )
                client = distributed.Client(cluster)
            else:
                client = _connect(distributed, self.address)
            with client:
                futures = {
                    client.submit(execute_fields, tasks[i], pure=False,
                                  priority=len(tasks) - rank): i
                    for rank, i in enumerate(_largest_first(tasks))
                }
                for future in distributed.as_completed(futures):
                    i = futures[future]
                    error = future.exception() if future.status == "error" else None
                    if isinstance(error, distributed.KilledWorker):
                        error = WorkerDied()
                    yield i, error if isinstance(error, Exception) else _rebuild(
                        tasks[i], future.result())
            finished_well = True
        finally:
            if cluster is not None:
                if finished_well:
                    cluster.close()
                else:  # stopped: the local workers are killed, not asked to finish
                    import multiprocessing

                    from pram.reports import signals

                    closing = importlib.import_module("distributed.core").Status.closing
                    for nanny in getattr(cluster, "workers", {}).values():
                        nanny.status = closing  # so that a killed worker stays dead
                    signals.end_workers(multiprocessing.active_children())
                    with contextlib.suppress(Exception):
                        cluster.close(timeout=1)


def _import_distributed() -> Any:
    try:
        import dask.distributed as distributed
    except ImportError:
        raise InputError(
            f"--dask needs the optional Dask extra, which is not installed; install it with "
            f"{DASK_INSTALL}"
        ) from None
    return distributed


def _connect(distributed: Any, address: str) -> Any:
    """A client of the scheduler at ``address``, or a one-line InputError within the timeout.

    A first bare connection, bounded by the timeout, checks that a Dask scheduler answers:
    the client alone can wait for ever on a port that accepts but never speaks Dask.
    """
    import asyncio
    import importlib

    connect: Any = importlib.import_module("distributed.comm").connect

    async def probe() -> None:
        comm = await asyncio.wait_for(connect(address, timeout=CONNECT_TIMEOUT),
                                      CONNECT_TIMEOUT)
        await comm.close()

    try:
        asyncio.run(probe())
        return distributed.Client(address, timeout=f"{CONNECT_TIMEOUT}s")
    except ValueError as error:
        raise InputError(
            f"--dask {address!r} is not a scheduler address ({_reason(error)}); give "
            f"tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786, or local"
        ) from None
    except (KeyboardInterrupt, InputError):
        raise
    except Exception:  # refused, silent, or not Dask (an HTTP port; its reply read as a size)
        raise InputError(
            f"--dask {address!r}: no Dask scheduler answered within {CONNECT_TIMEOUT} s; start "
            f"one with 'dask scheduler' and workers with 'dask worker ADDRESS', or use --dask "
            f"local"
        ) from None


def _reason(error: Exception) -> str:
    """The error's message on one line, at most 120 characters."""
    reason = " ".join(str(error).split())
    return reason if len(reason) <= 120 else reason[:117] + "..."


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def runner(workers: int | None = None, dask: str | None = None, *,
           default: int | None = 1, max_memory: int | None = None) -> Runner:
    """The runner the command line asks for: ``--dask``, else ``--workers`` processes.

    Without ``--workers``, ``default`` processes (None: one per core); one process means every
    run here, in this process. ``--workers`` with a remote scheduler is refused (its workers
    are its own), and so is an address of a scheme pram cannot reach, before any work.
    """
    if dask is not None:
        if dask != "local":
            check_address(dask)
            if workers is not None:
                raise InputError(
                    f"--workers {workers} does not apply with --dask {dask!r}: a remote "
                    "scheduler's workers are its own; leave --workers out, or use --dask local"
                )
        return Dask(dask, workers)
    count = workers if workers is not None else default if default is not None else _cores()
    if count == 1:
        return Serial()
    return Processes(count) if max_memory is None else Processes(count, max_memory=max_memory)


#: The address schemes pram connects to (tls:// needs certificates, ucx:// a UCX build).
SCHEMES = ("tcp",)


def check_address(address: str) -> None:
    """Refuse a ``--dask`` address pram cannot connect to, before any work: one line."""
    scheme, sep, rest = address.partition("://")
    host = rest if sep else address
    if sep and scheme not in SCHEMES:
        raise InputError(
            f"--dask {address!r}: pram reaches a scheduler over tcp:// only ({scheme}:// needs "
            "settings pram does not take); give tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786, or "
            "local"
        )
    name, colon, port = host.rpartition(":")
    if colon and name and port.isdigit() and not 0 < int(port) < 65536:
        raise InputError(
            f"--dask {address!r}: port {port} is out of range; give tcp://HOST:PORT with a "
            "port from 1 to 65535, e.g. tcp://127.0.0.1:8786, or local"
        )


__all__ = [
    "Dask", "Done", "Processes", "Runner", "Serial", "Task", "WorkerDied", "execute_fields",
    "run_all", "runner", "weight",
]
