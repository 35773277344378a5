"""Verdicts: whether a sweep's counts stay within a bound's order, and the evidence for it.

A verdict is ``holds``, ``exceeded`` or ``undetermined``; it is only ever given when the sweep
supports it, and it carries what it rests on (:class:`Evidence`):

- fewer than 4 sizes (or non-zero counts): undetermined;
- every count 0: holds, and loose;
- an **exact law** (:mod:`pram.exact`: chosen without the two largest sizes, then predicting
  them exactly, positive leading term, sizes to spare) decides by its leading order against the
  bound's: above exceeded, equal holds and tight, below holds and loose by the difference. If
  another smallest law also predicted and puts the order on the other side, undetermined;
- otherwise **least squares** (:mod:`pram.fitting`) with 5 sizes or more spanning a factor 8
  or more (on a span under 16, no excess from counts under 64: one step of a floor there is a
  log factor to a fit): every candidate
  leading order whose score is within 1.8 times the best's (or the best's plus the jitter of
  integer counts, a quarter unit of the last counts; every miss is allowed one unit first),
  with at most one term more than the simplest order that does so and a leading term the fit
  needs, is *plausible*. Exceeded when every plausible order is above the bound's, holds when
  none is, else undetermined. The same must come out on the sweep without its first size,
  without its last and from its first quarter on, and up to its last quarter the contrary must
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
  best law misses by 0.5% at most; loose only when every plausible order is lower and the best
  law led by the bound's order (more than a sliver) misses by over OUTFITS times the best's
  (the lower order established, not merely a little better), by a factor only when every
  plausible order is one and the same lower order. The law shown is the best-scoring
  plausible one, so it always agrees with the verdict; and where a plausible order's term
  still gains on the bound's from the middle of the sweep to its end while the verdict says
  holds (or still falls behind while it says exceeded), the deciding crossing lies beyond the
  sweep: undetermined;
- a log log is a term of its own: a bound's (log log)^c rides on its power of L
  (:data:`pram.laws.LOGLOG`), the fits try leading orders S^a log2(L) and S^a L log2(L), and
  orders compare as the terms grow (n L < n L log2(L) < n L^1.25). A law led by a log log
  term is plausible only where the same order without it is not (with as few terms): the data
  must need the log log. Tight, or a loose-by factor, with a log log in the bound or the law
  needs log2(L) to vary by LOG_SPAN over the sweep, and a least-squares loose-by factor is
  never one with a log log in it. A bound divided by a log log is judged by its plain part
  (undetermined where the law's order is that part);
- the sweep must show what a fitted law says about excess: exceeded only when count / bound is
  higher at the largest size than at the middle one (beyond the jitter), and where
  it is not, laws above the bound that fit beside laws within it are no evidence (they fit by
  bending a ratio that does not grow into growth past the sweep);
- where L varies by less than LOG_SPAN over the sweep, the law's power of L is not
  established, and neither tight nor a loose-by factor is claimed on it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from pram.exact import Exact, exact
from pram.fitting import Candidate, candidates, fit, jitter_of, other_readings, prepared
from pram.laws import (
    Law,
    Order,
    Scale,
    log_parts,
    log_term,
    order_text,
    power_base,
    term_text,
    with_loglog,
)

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
class Evidence:
    """What a verdict rests on: the law, the held-out sizes, the stability tests, advice."""

    #: ``exact``, ``least squares``, ``zeros`` or ``too few sizes``.
    method: str
    #: The law's description (``work = 2 n L + 2 n, L = log2(n), exact on 11 sizes ...``).
    law: str
    #: For an exact law: the held-out sizes and the counts it predicted there.
    predicted: tuple[tuple[float, int], ...] = ()
    #: The first size the law describes, when counts before it were left out.
    start: float | None = None
    #: Leading orders that fit about as well, in words (least squares), or rival exact laws.
    plausible: tuple[str, ...] = ()
    #: The stability tests passed, in words.
    stable: tuple[str, ...] = ()
    #: What would decide an undetermined verdict (``add sizes above 2^14``), or None.
    advice: str | None = None

    def as_dict(self) -> dict[str, object]:
        """The evidence for JSON."""
        return {
            "method": self.method,
            "law": self.law,
            "predicted": {f"{s:g}": v for s, v in self.predicted},
            "start": self.start,
            "plausible": list(self.plausible),
            "stable": list(self.stable),
            "advice": self.advice,
        }

    def text(self) -> str:
        """The evidence in one paragraph."""
        parts = [f"{self.method}: {self.law}"]
        if self.predicted:
            parts.append("predicted the held-out sizes exactly ("
                         + ", ".join(f"{s:g}: {v}" for s, v in self.predicted) + ")")
        if self.start is not None:
            parts.append(f"from size {self.start:g} on")
        if self.plausible:
            parts.append("orders that fit: " + ", ".join(self.plausible))
        if self.stable:
            parts.append("; ".join(self.stable))
        if self.advice:
            parts.append(self.advice)
        return "; ".join(parts)


@attrs.frozen
class Decision:
    """A verdict on one bound along one size, with its tightness, reason and evidence."""

    verdict: str  # "holds", "exceeded" or "undetermined"
    #: For a bound that holds: whether the measured order is the bound's (None: not known).
    tight: bool | None
    #: For a loose bound whose measured order is established: the factor it is loose by.
    loose_by: Order | None
    reason: str
    evidence: Evidence | None = None



def _spelled(order: Order, size: str) -> str:
    """An order in a sentence, each log with its argument: ``the bound's n log n``."""
    return order_text(order, size, whole=True)

