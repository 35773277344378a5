"""Every bound formula of the reports, in one place and with one log.

``lg`` is ``log2`` taken as at least 1, so a formula never vanishes at tiny sizes; every
formula here, and every ratio the report prints, uses it. The size names are the entries'
(``N`` tokens of an MQAR sequence, ``n`` queries or elements, ``m`` keys, ``d`` bits per token;
with word keys a token is one word, so the formulas get d = 1).
"""

from __future__ import annotations

import math

from pram import Formula


def lg(x: float) -> float:
    """``log2(x)``, but at least 1, so that a bound's formula never vanishes at tiny sizes."""
    return math.log2(x) if x > 2 else 1.0


# ---- the paper's algorithms (Proposition H.30 and the baselines) -----------------------------

MQAR_WORK = Formula("N d log2(N)^2", lambda s: s["N"] * s["d"] * lg(s["N"]) ** 2)
MQAR_TIME = Formula("d log2(N)^2", lambda s: s["d"] * lg(s["N"]) ** 2)
MQAR_TREE_TIME = Formula("log2(d) log2(N)^2", lambda s: lg(s["d"]) * lg(s["N"]) ** 2)
SEQUENTIAL = Formula("N d log2(N)", lambda s: s["N"] * s["d"] * lg(s["N"]))
QUADRATIC = Formula("N^2 d", lambda s: s["N"] ** 2 * s["d"])
SEARCH_WORK = Formula("n d log2(m)", lambda s: s["n"] * s["d"] * lg(s["m"]))
SEARCH_TIME = Formula("d log2(n) log2(m)", lambda s: s["d"] * lg(s["n"]) * lg(s["m"]))
SORT_WORK = Formula("n d log2(n)^2", lambda s: s["n"] * s["d"] * lg(s["n"]) ** 2)
SORT_TIME = Formula("d log2(n)^2", lambda s: s["d"] * lg(s["n"]) ** 2)
PHASE_WORK = Formula("N d log2(N)", lambda s: s["N"] * s["d"] * lg(s["N"]))
PHASE_TIME = Formula("d log2(N)", lambda s: s["d"] * lg(s["N"]))
COMBINE_WORK = Formula("N log2(N)", lambda s: s["N"] * lg(s["N"]))
COMBINE_TIME = Formula("log2(N)", lambda s: lg(s["N"]))


# ---- the catalogue of classic algorithms -------------------------------------------------------

LOG = Formula("log2(n)", lambda s: lg(s["n"]))
N_LOG = Formula("n log2(n)", lambda s: s["n"] * lg(s["n"]))
LINEAR = Formula("n", lambda s: s["n"])
PAIRS = Formula("n^2", lambda s: s["n"] ** 2)
CUBE = Formula("n^3", lambda s: s["n"] ** 3)
CONSTANT = Formula("1", lambda s: 1.0)
MERGE_LOG = Formula("log2(n + m)", lambda s: lg(s["n"] + s["m"]))
MERGE_WORK = Formula(
    "(n + m) log2(n + m)", lambda s: (s["n"] + s["m"]) * lg(s["n"] + s["m"])
)
LOG_LOG = Formula("log2(log2(n))", lambda s: lg(lg(s["n"])))
N_LOG_LOG = Formula("n log2(log2(n))", lambda s: s["n"] * lg(lg(s["n"])))
LOG_SQUARED = Formula("log2(n)^2", lambda s: lg(s["n"]) ** 2)
N_LOG_SQUARED = Formula("n log2(n)^2", lambda s: s["n"] * lg(s["n"]) ** 2)
#: Connected components: n vertices, e edges.
EDGES_LOG = Formula("(n + e) log2(n)", lambda s: (s["n"] + s["e"]) * lg(s["n"]))
#: Selection of b-bit values: b counting rounds.
BITS_WORK = Formula("n b", lambda s: s["n"] * s["b"])
BITS_TIME = Formula("b log2(n)", lambda s: s["b"] * lg(s["n"]))


# ---- circuits (H.7.6): n tokens, d bits per token (8 in the bit sort) ---------------------------

#: The circuits' size and depth bounds, by their text.
CIRCUIT: dict[str, Formula] = {
    f.text: f
    for f in (
        Formula("n log2(n)^2", lambda s: s["n"] * lg(s["n"]) ** 2),
        Formula("log2(n)^2", lambda s: lg(s["n"]) ** 2),
        Formula("n log2(n)^2 d", lambda s: s["n"] * lg(s["n"]) ** 2 * s["d"], fixed={"d": 8}),
        Formula("log2(n)^2 log2(d)", lambda s: lg(s["n"]) ** 2 * lg(s["d"]), fixed={"d": 8}),
        Formula("d", lambda s: s["d"]),
        Formula("log2(d)", lambda s: lg(s["d"])),
    )
}
