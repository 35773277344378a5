"""Verdicts: whether a sweep's counts stay within a bound's order, and the evidence for it.

A verdict is ``holds``, ``exceeded`` or ``undetermined``; it is only ever given when the sweep
supports it, and it carries what it rests on (:class:`Evidence`):

- fewer than 4 sizes (or non-zero counts): undetermined;
- every count 0: holds, and loose;
- an **exact law** (:mod:`pram.laws.exact`: chosen without the two largest sizes, then predicting
  them exactly, positive leading term, sizes to spare) decides by its leading order against the
  bound's: above exceeded, equal holds and tight, below holds and loose by the difference. If
  another smallest law also predicted and puts the order on the other side, undetermined. A
  law in S alone where L takes fewer than UNTESTED_L values (7 n + 9 on n = 50..70) decides
  only where its power of S differs from the bound's: a factor of L may ride on it unseen;
- otherwise **least squares** (:mod:`pram.laws.fitting`) with 5 sizes or more spanning a factor 8
  or more (on a span under 16, no excess from counts under 64: one step of a floor there is a
  log factor to a fit): every candidate
  leading order whose score is within 1.8 times the best's (or the best's plus the jitter of
  integer counts, a quarter unit of the last counts; every miss is allowed one unit first),
  with at most one term more than the simplest order that does so and a leading term the fit
  needs, is *plausible*. Exceeded when every plausible order is above the bound's, holds when
  none is, else undetermined. The same must come out on the sweep without its first size,
  without its last and from its first quarter on (where the law fits within CLEAN, the
  first two may stay undetermined, and the third where it spans less than SPAN), and up to
  its last quarter the contrary must
  not (else undetermined: the sweep is not yet in its asymptotic regime, or a step near its end
  decides too much). On c times powers of two (c not a power of two), where the fits read L
  as log2(S/c) alone, an exceeded must also come out with L read as log2 S, its floor and its
  ceiling beside it (every reading pooled), else undetermined: a count in log2 S has every
  lower power of L in log2(S/c), more terms than a fit holds, and a higher order absorbs the
  shift (n L^2/2 on n = 5..160 fitted as 1.47 n^1.5 + ...). Only an excess is checked so:
  the wrong verdicts a missing reading caused so far led too high (exceeded), and the other
  readings as the fits' own, or as a check of holds, turned verdicts that hold on the
  project's own 3 2^k sweeps (counts in log2(S/c)) undetermined. Tight only when
  every plausible order, in all readings, is the bound's,
  its leading coefficient is 4 standard errors from 0, its term makes at least half the count
  at the largest size, the sweep has 7 sizes or more, the last counts are 64 or more and the
  best law misses by 0.5% at most beyond a unit of each count (the largest residual its
  description shows); loose only when every plausible order is lower and the best
  law led by the bound's order (more than a sliver) misses by over OUTFITS times the best's
  (the lower order established, not merely a little better), by a factor only when every
  plausible order is one and the same lower order. The law shown is the best-scoring
  plausible one, so it always agrees with the verdict; and where a plausible order's term
  still gains on the bound's from the middle of the sweep to its end while the verdict says
  holds (or still falls behind while it says exceeded), the deciding crossing lies beyond the
  sweep: undetermined, unless (for holds) count / bound itself falls over that half, the
  count already falling behind the bound on the sweep;
- a log log is a term of its own: a bound's (log log)^c rides on its power of L
  (:data:`pram.laws.law.LOGLOG`), the fits try leading orders S^a log2(L) and S^a L log2(L), and
  orders compare as the terms grow (n L < n L log2(L) < n L^1.25). A law led by a log log
  term is plausible only where the same order without it is not (with as few terms): the data
  must need the log log. Tight, or a loose-by factor, with a log log in the bound or the law
  needs log2(L) to vary by LOG_SPAN over the sweep, and a least-squares loose-by factor is
  never one with a log log in it. A bound divided by a log log (n L / log2(L)) is an order of
  its own, fitted as a leading order: a law led by its plain part (n L) exceeds it, where
  count / bound grows over the sweep (an exact law's excess too), and one a power of L or S
  lower holds, loose. The whole sweep's reading also tries the bound's order divided by a log
  log (n L / log2(L) beside a bound n L), so that such a count is never called tight against
  n L; the readings of its parts do not (log2(L) moves too little over part of a sweep);
- the sweep must show what a fitted law says about excess: exceeded only when count / bound is
  higher at the largest size than at the middle one (beyond the jitter), and where
  it is not, laws above the bound that fit beside laws within it are no evidence (they fit by
  bending a ratio that does not grow into growth past the sweep);
- where L varies by less than LOG_SPAN over the sweep, the law's power of L is not
  established, and neither tight nor a loose-by factor is claimed on it.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import attrs

from pram.laws.evidence import Decision, Evidence, advice
from pram.laws.exact import Exact, exact
from pram.laws.fitting import fit, prepared
from pram.laws.law import (
    STAIR_STEPS,
    Law,
    Order,
    Scale,
    log_parts,
    spelled,
    stair,
    term_text,
)
from pram.laws.ratios import EXCESS_GROWTH, climbs_the_stairs, grows, rises_to_the_end
from pram.laws.readings import DECIDING_SIZES, LOG_SPAN, SPAN, from_fits, from_four

#: An exact law in S alone tests the absence of a power of L only where L takes this many
#: values over the sweep (as a term at a power of S with L beside it needs: one, and two to
#: spare); with fewer it decides only where its power of S differs from the bound's.
UNTESTED_L = 3


def _side(order: Order, bound: Order) -> str:
    return "exceeded" if order > bound else "holds"


def _stairs_seen(law: Law, xs: Sequence[float]) -> int:
    """How many values the law's staircase takes over the sizes ``xs`` (0 for a plain law)."""
    if law.loglog == "log":
        return 0
    return len({stair(law.loglog, law.scale(v)) for v in xs if v > 0})


