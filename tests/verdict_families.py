# ruff: noqa
"""The held-out verdict battery's generator, copied as written by its author (a tester who had
not seen the verdict code), so the tests run the same families, sweeps, truths and grades.

Each check feeds ``pram.check`` an exact integer count family of known asymptotic order over
one of 18 kinds of sweep, against a bound whose relation to the family (tight, loose by a
factor, exceeded by a factor) is known by construction, and grades it RIGHT, WRONG-VERDICT
(a confident holds/exceeded that is false), WRONG-TIGHT (tight or loose-by claimed wrongly),
UNDETERMINED or ERROR; each check is ``decidable`` or ``marginal`` (the sweep cannot show the
difference; "invisible" ones change law only past the largest size). Only the public API is
used. Kept verbatim (no lint) so that it stays the tester's code, not ours.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
import traceback
from fractions import Fraction as Fr

import numpy as np

import pram
from pram import Formula

DEFAULT_SEED = 18
FLOAT_EXACT = 2**53          # every count is kept exactly representable as a float


# --------------------------------------------------------------------------------------------
# exact integer logs
# --------------------------------------------------------------------------------------------

def flog2(n: int) -> int:
    return n.bit_length() - 1


def clog2(n: int) -> int:
    return (n - 1).bit_length()


def is_pow2(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


def Lb(n: float) -> float:
    """The log used in bound formulas: log2(n), kept >= 1 so a bound is never 0."""
    return math.log2(max(n, 2))


def LLb(n: float) -> float:
    return math.log2(max(Lb(n), 2))


# --------------------------------------------------------------------------------------------
# orders: (a, b, c) means n^a L^b (log L)^c
# --------------------------------------------------------------------------------------------

def cmp_order(x, y) -> int:
    for p, q in zip(x, y):
        if p != q:
            return -1 if p < q else 1
    return 0


def order_value(o, n) -> float:
    a, b, c = o
    return float(n) ** float(a) * Lb(n) ** float(b) * LLb(n) ** float(c)


def fmt_exp(e) -> str:
    e = Fr(e)
    if e.denominator == 1:
        return str(e.numerator)
    return f"{float(e):g}"


def order_text(o, var="n") -> str:
    a, b, c = o
    parts = []
    if a != 0:
        parts.append(var if a == 1 else f"{var}^{fmt_exp(a)}")
    if b != 0:
        parts.append(f"log2({var})" if b == 1 else f"log2({var})^{fmt_exp(b)}")
    if c != 0:
        parts.append(f"log2(log2({var}))" if c == 1 else f"log2(log2({var}))^{fmt_exp(c)}")
    return " ".join(parts) if parts else "1"


def factor_text(o) -> str:
    a, b, c = o
    num, den = [], []
    for e, name in ((a, "n"), (b, "log"), (c, "loglog")):
        if e == 0:
            continue
        tgt = num if e > 0 else den
        e = abs(Fr(e))
        tgt.append(name if e == 1 else f"{name}^{fmt_exp(e)}")
    s = " ".join(num) if num else "1"
    if den:
        s += "/" + " ".join(den)
    return s


def make_bound(o) -> Formula:
    a, b, c = (float(x) for x in o)

    def ev(s, a=a, b=b, c=c):
        n = s["n"]
        return float(n) ** a * Lb(n) ** b * LLb(n) ** c

    return Formula(order_text(o), ev)


# --------------------------------------------------------------------------------------------
# parsing Check.loose_by into a factor (a, b, c)
# --------------------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"^(?P<base>n|N|s|log|L|loglog|lglg|sqrt\(n\)|sqrt\(log\)|sqrtn|sqrtlog)"
    r"(?:\^\(?(?P<exp>-?\d+(?:\.\d+)?(?:/\d+)?)\)?)?$")


def parse_factor(text):
    """'log' -> (0,1,0); 'n/log^3' -> (1,-3,0); 'n^0.5' -> (0.5,0,0); None if not understood."""
    if text is None:
        return None
    t = str(text).strip().lower()
    for sup, rep in (("\u00b2", "^2"), ("\u00b3", "^3"), ("\u2074", "^4"), ("\u00bd", "^0.5"),
                     ("\u221a", "sqrt"), ("\u2009", " ")):
        t = t.replace(sup, rep)
    t = re.sub(r"\^\(\s*(-?\d+)\s*/\s*(\d+)\s*\)", lambda m: "^" + repr(int(m.group(1)) / int(m.group(2))), t)
    t = re.sub(r"log2?\s*\(\s*log2?\s*\(?\s*n\s*\)?\s*\)", "loglog", t)
    t = re.sub(r"log2?\s*\(\s*n\s*\)", "log", t)
    t = re.sub(r"log2?\s+log2?\s+n\b", "loglog", t)
    t = re.sub(r"log2?\s+n\b", "log", t)
    t = re.sub(r"log2?\s*\^\s*([\d.]+)\s*\(\s*n\s*\)", r"log^\1", t)
    t = re.sub(r"log2?\s*\^\s*([\d.]+)\s+n(?=\s|/|$)", r"log^\1", t)
    t = re.sub(r"sqrt\s*\(\s*log\s*\)", "sqrtlog", t)
    t = re.sub(r"\bl\b", "log", t)
    t = t.replace("log log", "loglog").replace("log(log)", "loglog").replace("log2", "log")
    t = t.replace("·", " ").replace("*", " ").replace("sqrt n", "sqrtn").replace("sqrt log", "sqrtlog")
    t = re.sub(r"\s*/\s*", "/", t)
    parts = t.split("/")
    total = [0.0, 0.0, 0.0]
    for k, part in enumerate(parts):
        sign = 1 if k == 0 else -1
        for tok in part.split():
            if tok == "1":
                continue
            m = _TOKEN.match(tok)
            if not m:
                return None
            base, exp = m.group("base"), m.group("exp")
            e = float(Fr(exp)) if exp else 1.0
            if base in ("n", "s"):
                total[0] += sign * e
            elif base in ("log", "l"):
                total[1] += sign * e
            elif base in ("loglog", "lglg"):
                total[2] += sign * e
            elif base in ("sqrt(n)", "sqrtn"):
                total[0] += sign * 0.5 * e
            elif base in ("sqrt(log)", "sqrtlog"):
                total[1] += sign * 0.5 * e
    return tuple(total)


# --------------------------------------------------------------------------------------------
# families
# --------------------------------------------------------------------------------------------

class Family:
    def __init__(self, template, text, f, order, lead, *, exact=False, nterms=1, lpow=0,
                 start=0, invisible=False, lname=None, lfun=None):
        self.template, self.text, self.f, self.order, self.lead = template, text, f, order, lead
        self.exact, self.nterms, self.lpow = exact, nterms, lpow
        self.start, self.invisible, self.lname, self.lfun = start, invisible, lname, lfun


class Ctx:
    def __init__(self, sizes, rng):
        self.sizes = sorted(set(sizes))
        self.rng = rng
        self.pow2 = all(is_pow2(n) for n in self.sizes)
        self.nmin, self.nmax = self.sizes[0], self.sizes[-1]

    def quantile_size(self, q):
        return self.sizes[min(len(self.sizes) - 1, int(len(self.sizes) * q))]


def lflavour(ctx, force=None):
    """The integer log a family is written in: exact on powers of two, floor/ceil otherwise."""
    kind = force
    if kind is None:
        kind = "L" if ctx.pow2 else ctx.rng.choice(["floor", "ceil", "ceil1"])
    if kind == "L":
        return "log2(n)", flog2
    if kind == "floor":
        return "floor(log2 n)", flog2
    if kind == "ceil":
        return "ceil(log2 n)", clog2
    return "ceil(log2(n+1))", lambda n: clog2(n + 1)


def small_rat(rng, lo=1, hi=12, dens=(1, 1, 1, 2, 3, 4, 6)):
    return Fr(rng.randint(lo, hi), rng.choice(dens))


def poly_family(ctx, template, terms, lname, lfun, *, order_log=None):
    """terms: [(coef, a, b)] in n^a Lx^b, the first the leading one (a, b ints)."""
    terms = [t for t in terms if t[0] != 0]
    def exact_value(n):
        L = lfun(n)
        return sum(c * Fr(n) ** a * Fr(L) ** b for c, a, b in terms)

    vals = [exact_value(n) for n in ctx.sizes]
    if any(v < 0 for v in vals):
        return None
    integral = all(v.denominator == 1 for v in vals)

    def f(n):
        return math.floor(exact_value(n))

    c0, a0, b0 = terms[0]
    lead = lambda n, c0=c0, a0=a0, b0=b0: float(c0) * float(n) ** a0 * float(max(lfun(n), 0)) ** b0
    pieces = []
    for c, a, b in terms:
        s = ("-" if c < 0 else "+") + " "
        mag = abs(c)
        cs = "" if mag == 1 and (a or b) else (str(mag) if mag.denominator == 1 else f"({mag})")
        body = order_text((a, 0, 0)) if a else ""
        if b:
            body = (body + " " if body else "") + ("L" if b == 1 else f"L^{b}")
        if not body:
            body = ""
        pieces.append(s + (cs + (" " if cs and body else "") + body if (cs or body) else "1"))
    text = " ".join(pieces).lstrip("+ ").strip()
    if text.startswith("- "):
        text = "-" + text[2:]
    if not integral:
        text = f"floor({text})"
    uses_l = any(b for _, _, b in terms)
    if uses_l:
        text += f", L = {lname}"
    return Family(template, text, f, (Fr(a0), Fr(b0), Fr(0)), lead, exact=integral,
                  nterms=len(terms), lpow=max(b for _, _, b in terms),
                  lname=lname if uses_l else None, lfun=lfun)


# each template: ctx -> Family | None

def t_lin(ctx):
    r = ctx.rng
    return poly_family(ctx, "lin", [(Fr(r.randint(1, 9)), 1, 0), (Fr(r.randint(-3, 9)), 0, 0)],
                       None, flog2)


def t_quad(ctx):
    r = ctx.rng
    return poly_family(ctx, "quad", [(small_rat(r, 1, 5, (1, 2)), 2, 0),
                                     (Fr(r.randint(-1, 6)), 1, 0), (Fr(r.randint(0, 5)), 0, 0)],
                       None, flog2)


def t_cubic(ctx):
    r = ctx.rng
    return poly_family(ctx, "cubic", [(Fr(r.randint(1, 3)), 3, 0), (Fr(r.randint(0, 4)), 2, 0)],
                       None, flog2)


def t_nL(ctx):
    r = ctx.rng
    ln, lf = lflavour(ctx)
    return poly_family(ctx, "nL", [(small_rat(r, 1, 8, (1, 2)), 1, 1), (Fr(r.randint(-1, 7)), 1, 0),
                                   (Fr(r.randint(0, 9)), 0, 0)], ln, lf)


def t_nL2(ctx):
    r = ctx.rng
    ln, lf = lflavour(ctx)
    return poly_family(ctx, "nL2", [(small_rat(r, 1, 4, (1, 2)), 1, 2), (Fr(r.randint(0, 9)), 1, 1)],
                       ln, lf)


def t_merge_nL3(ctx):
    ln, lf = lflavour(ctx)
    return poly_family(ctx, "nL3/18", [(Fr(1, 18), 1, 3), (Fr(47, 18), 1, 1), (Fr(-8, 3), 1, 0)],
                       ln, lf)


def t_polylog_time(ctx):
    r = ctx.rng
    ln, lf = lflavour(ctx)
    return poly_family(ctx, "L^2+7L+7", [(Fr(1), 0, 2), (Fr(r.choice([7, 3, 1])), 0, 1),
                                         (Fr(7), 0, 0)], ln, lf)


def t_L3(ctx):
    ln, lf = lflavour(ctx)
    return poly_family(ctx, "L^3+L", [(Fr(1), 0, 3), (Fr(1), 0, 1)], ln, lf)


def t_clog(ctx):
    ln, lf = lflavour(ctx, force="ceil1")
    return poly_family(ctx, "ceil(log2(n+1))", [(Fr(1), 0, 1)], ln, lf)


def t_n2L(ctx):
    r = ctx.rng
    ln, lf = lflavour(ctx)
    return poly_family(ctx, "n^2 L", [(Fr(r.randint(1, 3)), 2, 1), (Fr(r.randint(1, 20)), 1, 0)],
                       ln, lf)


def t_falling(ctx):
    ln, lf = lflavour(ctx)
    return poly_family(ctx, "n^2/4+3nL-7", [(Fr(1, 4), 2, 0), (Fr(3), 1, 1), (Fr(-7), 0, 0)], ln, lf)


def t_hidden_lin(ctx):
    return poly_family(ctx, "n^2+1e6 n", [(Fr(1), 2, 0), (Fr(10**6), 1, 0)], None, flog2)


def t_hidden_nL(ctx):
    ln, lf = lflavour(ctx)
    return poly_family(ctx, "n^2+1000nL", [(Fr(1), 2, 0), (Fr(1000), 1, 1)], ln, lf)


def t_bigconst(ctx):
    return poly_family(ctx, "1e6 n", [(Fr(10**6), 1, 0)], None, flog2)


def t_const(ctx):
    return poly_family(ctx, "const", [(Fr(ctx.rng.choice([1, 4, 7])), 0, 0)], None, flog2)


def t_ratmix(ctx):
    r = ctx.rng
    ln, lf = lflavour(ctx)
    for _ in range(50):
        a = r.choice([1, 1, 2])
        b = r.choice([0, 1, 2])
        lower = [(a, b - 1), (a - 1, b + 1), (a - 1, b), (a, b - 2), (0, 0)]
        lower = sorted({(x, y) for x, y in lower if x >= 0 and y >= 0 and (x, y) != (a, b)})
        k = r.randint(1, min(3, len(lower)))
        chosen = r.sample(lower, k)
        terms = [(small_rat(r, 1, 9, (1, 2, 3, 5, 7)), a, b)]
        for x, y in chosen:
            c = small_rat(r, 1, 20, (1, 2, 3, 4, 9)) * r.choice([1, 1, -1])
            terms.append((c, x, y))
        terms.sort(key=lambda t: (-t[1], -t[2]))
        fam = poly_family(ctx, "ratmix", terms, ln, lf)
        if fam is not None and all(fam.f(n) > 0 for n in ctx.sizes):
            return fam
    return None


def t_n15(ctx):
    f = lambda n: math.isqrt(n ** 3)
    return Family("floor(n^1.5)", "floor(n^1.5)", f, (Fr(3, 2), Fr(0), Fr(0)),
                  lambda n: float(n) ** 1.5)


def t_n25(ctx):
    f = lambda n: math.isqrt(n ** 5)
    return Family("floor(n^2.5)", "floor(n^2.5)", f, (Fr(5, 2), Fr(0), Fr(0)),
                  lambda n: float(n) ** 2.5)


def t_isqrt(ctx):
    c = ctx.rng.randint(1, 5)
    return Family("isqrt", f"{c} isqrt(n)", lambda n: c * math.isqrt(n), (Fr(1, 2), Fr(0), Fr(0)),
                  lambda n: c * math.sqrt(n))


def t_sqrtn_L(ctx):
    ln, lf = lflavour(ctx)
    return Family("isqrt(n) L", f"isqrt(n) L, L = {ln}", lambda n: math.isqrt(n) * lf(n),
                  (Fr(1, 2), Fr(1), Fr(0)), lambda n: math.sqrt(n) * max(lf(n), 0))


def t_n15L(ctx):
    ln, lf = lflavour(ctx)
    return Family("floor(n^1.5) L", f"floor(n^1.5) L, L = {ln}", lambda n: math.isqrt(n ** 3) * lf(n),
                  (Fr(3, 2), Fr(1), Fr(0)), lambda n: n ** 1.5 * max(lf(n), 0))


def t_n_sqrtL(ctx):
    ln, lf = lflavour(ctx)
    c = ctx.rng.randint(1, 4)
    return Family("n sqrt(L)", f"{c} floor(n sqrt(L)), L = {ln}",
                  lambda n: c * math.isqrt(lf(n) * n * n), (Fr(1), Fr(1, 2), Fr(0)),
                  lambda n: c * n * math.sqrt(max(lf(n), 0)))


def t_sqrtL_time(ctx):
    return Family("isqrt(L)", "3 isqrt(floor(log2 n)) + 2", lambda n: 3 * math.isqrt(flog2(n)) + 2,
                  (Fr(0), Fr(1, 2), Fr(0)), lambda n: 3 * math.sqrt(max(flog2(n), 0)))


def t_loglog_time(ctx):
    f = lambda n: 2 * clog2(max(1, clog2(n))) + 2
    return Family("2ceil(log2 L)+2", "2 ceil(log2(ceil(log2 n))) + 2", f, (Fr(0), Fr(0), Fr(1)),
                  lambda n: 2 * math.log2(max(math.log2(max(n, 2)), 1)))


def t_nloglog(ctx):
    f = lambda n: n * clog2(max(1, clog2(n)))
    return Family("n ceil(log2 L)", "n ceil(log2(ceil(log2 n)))", f, (Fr(1), Fr(0), Fr(1)),
                  lambda n: n * math.log2(max(math.log2(max(n, 2)), 1)))


def t_n_over_L(ctx):
    c = ctx.rng.randint(2, 8)
    ln, lf = lflavour(ctx)
    f = lambda n: (c * n) // max(lf(n), 1)
    return Family("n/L", f"floor({c} n / max(L,1)), L = {ln}", f, (Fr(1), Fr(-1), Fr(0)),
                  lambda n: c * n / max(lf(n), 1))


def t_floor_nlogn(ctx):
    f = lambda n: math.floor(n * math.log2(n)) if n > 1 else 0
    ex = ctx.pow2
    return Family("floor(n log2 n)", "floor(n log2(n)) (true log)", f, (Fr(1), Fr(1), Fr(0)),
                  lambda n: n * math.log2(max(n, 1)), exact=ex, nterms=1, lpow=1 if ex else 0)


def t_padded(ctx):
    f = lambda n: 2 * (1 << clog2(n)) - 2 if n > 1 else 0
    return Family("padded scan", "2 * 2^ceil(log2 n) - 2", f, (Fr(1), Fr(0), Fr(0)),
                  lambda n: 2.0 * (1 << clog2(n)), exact=ctx.pow2, nterms=2)


def t_mergesort(ctx):
    f = lambda n: n * clog2(n) - (1 << clog2(n)) + 1
    return Family("mergesort cmp", "n ceil(log2 n) - 2^ceil(log2 n) + 1", f, (Fr(1), Fr(1), Fr(0)),
                  lambda n: n * math.log2(max(n, 2)), exact=ctx.pow2, nterms=3, lpow=1)


def piecewise(ctx, template, low, high, high_text, low_text, order, lead, start, invisible=False):
    f = lambda n: low(n) if n < start else high(n)
    return Family(template, f"{low_text} for n < {start}, {high_text} from then on", f, order, lead,
                  start=start, invisible=invisible)


def t_piece_up(ctx):
    c = ctx.rng.randint(2, 9)
    S = ctx.quantile_size(1 / 3)
    ln, lf = lflavour(ctx)
    return piecewise(ctx, "piece up", lambda n: c * n * lf(n) + n, lambda n: n * n,
                     "n^2", f"{c} n L + n (L = {ln})", (Fr(2), Fr(0), Fr(0)), lambda n: float(n * n), S)


def t_piece_down(ctx):
    c = ctx.rng.randint(2, 9)
    S = ctx.quantile_size(1 / 3)
    ln, lf = lflavour(ctx)
    return piecewise(ctx, "piece down", lambda n: n * n // 2 + 1, lambda n: c * n * max(lf(n), 1),
                     f"{c} n max(L,1) (L = {ln})", "floor(n^2/2) + 1", (Fr(1), Fr(1), Fr(0)),
                     lambda n: c * n * max(lf(n), 1), S)


def t_piece_const(ctx):
    S = ctx.quantile_size(ctx.rng.choice([1 / 3, 1 / 2]))
    return piecewise(ctx, "piece const", lambda n: 3 * n, lambda n: 5 * n + 2, "5n + 2", "3n",
                     (Fr(1), Fr(0), Fr(0)), lambda n: 5.0 * n, S)


def t_zero_prefix(ctx):
    S = 128 if ctx.nmin < 128 and sum(1 for n in ctx.sizes if n >= 128) >= 6 else ctx.quantile_size(1 / 3)
    ln, lf = lflavour(ctx)
    return piecewise(ctx, "zero prefix", lambda n: 0, lambda n: n * max(lf(n), 1),
                     f"n max(L,1) (L = {ln})", "0", (Fr(1), Fr(1), Fr(0)),
                     lambda n: n * max(lf(n), 1), S)


def t_zero_prefix_time(ctx):
    S = ctx.quantile_size(1 / 4)
    ln, lf = lflavour(ctx)
    return piecewise(ctx, "zero prefix time", lambda n: 0, lambda n: lf(n) ** 2 + 1,
                     f"L^2 + 1 (L = {ln})", "0", (Fr(0), Fr(2), Fr(0)), lambda n: float(lf(n) ** 2), S)


def t_invisible(ctx):
    """A law that changes only past the largest size swept: 4 n L + n up to 2 n_max, n^2 after."""
    S = 2 * ctx.nmax
    ln, lf = lflavour(ctx)
    return piecewise(ctx, "invisible switch", lambda n: 4 * n * lf(n) + n, lambda n: n * n,
                     "n^2", f"4 n L + n (L = {ln})", (Fr(2), Fr(0), Fr(0)), lambda n: float(n * n),
                     S, invisible=True)


TEMPLATES = [t_lin, t_quad, t_cubic, t_nL, t_nL2, t_merge_nL3, t_polylog_time, t_L3, t_clog,
             t_n2L, t_falling, t_hidden_lin, t_hidden_nL, t_bigconst, t_const, t_ratmix, t_ratmix,
             t_n15, t_n25, t_isqrt, t_sqrtn_L, t_n15L, t_n_sqrtL, t_sqrtL_time, t_loglog_time,
             t_nloglog, t_n_over_L, t_floor_nlogn, t_padded, t_mergesort, t_piece_up, t_piece_down,
             t_piece_const, t_zero_prefix, t_zero_prefix_time]

# the pairs the issue names, checked on every sweep besides the random draws
FORCED = {
    "t_bigconst": ("loose by n",),                               # 1e6 n vs n^2
    "t_falling": ("tight",),                                     # n^2/4 + 3 n L - 7 vs n^2
    "t_nL2": ("loose by n^0.1/log^2 (n L^2 vs n^1.1)",),         # n L^2 vs n^1.1
    "t_zero_prefix": ("tight",),                                 # 0 below 2^7, n L after, vs n L
    "t_cubic": ("tight",),                                       # n^3 vs n^3
    "t_clog": ("tight",),                                        # ceil(log2(n+1)) vs log n
    "t_loglog_time": ("tight",),                                 # 2 ceil(log2 L) + 2 vs log log n
    "t_lin": ("tight",),                                         # 2n-like vs n
}

# delta = bound order - family order
DELTAS = [
    ("tight", (0, 0, 0), 3.0),
    ("loose by log", (0, 1, 0), 2.0),
    ("loose by log^2", (0, 2, 0), 1.0),
    ("loose by n", (1, 0, 0), 1.0),
    ("loose by sqrt n", (Fr(1, 2), 0, 0), 1.0),
    ("loose by n^0.1", (Fr(1, 10), 0, 0), 0.7),
    ("exceeded by log", (0, -1, 0), 2.0),
    ("exceeded by n^0.1", (Fr(-1, 10), 0, 0), 1.0),
    ("exceeded by n", (-1, 0, 0), 1.0),
    ("exceeded by sqrt n", (Fr(-1, 2), 0, 0), 0.7),
    ("exceeded by sqrt log", (0, Fr(-1, 2), 0), 0.5),
    ("loose by n^0.1/log^2 (n L^2 vs n^1.1)", (Fr(1, 10), -2, 0), 0.5),
    ("exceeded by n^0.1/log (n L vs n^0.9 L^2)", (Fr(-1, 10), 1, 0), 0.4),
]


# --------------------------------------------------------------------------------------------
# sweeps
# --------------------------------------------------------------------------------------------

def sweeps(rng):
    irregular = sorted({int(round(math.exp(rng.uniform(math.log(10), math.log(60000)))))
                        for _ in range(9)})
    shuffled = [2 ** k for k in range(4, 13)] * 2
    rng.shuffle(shuffled)
    return [
        ("consecutive 2..20", list(range(2, 21))),
        ("consecutive 1..32", list(range(1, 33))),
        ("consecutive 50..70", list(range(50, 71))),
        ("powers of two 2^3..2^14", [2 ** k for k in range(3, 15)]),
        ("powers of two 2^1..2^8", [2 ** k for k in range(1, 9)]),
        ("3*2^k 12..24576", [3 * 2 ** k for k in range(2, 14)]),
        ("4^k 4..65536", [4 ** k for k in range(1, 9)]),
        ("2^k-1 7..16383", [2 ** k - 1 for k in range(3, 15)]),
        ("2^k+1 5..8193", [2 ** k + 1 for k in range(2, 14)]),
        ("four sizes 2^6..2^12", [2 ** 6, 2 ** 8, 2 ** 10, 2 ** 12]),
        ("five sizes 100..10000", [100, 316, 1000, 3162, 10000]),
        ("six sizes 2^5..2^15 odd k", [2 ** k for k in (5, 7, 9, 11, 13, 15)]),
        ("irregular random (seeded)", irregular),
        ("irregular fixed", [7, 19, 45, 101, 333, 1000, 2047, 4097, 10001]),
        ("large only 2^16..2^22", [2 ** k for k in range(16, 23)]),
        ("decimal 10..10^6", [10 ** k for k in range(1, 7)]),
        ("powers of two 2^4..2^13, descending", [2 ** k for k in range(13, 3, -1)]),
        ("2^4..2^12 each twice, shuffled", shuffled),
    ]


def sizes_text(sizes):
    s = sorted(set(sizes))
    if len(s) > 3 and all(b - a == 1 for a, b in zip(s, s[1:])):
        return f"{s[0]}..{s[-1]}"
    if len(s) > 3 and all(is_pow2(n) for n in s):
        return "2^{" + ",".join(str(flog2(n)) for n in s) + "}"
    if len(s) > 12:
        return ",".join(str(n) for n in s[:4]) + ",...," + ",".join(str(n) for n in s[-2:]) + f" ({len(s)} sizes)"
    return ",".join(str(n) for n in s)


# --------------------------------------------------------------------------------------------
# truth and decidability
# --------------------------------------------------------------------------------------------

def truth_of(delta):
    c = cmp_order(delta, (0, 0, 0))
    return "holds-tight" if c == 0 else ("holds-loose" if c > 0 else "exceeded")


def nearest_alternative(fam):
    a, b, c = fam.order
    if c != 0:
        return (0, 0, 1)
    if Fr(b).denominator != 1:
        return (0, Fr(1, 2), 0)
    return (0, 1, 0)


def classify(fam, sizes, delta, truth):
    """decidable / marginal, with the reason, from what the sweep can show."""
    distinct = sorted(set(sizes))
    if fam.invisible:
        return "marginal", "the law changes only past the largest size swept (invisible)", 0.0
    if len(distinct) < 5:
        return "marginal", "fewer than five sizes", 0.0
    if fam.exact and fam.start <= distinct[0] and len(distinct) >= fam.nterms + 3:
        lf = fam.lfun or flog2
        lvals = len({lf(n) for n in distinct}) if fam.lpow else 99
        if lvals >= fam.lpow + 3:
            return "decidable", "exact law with sizes to spare", float("inf")
    regime = [n for n in distinct if n >= fam.start and fam.f(n) > 0]
    if len(regime) < 5 or len(regime) < len(distinct) / 2:
        return "marginal", f"only {len(regime)} sizes in the asymptotic regime", 0.0
    top = regime[-1]
    lead = fam.lead(top)
    if lead <= 0 or abs(fam.f(top) - lead) > 0.5 * lead:
        return "marginal", "lower-order terms still dominant at the largest size", 0.0
    nq = regime[len(regime) // 3]
    if truth == "holds-tight":
        alt = nearest_alternative(fam)
        sep = order_value(alt, top) / order_value(alt, nq)
        need = 1.5
    else:
        g = delta if truth == "holds-loose" else tuple(-x for x in delta)
        sep = order_value(g, top) / order_value(g, nq)
        need = 1.9
    if sep < need:
        return "marginal", f"separating factor changes only x{sep:.2f} over the sweep's upper part", sep
    return "decidable", f"separating factor changes x{sep:.2f}", sep


# --------------------------------------------------------------------------------------------
# running and grading one check
# --------------------------------------------------------------------------------------------

def describe_law(c):
    try:
        law = c.law
        return law.describe() if law is not None else None
    except Exception as e:  # noqa: BLE001
        return f"(law unavailable: {type(e).__name__})"


def law_mispredicts(c, fam, sizes):
    """If the check's law calls itself exact, does it predict two larger sizes of the family?"""
    try:
        law = c.law
        if law is None or not getattr(law, "exact", False):
            return None
        nmax = max(sizes)
        probes = grid_probes(sizes)
        if fam is not None and fam.start > nmax:
            return None
        bad = []
        for p in probes:
            want = fam.f(p)
            got = law.predict(p)
            if got is None or abs(float(got) - want) > 1e-6 * max(1.0, abs(want)):
                bad.append((p, want, got))
        return bad or None
    except Exception:  # noqa: BLE001
        return None


