"""numpy as it was when pram was imported: the one ``np`` every module of the machine uses.

The guard of :class:`pram.Register` and the engine hand raw values (a register's, the cells
of memory) to numpy's callables (``np.take``, ``np.where``, ``np.errstate``, ...). Were they
looked up on the numpy module at each call, a program that rebinds one (``np.take = spy``,
``numpy.where = ...``, ``setattr(np, "errstate", ...)``) would receive those raw values, or
turn the silenced floating-point reports back on. So every module of ``pram`` takes ``np``
from here: a copy of numpy's namespace made once, when pram is imported, which rebinding
numpy's attributes afterwards does not change. (A name numpy loads lazily, such as a
submodule first used later, is looked up on numpy itself; ``pram lint`` flags assignments to
numpy's attributes in a program's source.)
"""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Any

import numpy


def _snapshot(module: types.ModuleType) -> types.ModuleType:
    """A module holding ``module``'s names as they are now (the objects themselves)."""
    frozen = types.ModuleType(module.__name__, module.__doc__)
    frozen.__dict__.update(vars(module))

    def later(name: str) -> Any:  # a name numpy makes on first use (PEP 562)
        return getattr(module, name)

    frozen.__dict__["__getattr__"] = later
    return frozen


if TYPE_CHECKING:
    import numpy as np
else:
    np = _snapshot(numpy)

__all__ = ["np"]
