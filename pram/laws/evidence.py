"""What a verdict rests on (:class:`Evidence`) and the verdict along one size (:class:`Decision`).

Both the exact laws (:mod:`pram.laws.verdicts`) and the least-squares readings
(:mod:`pram.laws.readings`) decide into these, so every check tells its story in one shape.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from pram.laws.law import Order


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
    #: For a check on means over instances: the instances at each size and the widest 95%
    #: band of a mean between them, relative to the mean (0.004: the mean is known to 0.4%).
    band: tuple[int, float] | None = None

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
            "band": None if self.band is None else {"instances": self.band[0],
                                                    "relative": self.band[1]},
        }

    def text(self) -> str:
        """The evidence in one paragraph."""
        parts = [f"{self.method}: {self.law}"]
        if self.predicted:
            what = "size" if len(self.predicted) == 1 else "sizes"
            parts.append(f"chosen without the held-out {what}, it predicted "
                         + ("that count" if len(self.predicted) == 1 else "their counts")
                         + " to the unit ("
                         + ", ".join(f"{s:g}: {v}" for s, v in self.predicted) + ")")
        if self.start is not None:
            parts.append(f"from size {self.start:g} on")
        if self.plausible:
            parts.append("orders that fit: " + ", ".join(self.plausible))
        if self.stable:
            parts.append("; ".join(self.stable))
        if self.band is not None:
            parts.append(f"means over {self.band[0]} instances, each known to within "
                         f"{100 * self.band[1]:.3g}% (95% band) at worst")
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


def advice(xs: Sequence[float]) -> str:
    """``add sizes above 2^14`` for a sweep whose largest size is at most 2^14."""
    top = max(xs)
    e = max(1, math.ceil(math.log2(top))) if top > 0 else 1
    return f"add sizes above 2^{e}"



__all__ = ["Decision", "Evidence", "advice"]
