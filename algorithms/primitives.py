"""EREW primitives: broadcast by doubling and prefix sums, over many blocks at once.

Both run every block of a level in the same steps (one :class:`pram.Step` with a processor per
block and position), so a caller pays Python cost per step, never per block. Their exact
counts, derived by hand in the docstrings, are checked by the tests.

>>> import numpy as np
>>> from pram import Machine
>>> m = Machine("erew")
>>> a = m.array("a", values=np.array([7, 0, 0, 0, 0]))
>>> m.run(broadcast(m, a, 5)); a.to_numpy().tolist(), m.cost.time
([7, 7, 7, 7, 7], 4)
>>> s = m.array("s", values=np.array([1, 2, 3, 4]))
>>> m.run(prefix_sums(m, s, 4)); s.to_numpy().tolist()
[1, 3, 6, 10]
"""

from __future__ import annotations

import numpy as np

from pram import Array, Flags, InputError, Machine, Program, Read, Step, Words, Write, hold, words


def _size(value: int, what: str) -> int:
    """``value`` as a non-negative int, or an InputError naming it."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise InputError(f"{what} must be a non-negative integer (got {value!r})")
    return int(value)


def _starts(starts: Words | list[int]) -> Words:
    """Block starts as an int64 array; a block outside the array is refused by the machine
    (an AddressError naming the step, the cell and the processor) at its first access."""
    return words(starts, "starts")


def _log2_ceil(n: int) -> int:
    """The number of doublings that take 1 to at least ``n`` (0 for n <= 1)."""
    rounds, reach = 0, 1
    while reach < n:
        reach *= 2
        rounds += 1
    return rounds


def broadcast(m: Machine, array: Array, size: int, *, start: int = 0) -> Program[None]:
    """Copy ``array[start]`` into ``array[start + 1 .. start + size - 1]`` by doubling (EREW).

    The time is ``ceil(log2 size) + 1`` steps for ``size >= 2`` (0 steps for ``size <= 1``):
    ``ceil(log2 size)`` doublings, pipelined, plus the first read, because a value must be read
    in one step before it can be written in a later one (engine.md). No schedule does better
    under that rule, since the cells holding the value can at most double per step after the
    first. See :func:`broadcast_blocks` for the exact work.
    """
    size = _size(size, "size")
    return broadcast_blocks(m, array, np.array([start], dtype=np.int64), size)


def broadcast_blocks(
    m: Machine, array: Array, starts: Words | list[int], size: int, lengths: Words | None = None
) -> Program[None]:
    """In every block ``b``, copy ``array[starts[b]]`` to the block's other cells (EREW).

    Blocks are ``[starts[b], starts[b] + lengths[b])`` (``lengths`` defaults to ``size`` for
    all and is cut to ``[0, size]``) and must not overlap. All blocks run in the same steps.

    Schedule, per block, with processor ``k`` in charge of offset ``k``: in step 1 processor 0
    reads offset 0; in step ``t >= 2``, with ``h = 2^(t-2)``, every processor ``k < h`` that
    knows the value writes offset ``k + h``, and every processor ``h <= k < 2h`` that will
    write in a later step (``k + 2h < length``) reads offset ``k - h``. After step ``t`` the
    offsets ``[0, 2^(t-1))`` hold the value. Exact counts for one block of length L >= 2:
    time ``ceil(log2 L) + 1``; writes ``L - 1``; reads ``#{k >= 0 : k + 2^bitlen(k) < L}``
    (bitlen(0) = 0); work = reads + writes. For L = 8: 4 steps, 7 writes, 4 reads, work 11.
    """
    size = _size(size, "size")
    first = _starts(starts)
    length = _lengths(lengths, first, size)
    return _broadcast(m, array, first, size, length)


def _broadcast(m: Machine, array: Array, first: Words, size: int, length: Words) -> Program[None]:
    rounds = _log2_ceil(size)
    if rounds == 0:
        return
    blocks = len(first)
    pid = m.processors(blocks * size).reshape(blocks, size)
    value = hold(pid, array.dtype.type(0))  # each one's register, 0 until it learns the value
    # step 1: processor 0 of each block (of length >= 2) reads the value
    lead = length >= 2
    (got,) = yield Step(pid[:, 0][lead], reads=(Read(array, first[lead]),))
    value[lead, 0] = got
    h = 1
    for t in range(2, rounds + 2):
        k = np.arange(2 * h if 2 * h < size else size, dtype=np.int64)
        limit = length[:, None]
        writes = (k < h) & (k + h < limit)
        reads = (k >= h) & (k + 2 * h < limit) & (t < rounds + 1)
        acts = writes | reads
        cell = first[:, None] + k
        (got,) = yield Step(
            pid[:, : len(k)][acts],
            reads=(Read(array, (cell - h)[acts], where=reads[acts]),),
            writes=(Write(array, (cell + h)[acts], value[:, : len(k)][acts], where=writes[acts]),),
        )
        learns = np.zeros((blocks, size), dtype=np.bool_)
        learns[:, : len(k)] = reads & acts
        value[learns] = got[reads[acts]]  # the readers' registers learn the value
        h *= 2


def prefix_sums(
    m: Machine, array: Array, size: int, *, start: int = 0, inclusive: bool = True
) -> Program[None]:
    """Replace ``array[start : start + size]`` by its prefix sums, in place (EREW).

    Brent and Kung's scheme: an up-sweep builds the sums of aligned blocks of 2, 4, 8, ...
    cells at their last cell, a down-sweep completes the prefixes in between. Work O(size),
    time O(log size); the exact counts are in :func:`prefix_sums_blocks`. With
    ``inclusive=False`` the result is the exclusive prefix sums (0 first).
    """
    size = _size(size, "size")
    return prefix_sums_blocks(
        m, array, np.array([start], dtype=np.int64), size, inclusive=inclusive
    )


def prefix_sums_blocks(
    m: Machine,
    array: Array,
    starts: Words | list[int],
    size: int,
    lengths: Words | None = None,
    *,
    inclusive: bool = True,
) -> Program[None]:
    """Prefix sums of every block ``array[starts[b] : starts[b] + lengths[b]]``, all at once.

    ``lengths`` defaults to ``size`` for every block and is cut to ``[0, size]``; a shorter
    block gets exactly the prefix sums of its own cells (segmented prefix sums), in the steps
    of a block of ``size``. Blocks must not overlap. EREW.

    Each combine is two steps: one processor reads two cells, then writes their sum. Exact
    counts for one block of n cells, with K = floor(log2 n) up-sweep levels and
    D = #{d >= 0 : 3 * 2^d <= n} down-sweep levels: time ``2 (K + D)``; combines
    ``c = sum_{d < K} floor(n / 2^(d+1)) + sum_{d < D} floor((n - 2^d) / 2^(d+1))``, which
    is ``2n - log2(n) - 2`` for n a power of two; reads ``2c``, writes ``c``, work ``2c``.
    ``inclusive=False`` adds a shift: 2 more steps and ``2n - 1`` more work (1 step and 1
    work for n = 1). For n = 8: 10 steps, c = 11, work 22.
    """
    size = _size(size, "size")
    first = _starts(starts)
    return _prefix_sums(m, array, first, size, _lengths(lengths, first, size), inclusive)


def _lengths(lengths: Words | None, first: Words, size: int) -> Words:
    """One length per block, cut to ``[0, size]`` (``size`` for all when not given)."""
    if lengths is None:
        return np.full(len(first), size, dtype=np.int64)
    length = words(lengths, "lengths")
    if len(length) != len(first):
        raise InputError(
            f"lengths must hold one length per block (got {len(length)} lengths for "
            f"{len(first)} blocks); pass {len(first)} lengths"
        )
    # A length outside [0, size] is cut to it: a block never reaches past its size.
    return np.clip(length, 0, size)


def _prefix_sums(
    m: Machine, array: Array, first: Words, size: int, length: Words, inclusive: bool
) -> Program[None]:
    blocks = len(first)
    pool = m.processors(blocks * (size // 2 if size >= 2 else 1)).reshape(blocks, -1)
    limit = length[:, None]
    # up-sweep: at level d, node i adds the sum ending at its left half into its last cell
    half = 1
    while 2 * half <= size:
        span = 2 * half
        right = np.arange(size // span, dtype=np.int64) * span + span - 1  # offsets in a block
        acts = right < limit
        cell = _where(first[:, None] + right, acts)
        yield from _combine(_where(pool[:, : len(right)], acts), array, cell - half, cell)
        half = span
    # down-sweep: at level d, the complete prefix at j = (i+1) 2^(d+1) - 1 finishes j + 2^d
    while half >= 1:
        span = 2 * half
        count = (size - half) // span if size >= half else 0
        if count > 0 and 3 * half <= size:
            done = (np.arange(count, dtype=np.int64) + 1) * span - 1
            acts = done + half < limit
            cell = _where(first[:, None] + done, acts)
            yield from _combine(_where(pool[:, :count], acts), array, cell, cell + half)
        half //= 2
    if not inclusive:
        yield from _shift(m, array, first, size, limit)


def _where(rows: Words, acts: Flags) -> Words:
    """The entries of ``rows`` where ``acts`` holds, row after row: ``rows[acts]``; or, for
    one row whose every entry acts, the row itself (a view: the ids of a pool stay in the
    immutable memory :meth:`pram.Machine.processors` handed them out in, which the machine
    then need not copy). ``acts`` holds on a prefix of each row (cells that ascend, below a
    limit), so its last entry tells whether all do."""
    picked: Words = rows[0] if len(rows) == 1 and acts[0, -1] else rows[acts]
    return picked


def _combine(pid: Words, array: Array, source: Words, target: Words) -> Program[None]:
    """``array[target] += array[source]``, one processor each: read both, then write."""
    a, b = yield Step(pid, reads=(Read(array, source), Read(array, target)))
    yield Step(pid, writes=(Write(array, target, a + b),))


def _shift(m: Machine, array: Array, first: Words, size: int, limit: Words) -> Program[None]:
    """Turn inclusive prefix sums into exclusive ones: move each right by one, 0 first."""
    blocks = len(first)
    pid = m.processors(blocks * size).reshape(blocks, size)
    k = np.arange(size, dtype=np.int64)
    cell = first[:, None] + k
    value = hold(pid, array.dtype.type(0))  # the array's dtype: reals stay reals
    moves = k + 1 < limit  # processor k of the block moves its cell one to the right
    if size >= 2:
        (got,) = yield Step(pid[moves], reads=(Read(array, cell[moves]),))
        value[moves] = got
    # processor k writes its value one cell right; the block's last one writes the leading 0
    acts = k < limit
    target = np.where(moves, cell + 1, first[:, None])
    yield Step(pid[acts], writes=(Write(array, target[acts], value[acts]),))


def segmented_scan(
    m: Machine, values: Array, flags: Array, size: int, *, start: int = 0
) -> Program[None]:
    """Segmented inclusive prefix sums of ``values[start : start + size]``, in place (EREW):
    a flag 1 in ``flags`` (same cells) starts a segment, and each cell gets the sum of its
    segment up to itself. ``flags`` ends holding each cell's OR of the flags up to it.

    Hillis and Steele's doubling on pairs (flag, value) with Schwartz's segmented operator
    ``(f1, v1) + (f2, v2) = (f1 | f2, v2 if f2 else v1 + v2)``, which is associative, so the
    scan is a scan of it (Blelloch, "Prefix sums and their applications", 1990). Where the
    segments lie is data (the flags), yet every processor acts in every round: the program is
    oblivious and its circuit is one for all flags. Each processor keeps its own pair in
    registers; in round ``h`` = 1, 2, 4, ... processor ``i >= h`` reads the pair ``h`` cells to
    its left (the only reader of that cell), then writes its combined pair: two steps, so no
    cell is read and written at once. Exact counts for size n >= 2, with R = ceil(log2 n):
    time ``1 + 2 R``; work ``n + 2 sum_r (n - 2^r)``; reads ``2 n + 2 sum_r (n - 2^r)``,
    writes as many as the rounds' reads. For n = 8: 7 steps, work 8 + 2 (7 + 6 + 4) = 42.
    """
    size = _size(size, "size")
    if size < 2:
        return
    pid = m.processors(size)
    cell = start + np.arange(size, dtype=np.int64)
    value, flag = yield Step(pid, reads=(Read(values, cell), Read(flags, cell)))
    h = 1
    while h < size:
        right = pid[h:]
        left_value, left_flag = yield Step(
            right, reads=(Read(values, cell[:-h]), Read(flags, cell[:-h]))
        )
        mine_value, mine_flag = value[h:], flag[h:]
        combined = np.where(mine_flag != 0, mine_value, left_value + mine_value)
        joined = left_flag | mine_flag
        yield Step(right, writes=(Write(values, cell[h:], combined),
                                  Write(flags, cell[h:], joined)))
        value[h:] = combined
        flag[h:] = joined
        h *= 2


__all__ = ["broadcast", "broadcast_blocks", "prefix_sums", "prefix_sums_blocks", "segmented_scan"]
