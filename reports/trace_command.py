"""``pram trace ALGORITHM``: run one instance on a tracing machine, then show the trace.

``--html FILE`` writes the step-through page (:mod:`pram.reports.trace_page`); ``--steps 1-5``
prints those steps as tables (:mod:`pram.reports.trace_view`); ``--trace-cells`` sets the
ceiling of cells the trace may hold (:data:`pram.trace.CEILING` by default), above which the
run is refused with the figure to give instead: when the arrays alone exceed it, before the
first step. The command exits 0 once the trace is shown, whatever the run's verdicts (the
conflicts of ``pbs-naive`` are what its page is for; ``pram run`` judges them), and 2 for bad
input, a ceiling too low included.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console

from pram import InputError
from pram.reports.entries import algorithm
from pram.reports.options import Options
from pram.reports.preflight import writable_file
from pram.reports.status import print_json
from pram.trace import CEILING, TraceLimitError

__all__ = ["CEILING", "HELP", "trace"]

HELP = {
    "html": "write the step-through page of the run to FILE (.html)",
    "steps": "print these steps as tables, e.g. 1-5 or 2,7,9-11",
    "trace-cells": f"the most cells the trace may record (default {CEILING:,})",
}


def trace(
    name: str, options: Options, *, html: str | None, steps: str | None,
    trace_cells: int | None, as_json: bool, out: Console, err: Console,
) -> int:
    """Run ``name`` traced and show the trace as asked; return the exit status."""
    from pram.reports.measure import execute

    if html is None and steps is None:
        raise InputError(
            f"pram trace {name} needs --html FILE (the step-through page) or --steps 1-5 "
            "(tables on the terminal), or both"
        )
    entry = algorithm(name)
    if not entry.on_machine:
        raise InputError(
            f"{name} runs off the machine (the program counts its own operations), so it has no "
            "steps to trace; trace an algorithm that runs on the machine, e.g. mqar"
        )
    target = writable_file(html, "--html", (".html",), options) if html else None
    ceiling = CEILING if trace_cells is None else trace_cells
    try:
        run = execute(name, options, trace_cells=ceiling)
    except TraceLimitError as refused:
        # Count the run untraced, so that the refusal names the ceiling that fits it.
        cost = execute(name, options).cost
        needed = cost.memory_cells + cost.reads + cost.writes
        raise InputError(
            f"the trace of {name} here records {needed:,} cells ({cost.memory_cells:,} of "
            f"memory, {cost.reads + cost.writes:,} reads and writes), beyond the ceiling of "
            f"{refused.ceiling:,} (refused before step {refused.step}); give --trace-cells "
            f"{needed} or more, or a smaller --n"
        ) from None
    recorded = run.trace
    assert recorded is not None
    if steps is not None:
        from pram.reports.trace_view import parse_steps, tables

        numbers = parse_steps(steps, len(recorded.steps))
        (err if as_json else out).print(tables(recorded, numbers))
    if target is not None:
        from pram.reports import trace_page

        sizes = ", ".join(f"{k}={v}" for k, v in run.sizes.items())
        trace_page.write(recorded, target, f"pram trace {name} ({sizes}, {run.model})",
                         run.depths)
        err.print(f"wrote {target} ({target.stat().st_size:,} bytes)", highlight=False,
                  soft_wrap=True)
    summary: dict[str, Any] = {
        "algorithm": name, **{k: int(v) for k, v in run.sizes.items()}, "model": options.model,
        "steps": len(recorded.steps), **recorded.totals(),
        "conflicts": sum(len(s.conflicts) for s in recorded.steps),
        "cells": recorded.cells, "ceiling": recorded.ceiling,
        "html": None if target is None else str(target),
        "correct": run.correct,  # the answer against the reference (None with --no-check)
    }
    if as_json:
        print_json(summary)
    else:
        answer = {True: "", False: "; the answer is WRONG", None: ""}[run.correct]
        out.print(f"{name}: {recorded.summary()}{answer}", highlight=False, soft_wrap=True)
    return 0
