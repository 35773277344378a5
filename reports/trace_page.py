"""The step-through page of a trace: one self-contained HTML file, no network, vanilla JS.

:func:`write` turns a :class:`pram.trace.Trace` into a page that steps through the run: the
shared arrays as rows of cells; at each step the cells read (blue) and written (orange) with
the processors that touched them, the values before and after, the conflicts marked (red) and
named as in the conflict report with every processor listed; step forward and back, jump to a
step, run to the next conflict, the next phase or the next breakpoint (on a phase, or on a
cell: double-click it); a per-processor view (what processor p read, wrote and held, step by
step); the ledger's time, work, reads and writes as of the step; the activity profile as a
timeline to click. Arrays longer than :data:`WHOLE` cells show their first and last cells and
the region the step touched, which the *zoom* button opens whole. Keys: left and right arrows,
Home, End, ``c`` (next conflict), ``p`` (next phase), ``b`` (next breakpoint).

Elements the tests (and a reader's own scripts) can find: ``#step-number``, ``#step-count``,
``#phase``, ``#time``, ``#work``, ``#reads``, ``#writes``; every shown cell is a ``.cell`` with
``data-array``, ``data-index`` (row-major), ``data-cell`` (its name: ``a[5]``, or ``T[1, 2]`` in
a two-dimensional array, as the terminal trace names it; such an array is shown row by row),
``data-value`` (after the step), ``data-before`` and ``data-processors`` where touched, and the
classes ``read``, ``write``, ``conflict``.

A page written with the run's depths (``pram trace --depth``, :mod:`pram.depth`) gives every
cell ``data-depth`` (its depth as of the step), a band coloured from pale (depth 0) to dark (the
largest), and on a click the cell's critical chain in ``#chain``: one ``.link`` per version,
``data-array``, ``data-index``, ``data-step`` and ``data-depth``, a click going to its step;
the cells whose value as of the step is on the chain have the class ``chain``.

``Trace.to_html(path)`` calls :func:`write` (found through the distribution's entry point, so
that ``pram`` imports nothing of the reports), and a trace in a notebook shows :func:`inline`.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from pram.depth import Depths
from pram.reports import writer
from pram.trace import Trace

__all__ = ["WHOLE", "inline", "page", "write"]

#: Arrays of at most this many cells are shown whole; longer ones are summarised.
WHOLE = 64

#: JavaScript numbers hold integers exactly up to 2^53; larger words travel as text.
_EXACT = 1 << 53


def _pack(values: list[int]) -> Any:
    """A list of integers as compactly as JSON allows: an arithmetic run as its start, stride
    and length (``{"a": [s, d, n]}``), words beyond 2^53 as strings, else the list."""
    n = len(values)
    if n >= 4:
        stride = values[1] - values[0]
        if all(values[i + 1] - values[i] == stride for i in range(n - 1)) and (
            abs(values[0]) < _EXACT and abs(values[-1]) < _EXACT
        ):
            return {"a": [values[0], stride, n]}
    if any(abs(v) >= _EXACT for v in values):
        return {"s": [str(v) for v in values]}
    return values


def data(trace: Trace, depths: Depths | None = None) -> dict[str, Any]:
    """The trace as the page reads it: :meth:`pram.trace.Trace.as_dict` with lists packed,
    and with ``depths`` (a machine's :class:`pram.Depths` of the same run) every version of
    every cell (:meth:`pram.Depths.versions`), or null."""
    raw = trace.as_dict()
    raw["whole"] = WHOLE
    raw["depths"] = None if depths is None else {
        key: column if key == "array" else _pack(column)
        for key, column in depths.versions().items()}
    for array in raw["arrays"]:
        array["values"] = _pack(array["values"])
        if array["defined"] is not None:
            array["defined"] = _pack(array["defined"])
    for step in raw["steps"]:
        step["processors"] = _pack(step["processors"])
        for access in step["accesses"]:
            for key in ("processors", "cells", "values", "before", "after", "defined"):
                if key in access:
                    access[key] = _pack(access[key])
    return raw


def page(trace: Trace, title: str = "pram trace", depths: Depths | None = None) -> str:
    """The whole page, as text (with the cells' depths when ``depths`` is given)."""
    payload = json.dumps(data(trace, depths), separators=(",", ":")).replace("</", "<\\/")
    return (
        _TEMPLATE.replace("{{title}}", html.escape(title))
        .replace("{{style}}", _asset("trace_page.css"))
        .replace("{{script}}", _asset("trace_page.js"))
        .replace("{{data}}", payload)
    )


def _asset(name: str) -> str:
    """A file installed beside this module (the page's style sheet and script)."""
    return resources.files(__package__ or "pram.reports").joinpath(name).read_text("utf-8")


def write(trace: Trace, path: str | Path, title: str | None = None,
          depths: Depths | None = None) -> Path:
    """Write the page of ``trace`` to ``path`` (UTF-8), with the cells' depths when
    ``depths`` (the same run's) is given; return the path."""
    target = Path(path)
    return writer.save_text(
        target, page(trace, title or f"pram trace: {target.stem}", depths), "--html")


def inline(trace: Trace, height: int = 720) -> str:
    """The page in an ``iframe`` for a notebook's output (its script runs inside the frame)."""
    return (
        f'<iframe class="pram-trace-viewer" style="width:100%;height:{height}px;border:1px '
        f'solid #ccc" srcdoc="{html.escape(page(trace), quote=True)}"></iframe>'
    )


_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>{{title}}</title><style>{{style}}</style></head>
<body>
<header><h1>{{title}}</h1><div id="summary"></div></header>
<nav id="controls">
 <button id="first" title="first step (Home)">|&#x25C0;</button>
 <button id="prev" title="back one step (left arrow)">&#x25C0;</button>
 <span>step <input id="jump" type="number" min="1" size="5" title="jump to a step">
 <b id="step-number"></b> of <b id="step-count"></b></span>
 <button id="next" title="forward one step (right arrow)">&#x25B6;</button>
 <button id="last" title="last step (End)">&#x25B6;|</button>
 <button id="next-conflict" title="next step with a conflict (c)">next conflict</button>
 <button id="next-phase" title="next step of another phase (p)">next phase</button>
 <button id="next-break" title="next breakpoint (b)">next breakpoint</button>
 <label>break on phase <select id="break-phase"><option value="">add...</option></select></label>
 <label>break on cell <input id="break-cell" placeholder="a[i] or T[r, c]" size="14"></label>
 <span id="breakpoints"></span>
 <label title="hide the arrays this step does not touch"><input id="only-touched" type="checkbox">
 only arrays touched</label>
</nav>
<section id="timeline"><div class="caption">activity: processors per step
 (click to go there; red: a conflict)</div>
 <svg id="profile" preserveAspectRatio="none"></svg></section>
<section id="status">
 <div>phase <b id="phase"></b></div>
 <div class="ledger">as of this step: time <b id="time"></b>, round <b id="rounds"></b>,
 work <b id="work"></b>,
 reads <b id="reads"></b>, writes <b id="writes"></b></div>
 <div class="ledger">this step: <b id="active"></b> processors, <b id="step-reads"></b> reads,
 <b id="step-writes"></b> writes</div>
</section>
<section id="conflicts"></section>
<section id="memory"></section>
<section id="chain"></section>
<section id="processor"><h2>processor <input id="pid" type="number" min="0" size="6"></h2>
 <div id="proc-view"></div></section>
<footer>read <span class="swatch" style="background:#dbe9ff;border-color:#36c"></span>
 written <span class="swatch" style="background:#ffe2c2;border-color:#e80"></span>
 conflict <span class="swatch" style="border:2px solid #d00"></span>
 breakpoint <span class="swatch" style="outline:2px dashed #808"></span>;
 double-click a cell to break on it; keys: arrows, Home, End, c, p, b</footer>
<script type="application/json" id="trace-data">{{data}}</script>
<script>{{script}}</script>
</body></html>
"""
