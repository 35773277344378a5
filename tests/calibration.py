"""Generated count families with known asymptotic truth, the sweeps they are measured on, and
the grading of :func:`pram.check` against them (RIGHT / WRONG / UNDETERMINED).

A family is a count ``f(n)`` in exact integer arithmetic (floors and ceilings where its formula
has them) and its true order ``(a, b, c)``: ``f(n) = Θ(n^a log^b n (log log n)^c)``. A check
pits it against a bound ``n^A log^B n``: the truth is ``exceeded`` when (a, b, c) > (A, B, 0),
``holds`` (tight) when equal, ``holds`` (loose) when below. Families are drawn from a seeded
random generator, so each run samples families nobody tuned the method on.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from fractions import Fraction

import attrs

from pram import Formula, check

Truth = tuple[float, float, float]


@attrs.frozen
class Family:
    """A count with its true order, and whether the sweep may still show a transient."""

    name: str
    count: Callable[[int], int] = attrs.field(eq=False, repr=False)
    truth: Truth
    #: The count changes regime at this size (a piecewise law): sweeps that end before a few
    #: doublings past it are marginal.
    switch: int = 0
    #: For a count that steps (a ceiling of a log of a log): which step a size is on. A sweep
    #: whose last quarter straddles a step is marginal (a step there looks like growth), and so
    #: is one with fewer than two steps after its first quarter (flat between steps, the count
    #: is its last step's polynomial).
    step: Callable[[int], int] | None = attrs.field(default=None, eq=False, repr=False)
    #: The leading term's share of the count at a size (None: the leading term dominates).
    share: Callable[[int], float] | None = attrs.field(default=None, eq=False, repr=False)


def _log2(n: int) -> float:
    return math.log2(n)


def _floor_log(n: int) -> int:
    return n.bit_length() - 1


def _ceil_log(n: int) -> int:
    return (n - 1).bit_length()


def _rational(rng: random.Random, small: bool = False) -> Fraction:
    top = 4 if small else 12
    return Fraction(rng.randint(1, top), rng.choice([1, 1, 2, 3, 4, 8]))


def _logs(rng: random.Random) -> tuple[str, Callable[[int], float]]:
    kind = rng.choice(["log", "log", "floor", "ceil"])
    fn: Callable[[int], float] = {
        "log": _log2,
        "floor": lambda n: float(_floor_log(n)),
        "ceil": lambda n: float(_ceil_log(n)),
    }[kind]
    return kind, fn


def polynomial(rng: random.Random) -> Family:
    """c n^a L^b plus random lower-order terms (some negative), floored."""
    a = rng.choice([0, 1, 1, 1, 2, 2, 3])
    b = rng.choice([0, 1, 1, 2, 2, 3]) if a < 3 else rng.choice([0, 1])
    if a == 0 and b == 0:
        b = 1
    kind, lg = _logs(rng)
    lead = _rational(rng)
    lower: list[tuple[int, int, Fraction]] = []
    for _ in range(rng.randint(0, 3)):
        la = rng.randint(max(0, a - 1), a)
        lb = rng.randint(0, b - 1) if la == a and b > 0 else rng.randint(0, 3)
        if (la, lb) >= (a, b):
            continue
        c = _rational(rng, small=True)
        if rng.random() < 0.3:
            c = -min(c, lead / 4)  # a negative lower term never outweighs the leading one
        lower.append((la, lb, c))

    def f(n: int) -> int:
        L = lg(n)
        v = float(lead) * n**a * L**b + sum(float(c) * n**x * L**y for x, y, c in lower)
        return max(0, math.floor(v))

    text = f"{lead} n^{a} L^{b} ({kind}) + {len(lower)} lower"
    return Family(f"poly {text}", f, (a, b, 0))


def large_constant(rng: random.Random) -> Family:
    """c n^a L^b with a hidden large lower-order term (1000 n, 10^5, 50 n L)."""
    a = rng.choice([0, 1, 1, 2])
    b = rng.choice([1, 2]) if a == 0 else rng.choice([0, 1, 2])
    big = rng.choice([100, 1000, 10**4])
    la, lb = (a, b - 1) if b > 0 else (a - 1, 2)
    lead = _rational(rng)

    def f(n: int) -> int:
        L = _log2(n)
        return math.floor(float(lead) * n**a * L**b + big * n**la * max(L, 1) ** lb)

    def share(n: int) -> float:
        return float(lead) * n**a * _log2(n) ** b / max(f(n), 1)

    return Family(f"{lead} n^{a} L^{b} + {big} n^{la} L^{lb}", f, (a, b, 0), share=share)


def fractional(rng: random.Random) -> Family:
    """c n^(p/q) L^b: fractional powers of the size."""
    a = rng.choice([0.5, 1.5, 1.25, 0.75, 1.1, 2.5, 1 / 3, 4 / 3])
    b = rng.choice([0, 0, 1])
    c = float(_rational(rng))

    def f(n: int) -> int:
        return math.floor(c * n**a * _log2(max(n, 2)) ** b) + 1

    return Family(f"{c:g} n^{a:.4g} L^{b}", f, (a, b, 0))


def loglog(rng: random.Random) -> Family:
    """n^a L^b log2(L) or ceil(log2(ceil(log2 n))) steps: one log log factor."""
    a = rng.choice([0, 1, 1])
    b = rng.choice([0, 1]) if a else 0
    stepped = rng.random() < 0.5
    c = float(_rational(rng))

    def f(n: int) -> int:
        L = max(_log2(n), 2.0)
        ll = float(_ceil_log(max(_ceil_log(n), 2))) if stepped else math.log2(L)
        return math.floor(c * n**a * L**b * ll) + 2

    def step(n: int) -> int:
        return _ceil_log(max(_ceil_log(n), 2))

    return Family(f"{c:g} n^{a} L^{b} loglog{' (ceil)' if stepped else ''}", f, (a, b, 1),
                  step=step if stepped else None)


def sqrt_log(rng: random.Random) -> Family:
    """c n^a sqrt(L)."""
    a = rng.choice([0, 1, 2])
    c = float(_rational(rng)) * (8 if a == 0 else 1)

    def f(n: int) -> int:
        return math.floor(c * n**a * math.sqrt(max(_log2(n), 0.0))) + 1

    return Family(f"{c:g} n^{a} sqrt(L)", f, (a, 0.5, 0))


def piecewise(rng: random.Random) -> Family:
    """A small-size regime of its own (n^2, or a constant) below a switch, then c n^a L^b."""
    a = rng.choice([0, 1, 1])
    b = rng.choice([1, 2]) if a == 0 else rng.choice([0, 1, 2])
    switch = rng.choice([4, 8, 16])
    lead = _rational(rng)
    early = rng.choice(["square", "flat"])

    def late(n: int) -> int:
        return math.floor(float(lead) * n**a * _log2(n) ** b)

    def f(n: int) -> int:
        if n >= switch:
            return late(n)
        return n * n if early == "square" else late(switch)

    return Family(f"{early} below {switch}, then {lead} n^{a} L^{b}", f, (a, b, 0), switch)


def zero_prefix(rng: random.Random) -> Family:
    """0 below a threshold, c n^a L^b after (a phase that only starts at some size)."""
    a = rng.choice([0, 1, 2])
    b = rng.choice([1, 2]) if a == 0 else rng.choice([0, 1, 2])
    switch = rng.choice([2, 4, 8, 16])
    lead = _rational(rng)

    def f(n: int) -> int:
        return 0 if n < switch else math.floor(float(lead) * n**a * _log2(n) ** b) + 1

    return Family(f"0 below {switch}, then {lead} n^{a} L^{b}", f, (a, b, 0), switch)


def time_like(rng: random.Random) -> Family:
    """Small counts: c ceil(log2 n)^b + d, 2 n + parity, floor(L^2/4)."""
    b = rng.choice([1, 1, 2])
    c = rng.randint(1, 4)
    d = rng.randint(0, 9)
    kind, lg = _logs(rng)
    linear = rng.random() < 0.25

    def f(n: int) -> int:
        if linear:
            return c * n + d + (n % 2)
        return math.floor(c * lg(n) ** b / rng_div) + d

    rng_div = rng.choice([1, 1, 2, 4])
    truth: Truth = (1, 0, 0) if linear else (0, b, 0)
    return Family(f"time-like {'linear' if linear else f'{c}/{rng_div} L^{b} ({kind})'} + {d}",
                  f, truth)


def parity(rng: random.Random) -> Family:
    """c n^a L^b plus n^a L^(b-1) (L mod 2) or n (n mod 3): jitter that never settles."""
    a = rng.choice([1, 1, 2])
    b = rng.choice([1, 2, 3])
    lead = _rational(rng)

    def f(n: int) -> int:
        fl = _floor_log(n)
        return math.floor(float(lead) * n**a * _log2(n) ** b) + n**a * fl ** (b - 1) * (fl % 2)

    return Family(f"{lead} n^{a} L^{b} + parity", f, (a, b, 0))


def recursion_depth(rng: random.Random) -> Family:
    """A staircase of recursion depth: c n^a L^b + k n^a ceil(log2 L) + d (Algorithm 11's time,
    2 L^2 + 6 L + 2 ceil(log2 L) + 3, is one), or led by it, n^a (c floor(log2 L) + k)
    (Valiant's maximum squares its blocks floor(log2 L) times)."""
    a = rng.choice([0, 0, 1])
    led = rng.random() < 0.4
    b = rng.choice([1, 2])
    c = rng.randint(1, 4)
    k = rng.randint(1, 6)
    d = rng.randint(0, 9)

    def depth(n: int) -> int:
        return _floor_log(max(_floor_log(n), 1)) if led else _ceil_log(max(_ceil_log(n), 1))

    def f(n: int) -> int:
        lg = _ceil_log(max(n, 2))
        if led:
            return n**a * (c * depth(n) + k) + d
        return c * n**a * lg**b + k * n**a * depth(n) + d

    if led:
        return Family(f"n^{a} ({c} floor(log2 L) + {k}) + {d}", f, (a, 0, 1), step=depth)
    return Family(f"{c} n^{a} L^{b} + {k} n^{a} ceil(log2 L) + {d}", f, (a, b, 0))


MAKERS: tuple[Callable[[random.Random], Family], ...] = (
    polynomial, polynomial, polynomial, large_constant, fractional, loglog, sqrt_log,
    piecewise, zero_prefix, time_like, parity, recursion_depth,
)


# ---- sweeps ---------------------------------------------------------------------------------


def sweep_sizes(kind: str, rng: random.Random) -> list[int]:
    """The sizes of one sweep of ``kind``."""
    if kind == "1..n":
        return list(range(1, rng.randint(16, 40) + 1))
    if kind == "2..n":
        return list(range(2, rng.randint(12, 30) + 1))
    if kind == "2^k":
        lo = rng.randint(1, 5)
        return [2**e for e in range(lo, lo + rng.randint(6, 12))]
    if kind == "3*2^k":
        lo = rng.randint(1, 4)
        return [3 * 2**e for e in range(lo, lo + rng.randint(6, 12))]
    if kind == "4^k":
        lo = rng.randint(1, 2)
        return [4**e for e in range(lo, lo + rng.randint(5, 8))]
    if kind == "few":
        lo = rng.randint(2, 5)
        step = rng.choice([1, 2, 3])
        return [2 ** (lo + step * i) for i in range(rng.randint(4, 6))]
    if kind == "irregular":
        out, v = [], rng.randint(5, 40)
        for _ in range(rng.randint(7, 12)):
            out.append(v)
            v = int(v * rng.uniform(1.4, 2.6)) + 1
        return out
    if kind == "2^k-1":
        lo = rng.randint(2, 4)
        return [2**e - 1 for e in range(lo, lo + rng.randint(6, 11))]
    if kind == "5*2^k":
        lo = rng.randint(0, 3)
        return [5 * 2**e for e in range(lo, lo + rng.randint(6, 10))]
    if kind == "decimal":
        out = []
        for e in range(1, rng.randint(4, 6)):
            out += [10**e, 2 * 10**e, 5 * 10**e]
        return out
    if kind == "2^k+1":
        lo = rng.randint(2, 4)
        return [2**e + 1 for e in range(lo, lo + rng.randint(6, 11))]
    raise ValueError(kind)


KINDS = ("1..n", "2..n", "2^k", "3*2^k", "4^k", "few", "irregular", "2^k-1", "5*2^k",
         "decimal", "2^k+1")


# ---- bounds and grading -----------------------------------------------------------------------


#: A bound's order: ``(a, b)`` for ``n^a log^b n``, or ``(a, b, c)`` with ``(log log n)^c``.
Bound = tuple[float, ...]


def bound_formula(order: Bound) -> Formula:
    """``n^a log2(n)^b`` (log2 at least 1), times ``log2(log2(n))^c`` for an order ``(a, b,
    c)`` (log2 log2 at least 1), as a Formula."""
    a, b = order[0], order[1]
    c = order[2] if len(order) > 2 else 0.0
    if not c:
        return Formula(f"n^{a:g} log2(n)^{b:g}",
                       lambda s: s["n"] ** a * max(math.log2(s["n"]), 1.0) ** b)
    return Formula(f"n^{a:g} log2(n)^{b:g} log2(log2(n))^{c:g}",
                   lambda s: s["n"] ** a * max(math.log2(s["n"]), 1.0) ** b
                   * max(math.log2(max(math.log2(s["n"]), 1.0)), 1.0) ** c)


def bounds_for(truth: Truth, rng: random.Random) -> list[tuple[float, float]]:
    """The bound orders a family is checked against: at, above and below its order."""
    a, b, c = truth
    out = [(a, b + 1.0) if c else (a, b)]
    out.append(rng.choice([(a, b + 1.0), (a + 1.0, 0.0), (a + 0.5, b)]))
    below = [(a, b - 1.0)] if b >= 1 else []
    below += [(a - 0.5, b + 2.0)] if a >= 0.5 else []
    if c:
        below = [(a, b)]
    if below:
        out.append(rng.choice(below))
    return out


def expected(truth: Truth, bound: Bound) -> tuple[str, bool]:
    """The true verdict and tightness of a bound against a family's order."""
    t = (truth[0], truth[1], truth[2])
    f = (bound[0], bound[1], bound[2] if len(bound) > 2 else 0.0)
    if t > f:
        return "exceeded", False
    return "holds", t == f


@attrs.frozen
class Graded:
    """One graded check."""

    family: str
    kind: str
    sizes: tuple[int, ...]
    bound: Bound
    truth: str
    truly_tight: bool
    verdict: str
    tight: bool | None
    grade: str  # RIGHT, WRONG or UNDETERMINED
    wrong_tightness: bool
    marginal: bool
    reason: str
    #: The largest relative residual the law shows (0 for an exact law).
    residual: float = 0.0


def marginal(family: Family, sizes: list[int], counts: list[int], bound: Bound,
             truth: str) -> bool:
    """Whether the sweep can hardly show the truth: a regime switch too near its end, or an
    excess that moves count / bound by less than a factor 1.5 after its first size, or a leading
    term that is under a tenth of the count at the largest size."""
    if family.switch and sizes[-1] < 8 * family.switch:
        return True
    if family.share is not None and family.share(sizes[-1]) < 0.1:
        return True
    quarter = max(1, len(sizes) // 4)
    if family.step is not None:
        steps = [family.step(n) for n in sizes[quarter:]]
        changes = sum(a != b for a, b in itertools.pairwise(steps))
        if changes < 2 or family.step(sizes[-1]) != family.step(sizes[-quarter - 1]):
            return True  # a step near the end, or too few steps to show growth
    if len({c for c in counts if c}) <= 2:
        return True  # two values or fewer: no sweep of them shows an order
    if truth == "exceeded":
        f = bound_formula(bound)
        ratios = [c / f({"n": n}) for n, c in zip(sizes, counts, strict=True) if c > 0]
        # growth must show after the first size (a step at the first size alone is a base
        # case as much as growth)
        return len(ratios) < 3 or ratios[-1] < 1.5 * min(ratios[1:])
    return False


def grade(family: Family, kind: str, sizes: list[int], bound: Bound) -> Graded:
    """Check ``family`` on ``sizes`` against ``bound`` and grade the verdict."""
    counts = [family.count(n) for n in sizes]
    truth, truly_tight = expected(family.truth, bound)
    result = check("count", bound_formula(bound), [({"n": n}, c) for n, c in zip(sizes, counts,
                                                                                 strict=True)])
    if result.verdict == "undetermined":
        g = "UNDETERMINED"
    else:
        g = "RIGHT" if result.verdict == truth else "WRONG"
    wrong_tight = result.holds and truth == "holds" and result.tight is not None and (
        result.tight != truly_tight)
    # counts that a law of another order reproduces exactly (every size, the held-out ones
    # included) cannot show the truth on this sweep: no method could tell them apart
    lookalike = result.law.exact and (*result.law.leading, 0.0) != tuple(family.truth)
    return Graded(family.name, kind, tuple(sizes), bound, truth, truly_tight, result.verdict,
                  result.tight, g, wrong_tight,
                  lookalike or marginal(family, sizes, counts, bound, truth), result.reason,
                  0.0 if result.law.exact else result.law.max_relative_residual)


def battery(seed: int, per_kind: int, bounds: int = 3) -> list[Graded]:
    """``per_kind`` families on every kind of sweep, each checked against ``bounds`` of its
    bounds (its own order first, then others drawn at random)."""
    rng = random.Random(seed)
    out: list[Graded] = []
    for kind in KINDS:
        for _ in range(per_kind):
            family = rng.choice(MAKERS)(rng)
            sizes = sweep_sizes(kind, rng)
            orders = bounds_for(family.truth, rng)
            chosen = orders[:1] + rng.sample(orders[1:], min(bounds - 1, len(orders) - 1))
            for bound in chosen:
                out.append(grade(family, kind, sizes, bound))
    return out


# ---- guards: families the method once got wrong or could not decide, on fixed sweeps ---------


def _brent(n: int) -> tuple[int, int]:
    """A Brent-scheduled sum of n numbers: p = ceil(n / L) processors (L = floor(log2 n), at
    least 1) each add a block of ceil(n / p) sequentially, then a tree of ceil(log2 p) levels
    adds their p sums: (p, time), time about 2 log2 n and work p * time about 2 n."""
    big_l = max(1, _floor_log(n))
    p = -(-n // big_l)
    return p, -(-n // p) - 1 + _ceil_log(p)


def _n_log_over_loglog(n: int) -> int:
    return math.floor(n * _log2(n) / math.log2(_log2(n)))


#: Each guard family with the sweeps it is checked on: non-half powers of n (n^0.9, n^1.1,
#: where a least-squares law of half powers may not fit), integer roots on short and prime
#: sweeps, Brent's schedule (time with a floor(log2 L) staircase, work p * time), and counts
#: at, above and below a bound divided by a log log.
GUARDS: tuple[tuple[Family, tuple[str, ...]], ...] = (
    (Family("n^0.9", lambda n: math.floor(n**0.9) + 1, (0.9, 0, 0)), ("2^k", "2..20", "primes")),
    (Family("n^1.1", lambda n: math.floor(n**1.1), (1.1, 0, 0)), ("2^k", "2^k+1", "primes")),
    (Family("isqrt(n)", math.isqrt, (0.5, 0, 0)), ("2..20",)),
    (Family("n isqrt(n)", lambda n: n * math.isqrt(n), (1.5, 0, 0)), ("primes",)),
    (Family("Brent sum, time", lambda n: _brent(n)[1], (0, 1, 0)), ("2^k", "4^k long")),
    (Family("Brent sum, work", lambda n: _brent(n)[0] * _brent(n)[1], (1, 0, 0)),
     ("2^k", "4^k long")),
    (Family("n L / log2 L", _n_log_over_loglog, (1, 1, -1)), ("2^k", "4^k long")),
    (Family("3 n L + n", lambda n: 3 * n * _floor_log(n) + n, (1, 1, 0)), ("2^k", "4^k long")),
)
GUARD_SWEEPS: dict[str, list[int]] = {
    "2^k": [2**k for k in range(4, 15)],
    "4^k long": [2**k for k in range(4, 21, 2)],
    "2^k+1": [2**k + 1 for k in range(3, 14)],
    "2..20": list(range(2, 21)),
    "primes": [2, 3, 5, 11, 23, 47, 97, 197, 397, 797, 1597, 3203, 6421],
}


def guard_bounds(truth: Truth) -> list[Bound]:
    """A guard family's bounds: its own order, one a log higher, half a power of n higher,
    one a log lower, and its order times and divided by a log log."""
    a, b, c = truth
    return [(a, b, c), (a, b + 1, c), (a + 0.5, b, c), (a, b - 1, c), (a, b, c - 1),
            (a, b, c + 1)]


def guards() -> list[Graded]:
    """Every guard family on each of its sweeps against each of its bounds (sizes where the
    log log is defined, n >= 4, for the orders with one)."""
    out: list[Graded] = []
    for family, kinds in GUARDS:
        for bound in guard_bounds(family.truth):
            for kind in kinds:
                sizes = [n for n in GUARD_SWEEPS[kind]
                         if n >= 4 or not (family.truth[2] or bound[2])]
                out.append(grade(family, kind, sizes, bound))
    return out
