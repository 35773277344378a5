"""Connected components by hooking and shortcutting (Shiloach and Vishkin), CRCW arbitrary.

Every vertex holds a pointer ``D[v]``, first to itself; the pointers form rooted trees that
only ever join vertices of one component. Each round (Awerbuch and Shiloach's form of
Shiloach and Vishkin's algorithm, JáJá's section 5.1) marks the *stars* (trees of height
at most 1), lets every star whose root sees a smaller label across an edge hook its root
onto it (conditional hooking), marks the stars again, lets every star still left hook onto
any neighbouring tree (unconditional hooking), and halves every path by one pointer jump
(shortcutting). Several edges of one star write their labels into its root at once and one
of them wins: CRCW arbitrary (or priority). After O(log n) rounds every tree is a star whose
root labels its component. Only *stagnant* stars hook unconditionally, as in Shiloach and
Vishkin: a one-vertex star that hooked onto a star forms a star again, and letting it hook
once more could close a cycle with a neighbour.

References: Y. Shiloach and U. Vishkin, "An O(log n) parallel connectivity algorithm",
J. Algorithms 3 (1982); B. Awerbuch and Y. Shiloach, "New connectivity and MSF algorithms for
shuffle-exchange network and PRAM", IEEE Trans. Computers 36 (1987); JáJá, "An Introduction to
Parallel Algorithms" (1992), section 5.1.

>>> import numpy as np
>>> from pram import Machine
>>> m = Machine("crcw-arbitrary")
>>> found = connected_components(m, 5, np.array([[0, 1], [3, 4], [1, 0]]))
>>> found.labels.tolist(), m.violations
([0, 0, 2, 3, 3], [])
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from pram import (
    Array,
    InputError,
    Machine,
    PRAMError,
    Program,
    Read,
    Step,
    Until,
    Words,
    Write,
    iota,
    phase,
    words,
)
from pram.algorithms.acting import first_true


@attrs.frozen
class Components:
    """What :func:`connected_components` found.

    ``labels[v]`` is the root of v's tree, equal for two vertices exactly when they are
    connected; ``rounds`` the rounds run, measured: the loop ends after the first round in
    which no pointer changed, learnt by a loop test (:class:`pram.Until`) of the round's flag,
    which every processor that changed a pointer writes; ``busy`` the last round in which
    some pointer changed (``rounds - 1``, read from the flags after the run); ``tests`` the
    host's loop tests the machine counted (one per round).
    """

    labels: Words
    rounds: int
    busy: int
    tests: int = 0


def sv_rounds(n: int) -> int:
    """The bound on the rounds that change a pointer, for n vertices: ``ceil(log_{3/2} n) + 1``.

    Shiloach and Vishkin bound the rounds by O(log n), and Awerbuch and Shiloach by
    ``log_{3/2} n`` for this round structure: a potential over the trees' heights shrinks by
    a factor 2/3 in every round that is not the last. The loop runs until a round changes
    nothing, so at most one round more; the tests check the bound on every instance.
    """
    return math.ceil(math.log(n) / math.log(1.5)) + 1 if n > 1 else 0


def connected_components(m: Machine, n: int, edges: Any) -> Components:
    """The connected components of the graph on vertices ``0..n-1`` with ``edges`` (CRCW
    arbitrary or priority).

    ``edges`` is an ``(e, 2)`` array of vertex pairs (in either order; repeats and self loops
    are fine). Time ``18 rounds + 1`` steps, with ``rounds <= sv_rounds(n) + 1``: O(log n).
    Work ``O((n + e) log n)``: every round costs ``13 n + 8 e + 1`` (the 1: the loop test).

    >>> m = Machine("crcw-priority")
    >>> connected_components(m, 3, np.zeros((0, 2), dtype=np.int64)).labels.tolist()
    [0, 1, 2]
    """
    pairs = _edges(n, edges)
    parent = m.array("components/parent", values=np.arange(n, dtype=np.int64))
    us = m.array("components/u", values=pairs[:, 0].copy())
    vs = m.array("components/v", values=pairs[:, 1].copy())
    changed = m.array("components/changed", values=np.zeros(sv_rounds(n) + 1, dtype=np.int64))
    tests = m.cost.loop_tests
    program = hook_and_shortcut(m, parent, us, vs, n, len(pairs), changed)
    rounds = m.run(phase("components", program))
    busy = 0  # the last round that changed a pointer, read from memory after the run
    for r, flag in enumerate(changed.to_numpy()[:rounds].tolist()):
        if flag:
            busy = r + 1
    return Components(parent.to_numpy(), rounds, busy, m.cost.loop_tests - tests)


def hook_and_shortcut(
    m: Machine, parent: Array, us: Array, vs: Array, n: int, e: int, changed: Array
) -> Program[int]:
    """Turn ``parent`` (``parent[v] = v`` at first) into component labels (CRCW arbitrary);
    return the rounds run.

    Processor ``k < 2e`` owns arc k: edge ``k // 2`` from ``us`` to ``vs`` for even k, back
    for odd k; it reads its endpoints once (concurrent reads, two arcs per edge). A round is
    5 steps marking stars, 2 of conditional hooking, 5 marking the stagnant stars (those the
    conditional hooking neither hooked nor hooked onto: two of them are never neighbours, so
    the unconditional hooks close no cycle), 2 of unconditional hooking and 3 of
    shortcutting; the hooking and shortcutting processors also write 1 to ``changed[round]``,
    and a control processor ends the loop after a round that left it 0 (1 step, a loop
    test): no pointer moved, so every tree is a star (shortcutting moved nothing) with no
    edge to another tree (a stagnant star with one would have hooked), and the labels are
    final. ``changed`` needs a cell per round; running out of cells (which the round bound
    of :func:`sv_rounds` rules out under CRCW arbitrary and priority) raises a
    :class:`pram.PRAMError` naming the model rather than looping on: under CRCW tolerant,
    say, disagreeing hooks leave a pointer as it was and the rounds need not end.
    """
    family = parent.name.rsplit("/", 1)[0]
    star = m.array(f"{family}/star", size=n)
    touched = m.array(f"{family}/touched", size=n)
    arcs = m.processors(2 * e)
    vertices = m.processors(n)
    vertex = iota(n)
    edge = iota(2 * e) // 2
    forward = iota(2 * e) % 2 == 0
    a, b = yield Step(arcs, reads=(Read(us, edge), Read(vs, edge)))
    u, v = np.where(forward, a, b), np.where(forward, b, a)
    control = m.processors(1)
    r = 0
    while True:
        if r >= changed.size:
            raise PRAMError(
                f"connected components ran {r} rounds, more than Awerbuch and Shiloach's bound "
                f"allows, under {m.model.name}; it is written for CRCW arbitrary, so run it "
                "under crcw-arbitrary or crcw-priority")
        yield from _stars(vertices, vertex, parent, star, touched, first=True)
        yield from _hook(arcs, u, v, parent, star, touched, changed, r, conditional=True)
        yield from _stars(vertices, vertex, parent, star, touched, first=False)
        yield from _hook(arcs, u, v, parent, star, touched, changed, r, conditional=False)
        (up,) = yield Step(vertices, reads=(Read(parent, vertex),))
        (grand,) = yield Step(vertices, reads=(Read(parent, up),))
        jumps = grand != up
        yield Step(vertices, writes=(
            Write(parent, vertex, grand, where=jumps), Write(changed, r, 1, where=jumps)))
        r += 1
        if (yield Until(changed, r - 1, control, value=0)):  # the control unit reads the flag
            break
    m.free(star)
    m.free(touched)
    return r


def _stars(
    pid: Words, vertex: Words, parent: Array, star: Array, touched: Array, *, first: bool
) -> Program[None]:
    """``star[v] = 1`` exactly when v's tree has height at most 1 (5 steps, CRCW common).

    Every vertex starts marked; a vertex whose grandparent is not its parent unmarks itself
    and its grandparent (many write 0 at once); then every vertex that is not deep takes its
    parent's mark (a child of the root, the root's; the root, its own). The ``first`` marking
    of a round clears ``touched``; the second leaves unmarked the trees the conditional
    hooking touched, so that only stagnant stars hook unconditionally.
    """
    ports = (Write(star, vertex, 1), Write(touched, vertex, 0)) if first else (
        Write(star, vertex, 1),)
    (up,) = yield Step(pid, reads=(Read(parent, vertex),), writes=ports)
    (grand,) = yield Step(pid, reads=(Read(parent, up),))
    deep = grand != up
    yield Step(pid, writes=(Write(star, vertex, 0, where=deep), Write(star, grand, 0, where=deep)))
    mark, moved = yield Step(pid, reads=(Read(star, up), Read(touched, up)))
    keep = ~deep if first else ~deep & (moved == 0)
    yield Step(pid, writes=(Write(star, vertex, np.where(keep, mark, 0)),))


def _hook(
    arcs: Words, u: Any, v: Any, parent: Array, star: Array, touched: Array, changed: Array,
    r: int, *, conditional: bool,
) -> Program[None]:
    """Every arc (u, v) whose u lies in a star writes ``parent[v]`` into the star's root: when
    it is smaller (conditional) or merely different (unconditional). 2 steps, CRCW arbitrary:
    the arcs of one star write different labels into one root. A conditional hook marks both
    trees it joins as touched."""
    mine, theirs, in_star = yield Step(
        arcs, reads=(Read(parent, u), Read(parent, v), Read(star, u)))
    hooks = (in_star == 1) & ((theirs < mine) if conditional else (theirs != mine))
    marks = (Write(touched, mine, 1, where=hooks), Write(touched, theirs, 1, where=hooks))
    yield Step(arcs, writes=(
        Write(parent, mine, theirs, where=hooks), Write(changed, r, 1, where=hooks),
        *(marks if conditional else ())))


def _edges(n: int, edges: Any) -> Words:
    """``edges`` as an ``(e, 2)`` int64 array of vertices of ``0..n-1``, or an InputError."""
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise InputError(f"n must be a positive number of vertices (got {n!r})")
    pairs = words(edges, "edges", ndim=2) if np.size(edges) else np.zeros((0, 2), np.int64)
    if pairs.shape[1:] != (2,):
        raise InputError(f"edges must have two columns, u and v (got shape {pairs.shape}); "
                         "pass one (u, v) pair per row")
    bad = first_true(((pairs < 0) | (pairs >= n)).reshape(-1))
    if bad is not None:
        raise InputError(f"edge {bad // 2} names vertex {pairs.reshape(-1)[bad]}, outside "
                         f"0..{n - 1}; give n > every vertex or fix the edge")
    return pairs


def read_edges(path: str | Path) -> tuple[int, Words]:
    """The vertex count and the ``(e, 2)`` edges of an edge-list file: one ``u v`` per line.

    Vertices are non-negative integers; n is one more than the largest vertex. Blank lines
    and lines starting with ``#`` or ``%`` (comments, as in SNAP and Matrix Market files) are
    skipped; a third column (a weight) is refused rather than dropped silently.
    """
    source = Path(path)
    try:
        text = source.read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read the edge list {source}: {error}; pass a text file "
                         "with one `u v` pair per line") from None
    return parse_edges(text, str(source))


def parse_edges(text: str, name: str = "edges") -> tuple[int, Words]:
    """:func:`read_edges` on the text of an edge list (``name`` is used in messages)."""
    pairs: list[tuple[int, int]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields or fields[0].startswith(("#", "%")):
            continue
        if len(fields) != 2 or not (fields[0].isdigit() and fields[1].isdigit()):
            raise InputError(f"{name} line {number}: expected two non-negative integers "
                             f"`u v` (got {line.strip()!r}); fix that line or start it with #")
        pairs.append((int(fields[0]), int(fields[1])))
    if not pairs:
        raise InputError(f"{name} holds no edge; give one `u v` pair per line")
    largest = 0
    for u, v in pairs:
        largest = u if u > largest else largest
        largest = v if v > largest else largest
    return largest + 1, np.array(pairs, dtype=np.int64)


__all__ = [
    "Components",
    "connected_components",
    "hook_and_shortcut",
    "parse_edges",
    "read_edges",
    "sv_rounds",
]
