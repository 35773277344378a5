"""Circuits from runs: the run of an oblivious program, recorded as a circuit (H.7.6).

A :class:`Recorder` is an observer of the machine (``pram.registers.Observer``, set as
``Machine(observer=...)`` or ``m.observer``). While a program runs it sees every step (its reads
and writes) and every elementwise operation on registers, and turns them into a circuit:

- every **cell version** and every **register entry** is a *wire*: the cells of the arrays the
  caller declares with :meth:`Recorder.input` are the input wires; a cell never written and not
  an input holds a *constant* wire (the value a read returned); a write gives the cell the
  written register entry's wire;
- a **read** is wiring: the register entry it creates is the wire of the cell read (a constant
  0 where the read's ``where`` mask is False);
- every **elementwise operation** is one *gate* per register entry, of a kind named after the
  operation (:data:`KINDS`); an entry whose operands are all constants is folded into a
  constant (the value the machine computed), and a cast that keeps the value (``astype`` to a
  wider integer, or of a bit) is wiring, not a gate;
- at the end, the minimum and the maximum of the same two wires fuse into one ``comparator``
  gate with two outputs (a word comparator is one level), and gates that no output depends on
  are dropped.

A register the recorder never saw made (``pram.registers.hold`` does not tell observers) is
taken as constants: its values as they were. That is right for the sizes-only values ``hold`` is
meant for; ``pram circuit`` checks every circuit against the machine on random inputs, so a
register of data that slipped past as a constant shows up as a disagreement.

The addresses, processors and masks of the run are taken as they were in this run: the circuit
is the program's only if those do not depend on the input (check that first with
:mod:`pram.circuits.oblivious`). :func:`evaluate` (in :mod:`pram.circuits.io`, with the JSON,
Bristol Fashion and DOT writers) is an independent evaluator of a :class:`Circuit`: its own
small code path over the gates (numpy on K inputs at once), not the machine.

API (used by ``pram circuit`` and by any program that wants its circuit)::

    recorder = Recorder()
    m = Machine("erew", observer=recorder)
    a = m.array("a", values=data)
    recorder.input(a, bits=False)        # every cell of a is an input wire, in cell order
    m.run(program(m, a))
    recorder.output(a)                   # the cells' current wires are outputs, in cell order
    circuit = recorder.circuit()         # fused, pruned; circuit.size, .depth, .by_kind
    outputs = evaluate(circuit, inputs)  # inputs: (K, circuit.inputs.size) integers

``input`` and ``output`` may be called several times (wires append in call order) and take an
optional ``cells`` index array to declare only some cells. Gate kinds, word level: ``add``,
``sub``, ``mul``, ``min``, ``max``, ``comparator`` (two outputs: min, max), ``select``
(``where(c, a, b)``), ``equal``, ``not_equal``, ``less``, ``less_equal``, ``greater``,
``greater_equal``, ``shl``, ``shr``, ``neg``, ``div``, ``mod``, ``bool`` and the word bitwise
``and``, ``or``, ``xor``, ``invert``; bit level (every input wire a bit): ``AND``, ``XOR``,
``OR``, ``INV`` (``x ^ 1`` and ``logical_not`` of a bit are ``INV``). A wire is a *bit* when it is
an input declared with ``bits=True``, a constant 0 or 1, or the output of a gate that yields
bits (comparisons, bit gates, a select or min/max of bits).

>>> import numpy as np
>>> r = Recorder()
>>> r.operation("minimum", (np.array([1]), np.array([2])), np.array([1]))  # constants fold
>>> r.circuit().size
0
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs
import numpy.typing as npt

from pram._numpy import np
from pram.circuits.io import evaluate, groups
from pram.circuits.passes import NONE, Wires, concat, fuse, live, pad
from pram.memory import Array

#: Operation names (numpy ufuncs and array functions) and the gate kind each records.
KINDS: Mapping[str, str] = MappingProxyType({
    "add": "add",
    "subtract": "sub",
    "multiply": "mul",
    "minimum": "min",
    "fmin": "min",
    "maximum": "max",
    "fmax": "max",
    "where": "select",
    "equal": "equal",
    "not_equal": "not_equal",
    "less": "less",
    "less_equal": "less_equal",
    "greater": "greater",
    "greater_equal": "greater_equal",
    "left_shift": "shl",
    "right_shift": "shr",
    "negative": "neg",
    "floor_divide": "div",
    "remainder": "mod",
    "bitwise_and": "and",
    "logical_and": "and",
    "bitwise_or": "or",
    "logical_or": "or",
    "bitwise_xor": "xor",
    "logical_xor": "xor",
    "invert": "invert",
    "logical_not": "logical_not",
    "astype": "bool",
})

#: Word kinds that become bit gates when every input is a bit.
_BIT_KINDS = {"and": "AND", "or": "OR", "xor": "XOR", "invert": "INV", "logical_not": "INV"}

#: Kinds whose output is a bit whatever their inputs.
_BIT_VALUED = {
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "bool",
    "logical_not",
    "AND",
    "OR",
    "XOR",
    "INV",
}

#: The gates a boolean circuit (Bristol Fashion) is made of.
BOOLEAN = frozenset({"AND", "XOR", "INV"})

#: Operations that pass values through unchanged (wiring, not gates).
_PASS = {"copy", "positive", "asarray", "ascontiguousarray"}

#: Operations whose result depends on sizes only: constants.
_CONSTANT = {"zeros_like", "ones_like", "full_like", "empty_like"}


def _contents(x: Any) -> npt.NDArray[Any]:
    """The raw values of a register (or of a plain array), for the recorder's own use."""
    if type(x) is np.ndarray:
        return x
    registers = importlib.import_module("pram.registers")
    values: npt.NDArray[Any] = registers.contents(x)
    return values


