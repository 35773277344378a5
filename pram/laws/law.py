"""Cost laws: a sweep's counts as a sum of terms ``c S^a L^b`` in the one size ``S`` that varies.

The counts of a PRAM run carry no noise, only the jitter of ceilings and floors, so a sweep can
say much more than "the ratio looks flat". A :class:`Law` writes a count in the terms the bounds
use, ``S^a L^b`` with ``L`` a logarithm of the size (a :class:`Scale`: ``log2(S/c)`` when the
sizes are ``c`` times powers of two, ``floor``/``ceil`` of ``log2`` otherwise). How a law is
found is :mod:`pram.laws.exact` (rational coefficients, checked on held-out sizes) and
:mod:`pram.laws.fitting` (least squares); what it says about a bound is :mod:`pram.laws.verdicts`.

>>> from pram.laws.fitting import fit
>>> law = fit("time", "n", [4, 8, 16, 32, 64], [6, 12, 20, 30, 42])
>>> law.describe()
'time = L^2 + L, L = log2(n), exact on 5 sizes (held out n = 32, 64)'
>>> law.predict(65536)
272
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import attrs

from pram._numpy import np
from pram.display import plain

#: An exponent pair (a, b) of a term S^a L^b; orders compare lexicographically, which is how
#: S^a L^b compare as S grows.
Order = tuple[float, float]
#: The powers of log2(log2 S) a bound's formula is tried with.
LOGLOG_POWERS = (0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5)
#: A power c of log log rides on an order's power of L as c LOGLOG: the term
#: ``S^a L^b log2(L)^c`` is the order ``(a, b + c LOGLOG)``. Powers of L come in quarters, far
#: apart from these offsets, so orders still compare as the terms grow (n L < n L log2(L) <
#: n L^1.25, n/log2(L) < n), and every term a law or a bound has is one pair.
LOGLOG = 2.0**-10


def log_parts(b: float) -> tuple[float, float]:
    """The power of L and the power of log2(L) carried by an order's second exponent ``b``."""
    whole = round(b * 4) / 4
    return whole, round((b - whole) / LOGLOG * 2) / 2


def with_loglog(b: float, c: float) -> float:
    """The second exponent of an order ``L^b log2(L)^c``."""
    return b + c * LOGLOG


#: How a law evaluates its log log factor: ``log2(L)`` itself, or the staircase
#: ``ceil(log2 L)`` or ``floor(log2 L)`` (integers at integer L: the depth of a recursion on
#: ``L``, such as a combine in ``2 ceil(log2 L) + 2`` steps, is one of those, not log2(L)).
STAIRS = ("ceil", "floor")
#: A staircase is evidence of its own only where it takes this many values over a sweep: with
#: fewer, a step or two is an indicator that absorbs any bump (floor(log2 L) on L = 4..14
#: "fitted" Algorithm 10's flat 9.2 n work best), or another step function's steps
#: (3 isqrt(L) + 2 reads as 3 ceil(log2 L) - 1 on 10..10^6).
STAIR_STEPS = 4


def stair(kind: str, big_l: float) -> float:
    """The log log factor ``log2(L)`` read as ``kind`` (``log``, ``ceil`` or ``floor``); 0
    below L = 1."""
    if big_l < 1:
        return 0.0
    if kind == "log":
        return math.log2(big_l)
    if float(big_l).is_integer():
        v = int(big_l)
        return float((v - 1).bit_length() if kind == "ceil" else v.bit_length() - 1)
    value = math.log2(big_l)
    return float(math.ceil(value) if kind == "ceil" else math.floor(value))


def log_term(big_l: float, b: float, loglog: str = "log") -> float:
    """``L^b log2(L)^c`` for the second exponent ``b`` (log2(L) taken as 0 below L = 1, and
    read as ``loglog``: see :data:`STAIRS`)."""
    power, c = log_parts(b)
    value = big_l**power if big_l > 0 or power > 0 else 0.0
    if c:
        value *= stair(loglog, big_l) ** c if big_l > 1 else 0.0
    return float(value)


