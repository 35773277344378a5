"""The rich reports, rendered into a fixed-width console and compared as text."""

from __future__ import annotations

import io

import attrs
import pytest
from rich.console import Console

from pram.reports.measure import Run, execute, phase_rows, sweep
from pram.reports.registry import Options
from pram.reports.render import (
    SIDE,
    BenchReport,
    InstancesSweepReport,
    RunReport,
    SweepReport,
    ZoologyReport,
    number,
    side_by_side,
    stat,
)
from tests.helpers import bench_figures


def render(renderable: object, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width)
    console.print(renderable)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in text.splitlines()).rstrip("\n")


def still(run: Run) -> Run:
    """The run with its wall-clock time zeroed, so its report is the same every time."""
    return attrs.evolve(run, seconds=0.0)


SORT_REPORT = """\
Batcher sorting network (sort)
n = 6; word keys, bitonic network, model EREW, seed 0
note: n = 6 padded with 2 records to 8, a power of two; padding sorts after every real record
cost

 time               12  steps, counted by the machine
 work               48  processor-steps (operations)
 rounds              6  read, compute, write: the textbooks' steps
 round work         24  processors active per round
 max processors      4  active in one step
 reads              96  cells
 writes             96  cells
 memory             16  cells allocated
 peak memory        16  cells alive at once
 local work         66  elementwise register operations
 max local work     11  of them between two steps
 wall clock      0.000  seconds

phases

 phase  time  rounds  work  reads  writes  max processors
 ────────────────────────────────────────────────────────
 sort     12       6    48     96      96               4

EREW: no violations
answer: correct (equal to sorted order)
bounds (formulas at n = 8 (6 padded), d = 1)

 bound  formula        measured  formula value   ratio
 ─────────────────────────────────────────────────────
 work   n d log2(n)^2        48             72  0.6667
 time   d log2(n)^2          12              9   1.333

one run decides no bound: pram sweep finds the laws and
the verdicts
"""


def test_run_report_of_a_sort_reads_as_expected() -> None:
    """The whole report of a tiny sort: sizes, padding note, cost, phases, model, bounds."""
    assert render(RunReport(still(execute("sort", Options(n=6))))) == SORT_REPORT.rstrip("\n")


def test_run_report_nests_the_phases_of_algorithm_11() -> None:
    """Algorithm 11's phases appear in order, nested by indentation under their parents."""
    text = render(RunReport(still(execute("mqar", Options(n=48))), depth=None))
    lines = [line.split()[0] if line.strip() else "" for line in text.splitlines()]
    start = lines.index("phase")
    top = [line for line in text.splitlines()[start:] if line.startswith(" ") and
           not line.startswith("  ") and line.split()[0] in {"sort", "search", "retrieve",
                                                               "combine"}]
    assert [line.split()[0] for line in top] == ["sort", "search", "retrieve", "combine"]
    assert "   merge " in text  # nested under sort
    assert "     level 0 " in text  # nested under search / pbs k
    assert "answer: correct (equal to Algorithm 9)" in text
    assert "EREW: no violations" in text


def test_run_report_shows_two_levels_of_phases_by_default() -> None:
    """By default only two levels of phases are shown, and the rest are counted."""
    text = render(RunReport(still(execute("mqar", Options(n=48)))))
    assert "   pbs 3 " in text and " level 0 " not in text
    assert "deeper phases not shown (pram run --phases all)" in text


def test_phase_rows_put_children_right_after_their_parent() -> None:
    """Phase rows come in order of first appearance, a child right after its parent."""
    run = execute("mqar", Options(n=96))
    rows = phase_rows(run.cost)
    labels = [label for label, _, _ in rows]
    for i, (label, depth, _) in enumerate(rows):
        if depth:
            parent = label.rsplit("/", 1)[0]
            assert labels.index(parent) < i
    assert labels[0] == "sort"


def test_run_report_names_the_first_violations_of_the_naive_search() -> None:
    """Under EREW the naive search's report counts its violations and names the first ones."""
    run = execute("pbs-naive", Options(n=16, m=16))
    assert run.violations > 5
    text = render(RunReport(still(run)), width=160)
    assert f"EREW: {run.violations} violations" in text
    assert (
        "  EREW forbids concurrent reads: processors 0, 1, 2, 3, 4, 5, ... (16 in all) read "
        "pbs-naive.keys[8] in step 1 (phase 'pbs-naive/probe 0')"
    ) in text
    assert f"... and {run.violations - 5} more" in text


