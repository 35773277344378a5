"""Circuits built by hand, gate by gate: the :class:`Builder` beside the recorded ones.

A recorded circuit comes from a run (:class:`pram.circuits.circuit.Recorder`); a hand-built
one, like the paper's pbs-key-values circuit (:mod:`pram.algorithms.pbs_circuit`), is a list of
gates whose levels are known as they are added. Both are :class:`pram.circuits.circuit.Circuit`
objects, evaluated and written by :mod:`pram.circuits.io`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pram._numpy import np
from pram.circuits.circuit import Circuit


class Builder:
    """A gate list under construction, for a circuit built by hand (not recorded from a run):
    every gate's level is known when it is added, and :meth:`circuit` orders the gates by level
    into a :class:`~pram.circuits.circuit.Circuit`.

    >>> b = Builder()
    >>> x, y = b.new(0, bit=True), b.new(0, bit=True)
    >>> c = b.circuit([x, y], [b.gate("AND", x, y, bit=True)], width=1)
    >>> (c.size, c.depth, c.boolean)
    (1, 1, True)
    """

    def __init__(self) -> None:
        self.wires = 0
        self.level: list[int] = []
        self.bit: list[bool] = []
        self.gates: list[tuple[str, tuple[int, ...], int]] = []
        self.constants: dict[int, int] = {}
        self._by_value: dict[int, int] = {}

    def new(self, level: int, bit: bool) -> int:
        """A fresh wire at ``level`` (0 for an input), carrying a bit or a word."""
        self.level.append(level)
        self.bit.append(bit)
        self.wires += 1
        return self.wires - 1

    def constant(self, value: int) -> int:
        """The constant wire of ``value`` (one per value)."""
        wire = self._by_value.get(value)
        if wire is None:
            wire = self.new(0, value in (0, 1))
            self.constants[wire] = value
            self._by_value[value] = wire
        return wire

    def gate(self, kind: str, *ins: int, bit: bool = False) -> int:
        """A gate of ``kind`` on wires ``ins``; returns its output wire."""
        out = self.new(1 + max(self.level[w] for w in ins), bit)
        self.gates.append((kind, ins, out))
        return out

    def circuit(self, inputs: Sequence[int], outputs: Sequence[int], width: int) -> Circuit:
        """The circuit of the gates so far, with these input and output wires."""
        kinds = tuple(sorted({k for k, _, _ in self.gates}))
        number = {k: i for i, k in enumerate(kinds)}
        level = np.array([self.level[o] for _, _, o in self.gates], dtype=np.int64)
        order = np.argsort(level, kind="stable")
        ins = np.full((len(self.gates), 3), -1, dtype=np.int64)
        outs = np.full((len(self.gates), 2), -1, dtype=np.int64)
        for g, (_, i, o) in enumerate(self.gates):
            ins[g, : len(i)] = i
            outs[g, 0] = o
        kind = np.array([number[k] for k, _, _ in self.gates], dtype=np.int64)
        return Circuit(
            kinds=kinds,
            kind=kind[order],
            ins=ins[order],
            outs=outs[order],
            batch=level[order],
            wires=self.wires,
            inputs=np.array(inputs, dtype=np.int64),
            outputs=np.array(outputs, dtype=np.int64),
            constants=dict(self.constants),
            bits=np.array(self.bit, dtype=np.bool_),
            width=width,
        )


__all__ = ["Builder"]
