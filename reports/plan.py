"""The experiment of ``pram report``: the default sweeps and what the analysis predicts of each.

A :class:`Plan` is one sweep of the report (an algorithm, its sizes and options) with the
verdict the paper's analysis predicts for each of its bounds; :func:`plan` lists them (small
sizes with ``quick``). An :class:`Outcome` is a plan with the sweep it produced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from pram.reports.options import Options
from pram.reports.runs import Control
from pram.reports.sweeps import Sweep


def _tokens(*exponents: int) -> list[int]:
    """N = 3 * 2^k tokens for each k: triples without padding."""
    return [3 << k for k in exponents]


def _powers(*exponents: int) -> list[int]:
    return [1 << k for k in exponents]


@attrs.frozen
class Plan:
    """One sweep of the report, and the verdict each of its bound checks is expected to reach."""

    label: str
    algorithm: str
    ns: Sequence[int]
    options: Options = attrs.field(factory=Options)
    ds: Sequence[int] | None = None
    #: The predicted verdict of each check (default: holds); None predicts nothing.
    expect: Mapping[str, str | None] = attrs.field(factory=dict)
    #: The name of the sweep in plot legends.
    short: str = ""
    #: A smoke test at small sizes: ``undetermined`` is as good as the predicted verdict.
    quick: bool = False
    #: Seeded inputs run at every size (seeds 0, 1, ...): where more than one, the bounds are
    #: judged on the mean count over them, the expected count the bound is about.
    instances: int = 1

    def expected(self, key: str) -> str | None:
        """The verdict predicted for bound ``key``: ``holds``, ``exceeded`` or None."""
        return self.expect.get(key, "holds")

    def as_predicted(self, key: str, verdict: str) -> bool:
        """Whether the check of bound ``key`` reached the predicted verdict."""
        expected = self.expected(key)
        return (
            expected is None or verdict == expected or (self.quick and verdict == "undetermined")
        )


def plan(quick: bool = False) -> list[Plan]:
    """The default sweeps (``quick``: the same sweeps at small sizes, for a smoke test)."""
    mqar = _tokens(*range(4, 9)) if quick else _tokens(*range(4, 17))
    pairs = _tokens(*range(4, 8)) if quick else _tokens(*range(4, 12))
    bits = _tokens(5, 6, 7) if quick else _tokens(4, 6, 8, 10, 12)
    # five widths (4..48): least squares along d needs five sizes spanning a factor 8
    widths = [4, 8] if quick else [4, 8, 16, 32, 48]
    search = _powers(4, 6, 8) if quick else _powers(*range(4, 17, 2))
    sequential = _tokens(*range(4, 9)) if quick else _tokens(*range(4, 17))
    plans = [
        Plan("Algorithm 9 (sequential)", "mqar-sequential", sequential, short="Algorithm 9"),
        Plan("Algorithm 10 (pbs)", "pbs", search, short="Algorithm 10"),
        Plan("Algorithm 11, merge-tree sort", "mqar", mqar, short="merge-tree"),
        # The extra log factor only shows over a long sweep: predicted for the full plan.
        Plan("Algorithm 11, per-block sort", "mqar", mqar, Options(sort="per-block"),
             expect={"work": None if quick else "exceeded"}, short="per-block"),
        Plan("all-pairs baseline", "mqar-allpairs", pairs, expect={"work": "exceeded"},
             short="all-pairs"),
        Plan("Algorithm 11, bit keys, serial comparator", "mqar", bits,
             Options(keys="bits", comparator="serial"), widths, short="serial",
             expect={"work": None, "time": None}),
        Plan("Algorithm 11, bit keys, tree comparator", "mqar", bits,
             Options(keys="bits", comparator="tree"), widths, short="tree",
             expect={"work": None, "time": None, "time (tree)": None}),
        Plan("Batcher bitonic sort", "sort", search, short="bitonic sort"),
    ]
    return [attrs.evolve(p, quick=quick) for p in plans]


#: The run whose processor activity and Brent curve are drawn: Algorithm 11, N/3 = 2^10.
PROFILE_N = 3 << 10


@attrs.frozen
class Outcome:
    """A finished sweep of the plan and whether it ended as predicted."""

    plan: Plan
    sweep: Sweep

    @property
    def as_predicted(self) -> bool:
        """Whether every run is correct and clean and every check ended as predicted."""
        runs_ok = all(r.correct is not False and r.violations == 0 for r in self.sweep.runs)
        return runs_ok and all(
            self.plan.as_predicted(k, c.verdict) for k, c in self.sweep.checks.items()
        )


def by_label(outcomes: Sequence[Outcome]) -> dict[str, Sweep]:
    return {o.plan.label: o.sweep for o in outcomes}


def as_predicted(
    outcomes: Sequence[Outcome], controls: Sequence[Control], zoology: Mapping[str, Any]
) -> bool:
    """Whether every sweep and control ended as the analysis predicts and every zoology batch
    was answered exactly with no violation: the one verdict of the terminal and the Markdown."""
    return (
        all(o.as_predicted for o in outcomes)
        and all(c.as_predicted for c in controls)
        and zoology["accuracy"] == 1.0
        and zoology["violations"] == 0
    )


#: What a quick report says of itself, on the terminal and atop its summary.md.
QUICK_NOTE = (
    "quick report (pram report --quick): small sizes only, a smoke test of the whole job; "
    "its figures are not the full report's"
)
