"""d-bit tokens stored one bit per cell, and the comparators of Definition H.31 / Lemma H.32.

The paper's input is ``u in {0,1}^(N x d)``: a token is a string of d bits, so comparing or
moving one is itself work over d cells. :class:`BitKeys` implements the
:class:`~algorithms.keys.Keys` protocol that way: token ``t`` of an array occupies cells
``[t d, (t+1) d)``, most significant bit first, one bit per cell. Two comparators are offered:

``serial``
    One processor per comparison scans the d bit pairs from the most significant, one pair per
    step (work and time O(d)): the bit-serial comparator behind the paper's O(d log^2 N) time.
``tree``
    Lemma H.32: a team of d processors per comparison (the comparison's own processor and d-1
    helpers) marks the bit positions where the tokens differ and an EREW reduction tree finds the
    most significant one (work O(d), time O(log d)).

Exact costs per call on c tokens (pairs), with ``R = ceil(log2 d)``:

================================  ================  ======================
operation                         time (steps)      work (per token/pair)
================================  ================  ======================
``compare``, serial               d                 d
``compare``, tree                 4 R + 1           5 d - 4
``compare_exchange``, serial      2 d               2 d
``compare_exchange``, tree        6 R + 2           8 d - 6
``copy`` (either comparator)      2 R + 2           4 d - 2
================================  ================  ======================

Registers are private, so a helper learns the token numbers ``i`` and ``j`` (and, in a
comparator, whether to exchange) only through memory: the comparison's processor writes them to
scratch cells and they spread by doubling, 2 steps per round, ``R`` rounds, each cell written
once and read once (EREW). That broadcast is the ``2 R`` in the tree and copy costs. The
comparison's outcome is reduced back to the comparison's own processor ``pid`` (the team's rank
0), so it lands in ``pid``'s registers as the protocol requires. With d = 1 every operation costs
exactly what :class:`~algorithms.keys.WordKeys` costs.

>>> from pram import Machine
>>> m = Machine("erew")
>>> keys = BitKeys(8, "tree")
>>> a = keys.store(m, "a", np.array([5, 9, 9]))
>>> lt, eq = m.run(keys.compare(m, m.processors(1), a, np.array([0]), a, np.array([1])))
>>> bool(lt[0]), bool(eq[0]), m.cost.time, m.cost.work
(True, False, 13, 36)
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from pram import (
    Array,
    Flags,
    InputError,
    Machine,
    Program,
    Read,
    Register,
    Step,
    Values,
    Words,
    Write,
    hold,
    iota,
)
from pram.algorithms.keys import Decision
from pram.registers import processors
from pram.registers.holding import chosen, narrow, widen
from pram.registers.ids import freeze

#: The comparators of :class:`BitKeys`.
COMPARATORS = ("serial", "tree")

#: Widest token: 64 bits (tokens up to 2**64 - 1, given as Python ints or uint64).
MAX_D = 64

#: A first broadcast's tagged index (see :meth:`_Team.broadcast`): ``-1 - (i + stamp 2^40)``,
#: negative, so no index, code or flag an earlier operation left in a scratch cell (all >= 0),
#: nor the initial -1, nor another broadcast's stamp, passes for it.
_INDEX_BITS = 40
_STAMP_BITS = 22
_STAMP_FLOOR = 1

#: Scratch cells per team member: two slots (for ``i`` and ``j``, then the reduction's codes).
_SLOTS = 2

#: A register holding whole tokens as bit strings (d <= 64 bits each).
_Bits = npt.NDArray[np.uint64]

#: Outcome codes of the reduction: the tokens are equal so far, the first is less, or greater.
_EQUAL, _LESS, _GREATER = 0, 1, 2
_CONVERT = (
    "make them integers explicitly, e.g. numpy.rint(x).astype(numpy.uint64) for reals (a plain "
    "cast would truncate them)"
)


class BitKeys:
    """A token is d cells of one bit each, most significant first; see the module doc.

    ``comparator`` is ``"serial"`` (one processor per comparison, d steps) or ``"tree"`` (d
    processors per comparison, O(log d) steps). Copies always use d processors.
    """

    def __init__(self, d: int, comparator: str = "serial") -> None:
        if isinstance(d, bool) or not isinstance(d, int | np.integer) or not 1 <= d <= MAX_D:
            raise InputError(f"d must be an integer from 1 to {MAX_D} (got {d!r})")
        if comparator not in COMPARATORS:
            raise InputError(
                f"comparator must be one of {', '.join(map(repr, COMPARATORS))} "
                f"(got {comparator!r})"
            )
        self.d = int(d)
        self.comparator = comparator
        #: Cells per token.
        self.width = self.d
        #: The largest token d bits hold, capped at 2**63 - 1 so that hosts can keep it in int64
        #: arrays (padding records use it): no int64 token exceeds it, whatever d is.
        self.largest = (1 << self.d) - 1 if self.d < MAX_D else int(np.iinfo(np.int64).max)
        self._shifts = np.arange(self.d - 1, -1, -1, dtype=np.uint64)

    def __repr__(self) -> str:
        return f"BitKeys(d={self.d}, comparator={self.comparator!r})"

    # ---- host input and output (no steps) --------------------------------------------------

    def store(self, m: Machine, name: str, tokens: Any) -> Array:
        """Allocate an array holding ``tokens``, d bit cells each (host input: costs no steps).

        ``tokens`` are non-negative integers below ``2**d`` (Python ints or uint64 for d = 64).
        """
        values = self.check(tokens)
        bits = (values.reshape(-1, 1) >> self._shifts.reshape(1, -1)) & np.uint64(1)
        return m.array(name, values=bits.astype(np.int64).reshape(-1))

    def allocate(self, m: Machine, name: str, n: int) -> Array:
        """Allocate room for ``n`` tokens (``n d`` cells), undefined until written."""
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
            raise InputError(f"number of tokens must be a non-negative integer (got {n!r})")
        return m.array(name, size=int(n) * self.d)

    def load(self, array: Array) -> Words:
        """The tokens held in ``array`` (host output: costs no steps).

        int64 for d < 64; for d = 64 the result is uint64, since int64 cannot hold every token.
        """
        if array.size % self.d:
            raise InputError(
                f"array {array.name!r} has {array.size} cells, not a whole number of {self.d}-bit "
                "tokens; load it with the BitKeys that stored it"
            )
        columns = (array.to_numpy().reshape(-1, self.d).T & 1).astype(np.uint64)
        value = np.zeros(array.size // self.d, dtype=np.uint64)
        for column in columns:  # most significant bit first
            value = (value << np.uint64(1)) | column
        if self.d == MAX_D:
            return cast(Words, value)
        return value.astype(np.int64)

    def check(self, tokens: Any) -> npt.NDArray[np.uint64]:
        """``tokens`` as uint64, or an InputError naming the first token that does not fit."""
        try:
            # A list mixing ints below and above 2**63 would become float64: keep Python ints.
            array = tokens if isinstance(tokens, np.ndarray) else np.asarray(tokens, dtype=object)
        except (TypeError, ValueError):
            raise InputError(
                f"tokens must be an array of integers (got a {type(tokens).__name__} numpy "
                "cannot turn into an array); pass a flat sequence of integers"
            ) from None
        # Not pram.words, which refuses the tokens above int64 that d = 64 allows; same messages.
        if array.ndim != 1:
            raise InputError(
                f"tokens must be one-dimensional (got shape {array.shape}); pass a flat array"
            )
        if array.dtype.kind not in "iuO" and array.size:
            raise InputError(f"tokens must be integers (got dtype {array.dtype}); {_CONVERT}")
        values = array.tolist()
        for token in values:  # host-side input check, one token at a time
            if isinstance(token, bool) or not isinstance(token, int):
                raise InputError(f"tokens must be integers (got {token!r}); {_CONVERT}")
            if token < 0:
                raise InputError(f"token {token} is negative; tokens must be non-negative integers")
            if token >> self.d:
                need = token.bit_length()
                fix = (
                    f"pass --d {need} or more"
                    if need <= MAX_D
                    else f"tokens must fit in {MAX_D} bits"
                )
                raise InputError(f"token {token} needs {need} bits but d = {self.d}; {fix}")
        return np.array(values, dtype=np.uint64)

    # ---- comparing ---------------------------------------------------------------------------

    def compare(
        self, m: Machine, pid: Words, a: Array, i: Words, b: Array, j: Words
    ) -> Program[tuple[Flags, Flags]]:
        """Processors ``pid`` learn ``(a[i] < b[j], a[i] == b[j])``, one pair each."""
        if self.comparator == "serial":
            lt, eq, _, _, _ = yield from self._scan(pid, a, i, b, j, ())
            return lt, eq
        team = _Team(m, pid, self.d)
        scratch = _scratch(m, team.size * _SLOTS)
        try:
            ii, jj = yield from team.broadcast(scratch, (i, j))
            _, _, code, _ = yield from self._read_bits(team, a, ii, b, jj, ())
            code = yield from team.reduce(scratch, code)
        finally:
            _release(m, scratch)
            team.release()
        code = team.mine(code)
        return code == _LESS, code == _EQUAL

    def _scan(
        self, pid: Words, a: Array, i: Words, b: Array, j: Words, reads: Sequence[Read]
    ) -> Program[tuple[Any, Any, Any, Any, Values]]:
        """Serial comparator: step k reads bit k of both tokens (most significant first).

        The processor keeps "equal so far" and "less", and accumulates both tokens in a register
        each (``x``, ``y``, uint64) for a comparator's write-back. The extra ``reads`` ride on
        step 0. Returns ``(less, equal, x, y, values of the extra reads)``.
        """
        # Registers of the processors, sized by them (their number may be data).
        lt = hold(pid, False)
        eq = hold(pid, True)
        x = hold(pid, np.uint64(0))
        y = hold(pid, np.uint64(0))
        extra: Values = ()
        first_i, first_j = i * self.d, j * self.d
        for k in range(self.d):
            bx, by, *rest = yield Step(
                pid,
                reads=(Read(a, first_i + k), Read(b, first_j + k), *(reads if k == 0 else ())),
            )
            if k == 0:
                extra = tuple(rest)
            lt = lt | (eq & (bx < by))  # the first differing bit decides
            eq = eq & (bx == by)
            x = (x << np.uint64(1)) | bx.astype(np.uint64)
            y = (y << np.uint64(1)) | by.astype(np.uint64)
        return lt, eq, x, y, extra

    def _read_bits(
        self, team: _Team, a: Array, ii: Words, b: Array, jj: Words, reads: Sequence[Read]
    ) -> Program[tuple[Any, Any, Any, Values]]:
        """Tree comparator, leaves: every team member reads its bit of both tokens in one step.

        Member of rank k marks whether the tokens differ there, and how: its leaf code. The
        comparison's own processor (rank 0) also makes the extra ``reads``.
        """
        x, y, *rest = yield Step(
            team.acting(),
            reads=(
                Read(a, team.own(ii * self.d + team.rank)),
                Read(b, team.own(jj * self.d + team.rank)),
                *(team.widen_read(r) for r in reads),
            ),
        )
        code = np.where(x < y, _LESS, np.where(x > y, _GREATER, _EQUAL)).astype(np.int64)
        return x, y, code, tuple(team.mine(v) for v in rest)

    # ---- moving ------------------------------------------------------------------------------

    def copy(
        self, m: Machine, pid: Words, source: Array, i: Words, target: Array, j: Words
    ) -> Program[None]:
        """Processors ``pid`` copy token ``source[i]`` to ``target[j]``, one each.

        A team of d processors per copy: ``i`` and ``j`` spread from ``pid`` by doubling, then
        every member reads its bit in one step and writes it in the next.
        """
        team = _Team(m, pid, self.d)
        try:
            scratch = _scratch(m, team.size * _SLOTS)
            try:
                ii, jj = yield from team.broadcast(scratch, (i, j))
            finally:
                _release(m, scratch)
            (bit,) = yield Step(
                team.acting(), reads=(Read(source, team.own(ii * self.d + team.rank)),)
            )
            yield Step(
                team.acting(), writes=(Write(target, team.own(jj * self.d + team.rank), bit),)
            )
        finally:
            team.release()

    def compare_exchange(
        self,
        m: Machine,
        pid: Words,
        a: Array,
        i: Words,
        j: Words,
        decide: Decision,
        reads: Sequence[Read] = (),
    ) -> Program[None]:
        """Processors ``pid`` each compare tokens ``a[i]`` and ``a[j]`` and exchange them if told.

        See :meth:`algorithms.keys.Keys.compare_exchange`. Serial: the processor scans both
        tokens (d steps, keeping them in two registers), decides, and writes them back one bit
        pair per step (d steps). Tree: the team compares as in :meth:`compare`, ``pid`` decides,
        the decision spreads to the team by doubling, and every member writes its bit pair back
        in one step.
        """
        if self.comparator == "serial":
            yield from self._serial_exchange(pid, a, i, j, decide, reads)
            return
        team = _Team(m, pid, self.d)
        try:
            scratch = _scratch(m, team.size * _SLOTS)
            try:
                ii, jj = yield from team.broadcast(scratch, (i, j))
                x, y, code, extra = yield from self._read_bits(team, a, ii, a, jj, reads)
                code = yield from team.reduce(scratch, code)
                mine = team.mine(code)
                swap, writes = decide(mine == _LESS, mine == _EQUAL, extra)
                told = np.where(swap, 1, 0)
                (flag,) = yield from team.broadcast(scratch, (told,))
            finally:
                _release(m, scratch)
            exchange = team.own(flag != 0)
            yield Step(
                team.acting(),
                writes=(
                    Write(a, team.own(ii * self.d + team.rank), np.where(exchange, y, x)),
                    Write(a, team.own(jj * self.d + team.rank), np.where(exchange, x, y)),
                    *(team.widen_write(w) for w in writes),
                ),
            )
        finally:
            team.release()

    def _serial_exchange(
        self, pid: Words, a: Array, i: Words, j: Words, decide: Decision, reads: Sequence[Read]
    ) -> Program[None]:
        """The serial comparator: scan d bit pairs, decide, write d bit pairs back."""
        d = self.d
        first_i, first_j = i * d, j * d
        lt, eq, x, y, extra = yield from self._scan(pid, a, i, a, j, reads)
        swap, writes = decide(lt, eq, extra)
        exchange = np.where(swap, True, False)
        low = np.where(exchange, y, x)  # what goes to a[i]
        high = np.where(exchange, x, y)  # what goes to a[j]
        for k in range(d):
            shift = np.uint64(d - 1 - k)
            yield Step(
                pid,
                writes=(
                    Write(a, first_i + k, ((low >> shift) & np.uint64(1)).astype(np.int64)),
                    Write(a, first_j + k, ((high >> shift) & np.uint64(1)).astype(np.int64)),
                    *(writes if k == d - 1 else ()),
                ),
            )


def bit_keys(d: int, comparator: str = "serial") -> BitKeys:
    """The bit representation: d cells of one bit per token."""
    return BitKeys(d, comparator)


# ---- the team of processors of one token operation ---------------------------------------------


class _Team:
    """d processors per token operation: the operation's own processor (rank 0) and d-1 helpers.

    Members are laid out operation-major: member ``q d + k`` is rank ``k`` of operation ``q``.
    Each member owns the scratch cells ``[2 (q d + k), 2 (q d + k) + 2)``. The helpers come
    from the machine's pool of helper processors (:func:`_helpers`); :meth:`release` returns
    them once the operation's last step is done.

    When the operations' processors chose themselves by their data (a register selected by a
    mask), their number is data: the team is sized from the processors they were chosen from
    (a size), every one of those leads its team through the first broadcast (the operations
    that do not act send -1 as their first index), and from then on only the members whose
    index arrived act (:attr:`active`), each having learnt it from memory. The broadcast is
    charged for every team; the rest only for the teams that act.
    """

    def __init__(self, m: Machine, pid: Words | Register, d: int) -> None:
        self.m = m
        self.d = d
        #: The operations' own processors, when they chose themselves by data.
        self.chosen: Register | None = pid if isinstance(pid, Register) and chosen(pid) else None
        if self.chosen is not None:
            self.parent = processors(widen(self.chosen, -1))
        elif isinstance(pid, Register):
            self.parent = processors(pid)
        else:
            self.parent = pid
        c = len(self.parent)
        self.size = c * d
        self.rank = np.tile(iota(d), c)
        self.lead = self.rank == 0
        self._helpers = _helpers(m, c * (d - 1))
        ids = np.empty(self.size, dtype=np.int64)
        ids[self.lead] = self.parent
        ids[~self.lead] = self._helpers[: c * (d - 1)]
        self.ids = freeze(ids)  # immutable: every register of the team is bound to these ids
        self.cell = _SLOTS * iota(self.size)
        #: The members that act (a register mask of all members), once the first broadcast
        #: told them; None while every member acts.
        self.active: Register | None = None

    def release(self) -> None:
        """Return the helpers to the pool: the operation has made its last step."""
        _release_helpers(self.m, self._helpers)

    def part(self, mask: Flags) -> Any:
        """The members where plain ``mask`` holds, among those that act."""
        return mask if self.active is None else self.active & mask

    def of(self, x: Any, part: Any) -> Any:
        """The entries of ``x`` (plain, or a register of all members) for ``part`` (a plain
        mask, or a register mask of all members)."""
        if not isinstance(part, Register):
            return x[part]
        return (x if isinstance(x, Register) else hold(self.ids, x))[part]

    def acting(self) -> Any:
        """The members that act: all of them, or those the first broadcast told."""
        if self.active is None:
            return self.ids
        return hold(self.ids, self.ids)[self.active]

    def own(self, x: Any) -> Any:
        """A register of all members as one of the members that act."""
        return x if self.active is None else x[self.active]

    def mine(self, register: Register) -> Register:
        """The rank-0 members' entries of ``register``: the operation's own processor's."""
        if self.chosen is None:
            return register[self.lead]  # type: ignore[no-any-return]
        full = widen(register, 0) if chosen(register) else register
        return narrow(hold(self.parent, full[self.lead]), self.chosen)

    def _widen(self, x: Any, fill: Any = 0) -> Any:
        """A per-operation array (aligned with ``pid``) as a per-member one, at rank 0 only."""
        if not isinstance(x, np.ndarray | Register):
            return x
        if isinstance(x, Register) and chosen(x):
            x = widen(x, fill)
        full = hold(self.ids, np.zeros(1, dtype=x.dtype) + fill)
        full[self.lead] = x
        return full

    def _where(self, where: Any) -> Any:
        lead = self.lead if where is None else self._widen(where, False)
        return self.own(hold(self.ids, lead)) if self.active is not None else lead

    def widen_read(self, read: Read) -> Read:
        """The operation's own processor's read, as a read of the team (others stay idle)."""
        index = self._widen(read.index)
        if self.active is not None:
            index = self.own(index if isinstance(index, Register) else hold(self.ids, index))
        return Read(read.array, index, self._where(read.where))

    def widen_write(self, write: Write) -> Write:
        """The operation's own processor's write, as a write of the team (others stay idle)."""
        index, value = self._widen(write.index), self._widen(write.value)
        if self.active is not None:
            index = self.own(index if isinstance(index, Register) else hold(self.ids, index))
            value = self.own(value if isinstance(value, Register) else hold(self.ids, value))
        return Write(write.array, index, value, self._where(write.where))

    def broadcast(self, scratch: Array, registers: tuple[Any, ...]) -> Program[tuple[Any, ...]]:
        """Spread rank 0's ``registers`` (one or two, aligned with ``pid``) to every member.

        Doubling: in round r the members of rank below 2^r each write to the scratch cell of
        the member 2^r above them, which reads it in the next step: 2 steps per round,
        ceil(log2 d) rounds, every cell written once and read once.

        The first broadcast of operations whose processors chose themselves by data tells each
        member whether it acts: the first register goes out tagged with a stamp of this
        broadcast (the time it starts, a size; see :data:`_INDEX_BITS`), only members that
        hold a valid tag send, and
        every member of rank 2^r..2^(r+1)-1 of every team reads in round r; a member whose
        cell holds no valid tag (a value an earlier operation left, or the scratch's initial
        -1) does not act from then on.
        """
        first = self.chosen is not None and self.active is None
        stamp = 0
        if first:
            if self.d == 1:
                self.active = widen(hold(cast(Register, self.chosen), True), False)
                return tuple(self._widen(r) for r in registers)
            stamp = (self.m.cost.time + _STAMP_FLOOR) % (1 << _STAMP_BITS)
            registers = (-1 - (registers[0] + (stamp << _INDEX_BITS)), *registers[1:])
        known = [
            self._widen(r if isinstance(r, Register) else np.asarray(r, np.int64),
                        -1 if first and s == 0 else 0)
            for s, r in enumerate(registers)
        ]
        span = 1
        while span < self.d:
            sending = (self.rank < span) & (self.rank + span < self.d)
            send = (_tagged(known[0], stamp) & sending) if first else self.part(sending)
            yield Step(
                self.of(self.ids, send),
                writes=tuple(
                    Write(scratch, self.of(self.cell + _SLOTS * span, send) + s, r[send])
                    for s, r in enumerate(known)
                ),
            )
            get = (self.rank >= span) & (self.rank < 2 * span)
            if not first:
                get = self.part(get)
            at = self.of(self.cell, get)
            got = yield Step(
                self.of(self.ids, get),
                reads=tuple(Read(scratch, at + s) for s in range(len(known))),
            )
            for r, value in zip(known, got, strict=True):
                r[get] = value
            span *= 2
        if first:
            self.active = _tagged(known[0], stamp)  # each member learnt from memory
            known[0] = (-1 - known[0]) & ((1 << _INDEX_BITS) - 1)
        return tuple(known)

    def reduce(self, scratch: Array, code: Register) -> Program[Register]:
        """Find each operation's most significant differing bit: its code reaches rank 0.

        A binary tree over the ranks: in round r the member of rank ``q 2^(r+1) + 2^r`` writes
        its code to its scratch cell and the member ``2^r`` below it reads it in the next step,
        keeping its own code unless that says "equal so far" (its bits are more significant).
        2 steps per round, ceil(log2 d) rounds; d - 1 combines per operation.
        """
        code = widen(code, _EQUAL) if chosen(code) else code.copy()
        span = 1
        while span < self.d:
            send = self.part(self.rank % (2 * span) == span)
            yield Step(
                self.of(self.ids, send),
                writes=(Write(scratch, self.of(self.cell, send), code[send]),),
            )
            get = self.part((self.rank % (2 * span) == 0) & (self.rank + span < self.d))
            (lower,) = yield Step(
                self.of(self.ids, get),
                reads=(Read(scratch, self.of(self.cell + _SLOTS * span, get)),),
            )
            code[get] = np.where(code[get] != _EQUAL, code[get], lower)
            span *= 2
        return code


