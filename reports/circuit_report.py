"""The report's circuit section (H.7.6): Knuth's drawing of a recorded network, the networks'
size and depth against their bounds, the oblivious MQAR as a circuit, and the paper's
hand-built pbs circuit (:mod:`pram.algorithms.pbs_circuit`). Every circuit recorded here comes
from the one record-and-check loop, :func:`pram.reports.circuit_build.build`; every figure is
counted on a built circuit.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import attrs
import numpy as np
import numpy.typing as npt

from pram import Check, check
from pram.algorithms import pbs_circuit
from pram.circuits.circuit import Circuit, evaluate
from pram.reports.circuit_build import Setup, build, setup
from pram.reports.formulas import CIRCUIT, lg
from pram.reports.plots import _figure, save
from pram.reports.verdicts import verdict_words

_W = npt.NDArray[np.int64]


@attrs.frozen
class SweepRow:
    """One built circuit of the report's sweep, with its bounds' formulas evaluated."""

    label: str
    n: int
    d: int
    size: int
    depth: int
    size_bound: str
    size_formula: float
    depth_bound: str
    depth_formula: float

    @property
    def size_ratio(self) -> float:
        """Measured size over the size bound's formula."""
        return self.size / self.size_formula

    @property
    def depth_ratio(self) -> float:
        """Measured depth over the depth bound's formula."""
        return self.depth / self.depth_formula


def sweep_rows(*, quick: bool = False) -> list[SweepRow]:
    """Build the circuits of the sweep (each checked on 2 random inputs) and measure them."""
    rows: list[SweepRow] = []
    top = 4 if quick else 9
    for network in ("bitonic", "odd-even"):
        for k in range(2, top + 1):
            c = _built(setup("sort", 2**k, None, None, network))
            n = 2**k
            rows.append(SweepRow(f"sort {network}, word", n, 1, c.size, c.depth,
                                 "n log2(n)^2", n * lg(n) ** 2, "log2(n)^2", lg(n) ** 2))
    for k in range(2, (3 if quick else 6) + 1):
        c = _built(setup("sort", 2**k, 8, "bits", "bitonic"))
        n = 2**k
        rows.append(SweepRow("sort bitonic, 8-bit keys", n, 8, c.size, c.depth,
                             "n log2(n)^2 d", n * lg(n) ** 2 * 8,
                             "log2(n)^2 log2(d)", lg(n) ** 2 * 3))
    for d in (2, 8, 64) if quick else (2, 4, 8, 16, 32, 64):
        c = _built(setup("compare", None, d, None))
        rows.append(SweepRow("compare (Lemma H.32)", 2, d, c.size, c.depth,
                             "d", float(d), "log2(d)", lg(d)))
    return rows


def _built(s: Setup) -> Circuit:
    built = build(s, checks=2)
    if built.circuit is None or not built.ok:
        raise AssertionError(f"the {s.algorithm} circuit did not check out: {built.as_dict()}")
    return built.circuit


def draw_network(path: Path | str, *, n: int = 8, network: str = "bitonic") -> Path:
    """Knuth's drawing of the recorded sorting network: horizontal wires, vertical comparators.

    Drawn from the circuit the recorder built (not from a formula): comparator ``(x, y)`` joins
    the lines its two input wires are on, at the column of its depth; its minimum leaves on the
    upper line (the networks are all ascending).
    """
    c = _built(setup("sort", n, None, None, network))
    line = {int(w): k for k, w in enumerate(c.inputs.tolist())}
    levels = c.levels
    figure = _figure(1, 1, width=max(6.0, 0.55 * c.depth + 1.5), height=0.45 * n + 1.0)
    axes = figure.subplots()
    used: dict[int, list[tuple[int, int]]] = {}
    for kind, ins, outs in c.gates():
        upper, lower = line[ins[0]], line[ins[1]]
        line[outs[0]], line[outs[1]] = upper, lower
        column = int(levels[outs[0]])
        spans = used.setdefault(column, [])
        shift = sum(1 for a, b in spans if not (max(upper, lower) < a or min(upper, lower) > b))
        spans.append((min(upper, lower), max(upper, lower)))
        x = column + 0.3 * shift
        axes.plot([x, x], [upper, lower], color="black", linewidth=1.5)
        axes.plot([x, x], [upper, lower], "o", color="black", markersize=5)
        del kind
    for k in range(n):
        axes.plot([0.3, c.depth + 0.9], [k, k], color="black", linewidth=1)
    axes.set_ylim(n - 0.5, -0.5)
    axes.set_xlim(0, c.depth + 1.2)
    axes.axis("off")
    axes.set_title(f"{network}, n = {n}: {c.size} comparators, depth {c.depth}", fontsize=10)
    return save(figure, path)


