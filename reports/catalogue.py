"""The report's section on the catalogue of classic PRAM algorithms (:mod:`pram.reports.classics`
and :mod:`pram.reports.techniques`).

:func:`catalogue` sweeps every entry under its own model and runs the negative controls (each
CREW or CRCW entry under a weaker model, which must flag violations: :data:`CONTROLS`); the
result renders as a terminal table, as Markdown for ``summary.md`` and as JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from typing import Any

import attrs
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pram import Check
from pram.cost import local_verdict
from pram.laws.bounds import check, mean_check
from pram.reports import classics, techniques
from pram.reports.classics import WEAKER
from pram.reports.registry import Algorithm, Options
from pram.reports.runs import Control, Run, measure_of
from pram.reports.sweeps import Sweep, sweep
from pram.reports.tasks import Runner, Task, run_all
from pram.reports.verdicts import verdict_words

#: Every entry of the catalogue, in the report's order: the six classics, then the techniques.
ENTRIES = (*classics.ENTRIES, *techniques.ENTRIES)

#: Every negative control, as (entry, weaker model), in the report's order.
CONTROLS: tuple[tuple[str, str], ...] = (*WEAKER.items(), *techniques.CONTROLS)

# ---- the report's catalogue section ------------------------------------------------------------


def _doubling(low: int, high: int) -> list[int]:
    return [1 << k for k in range(low, high + 1)]


def sizes(quick: bool = False) -> dict[str, list[int]]:
    """The sweep of each entry in the report (``quick``: small sizes, for a smoke test)."""
    # At least five sizes each, none of them 1, so a law has points to be decided on.
    if quick:
        return {"list-ranking": _doubling(2, 6), "prefix-sums": _doubling(2, 6),
                "merge": _doubling(2, 6), "matrix-multiply": _doubling(1, 5),
                "max": _doubling(2, 6), "rank-sort": _doubling(2, 6),
                **{entry.name: _doubling(2, 6) for entry in techniques.ENTRIES}}
    return {"list-ranking": _doubling(4, 14), "prefix-sums": _doubling(4, 14),
            "merge": _doubling(4, 14), "matrix-multiply": _doubling(1, 6),
            "max": _doubling(4, 8), "rank-sort": _doubling(4, 8),
            # the random-mate ranking and the components' rounds jitter with the data: their
            # laws need sizes to 2^16 to tell n from n L^0.5 (and n L from n L^1.5)
            "list-ranking-random": _doubling(4, 16), "euler-tour": _doubling(4, 13),
            # tree contraction's work jitters with the random tree: judged on the mean over
            # INSTANCES seeded trees per size, to 2^16
            "tree-contraction": _doubling(4, 16), "components": _doubling(4, 16),
            "compaction": _doubling(4, 14),
            # the doubly logarithmic tree gains one level exactly at n = 2^(2^k) and is complete
            # (every group full) at n = 2^(2^k - 1): its time is judged on the first family
            # (JUDGED_ON), its work on both
            "max-loglog": sorted({*LEVELS, *(1 << ((1 << k) - 1) for k in range(1, 5))}),
            # work / n saw-tooths as the tree on the n / b block maxima fills its last level;
            # to 2^17, where the block b grows from 4 to 5, the sweep holds a whole tooth
            "max-cascading": _doubling(4, 17), "selection": _doubling(4, 14)}


#: The sizes n = 2^(2^k) up to 2^16, where the doubly logarithmic tree gains a level.
LEVELS = [1 << (1 << k) for k in range(5)]

#: Bounds judged on a part of their entry's sweep, as {entry: {bound: sizes}}: the doubly
#: logarithmic tree's time, 4 steps a level, is 4 log2(log2 n) + 4 exactly where it gains a
#: level, and steps in between (at n = 2^(2^k - 1) it is 4 log2(log2 n + 1)); its work is
#: judged on the whole sweep, where the complete trees add the points a least-squares verdict
#: needs to tell n log2(L) from n L^0.5.
JUDGED_ON: dict[str, dict[str, list[int]]] = {"max-loglog": {"time": LEVELS}}

#: Entries whose counts depend on a random instance: the number of seeded instances (seeds 0,
#: 1, ...) run at every size of the report's sweep, whose mean counts the bounds are judged on.
INSTANCES = {"tree-contraction": 5}


def instances(name: str, quick: bool = False) -> int:
    """How many seeded instances the report runs of ``name`` at each size (1 when quick)."""
    return 1 if quick else INSTANCES.get(name, 1)


def mean_checks(entry: Algorithm, seeded: Sequence[Sequence[Run]]) -> dict[str, Check]:
    """Each bound of ``entry`` checked on the mean count over the seeded sweeps ``seeded`` (one
    sequence of runs per seed, the same sizes in each), at the sizes of the first."""
    first = seeded[0]
    out = {}
    for key, bound in entry.bounds.items():
        if key not in first[0].bounds:
            continue
        out[key] = mean_check(measure_of(key), bound.formula, [
            (r.bound_sizes, [runs[i].bounds[key].measured for runs in seeded])
            for i, r in enumerate(first)])
    return out


def part_checks(entry: Algorithm, runs: Sequence[Run],
                parts: Mapping[str, Sequence[int]]) -> dict[str, Check]:
    """Each bound of ``entry`` named in ``parts`` checked on the runs at its sizes alone."""
    out = {}
    for key, ns in parts.items():
        chosen = [r for r in runs if r.sizes["n"] in ns]
        bound = entry.bounds[key]
        out[key] = check(measure_of(key), bound.formula,
                         [(r.bound_sizes, r.bounds[key].measured) for r in chosen])
    return out


#: The size of each negative control's run.
CONTROL_N = {"merge": 64, "matrix-multiply": 8, "max": 32, "rank-sort": 32,
             "components": 64, "max-loglog": 64, "max-cascading": 64}


@attrs.frozen
class Catalogue:
    """The catalogue's sweeps under their own models and its negative controls."""

    sweeps: tuple[Sweep, ...]
    controls: tuple[Control, ...]
    #: Entries whose bounds are judged on the mean counts over several seeded instances per
    #: size, with their number (the time and work shown are those of seed 0).
    instances: Mapping[str, int] = attrs.field(factory=dict)
    #: Entries with bounds judged on a part of their sweep: {entry: {bound: sizes}}.
    judged_on: Mapping[str, Mapping[str, Sequence[int]]] = attrs.field(factory=dict)

    @property
    def ok(self) -> bool:
        """Whether every sweep is correct, clean and within its bounds and every control flagged.
        """
        return all(s.ok for s in self.sweeps) and all(c.as_predicted for c in self.controls)

    def as_dict(self) -> dict[str, Any]:
        """The section as JSON: each entry's sweep and checks, and the controls."""
        return {
            "ok": self.ok,
            "sweeps": [
                {"model": s.runs[0].options.model,
                 "instances": self.instances.get(s.algorithm.name, 1),
                 **({"judged_on": {k: list(v) for k, v in parts.items()}}
                    if (parts := self.judged_on.get(s.algorithm.name)) else {}),
                 **s.as_dict(nested_phases=False, wall_clock=False)}
                for s in self.sweeps
            ],
            "controls": [
                {"as_predicted": c.as_predicted,
                 **c.run.as_dict(nested_phases=False, wall_clock=False)}
                for c in self.controls
            ],
        }

    def __rich__(self) -> RenderableType:
        table = Table(box=box.SIMPLE_HEAD, title="catalogue of classic algorithms",
                      title_justify="left", pad_edge=False)
        for head in ("algorithm", "model", "n", "time", "rounds", "work", "checks"):
            table.add_column(head, justify="right" if head in ("time", "rounds", "work")
                             else "left")
        for row in rows(self.sweeps, self.instances, self.judged_on):
            table.add_row(*row[:6], _checks_text(row[6]))
        lines: list[RenderableType] = [table]
        lines += [Text(line) for line in control_lines(self.controls)]
        return Group(*lines)

    def markdown(self) -> str:
        """The section of ``summary.md``: one table of entries, one list of controls."""
        table = [
            "| algorithm | model | n | time | rounds | work | local work per step | checks |",
            "| --- | --- | --- | ---: | ---: | ---: | --- | --- |",
        ]
        for swept, (name, model, n, time, rounds, work, checks) in zip(
            self.sweeps, rows(self.sweeps, self.instances, self.judged_on), strict=True
        ):
            text = "; ".join(f"{k} `{f}`: {v}" for k, f, v in checks)
            most = [int(getattr(r.cost, "max_local", 0)) for r in swept.runs]
            local = f"most {most[0]}..{most[-1]}: {local_verdict(most)}"
            table.append(f"| `{name}` | {model} | {n} | {time} | {rounds} | {work} | {local} "
                         f"| {text} |")
        return "\n".join([
            "## Catalogue of classic algorithms",
            "",
            "Each entry swept under the model it is written for (`pram sweep NAME`), its answers "
            "checked against an outside reference, its time and work checked against its "
            "bounds; time, rounds (the textbooks' read-compute-write steps, checked against "
            "the textbooks' counts in the catalogue's reference) and work are shown at the "
            "smallest and largest n.",
            "",
            *table,
            "",
            "Negative controls: each entry that needs concurrent access, run under the next "
            "weaker model, must be flagged.",
            "",
            *(f"- {line}" for line in control_lines(self.controls)),
            "",
        ])