def grid_probes(sizes):
    """Two sizes beyond the sweep, on the sweep's own grid (c*2^k, 2^k-1, 2^k+1, 10^k, ...)."""
    s = sorted(set(sizes))
    nmax = s[-1]
    if len(s) >= 2 and s[-1] - s[-2] == 1:
        return [nmax + 1, 2 * nmax + 1]
    odd = {n >> ((n & -n).bit_length() - 1) for n in s}
    if len(odd) == 1:
        return [2 * nmax, 4 * nmax]
    if all(is_pow2(n + 1) for n in s):
        return [2 * nmax + 1, 4 * nmax + 3]
    if all(n > 1 and is_pow2(n - 1) for n in s):
        return [2 * nmax - 1, 4 * nmax - 3]
    if all(str(n).rstrip("0") == "1" for n in s):
        return [10 * nmax, 100 * nmax]
    return [2 * nmax + 1, 4 * nmax + 3]


def grade(c, truth, true_factor):
    v = getattr(c, "verdict", None)
    tight = getattr(c, "tight", None)
    lb = getattr(c, "loose_by", None)
    note = ""
    if v == "undetermined":
        return "UNDETERMINED", note
    if v not in ("holds", "exceeded"):
        return "ERROR", f"unknown verdict {v!r}"
    if truth == "exceeded":
        return ("RIGHT" if v == "exceeded" else "WRONG-VERDICT"), note
    if v == "exceeded":
        return "WRONG-VERDICT", note
    # holds, truth holds
    if truth == "holds-tight":
        if tight is False:
            return "WRONG-TIGHT", f"called loose (by {lb}) but the bound is tight"
        if tight is None:
            note = "tightness not stated"
        return "RIGHT", note
    # holds-loose
    if tight is True:
        return "WRONG-TIGHT", f"called tight but the bound is loose by {factor_text(true_factor)}"
    if lb:
        parsed = parse_factor(lb)
        if parsed is None:
            return "RIGHT", f"loose_by {lb!r} not parsed, factor not graded"
        if any(abs(p - float(t)) > 0.02 for p, t in zip(parsed, true_factor)):
            return "WRONG-TIGHT", f"loose by {lb!r}, truly by {factor_text(true_factor)}"
    elif tight is None:
        note = "tightness not stated"
    return "RIGHT", note


