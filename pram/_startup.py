"""Signals while the ``pram`` command starts: one line and exit 128 + the signal, never a traceback.

Loading the commands takes a moment (seconds on a busy machine); a Ctrl-C then would print a
traceback from deep inside an import, and a SIGTERM or SIGHUP would end the process with no
word. Importing :mod:`pram` as the ``pram`` command (and :func:`pram.reports.cli.main`) calls
:func:`hold_interrupts` first, which makes each of SIGINT, SIGTERM and SIGHUP end the process at
once with one line (``pram: terminated``) and exit 130, 143 or 129, and
:func:`release_interrupts` once the commands are loaded; from then on the command line handles
them itself (:mod:`pram.reports.signals`, with the same words). A library import installs no
handler.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from types import FrameType

#: The signals that end a command, and how its one line names each (an alarm or a CPU-time
#: limit a user's program or shell set ends it so too, not with the shell's word alone).
HANDLED = {
    signal.SIGINT: "interrupted",
    signal.SIGTERM: "terminated",
    signal.SIGHUP: "hung up",
    signal.SIGALRM: "alarm clock",
    signal.SIGXCPU: "CPU time limit exceeded",
}

#: What each signal's handler was before :func:`hold_interrupts` (what the command found:
#: Python's own Ctrl-C handler, or the default end of the process), put back by
#: :func:`release_interrupts`.
_found: dict[int, object] = {}
#: The command's arguments while it loads (whether ``--json`` asks for the one object).
_arguments: list[str] = []


def _end(number: int, frame: FrameType | None) -> None:
    """One line, and with ``--json`` the command's one JSON object saying so (the object a
    command stopped later prints: ``pram.reports.cli``), then exit 128 + the signal."""
    try:
        words = HANDLED.get(signal.Signals(number), "stopped")
        line = f"pram: {words}"
        sys.stderr.write(f"{line}\n")
        sys.stderr.flush()
        tokens = _arguments
        if "--json" in tokens:
            import json

            command = next((t for t in tokens if not t.startswith("-")), None)
            sys.stdout.write(json.dumps({"command": command, "ok": False, "error": words,
                                         "status": 128 + number, "message": line}) + "\n")
            sys.stdout.flush()
    finally:
        os._exit(128 + number)


def hold_interrupts(arguments: Sequence[str] | None = None) -> None:
    """End the process with one line and exit 128 + the signal on SIGINT, SIGTERM or SIGHUP
    (main thread only; a signal the caller ignores, as a background job's Ctrl-C or nohup's
    SIGHUP, stays ignored, and a handler someone else installed stays theirs). ``arguments``
    are the command's (default: the process's), for the JSON object ``--json`` asks for."""
    _arguments[:] = sys.argv[1:] if arguments is None else arguments
    with contextlib.suppress(ValueError, OSError):  # not the main thread: change nothing
        for number in HANDLED:
            found = signal.getsignal(number)
            if found is signal.default_int_handler or found is signal.SIG_DFL:
                _found[number] = found
                signal.signal(number, _end)


def release_interrupts() -> None:
    """Give each signal back the handler it had (a KeyboardInterrupt the command line catches
    for Ctrl-C; its own handlers for all three are installed next)."""
    with contextlib.suppress(ValueError, OSError):
        for number, found in list(_found.items()):
            if signal.getsignal(number) is _end:
                signal.signal(number, found)  # type: ignore[arg-type]
            del _found[number]
