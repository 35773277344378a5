"""Plots of sweeps and runs (matplotlib, an optional extra: ``pip install matplotlib``).

Every function draws on a fresh :class:`matplotlib.figure.Figure` (no pyplot state) and saves
it as PNG or SVG, chosen by the file's suffix. The figures only draw what the ledger counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pram import Check, Cost
from pram.reports.preflight import require_matplotlib
from pram.reports.verdicts import verdict_words

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    # Types only: the measure floor's notebook display draws these figures, so a run-time
    # import back would close a cycle.
    from pram.reports.runs import Run
    from pram.reports.sweeps import Sweep

def _figure(rows: int, cols: int, width: float = 6.0, height: float = 4.0) -> Figure:
    require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=(width * cols, height * rows), layout="constrained")


def save(figure: Figure, path: Path | str) -> Path:
    """Write ``figure`` to ``path`` (PNG or SVG by its suffix), whole or not at all (through
    :func:`pram.reports.writer.write`); return the path."""
    from pram.reports.writer import save_figure

    return save_figure(Path(path), figure)


def x_size(run: Run) -> tuple[str, float]:
    """The size a run is plotted against: the first size of its bound formulas (N or n)."""
    name, value = next(iter(run.bound_sizes.items()))
    return name, float(value)


def _series(check: Check) -> dict[str, list[tuple[float, float]]]:
    """A check's points (its first size, measured / formula), one line per token width when
    d varies in the formulas. Read off the check itself: a bound given by ``--bound`` or judged
    on rounds (``--measure rounds``) is in no run's own bounds."""
    widths = {sizes.get("d") for sizes in check.sizes}
    out: dict[str, list[tuple[float, float]]] = {}
    for sizes, ratio in zip(check.sizes, check.ratios, strict=True):
        line = f"d={int(sizes['d'])}" if len(widths) > 1 else ""
        out.setdefault(line, []).append((float(next(iter(sizes.values()))), ratio))
    return out


def ratio_figure(sweeps: Mapping[str, Sweep]) -> Figure:
    """measured / formula against the size, one panel per bound and formula (one formula per
    axis, its size on the x axis), one line per sweep; legends below the axes, off the lines."""
    panels: list[tuple[str, str]] = []
    for s in sweeps.values():
        for key, c in s.checks.items():
            if (key, c.formula.text) not in panels:
                panels.append((key, c.formula.text))
    keys = list(dict.fromkeys(key for key, _ in panels))
    rows = [[p for p in panels if p[0] == key] for key in keys]
    if all(len(row) == 1 for row in rows):
        rows = [[row[0] for row in rows]]
    cols = max(len(row) for row in rows)
    figure = _figure(len(rows), cols, height=4.6)
    grid = figure.subplots(len(rows), cols, squeeze=False)
    for r, row in enumerate(rows):
        for col in range(len(row), cols):
            grid[r][col].set_visible(False)
        for ax, (key, formula) in zip(grid[r], row, strict=False):
            size = ""
            for label, s in sweeps.items():
                found = s.checks.get(key)
                if found is None or found.formula.text != formula:
                    continue
                c = found
                size = size or next(iter(c.sizes[0]))
                for sub, points in _series(c).items():
                    xs = [x for x, _ in points]
                    ys = [y for _, y in points]
                    verdict = verdict_words(c)
                    name = " ".join(p for p in (label, sub) if p)
                    ax.plot(xs, ys, marker="o", label=f"{name} ({verdict})" if name else verdict)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            _at_least_a_factor_of_four(ax)
            ax.set_xlabel(size)
            ax.set_ylabel(f"{key} / formula")
            ax.set_title(f"{key} / ({formula})", fontsize=9)
            ax.grid(True, which="both", alpha=0.3)
            lines = len(ax.get_lines())
            ax.legend(fontsize=7, ncol=2 if lines > 4 else 1, loc="upper center",
                      bbox_to_anchor=(0.5, -0.16), frameon=False)
    return figure


def ratio_plot(sweep: Sweep, path: Path | str) -> Path:
    """``pram sweep --plot``: measured / formula against N for every bound of one sweep."""
    return save(ratio_figure({sweep.algorithm.name: sweep}), path)