def _from_exact(found: Exact, bound: Order, size: str, xs: Sequence[float]) -> Decision:
    """The verdict of an exact law (see the module doc). From a staircase law, a loose-by
    factor is named only without a log log in it, and a staircase-led law is tight only where
    it takes STAIR_STEPS values: a few steps of another function (isqrt(L)) read as one."""
    law = found.law
    values = len({law.scale(v) for v in xs if v > 0})
    if (law.loglog == "log" and all(b == 0 for _, b in law.terms) and law.leading[0] == bound[0]
            and values < UNTESTED_L):
        # a law in S alone where L takes too few values to test a power of L (7 n + 9 on
        # 50..70, floor(log2 n) = 5 or 6): a factor of L, or a staircase in L that does not
        # step there (n ceil(log2 L) is 3 n on 50..70), may ride on its S^a, so it decides
        # only where its power of S differs from the bound's, which no factor of L bridges
        a = f"{advice(xs)}, where L takes {UNTESTED_L} values or more"
        return Decision("undetermined", None, None,
                        f"the exact law {law.describe()} has no power of L, but L takes only "
                        f"{values} values over the sweep, too few to test one; its power of "
                        f"{size} is the bound's, so a factor of L decides; {a}",
                        Evidence("exact", law.describe(), found.predicted, law.start,
                                 advice=a))
    decision = _exact_sides(found, bound, size)
    if law.loglog == "log" or decision.verdict != "holds":
        return decision
    if decision.loose_by is not None and log_parts(decision.loose_by[1])[1]:
        decision = attrs.evolve(decision, loose_by=None)
    if decision.tight is True and log_parts(law.leading[1])[1] and (
            _stairs_seen(law, xs) < STAIR_STEPS):
        decision = attrs.evolve(
            decision, tight=None,
            reason=f"{decision.reason}; its staircase takes only {_stairs_seen(law, xs)} "
                   f"values over the sweep (tight needs {STAIR_STEPS}), so another step "
                   "function may fit as well")
    return decision


