"""Rich renderings of runs, sweeps and zoology scores: what ``pram`` prints on a terminal.

Each report is an object with ``__rich__``, so a caller prints it with any rich console (the
tests render into ``Console(file=io.StringIO(), width=100)`` and compare text).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Column, Table
from rich.text import Text

from pram import Check
from pram.reports.instances import Summary
from pram.reports.options import Options, setting_parts
from pram.reports.runs import Run, formula_text, phase_rows
from pram.reports.sweeps import Sweep
from pram.reports.verdicts import verdict_words

#: Phases shown in a run's breakdown before the rest are summarised in one line.
SHOWN_PHASES = 40
#: Nesting levels of phases a run's report shows by default (``sort``, ``sort/merge``).
PHASE_DEPTH = 2


def number(x: float) -> str:
    """An integer with thousands separators, or a float with four significant digits (an
    integer beyond a float's range, an exact law's prediction at 10^400 say, by its digits)."""
    if isinstance(x, int) and abs(x) >= 10**308:  # float(x) would overflow
        digits = str(abs(x))
        return f"{'-' * (x < 0)}{digits[0]}.{digits[1:4]}e+{len(digits) - 1}"
    if float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    if 1e3 <= abs(x) < 1e15:
        return f"{x:,.0f}"
    return f"{x:.4g}"


def side_by_side(step_phases: Sequence[Sequence[str]]) -> set[str]:
    """The phases that ran side by side with another: those that shared a step with a branch
    outside them (the branches of one global step each carry a phase label)."""
    out: set[str] = set()
    for labels in step_phases:
        if len(labels) < 2:
            continue
        for label in labels:
            parts = label.split("/")
            for i in range(len(parts)):
                phase = "/".join(parts[: i + 1])
                if any(other != phase and not other.startswith(phase + "/") for other in labels):
                    out.add(phase)
    return out


#: The marker of a phase that ran side by side with another in the phase table.
SIDE = "\u2016"


def sizes_text(run: Run) -> str:
    """``N = 3,072, d = 16`` with the symbols of the algorithm's family."""
    symbols = run.algorithm.family.symbols
    return ", ".join(f"{symbols.get(k, k)} = {number(v)}" for k, v in run.sizes.items())


def setting_text(run: Run) -> str:
    """The representation and strategy choices that matter for this algorithm."""
    o = run.options
    parts = setting_parts(run.algorithm, o)
    parts.append(f"model {run.model}")
    parts.append(f"seed {o.seed}" if o.input is None else f"input {o.input}")
    return ", ".join(parts)


def verdict(ok: bool | None, yes: str = "holds", no: str = "EXCEEDED") -> Text:
    """``yes`` in green or ``no`` in red, or a dim dash when there is nothing to decide."""
    if ok is None:
        return Text("-", style="dim")
    return Text(yes, style="green") if ok else Text(no, style="bold red")


