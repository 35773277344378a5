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

from typing import Any

import numpy as np

from pram import Array, Machine, Register, Words, hold

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


__all__ = ["NIL", "coins", "first_true", "log2_ceil", "pick"]
