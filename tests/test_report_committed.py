"""The committed ``report/`` regenerated from the main job's own inputs, compared byte for byte.

``pram report`` in full takes minutes (its largest sweep runs Algorithm 11 at N = 196,608), so
this test regenerates a documented subset, each piece exactly as :func:`pram.reports.report.
write_report` makes it, and compares it with the committed files:

- the first :data:`SIZES` runs of every sweep of the plan (:func:`pram.reports.plan.plan`):
  each one's line of ``measurements.csv``, its object in ``measurements.json`` (the sweep's
  ``runs``), and its row of the sweep's table under "Every run" in ``summary.md``;
- both negative controls (the naive search under EREW and CREW): their lines of
  ``measurements.csv`` and their objects in ``measurements.json``.

A run's figures do not depend on the other runs of its sweep, so a count that changed at any
of these sizes shows here; the laws and verdicts, which need every size, are not regenerated.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from pram.reports import report
from pram.reports.markdown import _runs_md
from pram.reports.measure import Control, Run, execute
from pram.reports.plan import plan
from pram.reports.registry import Options

REPORT = Path(__file__).resolve().parent.parent / "report"
#: How many sizes of each sweep are regenerated (the smallest ones): about 10 s in all.
SIZES = 3
PLANS = plan()


def _committed_csv() -> list[str]:
    return (REPORT / "measurements.csv").read_bytes().decode().splitlines(keepends=True)


def _committed_json() -> dict[str, Any]:
    found: dict[str, Any] = json.loads((REPORT / "measurements.json").read_text())
    return found


def _csv_line(label: str, run: Run) -> str:
    """The run's line of ``measurements.csv``, as the report's csv writer writes it."""
    out = io.StringIO(newline="")
    csv.DictWriter(out, fieldnames=report.CSV_FIELDS, extrasaction="ignore").writerow(
        report._row(label, run))
    return out.getvalue()


def _json(value: Any) -> str:
    """As ``measurements.json`` holds it (indent 1)."""
    return json.dumps(value, indent=1)


@pytest.mark.parametrize("index", range(len(PLANS)), ids=[p.label for p in PLANS])
def test_the_first_runs_of_every_sweep_come_out_as_committed(index: int) -> None:
    p = PLANS[index]
    runs = [execute(t.name, t.options) for t in report._tasks(p, 0)[:SIZES]]
    lines = _committed_csv()
    mine = [line for line in lines if line.startswith(f"{p.label},")
            or line.startswith(f'"{p.label}",')]
    assert [_csv_line(p.label, r) for r in runs] == mine[:SIZES]
    committed = _committed_json()["sweeps"][index]
    assert committed["label"] == p.label
    assert [_json(r.as_dict(nested_phases=False, wall_clock=False)) for r in runs] == [
        _json(r) for r in committed["runs"][:SIZES]]
    summary = (REPORT / "summary.md").read_text()
    section = summary[summary.index(f"\n### {p.label}\n"):]
    table = _runs_md(_sweep_of(p, runs)).splitlines()
    shown = section.split("\n\n")
    body = next(part for part in shown if part.startswith("| "))
    assert body.splitlines()[:2 + SIZES] == table


def _sweep_of(p: Any, runs: list[Run]) -> Any:
    """A sweep holding only ``runs`` (the table of "Every run" needs nothing else)."""
    from pram.reports.measure import Sweep

    return Sweep(runs[0].algorithm, p.options, tuple(runs), {})


def test_the_negative_controls_come_out_as_committed() -> None:
    lines = _committed_csv()
    committed = _committed_json()["controls"]
    for i, (model, expect) in enumerate((("erew", True), ("crew", False))):
        run = execute("pbs-naive", Options(n=1024, model=model))
        label = f"naive search, {model}"
        assert _csv_line(label, run) in lines
        control = Control(run, expect, must_answer=True)
        assert _json({"as_predicted": control.as_predicted,
                      **run.as_dict(nested_phases=False, wall_clock=False)}) == _json(
            committed[i])
