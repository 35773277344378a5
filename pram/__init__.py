"""pram: a PRAM simulator with exact conflict reports and work and time accounting.

The machine (:class:`Machine`) runs programs (generators of :class:`Step`) synchronously under
an access model, flags every forbidden concurrent access, and counts time, work and the rest
while the program runs. Nothing here knows about particular algorithms or about rendering.
"""

import sys as _sys

if _sys.argv and _sys.argv[0].replace("\\", "/").rsplit("/", 1)[-1] == "pram":
    # Started as the ``pram`` command: Ctrl-C while the imports below load ends with one line
    # and exit 130 (the command line takes Ctrl-C over once it is ready).
    from pram import _startup

    _startup.hold_interrupts()

from pram.bounds import Check, Formula, check
from pram.cost import Cost, PhaseCost
from pram.errors import (
    AddressError,
    CellError,
    ConflictError,
    HonestyError,
    InputError,
    PRAMError,
    StepError,
    UndefinedReadError,
)
from pram.holding import hold
from pram.machine import MAX_ACCESSES, Machine
from pram.memory import Array, Flags, Words, words
from pram.models import MODELS, Model, model
from pram.registers import Observer, Register
from pram.step import (
    Bundle,
    Program,
    Read,
    Step,
    Values,
    Write,
    iota,
    parallel,
    parallel_all,
    phase,
)
from pram.violations import Kind, UndefinedRead, Violation

__all__ = [
    "MAX_ACCESSES",
    "MODELS",
    "AddressError",
    "Array",
    "Bundle",
    "CellError",
    "Check",
    "ConflictError",
    "Cost",
    "Flags",
    "Formula",
    "HonestyError",
    "InputError",
    "Kind",
    "Machine",
    "Model",
    "Observer",
    "PRAMError",
    "PhaseCost",
    "Program",
    "Read",
    "Register",
    "Step",
    "StepError",
    "UndefinedRead",
    "UndefinedReadError",
    "Values",
    "Violation",
    "Words",
    "Write",
    "check",
    "hold",
    "iota",
    "model",
    "parallel",
    "parallel_all",
    "phase",
    "words",
]
