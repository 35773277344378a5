""":mod:`pram.testing`'s assertions, extended to the runs and sweeps of :mod:`reports`.

``assert_model`` and ``assert_flagged`` are :mod:`pram.testing`'s, re-exported here.
``assert_erew`` also takes a :class:`~pram.reports.runs.Run` and ``assert_bound`` a
:class:`~pram.reports.sweeps.Sweep` with the name of one of its bounds; the failures read exactly as
:mod:`pram.testing`'s (the violations named, or the table of sizes, measured values, ratios).

>>> from pram.reports import Options, execute, sweep
>>> assert_erew(execute("mqar", Options(n=48)))
>>> assert_bound(sweep("sort", [8, 16, 32, 64, 128], Options()), "work").holds
True
"""

from __future__ import annotations

from pram import Check, Formula, Machine
from pram import testing as pram_testing
from pram.reports.runs import Run
from pram.reports.sweeps import Sweep, bound_check
from pram.testing import assert_flagged, assert_model


def assert_erew(subject: Machine | Run) -> None:
    """Fail unless ``subject`` (a machine after its run, or a :class:`Run`) ran clean on EREW.

    The failure names the first violations (step, phase, cell and processors) and the count.
    """
    if isinstance(subject, Machine):
        pram_testing.assert_erew(subject)
        return
    if subject.model != "EREW":
        raise AssertionError(
            f"the run used {subject.model}, which does not flag every concurrent access; "
            "run it with model 'erew' to check it is EREW"
        )
    count = subject.violations
    if count:
        lines = [f"the run broke EREW {count} time{'s' if count != 1 else ''}:"]
        lines += [f"  {v.message}" for v in subject.first_violations]
        if count > len(subject.first_violations):
            lines.append(f"  ... and {count - len(subject.first_violations)} more")
        raise AssertionError("\n".join(lines))


def assert_bound(
    sweep: Sweep,
    bound: str,
    formula: Formula | None = None,
    *,
    limit: float | None = None,
    holds: bool = True,
    allow_undetermined: bool = False,
) -> Check:
    """Fail unless bound ``bound`` (e.g. ``"work"``) of ``sweep`` holds (``holds=False``: is
    exceeded); an undetermined verdict fails with advice unless ``allow_undetermined``.

    ``formula`` replaces the registered formula of that bound. Returns the check.
    """
    if bound not in sweep.checks:
        raise AssertionError(f"the sweep has no bound {bound!r}; it has {', '.join(sweep.checks)}")
    formula = formula if formula is not None else sweep.checks[bound].formula
    outcome = bound_check(sweep.runs, bound, formula, limit=limit)
    return pram_testing.assert_bound(outcome, holds=holds, allow_undetermined=allow_undetermined)


__all__ = ["assert_bound", "assert_erew", "assert_flagged", "assert_model"]
