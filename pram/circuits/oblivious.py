"""Obliviousness: whether a program's processors, addresses and masks depend on its input.

A program is *oblivious* when every step's active processors, the cells each of them reads and
writes, and its masks are the same whatever the input values (for inputs of one size). Its run is
then a fixed circuit (:mod:`pram.circuits.circuit`). A :class:`Trace` is an observer that keeps
the access trace of a run; :func:`difference` compares two traces and returns the first place
they part (a :class:`Witness`), or None.

>>> import numpy as np
>>> from pram import Machine, Read, Step
>>> first, second = Trace(), Trace()
>>> for trace, cell in ((first, 0), (second, 1)):
...     m = Machine()
...     a = m.array("a", values=np.array([7, 8]))
...     trace.step(1, [Step(np.array([0]), reads=[Read(a, cell)])], [()])
>>> w = difference(first, second)
>>> (w.step, w.processor, w.first, w.second)
(1, 0, 'read a[0]', 'read a[1]')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy.typing as npt

from pram._numpy import np
from pram.circuits.circuit import contents_or_value

_Cells = npt.NDArray[np.int64]

#: One access port of one step: (verb, array name, cell per processor, -1 where masked off).
Port = tuple[str, str, _Cells]


@attrs.frozen(eq=False)
class Branch:
    """What one step of one parallel branch did: its phase, processors and ports."""

    phase: str
    processors: _Cells
    ports: tuple[Port, ...]


@attrs.frozen
class Witness:
    """Where two runs of a program part: the step, its phase, a processor, and its two accesses.

    ``first`` and ``second`` describe the access in each run (``"read keys[3]"``, ``"idle"``,
    ``"no step"``); ``inputs`` names the two inputs when the caller knows them.
    """

    step: int
    phase: str
    processor: int
    first: str
    second: str
    inputs: tuple[str, str] = ("", "")

    def named(self, first: str, second: str) -> Witness:
        """This witness, with the two inputs named."""
        return attrs.evolve(self, inputs=(first, second))

    def as_dict(self) -> dict[str, Any]:
        """The witness as JSON-ready fields."""
        return {
            "step": self.step,
            "phase": self.phase,
            "processor": self.processor,
            "inputs": list(self.inputs),
            "addresses": [self.first, self.second],
        }


class Trace:
    """An observer keeping, per global step, each branch's processors, cells and masks."""

    def __init__(self) -> None:
        self.steps: list[tuple[Branch, ...]] = []

    def step(self, number: int, steps: Sequence[Any], replies: Sequence[Any]) -> None:
        """Keep the accesses of global step ``number``."""
        del number, replies
        self.steps.append(tuple(_branch(step) for step in steps))

    def operation(self, name: str, operands: tuple[Any, ...], result: Any) -> None:
        """Elementwise work does not move data: nothing to keep."""


class Tee:
    """An observer that passes every call on to several observers, in order."""

    def __init__(self, *observers: Any) -> None:
        self.observers = observers

    def step(self, number: int, steps: Sequence[Any], replies: Sequence[Any]) -> None:
        """Pass the step on."""
        for observer in self.observers:
            observer.step(number, steps, replies)

    def operation(self, name: str, operands: tuple[Any, ...], result: Any) -> None:
        """Pass the operation on."""
        for observer in self.observers:
            observer.operation(name, operands, result)


def _branch(step: Any) -> Branch:
    processors = np.asarray(contents_or_value(step.processors), np.int64).copy()
    n = len(processors)
    ports: list[Port] = []
    for verb, accesses in (("read", step.reads), ("write", step.writes)):
        for access in accesses:
            cells = np.broadcast_to(np.asarray(contents_or_value(access.index), np.int64), (n,))
            cells = cells.copy()
            if access.where is not None:
                cells[~np.asarray(contents_or_value(access.where), np.bool_)] = -1
            ports.append((verb, access.array.name, cells))
    return Branch(step.phase, processors, tuple(ports))


def difference(first: Trace, second: Trace) -> Witness | None:
    """The first place where two traces differ, or None if they are the same."""
    for number, (a, b) in enumerate(zip(first.steps, second.steps, strict=False), start=1):
        witness = _step_difference(number, a, b)
        if witness is not None:
            return witness
    if len(first.steps) != len(second.steps):
        number = min(len(first.steps), len(second.steps)) + 1
        longer = first.steps if len(first.steps) > len(second.steps) else second.steps
        branch = longer[number - 1][0]
        there = _describe(branch, 0) if len(branch.processors) else "a step"
        here = "no step"
        pid = int(branch.processors[0]) if len(branch.processors) else -1
        pair = (there, here) if longer is first.steps else (here, there)
        return Witness(number, branch.phase, pid, *pair)
    return None


def _step_difference(
    number: int, a: tuple[Branch, ...], b: tuple[Branch, ...]
) -> Witness | None:
    for k in range(max(len(a), len(b))):
        if k >= len(a) or k >= len(b):
            branch = a[k] if k < len(a) else b[k]
            pid = int(branch.processors[0]) if len(branch.processors) else -1
            here, there = _describe(branch, 0), "idle"
            pair = (here, there) if k < len(a) else (there, here)
            return Witness(number, branch.phase, pid, *pair)
        x, y = a[k], b[k]
        if not np.array_equal(x.processors, y.processors):
            n = min(len(x.processors), len(y.processors))
            part = np.flatnonzero(x.processors[:n] != y.processors[:n])
            i = int(part[0]) if len(part) else n
            source = x if i < len(x.processors) else y
            pid = int(source.processors[i])
            first = _describe(x, i) if i < len(x.processors) else "idle"
            second = _describe(y, i) if i < len(y.processors) else "idle"
            return Witness(number, x.phase, pid, first, second)
        for p, (u, v) in enumerate(zip(x.ports, y.ports, strict=False)):
            if u[:2] != v[:2] or not np.array_equal(u[2], v[2]):
                i = int(np.flatnonzero(u[2] != v[2])[0]) if u[:2] == v[:2] else 0
                return Witness(
                    number, x.phase, int(x.processors[i]), _port(u, i), _port(v, i)
                )
            del p
        if len(x.ports) != len(y.ports):
            i = 0
            return Witness(number, x.phase, int(x.processors[i]), _describe(x, i), _describe(y, i))
    return None


def _port(port: Port, i: int) -> str:
    verb, name, cells = port
    return f"{verb} {name}[{int(cells[i])}]" if cells[i] >= 0 else f"no {verb} of {name}"


def _describe(branch: Branch, i: int) -> str:
    """Processor ``i``'s accesses in ``branch``, joined."""
    parts = [_port(port, i) for port in branch.ports]
    return ", ".join(parts) if parts else "no access"


__all__ = ["Branch", "Port", "Tee", "Trace", "Witness", "difference"]
