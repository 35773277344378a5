"""Least-squares readings: the verdict of fitted laws on a bound, and the tests it must pass.

Where no exact law predicts, :func:`from_fits` reads the candidates of :mod:`pram.laws.fitting`
against the bound's order (the rules are in :mod:`pram.laws.verdicts`' module doc): which orders
are plausible, whether they all sit on one side of the bound, whether the sweep itself shows
the trend the verdict claims, and whether the verdict survives dropping the first size, the
last, or a quarter of the sweep.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

import attrs

from pram.laws.evidence import Decision, Evidence, advice
from pram.laws.fitting import Candidate, candidates, jitter_of, other_readings, stair_steps
from pram.laws.law import (
    STAIR_STEPS,
    Law,
    Order,
    Scale,
    log_parts,
    power_base,
    spelled,
    term_text,
    with_loglog,
)
from pram.laws.ratios import PEAK_GROWTH, bound_values, falls, grows, growth, peaks, troughs

#: How many standard errors from 0 a least-squares leading coefficient must be to be tight.
CLEARLY = 4.0
#: A candidate is plausible within this factor of the best score.
NEAR = 1.8
#: A leading term under this share of the count at the largest size is a sliver: it counts
#: only if the fit without it is STRONGLY times worse than with it.
SLIVER = 0.1
STRONGLY = 100.0
#: Least squares decides only on sizes whose largest is at least SPAN times the smallest, and
#: calls an excess on counts under FINE only where the span is SPAN_WIDE or more.
SPAN = 8.0
SPAN_WIDE = 16.0
#: A least-squares reading needs this many sizes.
FITTED_SIZES = 5
#: Least squares decides from this many sizes on (six, so that the readings without the first
#: or the last size have five, broke the project's own five-size sweeps: not done).
DECIDING_SIZES = FITTED_SIZES
#: Fewest sizes from which a least-squares law may say whether a bound is tight.
TIGHT_SIZES = 7
#: A least-squares law says whether a bound is tight only when it misses by at most this
#: (relative, beyond a unit): counts that jitter more leave the order's fine print open.
CLEAN = 0.005
#: ... and only when the last counts are at least this large (a unit of jitter in smaller
#: counts hides a log factor).
FINE = 64.0
#: A least-squares leading term must make this share of the count to be called tight.
DOMINANT = 0.5
#: A law's power of L is established (for tight and loose-by claims) only where L at least
#: doubles over the sweep: then a half power of L more or less moves the count by a factor
#: 1.4 across it. On 2^16..2^22 (L = 16..22) that factor is 1.17, and floor(sqrt(L)) or a
#: log log reads as a constant.
LOG_SPAN = 2.0
#: A least-squares reading calls a bound loose only where the best law led by the bound's own
#: order (its leading term more than a sliver, or needed strongly) misses by more than this
#: many times the best law's miss (or the jitter of integer counts, whichever is larger): the
#: lower order must be established, not merely a little better (lower terms the fit cannot
#: shape, n/3 + 4 L^2 + L^3/2 on 20..1280, make n L^-1 fit 6 to 19 times better than n).
OUTFITS = 10.0


@attrs.frozen
class _Reading:
    """One least-squares reading of a (sub-)sweep."""

    verdict: str
    tight: bool | None
    loose_by: Order | None
    plausible: tuple[Candidate, ...]
    #: The best law led by the bound's order, where it fits too nearly for a loose claim.
    rival: Candidate | None = None


def _read(measure: str, size: str, xs: Sequence[float], ys: Sequence[float],
          bound: Order, wide: bool = False, stairs: bool | None = None,
          divided: bool = False) -> _Reading:
    """One reading of the sweep against ``bound``; ``divided`` also tries the bound's plain
    order divided by a log log (n L / log2(L) beside a bound n L), as the whole sweep's
    reading does: a count of n L / log2(L) is then not read as tight against n L. The
    sub-sweeps of the stability tests do without it: log2(L) moves too little over a part
    of a sweep for that order to be told from the plain one (from N/3 = 2^8 on, Algorithm
    11's work fits 2.2 N L^2 / log2(L) + ... as well as 0.36 N L^2 + ...), so it would only
    unsettle a tightness the whole sweep establishes."""
    a, b = bound
    whole = log_parts(b)[0]
    # the bound's order and its neighbours, with and without a log log factor (a bound
    # divided by one, n L / log2(L), is its own order: the fits try it as such)
    near: tuple[Order, ...] = (
        (a, b), (a, b - 1), (a, b + 1), (a, b + 2), (a - 0.5, b), (a + 0.5, b),
        (a, whole), (a, with_loglog(whole, 1.0)), (a, with_loglog(whole - 1, 1.0)),
        (a, with_loglog(whole + 1, 1.0)))
    if divided:
        near += ((a, with_loglog(whole, -1.0)),)
    pool = candidates(measure, size, xs, ys,
                      tuple(o for o in near if o[0] >= 0 and (
                          log_parts(o[1])[1] >= 0 or o == bound
                          or (divided and o == near[-1]))), wide, stairs)
    if not pool:
        return _Reading("undetermined", None, None, ())
    best = pool[0].score
    jitter = jitter_of(ys)
    tolerance = max(NEAR * best, best + jitter, 1e-9)
    # plausible: scores within the tolerance with at most one term more than the simplest
    # law that does (a law of another order that needs many more terms to match is not
    # evidence of that order: with enough terms anything fits a short sweep)
    fewest = {c.order: c.terms_within(tolerance) for c in pool}
    simplest = min((p for p in fewest.values() if p is not None), default=None)
    if simplest is None:
        return _Reading("undetermined", None, None, ())
    # a leading term that makes a sliver of the count counts only if the data need it
    # strongly (exact counts with a small higher-order term), not to absorb jitter
    plausible = tuple(c for c in pool if (p := fewest[c.order]) is not None
                      and p <= simplest + 1
                      and (c.share >= SLIVER or c.needed_by >= STRONGLY or c is pool[0]))
    # a log log factor is evidence only where the data need it: a law led by S^a L^b log2(L)
    # is not plausible beside one led by S^a L^b that fits within the tolerance with no more
    # terms (log2(L) moves so little over a sweep that with a term to absorb it, it fits
    # wherever the plain order does)
    plain = {c.order: fewest[c.order] for c in plausible}
    plausible = tuple(c for c in plausible if not _loglog_spare(c.order, fewest[c.order], plain))
    if not plausible:
        return _Reading("undetermined", None, None, ())
    orders = {c.order for c in plausible}
    if any(o > bound for o in orders) and any(o <= bound for o in orders) and not grows(
            xs, ys, bound):
        # laws above the bound whose term gains on the bound's over the sweep's second half,
        # where count / bound does not grow, fit only by bending that ratio into growth past
        # the sweep's end: no evidence of excess (as for exceeded itself). One whose term
        # falls behind there (n^2 L^0.5 against n^1.5 L^2.5 on n = 1..27) stays.
        mid, top = xs[len(xs) // 2], xs[-1]
        plausible = tuple(c for c in plausible if c.order <= bound
                          or growth(c.order, mid, top) <= growth(bound, mid, top))
        orders = {c.order for c in plausible}
    if all(o > bound for o in orders):
        return _Reading("exceeded" if grows(xs, ys, bound) else "undetermined", None, None,
                        plausible)
    if any(o > bound for o in orders):
        return _Reading("undetermined", None, None, plausible)
    if orders == {bound}:
        lead = next(c for c in plausible if c.order == bound)
        tight = True if lead.z >= CLEARLY and lead.share >= DOMINANT else None
        return _Reading("holds", tight, None, plausible)
    if all(o < bound for o in orders):
        rival = _rival(pool, bound, max(best, jitter))
        if rival is not None:
            # a law led by the bound's own order (by a term that is more than a sliver, as
            # for a plausible law) misses by little more than the best law: that the count
            # is of lower order is not established
            return _Reading("holds", None, None, plausible, rival)
        by = None
        if len(orders) == 1:
            (o,) = orders
            # the whole sweep's reading (``divided``) also asks whether the count may be a
            # log log below its law, as it asks of the bound: a sub-sweep cannot tell
            if plausible[0].z >= CLEARLY and plausible[0].share >= DOMINANT and not (
                    divided and _shy(measure, size, xs, ys, o, tolerance, simplest + 1, wide,
                                     stairs)):
                by = (bound[0] - o[0], bound[1] - o[1])
        return _Reading("holds", False, by, plausible)
    return _Reading("holds", None, None, plausible)


def _shy(measure: str, size: str, xs: Sequence[float], ys: Sequence[float], order: Order,
         tolerance: float, terms: int, wide: bool, stairs: bool | None) -> bool:
    """Whether the order a log log below ``order`` (n L / log2(L) below n L) fits as well, in
    at most ``terms`` terms: then the factor by which the count is below the bound is
    ``order``'s or more, not named (0.16 n L + 1.4 n fits n L / log2(L) to 0.07% on
    2^4..2^16, and against n L^2 the factor is L log2(L), not L)."""
    whole, loglog = log_parts(order[1])
    if loglog:
        return False  # a loose-by factor with a fitted log log is never named anyway
    shy = (order[0], with_loglog(whole, -1.0))
    fit = next((c for c in candidates(measure, size, xs, ys, (shy,), wide, stairs)
                if c.order == shy), None)
    return fit is not None and (p := fit.terms_within(tolerance)) is not None and p <= terms


def _rival(pool: Sequence[Candidate], bound: Order, miss: float) -> Candidate | None:
    """The best law led by the bound's own order where it misses by at most OUTFITS times
    ``miss`` (the larger of the best law's and the jitter of integer counts) by a term that is
    more than a sliver (or needed strongly), else None: while it fits so nearly, a claim that
    the count is of lower order than the bound (loose) is not established."""
    rival = next((c for c in pool if c.order == bound), None)
    if rival is not None and rival.score <= OUTFITS * miss and (
            rival.share >= SLIVER or rival.needed_by >= STRONGLY):
        return rival
    return None


def _loglog_spare(order: Order, terms: int | None,
                  plain: dict[Order, int | None]) -> bool:
    """Whether ``order`` has a log log factor its plain order (the same S^a L^b without it)
    makes spare: that order is plausible too, with at most as many terms."""
    whole, loglog = log_parts(order[1])
    if not loglog:
        return False
    fewer = plain.get((order[0], whole))
    return fewer is not None and terms is not None and fewer <= terms


def _against_trend(reading: _Reading, bound: Order, xs: Sequence[float],
                   ys: Sequence[float]) -> Order | None:
    """A plausible order whose side of the bound the sweep itself contradicts, or None.

    A fitted law is an approximation on the sweep: an order below the bound's whose term still
    grows faster than the bound's from the middle of the sweep to its end (L^3 against n/L on
    n = 2..32), or one above it whose term grows slower there (n^1.1 against n L^2), puts the
    crossing that decides beyond the largest size, where only an exact law may be trusted.
    The terms are compared in log2 of the size (a floor or ceiling of it may stand still
    between the two sizes compared). Where the verdict is holds and count / bound itself falls
    from the middle of the sweep to its end (:func:`falls`), the count already falls behind
    the bound on the sweep: the order's gain there is its fit's lower terms bending, not a
    crossing that holds must wait for (n ceil(log2 n) - 2^ceil(log2 n) + 1 on n = 2..20 fits
    a law led by n L^4, which gains on n^2 L there, while count / (n^2 L) falls as 1/n).
    """
    mid, top = xs[len(xs) // 2], xs[-1]
    if not (mid > 1 and top > mid):
        return None
    if reading.verdict == "holds" and falls(xs, ys, bound):
        return None
    for c in reading.plausible:
        o = c.order
        if o == bound:
            continue
        gain = growth(o, mid, top) - growth(bound, mid, top)
        if (reading.verdict == "holds" and gain > 1e-9) or (
                reading.verdict == "exceeded" and gain < -1e-9):
            return o
    return None


def from_fits(measure: str, size: str, xs: list[float], ys: list[float], bound: Order,
               start: float | None) -> tuple[Law, Decision]:
    stairs = stair_steps(xs) >= STAIR_STEPS
    main = _read(measure, size, xs, ys, bound, stairs=stairs, divided=True)
    if not main.plausible:
        law = Law(measure, Scale("log", size), ((0.0, 0.0),), (0.0,), False, len(xs), 0.0)
        return law, Decision("undetermined", None, None,
                             "no law fits these sizes; " + advice(xs),
                             Evidence("least squares", "none", advice=advice(xs)))
    law = main.plausible[0].law
    if start is not None and law.start is None:
        law = attrs.evolve(law, start=start)
    words = tuple(sorted({term_text(c.order, size) for c in main.plausible}))
    evidence = Evidence("least squares", law.describe(), (), law.start, words)

    def undetermined(why: str, passed: Sequence[str] | None = None) -> tuple[Law, Decision]:
        """Undetermined because ``why``; the advice of what sizes would decide ends it (and
        the stability tests ``passed`` so far, where some were run)."""
        a = advice(xs)
        stable = evidence.stable if passed is None else tuple(passed)
        return law, Decision("undetermined", None, None, f"{why}; {a}",
                             attrs.evolve(evidence, advice=a, stable=stable))

    if main.verdict == "undetermined":
        above = sorted({term_text(c.order, size) for c in main.plausible if c.order > bound})
        below = sorted({term_text(c.order, size) for c in main.plausible if c.order <= bound})
        if not below:
            # an excess the sweep itself does not show: count / bound no higher at the largest
            # size than at the middle one (a law that bends a flat or falling ratio into growth
            # past the sweep is an approximation, not evidence)
            terms = bound_values(bound, xs)
            mid = len(xs) // 2
            low, high = ys[mid] / terms[mid], ys[-1] / terms[-1]
            return undetermined(
                f"every law that fits leads above the bound's {spelled(bound, size)} "
                f"(best: {term_text(law.leading, size, law.loglog)}), but count / bound does "
                f"not grow from {size} = {xs[mid]:g} to {xs[-1]:g} ({low:.4g} to "
                f"{high:.4g}): the excess lies beyond the sweep")
        return undetermined(
            f"laws led by {', '.join(above)} (above the bound's {spelled(bound, size)}) and "
            f"by {', '.join(below)} (within it) fit about as well")
    against = _against_trend(main, bound, xs, ys)
    if against is not None:
        return undetermined(
            f"the fitted law's leading term {term_text(against, size)} "
            + ("still gains on" if main.verdict == "holds" else "still falls behind")
            + f" the bound's {spelled(bound, size)} over the sweep: that it "
            + ("falls behind" if main.verdict == "holds" else "overtakes it")
            + " is beyond the sweep, where a fitted law says nothing")
    rise = PEAK_GROWTH + jitter_of(ys)
    climbs = [(f"peaks higher in the sweep's second half ({later:.4g}) than in its first "
               f"({earlier:.4g})") if kind == "peaks" else
              (f"is higher at its lowest in the sweep's second half ({later:.4g}) than in its "
               f"first ({earlier:.4g})")
              for kind, (earlier, later) in (("peaks", peaks(xs, ys, bound)),
                                             ("troughs", troughs(xs, ys, bound)))
              if later > earlier * rise]
    if main.verdict == "holds" and all(c.order < bound for c in main.plausible) and climbs:
        # every law that fits is below the bound, yet count / bound climbs from the sweep's
        # first half to its second, at its peaks or at its feet: the sweep does not show the
        # count falling behind (2^ceil(log2 n) against n / log2(n) on n = 1..32, fitted by
        # n L^-1 / log2(L); 3 * 2^ceil(log2 n) against sqrt(n) on 5..128, fitted by L^3)
        return undetermined(
            f"every law that fits leads below the bound's {spelled(bound, size)} (best: "
            f"{term_text(law.leading, size, law.loglog)}), but count / bound {climbs[0]}: "
            f"that it falls behind is beyond the sweep")
    passed: list[str] = []
    rivals = [main.rival]
    tights = [main.tight]
    looses = [main.loose_by]
    # without the first or the last size the verdict must be the same, and so from the
    # first quarter on; up to the last quarter it must at least not be the contrary one.
    # Where the whole sweep's law fits its counts cleanly, the readings without the first or
    # the last size may stay open (a clean law is its own evidence; they must still not
    # come out otherwise), and so may the one from the first quarter on where those sizes
    # span too little to decide by themselves (on 1..32, 9..32 spans 3.6, less than least
    # squares decides from); a staircase read as a smooth law misses some counts by far
    # more (2 * 2^ceil(log2 sqrt(n)) on 5..128 by 32%) and still needs them all. Each: its
    # label and sizes, whether it may stay open, whether its tightness counts.
    clean = law.max_relative_residual <= CLEAN
    subs = [
        (f"without the first size ({size} = {xs[0]:g})", xs[1:], ys[1:], clean, True),
        (f"without the last size ({size} = {xs[-1]:g})", xs[:-1], ys[:-1], clean, True),
    ]
    quarter = math.ceil(len(xs) / 4)
    if quarter > 1 and len(xs) - quarter >= FITTED_SIZES:
        short = xs[-1] < SPAN * xs[quarter] and clean
        subs.append((f"from {size} = {xs[quarter]:g} on", xs[quarter:], ys[quarter:], short,
                     True))
        subs.append((f"up to {size} = {xs[-quarter - 1]:g}", xs[:-quarter], ys[:-quarter],
                     True, False))
    for label, sub_x, sub_y, may_stay_open, tells in subs:
        other = _read(measure, size, sub_x, sub_y, bound, stairs=stairs)
        if may_stay_open and other.verdict == "undetermined":
            passed.append(f"no contrary verdict {label}")
            continue
        if other.verdict != main.verdict:
            return undetermined(
                f"the verdict is {main.verdict} on the whole sweep but {other.verdict} "
                f"{label}: the sweep is not yet in its asymptotic regime", passed)
        passed.append(f"same verdict {label}")
        if tells:
            tights.append(other.tight)
            looses.append(other.loose_by)
            rivals.append(other.rival)
    if main.verdict == "exceeded" and other_readings(xs):
        # an excess must survive every reading of L: on c 2^k a count in log2 S fitted in
        # log2(S/c) alone can lead a law above its order (see pram.laws.fitting._wide_scales)
        wide = _read(measure, size, xs, ys, bound, wide=True, stairs=stairs)
        if wide.verdict != "exceeded":
            best = term_text(wide.plausible[0].order, size) if wide.plausible else "none"
            return undetermined(
                f"every law in L = log2({size}/{power_base(xs)}) "
                f"leads above the bound's {spelled(bound, size)}, but with L read as "
                f"log2({size}) too the verdict is {wide.verdict} (best: {best}): the "
                f"excess rests on one reading of L", passed)
    if main.verdict == "exceeded" and min(ys[-3:]) < FINE and xs[-1] < SPAN_WIDE * xs[0]:
        # on a short sweep of small counts a unit of jitter, or one step of a floor, is a
        # log factor: n floor(sqrt(floor(L))) on n = 2..20 (counts up to 48, stepping at 16)
        # is fitted best by a law led by n^1.5 L^4
        return undetermined(
            f"every law that fits leads above the bound's {spelled(bound, size)}, but the "
            f"sizes span a factor {xs[-1] / xs[0]:.3g} and the last counts are under {FINE:g}, "
            f"where one step of a floor moves the fit by a log factor", passed)
    clean = main.plausible[0].score <= CLEAN and min(ys[-3:]) >= FINE
    tight = tights[0] if len(set(tights)) == 1 and len(xs) >= TIGHT_SIZES and clean else None
    # the residual the law's description shows is the rule's own (beyond a unit): a tight
    # claim never shows one over CLEAN (floor(n^1.1) on primes 2..6421 against n log n was
    # called tight scoring 0.19% while its law showed 1.3%, a miss of 0.21 at a count of 5)
    tight = None if tight is True and law.max_relative_residual > CLEAN else tight
    loose_by = looses[0] if tight is False and len(set(looses)) == 1 else None
    # a rival of the bound's order took away a loose claim the readings would all have made
    unsettled = [False if r is not None else t for r, t in zip(rivals, tights, strict=True)]
    rival = next((r for r in rivals if r is not None), None)
    withheld = (tight is None and rival is not None and set(unsettled) == {False}
                and len(xs) >= TIGHT_SIZES and clean)
    evidence = attrs.evolve(evidence, stable=tuple(passed))
    term = term_text(law.leading, size, law.loglog)
    bound_words = spelled(bound, size)
    if main.verdict == "exceeded":
        return law, Decision(
            "exceeded", None, None,
            f"every law that fits leads with a term above the bound's {bound_words} "
            f"(best: {term}), on the whole sweep and without its first or last sizes", evidence)
    if tight is True:
        why = f"the fitted law's leading term {term} is the bound's order"
    elif tight is False:
        why = f"every law that fits leads below the bound's {bound_words} (best: {term})"
    elif withheld and rival is not None:
        # a loose claim the readings do not establish: say what would decide it
        a = advice(xs)
        return law, Decision(
            "holds", None, None,
            f"no law that fits leads above the bound's {bound_words} (best: {term}), on the "
            f"whole sweep and without its first or last sizes; laws led by lower orders fit "
            f"better, but one led by {bound_words} misses by {rival.score:.2%}, not clearly "
            f"worse: whether it is tight the sweep cannot tell; {a}",
            attrs.evolve(evidence, advice=a))
    else:
        why = (f"no law that fits leads above the bound's {bound_words} (best: {term}); "
               "whether it is tight the sweep cannot tell")
    return law, Decision("holds", tight, loose_by,
                         f"{why}, on the whole sweep and without its first or last sizes",
                         evidence)



#: Four sizes spanning this factor or more may say holds by least squares (see from_four).
FOUR_SPAN = 64.0


def from_four(measure: str, size: str, xs: list[float], ys: list[float], bound: Order,
              start: float | None) -> tuple[Law, Decision] | None:
    """``holds`` or ``exceeded`` from four sizes by least squares, or None (undetermined).

    Four sizes leave no sweep to test the fit without its first or last size, so only the
    safest claim is made: every law that fits leads half a power of L or more below the
    bound's order, no such law still gains on the bound over the sweep, count / (bound /
    L^0.5) does not grow from the first or middle size to the last, and the sizes span
    FOUR_SPAN (Algorithm 10's work, 9.2 n on n = 256..16384 against n log m, holds so); or
    its mirror for exceeded (:func:`_exceeded_from_four`). Never tight or loose by a factor.
    """
    if xs[-1] < FOUR_SPAN * xs[0]:
        return None
    main = _read(measure, size, xs, ys, bound)
    if main.verdict == "exceeded":
        return _exceeded_from_four(main, size, xs, ys, bound, start)
    margin = (bound[0], bound[1] - 0.5)
    if (main.verdict != "holds" or not main.plausible or _against_trend(main, bound, xs, ys)
            or any(c.order > margin for c in main.plausible) or grows(xs, ys, margin)):
        return None
    law = main.plausible[0].law
    if start is not None and law.start is None:
        law = attrs.evolve(law, start=start)
    words = tuple(sorted({term_text(c.order, size, c.law.loglog) for c in main.plausible}))
    a = (f"a fifth size above {xs[-1]:g} would test the fit without its first or last size "
         "and could tell whether the bound is tight")
    evidence = Evidence("least squares", law.describe(), (), law.start, words,
                        ("on four sizes: no test without the first or last size",), a)
    term = term_text(law.leading, size, law.loglog)
    return law, Decision(
        "holds", None, None,
        f"on four sizes, every law that fits leads half a log or more below the bound's "
        f"{spelled(bound, size)} (best: {term}), and count / bound falls over the sweep; "
        "whether it is tight needs five sizes or more", evidence)


def _exceeded_from_four(main: _Reading, size: str, xs: list[float], ys: list[float],
                        bound: Order, start: float | None) -> tuple[Law, Decision] | None:
    """``exceeded`` from four sizes, or None: the mirror of :func:`from_four`'s holds. Every
    law that fits leads half a power of L or more above the bound's order, and count /
    (bound L^0.5) rises from each size to the next by more than the jitter of integer counts:
    the sweep itself shows the count outgrowing the bound by more than any lower term's bend
    (n^2 / L against n^1.5 on n = 16, 256, 4096, 65536: the ratio 1, 2.8, 9.2, 32)."""
    margin = (bound[0], bound[1] + 0.5)
    if not main.plausible or any(c.order < margin for c in main.plausible) or (
            _against_trend(main, bound, xs, ys)):
        return None
    terms = bound_values(margin, xs)
    ratios = [y / t for y, t in zip(ys, terms, strict=True)]
    jitter = jitter_of(ys)
    if not all(later > earlier * (1.0 + jitter) for earlier, later in pairwise(ratios)):
        return None
    law = main.plausible[0].law
    if start is not None and law.start is None:
        law = attrs.evolve(law, start=start)
    words = tuple(sorted({term_text(c.order, size, c.law.loglog) for c in main.plausible}))
    a = (f"a fifth size above {xs[-1]:g} would test the fit without its first or last size")
    evidence = Evidence("least squares", law.describe(), (), law.start, words,
                        ("on four sizes: no test without the first or last size",), a)
    return law, Decision(
        "exceeded", None, None,
        f"on four sizes, every law that fits leads half a log or more above the bound's "
        f"{spelled(bound, size)} (best: {term_text(law.leading, size, law.loglog)}), and "
        f"count / (bound L^0.5) rises from each size to the next", evidence)


__all__ = ["CLEAN", "DECIDING_SIZES", "FINE", "FITTED_SIZES", "FOUR_SPAN", "LOG_SPAN", "SPAN",
           "TIGHT_SIZES", "from_fits", "from_four"]