@attrs.frozen
class RunReport:
    """The full report of one run: sizes, cost, phases, model verdict, answer and bounds."""

    run: Run
    #: How many nesting levels of phases to show (``None``: all).
    depth: int | None = PHASE_DEPTH

    def __rich__(self) -> RenderableType:
        run = self.run
        parts: list[RenderableType] = [
            Text.assemble(
                (f"{run.algorithm.title}", "bold"), f" ({run.algorithm.name})", style="default"
            ),
            Text(f"{sizes_text(run)}; {setting_text(run)}"),
        ]
        parts.extend(Text(f"note: {note}", style="yellow") for note in run.notes)
        parts.append(self._cost())
        phases = self._phases()
        if phases is not None:
            parts.append(phases)
        parts.append(self._model())
        parts.append(self._answer())
        parts.append(bounds_table(run))
        return Group(*parts)

    def _cost(self) -> Table:
        run, cost = self.run, self.run.cost
        table = _table("cost", (("measure", "left"), ("value", "right"), ("unit", "left")),
                       header=False)
        counted = "counted by the machine" if run.algorithm.on_machine else "counted by the program"
        table.add_row("time", number(cost.time), f"steps, {counted}")
        table.add_row("work", number(cost.work), "processor-steps (operations)")
        if run.algorithm.on_machine:
            table.add_row("rounds", number(cost.rounds),
                          "read, compute, write: the textbooks' steps")
            table.add_row("round work", number(cost.round_work), "processors active per round")
        table.add_row("max processors", number(cost.max_processors), "active in one step")
        if run.algorithm.on_machine:
            table.add_row("reads", number(cost.reads), "cells")
            table.add_row("writes", number(cost.writes), "cells")
            table.add_row("memory", number(cost.memory_cells), "cells allocated")
            table.add_row("peak memory", number(cost.peak_cells), "cells alive at once")
            table.add_row("local work", number(cost.local),
                          "elementwise register operations")
            table.add_row("max local work", number(cost.max_local),
                          "of them between two steps")
        table.add_row("wall clock", f"{run.seconds:.3f}", "seconds")
        return table

    def _phases(self) -> RenderableType | None:
        every = phase_rows(self.run.cost)
        rows = [r for r in every if self.depth is None or r[1] < self.depth]
        if not rows:
            return None
        heads = [("phase", "left")]
        heads += [(h, "right") for h in ("time", "rounds", "work", "reads", "writes",
                                         "max processors")]
        table = _table("phases", heads)
        beside = side_by_side(self.run.cost.step_phases)
        for label, depth, share in rows[:SHOWN_PHASES]:
            table.add_row(
                "  " * depth + label.rsplit("/", 1)[-1] + (f" {SIDE}" if label in beside else ""),
                number(share.time),
                number(share.rounds) if self.run.algorithm.on_machine else "-",
                number(share.work),
                number(share.reads),
                number(share.writes),
                number(share.max_processors),
            )
        if len(rows) > SHOWN_PHASES:
            table.add_row(f"... {len(rows) - SHOWN_PHASES} more phases", "", "", "", "", "", "")
        notes = []
        if any(depth for _, depth, _ in rows):
            notes.append("a phase's work, reads and writes are those of the rows under it plus "
                         f"its steps outside them; so is its time where no row is marked {SIDE}")
        if any(label in beside for label, _, _ in rows):
            notes.append(f"{SIDE}: ran side by side with another phase, branches of the same "
                         "steps, so their times overlap and add up to more than their parent's "
                         f"(and the run's time, {number(self.run.cost.time)})")
        if len(every) > len(rows):
            notes.append(
                f"{len(every) - len(rows)} deeper phases not shown (pram run --phases all)"
            )
        # the notes under the table, at the console's width (a caption takes the table's)
        return Group(table, *(Text(note) for note in notes))

    def _model(self) -> RenderableType:
        run = self.run
        if not run.algorithm.on_machine:
            return Text("model: RAM, one processor; not run on the PRAM, so nothing to flag")
        if run.violations == 0:
            lines = [Text.assemble(f"{run.model}: ", ("no violations", "green"))]
        else:
            lines = [
                Text.assemble(
                    f"{run.model}: ", (f"{number(run.violations)} violations", "bold red")
                )
            ]
            shown = run.first_violations
            lines.extend(Text(f"  {v.message}") for v in shown)
            if run.violations > len(shown):
                lines.append(Text(f"  ... and {number(run.violations - len(shown))} more"))
        if run.resolutions:  # tolerant, collision, collision+: cells settled without a value
            lines.append(Text(f"resolutions: {number(run.resolutions)} cells settled without "
                              "a written value", style="yellow"))
            lines.extend(Text(f"  {r.message}") for r in run.first_resolutions)
            if run.resolutions > len(run.first_resolutions):
                more = number(run.resolutions - len(run.first_resolutions))
                lines.append(Text(f"  ... and {more} more"))
        if run.undefined_reads:
            lines.append(Text(f"undefined reads: {number(run.undefined_reads)}", style="yellow"))
        if run.weakest is not None:  # --weakest-model: the text, then each model's evidence
            lines.append(Text.assemble("weakest model: ", (run.weakest.text, "bold")))
            for name, first in run.weakest.evidence.items():
                count = number(run.weakest.violations[name])
                lines.append(Text(f"  not clean under {first.model} ({count}): {first.message}"))
        if run.depth is not None:  # --depth: the largest, then the last answer's chain by phase
            lines.extend(_depth_lines(run.depth))
        return Group(*lines)

    def _answer(self) -> Text:
        run = self.run
        reference = run.algorithm.checked_against
        if run.correct is None:
            return Text("answer: not checked (--no-check)", style="dim")
        if run.correct:
            return Text.assemble("answer: ", ("correct", "green"), f" (equal to {reference})")
        return Text.assemble("answer: ", ("WRONG", "bold red"), f": {run.mismatch}")


