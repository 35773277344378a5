"""Where a register's raw values live: a slot no attribute path reaches.

A :class:`pram.Register` keeps one value per processor. Were they an attribute
(``x._values``), any code that names attributes without calling anything could read them
mid-run: a format string (``"{0._values}".format(x)``, ``string.Formatter().get_field``),
``operator.attrgetter``, ``getattr`` with a computed name. So they sit in a slot of
:class:`Held` (the base of :class:`pram.Register`) whose descriptor is taken off the class
when this module is imported: the slot is still there, but no name leads to it, and only
:func:`raw_of` and :func:`put_raw` (the descriptor's own ``__get__`` and ``__set__``, kept here)
read and write it. The machine and the register's own methods use them; a program cannot
without importing this private module, which ``pram lint`` flags.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy.typing as npt


class Held:
    """The base of :class:`pram.Register`: one slot for the raw values, reached by no name."""

    __slots__ = ("_values",)


_SLOT: Any = Held.__dict__["_values"]
#: The raw values of a register (``raw_of(x)``), for the machine only.
raw_of: Callable[[Held], npt.NDArray[Any]] = _SLOT.__get__
#: Set the raw values of a register (``put_raw(x, values)``), for the machine only.
put_raw: Callable[[Held, npt.NDArray[Any]], None] = _SLOT.__set__
del Held._values  # type: ignore[attr-defined]  # the name goes; the slot stays

__all__ = ["Held", "put_raw", "raw_of"]
