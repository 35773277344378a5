"""Signals: SIGINT, SIGTERM and SIGHUP (and SIGALRM and SIGXCPU, an alarm or a CPU-time limit
a program or a shell set) end every command alike, quickly, leaving nothing behind.

What ``timeout``, ``kill``, a CI cancel, a closed terminal and Ctrl-C send all end a command
the same way: one line (``pram sweep: interrupted``, ``... terminated``, ``... hung up``), exit
status 128 + the signal's number (130, 143, 129), within a second or two, and no process
outliving the command.

- :func:`install` (the main process, once): each of the three signals raises :class:`Stopped`
  (a :class:`KeyboardInterrupt`, so every ``finally`` and every handler of Ctrl-C runs). A
  signal the caller ignores (``nohup``, a background job's Ctrl-C) stays ignored. A second
  signal while the first is handled (a second after it, or later: ``timeout`` sends its
  signal twice at once) ends the process at once, after killing the workers.
- :func:`worker_start` (each worker process, first thing): Ctrl-C, which the terminal sends to
  the whole process group, is left to the main process, which ends the workers itself; a
  worker whose main process dies is killed by the kernel (Linux).
- :func:`track` / :func:`untrack`: the worker processes of the command, ended by
  :func:`end_workers` (terminated, not waited for), on a signal as on any failure.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterable
from types import FrameType
from typing import Any

from pram._startup import HANDLED  # (the signals handled, and how the one line names each)


class Stopped(KeyboardInterrupt):
    """The command was stopped by the signal ``number`` (one of :data:`HANDLED`)."""

    def __init__(self, number: int = signal.SIGINT) -> None:
        super().__init__(number)
        self.number = int(number)

    @property
    def status(self) -> int:
        """The exit status, as shells report a process ended by the signal: 128 + number."""
        return 128 + self.number

    @property
    def words(self) -> str:
        """The signal in words: ``interrupted``, ``terminated``, ``hung up``."""
        return HANDLED.get(signal.Signals(self.number), "stopped")


def words_of(status: int) -> str | None:
    """The words of the handled signal that ends a command with exit ``status`` (128 + its
    number): ``interrupted`` for 130; None for any other status."""
    number = status - 128
    return HANDLED.get(signal.Signals(number)) if number in HANDLED else None


def stopped(error: BaseException) -> Stopped:
    """``error`` as a :class:`Stopped` (a plain KeyboardInterrupt is Ctrl-C)."""
    return error if isinstance(error, Stopped) else Stopped(signal.SIGINT)


#: The processes of the command's workers (each with ``kill()``, as multiprocessing's have).
_workers: dict[int, Any] = {}


def track(processes: Iterable[Any]) -> None:
    """Count ``processes`` among the command's workers, to end on a signal."""
    for process in processes:
        if getattr(process, "pid", None) is not None:
            _workers[process.pid] = process


def untrack(processes: Iterable[Any]) -> None:
    """Forget ``processes`` (they have ended)."""
    for process in processes:
        _workers.pop(getattr(process, "pid", -1), None)


def end_workers(processes: Iterable[Any] = ()) -> None:
    """Kill ``processes`` and every tracked worker now: terminated, never waited for."""
    every = {**_workers, **{p.pid: p for p in processes if getattr(p, "pid", None)}}
    for process in every.values():
        with contextlib.suppress(Exception):
            process.kill()
    for process in every.values():  # reap them (a killed process ends within milliseconds)
        with contextlib.suppress(Exception):
            process.join(1)
    _workers.clear()


#: The signals received by this process, in order.
_received: list[int] = []


def received() -> bool:
    """Whether a handled signal stopped this process."""
    return bool(_received)