def verdict_text(check: Check) -> str:
    """The bound verdict with its tightness and its constant, e.g. ``holds, tight (constant
    2)``."""
    return verdict_words(check, constant=".3g")


def law_text(check: Check) -> str:
    """The law of the check's measure, when the check machinery finds one (else empty)."""
    law = getattr(check, "law", None)
    if law is None:
        return ""
    describe = getattr(law, "describe", None)
    return str(describe() if callable(describe) else law)


def rows(
    sweeps: Sequence[Sweep], instances: Mapping[str, int] | None = None,
    judged_on: Mapping[str, Mapping[str, Sequence[int]]] | None = None,
) -> list[tuple[str, str, str, str, str, str, list[tuple[str, str, str]]]]:
    """One row per sweep: name, model, sizes, time, rounds and work at both ends, and each
    check.

    An entry of ``instances`` says its checks judge the mean over that many seeded instances
    per size (the time and work shown are seed 0's), and its sizes say so; so do those of an
    entry of ``judged_on``, whose bounds named there are judged on those sizes alone.
    """
    out = []
    for s in sweeps:
        first, last = s.runs[0], s.runs[-1]
        span = f"{first.sizes['n']}..{last.sizes['n']}"
        ns = [r.sizes["n"] for r in s.runs]
        if any(b != 2 * a for a, b in pairwise(ns)):  # not a doubling sweep: every size
            span = ", ".join(str(n) for n in ns)
        count = (instances or {}).get(s.algorithm.name, 1)
        if count > 1:
            span += f" (bounds judged on the mean over {count} seeded instances per size; " \
                    "time and work of seed 0)"
        for key, part in (judged_on or {}).get(s.algorithm.name, {}).items():
            span += f" ({key} judged on n = {', '.join(str(n) for n in part)})"
        checks = [
            (k, c.formula.text, verdict_text(c) + (f"; law {law}" if (law := law_text(c)) else ""))
            for k, c in s.checks.items()
        ]
        out.append((
            s.algorithm.name, first.model, span,
            f"{first.cost.time:,}..{last.cost.time:,}",
            f"{first.cost.rounds:,}..{last.cost.rounds:,}",
            f"{first.cost.work:,}..{last.cost.work:,}",
            checks,
        ))
    return out


