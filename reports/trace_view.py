"""The terminal view of a trace: chosen steps as rich tables, what each processor read and wrote.

``pram trace ALGORITHM --steps 1-5`` prints :func:`tables` of those steps: one table per step
(its number, phase, processors, the ledger as of the step), one row per processor acting, with
the cells it read and their values, the cells it wrote with the value before and after, and the
step's conflicts named under it as in the conflict report.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping

from rich.console import Group
from rich.table import Table
from rich.text import Text

from pram import InputError
from pram.reports.options import whole
from pram.trace import Trace, TracedStep

__all__ = ["ROWS", "parse_steps", "step_table", "tables"]

#: Processors shown per step; the rest are counted in a last row.
ROWS = 32

#: How a cell that held no value is shown (it reads as 0 underneath).
UNDEFINED = "undefined"


def parse_steps(text: str, last: int) -> list[int]:
    """``"1-5"``, ``"7"`` or ``"1,4,9-12"`` as step numbers within 1..``last``, or a refusal
    naming the value and the steps there are."""
    if last < 1:  # (no range to give: "--steps 1-0" was suggested, and refused the same)
        raise InputError(
            f"--steps {text!r} asks for steps of a run that took none; trace a size whose run "
            "takes steps (a larger --n), or write its page with --html FILE instead"
        )
    numbers: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        try:  # the command line's one rule of numbers
            first, final = whole(lo), whole(hi or lo)
        except argparse.ArgumentTypeError as error:
            raise InputError(f"--steps: {error}") from None
        if first is None or final is None:
            raise InputError(
                f"--steps {text!r} is not a list of steps; give numbers and ranges such as "
                f"1-5 or 2,7,9-11 (the run has steps 1 to {last})"
            )
        if 1 <= final < first <= last:
            raise InputError(
                f"--steps {text!r} is a range backwards ({first} down to {final}); give it "
                f"from its first step, --steps {final}-{first}"
            )
        if not 1 <= first <= final <= last:
            raise InputError(
                f"--steps {text!r} asks for steps outside the run, which has steps 1 to "
                f"{last}; give a range within them, e.g. --steps 1-{min(last, 5)}"
            )
        numbers.extend(range(first, final + 1))
    return list(dict.fromkeys(numbers))


def _cell(array: str, cell: int, columns: Mapping[str, int]) -> str:
    """A cell as the user addresses it: ``a[5]``, or ``A[1, 0]`` in a two-dimensional array
    (cells are row-major underneath; ``columns`` holds each 2-D array's columns by label)."""
    width = columns.get(array)
    return f"{array}[{cell}]" if not width else f"{array}[{cell // width}, {cell % width}]"


def step_table(step: TracedStep, rows: int = ROWS,
               columns: Mapping[str, int] | None = None) -> Group:
    """One step as a table, one row per processor (at most ``rows``), and its conflicts.
    ``columns`` (each two-dimensional array's columns, by label) names their cells by
    (row, column)."""
    columns = columns or {}
    title = (
        f"step {step.number}" + (f" ({step.phase})" if step.phase else "")
        + f": {step.step_work} processors, {step.step_reads} reads, {step.step_writes} writes"
        f" | as of it: time {step.time}, round {step.rounds}, work {step.work}, "
        f"reads {step.reads}, writes {step.writes}"
    )
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("processor", justify="right")
    table.add_column("read")
    table.add_column("wrote (before -> after)")
    read: dict[int, list[str]] = {}
    wrote: dict[int, list[str]] = {}
    for access in step.accesses:
        pids, cells, values = (access.processors.tolist(), access.cells.tolist(),
                               access.values.tolist())
        held = ([True] * len(cells) if access.defined is None
                else access.defined.tolist())  # undefined cells shown so, not as 0
        if access.kind == "read":
            for p, c, v, h in zip(pids, cells, values, held, strict=True):
                read.setdefault(p, []).append(
                    f"{_cell(access.array, c, columns)} = {v if h else UNDEFINED}")
        else:
            assert access.before is not None and access.after is not None
            before, after = access.before.tolist(), access.after.tolist()
            for p, c, v, b, a, h in zip(pids, cells, values, before, after, held, strict=True):
                landed = "" if a == v else f", {a} landed"
                wrote.setdefault(p, []).append(
                    f"{_cell(access.array, c, columns)} <- {v} ({b if h else UNDEFINED} -> "
                    f"{a}{landed})")
    conflicted = {p for v in step.conflicts for p in v.processors}
    processors = step.processors.tolist()
    for p in processors[:rows]:
        style = "red" if p in conflicted else None
        table.add_row(str(p), "; ".join(read.get(p, [])), "; ".join(wrote.get(p, [])),
                      style=style)
    if len(processors) > rows:
        table.add_row("...", f"and {len(processors) - rows} more processors", "")
    # the message names every processor unless it elides some ("... (40 in all)"): then
    # they follow, once
    notes = [Text(v.message if "..." not in v.message else
                  f"{v.message}; all of them: {', '.join(map(str, v.processors))}", style="red")
             for v in step.conflicts]
    return Group(table, *notes)


def tables(trace: Trace, numbers: Iterable[int]) -> Group:
    """The tables of steps ``numbers`` of ``trace``."""
    columns = {label: a.shape[1] for label, a in trace.arrays.items() if len(a.shape) == 2}
    return Group(*(step_table(trace.step(n), columns=columns) for n in numbers))
