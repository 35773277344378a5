"""The catalogue of classic PRAM algorithms: registry entries, input checks, references, report.

Six entries (:mod:`pram.algorithms.catalogue`), each run by default under the model it is
written for (:attr:`Algorithm.model`): ``list-ranking`` and ``prefix-sums`` (EREW), ``merge``
and ``matrix-multiply`` (CREW), ``max`` (CRCW common) and ``rank-sort`` (CRCW sum). Each has a
reference computed on the host by other means (a walk along the list, numpy, brute force), and
input files are checked here, before any run, with one-line refusals.

:func:`catalogue` sweeps every entry under its own model and runs the negative controls (each
CREW or CRCW entry under the next weaker model, which must flag violations); the result renders
as a terminal table, as Markdown for ``summary.md`` and as JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

import pram.reports.algorithms  # noqa: F401  (the paper's entries register first, in order)
from pram import Check, Formula, InputError, Machine, Words, words
from pram.algorithms import catalogue as programs
from pram.cost import local_verdict
from pram.reports.measure import Run, Sweep, sweep
from pram.reports.parallel import Runner, Task, run_all
from pram.reports.registry import (
    Algorithm,
    Bound,
    Family,
    Instance,
    Options,
    Solution,
    lg,
    load_array,
    load_arrays,
    read_archive,
    register,
)

#: Largest magnitude of a random value: sums and products stay far from int64's limits.
SPREAD = 1000
#: Largest |value| a sum or product of the input may reach: int64 must hold every result.
INT64_MAX = int(np.iinfo(np.int64).max)


# ---- list ranking: successor lists ---------------------------------------------------------------

LIST_INPUT = "a .npy file of successor indices, one list through every node (-1 for the tail)"


def _list_build(options: Options, rng: np.random.Generator) -> Instance:
    """One list through n nodes in a random order."""
    n = options.n or 1024
    order = rng.permutation(n)
    successors = np.full(n, programs.NIL, dtype=np.int64)
    successors[order[:-1]] = order[1:]
    return Instance({"successors": successors}, {"n": n})


def check_list(successors: Words, where: str) -> None:
    """Refuse anything but one list through every node, naming the first offending node."""
    n = len(successors)
    if n == 0:
        raise InputError(f"{where} holds no nodes; give at least one successor (-1 for the tail)")
    bad = np.flatnonzero((successors < programs.NIL) | (successors >= n))
    if bad.size:
        i = int(bad[0])
        raise InputError(
            f"{where} holds successors[{i}] = {int(successors[i])}, outside -1..{n - 1}; "
            "give each node's successor as a node index, or -1 for the tail"
        )
    tails = np.flatnonzero(successors == programs.NIL)
    if tails.size != 1:
        raise InputError(
            f"{where} has {tails.size} tails (successor -1); one list has exactly one, so "
            "link the lists into one"
        )
    linked = successors[successors != programs.NIL]
    counts = np.bincount(linked, minlength=n)
    shared = np.flatnonzero(counts > 1)
    if shared.size:
        j = int(shared[0])
        who = np.flatnonzero(successors == j)[:2].tolist()
        raise InputError(
            f"{where} gives node {j} two predecessors (nodes {who[0]} and {who[1]}); in one "
            "list each node follows at most one other"
        )
    heads = np.flatnonzero(counts == 0)
    # n - 1 links into distinct nodes leave exactly one node without a predecessor: the head.
    node, seen = int(heads[0]), 1
    while successors[node] != programs.NIL and seen <= n:
        node = int(successors[node])
        seen += 1
    if seen < n:
        raise InputError(
            f"{where} is not one list: from the head, node {int(heads[0])}, the tail is "
            f"reached after {seen} of {n} nodes and the rest form a cycle; break the cycle"
        )


def _list_load(path: str, options: Options) -> Instance:
    successors = load_array(path, LIST_INPUT)
    check_list(successors, f"input file {path!r}")
    return Instance({"successors": successors}, {"n": len(successors)})


def _list_reference(instance: Instance) -> Words:
    """Links to the tail, by walking the list on the host from its head."""
    successors = instance.data["successors"].tolist()
    n = len(successors)
    has_predecessor = [False] * n
    for s in successors:
        if s != programs.NIL:
            has_predecessor[s] = True
    node = has_predecessor.index(False)
    order = [node]
    while successors[node] != programs.NIL:
        node = successors[node]
        order.append(node)
    rank = np.zeros(n, dtype=np.int64)
    for position, node in enumerate(order):
        rank[node] = len(order) - 1 - position
    return rank


LIST = Family(
    name="list",
    defaults={"n": 1024},
    build=_list_build,
    load=_list_load,
    reference=_list_reference,
    reference_name="a walk along the list",
    symbols={"n": "n"},
)


# ---- values: prefix sums, max, rank sort ---------------------------------------------------------

VALUES_INPUT = "a .npy file holding integers"


def _values_build(options: Options, rng: np.random.Generator) -> Instance:
    """Random integers in ``[-SPREAD, SPREAD]``, with repeats when n is large."""
    n = options.n or 1024
    values = rng.integers(-SPREAD, SPREAD + 1, size=n, dtype=np.int64)
    return Instance({"values": values}, {"n": n})


def _values_load(path: str, options: Options) -> Instance:
    values = load_array(path, VALUES_INPUT)
    if len(values) == 0:
        raise InputError(f"input file {path!r} holds no values; give at least one integer")
    return Instance({"values": values}, {"n": len(values)})


def _sums_load(path: str, options: Options) -> Instance:
    instance = _values_load(path, options)
    total = sum(abs(v) for v in instance.data["values"].tolist())
    if total > INT64_MAX:
        raise InputError(
            f"input file {path!r}: the sum of the values' magnitudes is {total}, beyond int64, "
            "so a prefix sum may overflow; use smaller values"
        )
    return instance


def _values_family(
    name: str, load: Callable[[str, Options], Instance], reference: Callable[[Instance], Words],
    reference_name: str,
) -> Family:
    return Family(name=name, defaults={"n": 1024}, build=_values_build, load=load,
                  reference=reference, reference_name=reference_name, symbols={"n": "n"})


def _sums_reference(instance: Instance) -> Words:
    return np.cumsum(instance.data["values"]).astype(np.int64)


def _max_reference(instance: Instance) -> Words:
    values = instance.data["values"]
    return np.array([values.max(), int(np.argmax(values))], dtype=np.int64)


def _sorted_reference(instance: Instance) -> Words:
    return np.sort(instance.data["values"]).astype(np.int64)


SUMS = _values_family("sums", _sums_load, _sums_reference, "numpy.cumsum")
MAX = _values_family("max", _values_load, _max_reference, "numpy max and argmax")
RANKS = _values_family("rank-sort", _values_load, _sorted_reference, "numpy.sort")


# ---- merge: two sorted arrays --------------------------------------------------------------------

MERGE_INPUT = "an .npz file holding sorted integer arrays 'a' and 'b'"


def _merge_build(options: Options, rng: np.random.Generator) -> Instance:
    """Sorted random a and b of n values each, from one range, with repeats.

    (``--m`` stays pbs's; a file may hold arrays of different lengths n and m.)
    """
    n = options.n or 1024
    m = n
    top = 2 * (n + m)
    a = np.sort(rng.integers(0, top, size=n, dtype=np.int64))
    b = np.sort(rng.integers(0, top, size=m, dtype=np.int64))
    return Instance({"a": a, "b": b}, {"n": n, "m": m})


def _merge_load(path: str, options: Options) -> Instance:
    data = load_arrays(path, ("a", "b"), MERGE_INPUT)
    for name, values in data.items():
        if len(values) == 0:
            raise InputError(f"{name!r} in {path!r} is empty; give at least one value in each")
        down = np.flatnonzero(values[1:] < values[:-1])
        if down.size:
            i = int(down[0])
            raise InputError(
                f"{name} must be sorted ascending (got {name}[{i}] = {int(values[i])} > "
                f"{name}[{i + 1}] = {int(values[i + 1])}); sort them first"
            )
    return Instance(data, {"n": len(data["a"]), "m": len(data["b"])})


def _merge_reference(instance: Instance) -> Words:
    both = np.concatenate([instance.data["a"], instance.data["b"]])
    return np.sort(both, kind="stable").astype(np.int64)


MERGE = Family(
    name="merge",
    defaults={"n": 1024},
    build=_merge_build,
    load=_merge_load,
    reference=_merge_reference,
    reference_name="numpy.sort of both",
    symbols={"n": "n", "m": "m"},
)


# ---- matrix product: two square matrices -------------------------------------------------------

MATRIX_INPUT = "an .npz file holding square integer matrices 'a' and 'b' of one size"


def _matrix_build(options: Options, rng: np.random.Generator) -> Instance:
    n = options.n or 16
    a = rng.integers(-SPREAD, SPREAD + 1, size=(n, n), dtype=np.int64)
    b = rng.integers(-SPREAD, SPREAD + 1, size=(n, n), dtype=np.int64)
    return Instance({"a": a, "b": b}, {"n": n})


def _matrix_load(path: str, options: Options) -> Instance:
    raw = read_archive(path, ("a", "b"), MATRIX_INPUT, "input file")
    data = {name: words(raw[name], f"{name!r} in {path!r}", ndim=2) for name in ("a", "b")}
    a, b = data["a"], data["b"]
    for name, matrix in data.items():
        rows, columns = matrix.shape
        if rows != columns or rows == 0:
            raise InputError(
                f"{name!r} in {path!r} has shape {matrix.shape}; it must be a square matrix "
                "n x n with n >= 1"
            )
    if a.shape != b.shape:
        raise InputError(
            f"'a' and 'b' in {path!r} have shapes {a.shape} and {b.shape}; give two square "
            "matrices of the same size"
        )
    n = len(a)
    top = n * max(abs(v) for v in a.reshape(-1).tolist()) * max(
        abs(v) for v in b.reshape(-1).tolist()
    )
    if top > INT64_MAX:
        raise InputError(
            f"input file {path!r}: n times the largest |a| times the largest |b| is {top}, "
            "beyond int64, so the product may overflow; use smaller values"
        )
    return Instance(data, {"n": n})


def _matrix_reference(instance: Instance) -> Words:
    """``a @ b`` by brute force over Python integers (no overflow can hide)."""
    a, b = instance.data["a"].tolist(), instance.data["b"].tolist()
    n = len(a)
    product = [[sum(a[i][k] * b[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    return np.array(product, dtype=np.int64).reshape(n, n)


MATRIX = Family(
    name="matrix",
    defaults={"n": 16},
    build=_matrix_build,
    load=_matrix_load,
    reference=_matrix_reference,
    reference_name="a @ b by brute force",
    symbols={"n": "n"},
)


# ---- the bounds and the entries ----------------------------------------------------------------
#
# Each limit is a little above the largest measured / formula at any n >= 1 (the exact counts
# are in each program's docstring), so a run over it means the program changed.

LOG = Formula("log2(n)", lambda s: lg(s["n"]))
N_LOG = Formula("n log2(n)", lambda s: s["n"] * lg(s["n"]))
LINEAR = Formula("n", lambda s: s["n"])
PAIRS = Formula("n^2", lambda s: s["n"] ** 2)
CUBE = Formula("n^3", lambda s: s["n"] ** 3)
CONSTANT = Formula("1", lambda s: 1.0)
MERGE_LOG = Formula("log2(n + m)", lambda s: lg(s["n"] + s["m"]))
MERGE_WORK = Formula("(n + m) log2(n + m)", lambda s: (s["n"] + s["m"]) * lg(s["n"] + s["m"]))


def _sizes(instance: Instance) -> dict[str, float]:
    return {k: float(v) for k, v in instance.sizes.items()}


def _solve_list(m: Machine, instance: Instance, options: Options) -> Solution:
    return Solution(programs.list_ranking(m, instance.data["successors"]), _sizes(instance))


def _solve_sums(m: Machine, instance: Instance, options: Options) -> Solution:
    return Solution(programs.prefix_sums(m, instance.data["values"]), _sizes(instance))


def _solve_merge(m: Machine, instance: Instance, options: Options) -> Solution:
    merged = programs.merge(m, instance.data["a"], instance.data["b"])
    return Solution(merged, _sizes(instance))


def _solve_matrix(m: Machine, instance: Instance, options: Options) -> Solution:
    product = programs.matrix_multiply(m, instance.data["a"], instance.data["b"])
    return Solution(product, _sizes(instance))


def _solve_max(m: Machine, instance: Instance, options: Options) -> Solution:
    return Solution(programs.maximum(m, instance.data["values"]), _sizes(instance))


def _solve_rank_sort(m: Machine, instance: Instance, options: Options) -> Solution:
    return Solution(programs.rank_sort(m, instance.data["values"]), _sizes(instance))


def _per(bytes_per: float, power: int) -> Callable[[Mapping[str, int], Options], float]:
    """A size guard's estimate: ``bytes_per * n**power`` bytes (twice the tracemalloc peaks
    measured at n = 4096..16384, or 256..512 for n^2, 16..32 for n^3)."""
    return lambda sizes, options: bytes_per * float(sizes["n"]) ** power


ENTRIES = (
    Algorithm(
        name="list-ranking",
        memory=_per(400, 1),
        title="List ranking by Wyllie's pointer jumping",
        family=LIST,
        solve=_solve_list,
        bounds={"work": Bound(N_LOG, limit=5), "time": Bound(LOG, limit=5)},
        uses=(),
        model="erew",
    ),
    Algorithm(
        name="prefix-sums",
        memory=_per(200, 1),
        title="Prefix sums on a balanced tree (Brent and Kung)",
        family=SUMS,
        solve=_solve_sums,
        bounds={"work": Bound(LINEAR, limit=5), "time": Bound(LOG, limit=6)},
        uses=(),
        model="erew",
    ),
    Algorithm(
        name="merge",
        memory=_per(800, 1),
        title="Merge by binary search of each element's rank",
        family=MERGE,
        solve=_solve_merge,
        bounds={"work": Bound(MERGE_WORK, limit=5), "time": Bound(MERGE_LOG, limit=5)},
        uses=(),
        model="crew",
    ),
    Algorithm(
        name="matrix-multiply",
        memory=_per(250, 3),
        title="Matrix product with n^3 processors and tree sums",
        family=MATRIX,
        solve=_solve_matrix,
        bounds={"work": Bound(CUBE, limit=5), "time": Bound(LOG, limit=8)},
        uses=(),
        model="crew",
    ),
    Algorithm(
        name="max",
        memory=_per(300, 2),
        title="Maximum in O(1) time: all pairs write 'not the max'",
        family=MAX,
        solve=_solve_max,
        bounds={"work": Bound(PAIRS, limit=5), "time": Bound(CONSTANT, limit=5)},
        uses=(),
        model="crcw-common",
    ),
    Algorithm(
        name="rank-sort",
        memory=_per(400, 2),
        title="Rank sort in O(1) time: all pairs add 1 to a rank",
        family=RANKS,
        solve=_solve_rank_sort,
        bounds={"work": Bound(PAIRS, limit=5), "time": Bound(CONSTANT, limit=5)},
        uses=(),
        model="crcw-sum",
    ),
)

for _entry in ENTRIES:
    register(_entry)

#: The weaker model each entry is run under as a negative control (it must be flagged).
WEAKER = {"merge": "erew", "matrix-multiply": "erew", "max": "crew", "rank-sort": "crew"}


# ---- the report's catalogue section ------------------------------------------------------------


def _doubling(low: int, high: int) -> list[int]:
    return [1 << k for k in range(low, high + 1)]


def sizes(quick: bool = False) -> dict[str, list[int]]:
    """The sweep of each entry in the report (``quick``: small sizes, for a smoke test)."""
    # At least five sizes each, none of them 1, so a law has points to be decided on.
    if quick:
        return {"list-ranking": _doubling(2, 6), "prefix-sums": _doubling(2, 6),
                "merge": _doubling(2, 6), "matrix-multiply": _doubling(1, 5),
                "max": _doubling(2, 6), "rank-sort": _doubling(2, 6)}
    return {"list-ranking": _doubling(4, 14), "prefix-sums": _doubling(4, 14),
            "merge": _doubling(4, 14), "matrix-multiply": _doubling(1, 6),
            "max": _doubling(4, 8), "rank-sort": _doubling(4, 8)}


#: The size of each negative control's run.
CONTROL_N = {"merge": 64, "matrix-multiply": 8, "max": 32, "rank-sort": 32}


@attrs.frozen
class Control:
    """An entry run under a model weaker than its own: it must be flagged, yet answer right."""

    run: Run

    @property
    def as_predicted(self) -> bool:
        """Whether the weaker model flagged the run (and the answer is still checked)."""
        return self.run.violations > 0


@attrs.frozen
class Catalogue:
    """The catalogue's sweeps under their own models and its negative controls."""

    sweeps: tuple[Sweep, ...]
    controls: tuple[Control, ...]

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
                {"model": s.runs[0].options.model, **s.as_dict(nested_phases=False,
                                                              wall_clock=False)}
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
        for head in ("algorithm", "model", "n", "time", "work", "checks"):
            table.add_column(head, justify="right" if head in ("time", "work") else "left")
        for row in rows(self.sweeps):
            table.add_row(*row[:5], _checks_text(row[5]))
        lines: list[RenderableType] = [table]
        lines += [Text(line) for line in control_lines(self.controls)]
        return Group(*lines)

    def markdown(self) -> str:
        """The section of ``summary.md``: one table of entries, one list of controls."""
        table = [
            "| algorithm | model | n | time | work | local work per step | checks |",
            "| --- | --- | --- | ---: | ---: | --- | --- |",
        ]
        for swept, (name, model, n, time, work, checks) in zip(
            self.sweeps, rows(self.sweeps), strict=True
        ):
            text = "; ".join(f"{k} `{f}`: {v}" for k, f, v in checks)
            most = [int(getattr(r.cost, "max_local", 0)) for r in swept.runs]
            local = f"most {most[0]}..{most[-1]}: {local_verdict(most)}"
            table.append(f"| `{name}` | {model} | {n} | {time} | {work} | {local} | {text} |")
        return "\n".join([
            "## Catalogue of classic algorithms",
            "",
            "Each entry swept under the model it is written for (`pram sweep NAME`), its answers "
            "checked against an outside reference, its time and work checked against its "
            "bounds; time and work are shown at the smallest and largest n.",
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
    """The check's verdict (with its tightness where the check machinery gives one) and its
    constant, whatever verdicts the check machinery gives."""
    summary = getattr(check, "summary", None)
    return f"{summary or check.verdict} (constant {check.constant:.3g})"


def law_text(check: Check) -> str:
    """The law of the check's measure, when the check machinery finds one (else empty)."""
    law = getattr(check, "law", None)
    if law is None:
        return ""
    describe = getattr(law, "describe", None)
    return str(describe() if callable(describe) else law)


def rows(sweeps: Sequence[Sweep]) -> list[tuple[str, str, str, str, str,
                                                  list[tuple[str, str, str]]]]:
    """One row per sweep: name, model, sizes, time and work at both ends, and each check."""
    out = []
    for s in sweeps:
        first, last = s.runs[0], s.runs[-1]
        span = f"{first.sizes['n']}..{last.sizes['n']}"
        checks = [
            (k, c.formula.text, verdict_text(c) + (f"; law {law}" if (law := law_text(c)) else ""))
            for k, c in s.checks.items()
        ]
        out.append((
            s.algorithm.name, first.model, span,
            f"{first.cost.time:,}..{last.cost.time:,}", f"{first.cost.work:,}..{last.cost.work:,}",
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
        first = r.first_violations[0].message if r.first_violations else "none"
        out.append(
            f"{r.algorithm.name} (written for {model_label(r.algorithm)}) under {r.model}, "
            f"n = {r.sizes['n']}: {r.violations:,} violations"
            + (" (flagged, as it must be)" if c.as_predicted else " (NOT flagged)")
            + f", answer {'correct' if r.correct else 'WRONG'}; first: {first}"
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
        *(Task(name, Options(n=CONTROL_N[name], model=weaker)) for name, weaker in WEAKER.items()),
    ]


def catalogue(
    quick: bool = False,
    progress: Callable[[int, int, str], None] | None = None,
    runner: Runner | None = None,
) -> Catalogue:
    """Sweep every entry under its own model and run the negative controls.

    ``runner`` says where the runs execute (default: here, one after the other); a report
    passes the runs it already made (:class:`pram.reports.parallel.Done`).
    """
    plan: Mapping[str, list[int]] = sizes(quick)
    total = sum(len(ns) for ns in plan.values()) + len(WEAKER)
    done = 0
    sweeps = []
    for entry in ENTRIES:
        ns = plan[entry.name]

        def tick(i: int, n: int, what: str, name: str = entry.name, start: int = done) -> None:
            if progress is not None and i < n:
                progress(start + i, total, f"{name}: {what}")

        sweeps.append(
            sweep(entry.name, ns, Options(model=entry.model), progress=tick, runner=runner)
        )
        done += len(ns)
    controls = []
    for name, weaker in WEAKER.items():
        if progress is not None:
            progress(done, total, f"{name} under {weaker}")
        (run,) = run_all([Task(name, Options(n=CONTROL_N[name], model=weaker))], runner)
        controls.append(Control(run))
        done += 1
    return Catalogue(tuple(sweeps), tuple(controls))


__all__ = [
    "ENTRIES", "WEAKER", "Catalogue", "Control", "catalogue", "check_list", "sizes", "tasks"
]
