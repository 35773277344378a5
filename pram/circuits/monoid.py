"""Interval-monoid verification of scans: one evaluation checks every associative operator.

The sorting networks have the 0-1 principle (a comparator network that sorts every input of 0s
and 1s sorts every input). Scans have its counterpart: a circuit built from one binary gate
``op`` computes the prefix ``x_0 op x_1 op ... op x_p`` at output ``p`` for *every*
associative operator if and only if it does so in the **interval monoid**, whose elements are
the intervals ``[i, j]`` of input positions, an identity (the empty interval) and an error
element, with

    [i, j] . [j + 1, k] = [i, k],   identity . x = x . identity = x,   anything else = error,

error propagating. The interval monoid is the free model of associativity on a line: a
product of input intervals is an interval exactly when it lists consecutive positions in
order, each once, which is what every associative operator (commutative or not) needs
(Sheeran, "Functional and dynamic programming in the design of parallel prefix networks",
J. Funct. Program. 21, 2011; the same observation underlies Hinze, "An algebra of scans",
MPC 2004). So one evaluation of a recorded circuit (:mod:`pram.circuits.circuit`) stands for all
operators, all input values and all sizes of word.

:func:`scan_check` evaluates a :class:`pram.circuits.circuit.Circuit` on the interval monoid: input
``p`` of the scanned elements is ``[p, p]``; a gate of the operator's kind (``add`` for the
project's prefix sums) combines its two operands *in their order*, so a circuit that swaps
them is caught even though it sums correctly; a constant equal to the operator's identity (0
for sums) is the identity. Other inputs (a segmented scan's flags) and the wires computed from
them only carry words: they are evaluated as words (by :func:`pram.circuits.io.evaluate`'s gate
table), and a ``select`` on such a word picks one of two monoid elements, which is how a
segmented scan's circuit looks. Any other gate meeting a monoid element makes the error.

Output ``p`` must be ``[s, p]``, with ``s`` the first position of ``p``'s segment (0 without
segments; a shorter block of :func:`pram.algorithms.primitives.prefix_sums_blocks` is a
segment), or ``[s, p - 1]`` for an exclusive scan (the identity at a segment's first
position). The result names every wrong output:

>>> import numpy as np
>>> from pram import Machine, Read, Step, Write
>>> from pram.circuits.circuit import Recorder
>>> def scan(m, a, swap=False):  # one processor: a[1] := a[0] + a[1], the prefix of two
...     pid = m.processors(1)
...     x, y = yield Step(pid, reads=[Read(a, np.array([0])), Read(a, np.array([1]))])
...     yield Step(pid, writes=[Write(a, np.array([1]), y + x if swap else x + y)])
>>> def circuit(swap):
...     recorder = Recorder()
...     m = Machine("erew", observer=recorder)
...     a = m.array("a", values=np.array([3, 4]))
...     recorder.input(a)
...     m.run(scan(m, a, swap))
...     recorder.output(a)
...     return recorder.circuit()
>>> found = scan_check(circuit(swap=False))
>>> found.ok, found.outputs
(True, ('[0, 0]', '[0, 1]'))
>>> print(scan_check(circuit(swap=True)).message)  # 4 + 3 is 7 too, but x1 op x0 is no prefix
output 1 is error, not [0, 1] (1 wrong output): the circuit is no scan for some associative operator
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs
import numpy.typing as npt

from pram._numpy import np
from pram.circuits.io import GATES, groups
from pram.errors import InputError

if TYPE_CHECKING:  # the type only: pram.circuits.circuit imports pram.circuits.io, not this module
    from pram.circuits.circuit import Circuit

_I64 = npt.NDArray[np.int64]

#: What a wire holds: a word (a flag, or a value computed from flags), or a monoid element.
WORD, IDENTITY, SPAN, ERROR = -1, 0, 1, 2


@attrs.frozen
class ScanCheck:
    """What :func:`scan_check` found: each output's element, and the outputs that are wrong.

    ``outputs`` holds each output's element as text (``[0, 5]``, ``identity``, ``error``),
    for the first flag pattern; ``wrong`` one ``(pattern, output, expected, got)`` per wrong
    output (the pattern's number among the ``flags`` checked, 0 without flags).
    """

    outputs: tuple[str, ...]
    wrong: tuple[tuple[int, int, str, str], ...]
    patterns: int = 1

    @property
    def ok(self) -> bool:
        """Whether every output is its prefix, under every flag pattern checked."""
        return not self.wrong

    @property
    def message(self) -> str:
        """One line: the check passed, or the first wrong output with what it holds."""
        if self.ok:
            every = f" under {self.patterns} flag patterns" if self.patterns > 1 else ""
            return (f"every output is its prefix in the interval monoid{every}: the circuit "
                    "scans with every associative operator")
        pattern, output, expected, got = self.wrong[0]
        under = f" under flag pattern {pattern}" if self.patterns > 1 else ""
        return (f"output {output} is {got}, not {expected}{under} ({len(self.wrong)} wrong "
                f"output{'s' if len(self.wrong) > 1 else ''}): the circuit is no scan for "
                "some associative operator")


def _text(kind: int, lo: int, hi: int) -> str:
    if kind == SPAN:
        return f"[{lo}, {hi}]"
    return {IDENTITY: "identity", ERROR: "error", WORD: f"the word {lo}"}[kind]


def expected(starts: _I64, exclusive: bool) -> tuple[_I64, _I64, _I64]:
    """The prefix at each position given each position's segment start: (kind, lo, hi)."""
    p = np.arange(starts.shape[-1], dtype=np.int64)
    hi = p - 1 if exclusive else p
    kind = np.where(hi >= starts, SPAN, IDENTITY).astype(np.int64)
    return kind, np.where(kind == SPAN, starts, 0), np.where(kind == SPAN, hi, 0)


def segment_starts(flags: npt.ArrayLike) -> _I64:
    """Each position's segment start, for flags marking a segment's first element (1); a
    first position without a flag starts a segment too."""
    f = np.asarray(flags, dtype=np.int64) != 0
    p = np.arange(f.shape[-1], dtype=np.int64)
    return np.maximum.accumulate(np.where(f, p, 0), axis=-1)


def scan_check(
    circuit: Circuit,
    *,
    operator: str = "add",
    identity: int = 0,
    elements: Sequence[int] | npt.ArrayLike | None = None,
    flags: npt.ArrayLike | None = None,
    starts: npt.ArrayLike | None = None,
    exclusive: bool = False,
) -> ScanCheck:
    """Evaluate ``circuit`` on the interval monoid and compare each output with its prefix.

    ``operator`` is the gate kind of the scan's operator and ``identity`` its identity (a
    constant equal to it is the monoid's identity). ``elements`` are the positions, among
    the circuit's inputs, of the scanned elements, in order (default: all inputs); the other
    inputs are the flags: ``flags`` gives their words, one row per pattern to check (shape
    ``(K, other inputs)``), and each row's segment starts are those of the flags (a flag 1
    starts a segment; the flags align with the elements). Without flags, ``starts`` gives
    each element's segment start (default 0: one segment). The circuit's outputs must be
    one per element, in order.
    """
    n_inputs = len(circuit.inputs)
    chosen = np.arange(n_inputs) if elements is None else np.asarray(elements, dtype=np.int64)
    others = np.setdiff1d(np.arange(n_inputs), chosen)
    n = len(chosen)
    if len(circuit.outputs) != n:
        raise InputError(
            f"a scan of {n} elements has {n} outputs (the circuit has {len(circuit.outputs)}); "
            "declare the scanned cells as the outputs, in order"
        )
    if flags is None:
        if len(others):
            raise InputError(f"the circuit has {len(others)} inputs beside the elements; give "
                             "their words as flags=, one row per pattern")
        words = np.zeros((1, 0), dtype=np.int64)
        start = np.zeros((1, n), np.int64) if starts is None else np.asarray(
            starts, dtype=np.int64).reshape(1, n)
    else:
        words = np.atleast_2d(np.asarray(flags, dtype=np.int64))
        if words.shape[1] != len(others):
            raise InputError(f"flags must have one column per input beside the elements "
                             f"({len(others)}; got shape {words.shape})")
        if len(others) != n:
            raise InputError(f"segment flags align with the {n} elements (got {len(others)})")
        start = segment_starts(words)
    k = len(words)
    kind = np.full((circuit.wires, k), WORD, dtype=np.int64)
    lo = np.zeros((circuit.wires, k), dtype=np.int64)
    hi = np.zeros((circuit.wires, k), dtype=np.int64)
    for w, value in circuit.constants.items():
        lo[w] = value  # a word; the identity where it meets a monoid element
    kind[circuit.inputs[chosen]] = SPAN
    lo[circuit.inputs[chosen]] = np.arange(n)[:, None]
    hi[circuit.inputs[chosen]] = np.arange(n)[:, None]
    lo[circuit.inputs[others]] = words.T
    for rows in groups(circuit.batch):
        for g in rows.tolist():
            _gate(circuit, g, operator, identity, kind, lo, hi)
    out = circuit.outputs
    got_kind, got_lo, got_hi = kind[out].T, lo[out].T, hi[out].T
    got_kind = np.where((got_kind == WORD) & (got_lo == identity), IDENTITY, got_kind)
    want_kind, want_lo, want_hi = expected(start, exclusive)
    span = want_kind == SPAN
    bad = (got_kind != want_kind) | (span & ((got_lo != want_lo) | (got_hi != want_hi)))
    wrong = tuple(
        (int(r), int(p), _text(int(want_kind[r, p]), int(want_lo[r, p]), int(want_hi[r, p])),
         _text(int(got_kind[r, p]), int(got_lo[r, p]), int(got_hi[r, p])))
        for r, p in zip(*np.nonzero(bad), strict=True)
    )
    shown = tuple(_text(int(a), int(b), int(c))
                  for a, b, c in zip(got_kind[0], got_lo[0], got_hi[0], strict=True))
    return ScanCheck(shown, wrong, k)


def _gate(circuit: Circuit, g: int, operator: str, identity: int, kind: _I64, lo: _I64,
          hi: _I64) -> None:
    """Evaluate gate ``g`` on every pattern at once: words as words, monoid elements in the
    interval monoid."""
    name = circuit.kinds[int(circuit.kind[g])]
    ins = [int(w) for w in circuit.ins[g] if w >= 0]
    outs = [int(w) for w in circuit.outs[g] if w >= 0]
    words = all((kind[w] == WORD).all() for w in ins)
    if words:
        result = GATES[name](*(lo[w] for w in ins))
        for w, column in zip(outs, result if isinstance(result, tuple) else (result,),
                             strict=True):
            kind[w], lo[w], hi[w] = WORD, column, 0
        return
    if name == "select" and (kind[ins[0]] == WORD).all():
        pick = lo[ins[0]] != 0
        a, b = ins[1], ins[2]
        for target in (kind, lo, hi):
            target[outs[0]] = np.where(pick, target[a], target[b])
        return
    if name != operator or len(ins) != 2:
        for w in outs:
            kind[w], lo[w], hi[w] = ERROR, 0, 0
        return
    ka, kb = _element(kind[ins[0]], lo[ins[0]], identity), _element(kind[ins[1]], lo[ins[1]],
                                                                     identity)
    la, ha, lb, hb = lo[ins[0]], hi[ins[0]], lo[ins[1]], hi[ins[1]]
    joined = (ka == SPAN) & (kb == SPAN) & (ha + 1 == lb)
    k_out = np.where(ka == IDENTITY, kb, np.where(kb == IDENTITY, ka,
                     np.where(joined, SPAN, ERROR)))
    lo_out = np.where(ka == IDENTITY, lb, la)
    hi_out = np.where(kb == IDENTITY, ha, hb)
    w = outs[0]
    kind[w] = k_out
    lo[w] = np.where(k_out == SPAN, lo_out, 0)
    hi[w] = np.where(k_out == SPAN, hi_out, 0)


def _element(kind: _I64, value: _I64, identity: int) -> _I64:
    """A wire's monoid element: a word equal to the identity is the identity, another word
    (it is no product of elements) the error."""
    word = kind == WORD
    out: _I64 = np.where(word, np.where(value == identity, IDENTITY, ERROR), kind)
    return out


__all__ = ["ERROR", "IDENTITY", "SPAN", "WORD", "ScanCheck", "expected", "scan_check",
           "segment_starts"]
