"""Notebook display of a run and a sweep: ``_repr_html_`` (tables, verdicts, plots inline) and
``__rich__`` (the same as plain text).

:class:`RunDisplay` and :class:`SweepDisplay` are mixed into :class:`pram.reports.measure.Run`
and :class:`pram.reports.measure.Sweep`; they read only public attributes, so this module
imports nothing of :mod:`pram.reports.measure` (the plots, drawn only when a sweep is shown,
are imported then). A sweep shows its runs, each bound check with its verdict (the table of
:class:`pram.Check`) and, when matplotlib is installed, its measured/formula plot as an inline
PNG figure.
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any

from pram import InputError
from pram.display import html_table, text_table

__all__ = ["RunDisplay", "SweepDisplay", "figure_html"]

_RUN_HEADER = ["sizes", "model", "time", "work", "reads", "writes", "local", "violations",
               "correct"]


def _run_row(run: Any) -> list[object]:
    c = run.cost
    sizes = ", ".join(f"{k}={v}" for k, v in run.sizes.items())
    correct = "not checked" if run.correct is None else ("yes" if run.correct else "NO")
    return [sizes, run.model, c.time, c.work, c.reads, c.writes, c.local, run.violations,
            correct]


def figure_html(figure: Any, caption: str) -> str:
    """A matplotlib figure as an inline PNG ``<figure>`` with its caption."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (f'<figure class="pram-plot"><img alt="{html.escape(caption)}" '
            f'src="data:image/png;base64,{data}"><figcaption>{html.escape(caption)}'
            "</figcaption></figure>")


class RunDisplay:
    """``_repr_html_`` and ``__rich__`` for a run: what ran, what it cost, what it checked."""

    __slots__ = ()

    def _bounds(self) -> list[list[object]]:
        run: Any = self
        return [[key, b.formula, f"{b.ratio:.4g}"] for key, b in run.bounds.items()]

    def _repr_html_(self) -> str:
        run: Any = self
        parts = [html_table(f"{run.algorithm.name}: {run.algorithm.title}", _RUN_HEADER,
                            [_run_row(run)]),
                 run.cost._repr_html_()]
        if run.bounds:
            parts.append(html_table("bounds (measured / formula)",
                                    ["measure", "formula", "ratio"], self._bounds()))
        if run.first_violations:
            parts.append("<ul>" + "".join(f"<li>{html.escape(v.message)}</li>"
                                          for v in run.first_violations) + "</ul>")
        return '<div class="pram-run">' + "\n".join(parts) + "</div>"

    def __rich__(self) -> str:
        run: Any = self
        lines = [text_table(f"{run.algorithm.name}: {run.algorithm.title}", _RUN_HEADER,
                            [_run_row(run)])]
        if run.bounds:
            lines.append(text_table("bounds (measured / formula)",
                                    ["measure", "formula", "ratio"], self._bounds()))
        lines += [v.message for v in run.first_violations]
        return "\n".join(lines)


class SweepDisplay:
    """``_repr_html_`` and ``__rich__`` for a sweep: its runs, its checks with their verdicts,
    and its plot inline."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        sweep: Any = self
        parts = [html_table(f"sweep of {sweep.algorithm.name}", _RUN_HEADER,
                            [_run_row(r) for r in sweep.runs])]
        for check in {**sweep.checks, **sweep.phase_checks}.values():
            parts.append(check._repr_html_())
        try:
            from pram.reports.plots import ratio_figure

            figure = ratio_figure({sweep.algorithm.name: sweep})
        except InputError:  # matplotlib is an optional extra: without it the tables still show
            pass
        else:
            parts.append(figure_html(figure, f"{sweep.algorithm.name}: measured / formula"))
        return '<div class="pram-sweep">' + "\n".join(parts) + "</div>"

    def __rich__(self) -> str:
        sweep: Any = self
        lines = [text_table(f"sweep of {sweep.algorithm.name}", _RUN_HEADER,
                            [_run_row(r) for r in sweep.runs])]
        lines += [check.__rich__() for check in {**sweep.checks, **sweep.phase_checks}.values()]
        return "\n\n".join(lines)
