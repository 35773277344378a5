"""``pram trace``: the page and the tables of a run, its refusals in one line, exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pram.reports.entries import algorithm, names
from pram.reports.measure import execute
from pram.reports.options import Options
from tests.commands import call


def _page_data(path: Path) -> dict[str, object]:
    text = path.read_text()
    found = re.search(r'<script type="application/json" id="trace-data">(.*?)</script>', text,
                      re.S)
    assert found is not None
    return json.loads(found.group(1).replace("<\\/", "</"))  # type: ignore[no-any-return]


@pytest.mark.parametrize(("name", "n"), [("sort", 8), ("pbs-naive", 16)])
def test_trace_html_exits_0_with_a_step_per_unit_of_time(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, n: int
) -> None:
    """The page of sort (n 8) and of the naive search (n 16, with its conflicts) holds as many
    steps as the run's time and as many conflicts as the run's violations."""
    page = tmp_path / f"{name}.html"
    status, out, err = call(capsys, "trace", name, "--n", str(n), "--html", str(page))
    assert status == 0, err
    run = execute(name, Options(n=n, model=algorithm(name).model))
    data = _page_data(page)
    steps = data["steps"]
    assert isinstance(steps, list) and len(steps) == run.cost.time
    assert sum(len(s["conflicts"]) for s in steps) == run.violations
    assert f"trace of {run.cost.time} steps" in out and f"wrote {page}" in err


def test_trace_steps_prints_tables_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    """--steps prints the chosen steps' tables; --json one object with the trace's totals."""
    status, out, _ = call(capsys, "trace", "sort", "--n", "8", "--steps", "1-2")
    assert status == 0
    assert "step 1 (" in out
    assert "step 2 (" in out and "step 3 (" not in out
    status, out, _ = call(capsys, "trace", "sort", "--n", "8", "--steps", "1", "--json")
    obj = json.loads(out)
    assert (obj["steps"], obj["time"], obj["work"], obj["reads"], obj["writes"]) == (
        12, 12, 48, 96, 96)
    assert obj["cells"] == 16 + 96 + 96


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["sort", "--n", "8"], "pram trace: error: pram trace sort needs --html FILE"),
        (["mqar-sequential", "--steps", "1"],
         "pram trace: error: mqar-sequential runs off the machine"),
        (["sort", "--n", "8", "--steps", "3-40"],
         "pram trace: error: --steps '3-40' asks for steps outside the run, which has steps 1 "
         "to 12"),
        (["sort", "--n", "8", "--html", "t.txt"],
         "pram trace: error: --html 't.txt' must end in .html"),
        (["mqar", "--n", "768", "--steps", "1", "--trace-cells", "1000"],
         "pram trace: error: the trace of mqar here records "),
    ],
)
def test_trace_refuses_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """Bad input, a ceiling too low included, is one line on standard error and exit 2."""
    status, out, err = call(capsys, "trace", *argv)
    assert status == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_ceiling_refusal_names_the_ceiling_that_fits(capsys: pytest.CaptureFixture[str]) -> None:
    """Refused, the command names the cells the run needs (memory + reads + writes, counted
    untraced) and that ceiling then traces it."""
    _, _, err = call(capsys, "trace", "sort", "--n", "64", "--steps", "1", "--trace-cells", "99")
    run = execute("sort", Options(n=64, model="erew"))
    needed = run.cost.memory_cells + run.cost.reads + run.cost.writes
    assert f"give --trace-cells {needed} or more" in err
    status, _, _ = call(capsys, "trace", "sort", "--n", "64", "--steps", "1",
                        "--trace-cells", str(needed))
    assert status == 0


def test_every_machine_algorithm_traces(capsys: pytest.CaptureFixture[str]) -> None:
    """Every algorithm the command line runs on the machine traces at a small size."""
    for name in names():
        if not algorithm(name).on_machine:
            continue
        status, out, err = call(capsys, "trace", name, "--steps", "1", "--n", "16")
        assert status == 0, (name, err)
        assert out.startswith("step 1") and f"{name}: trace of " in out


def test_undefined_cells_show_as_undefined_and_a_conflict_note_says_its_processors_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``rank[7] <- 0 (0 -> 0)`` showed a cell never written as 0; a note read "processors 0
    and 1 write out[0] in step 2 (processors 0, 1)"."""
    path = tmp_path / "undef.py"
    path.write_text(
        "import numpy as np\nimport pram\nfrom pram import Read, Step, Write, iota\n"
        "@pram.declare(build=lambda n, rng: rng.integers(1, 9, n), reference=lambda x: x)\n"
        "def copy(m, x):\n"
        "    n = len(x)\n    out = m.array('out', n)\n    pid = m.processors(n)\n"
        "    (v,) = yield Step(pid, reads=[Read(x, iota(n))])\n"
        "    yield Step(pid, writes=[Write(out, iota(n) * 0, v)])\n"
        "    return out\n")
    status, out, _ = call(capsys, "trace", "--module", str(path), "copy", "--n", "2",
                          "--steps", "2", "--model", "crcw-priority")
    assert status == 0
    text = " ".join(out.split())
    assert "(undefined ->" in text and "(0 ->" not in text
    status, out, _ = call(capsys, "trace", "--module", str(path), "copy", "--n", "2",
                          "--steps", "2", "--model", "erew")
    text = " ".join(out.split())
    assert "processors 0 and 1 write out[0] in step 2" in text
    assert "(processors 0, 1)" not in text


def test_steps_of_a_run_with_none_are_refused_with_a_fix_that_works(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Sorting one value takes no step: --steps 1 was refused suggesting --steps 1-0, which
    was refused the same. The fix given now is a command that runs."""
    for steps in ("1", "1-0"):
        status, out, err = call(capsys, "trace", "sort", "--n", "1", "--steps", steps)
        assert (status, out) == (2, "") and len(err.splitlines()) == 1
        assert "a run that took none" in err and "--html FILE instead" in err, err
    page = tmp_path / "one.html"
    status, _, _ = call(capsys, "trace", "sort", "--n", "1", "--html", str(page))
    assert status == 0 and page.stat().st_size > 0


def test_a_range_of_steps_backwards_is_named_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    """--steps 5-1 was called a range "outside the run", which has steps 1 to 6."""
    status, out, err = call(capsys, "trace", "sort", "--n", "8", "--steps", "5-1")
    assert (status, out) == (2, "") and "a range backwards (5 down to 1)" in err, err
    assert "--steps 1-5" in err and call(capsys, "trace", "sort", "--n", "8", "--steps",
                                         "1-5")[0] == 0
