"""Registers: what a step's reads return, bound to the processors of that step and to its run.

Between steps a processor may only compute on its own registers, in O(1) (engine.md, "A step").
A :class:`Register` enforces that by construction. It holds one value per processor together
with the ids of the processors the values belong to and the token of the run it belongs to
(:mod:`pram.run`), and numpy routes every operation on it through
:meth:`Register.__array_ufunc__` and :meth:`Register.__array_function__` (NEP 13, 18). While its
run is active, what it accepts is an allow-list (:mod:`pram.registers.allowed`), nothing else:

- operands are registers of the same processors and run, numbers (Python's, numpy's numeric
  scalars) and plain numeric ``numpy.ndarray`` of exactly that type (computed from sizes);
  dtypes are bool, integers, floats or complex;
- elementwise ufuncs without a core signature, called (no ufunc methods), with ``out=`` and
  ``where=`` only registers of the same processors; the array functions of
  :data:`pram.registers.allowed.FUNCTIONS`, each with its keyword arguments; ``astype``, ``copy``,
  ``view`` with the same itemsize, in-place operators, ``copy.copy``;
- every operation is total: floating-point reports are silenced, so no exception or warning
  depends on the data (an integer power with a register exponent is refused by type);
- indexing by a plain key (a slice, a boolean mask or integers computed from sizes) selects
  processors by size together with their values; indexing by a boolean register of the same
  processors gives the processors that chose themselves by their data. Such a register is
  *opaque*: its size is data, so ``len``, ``shape``, ``size``, ``repr`` and every other way of
  asking refuse while the run is active, and it combines only with scalars and registers of
  the same selection (the same mask register); a :class:`pram.Step` and :func:`hold` take it;
- everything else raises :class:`pram.HonestyError` naming the operation and the fix.

After the run a register is output, like ``Array.to_numpy()``: numpy may do anything with it.

Where it lives: :mod:`~pram.registers.register` the class (its sizes, operators and refusals of
the host), :mod:`~pram.registers.operations` the machinery of its numpy protocol (operands
unwrapped, results wrapped, counted and observed), :mod:`~pram.registers.functions` numpy's
array functions, :mod:`~pram.registers.selection` selecting processors (``x[key]``,
``x[key] = v``), :mod:`~pram.registers.overflow` int64 overflow, :mod:`~pram.registers.allowed`
the allow-list and its one refusal, :mod:`~pram.registers.ids` processor ids and
:mod:`~pram.registers.holding` register files (:func:`pram.hold`). The machinery under the
class never imports it: it is handed the class of the register at hand.

>>> import numpy as np
>>> from pram import Machine, Read, Step, Write, iota
>>> m = Machine()
>>> a = m.array("a", values=np.array([3, 4]))
>>> def double(m, a):
...     pid = m.processors(2)
...     x, = yield Step(pid, reads=[Read(a, iota(2))])
...     yield Step(pid, writes=[Write(a, iota(2), np.where(x > 3, 2 * x, x))])
>>> m.run(double(m, a)); a.to_numpy().tolist()
[3, 8]
"""

from pram.registers.allowed import THROUGH_MEMORY
from pram.registers.ids import Chosen, freeze, same_processors
from pram.registers.register import Register, contents, processors
from pram.run import Observer, running

__all__ = [
    "THROUGH_MEMORY",
    "Chosen",
    "Observer",
    "Register",
    "contents",
    "freeze",
    "processors",
    "running",
    "same_processors",
]
