"""Measure a batched data-dependent loop: B instances, each with its own round count, on one
batched machine against B single runs.

Instance i counts a cell of memory up to its own limit (1 + i by default, so every instance
ends its loop after a different number of rounds), the loop ended by a loop test
(``pram.Until``), then does one more step after the loop. The batched run is timed (reading
every instance's ledger too) against B single runs of the same program, in this process,
each side several times, the least time of each kept; the figure is batched time over the
single runs' total (below 1: the batch is faster). The counts of every instance equal its
single run's (asserted here once, and by tests/test_batch_loops.py).

``--counted`` runs the same loop with its rounds also counted by the host in a local and
used after it (one more step a round): an instance that ended early cannot rejoin the batch
there (the count differs), so each runs in a later pass of its own, as every instance did
before instances were parked.

Run it from the top of the checkout: ``python benchmarks/batch_loops.py [--batch 200]
[--counted]``.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from pram import Machine, Read, Step, Until, Write
from pram.reports import bench


def counting(m: Machine, count: Any, limit: Any, flag: Any, out: Any,
             host_counts: bool = False) -> Any:
    """Count ``count[0]`` up to ``limit[0]`` through memory; then ``out[0] = count[0]`` (plus
    the rounds, counted by the host in a local, with ``host_counts``: no rejoin then, since
    that local differs between instances that ended apart)."""
    control = m.processors(1)
    rounds = 0
    while True:
        rounds += host_counts
        (x, top) = yield Step(control, reads=[Read(count, 0), Read(limit, 0)])
        yield Step(control, writes=[Write(count, 0, x + 1),
                                    Write(flag, 0, np.where(x + 1 >= top, 1, 0))])
        if (yield Until(flag, 0, control)):
            break
    (y,) = yield Step(control, reads=[Read(count, 0)])
    yield Step(control, writes=[Write(out, 0, y + rounds)])
    return y


def counted(m: Machine, count: Any, limit: Any, flag: Any, out: Any) -> Any:
    """:func:`counting`, its rounds counted by the host and used after the loop."""
    return counting(m, count, limit, flag, out, host_counts=True)


PROGRAM = counting


def _inputs(batch: int) -> dict[str, Any]:
    return {"count": np.zeros((batch, 1), np.int64),
            "limit": (1 + np.arange(batch, dtype=np.int64))[:, None],
            "flag": np.zeros((batch, 1), np.int64), "out": np.zeros((batch, 1), np.int64)}


def batched(batch: int) -> Machine:
    """One machine of ``batch`` instances running :func:`counting`, its ledgers read."""
    m = Machine("erew", batch=batch)
    a = {name: m.array(name, values=v) for name, v in _inputs(batch).items()}
    m.run(PROGRAM(m, a["count"], a["limit"], a["flag"], a["out"]))
    _ = m.costs
    return m


def singles(batch: int) -> list[Machine]:
    """``batch`` single machines, instance i's input on the i-th, each running
    :func:`counting`."""
    made = []
    for i, row in enumerate(zip(*_inputs(batch).values(), strict=True)):
        s = Machine("erew")
        a = {name: s.array(name, values=v) for name, v in zip(_inputs(1), row, strict=True)}
        s.run(PROGRAM(s, a["count"], a["limit"], a["flag"], a["out"]))
        assert s.cost.loop_tests == i + 1
        made.append(s)
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--counted", action="store_true",
                        help="rounds counted by the host too (a later pass per instance)")
    args = parser.parse_args()
    global PROGRAM
    PROGRAM = counted if args.counted else counting
    m, ones = batched(args.batch), singles(args.batch)
    assert list(m.costs) == [s.cost for s in ones]  # every instance as its single run
    together = bench._best(lambda: batched(args.batch), args.repeat)
    apart = bench._best(lambda: singles(args.batch), args.repeat)
    shape = " (rounds counted by the host)" if args.counted else ""
    print(f"{args.batch} instances, round counts 1..{args.batch}{shape}: batched {together:.3f} s, "
          f"{args.batch} single runs {apart:.3f} s, batched / single runs = "
          f"{together / apart:.3f}")


if __name__ == "__main__":
    main()
