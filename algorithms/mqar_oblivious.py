"""An oblivious Algorithm 11: its dyadic blocks and merge-sort trees, a data-independent search.

Algorithm 11 (:mod:`algorithms.mqar`) finds each query's match in a block with Algorithm 10, a
binary search whose addresses depend on the comparisons it made. Here every address, processor
set and mask of every step depends on the sizes alone, so a run is a fixed circuit (H.7.6):

1. **sort** -- the two merge-sort trees of Algorithm 11 (keys and queries, every level kept),
   both ordered by token and then ascending triple index. Each comparator of the query tree
   also writes its exchange bit to memory, so that the tree can be undone later.
2. **search**, for every level k at once (block size ``s = 2**k``), in every block p:
   - *copy*: the keys of I(k,p) (the even run 2p of key level k) and the queries of J(k,p) (the
     odd run 2p+1 of query level k) into one record array, side by side; keys carry their
     value, queries none;
   - *merge*: a Batcher merge of the two halves (exchange bits recorded). Every key index of
     the block is below every query index, so with ties broken by index the equal tokens of a
     block end up keys first (latest key last), then queries;
   - *equal*: each record learns whether its token equals its left neighbour's (two rounds of
     comparisons, even pairs then odd pairs, so every read is exclusive);
   - *scan*: a segmented prefix scan by doubling (runs of equal tokens are the segments)
     carries the latest key's (index, value) rightwards: a query's entry is its match, or -1;
   - *unmerge*: the merge's comparators in reverse order, each exchanging what its forward
     twin exchanged, take the entries back to the order of query level k.
3. **combine** -- from the top level down: each level's entries overwrite the accumulated
   answers where they matched (a smaller level's block lies nearer, so its key is the later
   one), then the query tree's merge of that level is undone, down to the input order.

All moves of values between processors are reads and writes of memory; between steps a
processor only computes elementwise on its registers. Exact counts are the machine's. With
``T = N/3`` triples and ``L = log2 T``: the trees do what Algorithm 11's do; level k adds a
merge of ``k + 1`` comparator levels over ``T`` records, 2 rounds of comparisons, ``k + 1``
scan rounds and ``k + 1`` reverse levels; the combine undoes ``L(L-1)/2`` merge levels of the
query tree. So the work is O(N d log^2 N) and the time O(d log^2 N) with serial bit comparators.

>>> from pram import Machine
>>> m = Machine("erew")
>>> r = recall(m, [5, 50, 7, 7, 70, 5, 5, 51, 5, 9, 90, 5])
>>> r.answers.tolist(), r.indices.tolist(), len(m.violations)
([-1, 50, 50, 51], [-1, 0, 0, 2], 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from pram import (
    Array,
    Flags,
    Machine,
    Program,
    Read,
    Step,
    Values,
    Words,
    Write,
    iota,
    parallel,
    parallel_all,
    phase,
)
from pram.algorithms.keys import Keys, WordKeys
from pram.algorithms.mqar import NO_MATCH, Layout, Recall, layout
from pram.algorithms.sorting import (
    Level,
    Network,
    Records,
    bitonic_merge_levels,
    copy_records,
    odd_even_merge_levels,
)

#: The networks the merges may use.
NETWORKS: tuple[Network, ...] = ("bitonic", "odd-even")


def recall(
    m: Machine, tokens: Any, *, keys: Keys | None = None, network: Network = "bitonic"
) -> Recall:
    """Answer every query of ``tokens`` obliviously on ``m``; the cost is on ``m.cost``.

    ``tokens`` is as for :func:`algorithms.mqar.recall` (padded the same way); ``network`` is
    the Batcher merge used everywhere (``"bitonic"`` or ``"odd-even"``).
    """
    keys = WordKeys() if keys is None else keys
    lay = layout(tokens)
    return Recall.read(lay, *m.run(program(m, keys, lay, network=network)))


@attrs.frozen
class _Tree:
    """A merge-sort tree: level k holds sorted runs of ``2**k`` records; ``swaps[k]`` holds the
    exchange bits of the merge that built level k (None where not recorded, and for level 0)."""

    levels: list[Records]
    swaps: list[Array | None]


def program(
    m: Machine, keys: Keys, lay: Layout, *, network: Network = "bitonic"
) -> Program[tuple[Array, Array]]:
    """The oblivious MQAR as one EREW program; returns the answers and indices arrays
    (``T`` cells each, entry i for query i, -1 for no match; padded queries are junk)."""
    key_in, query_in = store(m, keys, lay)
    return (yield from solve(m, keys, lay, key_in, query_in, network=network))


def store(m: Machine, keys: Keys, lay: Layout) -> tuple[Records, Records]:
    """The input as records (host input, no steps): the keys with their triple indices and
    values (arrays ``keys``, ``keys.index``, ``values``), and the queries with theirs
    (``queries``, ``queries.index``)."""
    t = lay.triples
    key_in = Records(
        keys.store(m, "keys", lay.keys),
        m.array("keys.index", values=iota(t)),
        m.array("values", values=lay.values),
    )
    query_in = Records(
        keys.store(m, "queries", lay.queries), m.array("queries.index", values=iota(t))
    )
    return key_in, query_in


def solve(
    m: Machine,
    keys: Keys,
    lay: Layout,
    key_in: Records,
    query_in: Records,
    *,
    network: Network = "bitonic",
) -> Program[tuple[Array, Array]]:
    """:func:`program` on input records made by :func:`store` (so that a caller, such as a
    circuit recorder, can see the input arrays before the first step)."""
    t, levels = lay.triples, lay.levels
    key_tree, query_tree = yield from phase(
        "sort",
        parallel(
            _tree(m, keys, key_in, levels, "keys", network, record=False),
            _tree(m, keys, query_in, levels, "queries", network, record=True),
        ),
    )
    found = yield from phase(
        "search",
        parallel_all(
            _search_level(m, keys, key_tree.levels[k], query_tree.levels[k], k, t, network)
            for k in range(levels)
        ),
    )
    answers = m.array("answers", size=t)
    indices = m.array("indices", size=t)
    yield from phase(
        "combine", _combine(m, found, query_tree, indices, answers, t, levels, network)
    )
    return answers, indices


# ---- merges that remember their exchanges -----------------------------------------------------


def _merge_levels(network: Network, width: int) -> list[Level]:
    return (bitonic_merge_levels if network == "bitonic" else odd_even_merge_levels)(width)


def _comparators(network: Network, run: int, blocks: int) -> list[tuple[Words, Words, Words]]:
    """Per level of the merge of ``blocks`` blocks of ``2 * run`` records: the comparators'
    numbers within the level, and their low and high records."""
    out = []
    for level in _merge_levels(network, 2 * run):
        c = iota(blocks * level.count)
        lo, hi = level.pairs(c % level.count)
        base = (c // level.count) * 2 * run
        out.append((c, base + lo, base + hi))
    return out


def _merge(
    m: Machine,
    keys: Keys,
    records: Records,
    run: int,
    blocks: int,
    network: Network,
    swaps: Array | None,
) -> Program[None]:
    """Merge in place each block's two sorted runs of ``run`` records (by token, then ascending
    index); with ``swaps``, comparator c of level l writes its exchange bit to cell
    ``l * blocks * run + c``."""
    pool = m.processors(blocks * run)
    stride = blocks * run
    for number, (c, lo, hi) in enumerate(_comparators(network, run, blocks)):
        yield from _exchange(
            m, keys, records, lo, hi, pool[c],
            None if swaps is None else (swaps, number * stride + c),
        )


def _exchange(
    m: Machine,
    keys: Keys,
    records: Records,
    lo: Words,
    hi: Words,
    pid: Words,
    record: tuple[Array, Words] | None,
) -> Program[None]:
    """Comparators ``(lo, hi)`` order their two records by token, then ascending index, and
    move the index and payload words alongside; ``record`` is where each writes its bit."""
    index, payload = records.index, records.payload
    reads = [Read(index, lo), Read(index, hi)]
    if payload is not None:
        reads += [Read(payload, lo), Read(payload, hi)]

    def decide(less: Flags, equal: Flags, values: Values) -> tuple[Flags, Sequence[Write]]:
        index_lo, index_hi = values[0], values[1]
        swap = ~less & (~equal | (index_hi < index_lo))
        writes = [
            Write(index, lo, np.where(swap, index_hi, index_lo)),
            Write(index, hi, np.where(swap, index_lo, index_hi)),
        ]
        if payload is not None:
            payload_lo, payload_hi = values[2], values[3]
            writes += [
                Write(payload, lo, np.where(swap, payload_hi, payload_lo)),
                Write(payload, hi, np.where(swap, payload_lo, payload_hi)),
            ]
        if record is not None:
            writes.append(Write(record[0], record[1], np.where(swap, 1, 0)))
        return swap, writes

    yield from keys.compare_exchange(m, pid, records.key, lo, hi, decide, reads)


def _unmerge(
    m: Machine, words: Sequence[Array], swaps: Array, run: int, blocks: int, network: Network
) -> Program[None]:
    """Undo a recorded merge on the word arrays ``words``: its comparators in reverse order,
    each reading its bit and exchanging its two cells of every array where the bit is set."""
    pool = m.processors(blocks * run)
    stride = blocks * run
    comparators = _comparators(network, run, blocks)
    for number in reversed(range(len(comparators))):
        c, lo, hi = comparators[number]
        pid = pool[c]
        got = yield Step(
            pid,
            reads=(
                Read(swaps, number * stride + c),
                *(Read(a, cell) for a in words for cell in (lo, hi)),
            ),
        )
        swap = got[0] == 1
        writes = []
        for w, a in enumerate(words):
            low, high = got[1 + 2 * w], got[2 + 2 * w]
            writes += [
                Write(a, lo, np.where(swap, high, low)),
                Write(a, hi, np.where(swap, low, high)),
            ]
        yield Step(pid, writes=writes)


# ---- the sort phase -----------------------------------------------------------------------------


def _tree(
    m: Machine, keys: Keys, base: Records, levels: int, name: str, network: Network, *,
    record: bool,
) -> Program[_Tree]:
    """A bottom-up merge-sort tree over ``base`` with every level kept (level 0 is ``base``)."""
    tree: list[Records] = [base]
    swaps: list[Array | None] = [None]
    t = base.index.size
    for k in range(1, levels):
        run = 1 << (k - 1)
        level = Records.allocate(m, keys, f"{name}/level {k}", t, base.payload is not None)
        bits = m.array(f"{name}/level {k}.swaps", size=k * t // 2) if record else None
        yield from copy_records(m, keys, tree[-1], level)
        yield from phase("merge", _merge(m, keys, level, run, t // (2 * run), network, bits))
        tree.append(level)
        swaps.append(bits)
    return _Tree(tree, swaps)


# ---- the search phase ---------------------------------------------------------------------------


@attrs.frozen
class _Found:
    """What level k found, in the order of query level k: at the positions of the odd runs,
    the matched key's index and value (or -1); other positions hold junk."""

    index: Array
    value: Array


