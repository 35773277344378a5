"""Phase 5 of a single machine's step: accounting, for fast and general steps alike.

:class:`Accounting` is the part of :class:`pram.engine.core.Engine` (through
:class:`pram.engine.fast.FastPath`) that charges one unit of time and the step's processors,
reads and writes to the ledger, to each phase of the step and to the phases around it, and
counts rounds (:mod:`pram.engine.rounds`). :func:`prefixes` and :func:`phase_shares` serve the
batched engine too.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pram._held import cost_of as _cost_of
from pram.cost import PhaseCost, charge, charge_local
from pram.engine import rounds
from pram.step import Step

if TYPE_CHECKING:
    from pram.engine.core import Host

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

    # ---- 5. account -----------------------------------------------------------------------

    def _account(self, steps: Sequence[Step], tallies: Sequence[tuple[int, int, int]]) -> None:
        """Charge one unit of time and the step's processors, reads and writes (``tallies``,
        one per branch) to the ledger, and to the phase of each branch and the phases around
        it."""
        cost = _cost_of(self.host)
        active = reads = writes = 0
        for n, r, w in tallies:
            active += n
            reads += r
            writes += w
        shares = phase_shares(steps, tallies)
        local = self._local()
        labels = (steps[0].phase,) if len(steps) == 1 else tuple(sorted({s.phase for s in steps}))
        joined, self.opened = rounds.take(self.opened, steps, [prefixes(s.phase) for s in steps])
        for label, (n, r, w) in shares.items():
            share = cost.phases.get(label)
            if share is None:
                share = cost.phases[label] = PhaseCost()
            # The phase's own processors in this step, not those of other branches.
            if joined is None:
                charge(share, n, r, w)
            else:
                within = joined.within(label)
                charge(share, n, r, w, within is not None, int(within or 0))
            if local:
                charge_local(share, local)
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