def _exact_sides(found: Exact, bound: Order, size: str) -> Decision:
    law = found.law
    lead = law.leading
    rivals = [o for o in found.rivals if o != lead]
    evidence = Evidence("exact", law.describe(), found.predicted, law.start,
                        tuple(term_text(o, size) for o in rivals))
    sides = {_side(o, bound) for o in (lead, *rivals)}
    if len(sides) > 1:
        return Decision("undetermined", None, None,
                        "exact laws of leading terms " + " and ".join(
                            term_text(o, size) for o in (lead, *rivals))
                        + " both predict the held-out sizes; " + advice(
                            [s for s, _ in found.predicted]),
                        attrs.evolve(evidence, advice=advice([s for s, _ in found.predicted])))
    term = term_text(lead, size, law.loglog)
    if lead > bound:
        return Decision("exceeded", None, None,
                        f"the exact law's leading term {term} is of higher order than the "
                        f"bound's {spelled(bound, size)}", evidence)
    orders = {lead, *rivals}
    if orders == {bound}:
        return Decision("holds", True, None,
                        f"the exact law's leading term {term} is the bound's order", evidence)
    if all(o < bound for o in orders):
        by = (bound[0] - lead[0], bound[1] - lead[1]) if len(orders) == 1 else None
        return Decision("holds", False, by,
                        f"the exact law's leading term {term} is below the bound's "
                        f"{spelled(bound, size)}", evidence)
    return Decision("holds", None, None,
                    f"the exact law's leading term {term} is within the bound's "
                    f"{spelled(bound, size)}; a rival law's order differs", evidence)



def _log_span(law: Law, xs: Sequence[float]) -> float:
    """How many times L's largest value over the sizes ``xs`` is its smallest positive one."""
    ls = [law.scale(v) for v in xs if v > 0]
    positive = [v for v in ls if v > 0]
    if not positive:
        return 1.0
    return math.inf if len(positive) < len(ls) else max(positive) / min(positive)


def _loglog_span(law: Law, xs: Sequence[float]) -> float:
    """How many times log2(L)'s largest value over the sizes ``xs`` is its smallest positive
    one (L at least 2 where it counts)."""
    ls = [law.scale(v) for v in xs if v > 0]
    positive = [math.log2(v) for v in ls if v > 2]
    if not positive:
        return 1.0
    return max(positive) / min(positive)


def _established(decision: Decision, law: Law, xs: Sequence[float], bound: Order,
                 size: str) -> Decision:
    """``decision`` with only the claims the sweep establishes.

    Where L varies by less than LOG_SPAN over the sweep, the law's power of L is not
    established: tight only if the power of the size is lower than the bound's (then it is not
    tight whatever the log), and no loose-by factor. Where the bound or the law has a log log
    factor, log2(L) must vary by LOG_SPAN too for a tight claim or a loose-by factor (a law
    without a log log below the bound by a power of S or L, the bound's log log aside, stays
    loose, unnamed); and a
    least-squares loose-by factor is never one with a log log in it (a fitted log log and a
    constant differ too little on any sweep to name the factor), nor one under a fitted law
    led by a negative power of L (S^a / L and S^(a - e) differ too little to name it).
    """
    if decision.verdict != "holds":
        return decision
    tight, by = decision.tight, decision.loose_by
    notes: list[str] = []
    span = _log_span(law, xs)
    # A claim the sweep's span cannot establish is withdrawn: a tightness claim, and a
    # looseness one unless the law's size power alone is below the bound's.
    lower = law.leading[0] < bound[0]
    if span < LOG_SPAN and (tight is not None or by is not None):
        tight, by = (None if tight is True or not lower else tight), None
        notes.append(f"L varies only by a factor {span:.3g} over the sweep (under "
                     f"{LOG_SPAN:g}), too little to establish the law's power of L")
    loglogs = log_parts(bound[1])[1] or log_parts(law.leading[1])[1]
    if loglogs and (tight is not None or by is not None):
        twice = _loglog_span(law, xs)
        # a law with no log log below the bound by a power of S or of L with the bound's log
        # log set aside (5 n + 7 against n L / log2(L)) is loose whatever that log log does;
        # not a law with one (3 ceil(log2 L) - 1 may be another step function, isqrt(L),
        # which is not below L^0.5)
        plain = not log_parts(law.leading[1])[1] and (law.leading[0], law.leading[1]) < (
            bound[0], log_parts(bound[1])[0])
        if twice < LOG_SPAN:
            tight, by = (None if tight is True or not (lower or plain) else tight), None
            notes.append(f"log2(L) varies only by a factor {twice:.3g} over the sweep (under "
                         f"{LOG_SPAN:g}), too little to establish a log log factor")
    if by is not None and not law.exact and (log_parts(by[1])[1] or law.leading[1] < 0):
        # a fitted log log and a constant differ too little on any sweep to name the factor;
        # nor do a fitted S^a / L^k and S^(a - e) (2 n^0.9 fits 10.8 n / L to 0.12% on
        # 2^4..2^12): loose, by a factor not established
        by = None
    if not notes and (tight, by) == (decision.tight, decision.loose_by):
        return decision
    return attrs.evolve(decision, tight=tight, loose_by=by,
                        reason="; ".join([decision.reason, *notes]))