def run_check(measure, formula, points):
    t0 = time.time()
    try:
        c = pram.check(measure, formula, points)
        return c, None, time.time() - t0
    except Exception as e:  # noqa: BLE001
        return None, f"{type(e).__name__}: {e}", time.time() - t0


def synthetic_checks(seed, kinds_filter=None):
    rng = random.Random(seed)
    weights = [w for _, _, w in DELTAS]
    records = []
    for kind, sizes in sweeps(rng):
        if kinds_filter and not any(k in kind for k in kinds_filter):
            continue
        for tmpl in TEMPLATES:
            ctx = Ctx(sizes, rng)
            fam = tmpl(ctx)
            if fam is None:
                continue
            if max(fam.f(n) for n in sizes) > FLOAT_EXACT:
                continue
            # one or two bounds per family: weighted draw among the admissible deltas
            admissible = []
            for name, d, w in DELTAS:
                bo = tuple(Fr(x) + Fr(y) for x, y in zip(fam.order, d))
                if bo[0] < 0 or bo[2] < 0 or (bo[0] == 0 and bo[1] < 0):
                    continue
                # a negative log power in a bound only for "n^a / log n"-style exceeded bounds
                if bo[1] < 0 and not name.startswith("exceeded by") or (bo[1] < 0 and "/" in name):
                    continue
                admissible.append((name, d, w, bo))
            if not admissible:
                continue
            ndraw = 2 if rng.random() < 0.35 else 1
            picked = [a for a in admissible if a[0] in FORCED.get(tmpl.__name__, ())]
            for _ in range(ndraw):
                choice = rng.choices(admissible, weights=[a[2] for a in admissible])[0]
                if choice not in picked:
                    picked.append(choice)
            for name, d, _, bo in picked:
                records.append(one_synthetic(kind, sizes, fam, name, d, bo))
        # invisible switch: one per a few sweeps
        if kind in ("powers of two 2^3..2^14", "consecutive 2..20", "irregular fixed",
                    "3*2^k 12..24576"):
            ctx = Ctx(sizes, rng)
            fam = t_invisible(ctx)
            d = (-1, 1, 0)   # bound n L vs true order n^2: exceeded, invisibly
            bo = (Fr(1), Fr(1), Fr(0))
            records.append(one_synthetic(kind, sizes, fam, "exceeded by n/log (invisible)", d, bo))
    return records


