"""Notebook display, executed for real: a small notebook run by nbclient on an IPython kernel.

A sweep's check must come out as an HTML table with its verdict, a sweep with its plot inline,
and a trace as the inline step-through viewer (the page in an iframe). Skipped, with the
reason, when nbclient or ipykernel is missing (both are in the test extra).
"""

from __future__ import annotations

import html

import pytest

_INSTALL = "is not installed (pip install -e '.[test]')"
nbformat = pytest.importorskip("nbformat", reason=f"nbformat {_INSTALL}")
nbclient = pytest.importorskip("nbclient", reason=f"nbclient {_INSTALL}")
pytest.importorskip("ipykernel", reason=f"ipykernel {_INSTALL}")

CELLS = [
    """from pram.reports.measure import sweep
from pram.reports.options import Options
s = sweep("sort", [8, 16, 32, 64, 128], Options(model="erew"))
s.checks["work"]""",
    "s",
    """import numpy as np
from pram import Machine, Read, Step, Write
m = Machine("crew", trace=True)
a = m.array("a", values=np.array([4, 3, 2, 1]))
def program(m, a):
    pid = m.processors(4)
    x, = yield Step(pid, reads=[Read(a, pid * 0)])
    yield Step(pid, writes=[Write(a, pid, x + pid)])
m.run(program(m, a))
m.trace""",
    "m.cost",
]


def test_notebook_shows_check_table_sweep_plot_and_trace_viewer() -> None:
    """Executed, the notebook's outputs are HTML: the check's table with verdict 'holds',
    the sweep's plot as an inline PNG, the trace's viewer holding its data, the ledger."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = [cell.outputs[-1]["data"] for cell in notebook.cells]
    check, swept, trace, cost = (o["text/html"] for o in outputs)
    assert check.startswith('<div class="pram-check" data-verdict="holds">')
    assert "<caption>work / (n d log2(n)^2): holds, tight</caption>" in check
    assert "<td>128</td><td>3584</td>" in check
    assert '<img alt="sort: measured / formula" src="data:image/png;base64,' in swept
    assert trace.startswith('<iframe class="pram-trace-viewer"')
    page = html.unescape(trace)
    assert 'id="trace-data"' in page and '"model":"CREW"' in page
    assert "<td>2</td><td>8</td><td>4</td><td>4</td>" in cost  # time, work, reads, writes