def log_columns(big_l: np.ndarray, powers: np.ndarray, kind: str = "log") -> np.ndarray:
    """``log_term`` for every L (rows) and second exponent (columns), the log log factor
    read as ``kind`` (see :data:`STAIRS`)."""
    parts = [log_parts(float(b)) for b in powers]
    whole = np.array([p for p, _ in parts])
    c = np.array([q for _, q in parts])
    with np.errstate(divide="ignore", invalid="ignore"):
        loglog = np.log2(np.where(big_l > 1, big_l, 1.0))
        if kind == "ceil":
            loglog = np.ceil(loglog - 1e-12)
        elif kind == "floor":
            loglog = np.floor(loglog + 1e-12)
        out = big_l[:, None] ** whole[None, :] * np.where(
            c[None, :] != 0, loglog[:, None] ** c[None, :], 1.0)
    return np.asarray(np.where(np.isfinite(out), out, 0.0))


# ---- the scale L -------------------------------------------------------------------------------


@attrs.frozen
class Scale:
    """How ``L`` is computed from a size: ``log2(S/c)``, ``ceil(log2 S)``, ``ceil(log2(S+1))``
    (which is ``floor(log2 S) + 1``) or ``floor(log2 S)``."""

    kind: str  # "log", "ceil", "ceil+1" or "floor"
    size: str
    base: int = 1

    def __call__(self, s: float) -> float:
        """``L`` at size ``s`` (exact integers for the ceiling and floor kinds)."""
        if self.kind == "log":
            return math.log2(s / self.base)
        if self.kind == "ceil+1":
            return float(math.ceil(math.log2(s + 1)))
        if self.kind == "floor":
            return float(math.floor(math.log2(s)))
        return float(math.ceil(math.log2(s)))

    def integer(self, s: float) -> int | None:
        """``L`` at ``s`` as an exact integer, or None when it is not one."""
        if not float(s).is_integer() or s < 1:
            return None
        v = int(s)
        if self.kind == "ceil+1":
            return v.bit_length()  # ceil(log2(v + 1))
        if self.kind == "ceil":
            return (v - 1).bit_length()  # ceil(log2(v))
        if self.kind == "floor":
            return v.bit_length() - 1
        if v % self.base:
            return None
        q = v // self.base
        return q.bit_length() - 1 if q > 0 and q & (q - 1) == 0 else None

    @property
    def text(self) -> str:
        """``L = log2(N/3)`` and the like."""
        s = self.size
        if self.kind == "ceil+1":
            return f"L = ceil(log2({s}+1))"
        if self.kind == "ceil":
            return f"L = ceil(log2({s}))"
        if self.kind == "floor":
            return f"L = floor(log2({s}))"
        return f"L = log2({s}/{self.base})" if self.base != 1 else f"L = log2({s})"


def power_base(values: Sequence[float]) -> int | None:
    """``c`` when every size is ``c`` times a power of two (``c`` odd), else None."""
    if not values or not all(float(v).is_integer() and v > 0 for v in values):
        return None
    odd = set()
    for v in values:
        q = int(v)
        odd.add(q >> ((q & -q).bit_length() - 1))
    return odd.pop() if len(odd) == 1 else None


def scales(size: str, values: Sequence[float]) -> list[Scale]:
    """The scales an exact law may use at sizes ``values``.

    Sizes ``c`` times powers of two get ``log2(S/c)`` alone (floors and ceilings of it are the
    same polynomials); other sizes get ``ceil(log2 S)``, ``ceil(log2(S+1))`` and ``floor(log2
    S)``, which differ, so a count exact in one is not in another.
    """
    base = power_base(values)
    if base is not None:
        return [Scale("log", size, base)]
    return [Scale("ceil", size), Scale("ceil+1", size), Scale("floor", size)]


# ---- laws ----------------------------------------------------------------------------------------


def number_text(c: Fraction | float) -> str:
    """``3/4`` for a Fraction, four significant digits for a float."""
    if isinstance(c, Fraction):
        return str(c.numerator) if c.denominator == 1 else f"{c.numerator}/{c.denominator}"
    return f"{c:.4g}"


