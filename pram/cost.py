"""What a run cost, counted step by step while it runs."""

from __future__ import annotations

import attrs
import numpy as np

from pram.errors import InputError
from pram.memory import Words


@attrs.define
class PhaseCost:
    """The share of one phase label (and everything nested under it)."""

    time: int = 0
    work: int = 0
    reads: int = 0
    writes: int = 0
    max_processors: int = 0


@attrs.define
class Cost:
    """Time (steps), work (active processors summed over steps) and the rest of the ledger.

    ``profile`` holds the active processors of every step and ``step_phases`` its phase labels,
    so the activity of a run and Brent's bound can be drawn from what was counted.
    """

    time: int = 0
    work: int = 0
    reads: int = 0
    writes: int = 0
    max_processors: int = 0
    memory_cells: int = 0
    profile: list[int] = attrs.field(factory=list)
    step_phases: list[tuple[str, ...]] = attrs.field(factory=list)
    phases: dict[str, PhaseCost] = attrs.field(factory=dict)

    def brent(self, p: int) -> int:
        """Time on ``p`` processors: the sum over steps of max(1, ceil(active / p)).

        A step with no active processor still takes one step, so ``brent(p) == time`` once
        ``p`` reaches the largest step, and ``brent(p) <= work / p + time`` always.
        """
        if isinstance(p, bool) or not isinstance(p, int | np.integer) or p < 1:
            raise InputError(f"p must be a positive integer number of processors (got {p!r})")
        active = self.activity()
        return int(np.maximum(1, (active + p - 1) // p).sum())

    def activity(self) -> Words:
        """Active processors per step, as an array."""
        return np.asarray(self.profile, dtype=np.int64)

    def as_dict(self) -> dict[str, int]:
        """The scalar counts, for JSON."""
        return {
            "time": self.time,
            "work": self.work,
            "reads": self.reads,
            "writes": self.writes,
            "max_processors": self.max_processors,
            "memory_cells": self.memory_cells,
        }
