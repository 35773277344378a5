"""Local work (the elementwise register operations between steps) in every output: the
ledger's JSON, ``pram run --json``, the terminal report and the notebook's run table."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import numpy as np
import pytest

from pram import Machine, Read, Step, Write
from pram.reports.measure import execute
from pram.reports.options import Options
from tests.commands import call, run_json


def _three_then_one(m: Machine, a: Any) -> Generator[Any, Any, None]:
    """Three operations before the second step, one before the third: local 4, most 3."""
    pid = m.processors(4)
    (x,) = yield Step(pid, reads=[Read(a, pid)])
    y = (x + 1) * 2 - x
    yield Step(pid, writes=[Write(a, pid, y)])
    (z,) = yield Step(pid, reads=[Read(a, pid)])
    yield Step(pid, writes=[Write(a, pid, z + 5)])


def test_the_ledgers_json_carries_local_work() -> None:
    """``Cost.as_dict`` has ``local`` (the total) and ``max_local`` (the most between two
    steps), as counted by the machine."""
    m = Machine()
    a = m.array("a", values=np.arange(4))
    m.run(_three_then_one(m, a))
    counts = m.cost.as_dict()
    assert (counts["local"], counts["max_local"]) == (4, 3)
    assert a.to_numpy().tolist() == [(v + 1) * 2 - v + 5 for v in range(4)]


def test_pram_run_json_carries_local_work(capsys: pytest.CaptureFixture[str]) -> None:
    """``pram run --json`` gives the run's ledger's local work, the same as the library's."""
    status, obj = run_json(capsys, "run", "sort", "--n", "16")
    assert status == 0
    ran = execute("sort", Options(n=16))
    assert (obj["local"], obj["max_local"]) == (ran.cost.local, ran.cost.max_local)
    assert isinstance(obj["local"], int) and obj["local"] > 0
    assert 0 < ran.cost.max_local <= ran.cost.local


def test_the_terminal_report_shows_local_work(capsys: pytest.CaptureFixture[str]) -> None:
    """``pram run`` prints the local work and its most between two steps in its cost table."""
    status, out, _ = call(capsys, "run", "sort", "--n", "16")
    assert status == 0
    ran = execute("sort", Options(n=16))
    lines = {line.split()[0] + " " + line.split()[1]: line for line in out.splitlines()
             if line.strip().startswith(("local work", "max local"))}
    assert f" {ran.cost.local:,} " in lines["local work"]
    assert f" {ran.cost.max_local:,} " in lines["max local"]


def test_the_notebook_table_of_a_run_shows_local_work() -> None:
    """A run's notebook table has a ``local`` column with the ledger's total."""
    ran = execute("sort", Options(n=16))
    html = ran._repr_html_()
    assert ">local<" in html
    assert f">{ran.cost.local}<" in html