def exit_now(status: int) -> None:
    """End the process with ``status`` at once, once its streams are flushed: after a signal,
    no exit hook may keep the command alive."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            if stream is not None:
                stream.flush()
    os._exit(status)


#: Seconds after the first signal during which another is the same request again (``timeout``
#: sends its signal to the command and to its process group, so the command gets it twice).
ECHO = 1.0

_first: list[float] = []


def _raise(number: int, frame: FrameType | None) -> None:
    import time

    _received.append(number)
    _first.append(time.monotonic())
    for other in HANDLED:  # a second signal ends at once
        with contextlib.suppress(ValueError, OSError):
            if signal.getsignal(other) is _raise:
                signal.signal(other, _end_now)
    raise Stopped(number)


def _end_now(number: int, frame: FrameType | None) -> None:
    import time

    if _first and time.monotonic() - _first[0] < ECHO:
        return  # the same request again: the first one is being handled
    end_workers()
    with contextlib.suppress(Exception):
        sys.stderr.write(f"pram: {HANDLED.get(signal.Signals(number), 'stopped')}\n")
        sys.stderr.flush()
    os._exit(128 + number)


#: The handlers :func:`install` replaced, put back by :func:`finish` (``main`` may be called
#: more than once in one process, as the tests do).
_previous: dict[int, Any] = {}


def install() -> None:
    """Raise :class:`Stopped` on each signal of :data:`HANDLED` in this (the main) process; a
    signal already ignored stays ignored. Main thread only (elsewhere nothing is changed)."""
    for number in HANDLED:
        with contextlib.suppress(ValueError, OSError):
            handler = signal.getsignal(number)
            if handler is not signal.SIG_IGN and handler is not _raise:
                _previous[number] = handler
                signal.signal(number, _raise)


def worker_start() -> None:
    """The first thing a worker process does: Ctrl-C is the main process's to handle (it ends
    the workers), SIGTERM and SIGHUP end the worker at once, and so does its parent's death.
    The worker was started with SIGINT blocked (:func:`starting_workers`), so a Ctrl-C during
    its start-up (its imports) is dropped here, not raised in the middle of an import."""
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    die_with_parent()


@contextlib.contextmanager
def starting_workers() -> Any:
    """Block SIGINT in this thread while the block starts worker processes: a new process
    inherits the mask, so a terminal's Ctrl-C (sent to the whole process group) waits in a
    worker until :func:`worker_start` ignores it, instead of a KeyboardInterrupt traceback
    from the middle of its imports. Here the signal is handled as soon as the block ends."""
    try:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    except (AttributeError, ValueError, OSError):  # no POSIX signal masks
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent dies (Linux; elsewhere nothing)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        set_death_signal = 1  # PR_SET_PDEATHSIG
        libc.prctl(set_death_signal, signal.SIGKILL, 0, 0, 0)
        if os.getppid() == 1:  # the parent died before the request: end now
            os._exit(128 + signal.SIGKILL)


@contextlib.contextmanager
def held() -> Any:
    """Hold the handled signals back while the block runs (main thread only); the first one
    caught is raised as :class:`Stopped` afterwards (the moves of a report into place)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {}
    for number in HANDLED:
        with contextlib.suppress(ValueError, OSError):
            if signal.getsignal(number) is not signal.SIG_IGN:
                previous[number] = signal.signal(number, lambda got, frame: caught.append(got))
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if caught:
            raise Stopped(caught[0])


def _children(exclude: int | None) -> list[int]:
    """The live child processes of this process (Linux's /proc; elsewhere none)."""
    me, found = os.getpid(), []
    with contextlib.suppress(OSError):
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == exclude:
                continue
            with contextlib.suppress(OSError, IndexError, ValueError):
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == me and fields[0] != "Z":
                    found.append(int(entry))
    return found


def _reap(pids: list[int], seconds: float) -> list[int]:
    """Wait up to ``seconds`` for ``pids`` (children) to end; return those still alive."""
    import time

    deadline = time.monotonic() + seconds
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        for pid in list(alive):
            with contextlib.suppress(ChildProcessError, OSError):
                if os.waitpid(pid, os.WNOHANG)[0] == 0:
                    continue
            alive.remove(pid)
        if alive:
            time.sleep(0.01)
    return alive


def finish() -> None:
    """The last thing the main process does: no worker, and no multiprocessing resource
    tracker, outlives it. The tracker would end by itself once the command's processes are
    gone, but after the command, as an orphan; stopped here (once what it tracks has been
    released), it ends before the command does, and silently.

    After a signal, every child process still there (a Dask cluster's workers among them) is
    killed, and the semaphores of multiprocessing are released as its exit hook would, since
    a stopped command skips the exit hooks (:func:`exit_now`)."""
    for number in HANDLED:  # a signal from now on ends at once, quietly
        with contextlib.suppress(ValueError, OSError):
            if signal.getsignal(number) is _raise:
                signal.signal(number, _end_now)
    end_workers()
    tracker_module = sys.modules.get("multiprocessing.resource_tracker")
    tracker = getattr(tracker_module, "_resource_tracker", None)
    tracker_pid = getattr(tracker, "_pid", None)
    if received():
        left = _children(exclude=tracker_pid)
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        _reap(left, 1.0)
        with contextlib.suppress(Exception):
            util = sys.modules.get("multiprocessing.util")
            if util is not None:
                util._run_finalizers(0)
    if not received():
        for signum, handler in _previous.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(signum, handler)
        _previous.clear()
    if tracker is None or getattr(tracker, "_fd", None) is None:
        return
    import gc

    gc.collect()  # the pool's queues, so that their semaphores are released first
    with contextlib.suppress(Exception):
        os.close(tracker._fd)
        tracker._fd = None
    if tracker_pid is not None and _reap([tracker_pid], 2.0):
        with contextlib.suppress(OSError):
            os.kill(tracker_pid, signal.SIGKILL)
        _reap([tracker_pid], 0.5)
    with contextlib.suppress(Exception):
        tracker._pid = None
