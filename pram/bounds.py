"""Bound checks: does a measured quantity stay within a constant factor of a formula?

A check takes the points of a sweep, computes ``measured / formula`` at each, and decides
whether that ratio stays bounded. "Bounded" is tested the way an asymptotic claim can be tested
on finite data: over the upper half of the sweep (where lower-order terms have faded), the ratio
must not grow like a power of the log of any size that varies, i.e. the fitted exponent ``e`` in
``ratio ~ log2(size)^e`` must stay under ``tolerance``; and it must stay under ``limit`` if one
is given. An extra log factor shows as ``e`` near 1 and fails; a polynomial excess fails by far.

>>> f = Formula("N log2(N)", lambda s: s["N"] * math.log2(s["N"]))
>>> pts = [({"N": n}, n * math.log2(n) * 3) for n in (16, 64, 256, 1024)]
>>> check("work", f, pts).holds
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import attrs
import numpy as np

from pram.errors import InputError

Sizes = Mapping[str, float]

#: Largest fitted exponent of log2(size) the ratio may show and still count as bounded.
TOLERANCE = 0.5


@attrs.frozen
class Formula:
    """A bound's formula in the sizes, e.g. ``N d log2(N)^2``, with its text for reports."""

    text: str
    evaluate: Callable[[Sizes], float] = attrs.field(eq=False, repr=False)

    def __call__(self, sizes: Sizes) -> float:
        """The formula's value at ``sizes``."""
        return float(self.evaluate(sizes))


@attrs.frozen
class Check:
    """The outcome of checking one measure of a sweep against a formula."""

    measure: str
    formula: Formula
    sizes: tuple[dict[str, float], ...]
    measured: tuple[float, ...]
    ratios: tuple[float, ...]
    exponent: float
    tolerance: float
    limit: float | None
    holds: bool

    @property
    def constant(self) -> float:
        """The largest measured / formula over the sweep: the constant the bound needs."""
        return max(self.ratios)

    @property
    def verdict(self) -> str:
        """``"holds"`` or ``"exceeded"``, for messages and reports."""
        return "holds" if self.holds else "exceeded"

    def table(self) -> str:
        """The sizes, measured values and ratios as plain text, with the decision."""
        names = sorted({k for s in self.sizes for k in s})
        head = "  ".join(f"{n:>8}" for n in names) + f"  {self.measure:>14}  {'ratio':>10}"
        rows = [
            "  ".join(f"{s.get(n, 0):>8g}" for n in names) + f"  {m:>14g}  {r:>10.4g}"
            for s, m, r in zip(self.sizes, self.measured, self.ratios, strict=True)
        ]
        limit = f", limit {self.limit:g}" if self.limit is not None else ""
        decision = (
            f"{self.measure} / ({self.formula.text}): {self.verdict}; ratio grows like "
            f"log^{round(self.exponent, 2) + 0.0:.2f} (tolerance {self.tolerance:g}{limit}), "
            f"constant {self.constant:.4g}"
        )
        return "\n".join([head, *rows, decision])

    def as_dict(self) -> dict[str, object]:
        """The decision and its figures, for JSON."""
        return {
            "formula": self.formula.text,
            "holds": self.holds,
            "exponent": self.exponent,
            "tolerance": self.tolerance,
            "limit": self.limit,
            "constant": self.constant,
            "ratios": list(self.ratios),
        }


def check(
    measure: str,
    formula: Formula,
    points: Sequence[tuple[Sizes, float]],
    *,
    tolerance: float = TOLERANCE,
    limit: float | None = None,
) -> Check:
    """Check ``measured / formula(sizes)`` over ``points`` of a sweep (see the module doc)."""
    if len(points) < 2:
        raise InputError(f"a bound check needs at least 2 sizes in the sweep (got {len(points)})")
    sizes = tuple(dict(s) for s, _ in points)
    measured = tuple(float(m) for _, m in points)
    bounds = tuple(formula(s) for s in sizes)
    for s, b in zip(sizes, bounds, strict=True):
        if not b > 0:
            shown = ", ".join(f"{k}={v:g}" for k, v in sorted(s.items()))
            raise InputError(
                f"formula {formula.text} is {b:g} at {shown}; a bound check divides by it, so "
                "start the sweep at sizes where it is positive"
            )
    ratios = tuple(m / b for m, b in zip(measured, bounds, strict=True))
    exponent = _growth(sizes, ratios)
    holds = exponent <= tolerance and (limit is None or max(ratios) <= limit)
    return Check(measure, formula, sizes, measured, ratios, exponent, tolerance, limit, holds)


def _growth(sizes: tuple[dict[str, float], ...], ratios: tuple[float, ...]) -> float:
    """The largest fitted exponent e of ratio ~ log2(size)^e, along every size that varies.

    Points are grouped so that only one size varies within a group (the others held fixed);
    a group with a single point says nothing and is skipped.
    """
    names = sorted({k for s in sizes for k in s})
    worst = -math.inf
    for name in names:
        groups: dict[tuple[tuple[str, float], ...], list[tuple[float, float]]] = {}
        for s, r in zip(sizes, ratios, strict=True):
            rest = tuple(sorted((k, v) for k, v in s.items() if k != name))
            groups.setdefault(rest, []).append((s[name], r))
        for group in groups.values():
            values = sorted(group)
            if len({v for v, _ in values}) < 2:
                continue
            # The upper half of the sweep, but at least three points when there are three.
            upper = values[max(0, min(len(values) // 2, len(values) - 3)) :]
            x = np.log(np.log2(np.array([v for v, _ in upper], dtype=float) + 1.0))
            y = np.log(np.maximum(np.array([r for _, r in upper], dtype=float), 1e-300))
            worst = max(worst, float(np.polyfit(x, y, 1)[0]))
    if worst == -math.inf:
        raise InputError("a bound check needs a sweep in which at least one size varies")
    return worst
