"""The machine's exceptions: each names the rule, who broke it, what and when.

Every class also subclasses the matching builtin, so ``except IndexError`` still catches an
out-of-range access, and carries its subject as attributes for programs that inspect it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pram.violations import Violation


class StepNotYieldedWarning(UserWarning):
    """A program made steps it never yielded: the machine did not execute them, and the run's
    counts leave them out (``Step(...)`` without ``yield`` is a statement that does nothing)."""


class PRAMError(Exception):
    """Base class of everything the machine raises.

    ``instance`` is the instance of a batched run (``Machine(batch=B)``) the error is about,
    None on a single machine or when it is about no one instance: a report reads it here
    rather than out of the message.
    """

    #: The instance of a batch the error is about; None on a single machine.
    instance: int | None = None

    def __init__(self, *args: Any, instance: int | None = None) -> None:
        """The builtin's ``args``, and the batch's ``instance`` kept when there is one."""
        super().__init__(*args)
        if instance is not None:
            self.instance = instance

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as class, arguments and attributes, so the error crosses whole to another
        process (a sweep's worker raises it, the command line reports it)."""
        return (_restore, (type(self), self.args, dict(self.__dict__)))


def _restore(cls: type[PRAMError], args: tuple[Any, ...], attributes: dict[str, Any]) -> PRAMError:
    """The error ``cls`` with ``args`` and ``attributes``, without calling its ``__init__``."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(attributes)
    return error


class InputError(PRAMError, ValueError):
    """A value passed to the public API is not acceptable; the message names it and the fix."""


class StepError(PRAMError, ValueError):
    """A program asked for a step the machine cannot execute (malformed or too many accesses)."""

    def __init__(self, message: str, step: int, *, instance: int | None = None) -> None:
        super().__init__(message, instance=instance)
        self.step = step


class CellError(PRAMError):
    """A processor's access to one cell was refused; the subject is kept on attributes."""

    def __init__(self, message: str, *, step: int, array: str, index: int, processor: int,
                 instance: int | None = None) -> None:
        super().__init__(message, instance=instance)
        self.step = step
        self.array = array
        self.index = index
        self.processor = processor


class AddressError(CellError, IndexError):
    """A processor accessed a cell outside its array."""


class UndefinedReadError(CellError, LookupError):
    """A processor read a cell that was allocated without a value and never written."""


class HonestyError(PRAMError):
    """A program tried to move a value between processors, or to turn data into host control
    flow, outside the machine's steps; the message names the operation and the fix."""


class ConflictError(PRAMError):
    """A step broke the access model's exclusivity rule (raised in ``mode="raise"``)."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(violation.message, instance=violation.instance)
        self.violation = violation


class IntegerOverflowError(PRAMError, OverflowError):
    """An elementwise operation on int64 registers overflowed: the run failed.

    The machine raises it from :meth:`pram.Machine.run` before the next step (or as the run
    ends), never inside the program, so a program's ``try``/``except`` learns nothing from
    it. ``operation`` is the ufunc's name, ``processor`` the first processor whose result
    overflowed, ``operands`` its operands and ``step`` the step the work came before.
    """

    def __init__(
        self, message: str, *, operation: str, processor: int, operands: tuple[int, ...],
        step: int, instance: int | None = None,
    ) -> None:
        super().__init__(message, instance=instance)
        self.operation = operation
        self.processor = processor
        self.operands = operands
        self.step = step


class BatchPathError(StepError):
    """The instances of a batch took different paths at a loop test and the program cannot be
    made again to run the instances that left the batch's path (a started generator, or one
    the machine cannot rebuild): the run is refused there rather than counted wrong."""


#: The most characters of a user's error message a one-line report quotes (its middle elided).
QUOTED = 300


def said(error: BaseException) -> str:
    """The first line of ``error``'s message, or ``no message``: what a one-line report of a
    user's error quotes, at most :data:`QUOTED` characters (a message of 100,000 made a line
    of 100 KB). An error whose ``str()`` itself raises (a class of the user's with a broken
    ``__str__``) is quoted by that, never raised again."""
    try:
        text = str(error).strip()
    except Exception as broken:
        return f"its message cannot be shown: str() raised {type(broken).__name__}"
    first = text.splitlines()[0] if text else "no message"
    if len(first) <= QUOTED:
        return first
    half = QUOTED // 2
    return f"{first[:half]} ... ({len(first) - 2 * half:,} characters) ... {first[-half:]}"
