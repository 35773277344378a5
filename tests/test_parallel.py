"""reports.parallel: sweeps in processes and on Dask give the serial counts, in order."""

from __future__ import annotations

import json
import pickle
import socket
import sys
from collections.abc import Iterator, Sequence

import attrs
import pytest

from pram import AddressError, ConflictError, InputError, StepError
from pram.reports import parallel
from pram.reports.cli import main
from pram.reports.measure import execute
from pram.reports.parallel import Dask, Done, Processes, Serial, Task, run_all, runner, weight
from pram.reports.registry import Options
from tests.commands import refusal

#: A tiny mixed batch: two algorithms, sizes out of order, so order and rebuild both matter.
TASKS = [
    Task("sort", Options(n=32)),
    Task("mqar", Options(n=48)),
    Task("sort", Options(n=8)),
    Task("mqar", Options(n=96, keys="bits", d=4)),
]


def sweep_json(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, object]:
    """``pram sweep mqar --n 48,96,192 --json`` plus ``extra``, without wall-clock seconds."""
    assert main(["sweep", "mqar", "--n", "48,96,192", "--json", *extra]) == 0
    obj = json.loads(capsys.readouterr().out)
    for run in obj["runs"]:
        del run["seconds"]
    assert isinstance(obj, dict)
    return obj


def test_processes_give_the_serial_runs_in_order() -> None:
    """Two worker processes return every run, in the tasks' order, equal to a serial run's."""
    serial = [r.as_dict(wall_clock=False) for r in run_all(TASKS, Serial())]
    pooled = [r.as_dict(wall_clock=False) for r in run_all(TASKS, Processes(2))]
    assert pooled == serial
    assert [(r["algorithm"], r["n"]) for r in pooled] == [(t.name, t.options.n) for t in TASKS]


def test_progress_is_called_as_each_run_finishes() -> None:
    """progress gets (0, total) before the first run, then one call per finished run."""
    calls: list[tuple[int, int, str]] = []
    run_all(TASKS[:2], Serial(), progress=lambda i, n, what: calls.append((i, n, what)))
    assert calls == [(0, 2, "n=32"), (1, 2, "n=32"), (2, 2, "n=48")]


def test_done_hands_out_stored_runs_and_runs_the_others() -> None:
    """A Done runner returns the very run it holds for a task, and runs a task it lacks."""
    held = execute("sort", Options(n=8))
    runs = run_all([Task("sort", Options(n=8)), Task("sort", Options(n=16))],
                   Done({Task("sort", Options(n=8)): held}))
    assert runs[0] is held
    assert runs[1].as_dict(wall_clock=False) == execute("sort", Options(n=16)).as_dict(
        wall_clock=False)


def test_weight_starts_a_sweeps_largest_run_first() -> None:
    """Within one sweep the guess grows with N, and with d for bit keys."""
    sizes = [Task("mqar", Options(n=n)) for n in (48, 96, 192, 384)]
    assert sorted(sizes, key=weight, reverse=True) == sizes[::-1]
    assert weight(Task("mqar", Options(n=96, keys="bits", d=8))) > weight(
        Task("mqar", Options(n=96, keys="bits", d=4)))


def test_runner_follows_the_command_line() -> None:
    """--dask wins over --workers; one worker runs here; no --workers means ``default``."""
    assert runner(2, "local") == Dask("local", 2)
    assert runner(1) == Serial()
    assert runner(None) == Serial()
    assert runner(3) == Processes(3)
    assert runner(None, default=2) == Processes(2)


