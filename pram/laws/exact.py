"""Exact laws: the fewest terms ``S^a L^b`` with rational coefficients that give every count.

A basis as large as the sweep fits anything, and among hundreds of bases one may fit a few
sizes by chance, so a law is accepted only when it *predicts*: the basis is chosen on the sweep
without its two largest sizes (the fewest terms that reproduce those counts exactly, with a
full-rank design), and the law it gives must then reproduce the two held-out counts exactly,
have a positive leading coefficient, use at most (sizes - 2) terms, and at each power of S at
most (distinct values of L - 2) powers of L (so a polynomial in L never just interpolates L).
Where several smallest bases predict, their leading orders are kept as rivals (the verdict must
agree with every one). The first few sizes may be left out (small cases of their own, such as
n = 1): a law may start at the second size, or later, at most a quarter of the sweep in.

Bases are built from S^a (a = 0..3) times powers of L up to L^4: a run of powers of L at the
top power of S, every power of L up to some L^m one power of S lower, and at most 1 and L at
each power of S below that (``n^3 + 2 n^2 L - n + 4``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction

import attrs
import numpy as np

from pram.laws.law import Law, Order, Scale, scales

#: Powers of the size and of its log the exact laws are built from.
SIZE_POWERS = (0, 1, 2, 3)
LOG_POWERS = (0, 1, 2, 3, 4)
#: Largest basis an exact law may use.
MOST_TERMS = 7
#: How many sizes to hold out of the fit (the largest ones).
HELD_OUT = 2


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


BASES = _bases()
_ORDERS = sorted({t for b in BASES for t in b})
_INDEX = {t: i for i, t in enumerate(_ORDERS)}
#: Bases by number of terms, as column indices into _ORDERS.
_BY_SIZE: dict[int, np.ndarray] = {
    p: np.array([[_INDEX[t] for t in b] for b in BASES if len(b) == p])
    for p in range(1, MOST_TERMS + 1)
}


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


def _solve(rows: list[list[int]], y: list[int]) -> tuple[Fraction, ...] | None:
    """Rational coefficients with ``rows @ c == y`` exactly (square or tall), or None."""
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


def _screen(columns: np.ndarray, y: np.ndarray, fit_rows: int,
            p: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the p-term bases whose float least squares on the first ``fit_rows`` rows is
    full rank and reproduces them, and of those that also predict the other rows (to 1e-7
    relative)."""
    bases = _BY_SIZE[p]
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
        skipped: int, held_out: int = HELD_OUT) -> Exact | None:
    """The exact law on exactly these sizes in this scale, if one predicts the held-out."""
    k = len(xs)
    ls = [scale.integer(v) for v in xs]
    if any(v is None for v in ls):
        return None
    big_l = [int(v) for v in ls if v is not None]
    distinct_l = len(set(big_l))
    fit_rows = k - held_out
    spare = 2 if held_out else 1
    columns = np.array([[float(s) ** a * float(li) ** b for a, b in _ORDERS]
                        for s, li in zip(xs, big_l, strict=True)])
    y = np.array(ys, dtype=float)
    if fit_rows > len(_ORDERS) and not _in_span(columns[:fit_rows], y[:fit_rows]):
        return None  # not even every term at once reproduces the counts: no basis will
    for p in range(1, min(MOST_TERMS, fit_rows - (0 if held_out else 1)) + 1):
        # the smallest bases that reproduce the fit rows: screened on the fit rows only
        fits_rows, predicts = _screen(columns, y, fit_rows, p)
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
            basis = tuple(_ORDERS[j] for j in _BY_SIZE[p][i])
            per_power: dict[float, int] = {}
            for a, _ in basis:
                per_power[a] = per_power.get(a, 0) + 1
            if max(per_power.values()) > distinct_l - spare or p > k - spare:
                continue
            rows = [[s ** int(a) * li ** int(b) for a, b in basis]
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
            live = [(t, ci) for t, ci in zip(basis, c, strict=True) if ci != 0]
            if not live or max(live)[1] <= 0:
                continue  # a count cannot lead with a negative term
            accepted.append((tuple(t for t, _ in live), tuple(ci for _, ci in live)))
        if not accepted:
            if reproduced:
                return None  # the smallest laws of the fit rows do not predict: no exact law
            continue
        terms, coefficients = min(accepted, key=lambda tc: (len(tc[0]), max(tc[0])))
        rivals = tuple(sorted({max(t) for t, _ in accepted}))
        start = float(xs[0]) if skipped else None
        law = Law(measure, scale, terms, coefficients, True, k, 0.0, 0.0,
                  start=start, held_out=tuple(float(v) for v in xs[fit_rows:]))
        held = tuple((float(s), int(v)) for s, v in zip(xs[fit_rows:], ys[fit_rows:],
                                                          strict=True))
        return Exact(law, held, rivals, skipped)
    return None


def exact(measure: str, size: str, xs: Sequence[float], ys: Sequence[float]) -> Exact | None:
    """The exact law of counts ``ys`` at sizes ``xs`` (distinct, ascending), if one predicts.

    The whole sweep is tried first, then without its first size, and so on up to a quarter of
    the sweep; each with the scales of :func:`pram.laws.scales`, the first that predicts kept.
    """
    return _exact(measure, size, tuple(float(v) for v in xs), tuple(float(v) for v in ys))


@functools.lru_cache(maxsize=4096)
def _exact(measure: str, size: str, xs: tuple[float, ...], ys: tuple[float, ...]) -> Exact | None:
    if not all(float(v).is_integer() for v in (*xs, *ys)) or len(xs) < HELD_OUT + 2:
        return None
    xi = [int(v) for v in xs]
    yi = [int(v) for v in ys]
    for skipped in range(0, max(1, len(xs) // 4) + 1):
        sub_x, sub_y = xi[skipped:], yi[skipped:]
        if len(sub_x) < HELD_OUT + 3 and skipped:
            break
        found: list[Exact] = []
        tried = scales(size, sub_x)
        for scale in tried:
            e = _on(measure, scale, sub_x, sub_y, skipped)
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


__all__ = ["BASES", "Exact", "exact", "shown"]