@attrs.frozen(eq=False)
class Circuit:
    """A recorded circuit: gates in an order where every gate comes after its inputs' gates.

    Gate ``g`` has kind ``kinds[kind[g]]``, input wires ``ins[g]`` and output wires ``outs[g]``
    (padded with -1). ``batch[g]`` groups gates that can be evaluated together (one recorded
    operation; the gates of a batch do not feed each other). ``inputs`` and ``outputs`` are wire
    ids in declaration order; ``constants`` maps constant wires to their values; ``bits`` holds,
    per wire, whether it carries a bit. ``width`` is the number of wires per value of the
    inputs and outputs (d for tokens of d bits, else 1).
    """

    kinds: tuple[str, ...]
    kind: npt.NDArray[np.int64]
    ins: npt.NDArray[np.int64]
    outs: npt.NDArray[np.int64]
    batch: npt.NDArray[np.int64]
    wires: int
    inputs: Wires
    outputs: Wires
    constants: dict[int, int]
    bits: npt.NDArray[np.bool_]
    width: int = 1

    @property
    def size(self) -> int:
        """The number of gates (constants and wiring are free)."""
        return len(self.kind)

    @property
    def by_kind(self) -> dict[str, int]:
        """Gates per kind, most frequent first."""
        counts = np.bincount(self.kind, minlength=len(self.kinds))
        pairs = [(self.kinds[k], int(c)) for k, c in enumerate(counts) if c]
        return dict(sorted(pairs, key=lambda p: (-p[1], p[0])))

    @property
    def levels(self) -> npt.NDArray[np.int64]:
        """Each wire's depth: 0 for inputs and constants, 1 + the deepest input for a gate's."""
        level = np.zeros(self.wires, dtype=np.int64)
        for rows in groups(self.batch):
            ins = self.ins[rows]
            deepest = np.where(ins >= 0, level[np.maximum(ins, 0)], 0).max(axis=1)
            outs = self.outs[rows]
            for column in range(outs.shape[1]):
                live = outs[:, column] >= 0
                level[outs[live, column]] = deepest[live] + 1
        return level

    @property
    def depth(self) -> int:
        """The longest path from an input to an output, in gates."""
        if not len(self.outputs):
            return 0
        return int(self.levels[self.outputs].max())

    @property
    def boolean(self) -> bool:
        """Whether this is a boolean circuit: AND, XOR and INV gates on bits only."""
        return (
            all(self.kinds[k] in BOOLEAN for k in np.unique(self.kind))
            and bool(self.bits[self.inputs].all())
            and all(v in (0, 1) for v in self.constants.values())
        )

    def gates(self) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
        """Every gate as ``(kind, input wires, output wires)``, in evaluation order."""
        return [
            (
                self.kinds[k],
                tuple(int(w) for w in i if w >= 0),
                tuple(int(w) for w in o if w >= 0),
            )
            for k, i, o in zip(self.kind.tolist(), self.ins, self.outs, strict=True)
        ]


