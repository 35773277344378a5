"""What the engine remembers: within one global step, and between steps.

Within a step, :class:`StepMemo` keeps the answer of every test that could be asked twice
(is this index array ascending? do these ports touch distinct cells?), so no test runs twice
in one step. Between steps, :class:`Scratch` keeps two buffers that every check reuses (the
ranks of a step's processors, and the 32-bit table the rank tests scatter into), and
:class:`Ids` marks the processor ids :meth:`pram.Machine.processors` handed out as ascending
for good.

Words used here and in the engine: a processor's *rank* is its position among all the
processors of the global step (0, 1, ... across the parallel branches), small where ids may be
large, so a table of 32-bit ranks indexed by cell (or by id) tells whether two processors met
there. Ranges of ascending arrays are *disjoint* when no two ``[first, last]`` spans overlap.
"""

from __future__ import annotations

import operator
import weakref
from itertools import islice, pairwise

import numpy.typing as npt

from pram._numpy import np
from pram.memory import Words

#: The ranks of a global step's processors, in 32 bits (see :class:`Scratch`).
Ranks = npt.NDArray[np.int32]

#: Ranks must fit the 32-bit table; a global step of more processors goes to the slow path.
#: (A limit of the type, not a measured threshold.)
RANKS_MAX = int(np.iinfo(np.int32).max)

#: Index arrays longer than this are probed in Python (their first eight entries) before the
#: numpy pass of the order test, which a random order then skips. Measured
#: (benchmarks/thresholds.py, "probe"): the probe costs 1.3 to 1.4 us at any length; the pass
#: it spares costs 1.6 us at 256 entries, 2.6 us at 4,096 and 15 us at 65,536; on an
#: ascending array, the usual case, the probe adds 0.7 us. From 4,096 on it saves about twice
#: what it costs where it fails; below 2,048 it would save less than it costs.
PROBE_ABOVE = 4096


#: Index arrays of at most this many entries are tested for order in Python (over
#: ``tolist()``), longer ones by numpy. Measured (benchmarks/thresholds.py, "order"), the
#: whole test: Python takes 0.8 us at 2 entries, 1.0 us at 8 and 1.3 us at 24, numpy 1.6 us
#: at any of them; from 48 entries on numpy is quicker (1.6 us against 1.9).
ORDER_IN_PYTHON = 24


class StepMemo:
    """What one global step learnt, so that no test runs twice in it: for each index array
    (by id, kept alive beside) whether its entries are strictly ascending, and for each list
    of ports (by the ids of their indices and masks, which their ports keep alive, and their
    first ranks) whether they touch distinct cells."""

    __slots__ = ("ascending", "distinct")

    def __init__(self) -> None:
        self.ascending: dict[int, tuple[Words, bool]] = {}
        self.distinct: dict[tuple[tuple[int, int, int], ...], bool] = {}


class Ids(bytes):
    """The memory of ids handed out by :meth:`pram.Machine.processors`: ascending, and
    immutable (numpy refuses to make an array over bytes writeable), so never tested again. It
    knows the one array handed out over it: another array over the same bytes (other types,
    other offsets) is tested like any other."""

    handed_out: weakref.ref[Words]


def handed_out(first: int, n: int) -> Words:
    """The ids ``first, ..., first + n - 1`` in immutable memory that :func:`ascending` knows."""
    memory = Ids(np.arange(first, first + n, dtype=np.int64).tobytes())
    ids: Words = np.frombuffer(memory, dtype=np.int64)
    # Known only where its words start on 8-byte boundaries (then so do its aligned views'):
    # elsewhere the ids are tested like any others.
    memory.handed_out = weakref.ref(ids if ids.flags.aligned else np.zeros(0, np.int64))
    return ids


#: The size of a word: an aligned view of the handed-out ids with a positive stride that is
#: a multiple of it reads whole ids, in their order.
_WORD_BYTES = np.dtype(np.int64).itemsize


def ascending(values: Words, memo: StepMemo) -> bool:
    """Whether ``values`` (more than one) are strictly ascending. A long array's first eight
    are probed in Python first, which spares the numpy pass over a random order."""
    memory = values.base
    if isinstance(memory, Ids) and memory.handed_out() is values:
        return True  # exactly the ids Machine.processors handed out (views have other bases)
    if type(memory) is np.ndarray and isinstance(memory.base, Ids) \
            and memory.base.handed_out() is memory and values.dtype is memory.dtype \
            and values.ndim == 1 and values.strides[0] > 0 \
            and values.strides[0] % _WORD_BYTES == 0 and values.flags.aligned:
        # A view of them (numpy makes the array that holds the memory a view's base: slices
        # of the pool, rows of it reshaped): whole ids, at rising positions of an ascending
        # array, within it (slicing stays inside; numpy refuses a buffer it would overrun).
        return True
    known = memo.ascending
    seen = known.get(id(values))
    if seen is not None and seen[0] is values:
        return seen[1]
    n = len(values)
    if 0 < n <= ORDER_IN_PYTHON:
        cells = values.tolist()
        result = all(map(operator.lt, cells, islice(cells, 1, None)))
        known[id(values)] = (values, result)
        return result
    if n > PROBE_ABOVE:
        head = values[:8].tolist()
        if head != sorted(set(head)):
            known[id(values)] = (values, False)
            return False
    # count_nonzero skips the fixed cost of a ufunc reduction such as all().
    result = int(np.count_nonzero(np.greater(values[1:], values[:-1]))) == n - 1
    known[id(values)] = (values, result)
    return result


def disjoint(ascending: list[Words]) -> bool:
    """Whether the spans ``[first, last]`` of ascending arrays overlap nowhere; empty arrays
    have no span."""
    if len(ascending) == 1:
        return True
    if len(ascending) == 2:  # the usual pair of ports: no sorting
        a, b = ascending
        return not len(a) or not len(b) or a.item(-1) < b.item(0) or b.item(-1) < a.item(0)
    spans = sorted([(a.item(0), a.item(-1)) for a in ascending if len(a)])
    return all(last < first for (_, last), (first, _) in pairwise(spans))


class Scratch:
    """Buffers shared by every check of one machine, grown on demand and never shrunk."""

    __slots__ = ("_ranks", "_table")

    def __init__(self) -> None:
        self._ranks: Ranks = np.zeros(0, dtype=np.int32)
        self._table: Ranks = np.zeros(0, dtype=np.int32)

    def ranks(self, first: int, n: int) -> Ranks:
        """Ranks ``first, ..., first + n - 1`` (a view of one cached range; empty past 2^31)."""
        end = first + n
        if end > RANKS_MAX:
            return np.zeros(0, dtype=np.int32)  # too many for 32 bits: the check goes slow
        if end > len(self._ranks):
            self._ranks = np.arange(max(end, 2 * len(self._ranks)), dtype=np.int32)
        return self._ranks[first:end]

    def table(self, size: int) -> Ranks:
        """At least ``size`` entries of 32-bit scratch, shared by every rank test.

        Each test scatters ranks and gathers them back before the next one starts, so one
        buffer as large as the largest array tested serves them all (not one per array).
        """
        if len(self._table) < size:
            self._table = np.empty(size, dtype=np.int32)
        return self._table
