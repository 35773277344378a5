"""What every command ends with: its exit status, and with ``--json`` one JSON line.

0 when the run finished and everything it checks holds, 1 when it finished but something it
checks failed (a wrong answer, a violation under the chosen model, a bound exceeded), 2 for
invalid arguments or input (one line naming the value and the fix).
"""

from __future__ import annotations

import json
import signal
import sys
from typing import Any

#: Exit status: everything checked holds / something checked failed / invalid input.
OK, FAILED, INVALID = 0, 1, 2


#: How many JSON lines this process printed (the command's, or the one saying it did not end).
printed: list[bool] = []


def print_json(obj: Any) -> None:
    """``obj`` as one line of JSON on standard output (the only thing ``--json`` prints there).

    The line is written whole: the signals that end a command wait until it is out (a reader
    slow to take 190 KB got half the object, then the object saying the command was
    interrupted), and then end it as usual, the object already printed."""
    line = json.dumps(obj) + "\n"
    before = _hold()
    try:
        printed.append(True)  # first: a signal met as the write returns must not add a second
        sys.stdout.write(line)
        sys.stdout.flush()
    finally:
        if before is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _hold() -> set[int | signal.Signals] | None:
    """Block the signals that end a command (``pram._startup.HANDLED``, the table the command
    line handles) in this thread, where the system can (POSIX); the mask before, to put back
    (None: not held)."""
    from pram._startup import HANDLED  # (the one table of them)

    try:
        return signal.pthread_sigmask(signal.SIG_BLOCK, HANDLED)
    except (AttributeError, OSError, ValueError):
        return None
