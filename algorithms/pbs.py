"""Algorithm 10, ``pbs-key-values``: parallel binary search after Akl and Meijer (1990), on EREW.

Given sorted queries ``q[0..n-1]`` and sorted keys ``k[0..m-1]``, every query learns eq. (12),
``C[i] = min{j : q[i] <= k[j]}`` or ``m`` (that is, ``bisect_left``), together with its
candidate key ``k[C[i]]`` and that key's payload, in time O(log n log m) and work O(n log m).

The recursion of the paper runs level-synchronously: level t handles every live call of that
level in the same global steps, one processor per call (the processor of the call's median
query), and one call of :func:`search_blocks` runs many independent instances at once. A
direct transcription of the paper is not EREW; the hazards and their fixes:

1. a parent's processor writes a private record ``(lo, hi, alive)`` into the cells of each
   child (indexed by the child's median query), so siblings never read a shared z;
2. a dead half is answered by passing a dead record down the recursion (its default answer is
   its ``lo``), one write per child, never by many processors reading one x;
3. every call's right sentinel ``k[hi]`` (and its payloads), unless ``hi`` is past the
   instance's keys, is already held, as a private copy, by one ancestor: the nearest call whose
   left child leads to it, whose candidate ``k[z]`` is this ``k[hi]``. The call knows that
   ancestor's median by index arithmetic (it is ``t + 1``, the query just after the call's
   range), so a query whose answer is the sentinel copies it from there, never from a key cell
   other queries may read (calls of one level have distinct such ancestors); each query then
   tests ``k[C[i]] == q[i]`` on its own copy.
4. letting every query binary-search the whole key array at once is CREW, not EREW:
   :func:`naive_blocks` keeps that version as the negative control.

The live calls of one level have disjoint key ranges (the two children of a call split its range
at z), so all binary-search probes of a level are exclusive reads. Tokens are only compared and
copied through the :class:`~algorithms.keys.Keys` seam; indices, bounds and payloads are words.

The call tree over the queries is fixed by the sizes alone (the median of ``q[s..t]`` is
``floor((s + t) / 2)``), so each processor knows its call's query range ``[s, t]`` and its
instance's key range by index arithmetic; only the data-dependent part of a call, its key
bounds, travels through memory.

>>> import numpy as np
>>> from pram import Machine
>>> m = Machine("erew")
>>> search(m, np.array([1, 4, 9]), np.array([2, 4, 6])).tolist(), m.violations
([0, 1, 3], [])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import attrs
import numpy as np

from pram import (
    Array,
    Flags,
    InputError,
    Machine,
    Program,
    Read,
    Register,
    Step,
    Words,
    Write,
    hold,
    iota,
    parallel,
    phase,
    words,
)
from pram.algorithms.keys import Keys, WordKeys
from pram.registers.ids import freeze

#: The payload (and host-side key) recorded for "no key", where eq. (12) answered m; also the
#: holder of a call that has none.
NONE = -1

#: The most payload arrays one search carries: a call reads each from a key cell or from its
#: sentinel's holder in one step, two reads per payload, within the machine's 8 reads a step.
MAX_PAYLOADS = 4


@attrs.frozen
class Found:
    """What :func:`search_blocks` leaves in memory, one entry per query token.

    ``index[r]`` is eq. (12) for query r within its instance (0 .. key count); ``key[r]`` holds a
    copy of the candidate key ``K[k_start + index[r]]`` when ``index[r]`` is below the key count
    (undefined otherwise); ``payload[r]`` the candidate's payload or -1; ``match[r]`` is 1 when
    the candidate exists and equals the query, else 0. ``payloads`` holds one such array per
    payload array carried (the first is ``payload``).
    """

    index: Array
    key: Array
    payload: Array
    match: Array
    payloads: tuple[Array, ...] = attrs.field()

    @payloads.default
    def _just_the_payload(self) -> tuple[Array, ...]:
        return (self.payload,)


@attrs.frozen
class Retrieved:
    """Host-side copy of a single search: eq. (12) and, per query, the candidate and a match bit.

    Where ``index[i] == m`` (no key is at least the query) ``key[i]`` and ``payload[i]`` are -1.
    """

    index: Words
    key: Words
    payload: Words
    match: Words


# ---- the PRAM program ------------------------------------------------------------------------


def search_blocks(
    m: Machine,
    keys: Keys,
    queries: Array,
    key_array: Array,
    payload: Array | Sequence[Array] | None = None,
    *,
    q_start: Any,
    q_count: Any,
    k_start: Any,
    k_count: Any,
    name: str = "pbs",
) -> Program[Found]:
    """Run Algorithm 10 on many instances at once: instance b searches its queries
    ``queries[q_start[b] : q_start[b] + q_count[b]]`` among its keys
    ``key_array[k_start[b] : k_start[b] + k_count[b]]`` (each sorted ascending).

    The instances' query ranges must be disjoint, and so must their key ranges (otherwise their
    probes meet and the machine flags it). ``payload`` (words, one per key cell; by default the
    key's cell index) is carried to each query with its candidate key; a sequence of up to
    :data:`MAX_PAYLOADS` such arrays carries them all, side by side (``Found.payloads``), in
    the same steps (a call writes its further payloads in the next step, pipelined: see
    :class:`_Pending`). Arrays are allocated under ``name`` and steps are labelled
    ``name/level t``. Time O(log n log m) for the largest instance, work O(n log m) summed over
    instances.
    """
    n, size = queries.size // keys.width, key_array.size // keys.width  # tokens, not cells
    qs, qc, ks, kc = _blocks(
        queries.name, n, key_array.name, size, q_start, q_count, k_start, k_count
    )
    if payload is None:
        given: tuple[Array, ...] = (m.array(f"{name}.payload", values=iota(size)),)
    else:
        given = (payload,) if isinstance(payload, Array) else tuple(payload)
    _check_payloads(given, size)
    carried = tuple(
        m.array(f"{name}.found payload" + (f" {i}" if i else ""), size=n)
        for i in range(len(given))
    )
    found = Found(
        index=m.array(f"{name}.index", size=n),
        key=keys.allocate(m, f"{name}.key", n),
        payload=carried[0],
        match=m.array(f"{name}.match", size=n),
        payloads=carried,
    )
    records = _Records(
        lo=m.array(f"{name}.lo", size=n),
        hi=m.array(f"{name}.hi", size=n),
        alive=m.array(f"{name}.alive", size=n),
    )
    pid = m.processors(n)
    level_count = _widest(qc)  # ceil(log2(n + 1)) levels for the largest instance
    probes = _widest(kc)  # ceil(log2(m + 1)) probes close any key range [lo, hi)
    # Level 0: the root call of every instance with queries, its record in registers.
    root = qc > 0
    calls = _Calls(
        s=qs[root],
        t=qs[root] + qc[root] - 1,
        base=ks[root],
        end=ks[root] + kc[root],
        holder=np.full_like(ks[root], NONE),
    )
    context = _Context(m, keys, queries, key_array, given, found, records, pid, probes)
    result = yield from phase(name, _levels(context, calls, level_count))
    # the calls' records (and a default payload) are this search's own: nothing reads them now
    for array in (records.lo, records.hi, records.alive, *given[: payload is None]):
        m.free(array)
    return result


def _check_payloads(payloads: tuple[Array, ...], size: int) -> None:
    """Refuse no payload, too many, or one without a cell per key."""
    if not 1 <= len(payloads) <= MAX_PAYLOADS:
        raise InputError(
            f"payload must be one array or a sequence of 1 to {MAX_PAYLOADS} arrays "
            f"(got {len(payloads)}); carry the others in a second search"
        )
    for i, array in enumerate(payloads):
        if not isinstance(array, Array):
            raise InputError(
                f"payload {i} must be a machine array (got {array!r}); allocate it with m.array"
            )
        if array.size != size:
            what = "payload" if len(payloads) == 1 else f"payload {i}"
            raise InputError(
                f"{what} must have one cell per key (got {array.size} cells for {size} keys)"
            )


@attrs.frozen
class _Records:
    """Per-call cells, indexed by the call's median query: written by the parent's processor."""

    lo: Array
    hi: Array
    alive: Array


@attrs.frozen
class _Calls:
    """The calls of one level (dead ones too), one entry per call: registers of their processors."""

    s: Words  # first query of the call
    t: Words  # last query of the call
    base: Words  # first key of the instance (answers are relative to it)
    end: Words  # one past the instance's last key: k[end] is "no key"
    # the median of the nearest ancestor whose left child leads here, always t + 1 (-1: none,
    # t is the instance's last query): its candidate copy found.key / found.payload is this
    # call's right sentinel k[hi] when hi < end
    holder: Words


@attrs.frozen
class _Pending:
    """The further payloads (all but the first) that the calls of a level still have to write.

    The step of lines 19-20 already holds eight writes, so processors ``p`` write ``values`` to
    cells ``mid`` of ``found.payloads[1:]`` in the next global step, while the next level reads
    its records (or, after the last level, with the match bits): one step later, before any
    descendant copies them from its holder, and at no cost in time.
    """

    p: Words
    mid: Words
    values: tuple[Register, ...]


#: Nothing left to write: a single payload, or the root level.
_NOTHING = _Pending(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), ())


@attrs.frozen
class _Context:
    """What every level of one :func:`search_blocks` call works on."""

    m: Machine
    keys: Keys
    queries: Array
    key_array: Array
    payloads: tuple[Array, ...]
    found: Found
    records: _Records
    pid: Words
    probes: int


def _levels(c: _Context, calls: _Calls, level_count: int) -> Program[Found]:
    """The recursion, one level after another, then each query's match test."""
    medians: list[Words] = []
    with_key = hold(c.pid, False)  # each median's register: does its candidate exist?
    pending = _NOTHING
    for level in range(level_count):
        calls, mid, has_key, pending = yield from phase(
            f"level {level}", _level(c, calls, pending, first=level == 0)
        )
        medians.append(mid)
        with_key[mid] = has_key
    # Every query was the median of one call: it tests K[C[r]] == Q[r] on its own copy.
    if medians:
        mid = np.concatenate(medians)
        yield from phase("match", _match(c, c.pid[mid], mid, with_key[mid], pending))
    return c.found


def _pick(p: Words, x: Any, mask: Any) -> Any:
    """The entries of ``x`` (a register of ``p``, or a plain array aligned with it) where
    ``mask`` holds. A mask that is a register is each processor deciding whether it acts: the
    selection stays a register (``x = p`` gives the acting processors' ids, for a Step)."""
    if isinstance(mask, Register):
        return (x if isinstance(x, Register) else hold(p, x))[mask]
    return x[mask]


def _level(
    c: _Context, calls: _Calls, pending: _Pending, *, first: bool
) -> Program[tuple[_Calls, Words, Flags, _Pending]]:
    """One level of the recursion: every call of the level, each on its own processor."""
    found = c.found
    mid = (calls.s + calls.t) // 2  # mid <- floor((s + t) / 2), the median query of the call
    # frozen once (immutable ids): every hold(p, ...) and step of the level then takes them
    # as they are, instead of checking a host array against its frozen copy at each use
    p = cast(Words, freeze(c.pid[mid]))
    lo: Any
    hi: Any
    alive: Any
    if first:
        lo, hi = calls.base, calls.end  # the root searches its whole key range
        alive = (hi > lo).astype(np.int64)
    else:
        lo, hi, alive, p = yield from _records(c, p, mid, pending)
    # lines 6, 11 and the binary search: z = the smallest index in [lo, hi] with q[mid] <= k[z]
    # (k[hi] is the sentinel). z == lo is line 6 (l_x = 1: the left half is dead), z == hi is
    # line 11 (g_y = 1: the right half is dead); a dead call has lo == hi and answers lo.
    z = yield from _bisect(c, p, mid, lo, np.where(alive == 1, hi, lo))
    in_range = z < hi  # the candidate k[z] lies in this call's own key range
    at_sentinel = ~in_range & (hi < calls.end)  # the candidate is the sentinel k[hi] (hazard 3)
    has_key = z < calls.end
    holder = np.where(at_sentinel, calls.holder, 0)
    # The candidate's payloads and key, copied without a shared read: from k[z]'s cells, or
    # from the copies the sentinel's holder made of k[hi]; no copy (and payloads of -1) when the
    # candidate is k[end], "no key".
    act = in_range | at_sentinel
    pairs = yield Step(
        _pick(p, p, act),
        reads=tuple(
            read
            for source, copy in zip(c.payloads, found.payloads, strict=True)
            for read in (
                Read(source, _pick(p, z, act), where=_pick(p, in_range, act)),
                Read(copy, _pick(p, holder, act), where=_pick(p, at_sentinel, act)),
            )
        ),
    )
    payloads = []
    for i in range(len(c.payloads)):  # read 2i from the keys, read 2i + 1 from the holder
        payload = hold(p, NONE)
        payload[act] = np.where(_pick(p, in_range, act), pairs[2 * i], pairs[2 * i + 1])
        payloads.append(payload)

    def copy_key(where: Any, source: Array, index: Any) -> Program[None]:
        """The candidate's key, from ``source[index]`` to C[mid], by the processors ``where``."""
        return c.keys.copy(c.m, _pick(p, p, where), source, _pick(p, index, where), found.key,
                           _pick(p, mid, where))

    # from k[z] itself, or from the sentinel's holder's copy of k[hi]
    yield from parallel(
        copy_key(in_range, c.key_array, z), copy_key(at_sentinel, found.key, holder)
    )
    # lines 19-20 (and 9, 14): C[mid], its payload, and the children's records, one private cell
    # each (hazards 1, 2).
    has_left = mid > calls.s
    has_right = mid < calls.t
    left = (calls.s + mid - 1) // 2
    right = (mid + 1 + calls.t) // 2
    yield from _answer(
        c, p, mid, z - calls.base, payloads[0], lo, hi, z, has_left, has_right, left, right
    )
    children = _Calls(
        s=np.concatenate([calls.s[has_left], mid[has_right] + 1]),
        t=np.concatenate([mid[has_left] - 1, calls.t[has_right]]),
        base=np.concatenate([calls.base[has_left], calls.base[has_right]]),
        end=np.concatenate([calls.end[has_left], calls.end[has_right]]),
        # the left child's sentinel is this call's candidate k[z], the right child's our k[hi]
        holder=np.concatenate([mid[has_left], calls.holder[has_right]]),
    )
    # the further payloads' copies go out in the next step (the step of line 19 is full)
    return children, mid, has_key, _Pending(p, mid, tuple(payloads[1:]))


def _records(
    c: _Context, p: Words, mid: Words, pending: _Pending
) -> Program[tuple[Register, Register, Register, Words]]:
    """Each call reads the record its parent wrote; in the same step the previous level's
    processors, idle now, write their further payloads (:class:`_Pending`). Returns the
    records and ``p`` itself (as the ids the records are bound to, so registers compare by
    identity)."""
    r = c.records
    if not pending.values:
        lo, hi, alive = yield Step(p, reads=(Read(r.lo, mid), Read(r.hi, mid), Read(r.alive, mid)))
        return lo, hi, alive, p
    reading = np.concatenate([np.ones(len(p), np.bool_), np.zeros(len(pending.p), np.bool_)])
    cell = np.concatenate([mid, pending.mid])
    everyone = cast(Words, freeze(np.concatenate([p, pending.p])))  # immutable, views too
    writes = []
    for copy, value in zip(c.found.payloads[1:], pending.values, strict=True):
        written = hold(everyone)
        written[len(p) :] = value  # the previous level's processors write their own payloads
        writes.append(Write(copy, cell, written, where=~reading))
    lo, hi, alive = yield Step(
        everyone,
        reads=tuple(Read(array, cell, where=reading) for array in (r.lo, r.hi, r.alive)),
        writes=tuple(writes),
    )
    own = len(p)  # the first len(p) processors read; each keeps its own registers
    return lo[:own], hi[:own], alive[:own], everyone[:own]


def _bisect(c: _Context, p: Words, mid: Words, lo: Words, hi: Words) -> Program[Words]:
    """Each call's binary search over its own keys ``k[lo..hi-1]``: ``c.probes`` comparisons.

    Calls of one level have disjoint ranges, so the probes of a step read distinct cells.
    """
    first, last = lo.copy(), hi.copy()
    for _ in range(c.probes):
        open_ = first < last
        probe = (first + last) // 2
        less, equal = yield from c.keys.compare(
            c.m,
            _pick(p, p, open_),
            c.queries,
            _pick(p, mid, open_),
            c.key_array,
            _pick(p, probe, open_),
        )
        at_most = hold(p, False)
        at_most[open_] = less | equal  # q[mid] <= k[probe]
        last = np.where(open_ & at_most, probe, last)
        first = np.where(open_ & ~at_most, probe + 1, first)
    return first


def _answer(
    c: _Context,
    p: Words,
    mid: Words,
    index: Words,
    payload: Register,
    lo: Words,
    hi: Words,
    z: Words,
    has_left: Flags,
    has_right: Flags,
    left: Words,
    right: Words,
) -> Program[None]:
    """One step: each call writes C[mid] (eq. 12, relative to the instance) and the candidate's
    payload, and the record of each child it has.

    Left child: keys [lo, z); right child: keys [z, hi). A child with an empty key range is dead
    (alive = 0) and answers its lo: the parent's x or y + 1.
    """
    r = c.records
    yield Step(
        p,
        writes=(
            Write(c.found.index, mid, index),
            Write(c.found.payload, mid, payload),
            Write(r.lo, left, lo, where=has_left),
            Write(r.hi, left, z, where=has_left),
            Write(r.alive, left, (z > lo).astype(np.int64), where=has_left),
            Write(r.lo, right, z, where=has_right),
            Write(r.hi, right, hi, where=has_right),
            Write(r.alive, right, (hi > z).astype(np.int64), where=has_right),
        ),
    )


def _match(
    c: _Context, p: Words, mid: Words, has_key: Register, pending: _Pending
) -> Program[None]:
    """Each median writes whether its candidate exists and equals its query; the last level's
    calls (the last ``len(pending.p)`` medians) also write their further payloads."""
    _, equal = yield from c.keys.compare(
        c.m,
        _pick(p, p, has_key),
        c.queries,
        _pick(p, mid, has_key),
        c.found.key,
        _pick(p, mid, has_key),
    )
    match = hold(p, 0)
    match[has_key] = equal
    earlier = len(p) - len(pending.p)
    last = np.concatenate([np.zeros(earlier, np.bool_), np.ones(len(pending.p), np.bool_)])
    further = []
    for copy, value in zip(c.found.payloads[1:], pending.values, strict=True):
        written = hold(p)
        written[earlier:] = value  # the last level's calls write their own payloads
        further.append(Write(copy, mid, written, where=last))
    yield Step(p, writes=(Write(c.found.match, mid, match), *further))


# ---- the negative control --------------------------------------------------------------------


def naive_blocks(
    m: Machine, keys: Keys, queries: Array, key_array: Array, *, name: str = "pbs-naive"
) -> Program[Array]:
    """Every query binary-searches the whole key array at once: CREW, not EREW (hazard 4).

    In the first probe step all queries read the middle key, so an EREW machine flags it while
    a CREW machine runs it clean. Answers eq. (12) like :func:`search_blocks`, for one instance.
    """
    n, size = queries.size // keys.width, key_array.size // keys.width
    index = m.array(f"{name}.index", size=n)
    pid = m.processors(n)
    query = iota(n)

    def program() -> Program[Array]:
        first = np.zeros(n, dtype=np.int64)
        last = np.full(n, size, dtype=np.int64)
        for probe_step in range(size.bit_length()):
            open_ = first < last
            probe = (first + last) // 2
            less, equal = yield from phase(
                f"probe {probe_step}",
                keys.compare(
                    m,
                    _pick(pid, pid, open_),
                    queries,
                    _pick(pid, query, open_),
                    key_array,
                    _pick(pid, probe, open_),
                ),
            )
            at_most = hold(pid, False)
            at_most[open_] = less | equal
            last = np.where(open_ & at_most, probe, last)
            first = np.where(open_ & ~at_most, probe + 1, first)
        yield Step(pid, writes=(Write(index, query, first),))
        return index

    return (yield from phase(name, program()))


# ---- host side: one instance, validated ------------------------------------------------------


def search(
    m: Machine, queries: Any, keys: Any, keys_repr: Keys | None = None, *, name: str = "pbs"
) -> Words:
    """Eq. (12) for sorted ``queries`` among sorted ``keys``, computed by Algorithm 10 on ``m``.

    The answers equal ``numpy.searchsorted(keys, queries, side="left")``; ``m`` keeps the ledger
    and any violations. ``keys_repr`` chooses how tokens are stored (word keys by default).
    """
    return retrieve(m, queries, keys, keys_repr=keys_repr, name=name).index


def retrieve(
    m: Machine,
    queries: Any,
    keys: Any,
    payload: Any = None,
    keys_repr: Keys | None = None,
    *,
    name: str = "pbs",
) -> Retrieved:
    """:func:`search`, also returning each query's candidate key, its payload and a match bit.

    ``payload`` holds one integer per key (by default the key's index).
    """
    repr_ = WordKeys() if keys_repr is None else keys_repr
    q = _sorted_tokens(queries, "queries")
    k = _sorted_tokens(keys, "keys")
    pay = None if payload is None else words(payload, "payload")
    if pay is not None and len(pay) != len(k):
        raise InputError(
            f"payload must have one entry per key (got {len(pay)} entries for {len(k)} keys)"
        )
    query_array = repr_.store(m, f"{name}.queries", q)
    key_array = repr_.store(m, f"{name}.keys", k)
    pay_array = None if pay is None else m.array(f"{name}.given payload", values=pay)
    zero = np.zeros(1, dtype=np.int64)
    found = m.run(
        search_blocks(
            m,
            repr_,
            query_array,
            key_array,
            pay_array,
            q_start=zero,
            q_count=np.array([len(q)]),
            k_start=zero,
            k_count=np.array([len(k)]),
            name=name,
        )
    )
    index = found.index.to_numpy()
    has_key = index < len(k)
    key = np.full(len(q), NONE, dtype=np.int64)
    key[has_key] = repr_.load(found.key)[has_key]  # host output: the copies pbs made
    return Retrieved(index, key, found.payload.to_numpy(), found.match.to_numpy())


def naive_search(
    m: Machine, queries: Any, keys: Any, keys_repr: Keys | None = None, *, name: str = "pbs-naive"
) -> Words:
    """Eq. (12) by the naive CREW search (:func:`naive_blocks`): the EREW negative control."""
    repr_ = WordKeys() if keys_repr is None else keys_repr
    q = _sorted_tokens(queries, "queries")
    k = _sorted_tokens(keys, "keys")
    query_array = repr_.store(m, f"{name}.queries", q)
    key_array = repr_.store(m, f"{name}.keys", k)
    return m.run(naive_blocks(m, repr_, query_array, key_array, name=name)).to_numpy()


# ---- validation at the boundary --------------------------------------------------------------


def _sorted_tokens(values: Any, what: str) -> Words:
    array = words(values, what)
    items = array.tolist()
    for i in range(1, len(items)):
        if items[i - 1] > items[i]:
            raise InputError(
                f"{what} must be sorted ascending (got {what}[{i - 1}] = {items[i - 1]} > "
                f"{what}[{i}] = {items[i]}); sort them first"
            )
    return array


def _blocks(
    queries: str, n: int, keys: str, size: int, *descriptions: Any
) -> tuple[Words, Words, Words, Words]:
    """The instance descriptions as int64 arrays, checked against the ``n`` query tokens and
    ``size`` key tokens they point into."""
    names = ("q_start", "q_count", "k_start", "k_count")
    arrays = [words(d, name) for d, name in zip(descriptions, names, strict=True)]
    lengths = [len(a) for a in arrays]
    if [length for length in lengths if length != lengths[0]]:
        shown = ", ".join(f"{label} {length}" for label, length in zip(names, lengths, strict=True))
        raise InputError(
            f"q_start, q_count, k_start and k_count must have one entry per instance each "
            f"(got lengths {shown})"
        )
    qs, qc, ks, kc = arrays
    for name, array in zip(names, arrays, strict=True):
        _first_negative(array, name)
    _within(qs, qc, queries, n, "q")
    _within(ks, kc, keys, size, "k")
    return qs, qc, ks, kc


def _first_negative(array: Words, name: str) -> None:
    for i, value in enumerate(array.tolist()):
        if value < 0:
            raise InputError(f"{name} must be non-negative (got {name}[{i}] = {value})")


def _within(start: Words, count: Words, name: str, tokens: int, prefix: str) -> None:
    for i, (s, c) in enumerate(zip(start.tolist(), count.tolist(), strict=True)):
        if s + c > tokens:
            raise InputError(
                f"instance {i} reaches past the end of {name}: {prefix}_start[{i}] + "
                f"{prefix}_count[{i}] = {s + c} but {name} holds {tokens} tokens"
            )


def _widest(counts: Words) -> int:
    """ceil(log2(c + 1)) for the largest count c: levels or probes that cover every instance."""
    bits = 0
    for count in counts.tolist():
        bits = count.bit_length() if count.bit_length() > bits else bits
    return int(bits)


__all__ = [
    "MAX_PAYLOADS",
    "NONE",
    "Found",
    "Retrieved",
    "naive_blocks",
    "naive_search",
    "retrieve",
    "search",
    "search_blocks",
]