def one_synthetic(kind, sizes, fam, dname, d, bo):
    d = tuple(Fr(x) for x in d)
    truth = truth_of(d)
    cls, why, sep = classify(fam, sizes, d, truth)
    formula = make_bound(bo)
    points = [({"n": n}, fam.f(n)) for n in sizes]
    c, err, secs = run_check("work", formula, points)
    rec = {
        "part": "synthetic", "sweep": kind, "sizes": list(sizes), "sizes_text": sizes_text(sizes),
        "family": fam.text, "template": fam.template, "family_order": order_text(fam.order),
        "bound": formula.text, "relation": dname, "truth": truth,
        "true_factor": factor_text(d) if truth == "holds-loose" else None,
        "class": cls, "class_reason": why, "separation": sep, "invisible": fam.invisible,
        "exact_family": fam.exact, "seconds": round(secs, 4),
        "counts": [fam.f(n) for n in sizes],
    }
    if err:
        rec.update(grade="ERROR", note=err, verdict=None, tight=None, loose_by=None, law=None,
                   summary=None, reason=None)
        return rec
    g, note = grade(c, truth, d)
    rec.update(grade=g, note=note, verdict=c.verdict, tight=c.tight,
               loose_by=getattr(c, "loose_by", None), summary=getattr(c, "summary", None),
               law=describe_law(c), reason=str(getattr(c, "reason", ""))[:400])
    bad = law_mispredicts(c, fam, sizes)
    rec["law_mispredicts"] = [[p, w, (float(g_) if g_ is not None else None)] for p, w, g_ in bad] if bad else None
    return rec