def _depth_lines(depth: Mapping[str, Any]) -> list[Text]:
    """``pram run --depth``: the largest depth against the time, and the critical chain of
    the last answer cell, phase by phase (links made, steps spanned)."""
    lines = [Text(f"depth: largest {number(depth['max'])} in {number(depth['time'])} steps")]
    cell, chain = depth["cell"], depth["chain"]
    if cell is not None:
        parts = ", ".join(f"{p['phase']} {number(p['links'])} in {number(p['steps'])} steps"
                          for p in depth["phases"])
        lines.append(Text(f"  chain of {cell['array']}[{cell['cell']}]: "
                          f"{number(chain[0]['depth'])} links ({parts})"))
    return lines


def _header_text(column: Column, fold: bool) -> str | Text:
    """The column's header, its words one a line when ``fold``."""
    header = column.header
    if not fold:
        return header  # type: ignore[return-value]
    plain = header.plain if isinstance(header, Text) else str(header)
    return plain.replace(" ", "\n")


#: The width a wrapping column (a law) keeps before a table folds its headers or splits.
WRAP_KEEP = 24


class FitTable(Table):
    """A table that never loses a column nor cuts a value, at any width.

    Wider than the console (80 columns in a pipe or a file unless ``COLUMNS`` says otherwise),
    it first folds its headers one word a line, then lets its text columns (formula, law) wrap
    at word boundaries; if the values still do not fit side by side, it prints its columns in
    several tables, each repeating the first (the row's key), and its caption says so. Values of
    a column that does not wrap (every number) are never shortened.
    """

    def _needed(self, console: Console, options: ConsoleOptions, columns: Sequence[Column],
                fold: bool, keep: int = 0) -> int:
        """The narrowest width at which ``columns`` show every value whole: the table's width
        with nothing wrapped, less what its wrapping columns may give up (down to their
        longest word, or to ``keep`` characters where they are wider)."""
        wide = options.update(width=10_000)
        part = self._part(columns, fold, None, None)
        natural = Measurement.get(console, wide, part).maximum
        slack = 0
        for column in part.columns:
            if column.no_wrap:
                continue
            cells = [column.header, *column.cells]
            most = max(Measurement.get(console, wide, c).maximum for c in cells)
            least = max(Measurement.get(console, wide, c).minimum for c in cells)
            slack += most - max(least, min(most, keep))
        return natural - slack

    def _part(self, columns: Sequence[Column], fold: bool, title: str | Text | None,
              caption: str | Text | None, wrap: bool = False) -> Table:
        """A plain table of ``columns`` (their cells and settings), headers folded or not;
        with ``wrap``, every column wraps (folding a word longer than the column, no ellipsis):
        the last resort of a column too wide for the console beside the key."""
        part = Table(box=self.box, title=title, title_justify=self.title_justify,
                     caption=caption, caption_justify=self.caption_justify,
                     show_header=self.show_header, pad_edge=self.pad_edge,
                     collapse_padding=self.collapse_padding)
        for column in columns:
            part.add_column(_header_text(column, fold), justify=column.justify,
                            no_wrap=column.no_wrap and not wrap, style=column.style,
                            min_width=column.min_width,
                            overflow="fold" if wrap else column.overflow)
        for cells in zip(*(list(c.cells) for c in columns), strict=True):
            part.add_row(*cells)
        return part

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        columns = list(self.columns)
        # unfolded with text columns kept readable, folded so, folded with text one word wide
        for fold, keep in ((False, WRAP_KEEP), (True, WRAP_KEEP), (True, 0)):
            if self._needed(console, options, columns, fold, keep) <= width:
                if not fold:
                    yield from super().__rich_console__(console, options)
                else:
                    yield self._part(columns, True, self.title, self.caption)
                return
        # split: the key column, then as many further columns as fit, repeated
        key, rest = columns[0], columns[1:]
        groups: list[list[Column]] = []
        for column in rest:
            if groups and self._needed(console, options, [key, *groups[-1], column],
                                       True) <= width:
                groups[-1].append(column)
            else:
                groups.append([column])
        if self.title:
            yield self.title if isinstance(self.title, Text) else Text(str(self.title))
        for i, group in enumerate(groups):
            if i:
                yield Text("(continued)", style="dim")
            if self._needed(console, options, [key, *group], True) > width:
                # narrower than a key beside one value: one line a cell, "key, header: value",
                # each folded at the width, so no value is lost or cut however narrow
                yield from self._lines([key, *group])
            else:
                yield self._part([key, *group], True, None, None)
        note = (f"the columns are split into {len(groups)} tables to fit {width} columns of "
                "text; a wider terminal (or the variable COLUMNS) shows them in one")
        caption = self.caption
        if caption:
            yield Text.assemble(caption if isinstance(caption, Text) else str(caption), "; ",
                                note)
        else:
            yield Text(note)


    def _lines(self, columns: Sequence[Column]) -> RenderResult:
        """The columns as lines, one a cell: the row's key, its column's header and the value."""
        key, rest = columns[0], columns[1:]
        for row, name in enumerate(key.cells):
            for column in rest:
                value = list(column.cells)[row]
                head = " ".join(str(column.header).split())
                label = " ".join(str(name).split())
                line = Text.assemble(f"{label}, {head}: " if head else f"{label}: ",
                                     value if isinstance(value, Text) else str(value))
                line.overflow = "fold"
                yield line


