"""Exact laws: the fewest terms ``S^a L^b`` with rational coefficients that give every count.

A basis as large as the sweep fits anything, and among hundreds of bases one may fit a few
sizes by chance, so a law is accepted only when it *predicts*: the basis is chosen on the sweep
without its two largest sizes (the fewest terms that reproduce those counts exactly, with a
full-rank design), and the law it gives must then reproduce the two held-out counts exactly,
have a positive leading coefficient, use at most (sizes - 2) terms, and at each power of S with
a power of L at most (distinct values of L - 2) terms (so a polynomial in L never just
interpolates L; a lone S^a is a polynomial in S, tested by the sizes).
Where several smallest bases predict, their leading orders are kept as rivals (the verdict must
agree with every one). The first few sizes may be left out (small cases of their own, such as
n = 1): a law may start at the second size, or later, at most a quarter of the sweep in.

Bases are built from S^a (a = 0..3) times powers of L up to L^4: a run of powers of L at the
top power of S, every power of L up to some L^m one power of S lower, and at most 1 and L at
each power of S below that (``n^3 + 2 n^2 L - n + 4``). Where no such law predicts, the same
bases with a **staircase** are tried: one term ``S^a L^b G`` beside its ``S^a L^b`` at the
top power of S (b up to 2), with ``G = ceil(log2 L)`` or
``floor(log2 L)`` (the depth of a recursion on L: Algorithm 11 combines in ``2 ceil(log2 L) +
2`` steps, Valiant's maximum squares its blocks ``floor(log2 L)`` times). A staircase must
step within the fitted sizes (G takes two values there at least), so it is evidence, not a
free constant. One staircase term only: two (``G`` and ``G^2``) shape any count that steps
twice, wherever (``3 isqrt(floor(log2 n)) + 2`` on 3 2^k read as ``3/2 G^2 - 9/2 G + 11``).

A sweep of four or five sizes is too short to hold out two with sizes to spare: there the
basis is chosen without the largest size alone, and the law must predict that count to the
unit (an integer, exactly). Every rival that also predicts must lead on the same side of the
bound, as for two held out.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction

import attrs

from pram._numpy import np
from pram.laws.law import STAIRS, Law, Order, Scale, log_parts, scales, stair, with_loglog

#: Powers of the size and of its log the exact laws are built from.
SIZE_POWERS = (0, 1, 2, 3)
LOG_POWERS = (0, 1, 2, 3, 4)
#: Largest basis an exact law may use.
MOST_TERMS = 7
#: How many sizes to hold out of the fit (the largest ones).
HELD_OUT = 2
#: A staircase law needs this many counts beyond those its terms interpolate (fitted rows
#: past the number of terms, plus the held-out ones), or held-out counts of STAIR_LARGE or
#: more.
STAIR_CHECKS = 4
STAIR_LARGE = 64
#: A staircase law's terms at the largest size may add up to at most this many times its
#: count (terms that cancel to a fraction of their sizes fit steps by chance).
CANCEL = 2
#: A staircase law, or one with as many terms as fitted sizes, has coefficients with
#: denominators up to this (counts of programs divide by small numbers: N/3, 11/18).
SIMPLE = 24


def _bases() -> list[tuple[Order, ...]]:
    """Candidate bases, fewest terms first, then lowest leading order."""
    out: set[tuple[Order, ...]] = set()
    for a in SIZE_POWERS:
        for b in LOG_POWERS:
            for b0 in range(b + 1):
                top = tuple((float(a), float(j)) for j in range(b0, b + 1))
                nexts: list[tuple[Order, ...]] = [()]
                if a >= 1:
                    nexts += [tuple((float(a - 1), float(j)) for j in range(m + 1))
                              for m in LOG_POWERS]
                tails: list[tuple[Order, ...]] = [()]
                for lower in range(a - 2, -1, -1):
                    tails = [t + extra for t in tails
                             for extra in ((), ((float(lower), 0.0),),
                                           ((float(lower), 0.0), (float(lower), 1.0)))]
                for n in nexts:
                    for t in tails:
                        basis = top + n + t
                        if len(basis) <= MOST_TERMS:
                            out.add(basis)
    return sorted(out, key=lambda b: (len(b), max(b), sorted(b)))


def _stair_bases(plain: Sequence[tuple[Order, ...]]) -> list[tuple[Order, ...]]:
    """The bases with a staircase (see the module doc), fewest terms first."""
    out: set[tuple[Order, ...]] = set()
    for basis in plain:
        if len(basis) >= MOST_TERMS:
            continue
        top = max(a for a, _ in basis)
        for a, b in basis:
            if a != top or b > 2:
                continue
            out.add(tuple(sorted((*basis, (a, with_loglog(b, 1.0))))))
    return sorted(out, key=lambda b: (len(b), max(b), sorted(b)))


def _in_l(basis: tuple[Order, ...]) -> int:
    """The most terms ``basis`` has at one power of S that has a power of L among them: a
    polynomial in L of that many terms there must be tested by distinct values of L. A power
    of S alone (S^a, no L beside it) is a polynomial in S, tested by the sizes themselves
    (7 n + 9 on n = 50..70, where floor(log2 n) takes two values, is exact)."""
    per_power: dict[float, list[float]] = {}
    for a, b in basis:
        per_power.setdefault(a, []).append(b)
    return max((len(bs) for bs in per_power.values() if any(b != 0 for b in bs)), default=0)


@attrs.frozen
class _Family:
    """A set of bases, their terms, and the bases by number of terms as column indices."""

    orders: tuple[Order, ...]
    by_size: dict[int, np.ndarray]


def _family(bases: Sequence[tuple[Order, ...]]) -> _Family:
    orders = tuple(sorted({t for b in bases for t in b}))
    index = {t: i for i, t in enumerate(orders)}
    by_size = {p: np.array([[index[t] for t in b] for b in bases if len(b) == p])
               for p in range(1, MOST_TERMS + 1) if any(len(b) == p for b in bases)}
    return _Family(orders, by_size)


BASES = _bases()
STAIR_BASES = _stair_bases(BASES)
_PLAIN = _family(BASES)
_STAIR = _family(STAIR_BASES)


def _value(s: int, big_l: int, order: Order, loglog: str) -> int:
    """The term ``S^a L^b G^c`` of ``order`` at size ``s`` as an exact integer."""
    whole, c = log_parts(order[1])
    g = int(stair(loglog, big_l)) if c else 1
    return int(s ** int(order[0]) * big_l ** int(whole) * g ** int(c))


@attrs.frozen
class Exact:
    """An accepted exact law and what it rests on."""

    law: Law
    #: The held-out sizes and the counts the law predicted there (equal to the measured).
    predicted: tuple[tuple[float, int], ...]
    #: Leading orders of every smallest basis that also predicted the held-out sizes.
    rivals: tuple[Order, ...]
    #: How many of the first sizes the law leaves out.
    skipped: int


#: The prime (2^61 - 1) modulo which :func:`_solve` first tests whether a basis can hold the
#: counts exactly: arithmetic on machine-sized integers where rationals of counts near 2^50
#: grow numerators of hundreds of digits (a sweep with no exact law tries thousands of bases).
PRIME = (1 << 61) - 1


def _cannot_hold(rows: list[list[int]], y: list[int]) -> bool:
    """Whether ``rows @ c == y`` certainly has no exact rational solution: the normal equations
    solved modulo :data:`PRIME` give a c that misses a row there.

    Where a rational solution exists, the normal matrix is invertible over the rationals and c
    is its inverse (denominators dividing its determinant) applied to the right side; where
    that determinant is not 0 modulo the prime, the solution modulo the prime is c's image, so
    every row holds there too. So a miss proves there is none; a determinant 0 modulo the
    prime proves nothing (False, and the rationals decide), nor does a solution there (the
    rationals confirm it).
    """
    p = len(rows[0])
    m = [[sum(r[i] * r[j] for r in rows) % PRIME for j in range(p)]
         + [sum(r[i] * v for r, v in zip(rows, y, strict=True)) % PRIME] for i in range(p)]
    for col in range(p):
        pivot = next((r for r in range(col, p) if m[r][col]), None)
        if pivot is None:
            return False
        m[col], m[pivot] = m[pivot], m[col]
        inverse = pow(m[col][col], -1, PRIME)
        m[col] = [x * inverse % PRIME for x in m[col]]
        for r in range(p):
            if r != col and m[r][col]:
                f = m[r][col]
                m[r] = [(x - f * z) % PRIME for x, z in zip(m[r], m[col], strict=True)]
    c = [m[i][p] for i in range(p)]
    return any(sum(ci * x for ci, x in zip(c, row, strict=True)) % PRIME != v % PRIME
               for row, v in zip(rows, y, strict=True))


def _solve(rows: list[list[int]], y: list[int]) -> tuple[Fraction, ...] | None:
    """Rational coefficients with ``rows @ c == y`` exactly (square or tall), or None: most
    bases are ruled out modulo a prime first, at a small part of the rationals' cost."""
    return None if _cannot_hold(rows, y) else _solve_rationally(rows, y)


