"""A circuit evaluated and written out: the independent evaluator, JSON, Bristol Fashion, DOT.

:func:`evaluate` runs a :class:`pram.circuits.circuit.Circuit` on K inputs at once by its own
small code path over the gates (a table of gate functions, batch by batch), never the machine,
so checking it against the machine is a check of the recorder. The writers give the circuit
to other tools:

- :func:`to_json`, one object::

    {"format": "pram-circuit/1", "algorithm": "sort", "n": 8, "d": 1, "keys": "word",
     "wires": 24, "inputs": [0, ...], "outputs": [...], "constants": [[wire, value], ...],
     "gates": [{"kind": "comparator", "in": [0, 1], "out": [8, 9]}, ...],
     "size": 24, "depth": 6, "by_kind": {"comparator": 24}}

  (the fields after ``format`` up to ``keys`` are the caller's ``about``); ``inputs`` and
  ``outputs`` are wire ids in order (token by token; with bit keys, d wires per token, least
  significant bit first); gates are listed so that each comes after the gates that feed it; a
  ``comparator`` has two outputs (min, then max), every other gate one.
- :func:`to_bristol`, a boolean circuit in Bristol Fashion;
- :func:`to_dot`, a Graphviz digraph.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from pram._numpy import np
from pram.errors import InputError

if TYPE_CHECKING:  # the type only: pram.circuits.circuit imports this module
    from pram.circuits.circuit import Circuit


def groups(batch: npt.NDArray[np.int64]) -> list[npt.NDArray[np.int64]]:
    """Row indices of each run of equal batch numbers (batches are sorted)."""
    if not len(batch):
        return []
    cuts = np.flatnonzero(np.diff(batch)) + 1
    return np.split(np.arange(len(batch), dtype=np.int64), cuts)


# ---- the independent evaluator -------------------------------------------------------------

_I64 = npt.NDArray[np.int64]


def _b(x: npt.NDArray[Any]) -> _I64:
    return x.astype(np.int64)


GATES: Mapping[str, Callable[..., Any]] = MappingProxyType({
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "min": lambda a, b: np.minimum(a, b),
    "max": lambda a, b: np.maximum(a, b),
    "comparator": lambda a, b: (np.minimum(a, b), np.maximum(a, b)),
    "select": lambda c, a, b: np.where(c != 0, a, b),
    "equal": lambda a, b: _b(a == b),
    "not_equal": lambda a, b: _b(a != b),
    "less": lambda a, b: _b(a < b),
    "less_equal": lambda a, b: _b(a <= b),
    "greater": lambda a, b: _b(a > b),
    "greater_equal": lambda a, b: _b(a >= b),
    "shl": lambda a, b: a << b,
    "shr": lambda a, b: a >> b,
    "neg": lambda a: -a,
    "div": lambda a, b: a // b,
    "mod": lambda a, b: a % b,
    "bool": lambda a: _b(a != 0),
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "invert": lambda a: ~a,
    "clip": lambda a, lo, hi: np.minimum(np.maximum(a, lo), hi),
    "logical_not": lambda a: _b(a == 0),
    "AND": lambda a, b: a & b,
    "OR": lambda a, b: a | b,
    "XOR": lambda a, b: a ^ b,
    "INV": lambda a: a ^ 1,
})


def evaluate(circuit: Circuit, inputs: Any) -> _I64:
    """The circuit's outputs on each row of ``inputs`` (shape ``(K, inputs)``): ``(K, outputs)``.

    Its own code path: a table of gate functions applied batch by batch, never the machine.
    """
    values = np.asarray(inputs, dtype=np.int64)
    if values.ndim != 2 or values.shape[1] != len(circuit.inputs):
        raise InputError(
            f"a circuit with {len(circuit.inputs)} inputs is evaluated on an array of shape "
            f"(K, {len(circuit.inputs)}) (got shape {values.shape})"
        )
    unknown = sorted({circuit.kinds[k] for k in np.unique(circuit.kind)} - set(GATES))
    if unknown:
        raise InputError(f"the evaluator knows no gate of kind {unknown[0]!r}")
    wire = np.zeros((circuit.wires, len(values)), dtype=np.int64)
    wire[circuit.inputs] = values.T
    for w, value in circuit.constants.items():
        wire[w] = value
    for rows in groups(circuit.batch):
        kinds = circuit.kind[rows]
        for k in np.unique(kinds):
            these = rows[kinds == k]
            ins, outs = circuit.ins[these], circuit.outs[these]
            arity = int((ins[0] >= 0).sum())
            result = GATES[circuit.kinds[k]](*(wire[ins[:, c]] for c in range(arity)))
            for c, column in enumerate(result if isinstance(result, tuple) else (result,)):
                wire[outs[:, c]] = column
    out: _I64 = wire[circuit.outputs].T.copy()
    return out


# ---- writers --------------------------------------------------------------------------------


def to_json(c: Circuit, about: Mapping[str, object]) -> str:
    """The circuit as the JSON object documented in the module; ``about`` says what it is the
    circuit of (``algorithm``, ``n``, ``d``, ``keys``), written right after ``format``."""
    return json.dumps({
        "format": "pram-circuit/1",
        **about,
        "wires": c.wires,
        "inputs": c.inputs.tolist(),
        "outputs": c.outputs.tolist(),
        "constants": [[w, v] for w, v in sorted(c.constants.items())],
        "gates": [{"kind": k, "in": list(i), "out": list(o)} for k, i, o in c.gates()],
        "size": c.size,
        "depth": c.depth,
        "by_kind": c.by_kind,
    })


def to_bristol(c: Circuit) -> str:
    """A boolean circuit in Bristol Fashion.

    Inputs are wires ``0 ..``, value by value (``c.width`` bits each, least significant first);
    outputs are the last wires, in order. The constants 0 and 1, where used, are made from the
    first input (``x XOR x``, then ``INV``), and an output that is not a gate's own output (an
    input, a constant, or a wire output twice) is copied with ``XOR`` against 0.
    """
    if not c.boolean:
        kinds = ", ".join(sorted(set(c.by_kind) - {"AND", "XOR", "INV"})) or "non-bit inputs"
        raise InputError(
            f"Bristol Fashion holds boolean circuits (AND, XOR, INV on bits); this one has "
            f"{kinds}: use --keys bits, or --format json"
        )
    if not len(c.inputs):
        raise InputError("a circuit without inputs has no Bristol Fashion form")
    gates = c.gates()
    produced = {w for _, _, outs in gates for w in outs}
    direct: dict[int, int] = {}  # gate output wire -> output position
    copies: list[tuple[int, int]] = []  # (wire, output position)
    for j, w in enumerate(c.outputs.tolist()):
        if w in produced and w not in direct:
            direct[w] = j
        else:
            copies.append((w, j))
    constants = {w for _, ins, _ in gates for w in ins if w in c.constants}
    constants |= {w for w, _ in copies if w in c.constants}
    need_zero = bool(constants) or bool(copies)
    need_one = any(c.constants[w] == 1 for w in constants)
    count = len(gates) + need_zero + need_one + len(copies)
    first_out = len(c.inputs) + count - len(c.outputs)
    number: dict[int, int] = {int(w): k for k, w in enumerate(c.inputs.tolist())}
    lines: list[str] = []
    fresh = len(c.inputs)

    def name(wire: int) -> int:
        nonlocal fresh
        if wire in direct:
            return first_out + direct[wire]
        fresh += 1
        return fresh - 1

    zero = one = -1
    if need_zero:
        zero = name(-2)
        lines.append(f"2 1 0 0 {zero} XOR")
    if need_one:
        one = name(-3)
        lines.append(f"1 1 {zero} {one} INV")
    for w, v in c.constants.items():
        number[w] = zero if v == 0 else one
    for kind, ins, outs in gates:
        out = name(outs[0])
        number[outs[0]] = out
        args = " ".join(str(number[w]) for w in ins)
        lines.append(f"{len(ins)} 1 {args} {out} {kind}")
    for w, j in copies:
        lines.append(f"2 1 {number[w]} {zero} {first_out + j} XOR")
    values_in = len(c.inputs) // c.width
    values_out = len(c.outputs) // c.width
    head = [
        f"{count} {len(c.inputs) + count}",
        " ".join([str(values_in)] + [str(c.width)] * values_in),
        " ".join([str(values_out)] + [str(c.width)] * values_out),
        "",
    ]
    return "\n".join(head + lines) + "\n"


def to_dot(c: Circuit, name: str) -> str:
    """The circuit as a Graphviz digraph called ``name``: inputs, gates (labelled by kind) and
    outputs."""
    lines = [f'digraph "{name}" {{', "  rankdir=LR;"]
    source: dict[int, str] = {}
    for k, w in enumerate(c.inputs.tolist()):
        source[w] = f"in{k}"
        lines.append(f'  in{k} [shape=circle, label="x{k}"];')
    for w, v in sorted(c.constants.items()):
        source[w] = f"c{w}"
        lines.append(f'  c{w} [shape=plaintext, label="{v}"];')
    for g, (kind, ins, outs) in enumerate(c.gates()):
        lines.append(f'  g{g} [shape=box, label="{kind}"];')
        lines.extend(f"  {source[w]} -> g{g};" for w in ins)
        for w in outs:
            source[w] = f"g{g}"
    for j, w in enumerate(c.outputs.tolist()):
        lines.append(f'  out{j} [shape=doublecircle, label="y{j}"];')
        lines.append(f"  {source[w]} -> out{j};")
    lines.append("}")
    return "\n".join(lines) + "\n"


__all__ = ["GATES", "evaluate", "groups", "to_bristol", "to_dot", "to_json"]