def _table(title: str, heads: Sequence[tuple[str, str]], *, header: bool = True) -> Table:
    """A compact table whose numeric columns never wrap or truncate (a :class:`FitTable`)."""
    table = FitTable(
        box=box.SIMPLE_HEAD if header else box.SIMPLE,
        title=title,
        title_justify="left",
        show_header=header,
        pad_edge=False,
        collapse_padding=True,
    )
    for head, justify in heads:
        table.add_column(
            head, justify=justify, no_wrap=head != "law",  # type: ignore[arg-type]
            min_width=min(len(head), 6),
        )
    return table


def bound_sizes_text(run: Run) -> str:
    """The sizes the formulas are evaluated at, each one that differs from the size the header
    shows saying why: ``N = 96 (50 padded to 3 * 2^5)``, ``d = 1 (a word key is one word)``."""
    symbols = run.algorithm.family.symbols
    given = {symbols.get(k, k): v for k, v in run.sizes.items()}
    parts = []
    for k, v in run.bound_sizes.items():
        text = f"{k} = {number(v)}"
        if k in given and given[k] != v:
            if k == "d" and run.options.keys == "word":
                text += " (a word key is one word)"
            elif v > given[k]:
                text += f" ({number(given[k])} padded)"
            else:
                text += f" ({number(given[k])} given)"
        parts.append(text)
    return ", ".join(parts)


def bounds_table(run: Run) -> Table:
    """Each bound of ``run``: formula, its value at the run's sizes, measured, ratio, verdict."""
    table = _table(
        f"bounds (formulas at {bound_sizes_text(run)})",
        (
            ("bound", "left"),
            ("formula", "left"),
            ("measured", "right"),
            ("formula value", "right"),
            ("ratio", "right"),
        ),
    )
    for key, b in run.bounds.items():
        table.add_row(
            key,
            b.formula,
            number(b.measured),
            number(round(b.value, 1)),
            f"{b.ratio:.4g}",
        )
    table.caption = "one run decides no bound: pram sweep finds the laws and the verdicts"
    table.caption_justify = "left"
    return table


@attrs.frozen
class SweepReport:
    """A sweep: one row per size, then the decision of every bound check."""

    sweep: Sweep

    def __rich__(self) -> RenderableType:
        sweep = self.sweep
        first = sweep.runs[0]
        head = Text.assemble(
            (f"{sweep.algorithm.title}", "bold"),
            f" ({sweep.algorithm.name}) swept over {len(sweep.runs)} sizes; {setting_text(first)}",
        )
        notes = sorted({note for run in sweep.runs for note in run.notes})
        parts: list[RenderableType] = [
            head,
            *(Text(f"note: {n}", style="yellow") for n in notes[:6]),
            runs_table(sweep.runs),
            checks_table(sweep.checks, options=sweep.options),
            *(check_line(c, key, sweep.options) for key, c in sweep.checks.items()),
        ]
        if sweep.phase_checks:
            parts.append(checks_table(sweep.phase_checks, "phase checks (each against its own "
                                      "bound)", options=sweep.options))
        parts.append(laws_table(sweep))
        return Group(*parts)


