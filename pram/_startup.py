"""Ctrl-C while the ``pram`` command starts: one line and exit 130, never a traceback.

Loading the commands takes a moment; an interrupt then would print a traceback from deep inside
an import. The console entry point (:func:`pram.reports.cli.main`, the only caller) calls
:func:`hold_interrupts` first, which ends the process at once with one line, and
:func:`release_interrupts` once the commands are loaded; from then on it handles Ctrl-C itself.
Importing :mod:`pram` installs no handler.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from types import FrameType

#: The exit status of a process ended by Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130


def _end(number: int, frame: FrameType | None) -> None:
    try:
        sys.stderr.write("pram: interrupted\n")
        sys.stderr.flush()
    finally:
        os._exit(INTERRUPTED)


def hold_interrupts() -> None:
    """End the process with one line and exit 130 on Ctrl-C (main thread only; an ignored
    Ctrl-C, as in a background job, stays ignored)."""
    with contextlib.suppress(ValueError):  # not the main thread: leave Python's handler
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _end)


def release_interrupts() -> None:
    """Give Ctrl-C back to Python (a KeyboardInterrupt the command line catches)."""
    with contextlib.suppress(ValueError):
        if signal.getsignal(signal.SIGINT) is _end:
            signal.signal(signal.SIGINT, signal.default_int_handler)
