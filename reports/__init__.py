"""What people see: the ``pram`` command line, rich reports, progress bars, plots and exports.

For users' own tests: :func:`assert_erew` and :func:`assert_bound` fail with the violations, or
with the table of sizes, measured values and ratios; :func:`execute` and :func:`sweep` run a
registered algorithm and measure it.
"""

if __name__ != "pram.reports":
    # One module object per file: this folder installs as pram.reports (pyproject.toml maps it);
    # imported as plain ``reports`` (from the top of the checkout) each file would load twice.
    raise ImportError(
        f"{__name__!r} is not importable by that name: import pram.reports instead "
        f"(it is installed as pram.reports; pip install -e . from the checkout)",
        name=__name__,
    )


from pram.reports.assertions import assert_bound, assert_erew, assert_flagged, assert_model
from pram.reports.registry import Options
from pram.reports.runs import Run, execute
from pram.reports.sweeps import Sweep, sweep

__all__ = [
    "Options", "Run", "Sweep", "assert_bound", "assert_erew", "assert_flagged", "assert_model",
    "execute", "sweep",
]