def advice(xs: Sequence[float]) -> str:
    """``add sizes above 2^14`` for a sweep whose largest size is at most 2^14."""
    top = max(xs)
    e = max(1, math.ceil(math.log2(top))) if top > 0 else 1
    return f"add sizes above 2^{e}"


def _side(order: Order, bound: Order) -> str:
    return "exceeded" if order > bound else "holds"


def _from_exact(found: Exact, bound: Order, size: str) -> Decision:
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
    term = term_text(lead, size)
    if lead > bound:
        return Decision("exceeded", None, None,
                        f"the exact law's leading term {term} is of higher order than the "
                        f"bound's {_spelled(bound, size)}", evidence)
    orders = {lead, *rivals}
    if orders == {bound}:
        return Decision("holds", True, None,
                        f"the exact law's leading term {term} is the bound's order", evidence)
    if all(o < bound for o in orders):
        by = (bound[0] - lead[0], bound[1] - lead[1]) if len(orders) == 1 else None
        return Decision("holds", False, by,
                        f"the exact law's leading term {term} is below the bound's "
                        f"{_spelled(bound, size)}", evidence)
    return Decision("holds", None, None,
                    f"the exact law's leading term {term} is within the bound's "
                    f"{_spelled(bound, size)}; a rival law's order differs", evidence)


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
          bound: Order, wide: bool = False) -> _Reading:
    a, b = bound
    whole = log_parts(b)[0]
    # the bound's order and its neighbours, with and without a log log factor
    near = ((a, b), (a, b - 1), (a, b + 1), (a, b + 2), (a - 0.5, b), (a + 0.5, b),
            (a, whole), (a, with_loglog(whole, 1.0)), (a, with_loglog(whole - 1, 1.0)),
            (a, with_loglog(whole + 1, 1.0)))
    pool = candidates(measure, size, xs, ys,
                      tuple(o for o in near if o[0] >= 0 and log_parts(o[1])[1] >= 0), wide)
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
    if any(o > bound for o in orders) and any(o <= bound for o in orders) and not _grows(
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
        return _Reading("exceeded" if _grows(xs, ys, bound) else "undetermined", None, None,
                        plausible)
    if any(o > bound for o in orders):
        return _Reading("undetermined", None, None, plausible)
    if orders == {bound}:
        lead = next(c for c in plausible if c.order == bound)
        tight = True if lead.z >= CLEARLY and lead.share >= DOMINANT else None
        return _Reading("holds", tight, None, plausible)
    if all(o < bound for o in orders):
        rival = next((c for c in pool if c.order == bound), None)
        if rival is not None and rival.score <= OUTFITS * max(best, jitter) and (
                rival.share >= SLIVER or rival.needed_by >= STRONGLY):
            # a law led by the bound's own order (by a term that is more than a sliver, as
            # for a plausible law) misses by little more than the best law: that the count
            # is of lower order is not established
            return _Reading("holds", None, None, plausible, rival)
        by = None
        if len(orders) == 1:
            (o,) = orders
            if plausible[0].z >= CLEARLY and plausible[0].share >= DOMINANT:
                by = (bound[0] - o[0], bound[1] - o[1])
        return _Reading("holds", False, by, plausible)
    return _Reading("holds", None, None, plausible)


def _loglog_spare(order: Order, terms: int | None,
                  plain: dict[Order, int | None]) -> bool:
    """Whether ``order`` has a log log factor its plain order (the same S^a L^b without it)
    makes spare: that order is plausible too, with at most as many terms."""
    whole, loglog = log_parts(order[1])
    if not loglog:
        return False
    fewer = plain.get((order[0], whole))
    return fewer is not None and terms is not None and fewer <= terms


def _against_trend(reading: _Reading, bound: Order, xs: Sequence[float]) -> Order | None:
    """A plausible order whose side of the bound the sweep itself contradicts, or None.

    A fitted law is an approximation on the sweep: an order below the bound's whose term still
    grows faster than the bound's from the middle of the sweep to its end (L^3 against n/L on
    n = 2..32), or one above it whose term grows slower there (n^1.1 against n L^2), puts the
    crossing that decides beyond the largest size, where only an exact law may be trusted.
    The terms are compared in log2 of the size (a floor or ceiling of it may stand still
    between the two sizes compared).
    """
    mid, top = xs[len(xs) // 2], xs[-1]
    if not (mid > 1 and top > mid):
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


def _bound_values(bound: Order, xs: Sequence[float]) -> list[float]:
    """The bound's leading term ``S^a L^b log2(L)^c`` at sizes ``xs`` (L = log2 S, at least 1)."""
    return [v ** bound[0] * log_term(max(math.log2(v), 1.0) if v > 0 else 1.0, bound[1])
            or 1.0 for v in xs]


def _grows(xs: Sequence[float], ys: Sequence[float], bound: Order) -> bool:
    """Whether count / bound is higher at the largest size than at the middle one or at the
    first one, by more than the jitter of integer counts: the sweep itself shows growth past
    the bound (a count that rose early and is flat over the second half, a log log that steps,
    still counts as growing)."""
    terms = _bound_values(bound, xs)
    mid = len(xs) // 2
    first, low, high = ys[0] / terms[0], ys[mid] / terms[mid], ys[-1] / terms[-1]
    return high > min(first, low) * (1.0 + jitter_of(ys))


def _from_fits(measure: str, size: str, xs: list[float], ys: list[float], bound: Order,
               start: float | None) -> tuple[Law, Decision]:
    main = _read(measure, size, xs, ys, bound)
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
    if main.verdict == "undetermined":
        a = advice(xs)
        above = sorted({term_text(c.order, size) for c in main.plausible if c.order > bound})
        below = sorted({term_text(c.order, size) for c in main.plausible if c.order <= bound})
        if not below:
            # an excess the sweep itself does not show: count / bound no higher at the largest
            # size than at the middle one (a law that bends a flat or falling ratio into growth
            # past the sweep is an approximation, not evidence)
            terms = _bound_values(bound, xs)
            mid = len(xs) // 2
            low, high = ys[mid] / terms[mid], ys[-1] / terms[-1]
            return law, Decision(
                "undetermined", None, None,
                f"every law that fits leads above the bound's {_spelled(bound, size)} "
                f"(best: {term_text(law.leading, size)}), but count / bound does not grow from "
                f"{size} = {xs[mid]:g} to {xs[-1]:g} ({low:.4g} to {high:.4g}): the excess "
                f"lies beyond the sweep; {a}",
                attrs.evolve(evidence, advice=a))
        return law, Decision(
            "undetermined", None, None,
            f"laws led by {', '.join(above)} (above the bound's {_spelled(bound, size)}) and "
            f"by {', '.join(below)} (within it) fit about as well; {a}",
            attrs.evolve(evidence, advice=a))
    against = _against_trend(main, bound, xs)
    if against is not None:
        a = advice(xs)
        return law, Decision(
            "undetermined", None, None,
            f"the fitted law's leading term {term_text(against, size)} "
            + ("still gains on" if main.verdict == "holds" else "still falls behind")
            + f" the bound's {_spelled(bound, size)} over the sweep: that it "
            + ("falls behind" if main.verdict == "holds" else "overtakes it")
            + f" is beyond the sweep, where a fitted law says nothing; {a}",
            attrs.evolve(evidence, advice=a))
    passed: list[str] = []
    rivals = [main.rival]
    tights = [main.tight]
    looses = [main.loose_by]
    # without the first or the last size the verdict must be the same; from the first
    # quarter on, or up to the last quarter, it must at least not be the contrary one
    subs = [
        (f"without the first size ({size} = {xs[0]:g})", xs[1:], ys[1:], True),
        (f"without the last size ({size} = {xs[-1]:g})", xs[:-1], ys[:-1], True),
    ]
    quarter = math.ceil(len(xs) / 4)
    if quarter > 1 and len(xs) - quarter >= FITTED_SIZES:
        subs.append((f"from {size} = {xs[quarter]:g} on", xs[quarter:], ys[quarter:], True))
        subs.append((f"up to {size} = {xs[-quarter - 1]:g}", xs[:-quarter], ys[:-quarter],
                     False))
    for label, sub_x, sub_y, same in subs:
        other = _read(measure, size, sub_x, sub_y, bound)
        if not same and other.verdict == "undetermined":
            passed.append(f"no contrary verdict {label}")
            continue
        if other.verdict != main.verdict:
            a = advice(xs)
            return law, Decision(
                "undetermined", None, None,
                f"the verdict is {main.verdict} on the whole sweep but {other.verdict} "
                f"{label}: the sweep is not yet in its asymptotic regime; {a}",
                attrs.evolve(evidence, stable=tuple(passed), advice=a))
        passed.append(f"same verdict {label}")
        if same:
            tights.append(other.tight)
            looses.append(other.loose_by)
            rivals.append(other.rival)
    if main.verdict == "exceeded" and other_readings(xs):
        # an excess must survive every reading of L: on c 2^k a count in log2 S fitted in
        # log2(S/c) alone can lead a law above its order (see pram.fitting._wide_scales)
        wide = _read(measure, size, xs, ys, bound, wide=True)
        if wide.verdict != "exceeded":
            a = advice(xs)
            best = term_text(wide.plausible[0].order, size) if wide.plausible else "none"
            return law, Decision(
                "undetermined", None, None,
                f"every law in L = log2({size}/{power_base(xs)}) "
                f"leads above the bound's {_spelled(bound, size)}, but with L read as "
                f"log2({size}) too the verdict is {wide.verdict} (best: {best}): the "
                f"excess rests on one reading of L; {a}",
                attrs.evolve(evidence, stable=tuple(passed), advice=a))
    if main.verdict == "exceeded" and min(ys[-3:]) < FINE and xs[-1] < SPAN_WIDE * xs[0]:
        # on a short sweep of small counts a unit of jitter, or one step of a floor, is a
        # log factor: n floor(sqrt(floor(L))) on n = 2..20 (counts up to 48, stepping at 16)
        # is fitted best by a law led by n^1.5 L^4
        a = advice(xs)
        return law, Decision(
            "undetermined", None, None,
            f"every law that fits leads above the bound's {_spelled(bound, size)}, but the "
            f"sizes span a factor {xs[-1] / xs[0]:.3g} and the last counts are under {FINE:g}, "
            f"where one step of a floor moves the fit by a log factor; {a}",
            attrs.evolve(evidence, stable=tuple(passed), advice=a))
    clean = main.plausible[0].score <= CLEAN and min(ys[-3:]) >= FINE
    tight = tights[0] if len(set(tights)) == 1 and len(xs) >= TIGHT_SIZES and clean else None
    loose_by = looses[0] if tight is False and len(set(looses)) == 1 else None
    # a rival of the bound's order took away a loose claim the readings would all have made
    unsettled = [False if r is not None else t for r, t in zip(rivals, tights, strict=True)]
    rival = next((r for r in rivals if r is not None), None)
    withheld = (tight is None and rival is not None and set(unsettled) == {False}
                and len(xs) >= TIGHT_SIZES and clean)
    evidence = attrs.evolve(evidence, stable=tuple(passed))
    term = term_text(law.leading, size)
    bound_words = _spelled(bound, size)
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
    factor, log2(L) must vary by LOG_SPAN too for a tight claim or a loose-by factor; and a
    least-squares loose-by factor is never one with a log log in it (a fitted log log and a
    constant differ too little on any sweep to name the factor).
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
        if twice < LOG_SPAN:
            tight, by = (None if tight is True or not lower else tight), None
            notes.append(f"log2(L) varies only by a factor {twice:.3g} over the sweep (under "
                         f"{LOG_SPAN:g}), too little to establish a log log factor")
    if by is not None and log_parts(by[1])[1] and not law.exact:
        by = None
    if not notes and (tight, by) == (decision.tight, decision.loose_by):
        return decision
    return attrs.evolve(decision, tight=tight, loose_by=by,
                        reason="; ".join([decision.reason, *notes]))


def judge(
    measure: str, bound: Order, size: str, xs: Sequence[float], counts: Sequence[float]
) -> tuple[Law, Decision]:
    """The law of ``counts`` at sizes ``xs`` and the verdict on a bound of order ``bound``
    (a log log factor riding on its power of L: see :data:`pram.laws.LOGLOG`).

    A bound divided by a power of log log (n L / log2(L)) is judged by its plain part S^a L^b,
    since no fitted law is led by such a term: exceeded or loose as that part is, undetermined
    where the law's order is that part.
    """
    a, b = bound
    whole, loglog = log_parts(b)
    if loglog < 0:
        law, decision = _judge(measure, (a, whole), size, xs, counts)
        level = law.leading >= (a, whole)
        if decision.verdict == "holds" and level and decision.tight is not False:
            decision = attrs.evolve(
                decision, verdict="undetermined", tight=None, loose_by=None,
                reason=f"the law's order is the bound's {order_text((a, whole), size)} but for "
                       f"the bound's 1/(log log)^{-loglog:g}, which no fitted law is led by; "
                       "the sweep cannot decide it")
        elif decision.verdict == "holds":
            decision = attrs.evolve(decision, loose_by=None)
        return law, decision
    law, decision = _judge(measure, bound, size, xs, counts)
    used = [x for x in xs if law.start is None or x >= law.start]
    return law, _established(decision, law, used, bound, size)


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
        return law, _from_exact(found, bound, size)
    if len(nonzero_x) < DECIDING_SIZES:
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
    return _from_fits(measure, size, nonzero_x, nonzero_y, bound, start)


__all__ = ["Decision", "Evidence", "advice", "judge"]