def _solve_rationally(rows: list[list[int]], y: list[int]) -> tuple[Fraction, ...] | None:
    """:func:`_solve` in rationals alone."""
    p = len(rows[0])
    ata = [[sum((Fraction(r[i] * r[j]) for r in rows), Fraction(0)) for j in range(p)]
           for i in range(p)]
    aty = [sum((Fraction(r[i] * v) for r, v in zip(rows, y, strict=True)), Fraction(0))
           for i in range(p)]
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
    c = tuple(m[i][p] / m[i][i] for i in range(p))
    for row, v in zip(rows, y, strict=True):
        if sum((ci * x for ci, x in zip(c, row, strict=True)), Fraction(0)) != v:
            return None
    return c


def _screen(columns: np.ndarray, y: np.ndarray, fit_rows: int, p: int,
            family: _Family) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the p-term bases whose float least squares on the first ``fit_rows`` rows is
    full rank and reproduces them, and of those that also predict the other rows (to 1e-7
    relative)."""
    bases = family.by_size[p]
    d = columns[:, bases]  # (rows, bases, p)
    d = np.transpose(d, (1, 0, 2))  # (bases, rows, p)
    norms = np.linalg.norm(d[:, :fit_rows, :], axis=1, keepdims=True)
    ok = np.all(norms[:, 0, :] > 0, axis=1)
    d = d / np.where(norms > 0, norms, 1.0)
    q, r = np.linalg.qr(d[:, :fit_rows, :])
    diagonal = np.abs(np.diagonal(r, axis1=1, axis2=2))
    ok &= diagonal.min(axis=1) > 1e-9 * np.maximum(diagonal.max(axis=1), 1e-300)
    scale = max(1.0, float(np.max(np.abs(y))))
    qty = np.einsum("brp,r->bp", q, y[:fit_rows])
    safe = np.where(ok[:, None, None], r, np.eye(p)[None, :, :])
    c = np.linalg.solve(safe, qty[..., None])[..., 0]
    miss = np.abs(np.einsum("brp,bp->br", d, c) - y[None, :]) <= 1e-7 * scale
    fits = ok & np.all(miss[:, :fit_rows], axis=1)
    return np.nonzero(fits)[0], np.nonzero(fits & np.all(miss, axis=1))[0]


def _in_span(columns: np.ndarray, y: np.ndarray) -> bool:
    """Whether ``y`` is (to 1e-7 relative) a combination of the ``columns``."""
    norms = np.linalg.norm(columns, axis=0)
    unit = columns / np.where(norms > 0, norms, 1.0)
    c, *_ = np.linalg.lstsq(unit, y, rcond=None)
    return bool(np.max(np.abs(unit @ c - y)) <= 1e-7 * max(1.0, float(np.max(np.abs(y)))))


def _on(measure: str, scale: Scale, xs: Sequence[int], ys: Sequence[int],
        skipped: int, held_out: int = HELD_OUT, loglog: str = "log") -> Exact | None:
    """The exact law on exactly these sizes in this scale, if one predicts the held-out
    (``loglog``: ``log`` for the plain bases, a kind of :data:`pram.laws.law.STAIRS` for the
    bases with a staircase)."""
    k = len(xs)
    ls = [scale.integer(v) for v in xs]
    if any(v is None for v in ls):
        return None
    big_l = [int(v) for v in ls if v is not None]
    distinct_l = len(set(big_l))
    fit_rows = k - held_out
    spare = max(held_out, 1)
    family = _PLAIN if loglog == "log" else _STAIR
    if loglog != "log" and len({stair(loglog, v) for v in big_l[:fit_rows]}) < 2:
        return None  # a staircase that does not step within the fitted sizes is a constant
    # values of L that test a law: the distinct ones fitted, and the new ones held out
    # (repeated values of L test nothing a polynomial in L alone would not reproduce)
    checks = len(set(big_l[:fit_rows])) + len(set(big_l[fit_rows:]) - set(big_l[:fit_rows]))
    columns = np.array([[float(_value(s, li, t, loglog)) for t in family.orders]
                        for s, li in zip(xs, big_l, strict=True)])
    y = np.array(ys, dtype=float)
    if fit_rows > len(family.orders) and not _in_span(columns[:fit_rows], y[:fit_rows]):
        return None  # not even every term at once reproduces the counts: no basis will
    for p in range(1, min(MOST_TERMS, fit_rows - (0 if held_out else 1)) + 1):
        if p not in family.by_size:
            continue
        # the smallest bases that reproduce the fit rows: screened on the fit rows only
        fits_rows, predicts = _screen(columns, y, fit_rows, p, family)
        if len(fits_rows) == 0:
            continue
        accepted: list[tuple[tuple[Order, ...], tuple[Fraction, ...]]] = []
        # the float screen is relative to the largest count, so a small lower-order term (the
        # 3 of 2 n^2 + 3 at n = 2^14) passes it unseen: only a basis that reproduces the fit
        # rows exactly in rationals is one of the smallest laws that must predict
        reproduced = False
        predicting = set(predicts.tolist())
        # the predicting bases first; of the others, one that reproduces is enough to know
        ordered = [*predicts.tolist(), *(i for i in fits_rows.tolist() if i not in predicting)]
        for i in ordered:
            if reproduced and int(i) not in predicting and not accepted:
                break
            if int(i) not in predicting and accepted:
                break
            basis = tuple(family.orders[j] for j in family.by_size[p][i])
            if _in_l(basis) > distinct_l - spare or p > k - spare:
                continue
            if loglog != "log" and (not all(
                    (t[0], log_parts(t[1])[0]) in basis for t in basis if log_parts(t[1])[1])
                    or (checks - p < STAIR_CHECKS and min(ys[fit_rows:]) < STAIR_LARGE)):
                # a staircase stands beside its plain term, never for it; and a step can
                # land on a few small counts by chance (7, 8, 13, 14, 19 at L = 2..6 is
                # 5 L - 4 ceil(log2 L) + 1): it needs STAIR_CHECKS values of L beyond those
                # its terms interpolate, or held-out counts large enough not to be hit by
                # chance
                continue
            rows = [[_value(s, li, t, loglog) for t in basis]
                    for s, li in zip(xs, big_l, strict=True)]
            c = _solve(rows[:fit_rows], list(ys[:fit_rows]))
            if c is None:
                continue
            reproduced = True
            if int(i) not in predicting:
                continue
            predicted = [sum((ci * x for ci, x in zip(c, row, strict=True)), Fraction(0))
                         for row in rows[fit_rows:]]
            if predicted != [Fraction(v) for v in ys[fit_rows:]]:
                continue
            if (loglog != "log" or p == fit_rows) and max(ci.denominator for ci in c) > (
                    SIMPLE if held_out > 1 else SHORT_SIMPLE):
                # an interpolating law (as many terms as fitted sizes) or a staircase that
                # predicts with coefficients such as 1/128 hit the held-out count by chance
                # (isqrt(n) L on 2^6..2^12 as 1/128 n L^2 - 15/64 n L + 15/8 n)
                continue
            live = [(t, ci) for t, ci in zip(basis, c, strict=True) if ci != 0]
            if not live or max(live)[1] <= 0:
                continue  # a count cannot lead with a negative term
            if loglog != "log" and sum(abs(ci * x) for ci, x in zip(c, rows[-1], strict=True)
                                       ) > CANCEL * ys[-1]:
                # terms that cancel fit steps by chance too: n (5 + floor(log2 n) % 2) on
                # n = 2..32 is n L - 2 n ceil(log2 L) + 6 n (6n - 6n + 6n at n = 32)
                continue
            accepted.append((tuple(t for t, _ in live), tuple(ci for _, ci in live)))
        if not accepted:
            if reproduced:
                return None  # the smallest laws of the fit rows do not predict: no exact law
            continue
        terms, coefficients = min(accepted, key=lambda tc: (len(tc[0]), max(tc[0])))
        rivals = tuple(sorted({max(t) for t, _ in accepted}))
        start = float(xs[0]) if skipped else None
        law = Law(measure, scale, terms, coefficients, True, k, 0.0, 0.0,
                  start=start, held_out=tuple(float(v) for v in xs[fit_rows:]),
                  loglog=loglog)
        held = tuple((float(s), int(v)) for s, v in zip(xs[fit_rows:], ys[fit_rows:],
                                                          strict=True))
        return Exact(law, held, rivals, skipped)
    return None


def exact(measure: str, size: str, xs: Sequence[float], ys: Sequence[float]) -> Exact | None:
    """The exact law of counts ``ys`` at sizes ``xs`` (distinct, ascending), if one predicts.

    The whole sweep is tried first, then without its first size, and so on up to a quarter of
    the sweep; each with the scales of :func:`pram.laws.law.scales`, the first that predicts kept.
    """
    return _exact(measure, size, tuple(float(v) for v in xs), tuple(float(v) for v in ys))


#: Sweeps of at most this many sizes may hold out one size instead of two.
SHORT = 5
#: There an interpolating law checked by one held-out count alone has coefficients with
#: denominators up to this: with 1/24 allowed, 63, 89, 117, 149 at N = 3 2^(4..7) (Algorithm
#: 11's time, 2 L^2 + 6 L + 2 ceil(log2 L) + 3) read as 1/24 N + 24 L - 35, predicting 149.
SHORT_SIMPLE = 2


@functools.lru_cache(maxsize=4096)
def _exact(measure: str, size: str, xs: tuple[float, ...], ys: tuple[float, ...]) -> Exact | None:
    if not all(float(v).is_integer() for v in (*xs, *ys)) or len(xs) < HELD_OUT + 2:
        return None
    xi = [int(v) for v in xs]
    yi = [int(v) for v in ys]
    # plain laws first (every law found before staircases existed is found the same), then
    # staircases; on a short sweep, then the same with one size held out
    for held in (HELD_OUT, 1) if len(xs) <= SHORT else (HELD_OUT,):
        for loglog in ("log", *STAIRS):
            found = _first(measure, size, xi, yi, held, loglog)
            if found is not None:
                return found
    return None


def _first(measure: str, size: str, xi: list[int], yi: list[int], held: int,
           loglog: str) -> Exact | None:
    """The first exact law from the whole sweep on, then without its first size, and so on
    up to a quarter of the sweep (one held out: the whole sweep only)."""
    for skipped in range(0, (max(1, len(xi) // 4) if held == HELD_OUT else 0) + 1):
        sub_x, sub_y = xi[skipped:], yi[skipped:]
        if len(sub_x) < HELD_OUT + 3 and skipped:
            break
        found: list[Exact] = []
        tried = scales(size, sub_x)
        for scale in tried:
            e = _on(measure, scale, sub_x, sub_y, skipped, held, loglog)
            if e is not None:
                found.append(e)
        if found:
            best = min(found, key=lambda e: (len(e.law.terms), e.law.leading))
            twin = next((s for s in tried if s != best.law.scale
                         and [s.integer(v) for v in sub_x]
                         == [best.law.scale.integer(v) for v in sub_x]), None)
            return attrs.evolve(best, law=attrs.evolve(best.law, twin=twin))
    return None


def shown(measure: str, size: str, xs: Sequence[float], ys: Sequence[float]) -> Law | None:
    """For a sweep too short to decide anything: the fewest terms reproducing every count
    with one size to spare, to show (nothing is held out, so it predicts nothing)."""
    if not all(float(v).is_integer() for v in (*xs, *ys)) or len(xs) < 2:
        return None
    xi = [int(v) for v in xs]
    yi = [int(v) for v in ys]
    for scale in scales(size, xi):
        e = _on(measure, scale, xi, yi, 0, held_out=0)
        if e is not None:
            return e.law
    return None


__all__ = ["BASES", "SHORT", "STAIR_BASES", "Exact", "exact", "shown"]
