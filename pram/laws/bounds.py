"""Bound checks: does a measured quantity stay within a constant factor of a formula?

A check takes the points of a sweep and decides from the exact counts (see :mod:`pram.laws.law`):
along every size that varies (the others held fixed) it finds the count's law and judges the
formula's order against it. The verdict is three-valued:

- ``holds``: no term of higher order than the formula's fits the counts;
- ``exceeded``: such a term is clearly present, given the residuals;
- ``undetermined``: the sweep cannot tell (too few sizes, or the fits cannot be told apart).

A sweep of two or three sizes is always ``undetermined``. A bound that holds is ``tight`` when
the law's leading order is the formula's, loose (and by how much) when it is lower.

>>> import math
>>> f = Formula("N log2(N)", lambda s: s["N"] * math.log2(s["N"]))
>>> pts = [({"N": n}, n * math.log2(n) * 3) for n in (16, 64, 256, 1024, 4096)]
>>> c = check("work", f, pts)
>>> c.verdict, c.tight, c.law.describe()
('holds', True, 'work = 3 N L, L = log2(N), exact on 5 sizes (held out N = 1024, 4096)')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import attrs

from pram._numpy import np
from pram.display import CheckDisplay, plain
from pram.errors import InputError
from pram.laws.formula import Formula, Sizes, _real
from pram.laws.law import Law, bound_reading, order_text
from pram.laws.readings import CLEAN
from pram.laws.verdicts import Decision, Evidence, judge, judge_outside

VERDICTS = ("holds", "exceeded", "undetermined")


def _is_formula(formula: object, who: str) -> None:
    """Refuse a formula that is not a :class:`Formula` (its text alone, say), naming the call
    that makes one."""
    if not isinstance(formula, Formula):
        made = (f"pram.formula({formula!r})" if isinstance(formula, str)
                else "pram.formula('n log2(n)')")
        raise InputError(
            f"{who} takes a pram.Formula (got {formula!r}, a {type(formula).__name__}); make "
            f"one from its text with {made}"
        )


def _finite(value: object) -> bool:
    """Whether ``value`` is a finite real number: a count or a size of NaN or infinity says
    nothing a law can fit."""
    if not _real(value):
        return False
    try:
        return math.isfinite(value)  # type: ignore[arg-type]
    except OverflowError:  # an int beyond a float's range: no law can be fitted to it
        return False


def _arguments(who: str, measure: object, points: object, limit: object, *, many: bool) -> None:
    """Refuse a check's arguments unless the measure is a name, every point a pair of the
    sizes (names to numbers) and the count (or, ``many``, the counts of the instances), and
    the limit a number: nothing is read as a number that is not one (``"8"`` stays refused)."""
    if not isinstance(measure, str):
        raise InputError(f"{who}'s measure is a name, e.g. 'work' (got {measure!r})")
    if limit is not None and not (_finite(limit) and limit > 0):  # type: ignore[operator]
        raise InputError(f"{who}'s limit is a positive finite number or None, e.g. limit=4.0 "
                         f"(got {limit!r})")
    count = "[count, ...]" if many else "count"
    example = f"[({{'n': 16}}, {count}), ({{'n': 32}}, {count}), ...]"
    if isinstance(points, str | bytes | Mapping) or not isinstance(points, Sequence):
        raise InputError(f"{who}'s points are a list of (sizes, {count}) pairs, e.g. {example} "
                         f"(got {type(points).__name__})")
    def counts(counted: object) -> bool:
        if not many:
            return _finite(counted)
        return isinstance(counted, Sequence | np.ndarray) and not isinstance(
            counted, str) and all(_finite(c) for c in counted)

    for point in points:
        ok = isinstance(point, Sequence) and not isinstance(point, str) and len(point) == 2
        if ok:
            sizes, counted = point
            ok = isinstance(sizes, Mapping) and all(
                isinstance(k, str) and _finite(v) for k, v in sizes.items()) and counts(counted)
        if not ok:
            raise InputError(
                f"{who}: the point {point!r} is not a pair of sizes (names to finite numbers) "
                f"and {'the counts of the instances' if many else 'a count'} (finite); give "
                "points such as "
                f"{example}"
            )


@attrs.frozen
class Along:
    """The check along one size, the other sizes held fixed: its law and decision."""

    size: str
    fixed: tuple[tuple[str, float], ...]
    law: Law
    decision: Decision


@attrs.frozen
class Check(CheckDisplay):
    """The outcome of checking one measure of a sweep against a formula."""

    measure: str
    formula: Formula
    sizes: tuple[dict[str, float], ...]
    measured: tuple[float, ...]
    ratios: tuple[float, ...]
    #: ``holds``, ``exceeded`` or ``undetermined``.
    verdict: str
    #: For a bound that holds: its order is the measured one (None: cannot tell, or no hold).
    tight: bool | None
    #: Why, in one sentence (naming the size along which it was decided).
    reason: str
    #: One entry per size that varies and per setting of the others.
    along: tuple[Along, ...]
    #: A cap on measured / formula given by the caller (None: none).
    limit: float | None = None
    #: What the verdict rests on, along the size that decided it (see :mod:`pram.laws.verdicts`).
    evidence: Evidence | None = None

    @property
    def advice(self) -> str | None:
        """What would decide an undetermined verdict (``add sizes above 2^14``), or None."""
        return self.evidence.advice if self.evidence is not None else None

    def evidence_text(self) -> str:
        """The evidence of the verdict in one paragraph (empty when there is none)."""
        return self.evidence.text() if self.evidence is not None else ""

    @property
    def holds(self) -> bool:
        """True only for the verdict ``holds``."""
        return self.verdict == "holds"

    @property
    def law(self) -> Law:
        """The law along the main size (the first that varies, at the largest other sizes)."""
        return self.along[0].law

    @property
    def loose_by(self) -> str | None:
        """For a loose bound, the factor it is loose by in words (``log``), else None."""
        for a in self.along:
            by = a.decision.loose_by
            if self.holds and self.tight is False and by is not None and a.decision.tight is False:
                return order_text(by, a.size) + (f" in {a.size}" if len(self._sizes()) > 1 else "")
        return None

    def _sizes(self) -> set[str]:
        return {a.size for a in self.along}

    @property
    def constant(self) -> float:
        """The largest measured / formula over the sweep: the constant the bound needs."""
        return max(self.ratios)

    @property
    def summary(self) -> str:
        """``holds, tight``, ``holds, loose by log``, ``holds, loose`` (judged loose, the factor
        not established), ``holds, tightness unknown`` or the bare verdict: the same story as
        ``tight`` and ``loose_by``."""
        if not self.holds:
            return self.verdict
        if self.tight:
            return "holds, tight"
        if self.loose_by is not None:
            return f"holds, loose by {self.loose_by}"
        return "holds, loose" if self.tight is False else "holds, tightness unknown"

    def table(self) -> str:
        """The sizes, measured values and ratios as plain text, with the law and decision."""
        names = sorted({k for s in self.sizes for k in s})
        head = "  ".join(f"{n:>8}" for n in names) + f"  {self.measure:>14}  {'ratio':>10}"
        rows = [
            "  ".join(f"{plain(s.get(n, 0)):>8}" for n in names) + f"  {plain(m):>14}  {r:>10.4g}"
            for s, m, r in zip(self.sizes, self.measured, self.ratios, strict=True)
        ]
        decision = (
            f"{self.measure} / ({self.formula.text}): {self.summary}; {self.reason}; "
            f"constant {self.constant:.4g}"
        )
        laws = [f"law: {a.law.describe()}" for a in self.along[:3]]
        return "\n".join([head, *rows, *laws, decision])

    def as_dict(self) -> dict[str, object]:
        """The decision and its figures, for JSON."""
        return {
            "formula": self.formula.text,
            "verdict": self.verdict,
            "holds": self.holds,
            "tight": self.tight,
            "loose_by": self.loose_by,
            "reason": self.reason,
            "law": self.law.text,
            "limit": self.limit,
            "constant": self.constant,
            "ratios": list(self.ratios),
            "advice": self.advice,
            "evidence": self.evidence.as_dict() if self.evidence is not None else None,
        }


def check(
    measure: str,
    formula: Formula,
    points: Sequence[tuple[Sizes, float]],
    *,
    limit: float | None = None,
) -> Check:
    """Check ``measured`` against ``formula(sizes)`` over ``points`` of a sweep (see the module
    doc). ``limit``, if given, also caps measured / formula at every point."""
    _is_formula(formula, "check")
    _arguments("check", measure, points, limit, many=False)
    if len(points) < 2:
        raise InputError(f"a bound check needs at least 2 sizes in the sweep (got {len(points)})")
    sizes = tuple({k: float(v) for k, v in s.items()} for s, _ in points)
    measured = tuple(float(m) for _, m in points)
    read = formula.read(sizes, [formula.positive(s) for s in sizes], "check")
    bounds = tuple(read.positive(s) for s in sizes)
    ratios = tuple(m / b for m, b in zip(measured, bounds, strict=True))
    along = _along(measure, read, sizes, measured, bounds)
    verdict, tight, reason, deciding = _combine(along)
    if limit is not None and verdict != "exceeded" and max(ratios) > limit:
        verdict, tight = "exceeded", None
        reason = f"measured / formula reaches {max(ratios):.4g}, over the limit {limit:g}"
    return Check(measure, read, sizes, measured, ratios, verdict, tight, reason, along, limit,
                 deciding.decision.evidence)


def _along(
    measure: str,
    formula: Formula,
    sizes: tuple[dict[str, float], ...],
    measured: tuple[float, ...],
    bounds: tuple[float, ...],
) -> tuple[Along, ...]:
    """The law and decision along every size that varies, per setting of the other sizes."""
    names = list(dict.fromkeys(k for s in sizes for k in s))
    out: list[Along] = []
    for name in names:
        groups: dict[tuple[tuple[str, float], ...], list[int]] = {}
        for i, s in enumerate(sizes):
            rest = tuple(sorted((k, v) for k, v in s.items() if k != name))
            groups.setdefault(rest, []).append(i)
        # the largest settings of the other sizes first: their law is the one shown
        for rest, idx in sorted(groups.items(), key=lambda g: [v for _, v in g[0]], reverse=True):
            xs = [sizes[i][name] for i in idx]
            if len(set(xs)) < 2:
                continue
            order = sorted(range(len(idx)), key=lambda j: xs[j])
            idx = [idx[j] for j in order]
            xs = [sizes[i][name] for i in idx]
            ys = [measured[i] for i in idx]
            fixed = dict(rest)

            def along_size(v: float, fixed: dict[str, float] = fixed, name: str = name) -> float:
                return formula({**fixed, name: v})

            reading = bound_reading(along_size)
            if reading.outside:
                law, decision = judge_outside(measure, reading.order, name, xs, ys,
                                              [bounds[i] for i in idx], formula.text)
            else:
                law, decision = judge(measure, reading.order, name, xs, ys)
            out.append(Along(name, rest, law, decision))
    if not out:
        raise InputError("a bound check needs a sweep in which at least one size varies")
    return tuple(out)


def _where(a: Along, varying: set[str]) -> str:
    fixed = ", ".join(f"{k} = {v:g}" for k, v in a.fixed if k in varying)
    return f"along {a.size}" + (f" ({fixed})" if fixed else "")


def _combine(along: tuple[Along, ...]) -> tuple[str, bool | None, str, Along]:
    """The verdict over every direction of the sweep.

    Along one size, a group (one setting of the other sizes) that is exceeded decides;
    otherwise the group at the largest other sizes does, the one nearest the asymptotic
    regime. Over the sizes: exceeded if any is, else undetermined if any is, else holds.
    """
    varying = {a.size for a in along}
    deciding: list[Along] = []
    for size in dict.fromkeys(a.size for a in along):
        groups = [a for a in along if a.size == size]  # largest other sizes first
        over = [a for a in groups if a.decision.verdict == "exceeded"]
        deciding.append(over[0] if over else groups[0])
    for state in ("exceeded", "undetermined"):
        for a in deciding:
            if a.decision.verdict == state:
                return state, None, f"{_where(a, varying)}: {a.decision.reason}", a
    tights = [a.decision.tight for a in deciding]
    tight = False if any(t is False for t in tights) else (
        True if all(t is True for t in tights) else None)
    main = deciding[0]
    return "holds", tight, f"{_where(main, varying)}: {main.decision.reason}", main


def combined(parts: Mapping[str, Check], total: Check) -> Check:
    """``total``, exceeded when one of its ``parts`` (phases summing to it) is exceeded.

    The counts of the parts add up to the total and are non-negative, so a part that outgrows
    the bound takes the total with it: the verdict names that part.
    """
    if total.verdict == "exceeded":
        return total
    for name, part in parts.items():
        if part.verdict == "exceeded":
            return attrs.evolve(
                total,
                verdict="exceeded",
                tight=None,
                reason=f"its {name} phase exceeds the bound ({part.reason})",
            )
    return total


#: Student's t at 97.5% for 1..9 degrees of freedom (beyond: 1.96): a 95% band of a mean.
_T975 = (12.71, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262)


def _other_side_within_bands(main: Check, means: Sequence[float], errors: Sequence[float]
                             ) -> str | None:
    """What the means are also, within their noise, on the other side of the bound: for a
    bound that holds, a multiple of the bound times log2(log2 S) (S the size the check runs
    along: the least step of order above the bound); for one exceeded, a multiple of the bound
    itself. The means fit such a multiple when its chi-square, with the instances' relative
    standard error pooled over the sizes (``errors``: each mean's), is within the 99% point:
    the other side is ruled out only where the means rule it out strongly. None when they
    do, or the check runs along several sizes. (n log^2 n with 10% noise over 3 instances
    held against n log^2 n / log log n: its means are a multiple of n log^2 n as well.)"""
    if main.verdict not in ("holds", "exceeded") or len({a.size for a in main.along}) != 1:
        return None
    size = main.along[0].size
    bounds = [main.formula(s) for s in main.sizes]
    if main.verdict == "holds":
        shape = [b * max(1.0, math.log2(max(1.0, math.log2(max(s[size], 2.0)))))
                 for b, s in zip(bounds, main.sizes, strict=True)]
        named = f"({main.formula.text}) log2(log2({size}))"
    else:
        shape, named = bounds, main.formula.text
    if any(v <= 0 for v in shape) or any(m <= 0 for m in means):
        return None
    pooled = math.sqrt(sum((e / m) ** 2 for e, m in zip(errors, means, strict=True))
                       / len(means))
    if pooled == 0:
        return None
    weights = [1 / (pooled * m) ** 2 for m in means]
    c = sum(w * m * v for w, m, v in zip(weights, means, shape, strict=True)) / sum(
        w * v * v for w, v in zip(weights, shape, strict=True))
    spread = sum(w * (m - c * v) ** 2 for w, m, v in zip(weights, means, shape, strict=True))
    return named if spread <= _chi_square_99(len(means) - 1) else None


def _chi_square_99(freedom: int) -> float:
    """The 99% point of chi-square with ``freedom`` degrees (Wilson and Hilferty's cube)."""
    k = max(freedom, 1)
    return float(k * (1 - 2 / (9 * k) + 2.3263 * math.sqrt(2 / (9 * k))) ** 3)


def mean_check(
    measure: str,
    formula: Formula,
    points: Sequence[tuple[Sizes, Sequence[float]]],
) -> Check:
    """Check the mean of ``measure`` over instances against ``formula``: ``points`` holds, per
    size, the count of every instance there.

    Means of data-dependent counts carry the noise between instances, which no number of sizes
    removes. The check says so: each mean has a 95% band (Student's t over the instances), and
    the verdict on the means must also come out on the means tilted both ways (low at the
    small sizes and high at the large ones, and the reverse: the tilt that bends a law's order
    most), by as much as independent noise of that band tilts a least-squares line at 95%.
    Where a tilt reaches the contrary verdict (or leaves an exceeded undetermined), the check
    is undetermined and says that more instances, not more sizes, would settle it; where a
    tilt leaves a holds undetermined, or changes only its tightness, it holds with tightness
    unknown. The band is in the evidence (``Evidence.band``); counts the same in every
    instance are checked as by :func:`check`.
    """
    _is_formula(formula, "mean_check")
    _arguments("mean_check", measure, points, None, many=True)
    means, halves, errors, counts = [], [], [], []
    for _, values in points:
        k = len(values)
        if k == 0:
            raise InputError("a mean over instances needs at least one instance at each size")
        mean = sum(values) / k
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (k - 1)) if k > 1 else 0.0
        t = _T975[k - 2] if 2 <= k <= len(_T975) + 1 else 1.96
        means.append(mean)
        errors.append(sd / math.sqrt(k))
        halves.append(t * errors[-1])
        counts.append(k)
    sizes = [s for s, _ in points]
    main = first = check(measure, formula, list(zip(sizes, means, strict=True)))
    if not any(halves):
        return main
    relative = max((h / abs(m) for h, m in zip(halves, means, strict=True) if m), default=0.0)
    evidence = attrs.evolve(main.evidence or Evidence(main.verdict, main.law.describe()),
                            band=(min(counts), relative))
    def by_noise(but: str) -> Check:
        """Undetermined: the means say what ``main`` says, ``but`` within their noise not."""
        a = ("add instances (four times as many halve the band), not sizes: the means are "
             "known only to within their band")
        return attrs.evolve(
            main, verdict="undetermined", tight=None,
            reason=(f"on the means over the instances the check says {main.summary}, but {but}: "
                    f"the noise between instances decides it; {a}"),
            evidence=attrs.evolve(evidence, advice=a))

    other_side = _other_side_within_bands(main, means, errors)
    if other_side is not None:
        return by_noise(f"within their noise (95% bands up to {100 * relative:.3g}% of a mean) "
                        f"the means are also a multiple of {other_side}")
    # The tilt x_i = 2 i / last - 1 (i the size's place), scaled to the 95% band of the
    # least-squares slope of independent noise on it: h_i / sqrt(sum x_i^2) at each size.
    last = max(len(points) - 1, 1)
    slope = [2 * i / last - 1 for i in range(len(points))]
    scale = 1 / math.sqrt(sum(x * x for x in slope) or 1.0)
    decided_by_noise: Check | None = None  # an open verdict a tilt decides
    for sign in (1, -1):
        tilted = [max(m + sign * scale * h * x, 0.0)
                  for m, h, x in zip(means, halves, slope, strict=True)]
        other = check(measure, formula, list(zip(sizes, tilted, strict=True)))
        if main.verdict == "undetermined":
            if other.verdict != "undetermined":
                decided_by_noise = other
            continue
        contrary = {other.verdict, main.verdict} == {"holds", "exceeded"}
        if main.holds and not contrary and (other.verdict, other.tight, other.loose_by) != (
                first.verdict, first.tight, first.loose_by):
            if main.tight is not None:  # withdrawn once, whichever tilt shows it
                main = attrs.evolve(main, tight=None, reason=(
                    f"{main.reason}; tightness is not claimed on means this noisy: tilted "
                    f"within their 95% band (up to {100 * relative:.3g}% of a mean) the check "
                    f"says {other.summary}"))
            continue
        if contrary or (other.verdict != main.verdict and not main.holds):
            return by_noise(f"tilted within the means' 95% band (up to {100 * relative:.3g}% "
                            f"of a mean) it says {other.summary}")
    open_ = main.verdict == "undetermined" or (main.holds and main.tight is None)
    if open_ and (decided_by_noise is not None or relative > CLEAN):
        why = (f"tilted within the means' 95% band the check says {decided_by_noise.summary}"
               if decided_by_noise is not None else
               f"the means are known only to within {100 * relative:.3g}% (95% band), more "
               f"than the {100 * CLEAN:g}% a law's order is read through")
        a = "; ".join(filter(None, [main.advice, "add instances (four times as many halve "
                                     f"the band): {why}"]))
        evidence = attrs.evolve(evidence, advice=a)
    return attrs.evolve(main, evidence=evidence)


__all__ = ["VERDICTS", "Along", "Check", "Formula", "check", "combined", "mean_check"]
