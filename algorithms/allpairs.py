"""The all-pairs (attention-like) MQAR baseline: every query against every earlier key, on EREW.

Query ``i`` is compared with each key ``j < i`` by its own processor, then a reduction over
``j`` picks the latest match. It is the paper's quadratic attention solution in PRAM form: work
Theta(N^2), time O(log N), and the negative control of Algorithm 11's work bound. To stay EREW,
every query and every key is first replicated by doubling into a private cell per pair.

>>> from pram import Machine
>>> r = recall(Machine("erew"), [5, 50, 7, 7, 70, 5, 5, 51, 5, 9, 90, 5])
>>> r.answers.tolist(), r.indices.tolist(), r.padding
([-1, 50, 50, 51], [-1, 0, 0, 2], 0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pram import Array, Machine, Program, Read, Step, Words, Write, iota, parallel, phase
from pram.algorithms.acting import fresh_scope
from pram.algorithms.keys import Keys, WordKeys
from pram.algorithms.mqar import NO_MATCH, Layout, Recall, layout


def recall(m: Machine, tokens: Any, *, keys: Keys | None = None) -> Recall:
    """Answer every query of ``tokens`` by comparing it with all earlier keys on ``m``.

    Same input and result as :func:`algorithms.mqar.recall` (padding included); the cost of
    the run is on ``m.cost``.
    """
    keys = WordKeys() if keys is None else keys
    lay = layout(tokens)
    return Recall.read(lay, *m.run(program(m, keys, lay)))


def program(m: Machine, keys: Keys, lay: Layout) -> Program[tuple[Array, Array]]:
    """The all-pairs PRAM program on the laid-out input; returns the answers array (matched
    values) and the indices array (matched keys' triple indices), -1 for no match.

    Pair ``(i, j)``, ``j < i < real``, owns cell ``i * real + j`` of each pair array, where
    ``real = N // 3`` queries are answered. Padded queries (``i >= real``) get no pair: they
    never match.
    """
    t, real = lay.triples, lay.answered
    ns = _scope(m)
    key_in = keys.store(m, f"{ns}.keys", lay.keys)
    query_in = keys.store(m, f"{ns}.queries", lay.queries)
    value_in = m.array(f"{ns}.values", values=lay.values)
    cells = real * real
    query_copy = keys.allocate(m, f"{ns}.query copies", cells)
    key_copy = keys.allocate(m, f"{ns}.key copies", cells)
    value_copy = m.array(f"{ns}.value copies", size=cells)
    best = m.array(f"{ns}.best value", size=cells)
    best_index = m.array(f"{ns}.best index", size=cells)
    answers = m.array(f"{ns}.answers", size=t)
    indices = m.array(f"{ns}.indices", size=t)
    query_pid, key_pid, value_pid = (m.processors(cells) for _ in range(3))
    out_pid = m.processors(t)

    def replicate() -> Program[None]:
        # Query i goes to cell (i, 0), key j to cell (j+1, j); then doubling fills row i with
        # copies of q_i and column j with copies of k_j (and v_j), one reader per cell a step.
        i = np.arange(1, real, dtype=np.int64)
        j = np.arange(0, real - 1, dtype=np.int64)
        yield from parallel(
            keys.copy(m, query_pid[i * real], query_in, i, query_copy, i * real),
            keys.copy(m, key_pid[j], key_in, j, key_copy, (j + 1) * real + j),
            _move(value_pid[j], value_in, j, value_copy, (j + 1) * real + j),
        )
        h = 1
        while h < real - 1:
            row, col = _grid(np.arange(1, real, dtype=np.int64), h)
            live = col + h < row
            row, col = row[live], col[live]
            source, target = row * real + col, row * real + col + h
            j, c = _grid(np.arange(0, real - 1, dtype=np.int64), h)
            live = j + 1 + c + h < real
            j, c = j[live], c[live]
            below, further = (j + 1 + c) * real + j, (j + 1 + c + h) * real + j
            yield from parallel(
                keys.copy(m, query_pid[source], query_copy, source, query_copy, target),
                keys.copy(m, key_pid[below], key_copy, below, key_copy, further),
                _move(value_pid[below], value_copy, below, value_copy, further),
            )
            h *= 2

    def compare() -> Program[None]:
        row, col = _grid(np.arange(1, real, dtype=np.int64), real)
        live = col < row
        row, col = row[live], col[live]
        cell = row * real + col
        pid = query_pid[cell]
        _, equal = yield from keys.compare(m, pid, query_copy, cell, key_copy, cell)
        (value,) = yield Step(pid, reads=(Read(value_copy, cell, where=equal),))
        # the pair's processor knows its key index j = col by index arithmetic
        yield Step(
            pid,
            writes=(
                Write(best, cell, np.where(equal, value, NO_MATCH)),
                Write(best_index, cell, np.where(equal, col, NO_MATCH)),
            ),
        )

    def combine() -> Program[None]:
        # Row i halves its live entries each round: (i, c) keeps the later match of (i, c) and
        # (i, c + h), i.e. the right one when it matched (its index is then not -1).
        h = 1
        while h < real - 1:
            row, c = _grid(np.arange(1, real, dtype=np.int64), (real + 2 * h - 1) // (2 * h))
            c = c * 2 * h
            live = c + h < row
            row, c = row[live], c[live]
            left, right = row * real + c, row * real + c + h
            pid = query_pid[left]
            a, b, a_index, b_index = yield Step(
                pid,
                reads=(
                    Read(best, left),
                    Read(best, right),
                    Read(best_index, left),
                    Read(best_index, right),
                ),
            )
            later = b_index != NO_MATCH
            yield Step(
                pid,
                writes=(
                    Write(best, left, np.where(later, b, a)),
                    Write(best_index, left, np.where(later, b_index, a_index)),
                ),
            )
            h *= 2
        # Row i's answer is in cell (i, 0); query 0 and padded queries have no match.
        i = iota(t)
        has = (i >= 1) & (i < real)
        pid = out_pid
        cell = np.where(has, i * real, 0)
        v, j = yield Step(
            pid, reads=(Read(best, cell, where=has), Read(best_index, cell, where=has))
        )
        yield Step(
            pid,
            writes=(
                Write(answers, i, np.where(has, v, NO_MATCH)),
                Write(indices, i, np.where(has, j, NO_MATCH)),
            ),
        )

    if real > 1:
        yield from phase("replicate", replicate())
        yield from phase("compare", compare())
    yield from phase("combine", combine())
    return answers, indices


def _grid(rows: Words, width: int) -> tuple[Words, Words]:
    """Every pair ``(r, c)`` with ``r`` in ``rows`` and ``c`` in ``[0, width)``, flattened."""
    r = np.broadcast_to(rows[:, None], (len(rows), width)).reshape(-1)
    c = np.broadcast_to(iota(width)[None, :], (len(rows), width)).reshape(-1)
    return r, c


def _move(pid: Words, source: Array, i: Words, target: Array, j: Words) -> Program[None]:
    """Processors ``pid`` copy the word ``source[i]`` to ``target[j]`` (a payload, not a token)."""
    (x,) = yield Step(pid, reads=(Read(source, i),))
    yield Step(pid, writes=(Write(target, j, x),))


__all__ = ["program", "recall"]


def _scope(m: Machine) -> str:
    """The prefix of this run's array names: ``allpairs`` for the first run on ``m``, then
    ``allpairs 2``, ... so that a second :func:`recall` on one machine collides with nothing."""
    return fresh_scope(
        m, lambda count: "allpairs" if count == 1 else f"allpairs {count}", ".values"
    )
