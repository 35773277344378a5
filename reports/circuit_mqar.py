"""``pram circuit mqar``: the oblivious MQAR (:mod:`algorithms.mqar_oblivious`) as a circuit.

The circuit takes the N tokens ``k_0 v_0 q_0 k_1 ...`` as N word wires, in sequence order, and
gives one output per whole triple: the value of the latest earlier key equal to its query, or
-1. N is any length of at least 3; as in ``pram run mqar`` it is padded to ``3 * 2**L`` tokens,
and the padding cells are constants of the circuit (padded triples never match). Word keys
only: with bit keys a value would have to travel as d bit wires too.

:func:`draw`, :func:`run` and :func:`size_problem` are the hooks of its
:class:`pram.reports.circuit_build.Target`; :func:`bit_circuit` records it with bit keys.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

from pram import InputError, Machine, Words, iota
from pram.algorithms import mqar_oblivious
from pram.algorithms.keys import WordKeys
from pram.algorithms.mqar import layout

#: Tokens of the default circuit: 16 triples.
DEFAULT_N = 48


def size_problem(n: int) -> str | None:
    """Why ``--n`` cannot be the length of an MQAR circuit, or None."""
    if n < 3:
        return f"--n {n} must be at least 3 for mqar (one key, value and query)"
    return None


def refuse_bit_keys(setup: Any) -> None:
    """Refuse bit keys: this circuit carries values as word wires."""
    if setup.bits:
        raise InputError(
            "pram circuit mqar takes word keys only (got --keys bits); leave --keys out"
        )


def draw(rng: np.random.Generator, kind: str, setup: Any) -> Words:
    """N tokens from a vocabulary of about N/6 (so that most queries match): random, all
    equal, sorted or reversed."""
    refuse_bit_keys(setup)
    n = int(setup.n)
    values: Words = rng.integers(0, max(2, n // 6), n, dtype=np.int64)
    if kind == "all equal":
        values = np.full(n, values[0], dtype=np.int64)
    elif kind == "sorted":
        values = np.sort(values)
    elif kind == "reversed":
        values = np.sort(values)[::-1].copy()
    return values


def run(m: Machine, tokens: Words, setup: Any, recorder: Any) -> Words:
    """Run the oblivious MQAR on ``m``; with a recorder, declare the real tokens' cells its
    inputs (in sequence order) and the real queries' answer cells its outputs."""
    refuse_bit_keys(setup)
    lay = layout(tokens)
    keys = WordKeys()
    key_in, query_in = mqar_oblivious.store(m, keys, lay)
    if recorder is not None:
        columns = (key_in.key, key_in.payload, query_in.key)
        for position in range(lay.tokens):  # token 3j + c is cell j of column c
            column = columns[position % 3]
            assert column is not None, "the keys carry their values"
            recorder.input(column, cells=np.array([position // 3]))
    answers, _ = m.run(mqar_oblivious.solve(m, keys, lay, key_in, query_in))
    if recorder is not None:
        recorder.output(answers, cells=iota(lay.answered))
    result: Words = answers.to_numpy()[iota(lay.answered)]
    return result


@attrs.frozen
class BitRow:
    """The oblivious MQAR's circuit with d-bit keys and queries (values stay word wires)."""

    n: int
    d: int
    comparator: str
    size: int
    depth: int
    equal: bool

    @property
    def size_ratio(self) -> float:
        """size / (N d log2(N)^2)."""
        return self.size / (self.n * self.d * math.log2(self.n) ** 2)

    @property
    def depth_ratio(self) -> float:
        """depth / (d log2(N)^2) for the serial comparator, / (log2(d) log2(N)^2) for the tree."""
        width = self.d if self.comparator == "serial" else max(1.0, math.log2(self.d))
        return self.depth / (width * math.log2(self.n) ** 2)


def bit_circuit(triples: int, d: int, comparator: str, *, checks: int = 2, seed: int = 0) -> BitRow:
    """Record the run with :class:`~algorithms.bits.BitKeys` (keys and queries are d input bits
    each, most significant first; values are word inputs; outputs are the answers) and check
    :func:`pram.circuit.evaluate` against fresh machine runs on ``checks`` random inputs.

    Not offered by ``pram circuit`` (whose tokens are all d bits wide, so a -1 answer has no
    place); the figures show how the comparator's size and depth scale the circuit."""
    from pram.algorithms.bits import BitKeys
    from pram.circuits.circuit import Recorder, evaluate

    rng = np.random.default_rng(seed)
    n = 3 * triples
    samples = [rng.integers(0, min(1 << d, max(2, triples // 2)), n) for _ in range(checks + 1)]

    def one(tokens: Words, recorder: Recorder | None) -> Words:
        m = Machine("erew", observer=recorder)
        lay = layout(tokens)
        keys = BitKeys(d, comparator)
        key_in, query_in = mqar_oblivious.store(m, keys, lay)
        if recorder is not None:
            assert key_in.payload is not None, "the keys carry their values"
            recorder.input(key_in.key, bits=True)
            recorder.input(key_in.payload)
            recorder.input(query_in.key, bits=True)
        answers, _ = m.run(mqar_oblivious.solve(m, keys, lay, key_in, query_in))
        if recorder is not None:
            recorder.output(answers, cells=iota(lay.answered))
        result: Words = answers.to_numpy()[iota(lay.answered)]
        return result

    def wires(tokens: Words) -> Words:
        lay = layout(tokens)
        shifts = np.arange(d - 1, -1, -1, dtype=np.int64)  # most significant first, as stored
        keys, queries = ((t[:, None] >> shifts) & 1 for t in (lay.keys, lay.queries))
        row: Words = np.concatenate([keys.reshape(-1), lay.values, queries.reshape(-1)])
        return row

    recorder = Recorder()
    one(samples[0], recorder)
    c = recorder.circuit()
    got = evaluate(c, np.stack([wires(t) for t in samples[1:]]))
    expected = np.stack([one(t, None) for t in samples[1:]])
    return BitRow(n, d, comparator, c.size, c.depth, bool(np.array_equal(got, expected)))


__all__ = ["DEFAULT_N", "BitRow", "bit_circuit", "draw", "refuse_bit_keys", "run", "size_problem"]
