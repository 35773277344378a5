"""Register overhead: the engine with registers against the same engine with plain arrays.

The budget (issue 19): registers cost at most 10% more than plain numpy on
``pram run mqar --n 786432 --no-check``. This script measures both sides the same way:

- ``registers``: the command as it is;
- ``plain``: the same command in a process where registers are replaced by the plain arrays
  they hold and ids are not frozen (``pram.engine.core``, ``pram.registers.holding`` and
  ``pram.engine.validate`` make plain arrays, so the program's elementwise work is numpy's own,
  without the allow-list, the ids' checks or the local-work count).

Each side runs in its own process; the processes alternate (plain, registers, plain, ...), so
a change in the shared machine's load falls on both sides alike, and each pair gives a ratio
of CPU seconds (user + system of the child). Run it from the top of the checkout::

    python benchmarks/registers.py --pairs 4 --n 786432

It prints each pair and the mean ratio. ``--side plain`` or ``--side registers`` runs one side
in this process (what the pairs call). The plain side is a baseline, not a PRAM: it counts no
local work and refuses nothing, so its counts are not the machine's.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import subprocess
import sys
import time
from typing import Any


def plain() -> None:
    """Replace registers by the plain arrays they hold, and freezing ids by nothing."""
    from pram.engine import core as _engine
    from pram.engine import fast as _fast
    from pram.engine import validate as _validate
    from pram.registers import holding, ids

    def values(data: Any, processors: Any = None, run: Any = None) -> Any:
        return data

    def unfrozen(ids: Any) -> Any:
        return ids

    _engine.Register = values  # type: ignore[misc, assignment]
    _fast.Register = values  # type: ignore[misc, assignment]
    holding.Register = values  # type: ignore[misc, assignment]
    holding.freeze = unfrozen
    _validate.freeze = unfrozen
    ids.freeze = unfrozen  # a program's own freeze (imported after this) freezes nothing too


def side(which: str, n: int) -> None:
    """Run the mqar command once on this side, in this process; print its CPU seconds."""
    if which == "plain":
        plain()
    from pram.reports.cli import main

    start = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()):
        status = main(["run", "mqar", "--n", str(n), "--no-check"])
    if status != 0:
        raise SystemExit(f"the {which} side exited {status}")
    print(f"{time.process_time() - start:.3f}")


def child(which: str, n: int) -> float:
    """CPU seconds (user + system) of one child process running one side."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--side", which, "--n", str(n)],
        check=True, stdout=subprocess.DEVNULL,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pairs", type=int, default=4, help="alternating pairs (default 4)")
    parser.add_argument("--n", type=int, default=786432, help="mqar's n (default 786432)")
    parser.add_argument("--side", choices=("plain", "registers"),
                        help="run one side in this process")
    options = parser.parse_args()
    if options.pairs < 1 or options.n < 3:
        parser.error("--pairs must be at least 1 and --n at least 3")
    if options.side is not None:
        side(options.side, options.n)
        return
    ratios = []
    for pair in range(options.pairs):
        baseline = child("plain", options.n)
        measured = child("registers", options.n)
        ratios.append(measured / baseline)
        print(f"pair {pair + 1}: registers {measured:.2f} s, plain {baseline:.2f} s, "
              f"+{100 * (ratios[-1] - 1):.1f}%", flush=True)
    mean = sum(ratios) / len(ratios)
    print(f"mean: registers cost {100 * (mean - 1):.1f}% more than plain arrays "
          f"({100 * (min(ratios) - 1):.1f}% to {100 * (max(ratios) - 1):.1f}% per pair)")


if __name__ == "__main__":
    main()
