"""What a tiny step can cost in CPython: the floor under issue 24's tiny-step target.

The target is that a step of 1 to 64 processors costs at most 3 times a numpy gather and
scatter of the same size. This script times, in one run and round for round (so the machine's
load falls on every column alike), per step of ``p`` processors:

- ``numpy``: the gather and the scatter alone, ``a[index]; b[index] = index``;
- ``generator``: a program's generator resumed once per step, the host doing that gather and
  scatter between resumes: what any executor of generator programs pays, with no check, no
  register and no count;
- ``+ register, ledger``: the same, with the value read handed back in a register (as every
  read is, so that a program cannot move it between processors but through memory) and the
  step's time, work, reads and writes added to a ledger: still no check of any kind;
- ``machine``: the machine's own step (``pram bench``'s ``tiny, over numpy`` program), which
  also validates the ports, checks the processors, the bounds and the model's conflicts.

Each column is printed as nanoseconds per step and as a ratio to numpy. Run it from the top of
the checkout::

    python benchmarks/tiny_floor.py --steps 20000 --repeats 9

It is a benchmark, not a test: nothing asserts on the figures.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Generator
from typing import Any

import numpy as np

from pram.registers import Register
from pram.reports import bench


class _Ledger:
    __slots__ = ("reads", "time", "work", "writes")

    def __init__(self) -> None:
        self.time = self.work = self.reads = self.writes = 0


def columns(processors: int, steps: int) -> dict[str, Callable[[], object]]:
    """The four timed loops of ``steps`` steps of ``processors`` processors each."""
    a = np.arange(processors, dtype=np.int64)
    b = np.zeros(processors, dtype=np.int64)
    index = np.arange(processors, dtype=np.int64)
    index.flags.writeable = False
    ledger = _Ledger()

    def numpy() -> None:
        for _ in range(steps):
            a[index]
            b[index] = index

    def program() -> Generator[tuple[Any, Any], object, None]:
        for _ in range(steps):
            yield index, index

    def generator() -> None:
        steps_of = program()
        step = next(steps_of)
        try:
            while True:
                value = a[step[0]]
                b[step[1]] = index
                step = steps_of.send(value)
        except StopIteration:
            pass

    def registered() -> None:
        steps_of = program()
        step = next(steps_of)
        try:
            while True:
                value = Register(a.take(step[0]), index, None)
                b[step[1]] = index
                n = len(index)
                ledger.time += 1
                ledger.work += n
                ledger.reads += n
                ledger.writes += n
                step = steps_of.send((value,))
        except StopIteration:
            pass

    return {"numpy": numpy, "generator": generator, "+ register, ledger": registered,
            "machine": bench._step_program(processors, steps)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    print(f"{'processors':>10}  " + "  ".join(f"{name:>26}" for name in columns(1, 1)))
    for p in bench.TINY:
        loops = columns(p, args.steps)
        best = dict.fromkeys(loops, float("inf"))
        for _ in range(args.repeats):  # round for round: every column sees the same load
            for name, loop in loops.items():
                best[name] = min(best[name], bench._best(loop, 1))
        numpy = best["numpy"]
        cells = [f"{best[name] / args.steps * 1e9:8.0f} ns ({best[name] / numpy:5.2f}x)"
                 for name in loops]
        print(f"{p:>10}  " + "  ".join(f"{cell:>26}" for cell in cells))


if __name__ == "__main__":
    main()
