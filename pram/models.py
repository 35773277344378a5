"""Access models: which same-step accesses to one cell are allowed, and who wins a write.

Each model answers two questions through two hooks: :meth:`Model.forbids` (is this meeting of
accesses at one cell a violation?) and :meth:`Model.resolve` (which value lands when several
processors write one cell?). The machine asks nothing else about the model.
"""

from __future__ import annotations

import numpy as np

from pram.errors import InputError
from pram.memory import Words
from pram.violations import Kind


class Model:
    """Base model: nothing is forbidden and the lowest processor id wins a write (priority)."""

    name = "crcw-priority"
    #: Whether reads take part in the conflict check at all (only EREW forbids shared reads).
    checks_reads = False
    #: Whether a write/write violation is about the values (then the report shows them).
    judges_values = False

    def forbids(self, kind: Kind, agree: bool) -> bool:
        """Whether ``kind`` at one cell is a violation (``agree``: all written values are equal)."""
        return False

    def resolve(self, values: Words, starts: Words, rng: np.random.Generator) -> Words:
        """One value per cell from the writes sorted by (cell, processor id).

        ``starts`` holds the position of each cell's first write in ``values``.
        """
        return values[starts]

    def __repr__(self) -> str:
        return f"<model {self.name}>"


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


class Combining(Model):
    """CRCW combining: the cell receives the sum, maximum or minimum of the written values."""

    def __init__(self, combine: str) -> None:
        self.combine = combine
        self.name = f"CRCW-{combine}"
        self._reduce = {"sum": np.add, "max": np.maximum, "min": np.minimum}[combine]

    def resolve(self, values: Words, starts: Words, rng: np.random.Generator) -> Words:
        return self._reduce.reduceat(values, starts)


MODELS: dict[str, type[Model] | tuple[type[Combining], str]] = {
    "erew": EREW,
    "crew": CREW,
    "crcw-common": Common,
    "crcw-arbitrary": Arbitrary,
    "crcw-priority": Priority,
    "crcw-sum": (Combining, "sum"),
    "crcw-max": (Combining, "max"),
    "crcw-min": (Combining, "min"),
}


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