#: A bound outside S^a L^b log2(L)^c is tight on counts that follow its own formula to the
#: unit only where the formula grows by this factor over the sweep (else a constant would).
OWN_GROWTH = 2.0


def judge_outside(measure: str, bound: Order, size: str, xs: Sequence[float],
                  counts: Sequence[float], values: Sequence[float], text: str
                  ) -> tuple[Law, Decision]:
    """The verdict on a bound whose formula ``text`` (``values`` at ``xs``) is outside S^a L^b
    log2(L)^c (8 2^sqrt(log2 n)), ``bound`` being only its nearest reading at very large sizes.

    Counts that are a constant times the formula to the unit (the constant chosen without the
    two largest sizes, predicting them), where it grows by OWN_GROWTH over the sweep, hold,
    tight: the law of the counts is the bound's own formula. Otherwise the verdict is the
    reading's, but no law's order is the formula's, so tightness is unknown (never loose),
    and the reason names the formula, not the reading (n^0.0067 log^7.5 n says nothing).
    """
    law, decision = judge(measure, bound, size, xs, counts)
    pairs = [(x, y, v) for x, y, v in zip(xs, counts, values, strict=True) if y]
    shown_as = f"{text}, a formula outside {size}^a log^b loglog^c"
    if len(pairs) >= 4 and pairs[-1][2] >= OWN_GROWTH * pairs[0][2]:
        known = pairs[:-2]
        c = sum(y * v for _, y, v in known) / sum(v * v for _, _, v in known)
        if c > 0 and all(abs(y - c * v) <= 1.0 + 1e-9 * abs(y) for _, y, v in pairs):
            held = ", ".join(f"{x:g}: {y:g}" for x, y, _ in pairs[-2:])
            evidence = Evidence("exact", f"{measure} = {c:.4g} ({text}) to the unit on "
                                f"{len(pairs)} sizes", start=law.start,
                                stable=(f"chosen without the two largest sizes, it predicted "
                                        f"their counts to the unit ({held})",))
            return law, Decision(
                "holds", True, None,
                f"the counts are {c:.4g} times the bound's own formula ({shown_as}) to the "
                f"unit on every size, the two largest held out", evidence)
    words = spelled(bound, size)
    reason = decision.reason.replace(words, shown_as)
    if decision.verdict == "holds":
        reason += ("; no law of the counts is the bound's own formula, so whether it is tight "
                   "is not known")
        return law, attrs.evolve(decision, tight=None, loose_by=None, reason=reason)
    return law, attrs.evolve(decision, reason=reason)


def judge(
    measure: str, bound: Order, size: str, xs: Sequence[float], counts: Sequence[float]
) -> tuple[Law, Decision]:
    """The law of ``counts`` at sizes ``xs`` and the verdict on a bound of order ``bound``
    (a log log factor riding on its power of L: see :data:`pram.laws.law.LOGLOG`).

    A bound divided by a power of log log (n L / log2(L)) is judged against its own order:
    the fits try it as a leading order, a law led by its plain part S^a L^b is above it
    (count / bound grows like the log log), one a power of L or S lower is below it.
    """
    law, decision = _judge(measure, bound, size, xs, counts)
    used = [x for x in xs if law.start is None or x >= law.start]
    if log_parts(bound[1])[1] < 0 and decision.verdict == "exceeded" and law.exact:
        # a law led by the bound's plain part passes it by a log log alone, which lower terms
        # can hide past the sweep's end (n L + 1000 n against n L / log2(L) on 2^4..2^14:
        # the ratio falls from 502 to 276)
        decision = _unless_shown(decision, xs, counts, lambda x, y: grows(x, y, bound),
                                 "by a log log only, but count / bound does not grow over the "
                                 "sweep: the excess lies beyond it")
    if decision.verdict == "exceeded" and not (law.exact and all(b == 0 for _, b in law.terms)):
        # (an exact law in the size alone, 7 n + 9, predicts past the sweep: it needs no rise)
        stair = law.scale if law.exact and law.scale.kind != "log" else None
        decision = _unless_shown(
            decision, xs, counts,
            lambda x, y: rises_to_the_end(x, y, bound)
            or (stair is not None and climbs_the_stairs(x, y, bound, stair)),
            f"but count / bound does not rise to the sweep's end (by {EXCESS_GROWTH - 1:.0%} "
            "from the middle size, highest at the largest"
            + ("; nor from the stair of L before the last to the last" if stair else "")
            + "): the excess is not shown by these sizes")
    return law, _established(decision, law, used, bound, size)


