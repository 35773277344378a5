"""Driving a program: :meth:`pram.Machine.run`'s loop over the steps a program yields.

The machine hands its program to :func:`run`, which opens the run (a token, fresh ledgers,
sealed memory), asks the machine's engine to drive it (a single machine's drives it once, a
batch's once per pass, :mod:`pram.engine.passes`) with :func:`drive` as the loop over the
program's requests, and closes the run whatever happens. Nothing here depends on how many
instances the engine holds: the engine answers for them.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pram._held import cost_of as _cost_of
from pram._held import depths_of as _depths_of
from pram._held import engine_of as _engine_of
from pram._held import failure_of as _failure_of
from pram._held import put_cost as _put_cost
from pram._held import put_failure as _put_failure
from pram._held import put_ledger as _put_ledger
from pram._held import put_resolutions as _put_resolutions
from pram._held import put_undefined_reads as _put_undefined_reads
from pram._held import put_violations as _put_violations
from pram._held import recorder_of as _recorder_of
from pram._held import resolutions_of as _resolutions_of
from pram._held import undefined_reads_of as _undefined_reads_of
from pram._held import violations_of as _violations_of
from pram._numpy import np
from pram.cost import Ledger
from pram.engine.validate import _acting
from pram.errors import StepError, StepNotYieldedWarning
from pram.loop import one_test
from pram.run import Run, begin
from pram.step import Bundle, Program, Step, Values, is_step

if TYPE_CHECKING:
    from pram.machine import Machine

__all__ = ["drive", "run"]


def run(machine: Machine, program: Program[Any]) -> Any:
    """Run ``program`` on ``machine`` (checked by :meth:`pram.Machine.run`) to its end."""
    engine = _engine_of(machine)
    recorder, depths = _recorder_of(machine), _depths_of(machine)
    if recorder is not None:
        recorder.start(machine.arrays, _cost_of(machine).time)
    observer = machine.observer
    if depths is not None:  # the depth recorder sees the run beside the observer
        from pram.circuits.oblivious import Tee

        observer = depths if observer is None else Tee(depths, observer)
    token, end = begin(machine, observer)
    machine._token = token
    # Fresh objects for everything the run changes: an alias of the ledger, of its lists,
    # of the violations or of the undefined reads taken before the run sees none of it.
    _put_cost(machine, _cost_of(machine).fresh())
    _put_ledger(machine, Ledger(_cost_of(machine)))
    _put_violations(machine, list(_violations_of(machine)))
    _put_resolutions(machine, list(_resolutions_of(machine)))
    _put_undefined_reads(machine, list(_undefined_reads_of(machine)))
    machine._running += 1
    _put_failure(machine, None)
    machine._modular = 0
    machine._results = ()
    _seal(machine, True)
    try:
        value, machine._results = engine.run(
            program, lambda pass_: drive(machine, pass_, token))
        return value
    finally:
        engine.settle()
        if depths is not None:
            depths.finished()
        machine._running -= 1
        machine._token = None
        _put_failure(machine, None)  # raised above, or the program's own error goes first
        end()
        if not machine._running:
            _seal(machine, False)


def drive(machine: Machine, program: Program[Any], token: Run) -> Any:
    """One pass of :func:`run`: drive ``program`` to its end, and charge the local work done
    after its last step."""
    cost = _cost_of(machine)
    engine = _engine_of(machine)
    execute, charge_local = engine.execute, engine.charge_local
    # An engine whose charge_local changes nothing when there is nothing to charge (no
    # operation since the last step, no share left for the next step's phases) is not asked.
    idle_free = engine.idle_charge_free
    engine.opened = None  # a round never spans two runs, nor two passes of a batch
    made_before, executed = token._made, 0
    try:
        request = next(program)
        while True:
            if type(request) is Step or is_step(request):
                steps: Sequence[Step] = (request,)
            elif type(request) is Bundle:
                steps = request.steps
                one_test(steps, cost.time + 1)
            else:
                raise StepError(
                    f"a program must yield Step or Bundle objects (got {request!r}) "
                    f"before step {cost.time + 1}",
                    cost.time + 1,
                )
            for step in steps:
                # Ids not in immutable memory (registers of processors, plain arrays the host
                # may change) are replaced by ids nothing can change. Ids over bytes, or a
                # view of such ids (numpy makes the array holding the memory a view's base),
                # are kept as they are (_acting would keep them: registers.ids.immutable).
                pid = getattr(step, "processors", None)
                if type(pid) is not np.ndarray or not (
                        isinstance(base := pid.base, bytes)
                        or (type(base) is np.ndarray and isinstance(base.base, bytes))):
                    counted = token._made
                    steps = _acting(steps, cost.time + 1, token)
                    token._made = counted  # its copies replace steps the program made
                    break
            executed += len(steps)
            failure = _failure_of(machine)
            if failure is not None:
                raise failure  # in the machine, not in the program: it cannot catch it
            if token._operations or token._charged or not idle_free:
                charge_local(token)
            replies = execute(steps)
            if token._observer is not None:  # Run.step's own test, without its call
                token.step(cost.time, steps, replies)
            reply: Values | list[Values] = replies[0] if type(request) is not Bundle else replies
            request = program.send(reply)
    except StopIteration as stop:
        failure = _failure_of(machine)
        if failure is not None:
            raise failure from None  # the work after the last step overflowed
        _unyielded(token._made - made_before - executed)
        return stop.value
    finally:
        engine.charge_local(token)


def _unyielded(count: int) -> None:
    """Report steps the program made in the pass but never yielded (a ``Step(...)`` without
    ``yield``): the machine did not execute them, so the counts leave them out."""
    if count > 0:
        warnings.warn(StepNotYieldedWarning(
            f"{count} step{'s were' if count != 1 else ' was'} made during the run but never "
            "yielded: the machine did not execute "
            f"{'them' if count != 1 else 'it'}, and the run's counts leave "
            f"{'them' if count != 1 else 'it'} out; yield each step (yield Step(...), or "
            "(x,) = yield Step(...) for the values it reads)"), stacklevel=4)


def _seal(machine: Machine, sealed: bool) -> None:
    """Seal (or open) every array of ``machine``: see :class:`pram.Array`."""
    for array in machine.arrays.values():
        if sealed:
            array.begin()
        array._sealed = sealed
    recorder, depths = _recorder_of(machine), _depths_of(machine)
    if recorder is not None:
        recorder.trace._sealed = sealed
    if depths is not None:
        depths._sealed = sealed
