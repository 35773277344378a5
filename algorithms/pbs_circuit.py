"""The paper's own circuit for ``pbs-key-values`` (H.7.6, equations 14-17, Figure 9), built fixed.

Equations 15-16 hand the recursive calls the key ranges ``k[z_t..y]`` and ``k[x..z_s-1]``,
whose ends depend on comparisons: as written they are not a fixed circuit. This module builds
the fixed circuit that realises them and counts it exactly, gate by gate:

- the call tree over the queries is fixed (``mid = floor((s+t)/2)``), one *node* per query;
- a node's key range ``[x, y]`` is carried as two index wires plus an *alive* bit (the paper's
  "z = 0 means dead" cannot be used: 0 is also a valid index, e.g. ``z_t = x = 0`` when
  ``q[mid] <= k_0``);
- every key the node reads at a data-dependent index (``k_x`` and ``k_y`` of eq. 14, and each
  probe of ``bin-search``) is chosen by a **multiplexer over all m keys**: a tree of m - 1
  token selects driven by the index's bits. A node cannot use a smaller one, since its range
  may be any interval of ``[0, m)``;
- ``z = bin-search(k[x..y], q[mid])`` is ``bisect_left`` over the data range, as a fixed
  number ``ceil(log2(m + 1))`` of probes (each probe a multiplexer and a comparison);
- eq. (14)'s ``l_x``, ``g_y``, eq. (15)-(16)'s ``z_t``, ``z_s`` and eq. (17)'s outputs are
  selects on those wires. Eq. (17) multiplies the child's output ``C_1[i]`` by ``z_s``, an index;
  the circuit uses the indicator that the child is alive, which is what the text means.

Tokens are one word wire (``d = 1``, word comparators: one ``less`` gate) or d bit wires, least
significant first, compared by Lemma H.32's prefix network (XOR, INV, AND, OR gates, depth
O(log d)) and selected bit by bit. Indices are word wires (an arithmetic circuit, as in the
paper). :func:`build` returns a :class:`pram.circuit.Circuit`, which
:func:`pram.circuit.evaluate` runs (the report measures a sweep over n, m and d:
:func:`pram.reports.circuit_report.pbs_rows`).

>>> from pram.circuit import evaluate
>>> c = build(3, 4)
>>> evaluate(c, [[1, 4, 9, 2, 4, 6, 8]]).tolist()
[[0, 1, 4]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt

from pram import InputError
from pram.circuits.builder import Builder
from pram.circuits.circuit import Circuit

_W = npt.NDArray[np.int64]


#: A token: one word wire (d = 1) or d bit wires, least significant first.
_Token = tuple[int, ...]


class _Tokens:
    """Comparisons and selects of tokens, at word level (d = 1) or bit level (d > 1)."""

    def __init__(self, b: Builder, d: int) -> None:
        self.b, self.d = b, d

    def less(self, x: _Token, y: _Token) -> int:
        """A bit wire: ``x < y``. Bit level: Lemma H.32, a prefix over the bits from the most
        significant, each pair (lt, eq) folding as ``(lt_hi | eq_hi & lt_lo, eq_hi & eq_lo)``."""
        b = self.b
        if self.d == 1:
            return b.gate("less", x[0], y[0], bit=True)
        pairs = []
        for i in reversed(range(self.d)):  # most significant first
            differ = b.gate("XOR", x[i], y[i], bit=True)
            pairs.append((b.gate("AND", differ, y[i], bit=True), b.gate("INV", differ, bit=True)))
        while len(pairs) > 1:
            folded = []
            for k in range(0, len(pairs) - 1, 2):
                (lt_hi, eq_hi), (lt_lo, eq_lo) = pairs[k], pairs[k + 1]
                both = b.gate("AND", eq_hi, lt_lo, bit=True)
                folded.append(
                    (b.gate("OR", lt_hi, both, bit=True), b.gate("AND", eq_hi, eq_lo, bit=True))
                )
            if len(pairs) % 2:
                folded.append(pairs[-1])
            pairs = folded
        return pairs[0][0]

    def select(self, c: int, x: _Token, y: _Token) -> _Token:
        """``x`` where the bit ``c`` is 1, else ``y``: one select gate per wire of a token."""
        pairs = zip(x, y, strict=True)
        return tuple(self.b.gate("select", c, xi, yi, bit=self.d > 1) for xi, yi in pairs)


@attrs.frozen
class _Node:
    """The wires a call receives: its key range [x, y] (indices; y = x - 1 when empty) and
    whether it is alive."""

    x: int
    y: int
    alive: int


def build(n: int, m: int, d: int = 1) -> Circuit:
    """The fixed circuit of ``pbs-key-values`` on n sorted queries and m sorted keys of d bits.

    Inputs: the n queries, then the m keys (one word each for d = 1, else d bits each, least
    significant first). Outputs: C[0..n-1], eq. (12) (``bisect_left``), one word each.
    """
    for name, value, low in (("n", n, 1), ("m", m, 1), ("d", d, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise InputError(f"{name} must be an integer of at least {low} (got {value!r})")
    b = Builder()
    tok = _Tokens(b, d)
    width = d
    inputs: list[int] = []

    def token() -> _Token:
        wires = tuple(b.new(0, d > 1) for _ in range(width))
        inputs.extend(wires)
        return wires

    queries = [token() for _ in range(n)]
    keys = [token() for _ in range(m)]
    span = 1 << max(1, (m - 1).bit_length())  # the multiplexers' leaves, padded
    top = tuple(b.constant(1) for _ in range(d)) if d > 1 else (b.constant(2**62),)
    leaves = keys + [top] * (span - m)
    index_bits = span.bit_length() - 1
    one = b.constant(1)

    def mux(index: int) -> _Token:
        """``keys[index]`` (a key past the end reads as the largest token)."""
        bits = [b.gate("and", b.gate("shr", index, b.constant(i)), one, bit=True)
                for i in range(index_bits)]
        layer = leaves
        for level in range(index_bits):
            layer = [tok.select(bits[level], layer[k + 1], layer[k])
                     for k in range(0, len(layer), 2)]
        return layer[0]

    probes = max(1, math.ceil(math.log2(m + 1)))

    def bisect(q: _Token, lo: int, hi: int) -> int:
        """``bisect_left`` of q in keys[lo..hi): ``probes`` fixed rounds (empty: lo)."""
        for _ in range(probes):
            open_ = b.gate("less", lo, hi, bit=True)
            probe = b.gate("shr", b.gate("add", lo, hi), one)
            below = b.gate("AND", open_, tok.less(mux(probe), q), bit=True)
            stop = b.gate("AND", open_, b.gate("INV", below, bit=True), bit=True)
            lo = b.gate("select", below, b.gate("add", probe, one), lo)
            hi = b.gate("select", stop, probe, hi)
        return lo

    out: list[int] = [0] * n

    def call(s: int, t: int, node: _Node) -> None:
        """pbs-key-values(q[s..t], k[x..y]) of Algorithm 10, as gates (eqs. 14-17)."""
        if s > t:
            return
        mid = (s + t) // 2
        x, y, alive = node.x, node.y, node.alive
        q = queries[mid]
        y1 = b.gate("add", y, one)
        # eq. (14): l_x = q[mid] <= k_x, g_y = q[mid] > k_y, z = bin-search(k[x..y], q[mid])
        l_x = b.gate("INV", tok.less(mux(x), q), bit=True)
        g_y = tok.less(mux(y), q)
        z = bisect(q, x, y1)
        inside = b.gate("AND", b.gate("INV", l_x, bit=True), b.gate("INV", g_y, bit=True),
                        bit=True)
        # eq. (15)-(16): z_t (right child starts) and z_s (left child ends at z_s - 1)
        z_t = b.gate("select", l_x, x, b.gate("select", inside, z, y1))
        z_s = b.gate("select", g_y, y1, b.gate("select", inside, z, x))
        # a dead call answers its range's start (x for a dead left part, y + 1 for a right one)
        c_mid = b.gate("select", l_x, x, b.gate("select", g_y, y1, z))
        out[mid] = b.gate("select", alive, c_mid, x)
        right_alive = b.gate("AND", alive, b.gate("INV", g_y, bit=True), bit=True)
        left_alive = b.gate("AND", alive, b.gate("INV", l_x, bit=True), bit=True)
        # eq. (17): a dead child's queries answer l_x x (left) or g_y (y + 1) (right)
        left_end = b.gate("sub", z_s, one)
        call(s, mid - 1, _Node(x, b.gate("select", left_alive, left_end, b.gate("sub", x, one)),
                               left_alive))
        call(mid + 1, t, _Node(b.gate("select", right_alive, z_t, y1), y, right_alive))

    call(0, n - 1, _Node(b.constant(0), b.constant(m - 1), b.constant(1)))
    return b.circuit(inputs, out, width)


@attrs.frozen
class Route:
    """Algorithm 11's searches built from these circuits at N = 3 * 2^L: level k has
    ``2^(L-k-1)`` blocks, each a pbs-key-values circuit with n = m = 2^k (sorts not included).
    ``size`` sums the built blocks' sizes, ``depth`` is the deepest block's depth."""

    n: int
    d: int
    size: int
    depth: int


def route(levels: Sequence[int], d: int = 1) -> list[Route]:
    """The search part of the paper's circuit route for Algorithm 11, one entry per L."""
    built = {}
    out = []
    for lv in levels:
        size = depth = 0
        for k in range(lv):
            if k not in built:
                c = build(1 << k, 1 << k, d)
                built[k] = (c.size, c.depth)
            size += (1 << (lv - k - 1)) * built[k][0]
            depth = max(depth, built[k][1])
        out.append(Route(3 << lv, d, size, depth))
    return out


__all__ = ["Route", "build", "route"]