def plot_sweep(rows: list[SweepRow], path: Path | str) -> Path:
    """Size and depth of the sweep's circuits over their bounds' formulas."""
    figure = _figure(1, 2)
    size_axes, depth_axes = figure.subplots(1, 2)
    for label in dict.fromkeys(r.label for r in rows):
        series = [r for r in rows if r.label == label]
        x = [r.d if label.startswith("compare") else r.n for r in series]
        size_axes.plot(x, [r.size_ratio for r in series], "o-",
                       label=f"{label}: size / {series[0].size_bound}")
        depth_axes.plot(x, [r.depth_ratio for r in series], "o-",
                        label=f"{label}: depth / {series[0].depth_bound}")
    for axes, what in ((size_axes, "size"), (depth_axes, "depth")):
        axes.set_xscale("log", base=2)
        axes.set_xlabel("n (sorts) or d (compare)")
        axes.set_ylabel(f"measured {what} / bound")
        axes.set_ylim(bottom=0)
        axes.legend(fontsize=7)
    return save(figure, path)


def checks(rows: list[SweepRow]) -> list[tuple[str, Check, Check]]:
    """Per series of the sweep, :func:`pram.check` of its size and depth against the bounds."""
    out = []
    for label in dict.fromkeys(r.label for r in rows):
        series = [r for r in rows if r.label == label]
        varying = "d" if label.startswith("compare") else "n"
        verdicts = []
        for measure in ("size", "depth"):
            text = getattr(series[0], f"{measure}_bound")
            formula = CIRCUIT[text]
            points = [({varying: float(getattr(r, varying))}, float(getattr(r, measure)))
                      for r in series]
            verdicts.append(check(measure, formula, points))
        out.append((label, verdicts[0], verdicts[1]))
    return out


def circuit_section(out: Path, *, quick: bool = False) -> tuple[str, list[Path]]:
    """The report's circuit section: markdown text and the files it wrote into ``out``."""
    rows = sweep_rows(quick=quick)
    files = [
        draw_network(out / "circuit_bitonic8.png"),
        plot_sweep(rows, out / "circuit_sweep.png"),
    ]
    lines = [
        "## Circuits from oblivious programs (H.7.6)",
        "",
        "Each circuit is recorded from a PRAM run, found oblivious on four inputs and checked "
        "against the machine by an independent evaluator.",
        "",
        "| circuit | n | d | size | depth | size / bound | depth / bound |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.label} | {r.n} | {r.d} | {r.size} | {r.depth} | "
            f"{r.size_ratio:.3f} ({r.size_bound}) | {r.depth_ratio:.3f} ({r.depth_bound}) |"
        )
    lines += ["", "| circuit | size bound | holds | depth bound | holds |",
              "|---|---|---|---|---|"]
    for label, size, depth in checks(rows):
        lines.append(
            f"| {label} | O({size.formula.text}) | {_verdict(size)} | "
            f"O({depth.formula.text}) | {_verdict(depth)} |"
        )
    lines += ["", f"![bitonic network, n = 8]({files[0].name})", "",
              f"![circuit sizes and depths]({files[1].name})", ""]
    return "\n".join(lines), files


def _verdict(c: Check) -> str:
    return verdict_words(c, form="bare", max_ratio=".3f")


# ---- the oblivious MQAR and the paper's pbs circuit ------------------------------------------


@attrs.frozen
class MqarRow:
    """One circuit of the sweep: N (padded to 3 * 2^L), its size and depth, and the ratios."""

    n: int
    size: int
    depth: int
    gates: dict[str, int]

    @property
    def size_ratio(self) -> float:
        """size / (N log2(N)^2)."""
        return self.size / (self.n * lg(self.n) ** 2)

    @property
    def depth_ratio(self) -> float:
        """depth / log2(N)^2."""
        return self.depth / lg(self.n) ** 2


def mqar_rows(levels: range = range(4, 11), *, checks: int = 2) -> list[MqarRow]:
    """Build (oblivious, recorded, checked) the circuit at N = 3 * 2^L for each L."""
    rows = []
    for lv in levels:
        n = 3 << lv
        built = build(setup("mqar", n, None, None), checks=checks)
        if built.circuit is None or not built.ok:
            raise AssertionError(f"the mqar circuit at N = {n} did not check out")
        c = built.circuit
        rows.append(MqarRow(n, c.size, c.depth, dict(c.by_kind)))
    return rows


