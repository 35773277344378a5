"""What people see: the ``pram`` command line, rich reports, progress bars, plots and exports.

For users' own tests: :func:`assert_erew` and :func:`assert_bound` fail with the violations, or
with the table of sizes, measured values and ratios; :func:`execute` and :func:`sweep` run a
registered algorithm and measure it.
"""

from pram.reports.assertions import assert_bound, assert_erew
from pram.reports.measure import Run, Sweep, execute, sweep
from pram.reports.registry import Options

__all__ = ["Options", "Run", "Sweep", "assert_bound", "assert_erew", "execute", "sweep"]
