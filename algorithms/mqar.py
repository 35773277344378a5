"""Algorithm 11: multiple-query associative recall (MQAR) over dyadic intervals, on an EREW PRAM.

The input is a token sequence ``u`` read as triples ``(k_i, v_i, q_i)``; query ``q_i`` asks for
the value of the latest earlier key equal to it (``k_j == q_i``, ``j < i``, largest ``j``), or
"no match" (-1). With ``T = N/3 = 2^L`` triples, level ``k`` and block ``p`` pair the keys of the
left half ``I(k,p)`` of an aligned dyadic block with the queries of its right half ``J(k,p)``;
for each query the left halves of its blocks tile every earlier key exactly once.

>>> from pram import Machine
>>> r = recall(Machine("erew"), [5, 50, 7, 7, 70, 5, 5, 51, 5, 9, 90, 5])
>>> r.answers.tolist(), r.indices.tolist(), r.padding
([-1, 50, 50, 51], [-1, 0, 0, 2], 0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Literal

import attrs
import numpy as np

from pram import (
    Array,
    Check,
    Cost,
    Formula,
    InputError,
    Machine,
    Program,
    Read,
    Step,
    Words,
    Write,
    check,
    iota,
    parallel,
    parallel_all,
    phase,
    words,
)
from pram.algorithms.acting import fresh_scope
from pram.algorithms.keys import Keys, WordKeys
from pram.algorithms.pbs import search_blocks
from pram.algorithms.sorting import (
    NETWORKS,
    Network,
    Records,
    Ties,
    copy_records,
    merge_blocks,
    sort_blocks,
)

Strategy = Literal["merge-tree", "per-block"]

#: The sort strategies: one merge-sort tree per side (meets the work bound), or the
#: paper-literal independent Batcher sort in every block (one log factor more work).
STRATEGIES: tuple[Strategy, ...] = ("merge-tree", "per-block")

#: Proposition H.30's bounds (word keys: d = 1; bit keys scale both by d).
WORK_BOUND = Formula("N d log2(N)^2", lambda s: s["N"] * s["d"] * math.log2(s["N"]) ** 2,
                     fixed={"d": 1})
TIME_BOUND = Formula("d log2(N)^2", lambda s: s["d"] * math.log2(s["N"]) ** 2, fixed={"d": 1})

#: The answer of a query with no earlier matching key (never a token: tokens are >= 0).
NO_MATCH = -1

#: The token written into padded cells. Padding is appended after the last whole triple, so a
#: padded key lies after every real query and is never compared with one; padded queries (index
#: ``>= N // 3``) are gated off where a match is recorded, so they never match either.
PAD_TOKEN = 0


@attrs.frozen
class Recall:
    """The answers of an MQAR run, one per query of the input, and how the input was padded.

    There is one query per whole triple: ``N // 3`` (a trailing partial triple has none, and its
    key comes after every query, so it can match nothing). ``answers[i]`` is the value of the
    latest earlier key equal to query ``i``, or -1; ``indices[i]`` is that key's triple index
    ``j`` (line 17's pi(C[r])), or -1. ``padding`` tokens were appended to the ``tokens`` given,
    so that the machine ran on ``3 * 2**levels`` tokens.
    """

    answers: Words
    tokens: int
    padding: int
    levels: int
    indices: Words

    @classmethod
    def read(cls, lay: Layout, answers: Array, indices: Array) -> Recall:
        """The host's copy of a finished run's answer arrays, one entry per real query."""
        real = iota(lay.answered)
        return cls(
            answers=answers.to_numpy()[real],
            tokens=lay.tokens,
            padding=lay.padding,
            levels=lay.levels,
            indices=indices.to_numpy()[real],
        )

    @property
    def queries(self) -> int:
        """Queries answered: ``tokens // 3``."""
        return len(self.answers)

    @property
    def padded(self) -> bool:
        """Whether tokens were appended to reach ``3 * 2**levels``."""
        return self.padding > 0

    @property
    def note(self) -> str:
        """One sentence for reports: how (and whether) the input was padded."""
        if not self.padding:
            return f"N = {self.tokens} = 3 * 2^{self.levels}: no padding"
        return (
            f"N = {self.tokens} padded with {self.padding} tokens to 3 * 2^{self.levels} = "
            f"{3 << self.levels}; padded triples never match"
        )


@attrs.frozen
class Layout:
    """The input split into its key, value and query columns, padded to ``2**levels`` triples.

    The first ``answered = N // 3`` queries come from the input; a trailing partial triple (one
    or two tokens) is completed with padding, and its missing query, like every padded query,
    is never answered. Splitting the columns is host input: it costs no steps.
    """

    keys: Words
    values: Words
    queries: Words
    answered: int
    tokens: int
    padding: int
    levels: int

    @property
    def triples(self) -> int:
        """``T = 2**levels``: the triples the machine runs on."""
        return len(self.keys)


def recall(
    m: Machine,
    tokens: Any,
    *,
    sort: Strategy = "merge-tree",
    keys: Keys | None = None,
    network: Network = "bitonic",
) -> Recall:
    """Answer every query of ``tokens`` with Algorithm 11 on ``m``; the cost is on ``m.cost``.

    ``tokens`` is the sequence ``k_0 v_0 q_0 k_1 v_1 q_1 ...`` of non-negative integers; any
    length of at least 3 is accepted (see :func:`layout` for the padding). ``sort`` picks the
    sort strategy (:data:`STRATEGIES`), ``keys`` how tokens are stored and compared, and
    ``network`` the Batcher network of every merge and sort (bitonic or odd-even). Called again
    on the same machine, it names its arrays apart (``run 2/keys``, ...).
    """
    if sort not in STRATEGIES:
        raise InputError(
            f"sort must be 'merge-tree' or 'per-block' (got {sort!r}); pick one of them"
        )
    keys = WordKeys() if keys is None else keys
    lay = layout(tokens)
    if network not in NETWORKS:
        raise InputError(
            f"network must be 'bitonic' or 'odd-even' (got {network!r}); pick one of them"
        )
    return Recall.read(lay, *m.run(program(m, keys, lay, sort=sort, network=network)))


@attrs.frozen
class Rows:
    """Each level's own rows, ``levels * T`` cells each: cell ``k * T + i`` is what level k
    found for query i: the matched key's triple index (idx_k of line 17) and its value, or -1."""

    index: Array
    value: Array


def program(
    m: Machine,
    keys: Keys,
    lay: Layout,
    *,
    sort: Strategy = "merge-tree",
    network: Network = "bitonic",
) -> Program[tuple[Array, Array]]:
    """Algorithm 11 as one EREW program on the laid-out input; returns the answers array (the
    matched values) and the indices array (the matched keys' triple indices), -1 for no match.

    Phases: "sort" (the merge-sort trees, or the per-block sorts), "search" (Algorithm 10 in
    every block of every level), "retrieve" (line 17, each level into its own row) and
    "combine" (lines 19-21).
    """
    t, levels = lay.triples, lay.levels
    ns = _scope(m)
    key_in = Records(
        keys.store(m, f"{ns}keys", lay.keys),
        m.array(f"{ns}keys.index", values=iota(t)),
        m.array(f"{ns}values", values=lay.values),
    )
    query_in = Records(
        keys.store(m, f"{ns}queries", lay.queries),
        m.array(f"{ns}queries.index", values=iota(t)),
    )
    # rows.index[k * T + i], rows.value[k * T + i]: the key index idx_k[i] and its value that
    # level k found for query i, or -1 (each level its own row)
    rows = Rows(
        m.array(f"{ns}rows.index", size=levels * t), m.array(f"{ns}rows.value", size=levels * t)
    )
    answers = m.array(f"{ns}answers", size=t)
    indices = m.array(f"{ns}indices", size=t)
    if sort == "merge-tree":
        # lines 8 and 11 for every block at once: the I-blocks of level k are the even runs of
        # level k of the key tree (latest index first among equal keys), the J-blocks the odd
        # runs of the query tree
        key_levels, query_levels = yield from phase(
            "sort",
            parallel(
                _merge_tree(m, keys, key_in, levels, f"{ns}keys", ties="descending",
                            network=network),
                _merge_tree(m, keys, query_in, levels, f"{ns}queries", ties="ascending",
                            network=network),
            ),
        )
        yield from parallel_all(
            _search_level(m, keys, key_levels[k], query_levels[k], k, lay, rows, ns)
            for k in range(levels)
        )
    else:
        # a copy of the keys and queries for every level, so the levels' sorts read apart
        key_copies, query_copies = yield from phase(
            "sort/copy",
            parallel(
                _copies(m, keys, key_in, levels, f"{ns}keys"),
                _copies(m, keys, query_in, levels, f"{ns}queries"),
            ),
        )
        yield from parallel_all(
            _block_level(m, keys, key_copies[k], query_copies[k], k, lay, rows, ns, network)
            for k in range(levels)
        )
    yield from phase("combine", _combine(m, rows, answers, indices, t, levels))
    m.free(rows.index)
    m.free(rows.value)
    return answers, indices


def _merge_tree(
    m: Machine,
    keys: Keys,
    base: Records,
    levels: int,
    name: str,
    *,
    ties: Ties,
    network: Network = "bitonic",
) -> Program[list[Records]]:
    """A bottom-up merge-sort tree over ``base``, every level kept: level k holds sorted runs of
    ``2**k`` records, each the merge of two runs of level k-1 (level 0 is ``base`` itself)."""
    tree = [base]
    t = base.index.size
    for k in range(1, levels):
        run = 1 << (k - 1)
        level = Records.allocate(m, keys, f"{name}/level {k}", t, base.payload is not None)
        yield from copy_records(m, keys, tree[-1], level)
        yield from merge_blocks(
            m, keys, level.key, level.index, level.payload, run=run, blocks=t // (2 * run),
            ties=ties, network=network,
        )
        tree.append(level)
    return tree


def _copies(
    m: Machine, keys: Keys, base: Records, levels: int, name: str
) -> Program[list[Records]]:
    """``levels`` copies of ``base`` by doubling (``base`` is the first), so that every level
    sorts its own copy and no cell is read by two levels at once."""
    copies = [base]
    while len(copies) < levels:
        more = [
            Records.allocate(m, keys, f"{name}/copy {len(copies) + c}", base.index.size,
                      base.payload is not None)
            for c in range(len(copies))
            if len(copies) + c < levels
        ]
        pairs = zip(copies, more, strict=False)
        yield from parallel_all(copy_records(m, keys, source, target) for source, target in pairs)
        copies.extend(more)
    return copies


def _scope(m: Machine) -> str:
    """The prefix of this run's array names: none for the first run on ``m``, then ``run 2/``,
    ``run 3/``, ... so that a second :func:`recall` on one machine collides with nothing."""
    return fresh_scope(m, lambda count: "" if count == 1 else f"run {count}/", "keys.index")


def _block_level(
    m: Machine,
    keys: Keys,
    key: Records,
    query: Records,
    k: int,
    lay: Layout,
    rows: Rows,
    ns: str = "",
    network: Network = "bitonic",
) -> Program[None]:
    """Level ``k`` of the per-block strategy: sort every I-block and J-block on its own
    (lines 8 and 11, a Batcher network each), then search and retrieve."""
    size, t = 1 << k, lay.triples
    if k:  # line 8 (keys of I(k,p), latest first among equal keys) and line 11 (J(k,p))
        yield from phase(
            "sort",
            parallel(
                sort_blocks(m, keys, key.key, key.index, key.payload, size=size,
                            blocks=t // (2 * size), stride=2 * size, ties="descending",
                            network=network),
                sort_blocks(m, keys, query.key, query.index, size=size,
                            blocks=t // (2 * size), start=size, stride=2 * size,
                            network=network),
            ),
        )
    yield from _search_level(m, keys, key, query, k, lay, rows, ns)


def _search_level(
    m: Machine,
    keys: Keys,
    key: Records,
    query: Records,
    k: int,
    lay: Layout,
    rows: Rows,
    ns: str = "",
) -> Program[None]:
    """Algorithm 10 in every block of level ``k``, then line 17 into row k.

    Block p searches the queries of J(k,p), the odd run ``2p+1`` of the query level, among the
    keys of I(k,p), the even run ``2p``, each sorted with its original indices; the keys carry
    their original index pi and their value as payloads, so a match learns both without a
    shared read (two queries may match one key).
    """
    size, t = 1 << k, lay.triples
    p = iota(t // (2 * size))
    # Algorithm 10 in every block p of the level: C[r], the candidate's pi(C[r]) and value, and
    # K[C[r]] == Q[r]
    assert key.payload is not None, "the keys carry their values"
    found = yield from phase(
        "search",
        search_blocks(
            m, keys, query.key, key.key, (key.index, key.payload),
            q_start=(2 * p + 1) * size, q_count=np.full(len(p), size),
            k_start=2 * p * size, k_count=np.full(len(p), size),
            name=f"{ns}pbs {k}",
        ),
    )
    index, value = found.payloads
    for array in (found.index, found.key):  # retrieve needs only the match bit and payloads
        m.free(array)
    yield from phase("retrieve", _retrieve(m, query, found.match, index, value, k, lay, rows))
    # level k's search and sorted records are done with: free them while other levels run
    # (level 0's records are the input, which stays, and names this run apart from the next)
    level_arrays = (key.key, key.index, key.payload, query.key, query.index) if k else ()
    for array in (found.match, *found.payloads, *level_arrays):
        m.free(array)


def _retrieve(
    m: Machine,
    query: Records,
    match: Array,
    index: Array,
    value: Array,
    k: int,
    lay: Layout,
    rows: Rows,
) -> Program[None]:
    """Line 17: if C[r] < 2^k and K[C[r]] == Q[r]: idx_k[sigma(r)] <- pi(C[r]), and the value
    row of level k gets the candidate's value.

    One processor per query position r of the J-blocks (the odd runs of the level) reads its
    query's original index sigma(r), the search's match bit and the candidate's two payloads,
    and writes the index and the value, or -1 and -1. So row k is defined exactly for the
    queries i with bit k set (those lying in a J-block of level k). Padded queries never match.
    """
    t, size = lay.triples, 1 << k
    c = iota(t // 2)
    r = (c // size) * 2 * size + size + c % size  # the c-th position of the odd runs
    pid = m.processors(t // 2)
    sigma, matched, pi, found = yield Step(
        pid, reads=(Read(query.index, r), Read(match, r), Read(index, r), Read(value, r))
    )
    hit = (matched == 1) & (sigma < lay.answered)
    cell = k * t + sigma
    yield Step(
        pid,
        writes=(
            Write(rows.index, cell, np.where(hit, pi, NO_MATCH)),  # line 17
            Write(rows.value, cell, np.where(hit, found, NO_MATCH)),
        ),
    )


def _combine(
    m: Machine, rows: Rows, answers: Array, indices: Array, t: int, levels: int
) -> Program[None]:
    """Lines 19-21: each query keeps the index and value of the smallest level k that matched.

    The block of a smaller level lies closer to the query, so its key is the later one: this
    is the latest match. An EREW reduction over the levels in ceil(log2 L) rounds: in the round
    of stride h, processor (i, k), k a multiple of 2h, folds row k+h into row k. Row k of query
    i is defined when a bit of i in [k, k+h) is set (it was written, or folded into); a
    processor knows that from i and k, and acts only when row k+h has something to give.
    """
    h = 1
    while h < levels:
        k = iota((levels + 2 * h - 1) // (2 * h)) * 2 * h
        k = k[k + h < levels]
        kk = np.broadcast_to(k[:, None], (len(k), t)).reshape(-1)
        ii = np.broadcast_to(iota(t)[None, :], (len(k), t)).reshape(-1)
        has_near = (ii >> kk) & ((1 << h) - 1) != 0
        has_far = (ii >> (kk + h)) & ((1 << np.minimum(h, levels - kk - h)) - 1) != 0
        kk, ii, has_near = kk[has_far], ii[has_far], has_near[has_far]
        pid = m.processors(len(kk))
        near, far = kk * t + ii, (kk + h) * t + ii
        near_index, far_index, near_value, far_value = yield Step(
            pid,
            reads=(
                Read(rows.index, near, where=has_near),
                Read(rows.index, far),
                Read(rows.value, near, where=has_near),
                Read(rows.value, far),
            ),
        )
        keep = has_near & (near_index != NO_MATCH)  # line 20: the smaller level matched
        yield Step(
            pid,
            writes=(
                Write(rows.index, near, np.where(keep, near_index, far_index)),
                Write(rows.value, near, np.where(keep, near_value, far_value)),
            ),
        )
        h *= 2
    # line 21: query i > 0 has a bit set, so row 0 holds its answer; query 0 has no earlier key
    i = iota(t)
    pid = m.processors(t)
    some = i > 0 if levels else np.zeros(t, dtype=np.bool_)
    best_index, best_value = yield Step(
        pid, reads=(Read(rows.index, i, where=some), Read(rows.value, i, where=some))
    )
    yield Step(
        pid,
        writes=(
            Write(indices, i, np.where(some, best_index, NO_MATCH)),
            Write(answers, i, np.where(some, best_value, NO_MATCH)),
        ),
    )


def random_tokens(triples: int, rng: np.random.Generator, vocabulary: int | None = None) -> Words:
    """A random MQAR input of ``triples`` triples whose keys and queries share a vocabulary of
    ``vocabulary`` tokens (default ``max(2, triples // 2)``, so that most queries match); value
    ``v_j = j``, so an answer names the key it came from."""
    v = (triples // 2 if triples >= 4 else 2) if vocabulary is None else vocabulary
    keys = rng.integers(0, v, size=triples)
    queries = rng.integers(0, v, size=triples)
    return np.stack([keys, iota(triples), queries], axis=1).reshape(-1).astype(np.int64)


#: What a sweep runs: a solver on a fresh machine and a token sequence, e.g. ``recall`` or
#: ``functools.partial(recall, sort="per-block")`` or :func:`algorithms.allpairs.recall`.
Solver = Callable[[Machine, Words], Recall]


def sweep(
    solve: Solver, triples: Sequence[int], *, seed: int = 0, model: str = "erew"
) -> list[tuple[dict[str, float], Cost]]:
    """Run ``solve`` on a random input of each size (in triples) on a fresh machine.

    Returns ``(sizes, cost)`` per size, with ``sizes = {"N": 3 * 2**L}`` (the padded length the
    machine ran on). Raises AssertionError if a run breaks the model: a sweep's figures only
    count when the program is legal.
    """
    rng = np.random.default_rng(seed)
    points: list[tuple[dict[str, float], Cost]] = []
    for t in triples:
        m = Machine(model)
        result = solve(m, random_tokens(t, rng))
        if m.violations or m.undefined_reads:
            raise AssertionError(
                f"the sweep's run at {t} triples broke the {model} model: "
                f"{len(m.violations)} violations, {len(m.undefined_reads)} undefined reads"
            )
        points.append(({"N": float(3 << result.levels)}, m.cost))
    return points


def check_bounds(
    points: Sequence[tuple[dict[str, float], Cost]],
    *,
    measure: Callable[[Cost], float] | None = None,
) -> dict[str, Check]:
    """:func:`pram.check` of a sweep's work against :data:`WORK_BOUND` and its time against
    :data:`TIME_BOUND`. ``measure`` picks another work figure (e.g. one phase's work)."""
    work = (lambda c: float(c.work)) if measure is None else measure
    return {
        "work": check("work", WORK_BOUND, [(s, work(c)) for s, c in points]),
        "time": check("time", TIME_BOUND, [(s, float(c.time)) for s, c in points]),
    }


def layout(tokens: Any) -> Layout:
    """Validate ``tokens`` and lay them out as ``2**L`` triples (host input, no steps).

    Refuses anything but a one-dimensional sequence of at least 3 non-negative integers. A
    length that is not ``3 * 2**L`` is padded at the end with :data:`PAD_TOKEN`.
    """
    u = _tokens(tokens)
    n = len(u)
    levels = (-(-n // 3) - 1).bit_length()  # the smallest L with 3 * 2^L >= N
    t = 1 << levels
    padded = np.concatenate([u, np.full(3 * t - n, PAD_TOKEN, dtype=np.int64)])
    first = 3 * iota(t)  # triple j is u[3j], u[3j+1], u[3j+2]
    return Layout(
        keys=padded[first],
        values=padded[first + 1],
        queries=padded[first + 2],
        answered=n // 3,
        tokens=n,
        padding=3 * t - n,
        levels=levels,
    )


def _tokens(tokens: Any) -> Words:
    """``tokens`` as a fresh int64 array, or an InputError that names the problem and the fix."""
    u = words(tokens, "tokens")
    if len(u) < 3:
        raise InputError(
            f"tokens must hold at least one triple (key, value, query) (got {len(u)} tokens); "
            "pass at least 3"
        )
    negative = _first(u < 0)
    if negative is not None:
        raise InputError(
            f"tokens must be non-negative (got tokens[{negative}] = {int(u[negative])}); "
            "renumber the vocabulary from 0"
        )
    return u


def _first(flags: Any) -> int | None:
    """The first position where ``flags`` holds, or None (host-side input check)."""
    for i, flag in enumerate(flags.tolist()):
        if flag:
            return i
    return None


__all__ = [
    "NO_MATCH",
    "PAD_TOKEN",
    "STRATEGIES",
    "TIME_BOUND",
    "WORK_BOUND",
    "Layout",
    "Recall",
    "Rows",
    "Solver",
    "Strategy",
    "check_bounds",
    "layout",
    "program",
    "random_tokens",
    "recall",
    "sweep",
]
