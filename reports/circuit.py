"""``pram circuit``: the circuit of an oblivious program (H.7.6), checked and exported.

The command parses its options, builds the circuit with the one record-and-check loop
(:func:`pram.reports.circuit_build.build`: refused with a witness when the program is not
oblivious, else recorded and its evaluator compared with the machine), optionally evaluates it
on the user's ``--input`` and writes it (``--export``, as JSON, Bristol Fashion or Graphviz DOT,
by :mod:`pram.circuit_io`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from pram import InputError
from pram.circuits.circuit import evaluate
from pram.circuits.io import to_bristol, to_dot, to_json
from pram.reports import guard, writer
from pram.reports.circuit_build import (
    CHECKS,
    HOST_D,
    KINDS,
    NAMES,
    NETWORKS,
    TARGETS,
    Built,
    Setup,
    Target,
    build,
    setup,
    target,
    tokens_out,
    wires_in,
)
from pram.reports.options import CIRCUIT, add_arguments
from pram.reports.registry import load_array
from pram.reports.status import FAILED, OK, print_json

#: Export formats.
FORMATS = ("json", "bristol", "dot")

# ---- the command -------------------------------------------------------------------------------


def add_parser(commands: Any, size: Callable[[str], int]) -> None:
    """Register ``pram circuit`` on the subcommands of the ``pram`` parser."""
    parser = commands.add_parser("circuit", help="the circuit of an oblivious program (H.7.6)")
    parser.add_argument("algorithm", choices=NAMES, metavar="ALGORITHM",
                        help=f"one of {', '.join(NAMES)}")
    parser.add_argument("--n", type=size, help="tokens (a power of two for merge; any n for "
                        "sort and the prefix circuits)")
    parser.add_argument("--d", type=size, help="bits per token, with bit keys (default 8)")
    parser.add_argument("--keys", choices=("word", "bits"),
                        help="a token is one word wire (default), or d bit wires (default for "
                        "compare)")
    parser.add_argument("--network", choices=tuple(dict.fromkeys(sum(NETWORKS.values(), ()))),
                        help="the network: of sort, " + ", ".join(NETWORKS["sort"])
                        + " (default bitonic); of merge, bitonic or odd-even; of prefix-sums, "
                        + ", ".join(NETWORKS["prefix-sums"]) + " (default brent-kung)")
    parser.add_argument("--input", metavar="FILE", help="evaluate the circuit on a .npy of tokens")
    parser.add_argument("--output", metavar="FILE", help="write the circuit's outputs (.npy)")
    parser.add_argument("--export", metavar="FILE", help="write the circuit to FILE")
    parser.add_argument("--format", choices=FORMATS,
                        help="export format (default json), with --export")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    add_arguments(parser, CIRCUIT, {})
    parser.set_defaults(handler=command)


#: Which circuits each option of ``pram circuit`` applies to (None: every one), and why not
#: elsewhere: the table every option given is checked against before any work.
APPLIES: dict[str, tuple[tuple[str, ...] | None, Callable[[argparse.Namespace], bool], str]] = {
    "network": (tuple(NETWORKS), lambda a: True,
                "only sort, merge and prefix-sums have a choice of network"),
    "d": (None, lambda a: (a.keys or ("bits" if a.algorithm == "compare" else "word")) == "bits",
          "a word key is one wire whatever its width (add --keys bits)"),
    "format": (None, lambda a: a.export is not None,
               "it is the format of --export, and nothing is exported (add --export FILE)"),
    "output": (None, lambda a: a.input is not None,
               "it writes the outputs on --input, and no input is given (add --input FILE)"),
}


def refuse_unused(args: argparse.Namespace) -> None:
    """Refuse an option given to ``pram circuit`` that would change nothing, naming why."""
    for name, (names, when, why) in APPLIES.items():
        value = getattr(args, name)
        if value is None:
            continue
        if (names is not None and args.algorithm not in names) or not when(args):
            flag = f"--{name} {value}"
            if name == "output":
                raise InputError("--output needs --input: give the tokens to evaluate the "
                                 "circuit on")
            raise InputError(f"{flag} does not apply to circuit {args.algorithm}: {why}; "
                             "leave it out")


#: Bytes one comparator of a recorded circuit costs (its gates, the traces of the checking
#: runs): measured peaks (about 800 B for sort and merge at n = 4096 and 16384, about 6 KB per
#: bit with bit keys, 1.5 KB per N log^2 N for MQAR) with a margin.
COMPARATOR_BYTES = 1000.0
BIT_BYTES = 8.0
MQAR_BYTES = 2000.0
#: The interpreter, numpy and the machine, before any circuit.
BASE_BYTES = 64.0 * (1 << 20)


def memory(algorithm: str, n: int, d: int, keys: str) -> float:
    """The bytes building and checking the circuit of ``algorithm`` at n (and d) needs."""
    levels = max(1, (n - 1).bit_length())
    per = COMPARATOR_BYTES * (BIT_BYTES * d if keys == "bits" else 1.0)
    if algorithm == "sort":
        comparators = n / 2 * levels * (levels + 1) / 2
    elif algorithm == "merge":
        comparators = n / 2 * levels
    elif algorithm == "compare":
        comparators = 1.0
    elif algorithm == "mqar":
        return BASE_BYTES + MQAR_BYTES * n * levels * levels * (per / COMPARATOR_BYTES)
    else:  # pbs: refused with a witness, after runs on the machine of 2n tokens
        comparators = n * levels
    return BASE_BYTES + per * comparators


def refuse_oversized(args: argparse.Namespace, n: int | None) -> None:
    """Refuse a circuit too large for the ceiling before anything is built, naming the
    largest --n (or --d) that fits."""
    limit = guard.ceiling(max_memory(args))
    t = target(args.algorithm)
    n = t.default_n if n is None else n
    keys = args.keys or ("bits" if args.algorithm == "compare" else "word")
    d = args.d or (8 if keys == "bits" else 1)
    need = memory(args.algorithm, n, d, keys)
    if need <= limit:
        return
    if args.algorithm == "compare":
        fits = guard.largest(lambda k: memory("compare", 2, k, keys) <= limit, d)
        what, fix = f"circuit compare at d = {d:,}", f"give --d {fits} or less" if fits else None
    else:
        fits = guard.largest(lambda k: memory(args.algorithm, k, d, keys) <= limit, n)
        if args.algorithm in ("sort", "merge") and fits >= 2:
            fits = 1 << (fits.bit_length() - 1)
        what = f"circuit {args.algorithm} at n = {n:,}"
        fix = (f"the largest n that fits is {fits:,}, so give --n {fits} or less"
               if fits >= 2 else None)
    guard.refuse_bytes(what, need, max_memory(args), fix)


def max_memory(args: argparse.Namespace) -> int | None:
    """The parsed ``--max-memory`` (None when not given)."""
    return None if args.max_memory is None else guard.parse_memory(args.max_memory)


def command(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Run ``pram circuit`` with parsed arguments; return the exit status."""
    refuse_unused(args)
    fmt = args.format or "json"
    inputs = [("--input", args.input)]
    output = (writer.check_output(args.output, "--output", (".npy",), inputs)
              if args.output is not None else None)
    suffixes = {"json": (".json",), "bristol": (".txt", ".bristol"), "dot": (".dot", ".gv")}
    export = (writer.check_output(args.export, "--export", suffixes[fmt],
                                  [*inputs, ("--output", args.output)])
              if args.export is not None else None)
    what = "a .npy of non-negative integer tokens"
    if args.input is not None:
        writer.check_input(args.input, "--input", what)
    n = args.n
    if args.input is not None and n is None and args.algorithm in ("sort", "merge", "mqar"):
        declared = guard.refuse_declared(args.input, "--input", max_memory(args))
        n = max((a.length for a in declared), default=None)
    refuse_oversized(args, n)
    data = load_array(args.input, what) if args.input else None
    if data is not None and args.n is None and args.algorithm in ("sort", "merge", "mqar"):
        n = len(data)
        if n == 0:
            raise InputError(
                f"--input {args.input!r} holds no tokens; a circuit of {args.algorithm} needs "
                "at least one: give a file with tokens, or --n N without --input"
            )
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
                writer.save_array(output, answer.astype(np.int64), "--output")
                err.print(f"wrote {len(answer)} outputs to {output}", highlight=False,
                          markup=False)
        if export is not None:
            about = {"algorithm": s.algorithm, "n": s.n, "d": s.d, "keys": s.keys}
            text = {"json": lambda: to_json(c, about), "bristol": lambda: to_bristol(c),
                    "dot": lambda: to_dot(c, s.algorithm)}[fmt]()
            writer.save_text(export, text, "--export")
            err.print(f"wrote {export}", highlight=False, markup=False)
    if args.json:
        print_json(result)
    else:
        out.print(_table(result))
    return OK if built.ok else FAILED


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
    "FORMATS",
    "KINDS",
    "NAMES",
    "TARGETS",
    "Built",
    "Setup",
    "Target",
    "add_parser",
    "build",
    "command",
    "evaluate",
    "setup",
    "to_bristol",
    "to_dot",
    "to_json",
]
