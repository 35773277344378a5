"""Assertions for users' own tests: EREW compliance and bounds, with readable failures.

>>> from pram import Machine
>>> from algorithms.mqar import recall
>>> m = Machine("erew")
>>> _ = recall(m, [5, 50, 7, 7, 70, 5])
>>> assert_erew(m)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pram import Check, Formula, Machine, Violation, check
from pram.bounds import TOLERANCE
from reports.measure import Run, Sweep, bound_check

#: Violations named in a failure message before the rest are counted.
SHOWN = 5


def assert_erew(subject: Machine | Run) -> None:
    """Fail unless ``subject`` (a machine after its run, or a :class:`Run`) ran clean on EREW.

    The failure names the first violations (step, phase, cell and processors) and the count.
    """
    if isinstance(subject, Machine):
        model = subject.model.name
        count = len(subject.violations)
        shown: Sequence[Violation] = subject.violations[:SHOWN]
    else:
        model = subject.model
        count = subject.violations
        shown = subject.first_violations
    if model != "EREW":
        raise AssertionError(
            f"the run used the {model} model, which does not check exclusive access; "
            "run it on Machine('erew') to check EREW compliance"
        )
    if count:
        lines = [f"{count} EREW violation{'s' if count != 1 else ''}:"]
        lines += [f"  {v.message}" for v in shown]
        if count > len(shown):
            lines.append(f"  ... and {count - len(shown)} more")
        raise AssertionError("\n".join(lines))


def assert_bound(
    sweep: Sweep | Sequence[tuple[Mapping[str, float], float]],
    measure: str,
    formula: Formula | None = None,
    *,
    tolerance: float = TOLERANCE,
    limit: float | None = None,
) -> Check:
    """Fail unless ``measure`` stays within a constant factor of ``formula`` over ``sweep``.

    ``sweep`` is a :class:`Sweep` (then ``measure`` names one of its bounds, e.g. ``"work"``,
    and ``formula`` may replace the registered one) or a list of ``(sizes, measured)`` points
    (then ``formula`` is required). The failure shows the sizes, measured values and ratios.
    Returns the check, for further assertions on its ratios or constant.
    """
    if isinstance(sweep, Sweep):
        if formula is None:
            if measure not in sweep.checks:
                known = ", ".join(sweep.checks)
                raise AssertionError(f"the sweep has no bound {measure!r}; it has {known}")
            formula = sweep.checks[measure].formula
        result = bound_check(sweep.runs, measure, formula, tolerance=tolerance, limit=limit)
    else:
        if formula is None:
            raise AssertionError("assert_bound needs a formula when given (sizes, measured) points")
        result = check(measure, formula, list(sweep), tolerance=tolerance, limit=limit)
    if not result.holds:
        raise AssertionError(f"bound exceeded:\n{result.table()}")
    return result


__all__ = ["assert_bound", "assert_erew"]