def term_text(order: Order, size: str, loglog: str = "log") -> str:
    """``N L^2`` for (1, 2) and size ``N``; ``1`` for (0, 0); a log log factor as
    ``log2(L)``, or ``ceil(log2(L))`` / ``floor(log2(L))`` for a staircase (``loglog``)."""
    a, whole = order[0], log_parts(order[1])
    b, c = whole
    parts = []
    if a:
        parts.append(size if a == 1 else f"{size}^{a:g}")
    if b:
        parts.append("L" if b == 1 else f"L^{b:g}")
    factor = "log2(L)" if loglog == "log" else f"{loglog}(log2(L))"
    if c > 0:
        parts.append(factor if c == 1 else f"{factor}^{c:g}")
    if c < 0:  # divided by a log log: n L / log2(L)
        return f"{' '.join(parts) or '1'} / {factor if c == -1 else f'{factor}^{-c:g}'}"
    return " ".join(parts) or "1"


@attrs.frozen
class Law:
    """A count as a sum of terms ``c S^a L^b`` in one size ``S``, exact or least squares."""

    measure: str
    scale: Scale
    terms: tuple[Order, ...]
    coefficients: tuple[Fraction | float, ...]
    exact: bool
    #: How many sizes the law was found on (from ``start`` on).
    sizes: int
    #: Largest |count - law| over those sizes (0 for an exact law).
    max_residual: float
    #: Largest relative miss over those sizes beyond the unit every integer count may miss
    #: by, as the verdicts' score reads it: max(|count - law| - 1, 0) / count (counts under 16
    #: as 16): the figure a tight claim needs within 0.5%.
    max_relative_residual: float = 0.0
    #: The leading coefficient over its standard error (infinite for an exact law).
    leading_z: float = math.inf
    #: The smallest size the law describes (None: the whole sweep); counts below it differ
    #: (zeros, or small cases of their own).
    start: float | None = None
    #: The sizes held out of an exact law's fit, which it then reproduced.
    held_out: tuple[float, ...] = ()
    #: Another scale that gives the same L at every size of the sweep (so its laws cannot be
    #: told apart here, and predictions at other sizes may differ), or None.
    twin: Scale | None = None
    #: How the law's log log factors are read: ``log2(L)`` (``log``), or the staircase
    #: ``ceil(log2 L)`` or ``floor(log2 L)`` of an exact law (see :data:`STAIRS`).
    loglog: str = "log"

    @property
    def size(self) -> str:
        """The name of the size the law is a function of."""
        return self.scale.size

    @property
    def leading(self) -> Order:
        """The order (a, b) of the law's highest term with a non-zero coefficient."""
        live = [t for t, c in zip(self.terms, self.coefficients, strict=True) if c != 0]
        return max(live) if live else (0.0, 0.0)

    @property
    def leading_coefficient(self) -> float:
        """The coefficient of the leading term."""
        for t, c in zip(self.terms, self.coefficients, strict=True):
            if t == self.leading:
                return float(c)
        return 0.0

    def __call__(self, s: float) -> float:
        """The law at size ``s``."""
        big_l = self.scale(s)
        return float(
            sum(float(c) * s**a * log_term(big_l, b, self.loglog)
                for (a, b), c in zip(self.terms, self.coefficients, strict=True))
        )

    def predict(self, s: float) -> int | float:
        """The law at an unseen size ``s``: an exact integer where the law is exact there."""
        big_l = self.scale.integer(s) if self.exact else None
        if big_l is not None and float(s).is_integer() and (
                self.loglog != "log" or not any(log_parts(b)[1] for _, b in self.terms)):
            g = int(stair(self.loglog, big_l)) if self.loglog != "log" else 0
            total = sum(
                (Fraction(c) * int(s) ** int(a) * big_l ** int(log_parts(b)[0])
                 * g ** int(log_parts(b)[1])
                 for (a, b), c in zip(self.terms, self.coefficients, strict=True)),
                Fraction(0),
            )
            if total.denominator == 1:
                return int(total)
            return float(total)
        return self(s)

    @property
    def text(self) -> str:
        """The law's right-hand side, highest term first: ``2 L^2 + 6 L + 13``."""
        coefficients: list[Fraction | float] = list(self.coefficients)
        pairs = sorted(zip(self.terms, coefficients, strict=True), key=lambda p: p[0],
                       reverse=True)
        out = ""
        for order, c in pairs:
            if c == 0:
                continue
            term = term_text(order, self.size, self.loglog)
            magnitude: Fraction | float = -c if c < 0 else c
            shown = number_text(magnitude)
            body = term if shown == "1" and term != "1" else (
                shown if term == "1" else f"{shown} {term}"
            )
            if not out:
                out = ("-" if c < 0 else "") + body
            else:
                out += (" - " if c < 0 else " + ") + body
        return out or "0"

    @property
    def where(self) -> str:
        """Where the law was found: ``exact on 9 sizes (held out N = 96, 192)`` and the like."""
        start = "" if self.start is None else f" from {self.size} = {plain(self.start)} on"
        if self.exact:
            held = ", ".join(plain(v) for v in self.held_out)
            how = f"exact on {self.sizes} sizes{start}" + (
                f" (held out {self.size} = {held})" if held else "")
        else:
            how = (
                f"least squares on {self.sizes} sizes{start}, leading term "
                f"{term_text(self.leading, self.size, self.loglog)}, largest residual "
                f"{self.max_residual:.4g} ({100 * self.max_relative_residual:.2g}% beyond a unit)"
            )
        if self.twin is not None:
            how += f"; {self.twin.text} gives the same L on these sizes"
        return how

    def describe(self) -> str:
        """``time = 2 L^2 + 6 L + 13, L = log2(N/3), exact on 9 sizes (...)`` and the like."""
        return f"{self.measure} = {self.text}, {self.scale.text}, {self.where}"

    def as_dict(self) -> dict[str, object]:
        """The law for JSON: its formula, exactness, residual, terms and coefficients."""
        return {
            "formula": self.text,
            "scale": self.scale.text,
            "size": self.size,
            "exact": self.exact,
            "sizes": self.sizes,
            "start": self.start,
            "held_out": list(self.held_out),
            "max_residual": self.max_residual,
            "leading": term_text(self.leading, self.size, self.loglog),
            "terms": [term_text(t, self.size, self.loglog) for t in self.terms],
            "coefficients": [number_text(c) if self.exact else float(c)
                             for c in self.coefficients],
        }