def _search_level(
    m: Machine, keys: Keys, key: Records, query: Records, k: int, t: int, network: Network
) -> Program[_Found]:
    """Level k in every block at once: copy, merge, equal neighbours, scan, unmerge."""
    size = 1 << k
    blocks = t // (2 * size)
    name = f"level {k}"
    block = Records.allocate(m, keys, name, t, payload=True)
    yield from phase("copy", _gather(m, keys, key, query, block, size, t))
    swaps = m.array(f"{name}.swaps", size=(k + 1) * t // 2)
    yield from phase("merge", _merge(m, keys, block, size, blocks, network, swaps))
    equal = m.array(f"{name}.equal", size=t)
    yield from phase("equal", _neighbours(m, keys, block, equal, size, t))
    found = _Found(m.array(f"{name}.found.index", size=t), m.array(f"{name}.found.value", size=t))
    yield from phase("scan", _scan(m, block, equal, found, size, t))
    yield from phase(
        "unmerge", _unmerge(m, (found.index, found.value), swaps, size, blocks, network)
    )
    return found


def _gather(
    m: Machine, keys: Keys, key: Records, query: Records, block: Records, size: int, t: int
) -> Program[None]:
    """Record x of the level's array comes from the key level if x lies in an even run of
    ``size``, else from the query level (with payload -1): same position, one processor each."""
    x = iota(t)
    even = (x // size) % 2 == 0
    ke, qo = x[even], x[~even]
    assert key.payload is not None and block.payload is not None, "keys carry their values"
    pid = m.processors(t)
    words = _gather_words(pid, x, even, key, query, block)
    yield from parallel(
        keys.copy(m, m.processors(len(ke)), key.key, ke, block.key, ke),
        keys.copy(m, m.processors(len(qo)), query.key, qo, block.key, qo),
        words,
    )


def _gather_words(
    pid: Words, x: Words, even: Flags, key: Records, query: Records, block: Records
) -> Program[None]:
    assert key.payload is not None and block.payload is not None, "keys carry their values"
    key_index, value, query_index = yield Step(
        pid,
        reads=(
            Read(key.index, x, where=even),
            Read(key.payload, x, where=even),
            Read(query.index, x, where=~even),
        ),
    )
    yield Step(
        pid,
        writes=(
            Write(block.index, x, np.where(even, key_index, query_index)),
            Write(block.payload, x, np.where(even, value, NO_MATCH)),
        ),
    )


def _neighbours(
    m: Machine, keys: Keys, block: Records, equal: Array, size: int, t: int
) -> Program[None]:
    """``equal[r]`` is 1 where token r equals token r-1 of the same block (of ``2 * size``),
    else 0: one comparison per r not first in its block, odd r first, then even r."""
    r = iota(t)
    inner = r % (2 * size) != 0
    for parity in (1, 0):
        mine = r[inner & (r % 2 == parity)]
        if len(mine) == 0:
            continue
        pid = m.processors(len(mine))
        _, same = yield from keys.compare(m, pid, block.key, mine - 1, block.key, mine)
        yield Step(pid, writes=(Write(equal, mine, np.where(same, 1, 0)),))


def _scan(
    m: Machine, block: Records, equal: Array, found: _Found, size: int, t: int
) -> Program[None]:
    """A segmented inclusive prefix scan by doubling in every block of ``2 * size`` records:
    each record ends with the (index, value) of the last key at or before it in its run of
    equal tokens, or -1. A record is a key when its index lies in the block's key half.

    Round h: every record that will be read writes its state (segment flag, index, value) to
    three scratch cells, then every record at offset ``>= h`` reads its left partner's state
    and folds it in: ``(f, x) <- (f | f', x if f or x != -1 else x')``.
    """
    assert block.payload is not None, "the level's array carries the keys' values"
    width = 2 * size
    r = iota(t)
    offset = r % width
    # block p's keys have the indices [2p size, (2p+1) size), its queries the next size ones
    key_half = r - offset + size
    pid = m.processors(t)
    index, value, same = yield Step(
        pid,
        reads=(Read(block.index, r), Read(block.payload, r), Read(equal, r, where=offset != 0)),
    )
    is_key = index < key_half
    start = np.where(offset == 0, True, same == 0)
    xi = np.where(is_key, index, NO_MATCH)
    xv = np.where(is_key, value, NO_MATCH)
    flag = m.array(f"{found.index.name}.scan.flag", size=t)
    sx = m.array(f"{found.index.name}.scan.index", size=t)
    sv = m.array(f"{found.index.name}.scan.value", size=t)
    h = 1
    while h < width:
        sends = offset + h < width
        gets = offset >= h
        yield Step(
            pid,
            writes=(
                Write(flag, r, np.where(start, 1, 0), where=sends),
                Write(sx, r, xi, where=sends),
                Write(sv, r, xv, where=sends),
            ),
        )
        f_left, xi_left, xv_left = yield Step(
            pid,
            reads=(
                Read(flag, r - h, where=gets),
                Read(sx, r - h, where=gets),
                Read(sv, r - h, where=gets),
            ),
        )
        take = gets & ~start & (xi == NO_MATCH)
        xi = np.where(take, xi_left, xi)
        xv = np.where(take, xv_left, xv)
        start = np.where(gets, start | (f_left == 1), start)
        h *= 2
    yield Step(pid, writes=(Write(found.index, r, xi), Write(found.value, r, xv)))


# ---- the combine phase --------------------------------------------------------------------------


def _combine(
    m: Machine,
    found: list[_Found],
    query_tree: _Tree,
    indices: Array,
    answers: Array,
    t: int,
    levels: int,
    network: Network,
) -> Program[None]:
    """From the top level down: level k's entries (odd runs of query level k) overwrite the
    accumulated ones where they matched, then query level k's merge is undone, so that after
    level 0 entry i is query i's answer. Query 0 is in no odd run: it stays -1."""
    x = iota(t)
    pid = m.processors(t)
    yield Step(pid, writes=(Write(indices, x, NO_MATCH), Write(answers, x, NO_MATCH)))
    for k in reversed(range(levels)):
        size = 1 << k
        odd = x[(x // size) % 2 == 1]
        here = pid[: len(odd)]
        got_index, got_value, old_index, old_value = yield Step(
            here,
            reads=(
                Read(found[k].index, odd),
                Read(found[k].value, odd),
                Read(indices, odd),
                Read(answers, odd),
            ),
        )
        hit = got_index != NO_MATCH
        yield Step(
            here,
            writes=(
                Write(indices, odd, np.where(hit, got_index, old_index)),
                Write(answers, odd, np.where(hit, got_value, old_value)),
            ),
        )
        swaps = query_tree.swaps[k]
        if k > 0:
            assert swaps is not None, "the query tree records its exchanges"
            yield from _unmerge(m, (indices, answers), swaps, size // 2, t // size, network)


__all__ = ["NETWORKS", "program", "recall", "solve", "store"]