def cost_figure(lines: Mapping[str, Sequence[Run]]) -> Figure:
    """Work and time against N on log-log axes, one line per algorithm."""
    figure = _figure(1, 2)
    work, time = figure.subplots(1, 2)
    for label, runs in lines.items():
        xs = [x_size(r)[1] for r in runs]
        work.plot(xs, [r.cost.work for r in runs], marker="o", label=label)
        time.plot(xs, [r.cost.time for r in runs], marker="o", label=label)
    for ax, what in ((work, "work (operations)"), (time, "time (steps)")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("N (tokens)")
        ax.set_ylabel(what)
        ax.set_title(f"{what.split()[0]} against N", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    return figure


def cost_plot(lines: Mapping[str, Sequence[Run]], path: Path | str) -> Path:
    """:func:`cost_figure`, saved to ``path``."""
    return save(cost_figure(lines), path)


def _top_phases(cost: Cost) -> list[str]:
    """The top-level phase of each step (several joined with ' and ', '' when unlabelled)."""
    out = []
    for labels in cost.step_phases:
        tops = sorted({label.split("/")[0] for label in labels if label})
        out.append(" and ".join(tops))
    return out


def _phase_legend(label: str) -> str:
    """A phase's legend entry; a step shared by parallel branches in two phases says so."""
    if " and " in label:
        return f"{label} in one step (parallel branches, e.g. two levels at once)"
    return label


def activity_figure(cost: Cost, title: str) -> Figure:
    """Active processors per step, with the top-level phases shaded."""
    figure = _figure(1, 1, width=10.0)
    ax: Axes = figure.subplots()
    steps = list(range(1, len(cost.profile) + 1))
    ax.step(steps, cost.profile, where="mid", color="black", linewidth=0.8)
    colours = _colours()
    shown: dict[str, Any] = {}
    phases = _top_phases(cost)
    start = 0
    for i in range(1, len(phases) + 1):
        if i == len(phases) or phases[i] != phases[start]:
            label = phases[start] or "(unlabelled)"
            colour = shown.setdefault(label, colours[len(shown) % len(colours)])
            entry = _phase_legend(label)
            ax.axvspan(start + 0.5, i + 0.5, color=colour, alpha=0.25, linewidth=0,
                       label=entry if entry not in ax.get_legend_handles_labels()[1] else None)
            start = i
    ax.set_xlabel("step")
    ax.set_ylabel("active processors")
    ax.set_yscale("symlog", linthresh=1)
    ax.set_xlim(0.5, len(steps) + 0.5)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3,
              frameon=False, title="phase of the step (shaded)", title_fontsize=8)
    return figure


def activity_plot(cost: Cost, title: str, path: Path | str) -> Path:
    """:func:`activity_figure`, saved to ``path``."""
    return save(activity_figure(cost, title), path)


def brent_figure(cost: Cost, title: str) -> Figure:
    """Brent's time T_p on p processors, against the bounds W/p + T and max(W/p, T)."""
    figure = _figure(1, 1)
    ax: Axes = figure.subplots()
    ps: list[int] = []
    p = 1
    while p < 4 * max(1, cost.max_processors):
        ps.append(p)
        p *= 2
    ax.plot(ps, [cost.brent(p) for p in ps], marker="o", label="T_p (counted)")
    ax.plot(ps, [cost.work / p + cost.time for p in ps], linestyle="--", label="W/p + T")
    ax.plot(ps, [max(cost.work / p, cost.time) for p in ps], linestyle=":", label="max(W/p, T)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("p (processors)")
    ax.set_ylabel("T_p (steps)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return figure


def brent_plot(cost: Cost, title: str, path: Path | str) -> Path:
    """:func:`brent_figure`, saved to ``path``."""
    return save(brent_figure(cost, title), path)


def _at_least_a_factor_of_four(ax: Axes) -> None:
    """Show a y range of at least a factor 4, so a flat ratio does not look like growth."""
    low, high = ax.get_ylim()
    if low > 0 and high / low < 4:
        middle = (low * high) ** 0.5
        ax.set_ylim(middle / 2, middle * 2)


def _colours() -> list[str]:
    return [f"C{i}" for i in range(10)]
