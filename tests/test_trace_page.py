"""The trace's page in a real browser: headless Chromium, driven by Selenium.

Each test opens a page written by :func:`pram.reports.trace_page.write`, clicks through it and
compares what it shows with the trace itself (cells, values, processors, counters). Skipped,
with the reason, when Chromium, its driver or Selenium is missing (see the README's set-up).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pram import Machine, Read, Step, Write
from pram.reports import trace_page
from pram.reports.entries import algorithm
from pram.reports.measure import execute
from pram.reports.options import Options
from pram.trace import Trace, TracedStep

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--window-size=1200,900"]


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return "chromium is not installed (apt-get install -y chromium chromium-driver)"
    if not Path(DRIVER).exists():
        return "chromedriver is not installed (apt-get install -y chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module, on a new empty profile, logging console and
    network events."""
    reason = _missing()
    if reason is not None:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="pram-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _open(browser: Any, trace: Trace, path: Path) -> list[str]:
    """Load the page of ``trace``; return every URL it requested."""
    trace_page.write(trace, path)
    browser.get("about:blank")
    browser.get_log("performance")  # drop what the start page asked for
    browser.get_log("browser")
    browser.get(path.resolve().as_uri())
    events = [json.loads(e["message"])["message"] for e in browser.get_log("performance")]
    return [e["params"]["request"]["url"] for e in events
            if e["method"] == "Network.requestWillBeSent"]


