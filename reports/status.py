"""What every command ends with: its exit status, and with ``--json`` one JSON line.

0 when the run finished and everything it checks holds, 1 when it finished but something it
checks failed (a wrong answer, a violation under the chosen model, a bound exceeded), 2 for
invalid arguments or input (one line naming the value and the fix).
"""

from __future__ import annotations

import json
import sys
from typing import Any

#: Exit status: everything checked holds / something checked failed / invalid input.
OK, FAILED, INVALID = 0, 1, 2


#: How many JSON lines this process printed (the command's, or the one saying it did not end).
printed: list[bool] = []


def print_json(obj: Any) -> None:
    """``obj`` as one line of JSON on standard output (the only thing ``--json`` prints there)."""
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()
    printed.append(True)
