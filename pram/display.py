"""How the machine's objects show themselves in a notebook and in rich: ``_repr_html_`` and
``__rich__``.

Jupyter shows an object by calling its ``_repr_html_``; rich prints an object by calling its
``__rich__``. The mixins here give :class:`pram.Machine`, :class:`pram.Cost` and
:class:`pram.Check` both: an HTML table and the same facts as plain text (``__rich__``
returns a plain string, so the machine floor still imports no rich). Each mixin reads only
public attributes of the object it is mixed into and defines ``__slots__ = ()``, so that it
adds nothing to an attrs class but the two methods. :func:`html_table` is the one table every
display uses (the reports floor too).

>>> print(html_table("cost", ["time", "work"], [[3, 12]]))  # doctest: +NORMALIZE_WHITESPACE
<table class="pram"><caption>cost</caption><thead><tr><th>time</th><th>work</th></tr></thead>
<tbody><tr><td>3</td><td>12</td></tr></tbody></table>
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

from pram._held import recorder_of as _recorder_of

__all__ = ["CheckDisplay", "CostDisplay", "MachineDisplay", "html_table", "text_table"]


def plain(x: float) -> str:
    """A size or a count as people read it: an integer as an integer (2^20 is ``1048576``, not
    ``1.04858e+06``), any other number with six significant digits."""
    value = float(x)
    if value.is_integer() and abs(value) < 1e18:
        return str(int(value))
    return f"{value:.6g}"


def html_table(caption: str, header: Sequence[object], rows: Iterable[Sequence[object]],
               *, classes: Sequence[str] = ()) -> str:
    """An HTML table (every cell escaped); ``classes`` gives each row a class, e.g. a verdict."""
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = []
    for i, row in enumerate(rows):
        cls = f' class="{html.escape(classes[i])}"' if i < len(classes) and classes[i] else ""
        body.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row)
                    + "</tr>")
    return (f'<table class="pram"><caption>{html.escape(caption)}</caption><thead><tr>{head}'
            f"</tr></thead>\n<tbody>{''.join(body)}</tbody></table>")


def text_table(caption: str, header: Sequence[object], rows: Iterable[Sequence[object]]) -> str:
    """The same table as aligned plain text, under its caption."""
    lines = [[str(h) for h in header], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = [caption] + ["  ".join(c.rjust(w) for c, w in zip(line, widths, strict=True))
                       for line in lines]
    return "\n".join(out)


_COUNTS = ("time", "work", "reads", "writes", "max_processors", "memory_cells", "peak_cells")


class CostDisplay:
    """``_repr_html_`` and ``__rich__`` for :class:`pram.Cost`: the counts, then the top-level
    phases' shares."""

    __slots__ = ()

    def _tables(self) -> list[tuple[str, list[str], list[list[object]]]]:
        cost: Any = self
        out = [("cost", list(_COUNTS), [[getattr(cost, k) for k in _COUNTS]])]
        phases = [(label, p) for label, p in cost.phases.items() if "/" not in label]
        if phases:
            out.append(("phases", ["phase", "time", "work", "reads", "writes"],
                        [[label, p.time, p.work, p.reads, p.writes] for label, p in phases]))
        return out

    def _repr_html_(self) -> str:
        return "\n".join(html_table(*t) for t in self._tables())

    def __rich__(self) -> str:
        return "\n".join(text_table(*t) for t in self._tables())


def _described(array: Any) -> str:
    """``a[8]``, ``A[3, 4]``, with `` float64`` after an array of reals."""
    size = ", ".join(map(str, array.shape))
    kind = "" if array.dtype == "int64" else f" {array.dtype}"
    return f"{array.name}[{size}]{kind}"


class MachineDisplay:
    """``_repr_html_`` and ``__rich__`` for :class:`pram.Machine`: model, arrays, the ledger
    and what was reported."""

    __slots__ = ()

    def _rows(self) -> list[list[object]]:
        m: Any = self
        arrays = ", ".join(_described(a) for a in m.arrays.values()) or "none"
        return [
            ["model", m.model.name], ["mode", m.mode], ["arrays", arrays],
            ["violations", len(m.violations)], ["undefined reads", len(m.undefined_reads)],
            ["tracing", "yes" if _recorder_of(m) is not None else "no"],
            *[[k, getattr(m.cost, k)] for k in _COUNTS],
        ]

    def _repr_html_(self) -> str:
        return html_table("machine", ["", "value"], self._rows())

    def __rich__(self) -> str:
        return text_table("machine", ["", "value"], self._rows())


class CheckDisplay:
    """``_repr_html_`` and ``__rich__`` for :class:`pram.Check`: the verdict, its reason and
    the law, then each size with the measured value and its ratio to the formula."""

    __slots__ = ()

    def _parts(self) -> tuple[str, list[str], list[list[object]], str]:
        c: Any = self
        names = sorted({k for s in c.sizes for k in s})
        rows: list[list[object]] = [[*(plain(s.get(n, 0)) for n in names), plain(m), f"{r:.4g}"]
                for s, m, r in zip(c.sizes, c.measured, c.ratios, strict=True)]
        caption = f"{c.measure} / ({c.formula.text}): {c.summary}"
        note = f"{c.reason}; constant {c.constant:.4g}; law: {c.law.describe()}"
        return caption, [*names, c.measure, "ratio"], rows, note

    def _repr_html_(self) -> str:
        caption, header, rows, note = self._parts()
        verdict = str(getattr(self, "verdict", ""))
        return (f'<div class="pram-check" data-verdict="{html.escape(verdict)}">'
                f"{html_table(caption, header, rows)}<p>{html.escape(note)}</p></div>")

    def __rich__(self) -> str:
        caption, header, rows, note = self._parts()
        return text_table(caption, header, rows) + "\n" + note