def _checks_text(checks: list[tuple[str, str, str]]) -> Text:
    text = Text()
    for i, (key, formula, verdict) in enumerate(checks):
        if i:
            text.append("; ")
        text.append(f"{key} O({formula}) ")
        text.append(verdict, "green" if verdict.startswith("holds") else "red")
    return text


def control_lines(controls: Sequence[Control]) -> list[str]:
    """One sentence per negative control: entry, model, violations, first one, answer."""
    out = []
    for c in controls:
        r = c.run
        out.append(
            f"{r.algorithm.name} (written for {model_label(r.algorithm)}) under {r.model}, "
            f"n = {r.sizes['n']}: {r.violations:,} violations"
            + (" (flagged, as it must be)" if c.as_predicted else " (NOT flagged)")
            + f", answer {'correct' if r.correct else 'WRONG'}; first: {c.first}"
        )
    return out


def model_label(entry: Algorithm) -> str:
    """The display name of the model an entry is written for, e.g. ``CRCW-common``."""
    from pram import model

    return model(entry.model).name


def tasks(quick: bool = False) -> list[Task]:
    """Every run :func:`catalogue` makes: each entry's sweep under its own model, then the
    negative controls, so a report can hand them to its workers with its other runs."""
    plan: Mapping[str, list[int]] = sizes(quick)
    return [
        *(Task(entry.name, Options(n=n, model=entry.model))
          for entry in ENTRIES for n in plan[entry.name]),
        *(Task(entry.name, Options(n=n, model=entry.model, seed=seed))
          for entry in ENTRIES for seed in range(1, instances(entry.name, quick))
          for n in plan[entry.name]),
        *(Task(name, Options(n=CONTROL_N[name], model=weaker)) for name, weaker in CONTROLS),
    ]