def test_sweep_with_two_workers_prints_the_serial_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``pram sweep --workers 2`` prints the same JSON as the serial sweep, seconds aside."""
    assert sweep_json(capsys, "--workers", "2") == sweep_json(capsys)


def test_dask_runs_on_an_in_process_cluster() -> None:
    """A LocalCluster of threads returns the serial runs, in order."""
    serial = [r.as_dict(wall_clock=False) for r in run_all(TASKS, Serial())]
    threaded = run_all(TASKS, Dask("local", 1, processes=False))
    assert [r.as_dict(wall_clock=False) for r in threaded] == serial


def test_unreachable_scheduler_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A port where nothing listens is refused within the timeout: one line, exit 2."""
    monkeypatch.setitem(vars(parallel), "CONNECT_TIMEOUT", 1)
    status = main(["sweep", "sort", "--n", "8,16", "--dask", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err.strip()
    assert status == 2
    assert err == (
        "pram sweep: error: --dask 'tcp://127.0.0.1:9': no Dask scheduler answered within 1 s; "
        "start one with 'dask scheduler' and workers with 'dask worker ADDRESS', or use --dask "
        "local"
    )
    assert "\n" not in err


def test_missing_dask_names_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without Dask installed, --dask says which extra to install, in one line, exit 2."""
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    assert refusal(capsys, "sweep", "sort", "--n", "8,16", "--dask", "local") == (
        "pram sweep: error: --dask needs the optional Dask extra, which is not installed; "
        "install it with pip install 'pramsim[dask]'"
    )


def test_zero_workers_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """--workers 0 is refused in one line naming the value."""
    assert refusal(capsys, "sweep", "sort", "--n", "8,16", "--workers", "0") == (
        "pram sweep: argument --workers: invalid worker count '0'; give a positive integer, "
        "e.g. 2"
    )


def test_pram_errors_survive_pickling() -> None:
    """Every machine error crosses a process boundary with its class, message and subject."""
    violation = execute("pbs-naive", Options(n=16)).first_violations[0]
    errors = [
        InputError("--n must be positive (got 0)"),
        StepError("step 3 is malformed", 3),
        AddressError("out of range", step=1, array="a", index=9, processor=2),
        ConflictError(violation),
    ]
    for error in errors:
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error)
        assert str(back) == str(error)
        assert vars(back) == vars(error)


@attrs.frozen
class Scripted:
    """A runner that reports the tasks' outcomes in a given order (errors for some indices)."""

    order: tuple[int, ...]
    failing: frozenset[int]

    def results(self, tasks: Sequence[Task]) -> Iterator[tuple[int, object]]:
        """Yield each index of ``order``: an InputError naming it, or its serial run."""
        for i in self.order:
            yield i, InputError(f"task {i}") if i in self.failing else execute(
                tasks[i].name, tasks[i].options)


def test_the_first_failing_task_in_order_is_the_error() -> None:
    """A later task failing first does not hide an earlier task's error, as in a serial run."""
    with pytest.raises(InputError, match=r"^task 1$"):
        run_all(TASKS, Scripted((3, 1, 0, 2), frozenset({1, 3})))  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"^task 3$"):
        run_all(TASKS, Scripted((3, 0, 1, 2), frozenset({3})))  # type: ignore[arg-type]


def test_an_error_in_a_worker_is_reported_as_in_a_serial_sweep(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A ConflictError raised in a worker process prints the serial sweep's line, exit 1."""
    argv = ["sweep", "pbs-naive", "--n", "16,32", "--mode", "raise"]
    assert main(argv) == 1
    serial = capsys.readouterr().err
    assert main([*argv, "--workers", "2"]) == 1
    assert capsys.readouterr().err == serial
    assert serial.strip().startswith("pram sweep: ConflictError: EREW forbids concurrent reads:")


def test_a_port_that_never_speaks_dask_times_out_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A listening socket that never answers is refused within the timeout, exit 2."""
    monkeypatch.setitem(vars(parallel), "CONNECT_TIMEOUT", 1)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        status = main(["sweep", "sort", "--n", "8,16", "--dask", address])
    assert status == 2
    assert capsys.readouterr().err.strip() == (
        f"pram sweep: error: --dask {address!r}: no Dask scheduler answered within 1 s; start "
        "one with 'dask scheduler' and workers with 'dask worker ADDRESS', or use --dask local"
    )


def test_a_malformed_scheduler_address_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """--dask with no port names the value and the form to give, exit 2."""
    assert refusal(capsys, "sweep", "sort", "--n", "8,16", "--dask", "myhost") == (
        "pram sweep: error: --dask 'myhost' is not a scheduler address (missing port number in "
        "address 'myhost'); give tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786, or local"
    )


def die(task: Task) -> dict[str, object]:
    """A worker's work that ends its process at once, as the system's out-of-memory killer does."""
    import os

    os._exit(9)


def test_a_dying_worker_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker process that dies is named in one line with the fix, not a pool's traceback."""
    from pram.reports import parallel

    with pytest.raises(parallel.WorkerDied, match="worker process died"):
        run_all(TASKS, Processes(2, work=die))
    monkeypatch.setitem(vars(parallel), "Processes", lambda workers: Processes(workers, work=die))
    assert main(["sweep", "sort", "--n", "8,16", "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert err.strip().startswith("pram sweep: error: a worker process died")
    assert "--max-memory" in err
    assert len(err.strip().splitlines()) == 1
