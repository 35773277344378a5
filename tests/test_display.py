"""Notebook and rich display of the machine, the ledger, checks, runs, and the trace's views."""

from __future__ import annotations

import io
import math
from html.parser import HTMLParser

import numpy as np
import pytest
from rich.console import Console

from pram import Formula, InputError, Machine, Read, Step, Write, check
from pram.reports import trace_page
from pram.reports.measure import execute
from pram.reports.options import Options
from pram.reports.trace_view import parse_steps, tables


class _Cells(HTMLParser):
    """The text of every table cell, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self._inside = False

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag in ("td", "th"):
            self._inside = True
            self.cells.append("")

    def handle_endtag(self, tag: str) -> None:
        self._inside = self._inside and tag not in ("td", "th")

    def handle_data(self, data: str) -> None:
        if self._inside:
            self.cells[-1] += data


def _cells(html: str) -> list[str]:
    parser = _Cells()
    parser.feed(html)
    return parser.cells


def _rendered(obj: object) -> str:
    out = io.StringIO()
    Console(file=out, width=100).print(obj)
    return out.getvalue()


def _swap_machine() -> Machine:
    m = Machine(trace=True)
    a = m.array("a", values=np.array([1, 2]))

    def swap(m: Machine, a: object) -> object:
        pid = m.processors(2)
        x, = yield Step(pid, reads=[Read(a, pid)])  # type: ignore[arg-type]
        yield Step(pid, writes=[Write(a, 1 - pid, x)])  # type: ignore[arg-type]

    m.run(swap(m, a))
    return m


def test_cost_html_and_rich_show_the_ledger() -> None:
    """The ledger's table holds exactly its counts, in HTML and in rich's plain text."""
    m = _swap_machine()
    c = m.cost
    assert _cells(c._repr_html_())[7:14] == [str(v) for v in (c.time, c.work, c.reads,
                                             c.writes, c.max_processors, c.memory_cells,
                                             c.peak_cells)] == ["2", "4", "2", "2", "2", "2", "2"]
    assert _rendered(c).splitlines()[2].split() == ["2", "4", "2", "2", "2", "2", "2"]


def test_machine_html_names_model_arrays_and_counts() -> None:
    """A machine shows its model, arrays, tracing and ledger."""
    cells = _cells(_swap_machine()._repr_html_())
    pairs = dict(zip(cells[2::2], cells[3::2], strict=True))
    assert (pairs["model"], pairs["arrays"], pairs["tracing"], pairs["work"]) == (
        "EREW", "a[2]", "yes", "4")
    lines = [line.split() for line in _rendered(Machine("crew")).splitlines()]
    assert ["model", "CREW"] in lines and ["arrays", "none"] in lines


def test_check_html_is_a_table_with_its_verdict() -> None:
    """A check shows its verdict, and one row per size with the measured value and ratio."""
    f = Formula("N log2(N)", lambda s: s["N"] * math.log2(s["N"]))
    c = check("work", f, [({"N": n}, n * math.log2(n) * 3) for n in (16, 64, 256, 1024, 4096)])
    html = c._repr_html_()
    assert html.startswith('<div class="pram-check" data-verdict="holds">')
    assert _cells(html)[:6] == ["N", "work", "ratio", "16", "192", "3"]
    assert _rendered(c).startswith("work / (N log2(N)): holds, tight\n")


def test_run_html_shows_its_counts_and_violations() -> None:
    """A run of the naive search shows its counts and names its violations."""
    run = execute("pbs-naive", Options(n=16, model="erew"))
    html = run._repr_html_()
    cells = _cells(html)
    assert cells[9:16] == ["n=16, m=16", "EREW", str(run.cost.time), str(run.cost.work),
                           str(run.cost.reads), str(run.cost.writes), str(run.cost.local)]
    assert run.first_violations[0].message in html.replace("&#x27;", "'")
    assert run.first_violations[0].message in run.__rich__()


def test_parse_steps_reads_ranges_and_refuses_outside_the_run() -> None:
    """--steps takes numbers and ranges; a step beyond the run is refused with the range."""
    assert parse_steps("1-3,7,2", 9) == [1, 2, 3, 7]
    with pytest.raises(InputError, match=r"--steps '4-12' asks for steps outside the run, "
                       r"which has steps 1 to 9; give a range within them, e.g. --steps 1-5"):
        parse_steps("4-12", 9)
    with pytest.raises(InputError, match=r"--steps 'x' is not a list of steps"):
        parse_steps("x", 9)


def test_terminal_tables_show_each_processor_read_and_write() -> None:
    """The terminal view prints, per processor, the cells read and written with the values."""
    text = _rendered(tables(_swap_machine().trace, [1, 2]))
    assert "step 1: 2 processors, 2 reads, 0 writes" in text
    assert "a[0] = 1" in text and "a[1] = 2" in text
    assert "a[1] <- 1 (2 -> 1)" in text and "a[0] <- 2 (1 -> 2)" in text


def test_page_packs_runs_and_keeps_big_words_exact() -> None:
    """Arithmetic runs travel as (start, stride, length); words beyond 2^53 as text."""
    assert trace_page._pack([3, 5, 7, 9]) == {"a": [3, 2, 4]}
    assert trace_page._pack([1, 2, 4]) == [1, 2, 4]
    assert trace_page._pack([2**62, 0]) == {"s": [str(2**62), "0"]}


def test_trace_to_html_writes_the_page(tmp_path: object) -> None:
    """Trace.to_html writes the self-contained page: data inline, no external reference."""
    path = tmp_path / "swap.html"  # type: ignore[operator]
    _swap_machine().trace.to_html(str(path))
    text = path.read_text()
    assert 'id="trace-data"' in text and "http" not in text.replace("http-equiv", "")
    assert "<script src" not in text and "<link" not in text
