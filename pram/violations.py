"""Records of what a run's accesses met: model violations, resolutions and undefined reads.

A :class:`Violation` is a meeting the model forbids; a :class:`Resolution` is a meeting it
allows but settles by a rule other than "a writer's value lands" (CRCW tolerant keeps the old
contents, collision and collision+ store the collision symbol), so that the report can show
which cells were settled that way, and by whom.
"""

from __future__ import annotations

from enum import Enum

import attrs


class Kind(Enum):
    """Which two kinds of access met at one cell in one step."""

    READ_READ = "read/read"
    WRITE_WRITE = "write/write"
    READ_WRITE = "read/write"


def listing(items: tuple[int | float, ...], limit: int = 6) -> str:
    """``"3 and 9"``, ``"3, 9 and 12"``, or the first few and a count when there are many.

    Lists processor ids, or the values they wrote.
    """
    if len(items) == 1:
        return str(items[0])
    if len(items) <= limit:
        return ", ".join(map(str, items[:-1])) + f" and {items[-1]}"
    return ", ".join(map(str, items[:limit])) + f", ... ({len(items)} in all)"


def cell_name(array: str, index: int, columns: int = 0) -> str:
    """Cell ``index`` of ``array`` by name: ``a[5]``, or ``A[1, 2]`` in a two-dimensional
    array of ``columns`` columns (cells row-major)."""
    if not columns:
        return f"{array}[{index}]"
    return f"{array}[{index // columns}, {index % columns}]"


def when(step: int, *phases: str) -> str:
    """``in step 4``, or ``in step 4 (phase 'sort/merge')`` when a phase is active.

    Given the phases of several parallel branches, it names each once, in the order given:
    ``in step 4 (phases 'pbs/0' and 'pbs/1')``.
    """
    labels = [repr(label) for label in dict.fromkeys(phases) if label]
    if not labels:
        return f"in step {step}"
    if len(labels) == 1:
        return f"in step {step} (phase {labels[0]})"
    return f"in step {step} (phases {', '.join(labels[:-1])} and {labels[-1]})"


def _in(instance: int | None) -> str:
    """``"instance 17: "`` before a record of a batched run, nothing on a single machine."""
    return "" if instance is None else f"instance {instance}: "


@attrs.frozen
class Violation:
    """Two or more processors touched one cell in one step in a way the model forbids.

    ``processors`` are all the processor ids involved, ascending; ``values`` are the values
    written (by the models that judge values: CRCW common, ERCW common, CRCW weak), aligned
    with the writers in ``processors``. ``phase`` is the phase of the first processor's
    branch; ``phases`` names the phase of every parallel branch involved, in branch order,
    when they differ.
    """

    model: str
    kind: Kind
    step: int
    phase: str
    array: str
    index: int
    processors: tuple[int, ...]
    values: tuple[int | float, ...] = ()
    phases: tuple[str, ...] = ()
    #: The columns of a two-dimensional array (0 for a flat one): the cell is named A[i, j].
    columns: int = 0
    #: The instance of a batched run (``Machine(batch=B)``) it happened in; None on a single
    #: machine.
    instance: int | None = None

    @property
    def message(self) -> str:
        """The violation in one sentence: the rule, who broke it, which cell, and when."""
        return _in(self.instance) + self._message()

    def _message(self) -> str:
        who = listing(self.processors)
        cell = cell_name(self.array, self.index, self.columns)
        at = when(self.step, *(self.phases or (self.phase,)))
        if self.kind is Kind.READ_READ:
            return f"{self.model} forbids concurrent reads: processors {who} read {cell} {at}"
        if self.kind is Kind.READ_WRITE:
            return (
                f"{self.model} forbids reading and writing one cell: processors {who} "
                f"read and write {cell} {at}"
            )
        if self.values and len(set(self.values)) == 1:  # e.g. CRCW weak: agreeing on a 2
            return (
                f"{self.model} forbids concurrent writes of {self.values[0]}: processors {who} "
                f"write {self.values[0]} to {cell} {at}"
            )
        if self.values:
            written = listing(self.values)
            return (
                f"{self.model} forbids disagreeing writes: processors {who} "
                f"write {written} to {cell} {at}"
            )
        return f"{self.model} forbids concurrent writes: processors {who} write {cell} {at}"

    def __str__(self) -> str:
        return self.message


@attrs.frozen
class Resolution:
    """Two or more processors wrote one cell in one step and the model settled it without
    storing a value they wrote: ``outcome`` is ``"kept"`` (CRCW tolerant: the cell kept its
    old contents) or ``"collision"`` (CRCW collision and collision+: it holds
    :data:`pram.COLLISION`). ``processors`` ascending, ``values`` the values they wrote,
    aligned with them; ``phase`` and ``phases`` as for :class:`Violation`."""

    model: str
    outcome: str
    step: int
    phase: str
    array: str
    index: int
    processors: tuple[int, ...]
    values: tuple[int | float, ...]
    phases: tuple[str, ...] = ()
    #: The columns of a two-dimensional array (0 for a flat one): the cell is named A[i, j].
    columns: int = 0
    #: The instance of a batched run it happened in; None on a single machine.
    instance: int | None = None

    @property
    def message(self) -> str:
        """The resolution in one sentence: the rule, the cell, who wrote what, and when."""
        cell = cell_name(self.array, self.index, self.columns)
        done = (f"kept {cell} as it was" if self.outcome == "kept"
                else f"wrote the collision symbol to {cell}")
        return (f"{_in(self.instance)}{self.model} {done}: processors "
                f"{listing(self.processors)} wrote {listing(self.values)} "
                f"{when(self.step, *(self.phases or (self.phase,)))}")

    def __str__(self) -> str:
        return self.message


@attrs.frozen
class UndefinedRead:
    """A read of a cell that was allocated without a value and not yet written."""

    step: int
    phase: str
    array: str
    index: int
    processor: int
    #: The columns of a two-dimensional array (0 for a flat one): the cell is named A[i, j].
    columns: int = 0
    #: The instance of a batched run it happened in; None on a single machine.
    instance: int | None = None

    @property
    def message(self) -> str:
        """The read in one sentence, with the fix."""
        return (
            f"{_in(self.instance)}undefined read: processor {self.processor} read "
            f"{cell_name(self.array, self.index, self.columns)} "
            f"{when(self.step, self.phase)} "
            "before anything was written there; give the array initial values or write it first"
        )
