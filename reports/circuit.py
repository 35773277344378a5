"""``pram circuit``: the circuit of an oblivious program (H.7.6), checked and exported.

For an ALGORITHM and its sizes the command

1. runs the program on four inputs of the same size (random, all equal, sorted, reversed) with a
   :class:`pram.oblivious.Trace` each, and refuses a program whose traces part (exit 1, with the
   :class:`~pram.oblivious.Witness`);
2. records the run on a random input with a :class:`pram.circuit.Recorder`;
3. checks the independent evaluator (:func:`pram.circuit.evaluate`) against the machine on
   ``CHECKS`` more random inputs;
4. optionally evaluates the circuit on the user's ``--input`` and exports it (``--export``, as
   JSON, Bristol Fashion or Graphviz DOT).

An algorithm is a :class:`Target` in :data:`TARGETS`: how many tokens it takes, how to draw its
inputs, and how to run it on a machine (declaring the recorder's input and output cells).
``mqar`` is a hook: the oblivious MQAR registers itself with :func:`register`.

The JSON export (``--format json``) is one object::

    {"format": "pram-circuit/1", "algorithm": "sort", "n": 8, "d": 1, "keys": "word",
     "wires": 24, "inputs": [0, ...], "outputs": [...], "constants": [[wire, value], ...],
     "gates": [{"kind": "comparator", "in": [0, 1], "out": [8, 9]}, ...],
     "size": 24, "depth": 6, "by_kind": {"comparator": 24}}

``inputs`` and ``outputs`` are wire ids in order (token by token; with bit keys, d wires per
token, least significant bit first); gates are listed so that each comes after the gates that
feed it; a ``comparator`` has two outputs (min, then max), every other gate one.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import numpy as np
from rich.console import Console
from rich.table import Table

from pram import Check, Formula, InputError, Machine, Words, check
from pram.algorithms import networks, pbs
from pram.algorithms.sorting import Level
from pram.circuit import Circuit, Recorder, evaluate
from pram.oblivious import Trace, Witness, difference
from pram.reports import circuit_mqar

#: Random inputs on which the evaluator is checked against the machine.
CHECKS = 20
#: The inputs compared for obliviousness, the first against each other.
KINDS = ("random", "all equal", "sorted", "reversed")
#: Export formats.
FORMATS = ("json", "bristol", "dot")
#: Widest token with bit keys.
MAX_D = 64
#: Widest token the host draws or reads (int64); wider circuits are checked on such tokens.
HOST_D = 62


@attrs.frozen
class Setup:
    """What the user asked for."""

    algorithm: str
    n: int
    d: int
    keys: str
    network: str

    @property
    def bits(self) -> bool:
        """Whether tokens are d bit wires (else one word wire)."""
        return self.keys == "bits"

    @property
    def top(self) -> int:
        """Tokens are below this: 2^d with bit keys (2^62 at most: host tokens are int64), any
        non-negative word below 2^62 else."""
        return 1 << min(self.d, HOST_D) if self.bits else 1 << HOST_D


@attrs.frozen
class Target:
    """One ALGORITHM of ``pram circuit``.

    ``tokens(setup)`` is the number of input tokens; ``draw(rng, kind, setup)`` an input of that
    many (``kind`` one of :data:`KINDS`); ``run(m, tokens, setup, recorder)`` runs the program on
    a fresh machine (declaring the recorder's inputs and outputs when it is given) and returns
    the output tokens. ``default_n`` is used when ``--n`` is not given.
    """

    tokens: Callable[[Setup], int]
    draw: Callable[[np.random.Generator, str, Setup], Words]
    run: Callable[[Machine, Words, Setup, Recorder | None], Words]
    default_n: int = 16
    model: str = "erew"
    check_n: Callable[[int], str | None] = lambda n: None


TARGETS: dict[str, Target] = {}


def register(name: str, target: Target) -> Target:
    """Add ``target`` as ``pram circuit NAME`` (the hook the oblivious MQAR uses)."""
    TARGETS[name] = target
    return target


#: The algorithms the command knows, in the order of the contract.
NAMES = ("sort", "merge", "compare", "mqar", "pbs")


# ---- the targets -----------------------------------------------------------------------------


def _power_of_two(n: int) -> str | None:
    if n < 2 or n & (n - 1):
        return f"--n {n} must be a power of two, at least 2 (e.g. {max(2, 1 << n.bit_length())})"
    return None


def _draw(rng: np.random.Generator, kind: str, count: int, top: int) -> Words:
    values = rng.integers(0, top, count, dtype=np.int64)
    if kind == "all equal":
        return np.full(count, values[0], dtype=np.int64)
    if kind == "sorted":
        return np.sort(values)
    if kind == "reversed":
        return np.sort(values)[::-1].copy()
    return values


def _draw_halves(rng: np.random.Generator, kind: str, setup: Setup) -> Words:
    """Two sorted runs of n/2 (what a merge takes); ``reversed`` puts the larger run first."""
    values = _draw(rng, kind, setup.n, setup.top)
    half = setup.n // 2
    first, second = np.sort(values[:half]), np.sort(values[half:])
    if kind == "reversed":
        first, second = np.sort(values)[half:], np.sort(values)[:half]
    return np.concatenate([first, second])


def _keys_run(
    levels: Callable[[Setup], list[Level]],
) -> Callable[[Machine, Words, Setup, Recorder | None], Words]:
    def run(m: Machine, tokens: Words, setup: Setup, recorder: Recorder | None) -> Words:
        d = setup.d if setup.bits else 0
        a = networks.store_bits(m, "keys", tokens, d) if d else m.array("keys", values=tokens)
        if recorder is not None:
            recorder.width = d or 1
            recorder.input(a, bits=setup.bits)
        m.run(networks.run_levels(m, a, levels(setup), d=d))
        if recorder is not None:
            recorder.output(a)
        return networks.load_bits(a, d) if d else a.to_numpy()

    return run


def _one_comparator(setup: Setup) -> list[Level]:
    return [Level(1, lambda r: (r * 0, r * 0 + 1))]


register("sort", Target(
    tokens=lambda s: s.n,
    draw=lambda rng, kind, s: _draw(rng, kind, s.n, s.top),
    run=_keys_run(lambda s: networks.levels("sort", s.network, s.n)),
    check_n=_power_of_two,
))
register("merge", Target(
    tokens=lambda s: s.n,
    draw=_draw_halves,
    run=_keys_run(lambda s: networks.levels("merge", s.network, s.n)),
    check_n=_power_of_two,
))
register("compare", Target(
    tokens=lambda s: 2,
    draw=lambda rng, kind, s: _draw(rng, kind, 2, s.top),
    run=_keys_run(_one_comparator),
    default_n=2,
))


# mqar (issue 11, part B): the oblivious MQAR, N word tokens in, one answer per triple out.
register("mqar", Target(
    tokens=lambda s: s.n,
    draw=circuit_mqar.draw,
    run=circuit_mqar.run,
    default_n=circuit_mqar.DEFAULT_N,
    check_n=circuit_mqar.check_n,
))


def _pbs_run(m: Machine, tokens: Words, setup: Setup, recorder: Recorder | None) -> Words:
    half = setup.n
    return pbs.search(m, tokens[:half], tokens[half:])


def _pbs_draw(rng: np.random.Generator, kind: str, setup: Setup) -> Words:
    """n sorted queries then n sorted keys, from one drawn sequence of 2n tokens."""
    values = _draw(rng, kind, 2 * setup.n, setup.top)
    queries, keys = values[: setup.n], values[setup.n :]
    return np.concatenate([np.sort(queries), np.sort(keys)])


register("pbs", Target(tokens=lambda s: 2 * s.n, draw=_pbs_draw, run=_pbs_run))


# ---- building and checking ---------------------------------------------------------------------


@attrs.frozen(eq=False)
class Built:
    """What ``pram circuit`` found: the circuit, or the witness that there is none."""

    setup: Setup
    circuit: Circuit | None
    witness: Witness | None
    checked: dict[str, Any] | None

    @property
    def ok(self) -> bool:
        """Oblivious, and the evaluator agreed with the machine."""
        return self.circuit is not None and bool(self.checked and self.checked["equal"])

    def as_dict(self) -> dict[str, Any]:
        """The ``--json`` object of the contract."""
        s = self.setup
        out: dict[str, Any] = {
            "algorithm": s.algorithm,
            "n": s.n,
            "d": s.d,
            "keys": s.keys,
            "oblivious": self.circuit is not None,
        }
        if s.algorithm in ("sort", "merge"):
            out["network"] = s.network
        c = self.circuit
        if c is None:
            assert self.witness is not None
            out["witness"] = self.witness.as_dict()
            return out
        out |= {
            "gates": c.by_kind,
            "size": c.size,
            "depth": c.depth,
            "inputs": len(c.inputs),
            "outputs": len(c.outputs),
            "checked": self.checked,
        }
        return out


def target(name: str) -> Target:
    """The target called ``name``, or an InputError naming the fix."""
    found = TARGETS.get(name)
    if found is None:
        if name == "mqar":
            raise InputError(
                "pram circuit mqar needs the oblivious MQAR (pram run mqar --search oblivious), "
                "which is not built in this version; try sort, merge or compare"
            )
        raise InputError(f"unknown circuit {name!r}; choose one of {', '.join(NAMES)}")
    return found


def setup(
    name: str, n: int | None, d: int | None, keys: str | None, network: str = "bitonic"
) -> Setup:
    """Validate the options of ``pram circuit``."""
    t = target(name)
    n = t.default_n if n is None else n
    if name == "compare" and n != 2:
        raise InputError(f"--n {n}: compare takes two tokens; leave --n out")
    problem = t.check_n(n)
    if problem:
        raise InputError(problem)
    if keys is None:  # compare: Definition H.31 on d-bit tokens, with Lemma H.32's network
        keys = "bits" if name == "compare" else "word"
    width = (8 if keys == "bits" else 1) if d is None else d
    if not 1 <= width <= MAX_D:
        raise InputError(f"--d {width} must be from 1 to {MAX_D}")
    return Setup(name, n, width, keys, network)


def _machine(model: str, observer: Any) -> Machine:
    m = Machine(model)
    m.observer = observer
    return m


def build(s: Setup, *, seed: int = 0, checks: int = CHECKS) -> Built:
    """Check obliviousness, record the circuit, and check the evaluator against the machine."""
    t = target(s.algorithm)
    rng = np.random.default_rng(seed)
    inputs = [t.draw(rng, kind, s) for kind in KINDS]
    traces = []
    for tokens in inputs:
        trace = Trace()
        t.run(_machine(t.model, trace), tokens, s, None)
        traces.append(trace)
    for kind, trace in zip(KINDS[1:], traces[1:], strict=True):
        witness = difference(traces[0], trace)
        if witness is not None:
            return Built(s, None, witness.named(KINDS[0], kind), None)
    recorder = Recorder()
    t.run(_machine(t.model, recorder), inputs[0], s, recorder)
    circuit = recorder.circuit()
    samples = np.stack([t.draw(rng, "random", s) for _ in range(checks)])
    machine = np.stack([t.run(Machine(t.model), row, s, None) for row in samples])
    by_circuit = tokens_out(s, evaluate(circuit, wires_in(s, samples)))
    checked = {"inputs": checks, "equal": bool(np.array_equal(machine, by_circuit))}
    return Built(s, circuit, None, checked)


def wires_in(s: Setup, tokens: Words) -> Words:
    """Rows of tokens as rows of input wire values (d bits each, least significant first)."""
    if not s.bits:
        return tokens
    shifts = np.arange(s.d, dtype=np.int64)
    bits: Words = ((tokens[:, :, None] >> shifts) & 1).reshape(len(tokens), -1)
    return bits


def tokens_out(s: Setup, wires: Words) -> Words:
    """Rows of output wire values as rows of tokens."""
    if not s.bits:
        return wires
    shifts = np.arange(s.d, dtype=np.int64)
    tokens: Words = (wires.reshape(len(wires), -1, s.d) << shifts).sum(axis=2)
    return tokens


# ---- exports -----------------------------------------------------------------------------------


def to_json(c: Circuit, s: Setup) -> str:
    """The circuit as the JSON object documented in the module."""
    return json.dumps({
        "format": "pram-circuit/1",
        "algorithm": s.algorithm,
        "n": s.n,
        "d": s.d,
        "keys": s.keys,
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


def to_dot(c: Circuit, s: Setup) -> str:
    """The circuit as a Graphviz digraph: inputs, gates (labelled by kind) and outputs."""
    lines = [f'digraph "{s.algorithm}" {{', "  rankdir=LR;"]
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


# ---- the command -------------------------------------------------------------------------------


def add_parser(commands: Any, size: Callable[[str], int]) -> None:
    """Register ``pram circuit`` on the subcommands of the ``pram`` parser."""
    parser = commands.add_parser("circuit", help="the circuit of an oblivious program (H.7.6)")
    parser.add_argument("algorithm", choices=NAMES, metavar="ALGORITHM",
                        help=f"one of {', '.join(NAMES)}")
    parser.add_argument("--n", type=size, help="tokens (a power of two for sort and merge)")
    parser.add_argument("--d", type=size, help="bits per token (default 8 with bit keys; a "
                        "word is one wire, d = 1)")
    parser.add_argument("--keys", choices=("word", "bits"),
                        help="a token is one word wire (default), or d bit wires (default for "
                        "compare)")
    parser.add_argument("--network", choices=("bitonic", "odd-even"), default="bitonic",
                        help="the Batcher network of sort and merge")
    parser.add_argument("--input", metavar="FILE", help="evaluate the circuit on a .npy of tokens")
    parser.add_argument("--output", metavar="FILE", help="write the circuit's outputs (.npy)")
    parser.add_argument("--export", metavar="FILE", help="write the circuit to FILE")
    parser.add_argument("--format", choices=FORMATS, default="json", help="export format")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.set_defaults(handler=command)


def command(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Run ``pram circuit`` with parsed arguments; return the exit status."""
    from pram.reports.cli import FAILED, OK, _json
    from pram.reports.registry import load_array

    if args.output and not args.input:
        raise InputError("--output needs --input: give the tokens to evaluate the circuit on")
    output = _file(args.output, "--output", (".npy",)) if args.output else None
    suffixes = {"json": (".json",), "bristol": (".txt", ".bristol"), "dot": (".dot", ".gv")}
    export = _file(args.export, "--export", suffixes[args.format]) if args.export else None
    data = load_array(args.input, "a .npy of non-negative integer tokens") if args.input else None
    n = args.n
    if data is not None and n is None and args.algorithm in ("sort", "merge", "mqar"):
        n = len(data)
    s = setup(args.algorithm, n, args.d, args.keys, args.network)
    if data is not None:
        expected = target(s.algorithm).tokens(s)
        if len(data) != expected:
            raise InputError(
                f"--input {args.input!r} holds {len(data)} tokens but this circuit takes "
                f"{expected}; give {expected} tokens or change --n"
            )
        if len(data) and (data.min() < 0 or data.max() >= s.top):
            bad = int(data.min()) if data.min() < 0 else int(data.max())
            raise InputError(
                f"token {bad} in --input {args.input!r} does not fit {min(s.d, HOST_D)} bits; "
                f"tokens must be from 0 to {s.top - 1} (pass a larger --d)"
            )
    built = build(s)
    result = built.as_dict()
    if built.circuit is not None:
        c = built.circuit
        if data is not None:
            answer = tokens_out(s, evaluate(c, wires_in(s, data.reshape(1, -1))))[0]
            result["answer"] = answer.tolist()
            if output is not None:
                np.save(output, answer.astype(np.int64))
                err.print(f"wrote {len(answer)} outputs to {output}", highlight=False)
        if export is not None:
            text = {"json": lambda: to_json(c, s), "bristol": lambda: to_bristol(c),
                    "dot": lambda: to_dot(c, s)}[args.format]()
            export.write_text(text)
            err.print(f"wrote {export}", highlight=False)
    if args.json:
        _json(result)
    else:
        out.print(_table(result))
    return OK if built.ok else FAILED


def _file(path: str, flag: str, suffixes: tuple[str, ...]) -> Path:
    """Refuse an output path whose suffix is wrong or whose directory is missing."""
    file = Path(path)
    if file.suffix.lower() not in suffixes:
        raise InputError(
            f"{flag} {path!r} must end in {' or '.join(suffixes)}; rename it, e.g. "
            f"{file.with_suffix(suffixes[0]).name!r}"
        )
    if not file.parent.exists():
        raise InputError(
            f"{flag} {path!r}: directory {str(file.parent)!r} does not exist; create it first"
        )
    if file.is_dir():
        raise InputError(f"{flag} {path!r} is a directory; give a file name")
    return file


def _table(result: dict[str, Any]) -> Table:
    table = Table(title=f"circuit of {result['algorithm']}", show_header=False)
    table.add_column("what")
    table.add_column("value")
    for key, value in result.items():
        if key == "gates" or isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = " ".join(map(str, value[:32])) + (" ..." if len(value) > 32 else "")
        table.add_row(key, str(value))
    return table


__all__ = [
    "CHECKS",
    "KINDS",
    "NAMES",
    "TARGETS",
    "Built",
    "Setup",
    "Target",
    "add_parser",
    "build",
    "command",
    "register",
    "setup",
    "to_bristol",
    "to_dot",
    "to_json",
]


# ---- the report's section: a Knuth drawing and a sweep against the bounds ---------------------


@attrs.frozen
class SweepRow:
    """One built circuit of the report's sweep, with its bounds' formulas evaluated."""

    label: str
    n: int
    d: int
    size: int
    depth: int
    size_bound: str
    size_formula: float
    depth_bound: str
    depth_formula: float

    @property
    def size_ratio(self) -> float:
        """Measured size over the size bound's formula."""
        return self.size / self.size_formula

    @property
    def depth_ratio(self) -> float:
        """Measured depth over the depth bound's formula."""
        return self.depth / self.depth_formula


def _lg(x: float) -> float:
    return max(1.0, math.log2(x))


def sweep_rows(*, quick: bool = False) -> list[SweepRow]:
    """Build the circuits of the sweep (each checked on 2 random inputs) and measure them."""
    rows: list[SweepRow] = []
    top = 4 if quick else 9
    for network in ("bitonic", "odd-even"):
        for k in range(2, top + 1):
            c = _built(setup("sort", 2**k, None, None, network))
            n = 2**k
            rows.append(SweepRow(f"sort {network}, word", n, 1, c.size, c.depth,
                                 "n log2(n)^2", n * _lg(n) ** 2, "log2(n)^2", _lg(n) ** 2))
    for k in range(2, (3 if quick else 6) + 1):
        c = _built(setup("sort", 2**k, 8, "bits", "bitonic"))
        n = 2**k
        rows.append(SweepRow("sort bitonic, 8-bit keys", n, 8, c.size, c.depth,
                             "n log2(n)^2 d", n * _lg(n) ** 2 * 8,
                             "log2(n)^2 log2(d)", _lg(n) ** 2 * 3))
    for d in (2, 8, 64) if quick else (2, 4, 8, 16, 32, 64):
        c = _built(setup("compare", None, d, None))
        rows.append(SweepRow("compare (Lemma H.32)", 2, d, c.size, c.depth,
                             "d", float(d), "log2(d)", _lg(d)))
    return rows


def _built(s: Setup) -> Circuit:
    built = build(s, checks=2)
    if built.circuit is None or not built.ok:
        raise AssertionError(f"the {s.algorithm} circuit did not check out: {built.as_dict()}")
    return built.circuit


def draw_network(path: Path | str, *, n: int = 8, network: str = "bitonic") -> Path:
    """Knuth's drawing of the recorded sorting network: horizontal wires, vertical comparators.

    Drawn from the circuit the recorder built (not from a formula): comparator ``(x, y)`` joins
    the lines its two input wires are on, at the column of its depth; its minimum leaves on the
    upper line (the networks are all ascending).
    """
    from pram.reports.plots import _figure, save

    c = _built(setup("sort", n, None, None, network))
    line = {int(w): k for k, w in enumerate(c.inputs.tolist())}
    levels = c.levels
    figure = _figure(1, 1, width=max(6.0, 0.55 * c.depth + 1.5), height=0.45 * n + 1.0)
    axes = figure.subplots()
    used: dict[int, list[tuple[int, int]]] = {}
    for kind, ins, outs in c.gates():
        upper, lower = line[ins[0]], line[ins[1]]
        line[outs[0]], line[outs[1]] = upper, lower
        column = int(levels[outs[0]])
        spans = used.setdefault(column, [])
        shift = sum(1 for a, b in spans if not (max(upper, lower) < a or min(upper, lower) > b))
        spans.append((min(upper, lower), max(upper, lower)))
        x = column + 0.3 * shift
        axes.plot([x, x], [upper, lower], color="black", linewidth=1.5)
        axes.plot([x, x], [upper, lower], "o", color="black", markersize=5)
        del kind
    for k in range(n):
        axes.plot([0.3, c.depth + 0.9], [k, k], color="black", linewidth=1)
    axes.set_ylim(n - 0.5, -0.5)
    axes.set_xlim(0, c.depth + 1.2)
    axes.axis("off")
    axes.set_title(f"{network}, n = {n}: {c.size} comparators, depth {c.depth}", fontsize=10)
    return save(figure, path)


def plot_sweep(rows: list[SweepRow], path: Path | str) -> Path:
    """Size and depth of the sweep's circuits over their bounds' formulas."""
    from pram.reports.plots import _figure, save

    figure = _figure(1, 2)
    size_axes, depth_axes = figure.subplots(1, 2)
    for label in dict.fromkeys(r.label for r in rows):
        series = [r for r in rows if r.label == label]
        x = [r.d if label.startswith("compare") else r.n for r in series]
        size_axes.plot(x, [r.size_ratio for r in series], "o-",
                       label=f"{label}: size / {series[0].size_bound}")
        depth_axes.plot(x, [r.depth_ratio for r in series], "o-",
                        label=f"{label}: depth / {series[0].depth_bound}")
    for axes, what in ((size_axes, "size"), (depth_axes, "depth")):
        axes.set_xscale("log", base=2)
        axes.set_xlabel("n (sorts) or d (compare)")
        axes.set_ylabel(f"measured {what} / bound")
        axes.set_ylim(bottom=0)
        axes.legend(fontsize=7)
    return save(figure, path)


def checks(rows: list[SweepRow]) -> list[tuple[str, Check, Check]]:
    """Per series of the sweep, :func:`pram.check` of its size and depth against the bounds."""
    out = []
    for label in dict.fromkeys(r.label for r in rows):
        series = [r for r in rows if r.label == label]
        varying = "d" if label.startswith("compare") else "n"
        verdicts = []
        for measure in ("size", "depth"):
            text = getattr(series[0], f"{measure}_bound")
            formula = Formula(text, _FORMULAS[text])
            points = [({varying: float(getattr(r, varying))}, float(getattr(r, measure)))
                      for r in series]
            verdicts.append(check(measure, formula, points))
        out.append((label, verdicts[0], verdicts[1]))
    return out


#: The bounds' formulas, by their text (n: tokens; d: bits per token, 8 in the bit sort).
_FORMULAS: dict[str, Callable[[Any], float]] = {
    "n log2(n)^2": lambda s: s["n"] * _lg(s["n"]) ** 2,
    "log2(n)^2": lambda s: _lg(s["n"]) ** 2,
    "n log2(n)^2 d": lambda s: s["n"] * _lg(s["n"]) ** 2 * 8,
    "log2(n)^2 log2(d)": lambda s: _lg(s["n"]) ** 2 * 3,
    "d": lambda s: s["d"],
    "log2(d)": lambda s: _lg(s["d"]),
}


def circuit_section(out: Path, *, quick: bool = False) -> tuple[str, list[Path]]:
    """The report's circuit section: markdown text and the files it wrote into ``out``."""
    rows = sweep_rows(quick=quick)
    files = [
        draw_network(out / "circuit_bitonic8.png"),
        plot_sweep(rows, out / "circuit_sweep.png"),
    ]
    lines = [
        "## Circuits from oblivious programs (H.7.6)",
        "",
        "Each circuit is recorded from a PRAM run, found oblivious on four inputs and checked "
        "against the machine by an independent evaluator.",
        "",
        "| circuit | n | d | size | depth | size / bound | depth / bound |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.label} | {r.n} | {r.d} | {r.size} | {r.depth} | "
            f"{r.size_ratio:.3f} ({r.size_bound}) | {r.depth_ratio:.3f} ({r.depth_bound}) |"
        )
    lines += ["", "| circuit | size bound | holds | depth bound | holds |",
              "|---|---|---|---|---|"]
    for label, size, depth in checks(rows):
        lines.append(
            f"| {label} | O({size.formula.text}) | {_verdict(size)} | "
            f"O({depth.formula.text}) | {_verdict(depth)} |"
        )
    lines += ["", f"![bitonic network, n = 8]({files[0].name})", "",
              f"![circuit sizes and depths]({files[1].name})", ""]
    return "\n".join(lines), files


def _verdict(c: Check) -> str:
    return f"{c.verdict} (max ratio {max(c.ratios):.3f})"
