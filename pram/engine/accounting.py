"""Phase 5 of a step: accounting, for fast and general steps, one machine or a batch alike.

:class:`Accounting` is the part of :class:`pram.engine.core.Engine` (through
:class:`pram.engine.fast.FastPath`) that charges one unit of time and the step's processors,
reads and writes to the ledger, to each phase of the step and to the phases around it, and
counts rounds (:mod:`pram.engine.rounds`): the same rule for a single machine's ledger and a
batch's (:class:`pram.engine.ledgers.Ledgers`, one count per instance where they differ).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from pram._held import cost_of as _cost_of
from pram._numpy import np
from pram.cost import PhaseCost, charge, charge_local
from pram.engine import rounds
from pram.memory import Flags
from pram.step import Step

if TYPE_CHECKING:
    from pram.engine.core import Host
    from pram.engine.passes import Passes

Counts = npt.NDArray[np.int64]

__all__ = ["Accounting", "phase_shares", "prefixes"]

#: The phase labels of a step outside any phase (one tuple for every such step).
_NO_PHASE = ("",)


class Accounting:
    """Phase 5 (accounting) of :class:`pram.engine.core.Engine`."""

    #: ``opened``: the round the last step left open for the next to join
    #: (:mod:`pram.engine.rounds`).
    __slots__ = ("opened",)
    host: Host
    opened: rounds.Opened | None
    #: A batch's passes, which hold its ledgers, one per instance (None: the machine's one
    #: ledger, its Cost).
    passes: Passes | None

    # ---- 5. account -----------------------------------------------------------------------

    def _account(self, steps: Sequence[Step], tallies: Sequence[Sequence[Any]],
                 alive: Flags | None = None, members: rounds.Members | None = None) -> None:
        """Charge one unit of time and the step's processors, reads and writes (``tallies``,
        one per branch: ints, or one count per instance of a batch) to the ledger, and to the
        phase of each branch and the phases around it; a batch's to the instances ``alive``
        (None: all), its processors ``members`` (None: each branch's ids)."""
        active: Any = 0
        reads: Any = 0
        writes: Any = 0
        for n, r, w in tallies:
            active, reads, writes = active + n, reads + r, writes + w
        shares = phase_shares(steps, tallies)
        labels = (steps[0].phase,) if len(steps) == 1 else tuple(sorted({s.phase for s in steps}))
        joined, self.opened = rounds.take(self.opened, steps, [prefixes(s.phase) for s in steps],
                                          members)
        passes = self.passes
        if passes is not None:  # a batch: one ledger per instance, counted together
            passes.ledgers.charge(_int(active), _int(reads), _int(writes), alive, labels,
                           {k: [_int(x) for x in v] for k, v in shares.items()}, joined)
            _cost_of(self.host).time += 1
            return
        cost = _cost_of(self.host)
        local = self._local()
        for label, (n, r, w) in shares.items():
            # The phase's own processors in this step, not those of other branches.
            _charge_phase(cost.phases, label, n, r, w, joined, local)
        if joined is None:
            charge(cost, active, reads, writes)
        else:
            charge(cost, active, reads, writes, True, int(joined.newcomers))
        cost.profile.append(active)
        cost.step_phases.append(labels)

    def _account_one(self, step: Step, n: int, reads: int, writes: int) -> None:
        """:meth:`_account` for a global step of one step (of ``n`` processors)."""
        cost = _cost_of(self.host)
        phase = step.phase
        around = prefixes(phase)
        joined, self.opened = rounds.take_one(self.opened, step, around)
        if phase:
            phases = cost.phases
            local = self._local()
            for label in around:
                _charge_phase(phases, label, n, reads, writes, joined, local)
        if joined is None:
            # charge(cost, n, reads, writes), its rule written out (a call is a step's fixed
            # cost): a round by itself
            cost.rounds += 1
            cost.round_work += n
            cost.time += 1
            cost.work += n
            cost.reads += reads
            cost.writes += writes
            if n > cost.max_processors:
                cost.max_processors = n
        else:
            charge(cost, n, reads, writes, True, int(joined.newcomers))
        cost.profile.append(n)
        cost.step_phases.append((phase,) if phase else _NO_PHASE)

    def _local(self) -> int:
        """The register operations the machine charged before this step (taken once): what
        each of the step's phases adds to its ``local`` (the ledger has them already)."""
        token = self.host._token
        if token is None:
            return 0
        local = token._charged
        token._charged = 0
        return local


def _charge_phase(phases: dict[str, PhaseCost], label: str, n: int, reads: int, writes: int,
                  joined: rounds.Joined | None, local: int) -> None:
    """Charge phase ``label`` its share of a step: ``n`` processors, ``reads`` and ``writes``,
    in the round ``joined`` (None: a round of its own), and the register operations ``local``
    the machine charged before the step."""
    share = phases.get(label)
    if share is None:
        share = phases[label] = PhaseCost()
    if joined is None:
        charge(share, n, reads, writes)
    else:
        within = joined.within(label)
        charge(share, n, reads, writes, within is not None, int(within or 0))
    if local:
        charge_local(share, local)


@functools.cache
def prefixes(path: str) -> tuple[str, ...]:
    """``"a/b/c"`` and the phases around it: ``("a", "a/b", "a/b/c")`` (computed once a path,
    for the single and the batched engine alike)."""
    parts = path.split("/")
    return tuple("/".join(parts[: i + 1]) for i in range(len(parts)))


def phase_shares(steps: Sequence[Step], tallies: Sequence[Sequence[Any]]
                 ) -> dict[str, list[Any]]:
    """Each phase's share of a global step: the processors, reads and writes (``tallies``, one
    per branch: ints, or one count per instance in a batch) of the branches in it or in a phase
    inside it (for the single and the batched engine alike)."""
    shares: dict[str, list[Any]] = {}
    for step, (n, r, w) in zip(steps, tallies, strict=True):
        if step.phase:
            for label in prefixes(step.phase):
                tally = shares.get(label)
                if tally is None:
                    shares[label] = [n, r, w]
                else:  # not +=: a batch's counts may be arrays another tally holds too
                    tally[0], tally[1], tally[2] = tally[0] + n, tally[1] + r, tally[2] + w
    return shares


def _int(x: int | Counts) -> int | Counts:
    """``x`` as a Python int when it is one count for every instance."""
    if type(x) is int:
        return x
    if isinstance(x, np.integer):
        return int(x)
    return x
