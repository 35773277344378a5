"""Measure the engine's thresholds: where each of its two-way choices changes sides.

Every threshold of the engine chooses between two exact tests of one question, so moving it
changes no count, only the time. This script times both sides of each choice on this machine,
with the engine's own code (the threshold is set to always take one side, then the other),
and prints where the faster side changes. The comments beside the thresholds cite its output:

- ``python-or-numpy``: ``pram.engine.conflicts.SMALL`` (24). Up to this many accesses to an array
  or processors in a step, the bounds check, the conflict test and the processor check loop
  in Python over ``tolist()``; above it they call numpy. Timed: each of the three on n
  processors in random order, both ways.
- ``probe``: ``pram.engine.memo.PROBE_ABOVE`` (4096). Index arrays longer than this are probed in
  Python (their first eight entries) before the numpy order test. Timed: the order test of an
  array of n entries in random order, with and without the probe, and the probe's own cost.
- ``order``: ``pram.engine.memo.ORDER_IN_PYTHON`` (24). Index arrays of at most this many entries
  are tested for order in Python; longer ones by numpy. Timed: the order test of n ascending
  entries, both ways.
- ``id-table``: ``pram.engine.conflicts.ID_TABLE_FLOOR`` (2^23). Processor ids spread over a span of
  at most this many (or 4 per processor) are checked with a table indexed by id, wider spreads
  are sorted. Timed: the processor check of n ids in random order spread over a span, both ways.
- ``gather``: ``pram.engine.fast.GATHER_BY_INDEX`` (384). Gathers of at most this many cells
  index the cells, longer ones call ``take`` (read-only indices always index: take copies
  them first). Timed: a gather of n cells, both ways, by writeable and by read-only indices.

Run it from the top of the checkout: ``python benchmarks/thresholds.py``. It takes about a
minute; the figures vary with the machine and its load, the crossovers much less.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

import numpy as np

from pram import Machine, Step, Words
from pram.engine import conflicts as _conflicts
from pram.engine import core as _engine
from pram.engine import memo as _memo
from pram.engine.memo import Scratch, StepMemo
from pram.engine.validate import Port


def best(run: Callable[[], object], repeats: int = 50, number: int = 20) -> float:
    """The shortest time of one call of ``run``, in microseconds."""
    shortest = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            run()
        shortest = min(shortest, (time.perf_counter() - start) / number)
    return shortest * 1e6


@contextmanager
def small(value: int) -> Iterator[None]:
    """``SMALL`` set to ``value`` where the engine reads it."""
    saved = _conflicts.SMALL
    _conflicts.SMALL = value
    try:
        yield
    finally:
        _conflicts.SMALL = saved


#: An engine whose bounds check the benchmark times (a single machine's).
_ENGINE = _engine.Engine(Machine("erew"))  # type: ignore[arg-type]


def check_bounds(port: Port) -> None:
    _ENGINE._check_bounds(port, 1, StepMemo())


def check_processors(step: Step, n: int, scratch: Scratch) -> None:
    _conflicts.check_processors([step], n, 1, StepMemo(), scratch)


def order_test(values: Words) -> None:
    _memo.ascending(values, StepMemo())


def python_or_numpy() -> None:
    print("python-or-numpy (us): Python loop, numpy, for n processors in random order")
    print("  bounds: one port of n cells in random order; processors: the check of n ids;")
    print("  cells: the conflict test of two such ports (2 n accesses)")
    rng = np.random.default_rng(1)
    for n in (8, 16, 24, 32, 48, 64, 96, 128):
        m = Machine("erew", fast_path=False)
        a = m.array("a", values=np.arange(4 * n))
        step = Step(rng.permutation(np.asarray(m.processors(n))))
        ports = [Port(step, 0, 0, a, rng.permutation(4 * n)[:n].astype(np.int64), None, None)
                 for _ in range(2)]
        cells: list[_conflicts.Cells] = [(port.index, port.rank, None) for port in ports]
        scratch = Scratch()
        bounds, processors = [], []
        for value in (10**9, 0):
            with small(value):
                bounds.append(best(partial(check_bounds, ports[0])))
                processors.append(best(partial(check_processors, step, n, scratch)))
        python = best(partial(_conflicts.few_distinct_cells, ports))
        table = best(partial(_conflicts.distinct_cells_once, cells, 4 * n, n, scratch, False,
                             False))
        print(f"  n={n:4}  bounds {bounds[0]:5.2f} {bounds[1]:5.2f}   processors "
              f"{processors[0]:5.2f} {processors[1]:5.2f}   cells {python:5.2f} {table:5.2f}")


def probe() -> None:
    print("probe: the order test of n entries in random order (us): without, with the probe;"
          " and of n ascending entries with the probe")
    saved = _memo.PROBE_ABOVE
    rng = np.random.default_rng(2)
    try:
        for n in (256, 1024, 2048, 4096, 8192, 16384, 65536):
            shuffled = rng.permutation(n).astype(np.int64)
            ordered = np.arange(n, dtype=np.int64)
            times = []
            for above, values in (
                (10**12, shuffled), (0, shuffled), (0, ordered), (10**12, ordered)
            ):
                _memo.PROBE_ABOVE = above
                times.append(best(partial(order_test, values)))
            print(f"  n={n:6}  {times[0]:7.2f}  {times[1]:7.2f}   ascending: {times[2]:7.2f} "
                  f"(without the probe {times[3]:7.2f})")
    finally:
        _memo.PROBE_ABOVE = saved


def order() -> None:
    print("order: the order test of n ascending entries (us): in Python, by numpy")
    saved = _memo.ORDER_IN_PYTHON
    try:
        for n in (2, 8, 16, 24, 32, 48, 64, 128):
            values = np.arange(0, 2 * n, 2, dtype=np.int64)
            times = []
            for limit in (10**9, 0):
                _memo.ORDER_IN_PYTHON = limit
                times.append(best(partial(order_test, values)))
            print(f"  n={n:4}  {times[0]:6.2f}  {times[1]:6.2f}")
    finally:
        _memo.ORDER_IN_PYTHON = saved


def id_table() -> None:
    print("id-table: the processor check of n ids in random order over a span (ms): table, sort")
    saved = _conflicts.ID_TABLE_FLOOR
    rng = np.random.default_rng(3)
    try:
        for n in (1 << 10, 1 << 16, 1 << 20):
            for span in (1 << 20, 1 << 23, 1 << 26):
                if span <= 4 * n:
                    continue  # the table always covers 4 ids per processor: nothing to sort
                ids = np.sort(rng.choice(span, n, replace=False)).astype(np.int64)
                step = Step(rng.permutation(ids))
                times = []
                for floor in (span, 0):  # the table covers the span, or 4 n < span: sorted
                    _conflicts.ID_TABLE_FLOOR = floor
                    run = partial(check_processors, step, n, Scratch())
                    times.append(best(run, repeats=5, number=3) / 1000)
                print(f"  n=2^{n.bit_length() - 1:<2} span=2^{span.bit_length() - 1:<2} "
                      f"{times[0]:8.3f}  {times[1]:8.3f}")
    finally:
        _conflicts.ID_TABLE_FLOOR = saved


def gather() -> None:
    print("gather: n cells gathered (us): by index, by take; by ascending writeable indices, "
          "and by the read-only ids Machine.processors hands out")
    for n in (8, 64, 256, 384, 512, 1024, 1 << 16):
        cells = np.arange(n, dtype=np.int64)
        for index in (np.arange(n, dtype=np.int64), Machine().processors(n)):
            times = [best(partial(cells.__getitem__, index)), best(partial(cells.take, index))]
            kind = "writeable" if index.flags.writeable else "read-only"
            print(f"  n={n:6} {kind:9}  {times[0]:8.2f}  {times[1]:8.2f}")


if __name__ == "__main__":
    python_or_numpy()
    probe()
    order()
    id_table()
    gather()