def runs_table(runs: Sequence[Run], title: str = "runs") -> Table:
    """One row per run: sizes, time, work, processors, violations, answer and ratios."""
    first = runs[0]
    symbols = first.algorithm.family.symbols
    shown = shown_sizes(first)
    heads = [(symbols.get(k, k), "right") for k in shown]
    heads += [("time", "right"), ("rounds", "right"), ("work", "right"), ("procs", "right"),
              ("viol", "right"), ("answer", "left")]
    heads += [(f"{key}/f", "right") for key in first.bounds]
    heads += [("s", "right")]
    table = _table(title, heads)
    table.caption = "procs: max processors; viol: violations; x/f: measured x / its formula"
    if len(shown) < len(first.sizes):
        table.caption += (
            "; word keys: a token is one word, so the formulas use d = 1 (the token width "
            "does not enter the counts)"
        )
    table.caption_justify = "left"
    for run in runs:
        answer = (
            Text("-", style="dim")
            if run.correct is None
            else Text("ok", style="green")
            if run.correct
            else Text("WRONG", style="bold red")
        )
        violations = Text(number(run.violations), style="bold red" if run.violations else "")
        table.add_row(
            *(number(run.sizes[k]) for k in shown),
            number(run.cost.time),
            number(run.cost.rounds) if run.algorithm.on_machine else "-",
            number(run.cost.work),
            number(run.cost.max_processors),
            violations,
            answer,
            *(f"{b.ratio:.4g}" for b in run.bounds.values()),
            f"{run.seconds:.2f}",
        )
    return table


def shown_sizes(run: Run) -> list[str]:
    """The sizes a table shows next to ratios: not the token width of word keys (d = 1 there)."""
    if run.options.keys == "word" and run.bound_sizes.get("d") == 1:
        return [k for k in run.sizes if k != "d"]
    return list(run.sizes)


#: The terminal style of each bound verdict.
VERDICT_STYLES = {"exceeded": "bold red", "undetermined": "yellow", "holds": "green"}


def verdict_text(c: Check, **details: Any) -> Text:
    """The bound verdict's words (:func:`pram.reports.verdicts.verdict_words`, shouted when
    exceeded, with ``details``): ``holds, tight`` in green, ``EXCEEDED`` in red,
    ``undetermined`` in yellow (the details plain)."""
    text = Text(verdict_words(c, form="shout", **details))
    text.stylize(VERDICT_STYLES[c.verdict], 0, len(verdict_words(c, form="shout")))
    return text


def checks_table(
    checks: Mapping[str, Check], title: str = "bound checks", *, options: Options | None = None
) -> Table:
    """The decision of each bound check: formula, ratios first and last, law, verdict."""
    table = _table(
        title,
        (
            ("bound", "left"),
            ("formula", "left"),
            ("first ratio", "right"),
            ("last ratio", "right"),
            ("law", "left"),
            ("verdict", "left"),
        ),
    )
    for key, c in checks.items():
        table.add_row(
            key,
            formula_text(c.formula, options),
            f"{c.ratios[0]:.4g}",
            f"{c.ratios[-1]:.4g}",
            c.law.text,
            verdict_text(c),
        )
    return table


def check_line(c: Check, key: str, options: Options | None = None) -> Text:
    """One sentence deciding a check, e.g. ``work / (N d log2(N)^2) holds, tight: ...``."""
    return Text.assemble(
        f"{key}: {c.measure} / ({formula_text(c.formula, options)}) ",
        verdict_text(c, reason=True, constant=".4g"),
    )


def laws_table(sweep: Sweep) -> Table:
    """The law of each measure (and phase), exact or least squares, with its predictions."""
    laws = sweep.laws()
    heads = [("measure", "left"), ("law", "left"), ("how", "left")]
    heads += [(f"at {number(p)}", "right") for p in sweep.predict]
    table = _table("laws", heads)
    for name, law in laws.items():
        how = (
            f"exact on {law['sizes']} sizes"
            if law["exact"]
            else f"least squares, largest residual {number(round(law['max_residual'], 1))}"
        )
        table.add_row(
            name,
            f"{law['formula']}, {law['scale']}",
            how,
            *(number(v) if isinstance(v, int) else "beyond a float" if v is None
              else f"{v:,.1f}" for v in law["predictions"].values()),
        )
    return table


def summary_setting(summary: Summary) -> str:
    """The settings line of a summary: options, model and the seeds."""
    o, seeds = summary.options, summary.seeds
    parts = setting_parts(summary.algorithm, o)
    parts.append(f"model {summary.model}")
    parts.append(f"seeds {seeds[0]} to {seeds[-1]}" if len(seeds) > 1 else f"seed {seeds[0]}")
    return ", ".join(parts)


#: The words of each count in a summary's table.
COUNT_UNITS = {
    "time": "steps", "work": "processor-steps", "rounds": "rounds (read, compute, write)",
    "round_work": "processors active per round, summed", "reads": "cells", "writes": "cells",
    "local": "register operations", "max_local": "register operations between two steps",
    "max_processors": "active in one step", "memory_cells": "cells allocated",
    "peak_cells": "cells alive at once", "loop_tests": "loop tests",
}