# ---- the order of a bound ----------------------------------------------------------------------


def _snap(x: float, denominators: int, within: float) -> float:
    """``x`` as the nearest fraction with a denominator up to ``denominators`` if that is
    ``within`` of it, else ``x`` to four decimals."""
    best = min((Fraction(round(x * q), q) for q in range(1, denominators + 1)),
               key=lambda f: abs(float(f) - x))
    return float(best) if abs(float(best) - x) <= within else round(x, 4)


#: A bound whose best reading misses log2 of its formula by more than this at very large sizes
#: is outside S^a L^b log2(L)^c: 8 2^sqrt(log2 n) misses by 8e-4 in every reading, while a
#: formula of that form misses by under 1e-5 in its own (lower terms and all).
OUTSIDE = 1e-4


@attrs.frozen
class BoundReading:
    """The order of a bound's formula (:func:`bound_reading`)."""

    #: (a, b'), b' the power of L carrying the power of log log (see LOGLOG).
    order: Order
    #: The power of log2(log2 S).
    loglog: float
    #: Whether the formula is outside S^a L^b log2(L)^c (then ``order`` is only its nearest
    #: reading at very large sizes, and says nothing the verdict may name).
    outside: bool = False


def bound_reading(formula: Callable[[float], float]) -> BoundReading:
    """The order of ``formula(S) ~ S^a log2(S)^b log2(log2 S)^c``, read off at very large sizes.

    ``log2 formula(2^t)`` is fitted by ``a t + b log2 t`` plus a constant and terms in 1/t
    (the lower-order terms of the formula) at t up to 1000, or as far as floats reach, once
    for each log log power c in 0, 1, -1, 2, -2, 1/2, -1/2 (the term ``c log2 log2 t`` taken
    as given). A log log factor read as a power of the log comes out as an unclean b (log2
    log2 n reads as log^0.14 at these sizes, its square as log^0.28, which is within a
    quarter's rounding), so the reading that fits best is taken, c and all, where its b is
    clean (within 0.05 of a quarter); else the best clean reading, else c = 0 with b snapped
    to a quarter. Where even the best reading misses by more than OUTSIDE the formula is
    outside that form (8 2^sqrt(log2 n)), and the reading says so. The exponent of S is kept
    exact: a fraction with a denominator up to 12 when within 0.001 of one (``n^1.1`` stays
    1.1, ``sqrt(n)`` is 1/2).
    """
    for top in (1000.0, 512.0, 256.0, 128.0, 64.0, 32.0):
        ts = np.linspace(top / 4, top, 9)
        try:
            values = [float(formula(2.0 ** float(t))) for t in ts]
        except (OverflowError, ValueError, ZeroDivisionError):
            continue
        if not all(math.isfinite(v) and v > 0 for v in values):
            continue
        logs = np.log2(np.array(values))
        design = np.stack([ts, np.log2(ts), np.ones_like(ts), 1 / ts, 1 / ts**2], axis=1)
        readings: list[tuple[float, float, float, float]] = []  # (residual, c, a, b)
        for c in LOGLOG_POWERS:
            y = logs - c * np.log2(np.log2(ts))
            coefficients = np.linalg.lstsq(design, y, rcond=None)[0]
            residual = float(np.max(np.abs(design @ coefficients - y)))
            readings.append((residual, c, float(coefficients[0]), float(coefficients[1])))

        def clean(b: float) -> bool:
            return abs(4 * b - round(4 * b)) <= 4 * 0.05

        best = min(readings)
        chosen = best if clean(best[3]) else min(
            (r for r in readings if clean(r[3])), default=readings[0])
        _, c, a_, b_ = chosen
        b = round(b_ * 4) / 4
        return BoundReading((_snap(a_, 12, 1e-3), with_loglog(b, c)), float(c),
                            best[0] > OUTSIDE)
    return BoundReading((0.0, 0.0), 0.0)