# ---- scratch cells, reused across token operations of one machine -------------------------------

_POOLS: weakref.WeakKeyDictionary[Machine, list[Array]] = weakref.WeakKeyDictionary()
_COUNTS: weakref.WeakKeyDictionary[Machine, int] = weakref.WeakKeyDictionary()


def _tagged(first: Register, stamp: int) -> Register:
    """Which members hold a value tagged with ``stamp``: those that act."""
    tagged: Register = (first < -1) & (((-1 - first) >> _INDEX_BITS) == stamp)
    return tagged


def _scratch(m: Machine, size: int) -> Array:
    """A scratch array of at least ``size`` cells that no running token operation holds.

    Operations running side by side (parallel branches) get distinct arrays; a finished one
    returns its array for reuse, so scratch memory tracks the peak, not the total, of demand.
    """
    free = _POOLS.setdefault(m, [])
    for n, array in enumerate(free):
        if array.size >= size:
            return free.pop(n)
    count = _COUNTS.get(m, 0)
    _COUNTS[m] = count + 1
    rounded = 1 << (size - 1).bit_length() if size > 1 else 1  # a power of two: easy to reuse
    # Every cell starts at -1 (host input, like any array's values): a member told nothing by a
    # first broadcast reads a defined cell that holds no valid tag.
    return m.array(f"bit-keys scratch {count}", values=np.full(rounded, -1, dtype=np.int64))


def _release(m: Machine, array: Array) -> None:
    _POOLS.setdefault(m, []).append(array)


# ---- helper processors, reused across token operations of one machine --------------------------

_HELPERS: weakref.WeakKeyDictionary[Machine, list[Words]] = weakref.WeakKeyDictionary()


def _helpers(m: Machine, n: int) -> Words:
    """At least ``n`` helper processor ids that no running token operation holds.

    Operations running side by side (parallel branches) get disjoint ids, so no processor acts
    twice in a step; a finished one returns its ids for reuse, so the machine hands out as many
    helper ids as the peak demand, not one set per operation (which would grow with the run).
    The smallest free block that is large enough is taken; new blocks are powers of two.
    """
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    free = _HELPERS.setdefault(m, [])
    best = -1
    for k, block in enumerate(free):
        if len(block) >= n and (best < 0 or len(block) < len(free[best])):
            best = k
    if best >= 0:
        return free.pop(best)
    return m.processors(1 << (n - 1).bit_length())


def _release_helpers(m: Machine, block: Words) -> None:
    if len(block):
        _HELPERS.setdefault(m, []).append(block)


__all__ = ["COMPARATORS", "MAX_D", "BitKeys", "bit_keys"]