def stat(x: float) -> str:
    """A min, mean or max: an integer as such, a mean with two decimals."""
    return number(x) if float(x).is_integer() else f"{x:,.2f}"


@attrs.frozen
class SummaryReport:
    """K instances of one algorithm: each count's min / mean / max, the answers, the
    violations per instance, and measured / formula of each bound."""

    summary: Summary

    def __rich__(self) -> RenderableType:
        s = self.summary
        count = len(s.trials)
        symbols = s.algorithm.family.symbols
        sizes = ", ".join(f"{symbols.get(k, k)} = {number(v)}" for k, v in s.sizes.items())
        parts: list[RenderableType] = [
            Text.assemble((f"{s.algorithm.title}", "bold"),
                          f" ({s.algorithm.name}) on {number(count)} random instances"),
            Text(f"{sizes}; {summary_setting(s)}"),
        ]
        notes = sorted({n for t in s.trials for n in t.notes})
        parts.extend(Text(f"note: {note}", style="yellow") for note in notes[:6])
        varying = set(s.varying())
        table = _table("counts over the instances", (
            ("measure", "left"), ("min", "right"), ("mean", "right"), ("max", "right"),
            ("unit", "left")))
        for measure, stats in s.counts().items():
            table.add_row(measure.replace("_", " "), stat(stats["min"]), stat(stats["mean"]),
                          stat(stats["max"]), COUNT_UNITS.get(measure, "")
                          + (" (data-dependent)" if measure in varying else ""))
        counted = "machine" if s.algorithm.on_machine else "program"
        how = ("each in lockstep on one machine" if s.lockstep
               else "one machine per instance (no batched run for these options)")
        table.caption = (f"every count by the {counted} while each instance ran; "
                         f"{number(s.batches)} batch{'es' if s.batches != 1 else ''}, {how}; "
                         f"{s.seconds:.3f} s")
        table.caption_justify = "left"
        parts.append(table)
        parts.append(self._model())
        parts.append(self._answers())
        bounds = s.bounds()
        if bounds:
            ratios = _table("bounds: measured / formula over the instances", (
                ("bound", "left"), ("formula", "left"), ("min", "right"), ("mean", "right"),
                ("max", "right")))
            for key, b in bounds.items():
                r = b["ratio"]
                ratios.add_row(key, b["formula"], f"{r['min']:.4g}", f"{r['mean']:.4g}",
                               f"{r['max']:.4g}")
            ratios.caption = ("one size decides no bound: pram sweep --instances K finds the "
                              "laws of the mean and the maximum")
            ratios.caption_justify = "left"
            parts.append(ratios)
        return Group(*parts)

    def _model(self) -> RenderableType:
        s = self.summary
        if not s.algorithm.on_machine:
            return Text("model: RAM, one processor; not run on the PRAM, so nothing to flag")
        if not s.violations:
            return Text.assemble(f"{s.model}: ", ("no violations", "green"),
                                 f" in any of the {number(len(s.trials))} instances")
        flagged = s.flagged
        lines = [Text.assemble(
            f"{s.model}: ", (f"{number(s.violations)} violations", "bold red"),
            f" in {number(len(flagged))} of {number(len(s.trials))} instances")]
        lines.extend(Text(f"  {m}") for m in s.first_violations())
        return Group(*lines)

    def _answers(self) -> Text:
        s = self.summary
        reference = s.algorithm.checked_against
        if not s.checked:
            return Text("answers: not checked (--no-check)", style="dim")
        wrong = s.wrong
        if not wrong:
            return Text.assemble("answers: ", (f"all {number(s.checked)} correct", "green"),
                                 f" (each equal to {reference})")
        return Text.assemble(
            "answers: ", (f"{number(len(wrong))} of {number(s.checked)} WRONG", "bold red"),
            f"; first: seed {wrong[0].seed}: {wrong[0].mismatch}")