def bound_order(formula: Callable[[float], float]) -> tuple[Order, float]:
    """The order of ``formula`` as ((a, b'), c): see :func:`bound_reading`."""
    reading = bound_reading(formula)
    return reading.order, reading.loglog


def order_of(formula: Callable[[float], float]) -> Order:
    """The order (a, b) of ``formula(S) ~ S^a log2(S)^b``, read off at very large sizes (a
    log log factor rides on b: see LOGLOG and :func:`bound_order`)."""
    return bound_order(formula)[0]


def order_text(order: Order, size: str, *, whole: bool = False) -> str:
    """``n log^2`` and the like: the order (a, b) in words; ``whole`` gives each log its
    argument (``n log^2 n``), for sentences, where ``the bound's n log`` reads as if cut."""
    a, (b, c) = order[0], log_parts(order[1])
    of = f" {size}" if whole else ""
    parts = []
    if a:
        parts.append(size if a == 1 else f"{size}^{a:g}")
    if b > 0:
        parts.append(f"log{of}" if b == 1 else f"log^{b:g}{of}")
    if c > 0:
        parts.append(f"loglog{of}" if c == 1 else f"loglog^{c:g}{of}")
    text = " ".join(parts) or ("1" if b < 0 or c < 0 else "a constant")
    if b < 0:
        text += f"/log{of}" if b == -1 else f"/log^{-b:g}{of}"
    if c < 0:
        text += f"/loglog{of}" if c == -1 else f"/loglog^{-c:g}{of}"
    return text


def spelled(order: Order, size: str) -> str:
    """An order in a sentence, each log with its argument: ``the bound's n log n`` (a bare
    ``n log`` at the end of a sentence reads as if the text were cut)."""
    return order_text(order, size, whole=True)


__all__ = ["LOGLOG", "LOGLOG_POWERS", "OUTSIDE", "STAIRS", "STAIR_STEPS", "BoundReading", "Law",
           "Order", "Scale", "bound_order", "bound_reading",
           "log_columns", "log_parts", "log_term", "number_text", "order_of", "order_text",
           "power_base", "scales", "spelled", "stair", "term_text", "with_loglog"]
