"""pram: a PRAM simulator with exact conflict reports and work and time accounting.

The machine (:class:`Machine`) runs programs (generators of :class:`Step`) synchronously under
an access model, flags every forbidden concurrent access, and counts time, work and the rest
while the program runs. Nothing here knows about particular algorithms or about rendering.

The public names, by role (``__all__`` lists them in the same order):

- the machine: :class:`Machine`, :data:`MAX_ACCESSES`, :class:`Observer`;
- programs and steps: :data:`Program`, :class:`Step`, :class:`Read`, :class:`Write`,
  :class:`Bundle`, :data:`Values`, :func:`parallel`, :func:`parallel_all`, :func:`phase`,
  :func:`iota`;
- memory: shared :class:`Array` of :data:`Words` (and :data:`Flags`), checked input
  :func:`words`, and each processor's :class:`Register`, made by :func:`hold`;
- models and what they report: :class:`Model`, :func:`model`, :data:`MODELS`,
  :class:`Violation`, :class:`Kind`, :class:`UndefinedRead`;
- accounting: :class:`Cost`, :class:`PhaseCost`;
- bounds: :func:`check`, :class:`Check`, :class:`Formula`;
- errors: :class:`PRAMError` and its kinds :class:`InputError`, :class:`StepError`,
  :class:`CellError`, :class:`AddressError`, :class:`UndefinedReadError`,
  :class:`ConflictError`, :class:`HonestyError`.
"""

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

# By role, in the order of the docstring above (not alphabetically, on purpose).
__all__ = [  # noqa: RUF022
    # the machine
    "Machine",
    "MAX_ACCESSES",
    "Observer",
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
    "iota",
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
    "Violation",
    "Kind",
    "UndefinedRead",
    # accounting
    "Cost",
    "PhaseCost",
    # bounds
    "check",
    "Check",
    "Formula",
    # errors
    "PRAMError",
    "InputError",
    "StepError",
    "CellError",
    "AddressError",
    "UndefinedReadError",
    "ConflictError",
    "HonestyError",
]
