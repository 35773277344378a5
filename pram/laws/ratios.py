"""Count / bound over a sweep: how it moves, which the readings' verdicts must agree with.

A fitted law is an approximation on the sweep, so a verdict it gives is also held to what
the counts themselves show against the bound's leading term: whether their ratio grows past
the middle size (:func:`grows`), rises to the very end (:func:`rises_to_the_end`), falls
behind (:func:`falls`), or peaks higher in the second half than in the first (:func:`peaks`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from pram.laws.fitting import jitter_of
from pram.laws.law import Order, log_parts, log_term


def growth(order: Order, low: float, high: float) -> float:
    """How many doublings the term ``S^a L^b log2(L)^c`` of ``order`` (L = log2 S) gains from
    size ``low`` to size ``high`` (where log2(L) is not positive at ``low``, its factor counts
    as constant)."""
    a, b = order
    whole, loglog = log_parts(b)
    l_low, l_high = math.log2(low), math.log2(high)
    out = a * math.log2(high / low)
    if l_low > 0:
        out += whole * math.log2(l_high / l_low)
    if loglog and l_low > 1:
        out += loglog * math.log2(math.log2(l_high) / math.log2(l_low))
    return out


def bound_values(bound: Order, xs: Sequence[float]) -> list[float]:
    """The bound's leading term ``S^a L^b log2(L)^c`` at sizes ``xs`` (L = log2 S, at least 1)."""
    return [v ** bound[0] * log_term(max(math.log2(v), 1.0) if v > 0 else 1.0, bound[1])
            or 1.0 for v in xs]


#: How much higher count / bound must peak in a sweep's second half than in its first for a
#: holds below the bound to be contradicted by the sweep (a staircase converging on the bound,
#: 2^ceil(log2 n) / n peaking at 1.78 then 1.88 on n = 1..32, is not).
PEAK_GROWTH = 1.1


def peaks(xs: Sequence[float], ys: Sequence[float], bound: Order) -> tuple[float, float]:
    """The highest count / bound in the sweep's first half and in its second (from the middle
    size on)."""
    terms = bound_values(bound, xs)
    ratios = [y / t for y, t in zip(ys, terms, strict=True)]
    mid = len(xs) // 2
    return max(ratios[:mid]), max(ratios[mid:])


def troughs(xs: Sequence[float], ys: Sequence[float], bound: Order) -> tuple[float, float]:
    """The lowest count / bound in the sweep's first half and in its second (from the middle
    size on): a staircase that ends at the foot of a stair (3 * 2^ceil(log2 n) on n = 5..128,
    against sqrt(n)) peaks no higher in its second half, but its feet climb."""
    terms = bound_values(bound, xs)
    ratios = [y / t for y, t in zip(ys, terms, strict=True)]
    mid = len(xs) // 2
    return min(ratios[:mid]), min(ratios[mid:])


def falls(xs: Sequence[float], ys: Sequence[float], bound: Order) -> bool:
    """Whether count / bound is lower at the largest size than at the middle one, by more
    than the jitter of integer counts: the sweep itself shows the count falling behind the
    bound over its second half."""
    terms = bound_values(bound, xs)
    mid, jitter = len(xs) // 2, jitter_of(ys)
    first, second = peaks(xs, ys, bound)
    # a staircase's ratio falls along each stair but its peaks may still rise: the second
    # half's highest ratio must not be above the first half's (2^ceil(log2 n) against sqrt(n)
    # on n = 1..32 falls from n = 16 to 32, yet peaks at 17 higher than at 9)
    return (ys[-1] / terms[-1] < ys[mid] / terms[mid] * (1.0 - jitter)
            and second <= first * (1.0 + jitter))


def grows(xs: Sequence[float], ys: Sequence[float], bound: Order) -> bool:
    """Whether count / bound is higher at the largest size than at the middle one or at the
    first one, by more than the jitter of integer counts: the sweep itself shows growth past
    the bound (a count that rose early and is flat over the second half, a log log that steps,
    still counts as growing)."""
    terms = bound_values(bound, xs)
    mid = len(xs) // 2
    first, low, high = ys[0] / terms[0], ys[mid] / terms[mid], ys[-1] / terms[-1]
    return high > min(first, low) * (1.0 + jitter_of(ys))


#: How much count / bound must grow from the sweep's middle size to its largest for an excess
#: to be shown by the sweep itself (a law above the bound whose ratio grows less there is a
#: lower term's bend, or a schedule's rounding, as often as it is an excess).
EXCESS_GROWTH = 1.05


def rises_to_the_end(xs: Sequence[float], ys: Sequence[float], bound: Order) -> bool:
    """Whether count / bound is highest at the largest size of the sweep's second half (within
    the jitter of integer counts) and at least :data:`EXCESS_GROWTH` times its value at the
    middle size: what every excess the sweep decides must show. Brent's schedules fooled the
    laws without it: a time of 4 L - 2 log2(L) read as L ceil(log2 L) (count / L 3.5 then
    3.375 at the last two sizes), a work flat at 3.6 n read as n L^0.5."""
    terms = bound_values(bound, xs)
    ratios = [y / t for y, t in zip(ys, terms, strict=True)]
    mid, last = len(ratios) // 2, ratios[-1]
    return (last * (1.0 + jitter_of(ys)) >= max(ratios[mid:])
            and last >= ratios[mid] * EXCESS_GROWTH)


def climbs_the_stairs(xs: Sequence[float], ys: Sequence[float], bound: Order,
                      stair: Callable[[float], float]) -> bool:
    """What an exact law in a staircase ``stair`` (L as the ceiling or floor of log2) may
    show instead of :func:`rises_to_the_end`: count / bound, lowest and highest, at least
    :data:`EXCESS_GROWTH` times higher on the sweep's last stair than on the one before. Such
    a count is flat along each stair, so from the middle size on it need not rise (n = 1..32:
    ceil(log2 n) + 1 is 6 from n = 17, the middle size, to 32, and 5 on 9..16), and against a
    smooth bound its ratio falls along each stair and peaks at the stair's foot
    (ceil(log2 n)^2 / log2 n)."""
    terms = bound_values(bound, xs)
    ratios = [y / t for y, t in zip(ys, terms, strict=True)]
    steps = [stair(x) for x in xs]
    last = [r for r, v in zip(ratios, steps, strict=True) if v == steps[-1]]
    lower = [v for v in steps if v < steps[-1]]
    if not lower:
        return False
    before = [r for r, v in zip(ratios, steps, strict=True) if v == max(lower)]
    return (min(last) >= min(before) * EXCESS_GROWTH
            and max(last) >= max(before) * EXCESS_GROWTH)


__all__ = [
    "EXCESS_GROWTH",
    "PEAK_GROWTH",
    "bound_values",
    "climbs_the_stairs",
    "falls",
    "grows",
    "growth",
    "peaks",
    "rises_to_the_end",
]