def bisect_left_all(queries: _W, keys: _W) -> _W:
    """eq. (12) on the host, for checks: ``bisect_left`` of each query among the keys."""
    result: _W = np.searchsorted(keys, queries, side="left").astype(np.int64)
    return result


@attrs.frozen
class PbsRow:
    """One built circuit: its sizes, gates by kind, size, depth, and whether it checked out."""

    n: int
    m: int
    d: int
    size: int
    depth: int
    gates: dict[str, int]
    checked: int
    equal: bool


def pbs_measure(n: int, m: int, d: int = 1, *, checks: int = 8, seed: int = 0) -> PbsRow:
    """Build the circuit and check it against ``bisect_left`` on ``checks`` random inputs."""
    c = pbs_circuit.build(n, m, d)
    rng = np.random.default_rng(seed)
    top = min(2 * max(n, m), 1 << min(d if d > 1 else 62, 62))
    queries = np.sort(rng.integers(0, top, (checks, n)), axis=1)
    keys = np.sort(rng.integers(0, top, (checks, m)), axis=1)
    tokens = np.concatenate([queries, keys], axis=1)
    if d > 1:
        tokens = ((tokens[:, :, None] >> np.arange(d)) & 1).reshape(checks, -1)
    got = evaluate(c, tokens)
    expected = np.stack([bisect_left_all(q, k) for q, k in zip(queries, keys, strict=True)])
    return PbsRow(n, m, d, c.size, c.depth, c.by_kind, checks, bool(np.array_equal(got, expected)))


def pbs_rows(
    sizes: Sequence[int] = (2, 4, 8, 16, 32, 64), widths: Sequence[int] = (1, 8)
) -> list[PbsRow]:
    """The sweep: n = m over ``sizes`` for each d of ``widths``, and n, m apart at d = 1."""
    out = [pbs_measure(k, k, d) for d in widths for k in sizes]
    out += [pbs_measure(n, m) for n, m in ((4, 64), (64, 4), (16, 64), (64, 16))]
    return out


def mqar_section(*, quick: bool = False) -> str:
    """Markdown for the report: the oblivious MQAR circuit over N, and the paper's pbs circuit
    (:mod:`pram.algorithms.pbs_circuit`) over n, m and d, every figure counted on a built
    circuit."""
    lines = [
        "### The oblivious MQAR as a circuit",
        "",
        "| N | size | depth | size / (N log2(N)^2) | depth / log2(N)^2 |",
        "|---:|---:|---:|---:|---:|",
    ]
    for r in mqar_rows(range(4, 6) if quick else range(4, 11)):
        lines.append(f"| {r.n} | {r.size} | {r.depth} | {r.size_ratio:.3f} | "
                     f"{r.depth_ratio:.3f} |")
    lines += [
        "",
        "### The paper's pbs-key-values circuit (eqs. 14-17, multiplexers over the keys)",
        "",
        "| n | m | d | size | depth | size / (n m d log2(m+1)) | depth / (log2(n+1) "
        "log2(m+1)^2) | checked |",
        "|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    sizes = (2, 4, 8) if quick else (2, 4, 8, 16, 32, 64)
    for p in pbs_rows(sizes=sizes, widths=(1, 8)):
        lm, ln = lg(p.m + 1), lg(p.n + 1)
        lines.append(
            f"| {p.n} | {p.m} | {p.d} | {p.size} | {p.depth} | "
            f"{p.size / (p.n * p.m * p.d * lm):.3f} | {p.depth / (ln * lm * lm):.3f} | "
            f"{'equal' if p.equal else 'DIFFERENT'} on {p.checked} |"
        )
    lines += [
        "",
        "### Algorithm 11's searches built from that circuit (the paper's route; sorts excluded)",
        "",
        "| N | size | depth | size / (N log2(N)^2) | depth / log2(N)^2 |",
        "|---:|---:|---:|---:|---:|",
    ]
    for route in pbs_circuit.route(range(4, 6) if quick else range(4, 10)):
        log = lg(route.n)
        lines.append(f"| {route.n} | {route.size} | {route.depth} | "
                     f"{route.size / (route.n * log * log):.3f} | "
                     f"{route.depth / (log * log):.3f} |")
    return "\n".join(lines) + "\n"
