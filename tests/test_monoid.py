"""Interval-monoid verification of scans (pram.monoid): the project's prefix sums and its
segmented scan pass for every associative operator; broken scans fail, naming the output.

The outside reference: each circuit is also evaluated, gate by gate in this file, with a
non-commutative associative operator (string concatenation) and with integers, and compared
with Python's own prefixes; the monoid's verdict must agree with it.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any

import numpy as np
import pytest

from pram import Array, InputError, Machine, Program, Read, Step, Write
from pram.algorithms.primitives import prefix_sums, prefix_sums_blocks, segmented_scan
from pram.circuits.circuit import Circuit, Recorder
from pram.circuits.io import evaluate
from pram.circuits.monoid import scan_check, segment_starts


def record(program: Callable[[Machine, Array], Program[None]], n: int,
           values: Any = None) -> Circuit:
    recorder = Recorder()
    m = Machine("erew", observer=recorder)
    a = m.array("a", values=np.arange(1, n + 1) if values is None else values)
    recorder.input(a)
    m.run(program(m, a))
    assert not m.violations
    recorder.output(a)
    return recorder.circuit()


def by_strings(circuit: Circuit, letters: list[str]) -> list[Any]:
    """Evaluate the circuit with ``add`` read as string concatenation (not commutative):
    the outside reference of 'a scan of every associative operator'. A constant 0 is the
    empty string; a gate of another kind has no meaning here and gives None."""
    wire: dict[int, Any] = {int(w): "" if v == 0 else None for w, v in circuit.constants.items()}
    for w, letter in zip(circuit.inputs.tolist(), letters, strict=True):
        wire[w] = letter
    for kind, ins, outs in circuit.gates():
        got = [wire.get(w) for w in ins]
        ok = kind == "add" and all(isinstance(g, str) for g in got)
        wire[outs[0]] = got[0] + got[1] if ok else None
    return [wire.get(int(w)) for w in circuit.outputs]


def prefixes(letters: list[str], exclusive: bool = False) -> list[str]:
    out = ["".join(letters[: p + 1]) for p in range(len(letters))]
    return ["", *out[:-1]] if exclusive else out


@pytest.mark.parametrize("n", range(1, 34))
def test_the_projects_prefix_sums_scan_every_associative_operator(n: int) -> None:
    """Brent and Kung's prefix sums (the catalogue's prefix-sums entry and compaction call
    it), inclusive and exclusive, at every n up to 33: every output is [0, p] (or [0, p - 1]),
    and concatenation agrees."""
    letters = [chr(97 + i % 26) + str(i) for i in range(n)]
    for exclusive in (False, True):
        circuit = record(lambda m, a, e=exclusive: prefix_sums(m, a, n, inclusive=not e), n)
        found = scan_check(circuit, exclusive=exclusive)
        assert found.ok, found.message
        assert by_strings(circuit, letters) == prefixes(letters, exclusive)
        got = evaluate(circuit, np.arange(1, n + 1)[None])[0]
        expected = np.cumsum(np.arange(1, n + 1))
        assert got.tolist() == (np.r_[0, expected[:-1]] if exclusive else expected).tolist()


def test_blocks_of_prefix_sums_are_a_segmented_scan() -> None:
    """prefix_sums_blocks over blocks of lengths 5, 8, 0 and 3 (of size 8): each block's
    cells are [start, p], the cells past a block's length stay their own [p, p]."""
    lengths = np.array([5, 8, 0, 3])
    first = np.arange(4) * 8
    circuit = record(lambda m, a: prefix_sums_blocks(m, a, first, 8, lengths), 32)
    p = np.arange(32)
    block, offset = p // 8, p % 8
    starts = np.where(offset < lengths[block], first[block], p)
    found = scan_check(circuit, starts=starts)
    assert found.ok, found.message
    assert found.outputs[12] == "[8, 12]" and found.outputs[7] == "[7, 7]"
    wrong = scan_check(circuit)  # as one segment it is no scan: the second block starts anew
    assert not wrong.ok and wrong.wrong[0][1:] == (5, "[0, 5]", "[5, 5]")


def _segmented(n: int) -> tuple[Circuit, np.ndarray]:
    """The segmented scan's circuit, recorded on one random instance, and the machine's
    answer there."""
    rng = np.random.default_rng(n)
    recorder = Recorder()
    m = Machine("erew", observer=recorder)
    values = m.array("v", values=rng.integers(-9, 10, n))
    flags = m.array("f", values=rng.integers(0, 2, n))
    recorder.input(values)
    recorder.input(flags, bits=True)
    m.run(segmented_scan(m, values, flags, n))
    assert not m.violations
    recorder.output(values)
    return recorder.circuit(), values.to_numpy()


def _reference(values: np.ndarray, flags: np.ndarray) -> list[int]:
    out, total = [], 0
    for i, (v, f) in enumerate(zip(values.tolist(), flags.tolist(), strict=True)):
        total = v if (f or i == 0) else total + v
        out.append(total)
    return out


@pytest.mark.parametrize("n", [2, 3, 5, 8, 11])
def test_the_segmented_scan_is_a_scan_under_every_flag_pattern(n: int) -> None:
    """One recorded circuit, all 2^n flag patterns at once: every output p is [s, p], s the
    start of p's segment; and the circuit's sums equal a sequential segmented sum on random
    values for every pattern."""
    circuit, _ = _segmented(n)
    patterns = np.array(list(product((0, 1), repeat=n)), dtype=np.int64)
    found = scan_check(circuit, elements=np.arange(n), flags=patterns)
    assert found.ok, found.message
    assert found.patterns == 2**n
    rng = np.random.default_rng(7)
    values = rng.integers(-50, 50, (len(patterns), n))
    got = evaluate(circuit, np.hstack([values, patterns]))
    for row, flags, answer in zip(values, patterns, got, strict=True):
        assert answer.tolist() == _reference(row, flags)


