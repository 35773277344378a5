"""Access models: which same-step accesses to one cell are allowed, and who wins a write.

Each model answers two questions through its hooks: :meth:`Model.forbids` (is this meeting of
accesses at one cell a violation?), refined for writes by :meth:`Model.forbids_writes` (are
these values, written at once, a violation?), and :meth:`Model.settle` (what does a cell
hold after several processors wrote it: the value :meth:`Model.resolve` picks, or its old
contents?). The machine asks nothing else about the model.

The models and the sources of their definitions are in docs/decisions.md ("Access models").

Every model is defined for float64 arrays too. Values compare exactly, as ``==`` does: CRCW
common (ERCW, weak, tolerant, collision+) takes writers as agreeing when their values are
equal, so ``0.0`` and ``-0.0`` agree (the lowest id's lands) and NaN agrees with nothing, not
even NaN. CRCW sum adds the values in processor-id order, one after another (never numpy's
pairwise sum), so a result is reproducible bit for bit; CRCW max and min take the greatest
and least value, and NaN if any writer wrote NaN. CRCW collision stores the collision symbol
as the real ``-2.0**63`` in a float64 array.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import cast

import numpy.typing as npt

from pram._numpy import np
from pram.errors import HonestyError, InputError
from pram.final import Fixed
from pram.memory import Flags, Words
from pram.violations import Kind

#: The collision symbol: what a cell holds after two or more processors wrote it at once
#: under CRCW collision (and under collision+ when they disagreed). The most negative word,
#: so that no count, index or sum of a program meets it by accident.
COLLISION = int(np.iinfo(np.int64).min)


class Model(metaclass=Fixed):
    """Base model: nothing is forbidden and the lowest processor id wins a write (priority)."""

    name = "crcw-priority"
    #: Whether reads take part in the conflict check at all (only EREW forbids shared reads).
    checks_reads = False
    #: Whether a write/write violation is about the values (then the report shows them).
    judges_values = False
    #: What a cell written at once becomes when no written value lands, for the conflict
    #: report's resolutions (:class:`pram.violations.Resolution`): ``"kept"`` (its old
    #: contents), ``"collision"`` (:data:`COLLISION`), or None (a written value always lands).
    resolution: str | None = None

    def forbids(self, kind: Kind, agree: bool) -> bool:
        """Whether ``kind`` at one cell is a violation (``agree``: all written values are equal)."""
        return False

    def forbids_writes(self, low: Words, high: Words) -> Flags:
        """Which cells written by two or more processors at once are violations, given the
        least (``low``) and greatest (``high``) value written to each; asked only of a model
        that :attr:`judges_values`. By default :meth:`forbids` decides, from agreement alone.
        """
        agree = low == high
        return np.where(
            agree, self.forbids(Kind.WRITE_WRITE, True), self.forbids(Kind.WRITE_WRITE, False)
        )

    def resolve(self, values: Words, starts: Words, rng: np.random.Generator) -> Words:
        """One value per cell from the writes sorted by (cell, processor id).

        ``starts`` holds the position of each cell's first write in ``values``.
        """
        return values[starts]

    def settle(
        self, values: Words, starts: Words, rng: np.random.Generator, old: Words
    ) -> tuple[Words, Flags | None]:
        """What each cell written by several processors holds after the step: the values
        that land, and which cells keep their ``old`` contents instead (None: none do).

        ``values`` and ``starts`` as for :meth:`resolve` (which this calls by default);
        ``old`` holds each cell's contents before the step (0 where undefined; a kept
        undefined cell stays undefined).
        """
        return self.resolve(values, starts, rng), None

    def __repr__(self) -> str:
        return f"<model {self.name}>"

    def __setattr__(self, name: str, value: object) -> None:
        """Refused: a machine's model is what its every step is judged by
        (``m.model.checks_reads = False`` would stop EREW's check for that machine)."""
        raise HonestyError(f"a model is fixed once made ({self.name}.{name} = ... refused); "
                           "make the machine with the model it should run: Machine('crew')")

    def __delattr__(self, name: str) -> None:
        Model.__setattr__(self, name, None)


class EREW(Model):
    """Exclusive read, exclusive write: no two processors touch one cell in one step."""

    name = "EREW"
    checks_reads = True

    def forbids(self, kind: Kind, agree: bool) -> bool:
        return True


class CREW(Model):
    """Concurrent reads are shared; writes are exclusive (a write may meet reads of the old
    value)."""

    name = "CREW"

    def forbids(self, kind: Kind, agree: bool) -> bool:
        return kind is Kind.WRITE_WRITE


class Common(Model):
    """CRCW common: concurrent writers must all write the same value."""

    name = "CRCW-common"
    judges_values = True

    def forbids(self, kind: Kind, agree: bool) -> bool:
        return kind is Kind.WRITE_WRITE and not agree


class Arbitrary(Model):
    """CRCW arbitrary: one writer wins, chosen reproducibly from the machine's seed."""

    name = "CRCW-arbitrary"

    def resolve(self, values: Words, starts: Words, rng: np.random.Generator) -> Words:
        sizes = np.diff(np.append(starts, len(values)))
        return values[starts + (rng.random(len(starts)) * sizes).astype(np.int64)]


class Priority(Model):
    """CRCW priority: the lowest processor id wins."""

    name = "CRCW-priority"


class ERCW(Model):
    """ERCW common: exclusive read, concurrent write; concurrent writers must all write the
    same value (the common rule), and a read may meet writes of the old value, as in CREW."""

    name = "ERCW-common"
    checks_reads = True
    judges_values = True

    def forbids(self, kind: Kind, agree: bool) -> bool:
        return kind is Kind.READ_READ or (kind is Kind.WRITE_WRITE and not agree)


class Weak(Model):
    """CRCW weak: concurrent writers must all write the same value, and it must be 0 or 1
    (a lone writer may write any word)."""

    name = "CRCW-weak"
    judges_values = True

    def forbids(self, kind: Kind, agree: bool) -> bool:
        # Agreeing writers may still write a value other than 0 and 1: forbids_writes decides.
        return kind is Kind.WRITE_WRITE

    def forbids_writes(self, low: Words, high: Words) -> Flags:
        # Exactly 0 or 1: a real such as 0.5 or 1e-300 is neither, however it would round.
        forbidden: Flags = (low != high) | ((low != 0) & (low != 1))
        return forbidden



def _agreed(values: Words, starts: Words) -> tuple[Words, Flags]:
    """The lowest id's value written to each cell, and whether its writers agree: all wrote
    equal values (``==``, so NaN agrees with nothing and ``0.0`` agrees with ``-0.0``), or
    there was one writer, who has nobody to disagree with (a lone NaN lands). Where writers
    agree the lowest id's value lands, as documented: the minimum of ``0.0`` and ``-0.0``
    would be either one."""
    with np.errstate(all="ignore"):
        low = np.minimum.reduceat(values, starts)
        high = np.maximum.reduceat(values, starts)
    lone = np.diff(np.append(starts, len(values))) == 1
    return values[starts], lone | (low == high)


class Tolerant(Model):
    """CRCW tolerant: writers that agree write their value; when they disagree the cell
    keeps what it held before the step."""

    name = "CRCW-tolerant"
    resolution = "kept"

    def settle(
        self, values: Words, starts: Words, rng: np.random.Generator, old: Words
    ) -> tuple[Words, Flags | None]:
        first, agree = _agreed(values, starts)
        return np.where(agree, first, old), ~agree


class Collision(Model):
    """CRCW collision: a cell written by two or more processors at once holds
    :data:`COLLISION`, whatever they wrote."""

    name = "CRCW-collision"
    resolution = "collision"

    def resolve(self, values: Words, starts: Words, rng: np.random.Generator) -> Words:
        # ``starts`` covers every cell written in the step, those of a lone writer too.
        writers = np.diff(np.append(starts, len(values)))
        return np.where(writers > 1, COLLISION, values[starts])


class CollisionPlus(Model):
    """CRCW collision+: writers that agree write their value; when they disagree the cell
    holds :data:`COLLISION`."""

    name = "CRCW-collision+"
    resolution = "collision"

    def resolve(self, values: Words, starts: Words, rng: np.random.Generator) -> Words:
        first, agree = _agreed(values, starts)
        return np.where(agree, first, COLLISION)


class Combining(Model):
    """CRCW combining: the cell receives the sum, maximum or minimum of the written values."""

    combine: str
    _reduce: np.ufunc

    def __init__(self, combine: str) -> None:
        made = {"combine": combine, "name": f"CRCW-{combine}",
                "_reduce": {"sum": np.add, "max": np.maximum, "min": np.minimum}[combine]}
        for name, value in made.items():  # fixed once made: see Model.__setattr__
            object.__setattr__(self, name, value)

    def resolve(self, values: Words, starts: Words, rng: np.random.Generator) -> Words:
        # A sum of reals may overflow to inf or meet inf + -inf: IEEE gives inf or NaN, and
        # numpy's warning about it would be a data-dependent message, not a fact of the run.
        with np.errstate(all="ignore"):
            if self.combine == "sum" and values.dtype.kind == "f":
                return cast(Words, in_order(cast(npt.NDArray[np.float64], values), starts))
            return self._reduce.reduceat(values, starts)


def in_order(values: npt.NDArray[np.float64], starts: Words) -> npt.NDArray[np.float64]:
    """The sum of each run of ``values`` (runs start at ``starts``), added left to right:
    ``((v0 + v1) + v2) + ...``, the writers sorted by processor id.

    Floating-point addition is not associative, so the order is part of the result; numpy's
    ``add.reduce`` sums in pairs in an order of its own. Python loops over the longest run's
    length or over the runs, whichever is shorter.
    """
    ends = np.append(starts[1:], len(values))
    sizes = ends - starts
    if not len(starts):
        return values[:0].copy()
    longest = int(sizes.max())
    if longest <= len(starts):
        total = values[starts].copy()
        for k in range(1, longest):
            more = sizes > k
            total[more] += values[starts[more] + k]
        return total
    return np.array([np.add.accumulate(values[s:e])[-1]
                     for s, e in zip(starts.tolist(), ends.tolist(), strict=True)],
                    dtype=values.dtype)


#: Every model by name, read-only: an entry replaced (``MODELS["erew"] = ...``) would change
#: what every machine made after it checks.
MODELS: Mapping[str, type[Model] | tuple[type[Combining], str]] = MappingProxyType({
    "erew": EREW,
    "crew": CREW,
    "crcw-common": Common,
    "crcw-arbitrary": Arbitrary,
    "crcw-priority": Priority,
    "crcw-sum": (Combining, "sum"),
    "crcw-max": (Combining, "max"),
    "crcw-min": (Combining, "min"),
    "ercw": ERCW,
    "crcw-weak": Weak,
    "crcw-tolerant": Tolerant,
    "crcw-collision": Collision,
    "crcw-collision+": CollisionPlus,
})


def model(name: str | Model) -> Model:
    """The model called ``name`` (case-insensitive), e.g. ``"erew"`` or ``"crcw-sum"``."""
    if isinstance(name, Model):
        return name
    entry = MODELS.get(str(name).lower())
    if entry is None:
        raise InputError(f"model must be one of {', '.join(MODELS)} (got {name!r})")
    if isinstance(entry, tuple):
        cls, combine = entry
        return cls(combine)
    return entry()
