"""Batcher's sorting networks and merges on an EREW PRAM, vectorised over comparators and blocks.

A record is ``(key token, index, payload)``: the key lives in a token array and is compared and
moved only through the :class:`~algorithms.keys.Keys` seam; the index and the optional payload
are plain word arrays moved alongside. Records are ordered by key, and among equal keys by index,
ascending or descending as the caller chooses (``ties``), so every result is deterministic.

The public programs (generators to hand to :meth:`pram.Machine.run`, or to compose):

- :func:`sort_blocks` sorts in place ``blocks`` blocks of ``size`` records (a power of two),
  block ``b`` starting at record ``start + b * stride``, with the ``"bitonic"`` or ``"odd-even"``
  (merge sort) network.
- :func:`merge_blocks` merges in place, in each of ``blocks`` blocks of ``2 * run`` records, its
  two sorted halves of ``run`` records (the last stage of either network). Algorithm 11's
  merge-sort tree calls it once per level for all pairs of runs of that level.
- :func:`copy_records` copies every record of one set of arrays to another (to keep a level).
- :func:`compare_exchange` is the one comparator every network uses.

And on the host: :func:`sort` pads any number of integers to a power of two, runs the network
on a machine and returns a :class:`SortResult`; given the ``levels`` of a network for any n
(:func:`pram.algorithms.comparator_networks.levels`: merge exchange, the best known), it sorts
the records as they are, without padding, with :func:`sort_network`.

Sizes of the networks on n = 2^k records (Batcher, 1968), which the tests check exactly against
the machine's ledger: both sorts have k(k+1)/2 levels; bitonic sort has n/2 * k(k+1)/2
comparators, odd-even merge sort (k^2 - k + 4) 2^(k-2) - 1. Merging two runs of 2^(k-1) takes
k levels: k 2^(k-1) comparators bitonic, (k-1) 2^(k-1) + 1 odd-even.

Every level of a network is one call of the comparator for all its comparators in all blocks;
with :class:`~algorithms.keys.WordKeys` that is two steps (read both records, write both back)
by one processor per comparator, so a run takes ``2 * levels`` steps and ``2 * comparators``
work. Comparators always write both records back (data-independent work). Both networks are
written in their all-ascending form (bitonic with a "flip" first level per stage), so no
comparator needs a direction.

>>> from pram import Machine
>>> m = Machine("erew")
>>> result = sort(m, [3, 1, 2, 1])
>>> result.keys.tolist(), result.permutation.tolist(), m.cost.time, len(m.violations)
([1, 1, 2, 3], [1, 3, 2, 0], 6, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import attrs
import numpy as np

from pram import (
    Array,
    Flags,
    InputError,
    Machine,
    Program,
    Read,
    Step,
    Values,
    Words,
    Write,
    iota,
    parallel,
    phase,
    words,
)
from pram.algorithms.keys import Keys, WordKeys

Network = Literal["bitonic", "odd-even"]
Ties = Literal["ascending", "descending"]

#: The networks :func:`sort_blocks` and :func:`merge_blocks` know.
NETWORKS: tuple[Network, ...] = ("bitonic", "odd-even")
#: The tie rules: among equal keys, ascending or descending index.
TIES: tuple[Ties, ...] = ("ascending", "descending")


@attrs.frozen
class Records:
    """Where a sequence of records lives: a token array and word arrays of the same length."""

    key: Array
    index: Array
    payload: Array | None = None

    @staticmethod
    def allocate(m: Machine, keys: Keys, name: str, n: int, payload: bool) -> Records:
        """``n`` undefined records on ``m``: keys ``name``, ``name.index`` and, with
        ``payload``, ``name.payload``."""
        return Records(
            keys.allocate(m, name, n),
            m.array(f"{name}.index", size=n),
            m.array(f"{name}.payload", size=n) if payload else None,
        )


@attrs.frozen
class Level:
    """One level of a network inside one block: ``count`` comparators, and the record offsets
    ``pairs(r) = (lo, hi)`` of comparator ``r`` (an array of them), ``lo < hi``."""

    count: int
    pairs: Callable[[Words], tuple[Words, Words]]


@attrs.frozen
class SortResult:
    """What :func:`sort` returns: the sorted keys, where each came from, and the padding used."""

    #: The keys in sorted order.
    keys: Words
    #: ``permutation[r]`` is the original position of the r-th smallest record.
    permutation: Words
    #: Records added to reach a power of two (they sort after every real record).
    padding: int
    #: The padded size the network sorted.
    size: int


# ---- the comparator ------------------------------------------------------------------------


def compare_exchange(
    m: Machine,
    keys: Keys,
    records: Records,
    lo: Words,
    hi: Words,
    *,
    ties: Ties = "ascending",
    pid: Words | None = None,
) -> Program[None]:
    """Comparators ``(lo[c], hi[c])`` leave the earlier record at ``lo[c]``, the later at ``hi[c]``.

    Records compare by key through the seam, then by index under ``ties``. One processor per
    comparator (``pid``, or fresh ones) reads the two indices and payloads while the keys are
    compared, and writes them back while the keys are written back. The pairs must be disjoint.
    """
    if pid is None:
        pid = m.processors(len(lo))
    index, payload = records.index, records.payload
    reads = [Read(index, lo), Read(index, hi)]
    if payload is not None:
        reads += [Read(payload, lo), Read(payload, hi)]
    descending = ties == "descending"

    def decide(less: Flags, equal: Flags, values: Values) -> tuple[Flags, Sequence[Write]]:
        index_lo, index_hi = values[0], values[1]
        # the hi record comes first if its key is smaller, or equal with an index that wins the tie
        hi_first = index_hi > index_lo if descending else index_hi < index_lo
        swap = ~less & (~equal | hi_first)
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
        return swap, writes

    yield from keys.compare_exchange(m, pid, records.key, lo, hi, decide, reads)


# ---- the networks, level by level -----------------------------------------------------------


def bitonic_merge_levels(width: int) -> list[Level]:
    """Bitonic merge of two sorted halves of a block of ``width`` records: log2(width) levels.

    The first level compares mirror positions (the "flip"), which turns two ascending runs into
    a bitonic sequence split at the middle; then half-cleaners at distances width/4, ..., 1.
    """
    if width < 2:
        return []
    half = width // 2

    def flip(r: Words) -> tuple[Words, Words]:
        return r, width - 1 - r

    levels = [Level(half, flip)]
    distance = half // 2
    while distance >= 1:
        levels.append(Level(half, _half_cleaner(distance)))
        distance //= 2
    return levels


def odd_even_merge_levels(width: int) -> list[Level]:
    """Batcher's odd-even merge of two sorted halves of a block of ``width`` records.

    Level one compares ``i`` with ``i + width/2``; then, at each distance ``k = width/4, ..., 1``,
    the ``width/2 - k`` comparators ``(x, x + k)`` with ``x // k`` odd and ``x + k < width``.
    """
    if width < 2:
        return []
    half = width // 2
    levels = [Level(half, _half_cleaner(half))]
    k = half // 2
    while k >= 1:
        levels.append(Level(half - k, _odd_groups(k)))
        k //= 2
    return levels


def _half_cleaner(distance: int) -> Callable[[Words], tuple[Words, Words]]:
    """Comparators ``(x, x + distance)`` for every ``x`` with ``x // distance`` even."""

    def pairs(r: Words) -> tuple[Words, Words]:
        lo = (r // distance) * (2 * distance) + r % distance
        return lo, lo + distance

    return pairs


def _odd_groups(k: int) -> Callable[[Words], tuple[Words, Words]]:
    """Comparators ``(x, x + k)`` for every ``x`` with ``x // k`` odd and ``x + k`` inside the
    block: the odd groups of ``k`` offsets but the last, ``p - k`` comparators in a block of
    ``2 p`` records (the level's ``count``)."""

    def pairs(r: Words) -> tuple[Words, Words]:
        lo = k + (r // k) * (2 * k) + r % k
        return lo, lo + k

    return pairs


def sort_levels(network: Network, size: int) -> list[Level]:
    """All levels of ``network`` sorting a block of ``size`` records: one merge stage per width
    2, 4, ..., size, each merging every adjacent pair of sorted runs of the block."""
    merge = bitonic_merge_levels if network == "bitonic" else odd_even_merge_levels
    levels: list[Level] = []
    width = 2
    while width <= size:
        levels.extend(_spread(level, width, size // width) for level in merge(width))
        width *= 2
    return levels


def _spread(level: Level, width: int, copies: int) -> Level:
    """``level`` of a block of ``width`` records, repeated over ``copies`` adjacent blocks."""
    count, inner = level.count, level.pairs

    def pairs(r: Words) -> tuple[Words, Words]:
        lo, hi = inner(r % count)
        base = (r // count) * width
        return base + lo, base + hi

    return Level(count * copies, pairs)


def _run_levels(
    m: Machine,
    keys: Keys,
    records: Records,
    levels: list[Level],
    *,
    size: int,
    blocks: int,
    start: int,
    stride: int,
    ties: Ties,
) -> Program[None]:
    """Every level as one comparator call over all blocks; one processor pool for all levels."""
    pool = m.processors(blocks * (size // 2))
    for level in levels:
        c = iota(blocks * level.count)
        lo, hi = level.pairs(c % level.count)
        base = start + (c // level.count) * stride
        # the first len(c) processors of the pool (pool[c], as a view of the ids handed out:
        # immutable, so the machine neither copies nor checks them at each step)
        yield from compare_exchange(
            m, keys, records, base + lo, base + hi, ties=ties, pid=pool[: len(c)]
        )


# ---- the public programs --------------------------------------------------------------------


def sort_blocks(
    m: Machine,
    keys: Keys,
    key: Array,
    index: Array,
    payload: Array | None = None,
    *,
    size: int,
    blocks: int = 1,
    network: Network = "bitonic",
    ties: Ties = "ascending",
    start: int = 0,
    stride: int | None = None,
) -> Program[None]:
    """Sort in place each of ``blocks`` blocks of ``size`` records (a power of two) at once.

    Block ``b`` holds records ``start + b * stride`` onwards (``stride`` defaults to ``size``).
    Bitonic and odd-even merge sort both take log2(size) (log2(size) + 1) / 2 levels; bitonic
    has size/2 comparators per level, odd-even merge sort fewer. Steps are labelled "sort".
    """
    records = Records(key, index, payload)
    _check_choice("network", network, NETWORKS)
    _check_choice("ties", ties, TIES)
    stride = _check_blocks(keys, records, "size", size, blocks, start, stride)
    levels = sort_levels(network, size)
    return phase(
        "sort",
        _run_levels(
            m, keys, records, levels, size=size, blocks=blocks, start=start, stride=stride,
            ties=ties,
        ),
    )


def merge_blocks(
    m: Machine,
    keys: Keys,
    key: Array,
    index: Array,
    payload: Array | None = None,
    *,
    run: int,
    blocks: int = 1,
    network: Network = "bitonic",
    ties: Ties = "ascending",
    start: int = 0,
    stride: int | None = None,
) -> Program[None]:
    """Merge in place, in each of ``blocks`` blocks of ``2 * run`` records, its two sorted runs.

    ``run`` is a power of two; both halves must already be sorted under ``ties``. Block ``b``
    starts at record ``start + b * stride`` (``stride`` defaults to ``2 * run``). The merge
    takes log2(2 run) levels: ``run`` comparators each for bitonic, ``run`` then ``run - k`` at
    distance ``k`` for odd-even. Steps are labelled "merge".
    """
    records = Records(key, index, payload)
    _check_choice("network", network, NETWORKS)
    _check_choice("ties", ties, TIES)
    if not _is_power_of_two(run):
        raise InputError(
            f"run must be a power of two (got {run!r}); pad the runs to a power of two"
        )
    stride = _check_blocks(keys, records, "2 * run", 2 * run, blocks, start, stride)
    merge = bitonic_merge_levels if network == "bitonic" else odd_even_merge_levels
    return phase(
        "merge",
        _run_levels(
            m, keys, records, merge(2 * run), size=2 * run, blocks=blocks, start=start,
            stride=stride, ties=ties,
        ),
    )


def sort_network(
    m: Machine,
    keys: Keys,
    key: Array,
    index: Array,
    levels: list[Level],
    *,
    ties: Ties = "ascending",
) -> Program[None]:
    """Sort in place the records of ``key`` and ``index`` with the network ``levels`` (any
    number of records: the levels' comparators address records ``0 .. n-1`` directly, as
    :func:`pram.algorithms.comparator_networks.levels` makes them). Steps are labelled
    "sort"; one processor per comparator of the widest level."""
    records = Records(key, index)
    _check_choice("ties", ties, TIES)
    n = _record_count(keys, records, "the")
    return phase(
        "sort",
        _run_levels(m, keys, records, levels, size=n, blocks=1, start=0, stride=n, ties=ties),
    )


def copy_records(m: Machine, keys: Keys, source: Records, target: Records) -> Program[None]:
    """Copy every record of ``source`` to the same position of ``target``, all at once.

    One processor per record moves the key through the seam, and in the same steps another
    moves the index and payload words (with word keys: two steps, work four per record).
    Steps are labelled "copy".
    """
    n = _record_count(keys, source, "source")
    if _record_count(keys, target, "target") != n:
        raise InputError(
            f"target holds {_record_count(keys, target, 'target')} records but source holds "
            f"{n}; allocate the target with as many records as the source"
        )
    if (source.payload is None) != (target.payload is None):
        raise InputError(
            "source and target must both have a payload or both have none "
            f"(got source payload {source.payload!r} and target payload {target.payload!r})"
        )
    return phase("copy", _copy(m, keys, source, target, n))


def _copy(m: Machine, keys: Keys, source: Records, target: Records, n: int) -> Program[None]:
    cell = iota(n)
    words = [(source.index, target.index)]
    if source.payload is not None and target.payload is not None:
        words.append((source.payload, target.payload))
    yield from parallel(
        keys.copy(m, m.processors(n), source.key, cell, target.key, cell),
        _copy_words(m.processors(n), cell, words),
    )


def _copy_words(pid: Words, cell: Words, pairs: list[tuple[Array, Array]]) -> Program[None]:
    """Processors ``pid`` copy cell ``cell`` of each source word array to its target."""
    values = yield Step(pid, reads=[Read(a, cell) for a, _ in pairs])
    yield Step(pid, writes=[Write(b, cell, v) for (_, b), v in zip(pairs, values, strict=True)])


# ---- the host function ----------------------------------------------------------------------


def sort(
    m: Machine,
    values: Any,
    *,
    network: Network = "bitonic",
    keys: Keys | None = None,
    ties: Ties = "ascending",
    name: str = "sort",
    levels: Callable[[int], list[Level]] | None = None,
) -> SortResult:
    """Sort any number (at least one) of integer ``values`` on ``m`` with a Batcher network.

    The values become records ``(value, position)``; they are padded to a power of two with
    records holding the largest token and indices that lose every tie (``n, n+1, ...`` for
    ascending ties, ``-1, -2, ...`` for descending), so padding sorts after every real record
    even when a real key is the largest token. Arrays are named ``name/key`` and ``name/index``.

    ``levels``, when given, is a network for any number of records (``levels(n)`` its levels
    on n records, as :func:`pram.algorithms.comparator_networks.levels` makes them): the n
    records are sorted by it as they are, without padding, and ``network`` is not used.
    """
    keys = WordKeys() if keys is None else keys
    if levels is None:
        _check_choice("network", network, NETWORKS)
    _check_choice("ties", ties, TIES)
    tokens = _integers(values)
    n = len(tokens)
    size = 1 << (n - 1).bit_length() if levels is None else n
    padding = size - n
    filler = np.full(padding, keys.largest, dtype=np.int64)
    spare = n + iota(padding) if ties == "ascending" else -1 - iota(padding)
    key = keys.store(m, f"{name}/key", np.concatenate([tokens, filler]))
    index = m.array(f"{name}/index", values=np.concatenate([iota(n), spare]))
    if levels is None:
        m.run(sort_blocks(m, keys, key, index, size=size, network=network, ties=ties))
    else:
        m.run(sort_network(m, keys, key, index, levels(n), ties=ties))
    real = iota(n)
    return SortResult(keys.load(key)[real], index.to_numpy()[real], padding, size)


# ---- checks at the boundary -----------------------------------------------------------------


def _integers(values: Any) -> Words:
    array = words(values, "values")
    if len(array) == 0:
        raise InputError("values must hold at least one key (got an empty array)")
    return array


def _check_choice(what: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        options = " or ".join(repr(c) for c in choices)
        raise InputError(f"{what} must be {options} (got {value!r})")


def _is_power_of_two(x: object) -> bool:
    if isinstance(x, bool) or not isinstance(x, int | np.integer):
        return False
    return int(x) >= 1 and (int(x) & (int(x) - 1)) == 0


def _record_count(keys: Keys, records: Records, what: str) -> int:
    """Records held, after checking that the key, index and payload arrays agree."""
    if records.key.size % keys.width:
        raise InputError(
            f"{what} key array {records.key.name!r} has {records.key.size} cells, not a "
            f"multiple of {keys.width} cells per token; allocate it with keys.allocate"
        )
    n = records.key.size // keys.width
    for array in (records.index, records.payload):
        if array is not None and array.size != n:
            raise InputError(
                f"{what} key array {records.key.name!r} holds {n} tokens but "
                f"{array.name!r} holds {array.size} cells; give every record one key, "
                "one index and one payload"
            )
    return n


def _check_blocks(
    keys: Keys,
    records: Records,
    what: str,
    size: int,
    blocks: int,
    start: int,
    stride: int | None,
) -> int:
    """Validate a block layout and return its stride."""
    if not _is_power_of_two(size):
        raise InputError(
            f"{what} must be a power of two (got {size!r}); pad the blocks to a power of two "
            "or sort on the host with sort()"
        )
    if isinstance(blocks, bool) or not isinstance(blocks, int | np.integer) or blocks < 0:
        raise InputError(f"blocks must be a non-negative integer (got {blocks!r})")
    if isinstance(start, bool) or not isinstance(start, int | np.integer) or start < 0:
        raise InputError(f"start must be a non-negative integer (got {start!r})")
    stride = size if stride is None else stride
    if isinstance(stride, bool) or not isinstance(stride, int | np.integer) or stride < size:
        raise InputError(
            f"stride must be an integer of at least {what} = {size} so blocks do not overlap "
            f"(got {stride!r})"
        )
    n = _record_count(keys, records, "the")
    end = start + (blocks - 1) * stride + size if blocks else 0
    if end > n:
        raise InputError(
            f"{blocks} blocks of {size} records from record {start} with stride {stride} "
            f"need {end} records but the arrays hold {n}; allocate more or pass fewer blocks"
        )
    return int(stride)


__all__ = [
    "NETWORKS",
    "TIES",
    "Level",
    "Network",
    "Records",
    "SortResult",
    "Ties",
    "bitonic_merge_levels",
    "compare_exchange",
    "copy_records",
    "merge_blocks",
    "odd_even_merge_levels",
    "sort",
    "sort_blocks",
    "sort_levels",
    "sort_network",
]