def test_run_report_says_wrong_when_the_answer_differs() -> None:
    """A wrong answer is reported with the first differing entry."""
    run = attrs.evolve(still(execute("sort", Options(n=4))), correct=False,
                       mismatch="1 of 4 entries differ; first at index 2: got 9, expected 3")
    text = render(RunReport(run))
    assert "answer: WRONG: 1 of 4 entries differ; first at index 2: got 9, expected 3" in text


def test_sequential_report_says_it_is_not_run_on_the_machine() -> None:
    """Algorithm 9 counts its own operations; its report has no reads, writes or model check."""
    text = render(RunReport(still(execute("mqar-sequential", Options(n=30)))))
    assert "model: RAM, one processor; not run on the PRAM, so nothing to flag" in text
    assert "steps, counted by the program" in text
    assert " reads " not in text


def test_sweep_report_has_a_row_per_size_the_decisions_and_the_laws() -> None:
    """A sweep renders one row per size, the check table, one sentence per bound, the laws."""
    result = sweep("sort", [8, 16, 32, 64, 128], Options())
    text = render(SweepReport(attrs.evolve(
        result, runs=tuple(still(r) for r in result.runs), predict=(65536,))))
    assert "Batcher sorting network (sort) swept over 5 sizes" in text
    rows = [line.split() for line in text.splitlines() if line.strip().startswith(("8 ", "32 ",
                                                                                  "128 "))]
    assert [r[0] for r in rows] == ["8", "32", "128"]
    assert rows[0][1:7] == ["12", "6", "48", "4", "0", "ok"]
    assert (
        "work: work / (n d log2(n)^2 (d = 1)) holds, tight: along n: the exact law's leading "
        "term n L^2 is\nthe bound's order; constant 0.6667"
    ) in text
    assert " work     1/2 n L^2 + 1/2 n L, L = log2(n)  exact on 5 sizes  8,912,896" in text
    assert " time     L^2 + L, L = log2(n)              exact on 5 sizes        272" in text


def test_sweep_report_says_exceeded_for_all_pairs() -> None:
    """The all-pairs baseline's work check reads as exceeded, its N^2 check as holding."""
    result = sweep("mqar-allpairs", [48, 96, 192, 384, 768], Options())
    text = render(SweepReport(result))
    assert "work: work / (N d log2(N)^2 (d = 1)) EXCEEDED: along N: the exact law's leading " \
        "term N^2" in " ".join(text.split())
    row = next(line for line in text.splitlines() if line.startswith(" work (N^2)  N^2 d"))
    assert row.split()[-2:] == ["holds,", "tight"]


def test_word_keys_do_not_show_the_token_width_next_to_ratios() -> None:
    """With word keys the runs table has no d column: the ratios use d = 1, not d = 16."""
    result = sweep("mqar", [48, 96, 192, 384], Options())
    text = render(SweepReport(result))
    head = next(line for line in text.splitlines() if line.strip().startswith("N "))
    assert head.split()[:4] == ["N", "time", "rounds", "work"]
    assert "the formulas use d = 1" in " ".join(text.split())


def test_the_phase_checks_name_the_per_block_sort() -> None:
    """Algorithm 11 with the per-block sort: the sort phase's own check is exceeded."""
    result = sweep("mqar", [3 << k for k in range(4, 10)], Options(sort="per-block"))
    text = render(SweepReport(result), width=160)
    assert result.phase_checks["sort work"].verdict == "exceeded"
    assert "phase checks (each against its own bound)" in text
    assert result.checks["work"].reason.startswith("its sort phase exceeds the bound")


def test_zoology_report_shows_the_score() -> None:
    """The zoology report lists the counts and the verdict."""
    score = {"examples": 2, "labeled": 8, "correct": 8, "accuracy": 1.0, "violations": 0,
             "length": 64, "num_kv_pairs": 4, "time": 40, "work": 900, "file": "b.npz",
             "notes": ["a note"]}
    text = render(ZoologyReport(score))
    assert "zoology batch b.npz" in text
    assert "\n accuracy                       1.0000\n" in text
    assert "\n EREW violations                     0\n" in text
    assert "note: a note" in text
    assert "Algorithm 11 under EREW: every labelled position answered correctly, no violations" \
        in text


