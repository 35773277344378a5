"""Cost laws: a sweep's exact counts as a function of the one size that varies.

The counts of a PRAM run carry no noise, only the jitter of ceilings and floors, so a sweep can
say much more than "the ratio looks flat". A :class:`Law` writes a count in the terms the bounds
use, ``S^a L^b`` with ``S`` the size and ``L`` its log2, and is found in one of two ways:

- **exact**: the smallest basis of such terms that reproduces every count with rational
  coefficients, checked in exact arithmetic with at least one size to spare (a basis as large
  as the sweep would fit anything). ``L`` is ``log2(S/c)`` when the sizes are ``c`` times powers
  of two, otherwise ``ceil(log2(S + 1))`` or ``ceil(log2(S))`` where that makes the law exact;
- **least squares** otherwise: the leading term ``S^a L^b`` with the next two lower powers of
  ``L`` (down to ``L^-2``: lower-order terms that fade, such as ``S/L``),
  the leading order the lowest whose fit (and prediction of the largest size from the others)
  comes within 10% of the best candidate's largest relative error (or, if its leading
  coefficient is within CLEARLY standard errors of 0, the highest lower order whose leading
  coefficient is not and whose error is within twice the best); the law carries its largest
  residual and how many standard errors its leading coefficient is from 0.

:func:`decide` then judges a bound ``f`` against the counts (see its docstring).

>>> law = fit("time", "n", [4, 8, 16, 32, 64], [6, 12, 20, 30, 42])
>>> law.describe()
'time = L^2 + L, L = log2(n), exact on 5 sizes'
>>> law.predict(65536)
272
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import attrs
import numpy as np

#: An exponent pair (a, b) of a term S^a L^b.
Order = tuple[float, float]

#: Powers of the size and of its log the laws are built from.
SIZE_POWERS = (0, 1, 2)
LOG_POWERS = (0, 1, 2, 3, 4)
#: Largest basis an exact law may use.
MOST_TERMS = 7
#: How many times the residual scale a growth term must explain before it counts as present.
CLEARLY = 4.0
#: With 4 sizes, growth counts only if the ratio rises at every size and by this factor.
STEADY = 1.5
#: Fewest sizes from which a least-squares law may say a bound is tight or loose.
TIGHT_SIZES = 6


# ---- the scale L -------------------------------------------------------------------------------


@attrs.frozen
class Scale:
    """How ``L`` is computed from a size: ``log2(S/c)``, ``ceil(log2(S+1))`` or ``ceil(log2 S)``."""

    kind: str  # "log", "ceil+1" or "ceil"
    size: str
    base: int = 1

    def __call__(self, s: float) -> float:
        """``L`` at size ``s`` (a float; exact integers for the ceiling kinds)."""
        if self.kind == "log":
            return math.log2(s / self.base)
        if self.kind == "ceil+1":
            return float(math.ceil(math.log2(s + 1)))
        return float(math.ceil(math.log2(s)))

    def integer(self, s: float) -> int | None:
        """``L`` at ``s`` as an exact integer, or None when it is not one."""
        if not float(s).is_integer():
            return None
        v = int(s)
        if self.kind == "ceil+1":
            return (v).bit_length()  # ceil(log2(v + 1))
        if self.kind == "ceil":
            return (v - 1).bit_length()  # ceil(log2(v))
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
        return f"L = log2({s}/{self.base})" if self.base != 1 else f"L = log2({s})"


def scales(size: str, values: Sequence[float]) -> list[Scale]:
    """The scales to try for sizes ``values``, the plain logarithm first."""
    base = 1
    if all(float(v).is_integer() and v > 0 for v in values):
        g = 0
        for v in values:
            g = math.gcd(g, int(v))
        while g and g % 2 == 0:
            g //= 2
        base = max(g, 1)
    return [Scale("log", size, base), Scale("ceil+1", size), Scale("ceil", size)]


# ---- laws ----------------------------------------------------------------------------------------


def _number(c: Fraction | float) -> str:
    if isinstance(c, Fraction):
        return str(c.numerator) if c.denominator == 1 else f"{c.numerator}/{c.denominator}"
    return f"{c:.4g}"


def term_text(order: Order, size: str) -> str:
    """``N L^2`` for (1, 2) and size ``N``; ``1`` for (0, 0)."""
    a, b = order
    parts = []
    if a:
        parts.append(size if a == 1 else f"{size}^{a:g}")
    if b:
        parts.append("L" if b == 1 else f"L^{b:g}")
    return " ".join(parts) or "1"


@attrs.frozen
class Law:
    """A count as a sum of terms ``c S^a L^b`` in one size ``S``, exact or least squares."""

    measure: str
    scale: Scale
    terms: tuple[Order, ...]
    coefficients: tuple[Fraction | float, ...]
    exact: bool
    #: How many sizes the law was found on.
    sizes: int
    #: Largest |count - law| over the sweep (0 for an exact law).
    max_residual: float
    #: Largest |count - law| / count over the sweep.
    max_relative_residual: float = 0.0
    #: The leading coefficient over its standard error (infinite for an exact law).
    leading_z: float = math.inf
    #: Whether a higher-order fit did as well but its leading term was not clearly present
    #: (so the true order may be higher than this law's).
    stepped: bool = False

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
            sum(float(c) * s**a * big_l**b
                for (a, b), c in zip(self.terms, self.coefficients, strict=True))
        )

    def predict(self, s: float) -> int | float:
        """The law at an unseen size ``s``: an exact integer where the law is exact there."""
        big_l = self.scale.integer(s) if self.exact else None
        if big_l is not None and float(s).is_integer():
            total = sum(
                (Fraction(c) * int(s) ** int(a) * big_l ** int(b)
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
            term = term_text(order, self.size)
            magnitude: Fraction | float = -c if c < 0 else c
            shown = _number(magnitude)
            body = term if shown == "1" and term != "1" else (
                shown if term == "1" else f"{shown} {term}"
            )
            if not out:
                out = ("-" if c < 0 else "") + body
            else:
                out += (" - " if c < 0 else " + ") + body
        return out or "0"

    def describe(self) -> str:
        """``time = 2 L^2 + 6 L + 13, L = log2(N/3), exact on 9 sizes`` and the like."""
        if self.exact:
            how = f"exact on {self.sizes} sizes"
        else:
            how = (
                f"least squares on {self.sizes} sizes, leading term "
                f"{term_text(self.leading, self.size)}, largest residual "
                f"{self.max_residual:.4g} ({100 * self.max_relative_residual:.2g}%)"
            )
        return f"{self.measure} = {self.text}, {self.scale.text}, {how}"

    def as_dict(self) -> dict[str, object]:
        """The law for JSON: its formula, exactness, residual, terms and coefficients."""
        return {
            "formula": self.text,
            "scale": self.scale.text,
            "size": self.size,
            "exact": self.exact,
            "sizes": self.sizes,
            "max_residual": self.max_residual,
            "leading": term_text(self.leading, self.size),
            "terms": [term_text(t, self.size) for t in self.terms],
            "coefficients": [_number(c) if self.exact else float(c) for c in self.coefficients],
        }


def _bases() -> list[tuple[Order, ...]]:
    """Candidate bases of an exact law, fewest terms first, then lowest leading order.

    A basis is a run of powers of L under a leading ``S^A L^B`` plus, optionally, every power
    of L up to some ``Bl`` at one power of S lower (a lower-order tail like ``+ 3 L - 1``).
    """
    out: set[tuple[Order, ...]] = set()
    for a in SIZE_POWERS:
        for b in LOG_POWERS:
            for b0 in range(b + 1):
                top = tuple((float(a), float(j)) for j in range(b0, b + 1))
                out.add(top)
                if a == 0:
                    continue
                for bl in LOG_POWERS:
                    out.add(top + tuple((float(a - 1), float(j)) for j in range(bl + 1)))
    return sorted(
        (b for b in out if len(b) <= MOST_TERMS), key=lambda b: (len(b), max(b), sorted(b))
    )


BASES = _bases()


def _design(terms: Sequence[Order], s: np.ndarray, big_l: np.ndarray) -> np.ndarray:
    return np.stack([s**a * big_l**b for a, b in terms], axis=1)


def _solve_exact(
    terms: Sequence[Order], s: Sequence[int], big_l: Sequence[int], y: Sequence[int]
) -> tuple[Fraction, ...] | None:
    """Rational coefficients reproducing ``y`` exactly, or None (normal equations, Fractions)."""
    rows = [[Fraction(si ** int(a) * li ** int(b)) for a, b in terms]
            for si, li in zip(s, big_l, strict=True)]
    p = len(terms)
    ata = [[sum((r[i] * r[j] for r in rows), Fraction(0)) for j in range(p)] for i in range(p)]
    aty = [sum((r[i] * yi for r, yi in zip(rows, y, strict=True)), Fraction(0)) for i in range(p)]
    m = [[*row, v] for row, v in zip(ata, aty, strict=True)]
    for col in range(p):
        pivot = next((r for r in range(col, p) if m[r][col] != 0), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(p):
            if r != col and m[r][col] != 0:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * z for x, z in zip(m[r], m[col], strict=True)]
    coefficients = tuple(m[i][p] / m[i][i] for i in range(p))
    for row, yi in zip(rows, y, strict=True):
        if sum((c * x for c, x in zip(coefficients, row, strict=True)), Fraction(0)) != yi:
            return None
    return coefficients


def _exact(measure: str, size: str, xs: Sequence[float], ys: Sequence[float]) -> Law | None:
    """The exact law with the fewest terms (and at least one size to spare), if any."""
    k = len(xs)
    if not all(float(v).is_integer() for v in (*xs, *ys)):
        return None
    s_int = [int(v) for v in xs]
    y_int = [int(v) for v in ys]
    y = np.array(ys, dtype=float)
    found: list[Law] = []
    for scale in scales(size, xs):
        ls = [scale.integer(v) for v in xs]
        if any(v is None for v in ls):
            continue
        l_int = [int(v) for v in ls if v is not None]
        s = np.array(xs, dtype=float)
        big_l = np.array(l_int, dtype=float)
        for terms in BASES:
            if len(terms) >= k or (found and len(terms) > len(found[0].terms)):
                break
            a = _design(terms, s, big_l)
            norms = np.linalg.norm(a, axis=0)
            if np.any(norms == 0):
                continue
            c, *_ = np.linalg.lstsq(a / norms, y, rcond=None)
            if np.max(np.abs(a / norms @ c - y)) > 1e-6 * max(1.0, float(np.max(np.abs(y)))):
                continue
            coefficients = _solve_exact(terms, s_int, l_int, y_int)
            if coefficients is not None:
                # terms whose coefficient came out 0 are not part of the law
                live = [(t, c) for t, c in zip(terms, coefficients, strict=True) if c != 0]
                found.append(Law(measure, scale, tuple(t for t, _ in live),
                                 tuple(c for _, c in live), True, k, 0.0))
                break
        if found and scale.kind == "log":
            break  # the plain logarithm is exact: no ceiling needed
    if not found:
        return None
    return min(found, key=lambda law: (len(law.terms), law.leading))


def _least_squares(
    measure: str, size: str, xs: Sequence[float], ys: Sequence[float]
) -> Law:
    """The least-squares law whose leading order best predicts the largest size."""
    k = len(xs)
    scale = scales(size, xs)[0]
    s = np.array(xs, dtype=float)
    y = np.array(ys, dtype=float)
    big_l = np.array([scale(v) for v in xs])
    weight = 1.0 / np.maximum(np.abs(y), 1e-300)
    candidates: list[tuple[float, float, Law]] = []
    for a in SIZE_POWERS:
        for b in LOG_POWERS:
            terms = tuple((float(a), float(j)) for j in range(b - 2, b + 1))
            terms = terms[-max(1, min(len(terms), k - 2)):]
            law, score, z = _weighted(measure, scale, terms, s, big_l, y, weight)
            if law is not None:
                candidates.append((score, z, law))
    best = None
    if candidates:
        least = min(score for score, _, _ in candidates)
        # the lowest leading order that fits (and predicts) about as well as the best
        near = [c for c in candidates if c[0] <= 1.1 * least + 1e-12]
        chosen = min(near, key=lambda c: c[2].leading)
        if chosen[1] < CLEARLY:
            # its leading term is not clearly present: a lower order that is, and fits
            # nearly as well (within twice the best error), describes the counts better
            lower = [c for c in candidates if c[2].leading < chosen[2].leading
                     and c[0] <= 2 * least + 1e-12 and c[1] >= CLEARLY]
            if lower:
                pick = max(lower, key=lambda c: c[2].leading)
                chosen = (pick[0], pick[1], attrs.evolve(pick[2], stepped=True))
        best = (chosen[0], attrs.evolve(chosen[2], leading_z=chosen[1]))
    if best is None:
        c = float(np.mean(y))
        r = float(np.max(np.abs(y - c)))
        return Law(measure, scale, ((0.0, 0.0),), (c,), False, k, r,
                   r / max(float(np.min(np.abs(y))), 1e-300))
    return best[1]


def _weighted(
    measure: str,
    scale: Scale,
    terms: tuple[Order, ...],
    s: np.ndarray,
    big_l: np.ndarray,
    y: np.ndarray,
    weight: np.ndarray,
) -> tuple[Law | None, float, float]:
    """A relative least-squares fit of ``terms``, its score (largest relative error, including
    the error predicting the largest size from the others) and its leading coefficient's
    t-statistic."""
    k = len(y)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = _design(terms, s, big_l) * weight[:, None]
    target = y * weight
    if len(terms) >= k or not np.isfinite(a).all():  # too few sizes, or L^-j at L = 0
        return None, math.inf, 0.0
    c, *_ = np.linalg.lstsq(a, target, rcond=None)
    if c[-1] <= 0:
        return None, math.inf, 0.0
    r = a @ c - target
    dof = k - len(terms)
    sigma = math.sqrt(max(float(r @ r) / dof, 1e-30))
    z = float(c[-1]) / (sigma * math.sqrt(max(float(np.linalg.pinv(a.T @ a)[-1, -1]), 1e-300)))
    fitted = _design(terms, s, big_l) @ c
    residual = np.abs(y - fitted)
    relative = float(np.max(residual * weight))
    score = relative
    if k - 1 > len(terms):
        c1, *_ = np.linalg.lstsq(a[:-1], target[:-1], rcond=None)
        score = max(score, float(abs(a[-1] @ c1 - target[-1])))
    law = Law(measure, scale, terms, tuple(float(v) for v in c), False, k,
              float(np.max(residual)), relative)
    return law, score, z


def fit(measure: str, size: str, xs: Sequence[float], ys: Sequence[float]) -> Law:
    """The law of counts ``ys`` at sizes ``xs``: exact where possible, else least squares."""
    order = np.argsort(np.asarray(xs, dtype=float), kind="stable")
    xs = [float(xs[i]) for i in order]
    ys = [float(ys[i]) for i in order]
    return _exact(measure, size, xs, ys) or _least_squares(measure, size, xs, ys)


# ---- the order of a bound and the verdict --------------------------------------------------


def order_of(formula: Callable[[float], float]) -> Order:
    """The order (a, b) of ``formula(S) ~ S^a log2(S)^b``, read off at very large sizes."""
    ts = np.array([24.0, 36.0, 48.0, 60.0])
    logs = np.array([math.log2(max(formula(2.0**t), 1e-300)) for t in ts])
    a_, b_, _ = np.linalg.lstsq(np.stack([ts, np.log2(ts), np.ones_like(ts)], axis=1), logs,
                                rcond=None)[0]
    return (round(float(a_) * 4) / 4, round(float(b_) * 4) / 4)


def order_text(order: Order, size: str) -> str:
    """``n log^2`` and the like, for sentences: the order (a, b) in words."""
    a, b = order
    parts = []
    if a:
        parts.append(size if a == 1 else f"{size}^{a:g}")
    if b > 0:
        parts.append("log" if b == 1 else f"log^{b:g}")
    text = " ".join(parts) or ("1" if b < 0 else "a constant")
    if b < 0:
        text += "/log" if b == -1 else f"/log^{-b:g}"
    return text


@attrs.frozen
class Decision:
    """A verdict on one bound along one size, with its tightness and the reason in words."""

    verdict: str  # "holds", "exceeded" or "undetermined"
    #: For a bound that holds: whether the measured order is the bound's (None otherwise).
    tight: bool | None
    #: For a loose bound: the order by which it is loose, e.g. (0, 1) for one log.
    loose_by: Order | None
    reason: str
    #: The t-statistic of the slowest growth term (None when an exact law decided).
    growth: float | None = None


def _growth_fit(t: np.ndarray, u: np.ndarray, g: np.ndarray, p0: int) -> tuple[float, float, float]:
    """Fit ``u`` by H0 = 1, 1/t, ... (``p0`` terms) and by H1 = H0 + alpha g.

    Returns (alpha's t-statistic, largest residual of H1, largest residual of H0).
    """
    h0 = np.stack([t ** (-j) for j in range(p0)], axis=1)
    h1 = np.concatenate([h0, g[:, None]], axis=1)
    c0, *_ = np.linalg.lstsq(h0, u, rcond=None)
    c1, *_ = np.linalg.lstsq(h1, u, rcond=None)
    r1 = h1 @ c1 - u
    e0 = float(np.max(np.abs(h0 @ c0 - u)))
    e1 = float(np.max(np.abs(r1)))
    dof = len(u) - h1.shape[1]
    sigma = math.sqrt(max(float(r1 @ r1) / dof, 1e-30)) if dof > 0 else math.inf
    spread = float(np.linalg.pinv(h1.T @ h1)[-1, -1])
    se = sigma * math.sqrt(max(spread, 1e-300))
    return float(c1[-1]) / se, e1, e0


def grows(xs: Sequence[float], ratios: Sequence[float], degree: float = 2) -> tuple[str, float]:
    """Whether ``ratios`` (count / bound) grow along sizes ``xs``: ``"grows"``, ``"bounded"``
    or ``"cannot tell"``, with the t-statistic of the slowest growth term.

    H0 says the count is a polynomial in L of the bound's ``degree`` (times the bound's power
    of S), so the ratio is a polynomial in 1/L of that degree: terms 1, 1/L, ..., 1/L^degree
    (at least 1/L), as many as the sweep affords with 2 sizes to spare; growth is only ever
    found with all of them (or, with fewer, when the ratio rises steadily). H1 adds one growth
    term: ln L (one log log factor), L, L^2 or sqrt(S). The ratio grows when some growth term
    is clearly present: its coefficient
    positive, CLEARLY^2 standard errors from 0, and H0 missing the counts by CLEARLY times
    H1's largest residual. It is bounded when ln L's coefficient is within 2 standard errors
    of 0 (or negative), or when the ratio falls at each of the last three sizes; otherwise
    the sweep cannot tell.
    """
    order = np.argsort(np.asarray(xs, dtype=float), kind="stable")
    x = np.array([xs[i] for i in order], dtype=float)
    u = np.array([ratios[i] for i in order], dtype=float)
    u = u / (float(np.mean(np.abs(u))) or 1.0)
    k = len(u)
    t = np.log2(np.maximum(x, 2.0))
    full = max(1, round(degree)) + 1
    p0 = max(1, min(full, k - 3))
    floor = 1e-9
    growth_terms = [np.log(t), t, t**2, np.sqrt(x / x[0])]
    fits = [_growth_fit(t, u, g, p0) for g in growth_terms]
    steady = bool(np.all(np.diff(u) > 0)) and u[-1] >= STEADY * u[0]
    if p0 == full or steady:
        for z, e1, e0 in fits:
            if z > CLEARLY**2 and e0 > CLEARLY * max(e1, floor):
                return "grows", z
    z = fits[0][0]
    falling = k >= 4 and bool(np.all(np.diff(u[-4:]) < 0))
    if z <= 2.0 or falling:
        return "bounded", z
    return "cannot tell", z


def decide(
    bound: Order,
    size: str,
    xs: Sequence[float],
    counts: Sequence[float],
    values: Sequence[float],
    law: Law,
) -> Decision:
    """Judge a bound of order ``bound`` (values ``values`` at sizes ``xs``) against ``counts``.

    - Fewer than 4 sizes: undetermined (never a verdict from two or three points).
    - An exact law with at least two sizes to spare decides by its leading term: above the
      bound's order exceeded, equal holds and tight, below holds and loose by the difference.
    - Otherwise the ratio count / bound decides (see :func:`grows`): exceeded when it grows;
      when it may grow but the best least-squares law's leading term is within the bound's
      order, holds (no higher-order term fits better), else undetermined. A bound that holds
      is tight when the law's leading term is the bound's order and clearly present (CLEARLY
      standard errors from 0), loose by the difference when the law's order is lower; from
      a least-squares law only with TIGHT_SIZES sizes or more.
    """
    k = len(xs)
    if k < 4:
        return Decision("undetermined", None, None,
                        f"{k} sizes cannot tell a law's order; extend the sweep to 5 or more "
                        "sizes")
    if law.exact and k >= len(law.terms) + 2:
        lead = law.leading
        term = term_text(lead, size)
        if lead > bound:
            return Decision("exceeded", None, None,
                            f"the exact law's leading term {term} is of higher order than the "
                            f"bound's {order_text(bound, size)}")
        if lead == bound:
            return Decision("holds", True, None,
                            f"the exact law's leading term {term} is the bound's order")
        by = (bound[0] - lead[0], bound[1] - lead[1])
        return Decision("holds", False, by,
                        f"the exact law's leading term {term} is below the bound's "
                        f"{order_text(bound, size)}")
    ratios = [c / v for c, v in zip(counts, values, strict=True)]
    state, z = grows(xs, ratios, bound[1])
    if state == "grows" and law.leading <= bound:
        return Decision("undetermined", None, None,
                        f"count / bound grows over the sweep (a growth term {z:.3g} standard "
                        "errors from 0) but the best law has no term above the bound's order; "
                        "extend the sweep to larger sizes", z)
    if state == "grows":
        return Decision("exceeded", None, None,
                        f"count / bound keeps growing: a growth term {z:.3g} standard errors "
                        "from 0, and no bounded fit comes within 4 times its residual", z)
    if state == "cannot tell" and law.leading > bound:
        return Decision("undetermined", None, None,
                        f"count / bound may grow (a log log term {z:.3g} standard errors from "
                        "0, not clearly present); extend the sweep to larger sizes", z)
    lead = law.leading
    term = term_text(lead, size)
    if k < TIGHT_SIZES:
        return Decision("holds", None, None,
                        f"count / bound stays bounded; whether the bound is tight {k} sizes "
                        f"cannot tell from a least-squares law (give {TIGHT_SIZES} or more)", z)
    why = (
        "count / bound stays bounded"
        if state == "bounded"
        else f"count / bound may still grow slowly (a log log term {z:.2g} standard errors "
        "from 0), but no law of higher order fits better"
    )
    if lead == bound and law.leading_z >= CLEARLY:
        return Decision("holds", True, None,
                        f"{why}; the law's leading term {term} is the bound's order", z)
    if lead < bound and not law.stepped:
        return Decision("holds", False, (bound[0] - lead[0], bound[1] - lead[1]),
                        f"{why}; the law's leading term {term} is below the bound's "
                        f"{order_text(bound, size)}", z)
    return Decision("holds", None, None,
                    f"{why}; whether the bound is tight the sweep cannot tell (the law's "
                    f"leading term {term} is {law.leading_z:.2g} standard errors from 0)", z)


__all__ = ["Decision", "Law", "Scale", "decide", "fit", "grows", "order_of", "scales"]
