"""A bound's formula from its text (:func:`formula`), and a declaration's bounds by measure.

Sizes (``n``), numbers, ``+ - * /``, ``^`` for powers, ``log2(...)`` and ``sqrt(...)``; the text
is parsed and checked part by part, never evaluated by ``eval``.
"""

from __future__ import annotations

from collections.abc import Mapping

from pram.errors import InputError
from pram.laws.formula import Formula, formula

#: The measures a bound may constrain and a sweep finds the law of: the ledger's work and
#: time, and its rounds (the textbooks' steps, :mod:`pram.engine.rounds`) and their work.
MEASURES = ("work", "time", "rounds", "round_work")

def bounds_of(given: Mapping[str, Formula | str] | None) -> dict[str, Formula]:
    """Bounds keyed by measure (``work``, ``time``, ``rounds``, ``round_work``), every formula
    text turned into one; a :class:`pram.Formula` given must have a text in n that pram reads
    (its function is then held to it by every check: :meth:`pram.Formula.read`)."""
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise InputError(
            f"bounds must map a measure to a formula, e.g. {{'work': 'n^2', 'time': "
            f"'log2(n)'}} (got {type(given).__name__})"
        )
    out: dict[str, Formula] = {}
    for key, bound in given.items():
        if not isinstance(key, str) or key.split(" ")[0] not in MEASURES:
            raise InputError(
                f"bound {key!r}: a bound constrains {', '.join(MEASURES[:-1])} or "
                f"{MEASURES[-1]} (a key such as 'work' or 'work (n^2)'); rename it"
            )
        if isinstance(bound, Formula):
            try:  # shown by its text, so read by it: a label would show any verdict
                formula(bound.text)
            except InputError as error:
                raise InputError(
                    f"bound {key!r}: its text {bound.text!r} is not a formula in n that pram "
                    f"reads ({error}); a sweep shows and judges a bound by its text, so give "
                    "the text, e.g. 'n log2(n)'"
                ) from None
            out[key] = bound
        else:
            out[key] = formula(bound)
    return out


__all__ = ["MEASURES", "bounds_of", "formula"]
