"""Helpers shared by several test modules: a pattern matching one whole message, an int64
array of given values, the step that reads an array into one register per processor, a random
expression, the installed command, a user's module declaring a copy, and whether the tests run
against this checkout (an editable install) or a regular install."""

from __future__ import annotations

import re
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import pram
from pram import Machine, Read, Step, iota


def whole(message: str) -> str:
    """A pattern (for ``pytest.raises(match=...)``) matching exactly ``message``."""
    return "^" + re.escape(message) + "$"


def ints(*values: int) -> np.ndarray:
    """The int64 array of ``values``."""
    return np.array(values, dtype=np.int64)


#: Sixteen values some above 500, some not (an outside red team's data, the runs' input).
D16 = np.array([381, 349, 353, 426, 997, 619, 230, 197, 139, 281, 464, 497, 258, 740, 926, 607])
N16 = len(D16)


def read_all(m: Machine, a: Any, n: int) -> Generator[Any, Any, tuple[Any, Any]]:
    """One step in which processors 0..n-1 each read their cell of ``a``: their ids and the
    register read."""
    pid = m.processors(n)
    (x,) = yield Step(pid, reads=[Read(a, iota(n))])
    return pid, x


#: The top of the checkout the tests run from.
CHECKOUT = Path(__file__).resolve().parent.parent

#: Whether the installed pram is this checkout (an editable install) rather than a copy (a
#: regular ``pip install .``): some behaviours exist only in a checkout (its committed report/,
#: its folders refusing to import under their own names).
EDITABLE = Path(pram.__file__).resolve().parent.parent == CHECKOUT

#: For a test of what only a checkout does: skipped against a regular install.
checkout_only = pytest.mark.skipif(
    not EDITABLE, reason="only a checkout (an editable install) has this behaviour")


#: The installed command (its start-up handles a signal from its first line on).
PRAM_COMMAND = str(Path(sys.executable).with_name("pram"))

#: The source of a user's module (``--module``) declaring ``copy``, a one-input copy of an
#: array ``a`` in two steps, with the work bound ``BOUND`` (to be replaced) and time 1.
COPY_MODULE = '''
import numpy as np
from pram import Read, Step, Write, iota
import pram

def build(n, rng):
    return {"a": rng.integers(0, 100, n)}

def prog(m, a):
    n = a.size
    pid = m.processors(n)
    (x,) = yield Step(pid, reads=[Read(a, iota(n))])
    out = m.array("out", n)
    yield Step(pid, writes=[Write(out, iota(n), x)])
    return out

copy = pram.Algorithm(name="copy", build=build, program=prog, reference=lambda a: a.copy(),
                      bounds={"work": "BOUND", "time": "1"})
'''


def declared_module(name: str, imports: str, body: str) -> str:
    """The source of a user's module (``--module``) declaring one program ``name`` of an
    array x: ``imports`` then numpy's and pram's, random inputs in 0..99, x itself as the
    reference, bounds work n and time 1; ``body`` follows the program's ``n = len(x)``."""
    return f'''
{imports}
import numpy as np

import pram
from pram import Read, Step, Write, iota


def build(n, rng):
    return rng.integers(0, 100, n)


@pram.declare(build=build, reference=lambda x: x, bounds={{"work": "n", "time": "1"}})
def {name}(m, x):
    n = len(x){body}'''


def bench_figures(
    *, large: tuple[float, float, float, float], tiny: float,
    small: tuple[tuple[float, float], tuple[float, float]],
    ratios: tuple[float, float, float, float],
) -> dict[str, Any]:
    """Figures in the shape ``pram bench`` measures: ``large`` processor-steps per second
    (contiguous, random-order, and numpy's two), ``tiny`` seconds per step, ``small`` seconds
    per step and numpy's at 64 and 1024 processors, and the ``ratios`` over numpy (64, 1024,
    large contiguous, large random)."""
    names = ("processor_steps_per_second", "random_order_processor_steps_per_second",
             "numpy_processor_steps_per_second", "numpy_random_order_processor_steps_per_second")
    return {
        "large_step": {"processors": 1048576, **dict(zip(names, large, strict=True))},
        "tiny_step": {"processors": 1, "seconds_per_step": tiny},
        "small_step": {
            str(p): {"processors": p, "seconds_per_step": own, "numpy_seconds_per_step": numpy}
            for p, (own, numpy) in zip((64, 1024), small, strict=True)
        },
        "ratios": dict(zip(("64", "1024", "large_step", "large_step_random"), ratios,
                           strict=True)),
    }


def random_expression(rng: np.random.Generator, leaves: int, digits: int) -> str:
    """A random expression of ``leaves`` integers below ``digits``, ``+`` and ``*``, fully
    bracketed (the input of the expression-tree programs)."""
    if leaves == 1:
        return str(int(rng.integers(0, digits)))
    left = int(rng.integers(1, leaves))
    op = "+*"[int(rng.integers(0, 2))]
    return (f"({random_expression(rng, left, digits)} {op} "
            f"{random_expression(rng, leaves - left, digits)})")
