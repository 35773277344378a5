"""pram: a PRAM simulator with exact conflict reports and work and time accounting.

The machine (:class:`Machine`) runs programs (generators of :class:`Step`) synchronously under
an access model, flags every forbidden concurrent access, and counts time, work and the rest
while the program runs. Nothing here knows about particular algorithms or about rendering.

The public names, by role (``__all__`` lists them in the same order):

- the machine: :class:`Machine`, :data:`MAX_ACCESSES`, :class:`Observer`, and what a tracing
  machine records, :class:`Trace` (:mod:`pram.trace`), and what a machine made with
  ``depth=True`` records, :class:`Depths` and its chains' :class:`Link` (:mod:`pram.depth`);
- programs and steps: :data:`Program`, :class:`Step`, :class:`Read`, :class:`Write`,
  :class:`Bundle`, :data:`Values`, :func:`parallel`, :func:`parallel_all`, :func:`phase`,
  :func:`modular` (int64 arithmetic modulo 2**64 instead of overflow errors), :func:`iota`,
  and :class:`Until`, the loop test that ends a loop on a value in memory;
- memory: shared :class:`Array` of :data:`Words` (and :data:`Flags`), checked input
  :func:`words`, and each processor's :class:`Register`, made by :func:`hold`;
- models and what they report: :class:`Model`, :func:`model`, :data:`MODELS`, the
  collision symbol :data:`COLLISION`, :class:`Violation`, :class:`Resolution` (a cell a
  tolerant or collision rule settled), :class:`Kind`, :class:`UndefinedRead`;
- accounting: :class:`Cost`, :class:`PhaseCost`;
- bounds: :func:`check`, :func:`mean_check` (means over instances), :class:`Check`,
  :class:`Formula`;
- your own algorithm (:mod:`pram.declaration`): :class:`Algorithm`, the declaration the
  command line runs with ``--module``, its decorator :func:`declare`, :func:`formula` (a
  bound from its text), and :func:`sweep`, its result :class:`Sweep`;
- the weakest model of a run: :func:`weakest_model`, its result :class:`Weakest`;
- errors: :class:`PRAMError` and its kinds :class:`InputError`, :class:`StepError`,
  :class:`CellError`, :class:`AddressError`, :class:`UndefinedReadError`,
  :class:`ConflictError`, :class:`HonestyError`, :class:`IntegerOverflowError`,
  :class:`BatchPathError`.
"""

import sys as _sys

if str(getattr(_sys.modules.get("__main__"), "__file__", "")).replace("\\", "/").rsplit(
        "/", 1)[-1] in ("pram", "pram.exe", "pram-script.py"):
    # the pram command starting: Ctrl-C while it loads is one line and exit 130 (a library
    # import installs no handler); pram.reports.cli.main takes Ctrl-C over once loaded
    from pram import _startup

    _startup.hold_interrupts()

from pram.cost import Cost, PhaseCost
from pram.declaration import Algorithm, Sweep, declare, formula, sweep
from pram.depth import Depths, Link
from pram.errors import (
    AddressError,
    BatchPathError,
    CellError,
    ConflictError,
    HonestyError,
    InputError,
    IntegerOverflowError,
    PRAMError,
    StepError,
    StepNotYieldedWarning,
    UndefinedReadError,
)
from pram.laws.bounds import Check, Formula, check, mean_check
from pram.loop import Until
from pram.machine import MAX_ACCESSES, Machine
from pram.memory import Array, Flags, Words, words
from pram.models import COLLISION, MODELS, Model, model
from pram.registers import Observer, Register
from pram.registers.holding import hold
from pram.step import (
    Bundle,
    Program,
    Read,
    Step,
    Values,
    Write,
    iota,
    modular,
    parallel,
    parallel_all,
    phase,
)
from pram.trace import Trace
from pram.violations import Kind, Resolution, UndefinedRead, Violation
from pram.weakest import Weakest, weakest_model

# By role, in the order of the docstring above (not alphabetically, on purpose).
__all__ = [  # noqa: RUF022
    # the machine
    "Machine",
    "MAX_ACCESSES",
    "Observer",
    "Trace",
    "Depths",
    "Link",
    # programs and steps
    "Program",
    "Step",
    "Read",
    "Write",
    "Bundle",
    "Values",
    "parallel",
    "parallel_all",
    "phase",
    "modular",
    "iota",
    "Until",
    # memory
    "Array",
    "Words",
    "Flags",
    "words",
    "Register",
    "hold",
    # models and what they report
    "Model",
    "model",
    "MODELS",
    "COLLISION",
    "Violation",
    "Resolution",
    "Kind",
    "UndefinedRead",
    # accounting
    "Cost",
    "PhaseCost",
    # bounds
    "check",
    "mean_check",
    "Check",
    "Formula",
    # your own algorithm
    "Algorithm",
    "declare",
    "formula",
    "sweep",
    "Sweep",
    # the weakest model of a run
    "weakest_model",
    "Weakest",
    # errors
    "PRAMError",
    "InputError",
    "StepError",
    "StepNotYieldedWarning",
    "BatchPathError",
    "CellError",
    "AddressError",
    "UndefinedReadError",
    "ConflictError",
    "IntegerOverflowError",
    "HonestyError",
]

# Last, once every module that reads the machine's slots holds its accessors privately:
# take them off pram._held, so that no attribute path reaches them (see pram._held.seal).
from pram import _held

_held.seal()
del _held

# And every module of pram, loaded now or later, sealed against rebinding from outside
# (mock.patch, monkeypatch): the machine reads its rules from them while it runs.
from pram import _sealed  # noqa: E402

_sealed.seal_pram()
del _sealed
