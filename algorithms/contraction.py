"""Tree contraction by rakes: evaluating an arithmetic expression tree of + and * (EREW).

The leaves are numbered from left to right by an Euler tour of the tree and a list ranking
(:mod:`pram.algorithms.ranking`). Then ``ceil(log2 L)`` rounds each rake the leaves of odd
number, first those that are left children and then the right ones: a rake removes a leaf
and its parent, and the leaf's sibling takes the parent's place. Every node carries a linear
function ``x -> a x + b`` of the value it passes up; a rake folds the leaf's value and the
parent's operator and function into the sibling's, which stays linear for + and *. Two leaves
raked in the same half-round are never close enough to touch the same node, so the rakes of
one half-round are exclusive (EREW), and every round halves the leaves. Arithmetic is int64's
modulo 2^64 (declared with :func:`pram.modular`, so a wrap is not an overflow error): the
results are exact modulo 2^64, where + and * still form a ring.

References: K. Abrahamson, N. Dadoun, D. Kirkpatrick and T. Przytycka, "A simple parallel tree
contraction algorithm", J. Algorithms 10 (1989); G. L. Miller and J. H. Reif, "Parallel tree
contraction and its application", FOCS 1985; JáJá, "An Introduction to Parallel Algorithms"
(1992), section 3.3.

>>> import numpy as np
>>> from pram import Machine
>>> m = Machine("erew")
>>> evaluate(m, *parse_expression("(2 + 3) * 4 + 1 * 5")), m.violations
(25, [])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from pram import (
    Array,
    InputError,
    Machine,
    Program,
    Read,
    Step,
    Words,
    Write,
    hold,
    iota,
    modular,
    phase,
)
from pram import words as to_words
from pram.algorithms.acting import NIL, coins, first_true, log2_ceil, pick
from pram.algorithms.ranking import mate_rounds, rank_randomly

#: The operators of internal nodes, by their code in ``op``.
PLUS, TIMES = 0, 1


def evaluate(m: Machine, left: Any, right: Any, op: Any, value: Any, *, seed: int = 0) -> int:
    """The value of the expression tree rooted at node 0, by tree contraction (EREW).

    Node v has children ``left[v]`` and ``right[v]`` (both -1 for a leaf), operator
    ``op[v]`` (0 for +, 1 for *; ignored at leaves) and, at a leaf, the integer ``value[v]``.
    Time O(log n): 4 steps to build the tour, one random-mate list ranking of 2n arcs,
    ``7 ceil(log2 L) + 3`` steps of contraction for L leaves. Work O(n) expected: a round
    charges only its odd leaves.

    >>> m = Machine("erew")
    >>> evaluate(m, *parse_expression("7"))
    7
    """
    lefts, rights, ops, values = _tree(left, right, op, value)
    n = len(lefts)
    cells = [m.array(f"expression/{name}", values=data) for name, data in (
        ("left", lefts), ("right", rights), ("op", ops), ("value", values))]
    out = m.array("expression/out", size=1)
    coin = coins(m, "expression/coins", mate_rounds(2 * n) * 2 * n, seed)
    m.run(phase("expression", contract(m, cells[0], cells[1], cells[2], cells[3], n, out, coin)))
    return int(out.to_numpy()[0])


def contract(
    m: Machine, left: Array, right: Array, op: Array, value: Array, n: int, out: Array,
    coin: Array,
) -> Program[None]:
    """Write the value of the tree rooted at node 0 to ``out[0]``; ``left`` and ``right`` are
    changed by the rakes (EREW). Phases ``tour``, ``rank``, ``contract``. The arithmetic is
    modulo 2**64 (:func:`pram.modular`), where + and * form a ring: an intermediate
    coefficient may wrap, and the value is still exact modulo 2**64."""
    return modular(_contract(m, left, right, op, value, n, out, coin))


def _contract(
    m: Machine, left: Array, right: Array, op: Array, value: Array, n: int, out: Array,
    coin: Array,
) -> Program[None]:
    family = out.name.rsplit("/", 1)[0]
    leaves = (n + 1) // 2
    parent = m.array(f"{family}/parent", values=np.full(n, NIL, dtype=np.int64))
    is_left = m.array(f"{family}/is left", values=np.zeros(n, dtype=np.int64))
    sibling = m.array(f"{family}/sibling", values=np.full(n, NIL, dtype=np.int64))
    fa = m.array(f"{family}/a", size=n)
    fb = m.array(f"{family}/b", size=n)
    tour = m.array(f"{family}/tour", size=2 * n)
    weight = m.array(f"{family}/leaf arc", size=2 * n)
    place = m.array(f"{family}/leaves after", size=2 * n)
    pid = m.processors(n)
    v = iota(n)
    # tour: down(v) is arc 2v, up(v) arc 2v + 1; the root's two arcs stand alone
    kids_l, kids_r, val = yield Step(pid, reads=(
        Read(left, v), Read(right, v), Read(value, v)), phase="tour")
    inner = kids_l != NIL
    at_l, at_r = np.where(inner, kids_l, 0), np.where(inner, kids_r, 0)
    yield Step(pid, writes=(
        Write(parent, at_l, v, where=inner), Write(parent, at_r, v, where=inner),
        Write(is_left, at_l, 1, where=inner), Write(is_left, at_r, 0, where=inner),
        Write(sibling, at_l, kids_r, where=inner),
        Write(fa, v, 1), Write(fb, v, 0),
    ), phase="tour")
    up, mine_left, sib = yield Step(pid, reads=(
        Read(parent, v), Read(is_left, v), Read(sibling, v)), phase="tour")
    root = v == 0
    down_next = np.where(inner, 2 * kids_l, 2 * v + 1)
    up_next = np.where(mine_left == 1, 2 * sib, np.where(up == 0, NIL, 2 * up + 1))
    yield Step(pid, writes=(
        Write(tour, 2 * v, np.where(root, NIL, down_next)),
        Write(tour, 2 * v + 1, np.where(root, NIL, up_next)),
        Write(weight, 2 * v, np.where(inner, 0, 1)),
        Write(weight, 2 * v + 1, 0),
    ), phase="tour")
    yield from phase("rank", rank_randomly(m, tour, place, 2 * n, coin, weight))
    leaf = ~inner
    (after,) = yield Step(pick(pid, leaf, pid), reads=(
        Read(place, pick(pid, leaf, 2 * v)),), phase="contract")
    number = hold(pid, 0)
    number[leaf] = leaves - after  # the leaf's place from the left, 0-based
    alive: Any = leaf
    for _ in range(log2_ceil(leaves)):  # halves the leaves: ceil(log2 L) rounds suffice
        odd = alive & (number % 2 == 1)
        yield from phase("contract", _rake_round(pid, v, val, odd, left, right, op, parent,
                                                 is_left, fa, fb))
        alive = alive & ~odd
        number = number // 2
    last = alive & (number == 0)
    a, b = yield Step(pick(pid, last, pid), reads=(
        Read(fa, pick(pid, last, v)), Read(fb, pick(pid, last, v))), phase="contract")
    yield Step(pick(pid, last, pid), writes=(
        Write(out, 0, a * pick(pid, last, val) + b),), phase="contract")
    for scratch in (parent, is_left, sibling, fa, fb, tour, weight, place):
        m.free(scratch)


def _rake_round(
    pid: Words, v: Words, val: Any, odd: Any, left: Array, right: Array, op: Array,
    parent: Array, is_left: Array, fa: Array, fb: Array,
) -> Program[None]:
    """Rake the odd leaves: 1 step reading their own cells, then 3 steps for the left
    children and 3 for the right ones."""
    who = pick(pid, odd, pid)
    mine = pick(pid, odd, v)
    up, lefty, a, b = yield Step(who, reads=(
        Read(parent, mine), Read(is_left, mine), Read(fa, mine), Read(fb, mine)))
    k = a * pick(pid, odd, val) + b  # the value the leaf passes up
    for side in (1, 0):
        batch = lefty == side
        rakers = who[batch]
        p = up[batch]
        op_p, a_p, b_p, grand, p_left, p_l, p_r = yield Step(rakers, reads=(
            Read(op, p), Read(fa, p), Read(fb, p), Read(parent, p), Read(is_left, p),
            Read(left, p), Read(right, p)))
        s = p_r if side == 1 else p_l
        a_s, b_s = yield Step(rakers, reads=(Read(fa, s), Read(fb, s)))
        kk = k[batch]
        plus = op_p == PLUS
        new_a = np.where(plus, a_p * a_s, a_p * kk * a_s)
        new_b = np.where(plus, a_p * (kk + b_s) + b_p, a_p * kk * b_s + b_p)
        has_grand = grand != NIL
        g = np.where(has_grand, grand, 0)
        yield Step(rakers, writes=(
            Write(fa, s, new_a), Write(fb, s, new_b), Write(parent, s, grand),
            Write(is_left, s, p_left),
            Write(left, g, s, where=has_grand & (p_left == 1)),
            Write(right, g, s, where=has_grand & (p_left == 0)),
        ))


def _tree(left: Any, right: Any, op: Any, value: Any) -> tuple[Words, Words, Words, Words]:
    """The four arrays, checked on the host before any run: a full binary tree rooted at 0."""
    lefts, rights = to_words(left, "left"), to_words(right, "right")
    ops, values = to_words(op, "op"), to_words(value, "value")
    n = len(lefts)
    if n == 0 or not len(rights) == len(ops) == len(values) == n:
        raise InputError(f"left, right, op and value must have one length n >= 1 (got "
                         f"{n}, {len(rights)}, {len(ops)} and {len(values)}); pass one entry "
                         "per node")
    bad = first_true((lefts == NIL) != (rights == NIL))
    if bad is not None:
        raise InputError(f"node {bad} has one child; every internal node needs two (left "
                         "and right), a leaf none (-1 and -1)")
    seen = [False] * n
    stack = [0]
    while stack:
        node = stack.pop()
        if seen[node]:
            raise InputError(f"node {node} is reached twice from the root; each node needs "
                             "exactly one parent")
        seen[node] = True
        for child in (int(lefts[node]), int(rights[node])):
            if child != NIL:
                if not 0 < child < n:
                    raise InputError(f"node {node} has child {child}, outside 1..{n - 1}; "
                                     "fix the child (node 0 is the root)")
                stack.append(child)
    missing = first_true(np.logical_not(seen))
    if missing is not None:
        raise InputError(f"node {missing} is not reached from the root 0; pass one tree")
    odd = first_true((lefts != NIL) & (ops != PLUS) & (ops != TIMES))
    if odd is not None:
        raise InputError(f"op[{odd}] = {ops[odd]}; an operator is 0 (+) or 1 (*)")
    return lefts, rights, ops, values


def parse_expression(text: str) -> tuple[Words, Words, Words, Words]:
    """``(left, right, op, value)`` of an expression of integers, ``+``, ``*`` and brackets,
    with the usual precedence and left association; node 0 is the root."""
    tokens = re.findall(r"\d+|[-+*()]|\S", text)
    nodes: list[list[int]] = []  # [left, right, op, value]
    position = 0

    def new(node: list[int]) -> int:
        nodes.append(node)
        return len(nodes) - 1

    def expect(what: str) -> str:
        nonlocal position
        if position >= len(tokens):
            raise InputError(f"the expression ends where {what} was expected; complete it")
        position += 1
        return str(tokens[position - 1])

    def atom() -> int:
        token = expect("a number or (")
        if token == "(":
            node = sum_()
            if expect(")") != ")":
                raise InputError(f"expected ) in {text!r}; balance the brackets")
            return node
        if not token.isdigit():
            raise InputError(f"unexpected {token!r} in {text!r}; use integers, +, * and ()")
        return new([NIL, NIL, 0, int(token)])

    def binary(operand: Callable[[], int], symbol: str, code: int) -> int:
        nonlocal position
        node = operand()
        while position < len(tokens) and tokens[position] == symbol:
            position += 1
            node = new([node, operand(), code, 0])
        return node

    def product() -> int:
        return binary(atom, "*", TIMES)

    def sum_() -> int:
        return binary(product, "+", PLUS)

    top = sum_()
    if position != len(tokens):
        raise InputError(f"unexpected {tokens[position]!r} in {text!r}; use integers, +, * and ()")
    # renumber so that the root is node 0 (the root was made last)
    order = [top] + [k for k in range(len(nodes)) if k != top]
    rename = {old: new_ for new_, old in enumerate(order)}
    table = [nodes[k] for k in order]
    left = np.array([rename.get(row[0], NIL) if row[0] != NIL else NIL for row in table])
    right = np.array([rename.get(row[1], NIL) if row[1] != NIL else NIL for row in table])
    op = np.array([row[2] for row in table])
    value = np.array([row[3] for row in table])
    return (left.astype(np.int64), right.astype(np.int64), op.astype(np.int64),
            value.astype(np.int64))


__all__ = ["PLUS", "TIMES", "contract", "evaluate", "parse_expression"]