def _unless_shown(decision: Decision, xs: Sequence[float], counts: Sequence[float],
                  shown: Callable[[list[float], list[float]], bool], why: str) -> Decision:
    """The excess ``decision``, kept only where the sweep ``shown`` it (asked of the sizes and
    counts from the first non-zero count on, as the law), else undetermined, its reason
    gaining ``why`` and the advice (:func:`pram.laws.ratios.grows`,
    :func:`pram.laws.ratios.rises_to_the_end`)."""
    sx, sy, zeros = prepared(xs, counts)
    sx, sy = sx[zeros:], sy[zeros:]
    if shown(sx, sy):
        return decision
    a = advice(sx)
    return attrs.evolve(
        decision, verdict="undetermined", reason=f"{decision.reason}, {why}; {a}",
        evidence=None if decision.evidence is None else attrs.evolve(decision.evidence,
                                                                     advice=a))


def _judge(
    measure: str, bound: Order, size: str, xs: Sequence[float], counts: Sequence[float]
) -> tuple[Law, Decision]:
    sx, sy, zeros = prepared(xs, counts)
    k = len(sx)
    nonzero_x, nonzero_y = sx[zeros:], sy[zeros:]
    start = nonzero_x[0] if zeros and nonzero_x else None
    if zeros == k:
        law = Law(measure, Scale("log", size), ((0.0, 0.0),), (0.0,), True, k, 0.0)
        return law, Decision("holds", False, None, "every count is 0",
                             Evidence("zeros", law.describe()))
    if len(nonzero_x) < 4:
        what = f"{k} sizes" if not zeros else f"{len(nonzero_x)} non-zero counts"
        law = fit(measure, size, nonzero_x, nonzero_y)
        a = "extend the sweep to 5 or more sizes"
        return law, Decision("undetermined", None, None,
                             f"{what} cannot tell a law's order; {a}",
                             Evidence("too few sizes", law.describe(), start=start, advice=a))
    found = exact(measure, size, nonzero_x, nonzero_y)
    if found is not None:
        law = found.law
        if start is not None and law.start is None:
            law = attrs.evolve(law, start=start)
            found = attrs.evolve(found, law=law)
        return law, _from_exact(found, bound, size, nonzero_x)
    if len(nonzero_x) < DECIDING_SIZES:
        four = from_four(measure, size, nonzero_x, nonzero_y, bound, start)
        if four is not None:
            return four
        law = fit(measure, size, nonzero_x, nonzero_y)
        a = f"give {DECIDING_SIZES} or more sizes (no exact law predicts these)"
        return law, Decision("undetermined", None, None,
                             f"no exact law predicts {len(nonzero_x)} sizes and a fitted law "
                             f"needs {DECIDING_SIZES}; {a}",
                             Evidence("too few sizes", law.describe(), start=start, advice=a))
    if nonzero_x[-1] < SPAN * nonzero_x[0]:
        law = fit(measure, size, nonzero_x, nonzero_y)
        a = f"add sizes above {nonzero_x[0] * SPAN:g}"
        return law, Decision("undetermined", None, None,
                             f"no exact law predicts these sizes, and they span a factor "
                             f"{nonzero_x[-1] / nonzero_x[0]:.3g}, too little to tell orders "
                             f"apart by least squares (it needs {SPAN:g}); {a}",
                             Evidence("least squares", law.describe(), start=start, advice=a))
    return from_fits(measure, size, nonzero_x, nonzero_y, bound, start)


__all__ = ["OWN_GROWTH", "Decision", "Evidence", "advice", "judge", "judge_outside"]
