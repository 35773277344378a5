"""Your own algorithm, declared once: run it, sweep it and check it like a built-in one.

A :class:`Algorithm` says everything the command line and :func:`sweep` need about a PRAM
algorithm of yours: its name, how a random instance of size n is built from a seed, the
program (run on a :class:`pram.Machine`), the reference answer it is compared with, the
model it is written for and its bounds, formulas in n such as ``"n log2(n)"``. Optionally: how
an input file is read (``--input``) and a tolerance for answers in floating point.

>>> import numpy as np
>>> from pram import Read, Step, Write, iota
>>> def double(m, a):
...     n = len(a)
...     pid, i = m.processors(n), iota(n)
...     (x,) = yield Step(pid, reads=[Read(a, i)])
...     yield Step(pid, writes=[Write(a, i, 2 * x)])
...     return a
>>> doubling = Algorithm(
...     name="double",
...     build=lambda n, rng: {"a": rng.integers(0, 100, size=n)},
...     program=double,
...     reference=lambda a: 2 * a,
...     bounds={"work": "n", "time": "1"},
... )
>>> result = sweep(doubling, [8, 16, 32, 64, 128])
>>> result.checks["work"].summary, result.laws["work"].text, result.ok
('holds, tight', '2 n', True)

The machine owns the data: the framework allocates every input that ``build`` (or ``load``)
makes on the machine, as an :class:`pram.Array` named after it, hands the program those
arrays (never the numpy data), runs the program (a generator, composed of other programs with
``yield from``) and reads the answer from the array the program returns, after the run. So a
program cannot compute its answer on the host: the host code of a program runs while memory
is sealed, and an answer that is not an array of the machine is refused.

``pram run --module FILE NAME`` (or ``FILE:NAME``, ``package.module:NAME``) runs a declaration
found in a file exactly like a built-in algorithm, and so do ``pram sweep``, ``pram trace`` and
``pram report``. The decorator :func:`declare` is the same declaration written on the program.

Nothing here imports the reports or rich: the command line builds its entries from
declarations (:func:`pram.reports.registry.entry_of`). Where it lives:
:mod:`~pram.declaration.algorithm` the declaration, :mod:`~pram.declaration.fields` what its
fields may hold, :mod:`~pram.declaration.formulas` the bounds' formulas,
:mod:`~pram.declaration.sweeping` sweeps from Python,
:mod:`~pram.declaration.apart` the child process that draws the instances (``build`` and
``load`` run there, so nothing they keep in the module's globals reaches the program).
"""

from pram.declaration.algorithm import Algorithm, declare, mismatch
from pram.declaration.apart import drawing, drawn, of_the_drawing
from pram.declaration.fields import SIZES
from pram.declaration.formulas import MEASURES, formula
from pram.declaration.sweeping import Point, Sweep, sweep

__all__ = [
           "MEASURES",
           "SIZES",
           "Algorithm",
           "Point",
           "Sweep",
           "declare",
           "drawing",
           "drawn",
           "formula",
           "mismatch",
           "of_the_drawing",
           "sweep",
]
