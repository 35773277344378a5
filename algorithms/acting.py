"""Helpers shared by the programs that let processors select themselves, and by their seeds.

A processor that decides from its own registers to sit a step out is not charged for it: the
machine counts the processors a :class:`pram.Step` lists, and ``hold(pid, pid)[mask]`` lists
exactly those whose mask holds, without the host learning which they are. This is how a loop
whose active set shrinks (list ranking's live nodes, tree contraction's leaves) pays only for
the processors still at work.

>>> import numpy as np
>>> from pram import Machine, Read, Step, Write
>>> m = Machine()
>>> a = m.array("a", values=np.array([5, 1, 7]))
>>> def clear_large(m, a):
...     pid = m.processors(3)
...     (x,) = yield Step(pid, reads=[Read(a, np.arange(3))])
...     big = x > 4
...     who, cell = pick(pid, big, pid), pick(pid, big, np.arange(3))
...     yield Step(who, writes=[Write(a, cell, 0)])
>>> m.run(clear_large(m, a)); a.to_numpy().tolist(), m.cost.work
([0, 1, 0], 5)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pram import Array, Machine, Program, Register, Words, hold, phase

#: No node: the successor of a list's tail, the parent of a root.
NIL = -1


def pick(pid: Words, mask: Any, x: Any) -> Any:
    """The entries of ``x`` for the processors of ``pid`` whose ``mask`` holds.

    ``x`` is a register of ``pid`` or a plain array (or scalar) computed from sizes; ``mask``
    is a register of ``pid`` (each processor deciding) or a plain mask. ``pick(pid, mask,
    pid)`` is the acting processors' ids, for a :class:`pram.Step`.
    """
    if isinstance(mask, Register):
        if isinstance(x, Register):
            return x[mask]
        return hold(pid, x)[mask]
    if isinstance(x, Register):
        return x[mask]
    return np.broadcast_to(np.asarray(x), pid.shape)[mask]


def log2_ceil(n: int) -> int:
    """``ceil(log2 n)``: the doublings that take 1 to at least ``n`` (0 for n <= 1)."""
    return (n - 1).bit_length() if n > 1 else 0


def coins(m: Machine, name: str, size: int, seed: int) -> Array:
    """An array of ``size`` fair random bits drawn from ``seed``, written before the run.

    The random choices of a randomized program are data in memory like its input: the host
    draws them from the seed alone (it looks at no input), and the processors read them in
    steps, each its own cell.
    """
    rng = np.random.default_rng(seed)
    return m.array(name, values=rng.integers(0, 2, size=size, dtype=np.int64))


def first_true(flags: Any) -> int | None:
    """The first position where ``flags`` holds, or None (a host-side input check, before any
    run: the processors never see it)."""
    for i, flag in enumerate(np.asarray(flags).tolist()):
        if flag:
            return int(i)
    return None


def answer_of(
    m: Machine, name: str, values: Words, size: int,
    program: Callable[[Array, int, Array], Program[None]],
) -> Words:
    """Run on ``m`` a program that reads n values and writes ``size`` answer cells:
    ``values`` are stored as ``{name}/values`` and the cells allocated as ``{name}/out``,
    ``program(values' array, n, out)`` runs as the phase ``name``, and out's cells are the
    answer (the form of the catalogue's maximum, rank sort and cascading maxima)."""
    cells = m.array(f"{name}/values", values=values)
    out = m.array(f"{name}/out", size=size)
    m.run(phase(name, program(cells, len(values), out)))
    return out.to_numpy()


def fresh_scope(m: Machine, scope: Callable[[int], str], array: str) -> str:
    """The first of ``scope(1)``, ``scope(2)``, ... under which the array ``array`` is not
    yet on ``m``: the prefix of a run's array names, so that a second run of one program on
    one machine collides with nothing.

    >>> m = Machine()
    >>> _ = m.array("keys", size=1)
    >>> fresh_scope(m, lambda count: "" if count == 1 else f"run {count}/", "keys")
    'run 2/'
    """
    count = 1
    while scope(count) + array in m.arrays:
        count += 1
    return scope(count)


def find_root(root: list[int], x: int) -> int:
    """The root of ``x`` in the forest ``root`` (a root r has ``root[r] == r``), halving the
    path on the way: the find of a union-find on the host (an input check or a reference,
    never a step of the machine).

    >>> root = [0, 0, 1, 2]
    >>> find_root(root, 3), root
    (0, [0, 0, 1, 1])
    """
    while root[x] != x:
        root[x] = root[root[x]]
        x = root[x]
    return x


__all__ = [
    "NIL", "answer_of", "coins", "find_root", "first_true", "fresh_scope", "log2_ceil", "pick",
]
