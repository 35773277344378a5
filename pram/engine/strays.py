"""The refusals of a batched run's passes (:mod:`pram.engine.passes`): an array a later pass
sizes otherwise, a later pass that does not retrace its instances' path, a departure from
the batch's path that no later pass can run."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from pram._held import cost_of as _cost_of
from pram._numpy import np
from pram.engine.rows import described
from pram.errors import BatchPathError
from pram.memory import Array, Flags

if TYPE_CHECKING:
    from pram.engine.passes import Passes

__all__ = ["Expected", "Trail", "apart_sizes", "astray", "refuse"]

#: The path a later pass must retrace: its first instance's count of loop tests up to its
#: departure, the mark of its answers (:class:`Trail`), and its own step and answers there.
Expected = tuple[int, int, tuple[int, tuple[bool, ...]]]


class Trail:
    """Every instance's path through a pass's loop tests: how many it took, and a mark of
    the sequence of its answers at them (a running hash, one word per instance, so that a
    pass keeps no record per test); its own step at its departure is checked apart."""

    __slots__ = ("marks", "taken")

    def __init__(self, batch: int) -> None:
        self.marks = np.zeros(batch, np.uint64)
        self.taken = np.zeros(batch, np.int64)

    def took(self, alive: Flags | None, ended: Any) -> None:
        """The instances ``alive`` (None: all) took a loop-test step answered ``ended`` (one
        row per test)."""
        code = ended[0].astype(np.uint64)
        for k in range(1, len(ended)):
            code |= ended[k].astype(np.uint64) << np.uint64(k)
        code += np.uint64(1)
        stepped = self.marks * np.uint64(1_000_003)
        stepped += code
        if alive is None:
            self.marks = stepped
            self.taken += 1
        else:
            np.copyto(self.marks, stepped, where=alive)
            self.taken += alive

    def path(self, i: int, last: tuple[int, tuple[bool, ...]]) -> Expected:
        """Instance ``i``'s path so far, its last loop test at its own step and answers
        ``last``."""
        return int(self.taken[i]), int(self.marks[i]), last


def apart_sizes(passes: Passes, name: str, earlier: Array, array: Array) -> NoReturn:
    """Refuse ``array``, allocated under ``name`` in a later pass with another size,
    shape or dtype than ``earlier``, the array an earlier pass left under that name as it
    ended (the run leaves one array per name; one a pass freed is no obstacle)."""
    assert passes.group is not None
    found = np.flatnonzero(passes.group).tolist()
    named = ", ".join(map(str, found[:8])) + (", ..." if len(found) > 8 else "")
    raise BatchPathError(
        f"m.array({name!r}) in the pass of instances {named} (run again from the start "
        f"after they left the batch's path at a loop test) has {described(array)}, "
        "where an earlier pass of the run left it with "
        f"{described(earlier)}: a batch holds one array per name for all its "
        "instances; size the array from the inputs (the largest size any instance may "
        "need), give it a name per size, or run one machine per instance",
        _cost_of(passes.host).time)


def astray(passes: Passes, how: str, expected: tuple[int, tuple[bool, ...]] | None = None,
            found: tuple[int, tuple[bool, ...]] | None = None) -> NoReturn:
    """Refuse a later pass whose program, made again, did not retrace the path its
    instances took to where they left the pass before: it ``how`` = "ended" before
    reaching their departure test, or "reached" a loop test at another step or with
    other answers (``expected`` the pass before's, ``found`` this one's)."""
    assert passes.group is not None
    leaving = np.flatnonzero(passes.group).tolist()
    named = ", ".join(map(str, leaving[:8])) + (", ..." if len(leaving) > 8 else "")
    assert passes.expected is not None
    count, _, (depart, _) = passes.expected
    seen = int(passes.trail.taken[passes.first])
    number = _cost_of(passes.host).time
    if how == "ended":
        what = (f"the program made again for them ended at step {number}, after "
                f"{seen} of the {count} loop-test steps up to their departure")
    else:
        assert expected is not None and found is not None
        what = (f"the program made again for them reached loop-test step "
                f"{seen} at step {found[0]} answered {list(found[1])}, where "
                f"the pass they left reached it at step {expected[0]} answered "
                f"{list(expected[1])}")
    raise BatchPathError(
        f"instances {named} left the batch's path at the loop test of step {depart} and "
        f"were run again from the start of the run in a pass of their own, but {what}: "
        "the program made again is not the one that ran, likely because it holds a "
        "generator or state made before m.run that making it again cannot see (a "
        "generator in an attribute or a global, a generator expression, an argument "
        "object or a global the program changes); make the "
        "program from its inputs inside the program function, e.g. "
        "m.run(program(m, ...)), or run one machine per instance", number)


def refuse(passes: Passes, step: Any, leaving: Flags, going: Flags, tests: int | None = None,
            number: int | None = None) -> NoReturn:
    """Refuse the departure of instances ``leaving`` from the batch's path at loop test
    ``step`` (the run's ``tests``-th, at step ``number``: the test running if None),
    where ``going`` went on: a pass of their own cannot be run."""
    number = _cost_of(passes.host).time if number is None else number
    tests = passes.tests if tests is None else tests

    def named(flags: Flags) -> str:
        found = np.flatnonzero(flags).tolist()
        return ", ".join(map(str, found[:8])) + (", ..." if len(found) > 8 else "")

    where = (f"instances {named(leaving)} end their loop and instances {named(going)} "
             f"go on at loop test {tests} of the run (step {number}, Until on array "
             f"{step.reads[0].array.name!r}): a batch runs the instances that leave its "
             "path in a pass of their own, from the start of the run")
    if passes._remake is not None:  # an observer would see the steps of several passes
        raise BatchPathError(
            f"{where}, which the machine's observer would see as more steps; remove the "
            "observer (m.observer = None), or run one machine per instance", number)
    raise BatchPathError(
        f"{where}, which needs the program made again, and this one cannot be "
        f"({passes._unmade}); pass m.run an unstarted generator, e.g. "
        "m.run(program(m, ...)), or run one machine per instance",
        number,
    )