# ---- the recorder --------------------------------------------------------------------------


class Recorder:
    """An observer that records the run of a program as a :class:`Circuit` (see module doc)."""

    def __init__(self) -> None:
        self._wires = 0
        self._bits = np.zeros(1024, dtype=np.bool_)
        self._constant = np.zeros(1024, dtype=np.bool_)
        self._constants: dict[int, int] = {}
        self._constants_by_value: dict[int, int] = {}
        self._value = np.zeros(1024, dtype=np.int64)
        self._cells: dict[int, Wires] = {}
        self._arrays: dict[int, Array] = {}
        self._registers: dict[int, tuple[Any, Wires]] = {}
        self._inputs: list[Wires] = []
        self._outputs: list[Wires] = []
        self._kinds: dict[str, int] = {}
        self._batches: list[tuple[int, Wires, Wires]] = []  # kind, ins (k, a), outs (k, o)
        self.width = 1

    # ---- declarations by the caller ---------------------------------------------------------

    def input(self, array: Array, *, bits: bool = False, cells: Any = None) -> None:
        """Declare ``array``'s cells (all, or ``cells``) input wires, appended in that order."""
        index = self._cells_of(array, cells)
        wires = self._new(len(index), bits)
        self._table(array)[index] = wires
        self._inputs.append(wires)

    def output(self, array: Array, *, cells: Any = None) -> None:
        """Declare the current wires of ``array``'s cells (all, or ``cells``) outputs."""
        index = self._cells_of(array, cells)
        table = self._table(array)
        wires = table[index]
        unknown = wires < 0
        if unknown.any():
            wires[unknown] = self._constant_wires(array.to_numpy()[index[unknown]])
            table[index[unknown]] = wires[unknown]
        self._outputs.append(wires)

    # ---- the observer hooks -------------------------------------------------------------------

    def step(self, number: int, steps: Sequence[Any], replies: Sequence[Any]) -> None:
        """Wire each read's register to the cells read, then each write's cells to its values.

        Every branch's reads come before any branch's writes: a step reads memory as it was.
        """
        for step, reply in zip(steps, replies, strict=True):
            n = len(step.processors)
            for read, register in zip(step.reads, reply, strict=True):
                index, mask = self._where(read.index, read.where, n)
                table = self._table(read.array)
                wires = np.full(n, self._constant_wires(np.zeros(1, np.int64))[0], np.int64)
                cells = index[mask]
                got = table[cells]
                fresh = got < 0
                if fresh.any():  # never written and not an input: the value read is a constant
                    got[fresh] = self._constant_wires(_contents(register)[mask][fresh])
                    table[cells[fresh]] = got[fresh]
                wires[mask] = got
                self._registers[id(register)] = (register, wires)
        for step in steps:
            n = len(step.processors)
            for write in step.writes:
                index, mask = self._where(write.index, write.where, n)
                values = self._operand(write.value, n)
                self._table(write.array)[index[mask]] = values[mask]

    def operation(self, name: str, operands: tuple[Any, ...], result: Any) -> None:
        """Record one gate per entry of ``result`` (or wiring, or a folded constant)."""
        results = result if isinstance(result, tuple) else (result,)
        for k, one in enumerate(results):
            self._operation(name if len(results) == 1 else f"{name}{k}", operands, one)

    # ---- the circuit ----------------------------------------------------------------------------

    def circuit(self) -> Circuit:
        """The circuit recorded so far: min/max pairs fused into comparators, dead gates dropped."""
        kinds = tuple(self._kinds)
        if self._batches:
            kind = np.concatenate([np.full(len(i), k, np.int64) for k, i, _ in self._batches])
            ins = np.concatenate([pad(i, 3) for _, i, _ in self._batches])
            outs = np.concatenate([pad(o, 2) for _, _, o in self._batches])
            batch = np.concatenate(
                [np.full(len(i), b, np.int64) for b, (_, i, _) in enumerate(self._batches)]
            )
        else:
            kind = np.zeros(0, np.int64)
            ins = np.zeros((0, 3), np.int64)
            outs = np.zeros((0, 2), np.int64)
            batch = np.zeros(0, np.int64)
        kinds, kind, ins, outs, batch = fuse(kinds, kind, ins, outs, batch)
        outputs = concat(self._outputs)
        keep = live(ins, outs, batch, outputs, self._wires)
        kind, ins, outs, batch = kind[keep], ins[keep], outs[keep], batch[keep]
        order = np.argsort(batch, kind="stable")
        used = np.unique(kind)
        remap = np.full(len(kinds), -1, np.int64)
        remap[used] = np.arange(len(used))
        return Circuit(
            kinds=tuple(kinds[k] for k in used),
            kind=remap[kind[order]],
            ins=ins[order],
            outs=outs[order],
            batch=batch[order],
            wires=self._wires,
            inputs=concat(self._inputs),
            outputs=outputs,
            constants=dict(self._constants),
            bits=self._bits[: self._wires].copy(),
            width=self.width,
        )

    # ---- inside -----------------------------------------------------------------------------

    def _operation(self, name: str, operands: tuple[Any, ...], result: Any) -> None:
        out = _contents(result)
        n = out.size  # a register of a 2-D block of processors keeps its wires flat, in C order
        if name == "getitem":  # a register's entries for a plain key: wiring
            source, key = operands
            shaped = self._operand(source, -1).reshape(np.shape(_contents(source)))
            self._registers[id(result)] = (result, shaped[key].reshape(-1))
            return
        if name == "setitem":  # result[key] = value, in place: wiring
            _, key, value = operands
            before = self._operand(result, n).copy().reshape(out.shape)
            place = np.shape(before[key])
            before[key] = self._operand(value, int(np.prod(place))).reshape(place)
            self._registers[id(result)] = (result, before.reshape(-1))
            return
        if name == "hold":  # hold(processors, values): a register's copy, or sizes' constants
            self._registers[id(result)] = (result, self._operand(operands[-1], n))
            return
        if name in _CONSTANT:
            self._registers[id(result)] = (result, self._constant_wires(out))
            return
        parts = [x for x in operands if self._is_value(x)]
        wires = [self._operand(x, n) for x in parts]
        if name in _PASS or (name == "astype" and out.dtype.kind != "b"):
            self._registers[id(result)] = (result, wires[0])
            return
        kind = KINDS.get(name, name)
        folded = np.logical_and.reduce([self._constant[w] for w in wires]) if wires else None
        if folded is None or folded.all():
            self._registers[id(result)] = (result, self._constant_wires(out))
            return
        all_bits = bool(np.logical_and.reduce([self._bits[w] for w in wires]).all())
        if kind == "xor" and all_bits and len(wires) == 2:
            for a, b in ((0, 1), (1, 0)):  # x ^ 1 of a bit is INV
                if self._constant[wires[b]].all() and (self._value[wires[b]] == 1).all():
                    kind, wires = "INV", [wires[a]]
                    break
        if (kind == "bool" and all_bits) or (
            kind == "not_equal" and all_bits and self._zero(wires[1])
        ):
            self._registers[id(result)] = (result, wires[0])  # a bit is its own truth value
            return
        if all_bits:
            kind = _BIT_KINDS.get(kind, kind)
        if kind == "select":
            bit = bool(self._bits[wires[1]].all() and self._bits[wires[2]].all())
        elif kind in ("min", "max"):
            bit = all_bits
        else:
            bit = kind in _BIT_VALUED
        target = np.empty(n, np.int64)
        constant = folded
        if constant.any():
            target[constant] = self._constant_wires(out[constant])
        gates = ~constant
        if kind == "select":  # a select on a constant condition is wiring
            chosen = self._constant[wires[0]] & gates
            if chosen.any():
                truth = self._value[wires[0][chosen]] != 0
                target[chosen] = np.where(truth, wires[1][chosen], wires[2][chosen])
                gates &= ~chosen
        made = self._new(int(gates.sum()), bit)
        target[gates] = made
        ins = np.stack([w[gates] for w in wires], axis=1)
        self._batches.append((self._kind(kind), ins, made.reshape(-1, 1)))
        self._registers[id(result)] = (result, target)

    def _zero(self, wires: Wires) -> bool:
        return bool(self._constant[wires].all() and (self._value[wires] == 0).all())

    @staticmethod
    def _is_value(x: Any) -> bool:
        if isinstance(x, bool | int | float | np.generic | np.ndarray):
            return True
        return hasattr(x, "__array_ufunc__") and not isinstance(x, type)

    def _operand(self, x: Any, n: int) -> Wires:
        """The wires of an operand: a register's own, or constants (broadcast to ``n``)."""
        known = self._registers.get(id(x))
        if known is not None and known[0] is x:
            wires = known[1]
        else:
            wires = self._constant_wires(np.asarray(contents_or_value(x)).reshape(-1))
        if n < 0 or len(wires) == n:
            return wires
        return np.broadcast_to(wires, (n,)).copy()

    def _where(self, index: Any, where: Any, n: int) -> tuple[Wires, npt.NDArray[np.bool_]]:
        cells = np.broadcast_to(np.asarray(contents_or_value(index), np.int64), (n,))
        if where is None:
            return cells, np.ones(n, np.bool_)
        return cells, np.asarray(contents_or_value(where), np.bool_)

    def _table(self, array: Array) -> Wires:
        table = self._cells.get(id(array))
        if table is None:
            table = np.full(array.size, NONE, np.int64)
            self._cells[id(array)] = table
            self._arrays[id(array)] = array  # keep it alive, so its id stays its own
        return table

    @staticmethod
    def _cells_of(array: Array, cells: Any) -> Wires:
        if cells is None:
            return np.arange(array.size, dtype=np.int64)
        return np.asarray(cells, dtype=np.int64).reshape(-1)

    def _new(self, k: int, bits: bool | npt.NDArray[np.bool_]) -> Wires:
        first = self._wires
        self._wires += k
        while self._wires > len(self._bits):
            self._bits = np.concatenate([self._bits, np.zeros_like(self._bits)])
            self._constant = np.concatenate([self._constant, np.zeros_like(self._constant)])
            self._value = np.concatenate([self._value, np.zeros_like(self._value)])
        self._bits[first : self._wires] = bits
        return np.arange(first, self._wires, dtype=np.int64)

    def _constant_wires(self, values: npt.NDArray[Any]) -> Wires:
        """One wire per distinct constant value, shared by every use."""
        flat = np.asarray(values).astype(np.int64).reshape(-1)
        distinct, where = np.unique(flat, return_inverse=True)
        ids = np.empty(len(distinct), np.int64)
        for k, value in enumerate(distinct.tolist()):
            wire = self._values_wire(value)
            ids[k] = wire
        return ids[where.reshape(-1)]

    def _values_wire(self, value: int) -> int:
        wire = self._constants_by_value.get(value)
        if wire is None:
            wire = int(self._new(1, value in (0, 1))[0])
            self._constant[wire] = True
            self._constants[wire] = value
            self._value[wire] = value
            self._constants_by_value[value] = wire
        return wire

    def _kind(self, kind: str) -> int:
        return self._kinds.setdefault(kind, len(self._kinds))


def contents_or_value(x: Any) -> Any:
    if isinstance(x, bool | int | float | np.generic | np.ndarray) and (
        not isinstance(x, np.ndarray) or type(x) is np.ndarray
    ):
        return x
    return _contents(x)


__all__ = ["BOOLEAN", "KINDS", "Circuit", "Recorder", "Wires", "contents_or_value", "evaluate"]
