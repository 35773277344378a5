"""Assertions for users' own tests: a run was clean under its model (or EREW-clean), a negative
control is flagged, a measure stays within its bound.

Both fail with an :class:`AssertionError` whose message shows what went wrong in full (the
first violations named, the table of a sweep), so a failing test explains itself.

>>> import numpy as np
>>> from pram import Machine, Read, Step
>>> m = Machine("erew")
>>> a = m.array("a", values=np.array([1, 2]))
>>> def both_read_one(m, a):
...     pid = m.processors(2)
...     yield Step(pid, reads=[Read(a, np.zeros(2, dtype=np.int64))])
>>> m.run(both_read_one(m, a))
>>> assert_erew(m)
Traceback (most recent call last):
...
AssertionError: the run broke EREW 1 time:
  EREW forbids concurrent reads: processors 0 and 1 read a[0] in step 1
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from pram.bounds import Check, Formula, Sizes, check
from pram.errors import InputError
from pram.machine import Machine
from pram.models import EREW, Model, model
from pram.step import Program
from pram.violations import Kind, UndefinedRead, Violation

#: How many violations and undefined reads a failure message names in full.
SHOWN = 5


def _times(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def assert_model(machine: Machine, *, shown: int = SHOWN) -> None:
    """Fail unless ``machine``'s runs recorded no violation of the machine's own model
    (whatever it is: EREW, CREW, CRCW common, ...) and no undefined read.

    The message names the model, the first ``shown`` violations (and undefined reads) in full
    and counts the rest by kind. Run the program with ``mode="collect"`` and ``strict=False``
    to see everything in one failure. A model that forbids nothing (CRCW priority, arbitrary,
    the combining ones) fails only on undefined reads.
    """
    _clean(machine.model.name, machine.violations, machine.undefined_reads, shown)


def assert_erew(machine: Machine, *, shown: int = SHOWN) -> None:
    """Fail unless ``machine`` runs the EREW model and recorded no violation and no undefined read.

    The shorthand of :func:`assert_model` for EREW, which also fails on a machine of another
    model (which does not flag every concurrent access). The message names the first
    ``shown`` violations (and undefined reads) in full and counts the rest by kind.
    """
    if not isinstance(machine.model, EREW):
        raise AssertionError(
            f"the machine runs {machine.model.name}, which does not flag every concurrent "
            'access; run the program on Machine("erew") to check it is EREW, or check it '
            "under its own model with assert_model"
        )
    _clean("EREW", machine.violations, machine.undefined_reads, shown)


def assert_flagged(
    program: Callable[[Machine], Program[Any]], model_name: str | Model, *, seed: int = 0
) -> list[Violation]:
    """Fail unless ``program`` breaks ``model_name``: a negative control.

    ``program`` is a callable taking a fresh machine and returning the program to run on it
    (it allocates its arrays on that machine), e.g. ``lambda m: both_read_one(m,
    m.array("a", values=[1, 2]))``. It runs on ``Machine(model_name, mode="collect",
    strict=False, seed=seed)``; the assertion fails, naming the model, when the run recorded
    no violation. Returns the violations, for a test to look at further.
    """
    rules = model(model_name)
    machine = Machine(rules, mode="collect", strict=False, seed=seed)
    made = program(machine)
    machine.run(made)
    if not machine.violations:
        raise AssertionError(
            f"expected the program to break {rules.name}, but it ran clean under it "
            f"({machine.cost.time} steps, {machine.cost.work} work); a negative control must "
            "make the accesses the model forbids"
        )
    return list(machine.violations)


def _clean(
    name: str, violations: list[Violation], undefined: list[UndefinedRead], shown: int
) -> None:
    """Fail, naming what was recorded, unless there are no violations and no undefined reads."""
    if not violations and not undefined:
        return
    lines: list[str] = []
    if violations:
        lines.append(f"the run broke {name} {_times(len(violations), 'time')}:")
        lines += [f"  {v.message}" for v in violations[:shown]]
        rest = violations[shown:]
        if rest:
            counts = {kind: 0 for kind in Kind}
            for v in rest:
                counts[v.kind] += 1
            kinds = ", ".join(f"{n} {kind.value}" for kind, n in counts.items() if n)
            lines.append(f"  ... and {len(rest)} more ({kinds})")
    if undefined:
        lines.append(f"the run read {_times(len(undefined), 'undefined cell')}:")
        lines += [f"  {u.message}" for u in undefined[:shown]]
        if len(undefined) > shown:
            lines.append(f"  ... and {len(undefined) - shown} more")
    raise AssertionError("\n".join(lines))


def assert_bound(
    bound: Check | str,
    formula: Formula | None = None,
    points: Sequence[tuple[Sizes, float]] | None = None,
    *,
    limit: float | None = None,
    holds: bool = True,
    allow_undetermined: bool = False,
) -> Check:
    """Fail unless the bound check holds (or, with ``holds=False``, unless it is exceeded).

    Pass a :class:`Check`, or the arguments of :func:`pram.bounds.check` (a measure name,
    a formula and the sweep's points). An ``undetermined`` verdict fails too, with advice to
    extend the sweep (the check's own advice, such as ``add sizes above 2^14``), unless
    ``allow_undetermined`` is set. The failure message is the check's
    table: sizes, measured values, ratios, the law and the decision. Returns the check.
    ``holds=False`` is for negative controls (e.g. all-pairs MQAR against N d log^2 N).
    """
    if isinstance(bound, Check):
        outcome = bound
    else:
        if formula is None or points is None:
            raise InputError(
                "assert_bound needs a Check, or a measure name with a formula and points "
                f"(got measure {bound!r}, formula {formula!r}, points {points!r})"
            )
        outcome = check(bound, formula, points, limit=limit)
    claim = "stay within" if holds else "exceed"
    if outcome.verdict == "undetermined":
        if allow_undetermined:
            return outcome
        advice = outcome.advice or "extend it (5 or more sizes, over a wider range)"
        raise AssertionError(
            f"expected {outcome.measure} to {claim} O({outcome.formula.text}), but the sweep "
            f"cannot tell: {advice}, or pass allow_undetermined=True:\n{outcome.table()}"
        )
    if outcome.holds != holds:
        raise AssertionError(
            f"expected {outcome.measure} to {claim} O({outcome.formula.text}), but the bound "
            f"{outcome.verdict}:\n{outcome.table()}"
        )
    return outcome


def assert_honest_source(module: ModuleType | Any) -> None:
    """Fail unless the source of ``module`` (a module, function or class) passes ``pram lint``:
    no private attribute access on pram objects, no gc, ctypes, inspect, frame or trace hooks,
    no monkey-patching of pram. The message names every finding with file and line.

    Run time refuses every move of a value between processors that ordinary code can make;
    this is the check for the deliberate ones run time cannot stop (see the README's threat
    model).
    """
    from pram.lint import findings

    try:
        source = inspect.getsource(module)
        filename = str(inspect.getsourcefile(module) or getattr(module, "__name__", "<source>"))
    except (OSError, TypeError) as error:
        raise InputError(
            f"assert_honest_source needs a module, class or function with source on disk "
            f"(got {module!r}: {error}); pass the imported module"
        ) from None
    lines = 0 if inspect.ismodule(module) else inspect.getsourcelines(module)[1] - 1
    source = textwrap.dedent(source) if lines else source
    found = findings(source, filename)
    if lines:  # a function or class: report lines of the file, not of the excerpt
        found = [_shift(f, filename, lines) for f in found]
    if found:
        raise AssertionError(
            f"{_times(len(found), 'use')} of Python that run time cannot stop:\n  "
            + "\n  ".join(found)
        )


def _shift(finding: str, filename: str, by: int) -> str:
    line, what = finding[len(filename) + 1 :].split(":", 1)
    return f"{filename}:{int(line) + by}:{what}"


__all__ = [
    "assert_bound", "assert_erew", "assert_flagged", "assert_honest_source", "assert_model",
]
