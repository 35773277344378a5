"""Run an algorithm on a fresh machine and record what it cost; sweep it over sizes; run many
random instances of it (``--instances K``) and summarise them.

The one import point of the measuring floor, for users' scripts and the tests; each part lives
in its own module, and the reports import them from there:

- :mod:`pram.reports.runs`: one run (:class:`Run`, :func:`execute`, the :class:`Job` that
  looks the entry up and validates the options once);
- :mod:`pram.reports.tasks`: where runs execute (:class:`Task`, the runners, :func:`run_all`);
- :mod:`pram.reports.trials`: the instances of one size in lockstep (:class:`Trial`);
- :mod:`pram.reports.instances`: ``--instances K`` and its :class:`Summary`;
- :mod:`pram.reports.sweeps`: a :class:`Sweep` over sizes, of single runs or of instances.
"""

from __future__ import annotations

from pram.reports.entries import algorithm
from pram.reports.instances import (
    BATCH_LIMIT,
    Summary,
    batches_of,
    instance_seeds,
    refuse_instances,
    run_instances,
    summary_stats,
)
from pram.reports.runs import (
    SHOWN_VIOLATIONS,
    BoundResult,
    Control,
    Job,
    Run,
    build,
    execute,
    formula_text,
    measure_of,
    phase_rows,
    prepare,
)
from pram.reports.sweeps import (
    FITTED_DIGITS,
    STATISTICS,
    Sweep,
    bound_check,
    checks_of,
    fitted,
    grid,
    law_dict,
    phase_checks_of,
    refuse_sweep,
    sweep,
)
from pram.reports.tasks import Batch, Done, Outcome, Runner, Serial, Task, perform, run_all
from pram.reports.trials import MEASURES, RAM_MEASURES, Trial, run_batch, trial_of

__all__ = [
    "BATCH_LIMIT", "FITTED_DIGITS", "MEASURES", "RAM_MEASURES", "SHOWN_VIOLATIONS", "STATISTICS",
    "Batch", "BoundResult", "Control", "Done", "Job", "Outcome", "Run", "Runner", "Serial",
    "Summary", "Sweep", "Task", "Trial", "algorithm", "batches_of", "bound_check", "build",
    "checks_of", "execute", "fitted", "formula_text", "grid", "instance_seeds", "law_dict",
    "measure_of", "perform", "phase_checks_of", "phase_rows", "prepare", "refuse_instances",
    "refuse_sweep", "run_all", "run_batch", "run_instances", "summary_stats", "sweep", "trial_of",
]
