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
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from pram import InputError
from pram.circuit import evaluate
from pram.circuit_io import to_bristol, to_dot, to_json
from pram.reports.circuit_build import (
    CHECKS,
    HOST_D,
    KINDS,
    NAMES,
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
            about = {"algorithm": s.algorithm, "n": s.n, "d": s.d, "keys": s.keys}
            text = {"json": lambda: to_json(c, about), "bristol": lambda: to_bristol(c),
                    "dot": lambda: to_dot(c, s.algorithm)}[args.format]()
            export.write_text(text)
            err.print(f"wrote {export}", highlight=False)
    if args.json:
        print_json(result)
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