# ---- tallies ----

GRADES = ["RIGHT", "WRONG-VERDICT", "WRONG-TIGHT", "UNDETERMINED", "ERROR"]


def tally(recs):
    t = {"checks": len(recs), "decidable": 0, "marginal": 0}
    for g in GRADES:
        t[g] = 0
        t[g + " (decidable)"] = 0
        t[g + " (marginal)"] = 0
    t["WRONG-VERDICT (marginal, excluding invisible)"] = 0
    for r in recs:
        t[r["class"]] += 1
        t[r["grade"]] += 1
        t[f"{r['grade']} ({r['class']})"] += 1
        if r["grade"] == "WRONG-VERDICT" and r["class"] == "marginal" and not r.get("invisible"):
            t["WRONG-VERDICT (marginal, excluding invisible)"] += 1
    t["factor not parsed"] = sum(1 for r in recs if "not parsed" in (r.get("note") or ""))
    d = t["decidable"]
    t["undetermined rate on decidable"] = round(t["UNDETERMINED (decidable)"] / d, 4) if d else None
    t["law mispredicts (exact law wrong at larger sizes)"] = sum(1 for r in recs if r.get("law_mispredicts"))
    return t


def wrong_line(r):
    said = r.get("summary") or r.get("verdict")
    if r["grade"] == "ERROR":
        said = r.get("note")
    s = (f"[{r['grade']}, {r['class']}] sweep {r['sweep']} (n = {r['sizes_text']}): "
         f"{r['family']}  vs  O({r['bound']})  truth {r['truth']}"
         + (f" (by {r['true_factor']})" if r.get("true_factor") else "")
         + f"\n      check said: {said}; tight={r.get('tight')} loose_by={r.get('loose_by')!r}"
         + f"\n      law: {r.get('law')}")
    if r.get("note"):
        s += f"\n      note: {r['note']}"
    if r["class"] == "marginal" and r.get("class_reason"):
        s += f"\n      marginal because: {r['class_reason']}"
    if r.get("law_mispredicts"):
        s += f"\n      exact law mispredicts: {r['law_mispredicts']}"
    return s