def test_segment_starts() -> None:
    assert segment_starts([0, 0, 1, 0, 1, 1, 0]).tolist() == [0, 0, 2, 2, 4, 5, 5]


def test_the_segmented_scans_answer_on_the_machine() -> None:
    """The program itself, on random instances, against a sequential segmented sum, with its
    exact counts (time 1 + 2 ceil(log2 n), work n + 2 sum (n - 2^r))."""
    rng = np.random.default_rng(3)
    for n in (2, 7, 16, 100):
        values, flags = rng.integers(-99, 99, n), rng.integers(0, 2, n)
        m = Machine("erew")
        v, f = m.array("v", values=values), m.array("f", values=flags)
        m.run(segmented_scan(m, v, f, n))
        assert v.to_numpy().tolist() == _reference(values, flags)
        rounds = int(np.ceil(np.log2(n)))
        assert m.cost.time == 1 + 2 * rounds
        assert m.cost.work == n + 2 * sum(n - 2**r for r in range(rounds))
        assert not m.violations


def _swapped(m: Machine, a: Array, n: int) -> Program[None]:
    """Hillis and Steele's doubling with the operands swapped: (x_i + x_{i-h}) instead of
    (x_{i-h} + x_i). Its sums are right, since + commutes; it is no scan of a
    non-commutative operator."""
    pid = m.processors(n)
    cell = np.arange(n)
    (mine,) = yield Step(pid, reads=(Read(a, cell),))
    h = 1
    while h < n:
        (left,) = yield Step(pid[h:], reads=(Read(a, cell[:-h]),))
        combined = mine[h:] + left
        yield Step(pid[h:], writes=(Write(a, cell[h:], combined),))
        mine[h:] = combined
        h *= 2


def _short(m: Machine, a: Array, n: int) -> Program[None]:
    """Brent and Kung's prefix sums with the last down-sweep level left out."""
    pid = m.processors(n)
    for span in (2, 4, 8):  # up-sweep of 8 cells
        right = np.arange(n // span) * span + span - 1
        x, y = yield Step(pid[: len(right)], reads=(Read(a, right - span // 2), Read(a, right)))
        yield Step(pid[: len(right)], writes=(Write(a, right, x + y),))
    done = np.array([3])  # the level that finishes cell 5 from cell 3
    x, y = yield Step(pid[:1], reads=(Read(a, done), Read(a, done + 2)))
    yield Step(pid[:1], writes=(Write(a, done + 2, x + y),))
    # missing: cells 2, 4 and 6 from 1, 3 and 5


def test_a_broken_scan_fails_naming_the_output() -> None:
    """Swapped operands: the sums are right (the machine agrees with numpy), the monoid says
    output 1 is the error, and concatenation agrees it is wrong. A missing level: outputs 2,
    4 and 6 are named with what they hold."""
    n = 8
    circuit = record(lambda m, a: _swapped(m, a, n), n)
    assert evaluate(circuit, np.arange(1, n + 1)[None])[0].tolist() == np.cumsum(
        np.arange(1, n + 1)).tolist()
    found = scan_check(circuit)
    assert not found.ok
    assert found.wrong[0][1:] == (1, "[0, 1]", "error")
    assert found.message.startswith("output 1 is error, not [0, 1] (7 wrong outputs)")
    letters = list("abcdefgh")
    assert by_strings(circuit, letters)[1] == "ba" != prefixes(letters)[1]
    short = record(lambda m, a: _short(m, a, n), n)
    found = scan_check(short)
    assert [w[1:] for w in found.wrong] == [(2, "[0, 2]", "[2, 2]"), (4, "[0, 4]", "[4, 4]"),
                                            (6, "[0, 6]", "[6, 6]")]
    assert [p for p, (got, want) in enumerate(zip(by_strings(short, letters), prefixes(letters),
                                                  strict=True)) if got != want] == [2, 4, 6]


def test_a_gate_other_than_the_operator_is_the_error() -> None:
    """x0 - x1 is no product in the monoid: the check says error, not a guess."""
    def subtract(m: Machine, a: Array) -> Program[None]:
        pid = m.processors(1)
        x, y = yield Step(pid, reads=(Read(a, np.array([0])), Read(a, np.array([1]))))
        yield Step(pid, writes=(Write(a, np.array([1]), x - y),))

    found = scan_check(record(subtract, 2))
    assert found.wrong == ((0, 1, "[0, 1]", "error"),)


def test_misuse_is_refused_naming_the_fix() -> None:
    circuit, _ = _segmented(4)
    with pytest.raises(InputError, match="flags="):
        scan_check(circuit, elements=np.arange(4))
    with pytest.raises(InputError, match="outputs"):
        scan_check(circuit)


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_pram_circuit_prefix_sums_checks_the_scan(
    capsys: pytest.CaptureFixture[str], k: int
) -> None:
    """``pram circuit prefix-sums``: Brent and Kung's counts for n = 2^k (2n - k - 2 adders,
    depth 2k - 2; Brent and Kung, "A regular layout for parallel adders", 1982), the evaluator
    equal to the machine, and every operator's scan by the interval monoid; exit 0."""
    import json

    from pram.reports.cli import main

    n = 2**k
    assert main(["circuit", "prefix-sums", "--n", str(n), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["gates"] == {"add": 2 * n - k - 2} and obj["depth"] == max(1, 2 * k - 2)
    assert obj["checked"]["equal"] is True and obj["scan"]["every_operator"] is True