@attrs.frozen
class InstancesSweepReport:
    """K instances at every size: one row per size (mean and max of the counts), then the
    verdicts and laws of the mean and the maximum."""

    sweep: Sweep

    def __rich__(self) -> RenderableType:
        sweep = self.sweep
        first = sweep.summaries[0]
        count = len(first.trials)
        head = Text.assemble(
            (f"{sweep.algorithm.title}", "bold"),
            f" ({sweep.algorithm.name}) swept over {len(sweep.summaries)} sizes, "
            f"{number(count)} random instances at each; {summary_setting(first)}",
        )
        varying = sweep.varying()
        shown = [m for m in ("time", "work", *varying) if m in first.counts()]
        shown = list(dict.fromkeys(shown))
        symbols = sweep.algorithm.family.symbols
        names = [k for k in first.sizes if not (k == "d" and first.options.keys == "word"
                                                and first.bound_sizes.get("d") == 1)]
        heads = [(symbols.get(k, k), "right") for k in names]
        for m in shown:
            heads += [(f"{m} mean", "right"), (f"{m} max", "right")]
        heads += [("viol", "right"), ("answers", "left")]
        table = _table("sizes (mean and max over the instances)", heads)
        for s in sweep.summaries:
            counts = s.counts()
            row: list[str | Text] = [number(s.sizes[k]) for k in names]
            for m in shown:
                row += [stat(counts[m]["mean"]), number(counts[m]["max"])]
            wrong = len(s.wrong)
            answers = (Text("-", style="dim") if not s.checked else
                       Text(f"{s.correct}/{s.checked}", style="bold red" if wrong else "green"))
            row += [Text(number(s.violations), style="bold red" if s.violations else ""),
                    answers]
            table.add_row(*row)
        table.caption = ("data-dependent counts: " + (", ".join(varying) or "none (every "
                         "instance of a size has the same counts)") + "; viol: violations over "
                         "the instances; answers: correct / checked")
        table.caption_justify = "left"
        parts: list[RenderableType] = [head, table,
                                       checks_table(sweep.checks, options=sweep.options)]
        if sweep.count_checks:
            parts.append(checks_table(sweep.count_checks, "data-dependent counts against the "
                                      "work bound (information)", options=sweep.options))
        parts.append(laws_table(sweep))
        return Group(*parts)


@attrs.frozen
class ZoologyReport:
    """The score of a zoology batch: examples, labelled positions, accuracy, violations."""

    score: Mapping[str, Any]

    def __rich__(self) -> RenderableType:
        s = self.score
        table = _table(f"zoology batch {s.get('file', '')}", (("what", "left"), ("value", "right")),
                       header=False)
        table.add_row("examples", number(s["examples"]))
        table.add_row("sequence length", number(s["length"]))
        table.add_row("key-value pairs", number(s["num_kv_pairs"]))
        table.add_row("labelled positions", number(s["labeled"]))
        table.add_row("correct", number(s["correct"]))
        table.add_row("accuracy", f"{s['accuracy']:.4f}")
        table.add_row("EREW violations", number(s["violations"]))
        table.add_row("time (steps, largest example)", number(s["time"]))
        table.add_row("work (all examples)", number(s["work"]))
        ok = s["accuracy"] == 1.0 and s["violations"] == 0
        line = Text.assemble(
            "Algorithm 11 under EREW: ",
            verdict(ok, "every labelled position answered correctly, no violations", "FAILED"),
        )
        wrong = [
            Text(f"example {w['example']}, position {w['position']}: label {w['label']}, "
                 f"answer {w['answer']}" + (" (no match)" if w["answer"] == -1 else ""),
                 style="red")
            for w in s.get("mismatches", [])
        ]
        if wrong:
            missed = s["labeled"] - s["correct"]
            verb = "positions disagree" if missed != 1 else "position disagrees"
            wrong.insert(0, Text(f"{missed} labelled {verb} with the answer; the first "
                                 f"{len(wrong)}:", style="red"))
        notes = (Text(f"note: {n}", style="yellow") for n in s.get("notes", []))
        return Group(table, *notes, line, *wrong)


#: The throughput targets of the engine on a 2-core machine, per row of :func:`bench_rows`: at
#: least that many processor-steps per second for the large steps, at most that many seconds
#: per step for the tiny one.
BENCH_TARGETS = {
    "large, contiguous addresses": 25e6,
    "large, random-order addresses": 12e6,
    "tiny": 20e-6,
}

#: The most the machine's time per step may be over raw numpy's doing the same gather and
#: scatter, per key of the bench JSON's ``ratios`` (None: shown, no target).
RATIO_TARGETS: dict[str, float | None] = {
    "64": 25.0, "1024": 8.0, "large_step": None, "large_step_random": 3.0,
}

#: The most a tiny step (1 to 64 processors) may cost over a numpy gather and scatter of the
#: same size, measured in the same run (issue 24), per key of the bench JSON's
#: ``tiny_ratios``.
TINY_RATIO_TARGET = 3.0


