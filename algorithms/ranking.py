"""Work-efficient list ranking by random mate: O(n) expected work, O(log n) time (EREW).

Every live node flips a coin each round (the coins are data, drawn from a seed and written
into memory before the run); a node that flips heads splices out its successor when that
successor flipped tails and is not the tail. A spliced-out node keeps, in its own registers,
its successor and its partial sum at that moment; after the rounds the few survivors are
ranked by pointer jumping, and the spliced-out nodes come back in the reverse order of their
rounds, each adding its saved partial sum to its saved successor's final one (Miller and Reif,
1985; Anderson and Miller, 1988; JáJá, "An Introduction to Parallel Algorithms", 1992,
section 3.1).

>>> import numpy as np
>>> from pram import Machine
>>> m = Machine("erew")
>>> random_mate_ranking(m, np.array([2, -1, 3, 1]), seed=1).tolist(), m.violations
([3, 0, 2, 1], [])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pram import Array, InputError, Machine, Program, Read, Step, Words, Write, hold, iota, phase
from pram import words as to_words
from pram.algorithms.acting import NIL, coins, first_true, log2_ceil, pick


def mate_rounds(n: int) -> int:
    """The random-mate rounds run for ``n`` nodes: the least R with (4/3)^R >= n.

    A node other than a list's head and tail is spliced out in a round with probability 1/4
    (its predecessor heads, itself tails), so after R rounds the expected number of such
    survivors is at most n (3/4)^R <= 1.
    """
    rounds = 0
    while 4**rounds < n * 3**rounds:
        rounds += 1
    return rounds


def random_mate_ranking(m: Machine, successors: Any, *, seed: int = 0) -> Words:
    """Each node's number of links to the tail of its list, by random mate (EREW).

    ``successors[i]`` is the node after ``i`` (``-1`` for a tail); the lists must be disjoint
    simple lists (every node has at most one predecessor). The coins come from ``seed``.
    Bounds: time ``3R + 2 ceil(log2 n) + 2R + 3`` steps with ``R = mate_rounds(n)`` (about
    ``14 log2 n``: O(log n) for every outcome of the coins, since the rounds are counted from
    n); work O(n) expected: a round charges only the live nodes, and a quarter of the inner
    ones leave in each round.

    >>> m = Machine("erew")
    >>> random_mate_ranking(m, np.array([1, 2, 3, -1])).tolist()
    [3, 2, 1, 0]
    """
    successor = to_words(successors, "successors")
    n = len(successor)
    if n == 0:
        raise InputError("successors must hold at least one node (got an empty array); "
                         "pass one successor per node, -1 for the tail")
    bad = first_true((successor < NIL) | (successor >= n))
    if bad is not None:
        raise InputError(f"successors[{bad}] = {successor[bad]} is not a node: successors "
                         f"must lie in -1..{n - 1} (-1 for a tail); fix that entry")
    nxt = m.array("random-mate/successors", values=successor)
    out = m.array("random-mate/rank", size=n)
    coin = coins(m, "random-mate/coins", mate_rounds(n) * n, seed)
    m.run(phase("random-mate", rank_randomly(m, nxt, out, n, coin)))
    return out.to_numpy()


def rank_randomly(
    m: Machine, successor: Array, out: Array, n: int, coin: Array, value: Array | None = None
) -> Program[None]:
    """``out[i] = value[i] + out[successor[i]]`` along every list (``value[i]`` at a tail).

    Without ``value``, a node's value is 1 and a tail's 0, so ``out`` is the links to the tail.
    ``successor`` is only read; ``coin`` holds ``mate_rounds(n) * n`` random bits (round r's
    coin of node i at ``r n + i``). EREW: in every step a node touches its own cells and, in
    the rounds, those of its successor, which has no other live predecessor.

    Schedule: 2 steps to load; R rounds of 3 steps (A: every live node reads its coin and
    whether it was spliced out; B: the heads read their successor's coin, successor and sum;
    C: the splicers write their new successor and sum and mark the spliced node); 1 step in
    which the last round's spliced nodes learn it; ``ceil(log2 n)`` rounds of Wyllie's pointer
    jumping (2 steps) among the survivors; R rounds of 2 steps putting the spliced nodes back,
    latest round first.
    """
    family = out.name
    pid = m.processors(n)
    own = iota(n)
    nxt = m.array(f"{family}/next", size=n)
    removed = m.array(f"{family}/removed", values=np.zeros(n, dtype=np.int64))
    rounds = mate_rounds(n)
    if value is None:
        (succ,) = yield Step(pid, reads=(Read(successor, own),))
        mine = np.where(succ == NIL, 0, 1)
    else:
        succ, mine = yield Step(pid, reads=(Read(successor, own), Read(value, own)))
    yield Step(pid, writes=(Write(nxt, own, succ), Write(out, own, mine)))
    live: Any = hold(pid, True)
    gone: Any = hold(pid, -1)  # the round in which the node was spliced out, -1 while it lives
    heads = hold(pid, 0)
    # The rounds are counted from n, not tested: under EREW (and CREW) learning whether any
    # inner node is still live is an OR of n bits, Omega(log n) steps (Cook, Dwork and
    # Reischuk, 1986), so a loop test (pram.Until) per round would make the time O(log^2 n).
    for r in range(rounds):
        # A: live nodes read their coin and whether their predecessor spliced them out
        who = pick(pid, live, pid)
        flip, cut = yield Step(who, reads=(
            Read(coin, pick(pid, live, r * n + own)), Read(removed, pick(pid, live, own))))
        heads[live] = flip
        left = hold(pid, 0)
        left[live] = cut
        spliced = live & (left == 1)
        gone = np.where(spliced, r - 1, gone)
        live = live & (left == 0)
        # B: heads with a successor read the successor's coin, successor and partial sum
        asks = live & (heads == 1) & (succ != NIL)
        at = pick(pid, asks, succ)
        theirs, beyond, far = yield Step(pick(pid, asks, pid), reads=(
            Read(coin, r * n + at), Read(nxt, at), Read(out, at)))
        their_coin, their_next, their_sum = hold(pid, 1), hold(pid, NIL), hold(pid, 0)
        their_coin[asks] = theirs
        their_next[asks] = beyond
        their_sum[asks] = far
        splice = asks & (their_coin == 0) & (their_next != NIL)
        # C: a splicer takes its successor's successor and sum, and marks it spliced out
        victim = pick(pid, splice, succ)
        mine = np.where(splice, mine + their_sum, mine)
        succ = np.where(splice, their_next, succ)
        yield Step(pick(pid, splice, pid), writes=(
            Write(nxt, pick(pid, splice, own), pick(pid, splice, succ)),
            Write(out, pick(pid, splice, own), pick(pid, splice, mine)),
            Write(removed, victim, 1)))
    if rounds:
        (cut,) = yield Step(pick(pid, live, pid), reads=(Read(removed, pick(pid, live, own)),))
        left = hold(pid, 0)
        left[live] = cut
        gone = np.where(live & (left == 1), rounds - 1, gone)
        live = live & (left == 0)
    # the survivors: Wyllie's pointer jumping, the tail's predecessor reading it alone
    # ceil(log2 n) jumps, not a loop test: an EREW test of "some survivor is linked" is an OR
    # of n bits, about 2 log2 n steps by a tree, more than the 2 log2 n steps of the jumps.
    for _ in range(log2_ceil(n)):
        linked = live & (succ != NIL)
        at = pick(pid, linked, succ)
        far, beyond = yield Step(pick(pid, linked, pid), reads=(Read(out, at), Read(nxt, at)))
        got_sum, got_next = hold(pid, 0), hold(pid, NIL)
        got_sum[linked] = far
        got_next[linked] = beyond
        mine = np.where(linked, mine + got_sum, mine)
        succ = np.where(linked, got_next, succ)
        yield Step(pick(pid, linked, pid), writes=(
            Write(out, pick(pid, linked, own), pick(pid, linked, mine)),
            Write(nxt, pick(pid, linked, own), pick(pid, linked, succ))))
    # the spliced nodes come back, the last round's first: their successor's sum is final
    for r in reversed(range(rounds)):
        back = gone == r
        (far,) = yield Step(pick(pid, back, pid), reads=(Read(out, pick(pid, back, succ)),))
        total = pick(pid, back, mine) + far
        yield Step(pick(pid, back, pid), writes=(Write(out, pick(pid, back, own), total),))
    m.free(nxt)
    m.free(removed)


def mate_time(n: int) -> int:
    """The exact time of :func:`rank_randomly` on ``n`` nodes (it depends on n alone)."""
    rounds = mate_rounds(n)
    return 2 + 3 * rounds + (1 if rounds else 0) + 2 * log2_ceil(n) + 2 * rounds


__all__ = ["mate_rounds", "mate_time", "random_mate_ranking", "rank_randomly"]