def _by(browser: Any, css: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(browser.find_elements(By.CSS_SELECTOR, css))


def _text(browser: Any, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    return str(browser.find_element(By.ID, element_id).text)


def _click(browser: Any, element_id: str) -> None:
    """A click on button ``element_id`` (dispatched by the page's own click(), one round trip
    to the browser instead of three; the keyboard test clicks as a user does)."""
    browser.execute_script("document.getElementById(arguments[0]).click()", element_id)


_SHOWN = """return [...document.querySelectorAll('#memory .cell.read, #memory .cell.write')]
  .map((c) => [c.dataset.array, c.dataset.index, c.className, c.dataset.value,
               c.dataset.before === undefined ? null : c.dataset.before, c.dataset.processors]);"""


_STATUS = """const t = (id) => document.getElementById(id).textContent;
return {number: t("step-number"), time: t("time"), work: t("work"), reads: t("reads"),
        writes: t("writes")};"""

_INDICES = """const name = arguments[0];
return [...document.querySelectorAll('#memory .cell')].filter((c) => c.dataset.array === name)
  .map((c) => Number(c.dataset.index));"""


def _shown(browser: Any) -> dict[tuple[str, int], dict[str, Any]]:
    """Every highlighted cell on the page: its classes, value, value before and processors."""
    return {
        (name, int(index)): {
            "classes": set(classes.split()), "value": value, "before": before,
            "processors": sorted(int(p) for p in processors.split(",")),
        }
        for name, index, classes, value, before, processors in browser.execute_script(_SHOWN)
    }


def _expected(step: TracedStep) -> dict[tuple[str, int], dict[str, Any]]:
    """The same, from the trace: kinds, value after the step, value before, processors."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for access in step.accesses:
        for i, cell in enumerate(access.cells.tolist()):
            e = out.setdefault((access.array, cell), {"kinds": set(), "processors": [],
                                                      "value": None, "before": None})
            e["kinds"].add(access.kind)
            e["processors"].append(int(access.processors[i]))
            if access.kind == "read" and e["value"] is None:
                e["value"] = str(access.values[i])
            if access.kind == "write":
                assert access.before is not None and access.after is not None
                undefined = access.defined is not None and not access.defined[i]
                e["value"] = str(access.after[i])  # a write onto an undefined cell: "·" before
                e["before"] = "\u00b7" if undefined else str(access.before[i])
    return out


def _check_step(browser: Any, step: TracedStep) -> None:
    """The page shows step ``step``: its number, counters and every cell it touched, with
    the values and the processors; no other cell is highlighted."""
    status = browser.execute_script(_STATUS)
    assert status == {key: str(getattr(step, key))
                      for key in ("number", "time", "work", "reads", "writes")}
    shown, expected = _shown(browser), _expected(step)
    assert set(shown) == set(expected)
    for key, e in expected.items():
        s = shown[key]
        assert e["kinds"] <= s["classes"]
        assert s["value"] == e["value"]
        assert s["before"] == e["before"]
        assert s["processors"] == sorted(e["processors"])


@pytest.fixture(scope="module")
def sort8() -> Trace:
    run = execute("sort", Options(n=8, model="erew"), trace_cells=10_000)
    assert run.trace is not None
    return run.trace


@pytest.fixture(scope="module")
def naive16() -> Trace:
    run = execute("pbs-naive", Options(n=16, model=algorithm("pbs-naive").model),
                  trace_cells=10_000)
    assert run.trace is not None and run.violations > 0
    return run.trace


def test_sort_page_steps_through_every_step(browser: Any, sort8: Trace, tmp_path: Path) -> None:
    """The bitonic sort of 8 values: as many steps as its time, each showing the cells the
    trace read and wrote there with their values and processors, and the ledger; no network
    request beyond the page, no console error."""
    urls = _open(browser, sort8, tmp_path / "t.html")
    assert urls == [(tmp_path / "t.html").resolve().as_uri()]
    assert _text(browser, "step-count") == str(len(sort8.steps)) == "12"
    assert len(_by(browser, "#profile rect.bar")) == 12
    for step in sort8.steps:
        _check_step(browser, step)
        _click(browser, "next")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_keyboard_and_jump(browser: Any, sort8: Trace, tmp_path: Path) -> None:
    """End, Home, the arrows and the jump box move to the step they name; a click on the
    timeline goes to its step."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    _open(browser, sort8, tmp_path / "k.html")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.END)
    _check_step(browser, sort8.steps[-1])
    body.send_keys(Keys.ARROW_LEFT)
    _check_step(browser, sort8.steps[-2])
    body.send_keys(Keys.HOME)
    _check_step(browser, sort8.steps[0])
    body.send_keys(Keys.ARROW_RIGHT)
    _check_step(browser, sort8.steps[1])
    jump = browser.find_element(By.ID, "jump")
    jump.send_keys(Keys.CONTROL, "a")
    jump.send_keys("7", Keys.ENTER)
    _check_step(browser, sort8.steps[6])
    _by(browser, '#profile rect[data-step="10"]')[0].click()
    _check_step(browser, sort8.steps[9])


def test_conflict_page_marks_the_cell_and_names_every_processor(
    browser: Any, naive16: Trace, tmp_path: Path
) -> None:
    """The naive search's page: at each conflict step (reached by "next conflict") every
    conflicting cell is marked and its note lists every processor that met there."""
    urls = _open(browser, naive16, tmp_path / "c.html")
    assert urls == [(tmp_path / "c.html").resolve().as_uri()]
    assert _text(browser, "step-count") == str(len(naive16.steps))
    conflict_steps = [s for s in naive16.steps if s.conflicts]
    assert conflict_steps
    _click(browser, "first")
    if not naive16.steps[0].conflicts:
        _click(browser, "next-conflict")
    for step in conflict_steps:
        _check_step(browser, step)
        marked = {(name, int(index)) for name, index, classes, *_ in
                  browser.execute_script(_SHOWN) if "conflict" in classes.split()}
        assert marked == {(v.array, v.index) for v in step.conflicts}
        notes = _by(browser, ".conflict-item .who")
        assert [n.text for n in notes] == [", ".join(map(str, v.processors))
                                           for v in step.conflicts]
        assert [n.text.split("\n")[0] for n in _by(browser, ".conflict-item")] == [
            v.message for v in step.conflicts]
        _click(browser, "next-conflict")
    red = {int(r.get_attribute("data-step")) for r in _by(browser, "#profile rect.conflict")}
    assert red == {s.number for s in conflict_steps}
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_processor_view_and_cell_breakpoint(browser: Any, sort8: Trace, tmp_path: Path) -> None:
    """The per-processor view lists exactly the steps processor 2 acted in, with what it
    read; a breakpoint on a cell stops at the next step touching it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    _open(browser, sort8, tmp_path / "p.html")
    browser.find_element(By.ID, "pid").send_keys("2")
    rows = _by(browser, "#proc-view tr[data-step]")
    acted = [s for s in sort8.steps if 2 in s.processors.tolist()]
    assert [int(r.get_attribute("data-step")) for r in rows] == [s.number for s in acted]
    first_read = next(a for a in acted[0].accesses if a.kind == "read")
    i = first_read.processors.tolist().index(2)
    assert f"{first_read.array}[{first_read.cells[i]}] = {first_read.values[i]}" in rows[0].text
    target = sort8.steps[5].accesses[-1]
    cell = f"{target.array}[{int(target.cells[0])}]"
    browser.find_element(By.ID, "break-cell").send_keys(cell, Keys.ENTER)
    _click(browser, "first")
    _click(browser, "next-break")
    hits = [s.number for s in sort8.steps[1:]
            if any(a.array == target.array and int(target.cells[0]) in a.cells.tolist()
                   for a in s.accesses)]
    assert _text(browser, "step-number") == str(hits[0])


def test_long_array_is_summarised_and_zooms(browser: Any, tmp_path: Path) -> None:
    """An array of 10,000 cells shows its first and last cells and the region touched, and
    the zoom button opens that region whole."""
    m = Machine(trace=True)
    a = m.array("long", values=np.arange(10_000))

    def touch(m: Machine, a: Any) -> Any:
        pid = m.processors(100)
        x, = yield Step(pid, reads=[Read(a, pid + 5000)])
        yield Step(pid, writes=[Write(a, pid + 5000, x * 2)])

    m.run(touch(m, a))
    _open(browser, m.trace, tmp_path / "z.html")
    shown = set(browser.execute_script(_INDICES, "long"))
    assert {0, 1, 9999, 5000, 5047} <= shown and len(shown) < 100
    _by(browser, '[data-zoom="long"]')[0].click()
    shown = set(browser.execute_script(_INDICES, "long"))
    assert set(range(5000, 5100)) <= shown
    _click(browser, "next")
    _check_step(browser, m.trace.steps[1])


_ROW_CELLS = """return [...document.querySelectorAll('#memory .array')].map((a) =>
  [a.dataset.name, a.querySelectorAll('.cell').length, a.querySelectorAll('.gap').length]);"""


def test_mqar_page_from_the_command_summarises_long_arrays(
    browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pram trace mqar --html`` writes a page that opens with every step and shows each long
    array as its first and last cells and the region touched (never the whole array); the
    last step's counters are the run's."""
    from pram.reports.cli import main

    page = tmp_path / "q.html"
    assert main(["trace", "mqar", "--n", "768", "--html", str(page)]) == 0
    capsys.readouterr()
    browser.get(page.resolve().as_uri())
    run = execute("mqar", Options(n=768, model="erew"))
    assert _text(browser, "step-count") == str(run.cost.time)
    browser.execute_script("document.getElementById('only-touched').click()")  # every array
    rows = browser.execute_script(_ROW_CELLS)
    sizes = {a: n for a, n in ((r[0], r[1]) for r in rows)}
    assert len(rows) > 12 and max(sizes.values()) <= 8 + 8 + 48
    assert all(gaps > 0 for _, cells, gaps in rows if cells == 8 + 8 + 48)
    _click(browser, "last")
    status = browser.execute_script(_STATUS)
    assert (status["time"], status["work"], status["reads"], status["writes"]) == tuple(
        str(getattr(run.cost, k)) for k in ("time", "work", "reads", "writes"))
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_next_phase_and_a_phase_breakpoint(browser: Any, tmp_path: Path) -> None:
    """"next phase" stops at the first step of another phase; a breakpoint on a phase stops at
    the next step of any branch in it (or nested under it), as the trace says."""
    from selenium.webdriver.support.ui import Select

    run = execute("mqar", Options(n=48, model="erew"), trace_cells=100_000)
    assert run.trace is not None
    steps = run.trace.steps
    _open(browser, run.trace, tmp_path / "ph.html")
    _click(browser, "next-phase")
    first_other = next(s for s in steps if s.phase != steps[0].phase)
    _check_step(browser, first_other)
    from selenium.webdriver.common.by import By

    Select(browser.find_element(By.ID, "break-phase")).select_by_value("retrieve")
    _click(browser, "first")
    _click(browser, "next-break")
    hit = next(s for s in steps[1:] if any(p == "retrieve" or p.startswith("retrieve/")
                                           for p in s.phases))
    _check_step(browser, hit)
    _click(browser, "next-break")
    following = next(s for s in steps if s.number > hit.number and any(
        p == "retrieve" or p.startswith("retrieve/") for p in s.phases))
    _check_step(browser, following)


_NAMED = """return [...document.querySelectorAll('#memory .cell')]
  .filter((c) => c.dataset.array === arguments[0])
  .map((c) => [Number(c.dataset.index), c.dataset.cell, c.querySelector('.i').textContent,
               c.title]);"""


def test_cells_of_a_2d_array_are_named_by_row_and_column(browser: Any, tmp_path: Path) -> None:
    """A table of 2 rows and 3 columns: every cell is named T[row, column] as the terminal
    trace names it (its label, title and data-cell; data-index stays row-major), the table is
    shown row by row, the conflict note and the processor view say T[0, 1], and a breakpoint
    typed as a pair stops at the step touching that cell."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    m = Machine("crcw-common", trace=True)
    table = m.array("T", values=np.arange(6).reshape(2, 3))
    flat = m.array("f", values=np.arange(4))

    def program(m: Machine, table: Any, flat: Any) -> Any:
        pid = m.processors(2)
        x, = yield Step(pid, reads=[Read(flat, pid - pid[0])])
        yield Step(pid, writes=[Write(table, (np.zeros(2, np.int64), np.ones(2, np.int64)),
                                      x + 7)])  # T[0, 1] twice: 7 and 8 disagree
        yield Step(pid, reads=[Read(table, (pid - pid[0], np.full(2, 2, np.int64)))])

    m.run(program(m, table, flat))
    assert m.trace is not None
    _open(browser, m.trace, tmp_path / "t.html")
    cells = browser.execute_script(_NAMED, "T")
    assert [(i, name) for i, name, *_ in cells] == [
        (r * 3 + c, f"T[{r}, {c}]") for r in range(2) for c in range(3)]
    assert [label for _, _, label, _ in cells] == [f"{r}, {c}" for r in range(2) for c in range(3)]
    assert all(title.startswith(f"{name} = ") for _, name, _, title in cells)
    assert len(_by(browser, '#memory .array[data-name="T"] .grid-break')) == 1  # two rows
    assert [name for _, name, *_ in browser.execute_script(_NAMED, "f")][:2] == ["f[0]", "f[1]"]
    _click(browser, "next-conflict")
    assert _text(browser, "step-number") == "2"
    (note,) = _by(browser, ".conflict-item")
    assert "at T[0, 1], processors" in note.text
    assert m.violations[0].message in note.text  # the record names it so too
    browser.find_element(By.ID, "pid").send_keys("1")
    rows = [r.text for r in _by(browser, "#proc-view tr[data-step]")]
    assert "T[0, 1] \u2190 8" in rows[1] and "T[1, 2] = 5" in rows[2]
    browser.find_element(By.ID, "break-cell").send_keys("T[1, 2]", Keys.ENTER)
    assert "T[1, 2]" in browser.find_element(By.ID, "breakpoints").text
    _click(browser, "first")
    _click(browser, "next-break")
    assert _text(browser, "step-number") == "3"
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


_DEPTHS = """return [...document.querySelectorAll('#memory .cell')]
  .filter((c) => c.dataset.array === arguments[0])
  .map((c) => [Number(c.dataset.depth), c.classList.contains('chain')]);"""

_LINKS = """return [...document.querySelectorAll('#chain .link')]
  .map((l) => [l.dataset.array, Number(l.dataset.index), Number(l.dataset.step),
               Number(l.dataset.depth)]);"""


def test_a_page_with_depths_colours_cells_and_draws_a_clicked_cells_chain(
    browser: Any, tmp_path: Path,
) -> None:
    """A tree sum of 8 cells traced with depths: each cell shows its depth as of the step
    (the machine's), a click on the root draws its chain (steps 6, 4, 2, then the input),
    marks the cells whose value is on it, and a click on a link goes to its step."""
    m = Machine(trace=True, depth=True)
    a = m.array("a", values=np.arange(8))

    def tree_sum() -> Any:
        size = 8
        while size > 1:
            size //= 2
            pid = m.processors(size)
            i = np.arange(size)
            x, y = yield Step(pid, reads=[Read(a, 2 * i), Read(a, 2 * i + 1)], phase="level")
            yield Step(pid, writes=[Write(a, i, x + y)], phase="level")

    m.run(tree_sum())
    path = tmp_path / "depth.html"
    trace_page.write(m.trace, path, depths=m.depths)
    browser.get(path.resolve().as_uri())
    _click(browser, "last")
    assert [d for d, _ in browser.execute_script(_DEPTHS, "a")] == m.depths.depths(a).tolist()
    assert _text(browser, "chain") == "click a cell to draw its critical chain"
    browser.execute_script(
        "document.querySelector('#memory .cell[data-array=\"a\"][data-index=\"0\"]').click()")
    assert browser.execute_script(_LINKS) == [
        ["a", 0, 6, 3], ["a", 0, 4, 2], ["a", 0, 2, 1], ["a", 0, 0, 0]]
    assert [c for _, c in browser.execute_script(_DEPTHS, "a")] == [True] + [False] * 7
    browser.execute_script("document.querySelector('#chain .link[data-step=\"2\"]').click()")
    assert _text(browser, "step-number") == "2"
    assert browser.execute_script(_DEPTHS, "a") == [
        [1, True], [1, False], [1, False], [1, False], [0, False], [0, False], [0, False],
        [0, False]]