def bench_rows(
    figures: Mapping[str, Any],
) -> list[tuple[str, int, float, float | None, bool]]:
    """(step, processors, figure, target, met) for each bench figure.

    Rows named ``... over numpy`` hold the machine's time over numpy's (at most the target),
    ``tiny`` and ``small, per step`` seconds per step, ``..., whole program`` seconds per run
    (n is in the processors column), ``..., per instance`` seconds per instance of a batched
    run and ``..., speedup`` a single run's time over that (at least the target), the others
    processor-steps per second.
    """
    large, tiny = figures["large_step"], figures["tiny_step"]
    small, ratios = figures["small_step"], figures["ratios"]
    rows: list[tuple[str, int, float, float | None]] = [
        ("large, contiguous addresses", large["processors"],
         float(large["processor_steps_per_second"]), BENCH_TARGETS["large, contiguous addresses"]),
        ("large, random-order addresses", large["processors"],
         float(large["random_order_processor_steps_per_second"]),
         BENCH_TARGETS["large, random-order addresses"]),
        ("tiny", tiny["processors"], float(tiny["seconds_per_step"]), BENCH_TARGETS["tiny"]),
    ]
    rows += [("small, per step", int(p), float(small[p]["seconds_per_step"]), None)
             for p in small]
    rows += [("small, over numpy", int(p), float(ratios[p]), RATIO_TARGETS.get(p)) for p in small]
    rows += [("tiny, over numpy", int(t["processors"]), float(t["ratio"]), TINY_RATIO_TARGET)
             for t in figures.get("tiny_ratios", {}).values()]
    rows += [
        ("large, contiguous, over numpy", large["processors"], float(ratios["large_step"]),
         RATIO_TARGETS["large_step"]),
        ("large, random-order, over numpy", large["processors"],
         float(ratios["large_step_random"]), RATIO_TARGETS["large_step_random"]),
    ]
    rows += [(f"{name}, whole program", int(run["n"]), float(run["seconds"]), None)
             for name, run in figures.get("programs", {}).items()]
    for name, run in figures.get("batched", {}).items():
        for size, row in run["batches"].items():
            rows += [
                (f"{name}, batched B = {size}, per instance", int(run["n"]),
                 float(row["seconds_per_instance"]), None),
                (f"{name}, batched B = {size}, speedup", int(run["n"]), float(row["speedup"]),
                 row["target"]),
            ]
    out = []
    for step, processors, figure, target in rows:
        if target is None:
            met = True
        elif (step.startswith("large") and "numpy" not in step) or step.endswith("speedup"):
            met = figure >= target
        else:
            met = figure <= target
        out.append((step, int(processors), figure, target, met))
    return out


@attrs.frozen
class BenchReport:
    """Simulator throughput, from the bench JSON shape of the command-line contract."""

    figures: Mapping[str, Any]

    def __rich__(self) -> RenderableType:
        table = _table("simulator throughput", (("step", "left"), ("processors", "right"),
                                                 ("measured", "right"), ("target", "right"),
                                                 ("verdict", "left")))
        for step, processors, figure, target, met in bench_rows(self.figures):
            if "numpy" in step:
                shown, goal = f"{figure:.1f}x", "" if target is None else f"<= {target:g}x"
            elif step.endswith("speedup"):
                shown, goal = f"{figure:.1f}x", "" if target is None else f">= {target:g}x"
            elif step.endswith("per instance"):
                shown, goal = f"{figure * 1e6:.1f} µs", ""
            elif step == "tiny" or step.startswith("small"):
                shown = f"{figure * 1e6:.1f} µs"
                goal = "" if target is None else f"<= {target * 1e6:g} µs"
            elif step.endswith("whole program"):
                shown, goal = f"{figure * 1e3:.2f} ms", ""
            else:
                shown = f"{figure / 1e6:.1f} M/s"
                goal = "" if target is None else f">= {target / 1e6:g} M/s"
            table.add_row(step, number(processors), shown, goal,
                          "" if target is None else verdict(met, "met", "MISSED"))
        table.caption = ("M/s: million processor-steps per second; µs: microseconds per step; "
                         "x: the machine's time per step over raw numpy's doing the same gather "
                         "and scatter, measured in the same run; ms: milliseconds per run of a "
                         "whole program at n = 1,024 (in the processors column)")
        if self.figures.get("batched"):
            table.caption += ("; batched: B instances in lockstep on one machine, µs per "
                              "instance, and speedup: a single run's time over that, measured "
                              "in the same run")
        table.caption_justify = "left"
        return table