def test_bench_report_shows_figures_against_targets() -> None:
    """The bench figures render in millions of processor-steps and microseconds, with targets."""
    figures = bench_figures(large=(31.5e6, 10.25e6, 126e6, 25.625e6), tiny=12.5e-6,
                            small=((20e-6, 1e-6), (36e-6, 4e-6)), ratios=(20.0, 9.0, 4.0, 2.5))
    lines = render(BenchReport(figures), width=80).splitlines()
    assert lines[2:13] == [
        " step                             processors  measured     target  verdict",
        " ─────────────────────────────────────────────────────────────────────────",
        " large, contiguous addresses       1,048,576  31.5 M/s  >= 25 M/s  met",
        " large, random-order addresses     1,048,576  10.2 M/s  >= 12 M/s  MISSED",
        " tiny                                      1   12.5 µs   <= 20 µs  met",
        " small, per step                          64   20.0 µs",
        " small, per step                       1,024   36.0 µs",
        " small, over numpy                        64     20.0x     <= 25x  met",
        " small, over numpy                     1,024      9.0x      <= 8x  MISSED",
        " large, contiguous, over numpy     1,048,576      4.0x",
        " large, random-order, over numpy   1,048,576      2.5x      <= 3x  met",
    ]
    caption = next(i for i, line in enumerate(lines) if line.startswith("M/s:"))
    assert " ".join(line.strip() for line in lines[caption:]) == (
        "M/s: million processor-steps per second; µs: microseconds per step; x: the machine's "
        "time per step over raw numpy's doing the same gather and scatter, measured in the "
        "same run; ms: milliseconds per run of a whole program at n = 1,024 (in the processors "
        "column)"
    )


@pytest.mark.parametrize(("x", "text"), [(3, "3"), (1234567, "1,234,567"), (0.12345, "0.1235")])
def test_number_formats_integers_with_separators(x: float, text: str) -> None:
    """Integers get thousands separators, fractions four significant digits."""
    assert number(x) == text


def test_a_table_too_wide_keeps_every_value_whole() -> None:
    """At 80 columns and at 40 the sweep's table folds its headers, then splits its columns
    into tables that repeat the size, and says so: every value appears whole, none is cut."""
    from pram.reports.measure import sweep

    result = sweep("pbs-naive", [64, 1024], Options(instances=4))
    for width in (80, 40):
        text = render(InstancesSweepReport(result), width=width)
        assert "\u2026" not in text and "..." not in text
        for s in result.summaries:
            for measure in ("time", "work", *result.varying()):
                stats = s.counts()[measure]
                assert stat(stats["mean"]) in text and number(stats["max"]) in text
        assert all(len(line) <= width for line in text.splitlines())
    assert "split into" in render(InstancesSweepReport(result), width=40)


@pytest.mark.parametrize("width", [5, 10, 12, 20, 30])
def test_a_run_narrower_than_a_label_beside_its_value_keeps_every_value(width: int) -> None:
    """Outside battery: at COLUMNS=10 the run's cost table printed its labels with no values
    (160 and 320 missing; wall clock shown as 0). Narrower than a key beside one value, the
    columns come one cell a line, folded at the width: every figure is there, in order."""
    run = still(execute("sort", Options(n=16)))
    text = render(RunReport(run), width=width)
    assert all(len(line) <= width for line in text.splitlines())
    joined = "".join(text.split())
    for figure in (run.cost.time, run.cost.work, run.cost.rounds, run.cost.reads,
                   run.cost.writes, run.cost.memory_cells):
        assert f"{number(figure)}" in joined


def test_phases_side_by_side_are_marked_and_the_sums_explained() -> None:
    """Algorithm 11's searches run side by side (their times overlap): their rows carry the
    marker, the note says how the rows add up, and the sort's sequential phases carry none."""
    run = execute("mqar", Options(n=48))
    beside = side_by_side(run.cost.step_phases)
    assert {"search", "search/pbs 0"} <= beside and "sort" not in beside
    assert sum(run.cost.phases[f"search/pbs {k}"].time for k in range(4)) > \
        run.cost.phases["search"].time
    text = render(RunReport(still(run)))
    assert f"pbs 0 {SIDE}" in text and f"sort {SIDE}" not in text
    assert "add up to more than their parent's" in " ".join(text.split())