def catalogue(
    quick: bool = False,
    progress: Callable[[int, int, str], None] | None = None,
    runner: Runner | None = None,
) -> Catalogue:
    """Sweep every entry under its own model and run the negative controls.

    ``runner`` says where the runs execute (default: here, one after the other); a report
    passes the runs it already made (:class:`pram.reports.measure.Done`).
    """
    plan: Mapping[str, list[int]] = sizes(quick)
    total = sum(len(ns) for ns in plan.values()) + len(CONTROLS)
    done = 0
    sweeps = []
    mean: dict[str, int] = {}
    for entry in ENTRIES:
        ns = plan[entry.name]

        def tick(i: int, n: int, what: str, name: str = entry.name, start: int = done) -> None:
            if progress is not None and i < n:
                progress(start + i, total, f"{name}: {what}")

        swept = sweep(entry.name, ns, Options(model=entry.model), progress=tick, runner=runner)
        if (count := instances(entry.name, quick)) > 1:
            seeded = [swept.runs, *(
                run_all([Task(entry.name, Options(n=n, model=entry.model, seed=seed))
                         for n in ns], runner)
                for seed in range(1, count))]
            swept = attrs.evolve(swept, checks=mean_checks(swept.algorithm, seeded))
            mean[entry.name] = count
        if not quick and (parts := JUDGED_ON.get(entry.name)):
            swept = attrs.evolve(swept, checks={
                **swept.checks, **part_checks(swept.algorithm, swept.runs, parts)})
        sweeps.append(swept)
        done += len(ns)
    controls = []
    for name, weaker in CONTROLS:
        if progress is not None:
            progress(done, total, f"{name} under {weaker}")
        (run,) = run_all([Task(name, Options(n=CONTROL_N[name], model=weaker))], runner)
        controls.append(Control(run))
        done += 1
    judged = {} if quick else {name: JUDGED_ON[name] for name in plan if name in JUDGED_ON}
    return Catalogue(tuple(sweeps), tuple(controls), mean, judged)


__all__ = [
    "CONTROLS", "ENTRIES", "INSTANCES", "JUDGED_ON", "LEVELS", "WEAKER", "Catalogue", "Control",
    "catalogue", "instances", "mean_checks", "part_checks", "sizes", "tasks",
]
