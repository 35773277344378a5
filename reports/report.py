"""``pram report``: the main job. The default sweeps, their bound checks, plots and exports.

The plan (:mod:`pram.reports.plan`) sweeps Algorithm 9, Algorithm 10, Algorithm 11 with both
sorts, the all-pairs baseline and the sort network with word keys, and Algorithm 11 with bit
keys under both comparators. Each bound check carries the outcome the paper's analysis
predicts (the per-block sort and the all-pairs baseline *must* fail the O(N d log^2 N) work
check), and the report is good when every check ends as predicted, every answer is correct
and no run under EREW has a violation, except the naive search, the EREW negative control,
which must have some.

Everything is written to one directory: ``summary.md`` (:mod:`pram.reports.markdown`), the
plots (PNG), and the raw measurements as ``measurements.csv`` and ``measurements.json``.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np
from rich.console import Group, RenderableType
from rich.text import Text

from pram.reports import plots, signals, writer
from pram.reports.catalogue import Catalogue, catalogue, mean_checks
from pram.reports.catalogue import tasks as catalogue_tasks
from pram.reports.markdown import exceeded_lines, markdown
from pram.reports.plan import (
    PROFILE_N,
    QUICK_NOTE,
    Outcome,
    Plan,
    as_predicted,
    plan,
)
from pram.reports.registry import Options
from pram.reports.render import number, verdict_text
from pram.reports.runs import Control, Run
from pram.reports.sweeps import Sweep, grid, sweep
from pram.reports.tasks import Done, Runner, Task, run_all

Progress = Callable[[int, int, str], None]


@attrs.frozen
class Summary:
    """What ``pram report`` found and wrote; renders as the terminal summary."""

    outcomes: tuple[Outcome, ...]
    controls: tuple[Control, ...]
    zoology: Mapping[str, Any]
    files: tuple[Path, ...]
    #: The catalogue of classic algorithms: its sweeps and negative controls.
    catalogue: Catalogue | None = None
    #: Small sizes only (``--quick``): a smoke test, never the committed report.
    quick: bool = False

    @property
    def ok(self) -> bool:
        """Whether sweeps, controls, zoology batches and the catalogue ended as predicted."""
        return as_predicted(self.outcomes, self.controls, self.zoology) and (
            self.catalogue is None or self.catalogue.ok
        )

    def as_dict(self) -> dict[str, Any]:
        """The summary as the JSON of ``pram report --json`` (and ``measurements.json``)."""
        return {
            "ok": self.ok,
            "sweeps": [
                {
                    "label": o.plan.label,
                    "as_predicted": o.as_predicted,
                    # present where the bounds judge the mean over seeded inputs
                    **({"instances": o.plan.instances} if o.plan.instances > 1 else {}),
                    **o.sweep.as_dict(nested_phases=False, wall_clock=False),
                    "expected": {k: o.plan.expected(k) for k in o.sweep.checks},
                }
                for o in self.outcomes
            ],
            "controls": [
                {"as_predicted": c.as_predicted,
                 **c.run.as_dict(nested_phases=False, wall_clock=False)}
                for c in self.controls
            ],
            "zoology": dict(self.zoology),
            "catalogue": self.catalogue.as_dict() if self.catalogue is not None else None,
            "files": [str(f) for f in self.files],
        } | ({"quick": True} if self.quick else {})

    def __rich__(self) -> RenderableType:
        """A summary of about 40 lines: the verdict, each sweep's and catalogue entry's check
        verdicts, the findings (bounds exceeded, controls, zoology) and the files written, which
        hold the rest (``summary.md``: every table, law and phase)."""
        lines: list[RenderableType] = [Text.assemble(
            ("pram report: ", "bold"),
            Text("every check ended as predicted", "green") if self.ok
            else Text("something did NOT end as predicted", "bold red"),
        )]
        if self.quick:
            lines.append(Text(QUICK_NOTE, "yellow"))
        lines.append(Text("the paper's sweeps (predicted: ended as the paper's analysis "
                          "predicts):", "bold"))
        for o in self.outcomes:
            runs = f"{len(o.sweep.runs)} sizes"
            if o.plan.instances > 1:  # the checks judge the mean over seeded inputs
                runs += f" x {o.plan.instances} seeds"
            lines.append(_verdicts_line(o.as_predicted, f"{o.plan.label} ({runs})",
                                        o.sweep.checks))
        findings = [Text(line) for line in exceeded_lines(self.outcomes)]
        for control in self.controls:
            r = control.run
            findings.append(Text(
                f"naive search under {r.model}: {number(r.violations)} violations, answer "
                f"{'correct' if r.correct else 'WRONG'} "
                f"({'as predicted' if control.as_predicted else 'NOT as predicted'})"
            ))
        z = self.zoology
        findings.append(Text(
            f"zoology batches: {z['examples']} examples, {z['labeled']} labelled positions, "
            f"accuracy {z['accuracy']:.4f}, {z['violations']} violations"
        ))
        lines.append(Text("findings:", "bold"))
        lines.extend(Text.assemble("  ", f) for f in findings)
        if self.catalogue is not None:
            lines.extend(_catalogue_lines(self.catalogue))
        where = self.files[0].parent if self.files else Path(".")
        names = [f.name for f in self.files]
        plots = [n for n in names if n.endswith((".png", ".svg"))]
        rest = [n for n in names if n not in plots]
        lines.append(Text(
            f"wrote to {where}: {', '.join(rest)}"
            + (f" and {len(plots)} plots ({', '.join(plots)})" if plots else "")
            + f"; every table, law and phase is in {where / 'summary.md'}"
        ))
        return Group(*lines)


def _verdicts_line(predicted: bool, label: str, checks: Mapping[str, Any]) -> Text:
    """``  yes  label: work holds, tight; time undetermined``: one line per sweep."""
    line = Text("  ")
    line.append_text(_yes(predicted))
    line.append(f"  {label}: ")
    for i, (key, c) in enumerate(checks.items()):
        if i:
            line.append("; ")
        line.append(f"{key} ")
        line.append_text(verdict_text(c))
    return line


def _catalogue_lines(cat: Catalogue) -> list[RenderableType]:
    """The catalogue in one line per entry and one for its negative controls."""
    lines: list[RenderableType] = [Text(
        "catalogue of classic algorithms, each under its own model (ok: correct, no "
        "violations, within its bounds):", "bold")]
    for swept in cat.sweeps:
        lines.append(_verdicts_line(swept.ok, f"{swept.algorithm.name} "
                                    f"({swept.runs[0].model})", swept.checks))
    flagged = [c for c in cat.controls if c.as_predicted]
    missed = [c.run.algorithm.name + f" under {c.run.model}" for c in cat.controls
              if not c.as_predicted]
    lines.append(Text(
        f"  negative controls (each entry under the next weaker model must be flagged): "
        f"{len(flagged)} of {len(cat.controls)} as predicted"
        + (f"; NOT: {', '.join(missed)}" if missed else "")
    ))
    return lines


def _yes(ok: bool) -> Text:
    return Text("yes", "green") if ok else Text("NO", "bold red")


# ---- the job ---------------------------------------------------------------------------------


def write_report(
    out: Path, *, quick: bool = False, progress: Progress | None = None,
    runner: Runner | None = None, max_memory: int | None = None,
) -> Summary:
    """Run the plan, write ``summary.md``, the plots and the measurements to ``out``.

    Every run is checked against the size guard before the first one starts (``max_memory``,
    else the memory available), so a report that cannot finish refuses at once.

    ``runner`` says where the runs execute (default: here, one after the other): every run of
    every sweep, the controls and the profile go to it at once, so its workers stay busy.
    """
    steps = plan(quick)
    size = 256 if quick else 1024
    control_options = [(Options(n=size, model=m), e) for m, e in (("erew", True), ("crew", False))]
    profile = Task("mqar", Options(n=3 << 6 if quick else PROFILE_N, depth=True))
    labels = {task: p.label for p in steps for seed in range(p.instances)
              for task in _tasks(p, seed)}
    classic = catalogue_tasks(quick)
    tasks = list(dict.fromkeys(
        [*labels, *(Task("pbs-naive", o) for o, _ in control_options), profile, *classic]))
    _refuse_oversized(tasks, max_memory)
    total = len(tasks) + 1
    made = Done(dict(zip(tasks, run_all(
        tasks, runner, progress=None if progress is None else
        lambda i, n, what: progress(i, total, what),
        label=lambda t: f"{labels.get(t, 'catalogue: ' + t.name)}: {t.label}",
    ), strict=True)))
    outcomes = [_outcome(p, made) for p in steps]
    if progress is not None:
        progress(len(tasks), total, "zoology")
    controls = tuple(Control(made.runs[Task("pbs-naive", o)], e, must_answer=True)
                     for o, e in control_options)
    zoology = _zoology(quick)
    profile_run = made.runs[profile]
    classics = catalogue(quick, runner=made)
    files = _publish(out, lambda folder: _write(folder, outcomes, controls, zoology,
                                                 profile_run, classics, quick=quick))
    if progress is not None:
        progress(total, total, "done")
    return Summary(tuple(outcomes), controls, zoology, tuple(files), classics, quick)


def _tasks(p: Plan, seed: int) -> list[Task]:
    """The runs of plan ``p`` on the inputs of ``seed``, one per size (seed 0: the sweep's)."""
    options = p.options if seed == 0 else attrs.evolve(p.options, seed=seed)
    return [Task(p.algorithm, attrs.evolve(options, n=n, d=d if d is not None else options.d))
            for n, d in grid(p.ns, p.ds)]


def _outcome(p: Plan, made: Done) -> Outcome:
    """Plan ``p``'s sweep from the runs ``made``; with several seeded inputs per size, its
    bounds judged on the mean counts (its runs stay seed 0's)."""
    swept = sweep(p.algorithm, p.ns, p.options, p.ds, runner=made)
    if p.instances > 1:
        seeded = [swept.runs, *(run_all(_tasks(p, seed), made) for seed in range(1, p.instances))]
        swept = attrs.evolve(swept, checks=mean_checks(swept.algorithm, seeded))
    return Outcome(p, swept)


def _refuse_oversized(tasks: Sequence[Task], max_memory: int | None) -> None:
    """Refuse the report before any work when its largest run does not fit the ceiling."""
    from pram.reports.guard import need_of, refuse_bytes

    need, largest = max(((need_of(t.name, t.options), t) for t in tasks),
                        key=lambda pair: pair[0], default=(0.0, None))
    if largest is not None:
        refuse_bytes(f"the report's largest run ({largest.name} at {largest.label})", need,
                     max_memory, "give a larger --max-memory, or --quick for small sizes")


def _publish(out: Path, write: Callable[[Path], list[Path]]) -> list[Path]:
    """Write the files into a temporary folder inside ``out``, then move each into ``out``.

    An interrupted or failed report leaves the previous one whole: nothing in ``out`` changes
    until every file is written and synced, and the moves (one ``os.replace`` each) run with
    the signals held back. The temporary folder is inside ``out``, on its own file system, so
    the moves are renames even when ``out`` is a mount point; one an interrupted report left
    is removed at the next start (:func:`pram.reports.writer.partial_folder`). ``out`` may
    hold other files, which stay; the folders it made for ``out`` are removed again when the
    report fails (none is left empty behind an error).
    """
    made = [p for p in (out, *out.parents) if not p.exists()]  # (the folders it will make)
    folder = writer.partial_folder(out)
    published = False
    try:
        try:
            written = write(folder)
            for file in written:
                writer.sync(file)
        except OSError as error:
            if error.errno in writer.FULL:
                previous = ("the previous report" if any(out.glob("summary.md"))
                            else "the folder")
                if error.filename:
                    raise writer.full_disk(out / Path(error.filename).name, "--out",
                                           previous) from None
                raise writer.full_disk(out, "--out", previous) from None
            raise
        with signals.held():
            for file in written:
                os.replace(file, out / file.name)
        published = True
        return [out / file.name for file in written]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        for empty in made if not published else ():
            with contextlib.suppress(OSError):  # (only an empty folder is removed)
                empty.rmdir()


def _zoology(quick: bool) -> dict[str, Any]:
    """Generated Zoology batches of several shapes, solved and scored."""
    from pram.algorithms.zoology import batch
    from pram.reports.zoology import Batch, score

    shapes = [(64, 4), (256, 16)] if quick else [(64, 4), (64, 16), (256, 32), (1024, 128),
                                                 (2048, 256)]
    totals = {"examples": 0, "labeled": 0, "correct": 0, "violations": 0}
    rows = []
    for i, (length, pairs) in enumerate(shapes):
        inputs, labels = batch(2, length, pairs, 4 * length, seed=i)
        s = score(Batch(inputs, labels, np.full(2, pairs, dtype=np.int64)))
        rows.append({"length": length, "num_kv_pairs": pairs, **{k: s[k] for k in totals},
                     "accuracy": s["accuracy"], "time": s["time"]})
        for k in totals:
            totals[k] += s[k]
    return {**totals, "accuracy": totals["correct"] / totals["labeled"], "batches": rows}


# ---- writing ---------------------------------------------------------------------------------

CSV_FIELDS = (
    "sweep", "algorithm", "keys", "comparator", "sort", "model", "n", "m", "d", "token_bits",
    "padded_n",
    "time", "work", "rounds", "round_work", "max_processors", "reads", "writes", "memory_cells",
    "violations",
    "correct", "work_ratio", "time_ratio",
)


def _row(label: str, run: Run) -> dict[str, Any]:
    d = run.as_dict()
    return {
        "sweep": label,
        **{k: d.get(k) for k in CSV_FIELDS if k in d},
        # d is the width the ratios use (1 for word keys); token_bits the instance's width
        "d": run.bound_sizes.get("d"),
        "token_bits": run.sizes.get("d"),
        "padded_n": next(iter(run.bound_sizes.values())),
        "work_ratio": run.bounds["work"].ratio,
        "time_ratio": run.bounds["time"].ratio,
    }


def _write(
    out: Path,
    outcomes: Sequence[Outcome],
    controls: Sequence[Control],
    zoology: Mapping[str, Any],
    profile: Run,
    classics: Catalogue | None = None,
    *,
    quick: bool = False,
) -> list[Path]:
    files: list[Path] = []
    rows = [_row(o.plan.label, r) for o in outcomes for r in o.sweep.runs]
    rows += [_row(f"naive search, {c.run.options.model}", c.run) for c in controls]
    csv_path = out / "measurements.csv"
    with csv_path.open("w", newline="") as f:
        table = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        table.writeheader()
        table.writerows(rows)
    files.append(csv_path)
    json_path = out / "measurements.json"
    summary = Summary(tuple(outcomes), tuple(controls), zoology, (), classics)
    json_path.write_text(json.dumps(summary.as_dict(), indent=1) + "\n")
    files.append(json_path)
    files.extend(_plots(out, outcomes, profile))
    circuits, drawn = _circuits(out, quick=quick)
    files.extend(drawn)
    md = out / "summary.md"
    md.write_text(
        markdown(outcomes, controls, zoology, profile, [f.name for f in files], classics,
                 quick=quick, circuits=circuits)
    )
    files.insert(0, md)
    return files


def _circuits(out: Path, *, quick: bool) -> tuple[str, list[Path]]:
    """The circuits section (H.7.6): networks, the oblivious MQAR and the paper's pbs circuit."""
    from pram.reports.circuit_report import circuit_section, mqar_section

    text, drawn = circuit_section(out, quick=quick)
    return text + "\n" + mqar_section(quick=quick), drawn


def _plots(out: Path, outcomes: Sequence[Outcome], profile: Run) -> list[Path]:
    sweeps: dict[str, Sweep] = {o.plan.short or o.plan.label: o.sweep for o in outcomes}

    def pick(*names: str) -> dict[str, Sweep]:
        return {k: sweeps[k] for k in names if k in sweeps}

    word = pick("merge-tree", "per-block", "all-pairs")
    bit = pick("serial", "tree")
    others = pick("Algorithm 9", "Algorithm 10", "bitonic sort")
    names = {"Algorithm 9": "Algorithm 9 (sequential)", "merge-tree": "Algorithm 11, merge-tree",
             "per-block": "Algorithm 11, per-block", "all-pairs": "all-pairs baseline"}
    cost_lines = {long: sweeps[k].runs for k, long in names.items() if k in sweeps}
    n = next(iter(profile.bound_sizes.values()))
    title = f"Algorithm 11 (merge-tree, word keys, EREW), N = {int(n):,}"
    return [
        plots.cost_plot(cost_lines, out / "cost.png"),
        plots.save(plots.ratio_figure(word), out / "ratios_mqar.png"),
        plots.save(plots.ratio_figure(bit), out / "ratios_bits.png"),
        plots.save(plots.ratio_figure(others), out / "ratios_others.png"),
        plots.activity_plot(profile.cost, f"active processors per step: {title}",
                            out / "activity.png"),
        plots.brent_plot(profile.cost, f"Brent: T_p against p, {title}", out / "brent.png"),
    ]




# ---- a declared algorithm's own section (pram report --module FILE NAME) -------------------


def write_declared(
    out: Path, name: str, options: Options, *, progress: Progress | None = None,
    runner: Runner | None = None,
) -> tuple[Sweep, tuple[Path, ...]]:
    """Sweep the declared algorithm ``name`` over its declaration's ``sizes`` and write its
    own section, the folder named after the declaration's ``name`` in ``out`` (whether its
    variable or its name picked it): ``summary.md`` (runs, bound verdicts with their
    evidence, laws), ``measurements.json`` (the sweep as ``pram sweep --json`` gives it,
    without wall-clock seconds), ``measurements.csv`` (one row per run) and ``ratios.png``
    (when it declares bounds).
    The rest of ``out`` is left as it is."""
    from pram.reports.entries import algorithm

    entry = algorithm(name)
    declaration = entry.declaration
    assert declaration is not None, f"{name} is a built-in algorithm, not a declaration"
    result = sweep(name, list(declaration.sizes), options, progress=progress, runner=runner)
    section = out / name

    def write(folder: Path) -> list[Path]:
        data = result.as_dict(wall_clock=False)
        json_path = folder / "measurements.json"
        json_path.write_text(json.dumps(data, indent=1) + "\n")
        csv_path = folder / "measurements.csv"
        fields = ("n", "time", "work", "rounds", "round_work", "reads", "writes", "max_processors",
                  "violations",
                  "correct", *(f"{key} ratio" for key in result.checks))
        with csv_path.open("w", newline="") as f:
            table = csv.DictWriter(f, fieldnames=fields)
            table.writeheader()
            for run in result.runs:
                d = run.as_dict()
                table.writerow({**{k: d[k] for k in fields if k in d},
                                **{f"{key} ratio": run.bounds[key].ratio
                                   for key in result.checks}})
        md = folder / "summary.md"
        md.write_text(_declared_markdown(result, declaration.shown, options.module))
        if not result.checks:  # no bound declared: no ratio to plot
            return [md, json_path, csv_path]
        return [md, json_path, csv_path, plots.ratio_plot(result, folder / "ratios.png")]

    return result, tuple(_publish(section, write))


def _declared_markdown(result: Sweep, title: str, module: str | None) -> str:
    """``summary.md`` of a declared algorithm's section."""
    runs = result.runs
    model = runs[0].model if runs else result.options.model
    lines = [
        f"# {title}", "",
        f"Declared in `{module}`; model {model}, seed {result.options.seed}; every figure "
        "counted by the machine while the program ran, every answer compared with the "
        "declared reference.", "",
        "| n | time | rounds | work | max processors | violations | answer |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        answer = {True: "right", False: "WRONG", None: "not checked"}[r.correct]
        lines.append(f"| {r.sizes['n']} | {r.cost.time} | {r.cost.rounds} | {r.cost.work} | "
                     f"{r.cost.max_processors} | {r.violations} | {answer} |")
    lines += ["", "## Bounds", "", "| bound | formula | verdict | law |", "|---|---|---|---|"]
    for key, c in result.checks.items():
        lines.append(f"| {key} | {c.formula.text} | {c.summary} | {c.law.text} |")
    lines.append("")
    for key, c in result.checks.items():
        lines += [f"**{key}**: {c.summary}; {c.reason}. {c.evidence_text()}", ""]
    lines += ["## Laws", ""]
    lines += [f"- {law['text']}" for law in result.laws().values()]
    first = next((r.first_violations[0].message for r in runs if r.first_violations), None)
    verdict = "every run right and clean, no bound exceeded" if result.ok else "FAILED"
    lines += ["", f"Verdict: {verdict}" + (f" (e.g. {first})" if first else "") + ".", ""]
    return "\n".join(lines)
