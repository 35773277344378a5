"""Whole programs against raw numpy doing the same gathers and scatters.

For prefix sums (Brent and Kung), the bitonic sorting network (``networks.sort`` on word keys)
and the project's record sort (``sorting.sort``) at n = 1,024, this script records one run's
trace (``Machine(trace=True)``: every port's cells and the values written), then times, round
for round in one process so that the machine's load falls on both alike:

- ``machine``: a fresh EREW machine running the program (allocation and the run, untraced);
- ``numpy``: the trace replayed by raw numpy, each step's gathers (``a[cells]``) and scatters
  (``a[cells] = values``) in order, on plain arrays of the same sizes: the same memory
  traffic with no program, no register, no check and no count;
- ``numpy program`` (prefix sums and the network only): the same algorithm written for numpy,
  level by level: the same index arithmetic, gathers, operation and scatters, with no
  machine (checked against ``np.cumsum`` and ``np.sort``).

It prints the shortest time of each and the machine's over each numpy's. Run it from the top of the
checkout::

    python benchmarks/programs_floor.py --repeats 20

It is a benchmark, not a test: nothing asserts on the figures.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np

from pram import Machine
from pram.reports import bench

N = bench.PROGRAM_N


def _sums(m: Machine, values: np.ndarray) -> None:
    from pram.algorithms import primitives

    m.run(primitives.prefix_sums(m, m.array("a", values=values), len(values)))


def _network(m: Machine, values: np.ndarray) -> None:
    from pram.algorithms import networks

    m.run(networks.sort(m, m.array("a", values=values), "bitonic"))


def _records(m: Machine, values: np.ndarray) -> None:
    from pram.algorithms import sorting

    sorting.sort(m, values)


def _numpy_sums(values: np.ndarray) -> np.ndarray:
    """Brent and Kung's prefix sums in numpy, the levels of ``primitives.prefix_sums``."""
    a = values.copy()
    size = len(a)
    half = 1
    while 2 * half <= size:
        span = 2 * half
        right = np.arange(size // span, dtype=np.int64) * span + span - 1
        a[right] = a[right - half] + a[right]
        half = span
    while half >= 1:
        span = 2 * half
        count = (size - half) // span if size >= half else 0
        if count > 0 and 3 * half <= size:
            done = (np.arange(count, dtype=np.int64) + 1) * span - 1
            a[done + half] = a[done] + a[done + half]
        half //= 2
    return a


def _numpy_network(values: np.ndarray) -> np.ndarray:
    """The bitonic sorting network in numpy, the levels of ``networks.sort``."""
    from pram.algorithms import networks

    a = values.copy()
    for level in networks.levels("sort", "bitonic", len(a)):
        lo, hi = level.pairs(np.arange(level.count, dtype=np.int64))
        x, y = a[lo], a[hi]
        a[lo] = np.minimum(x, y)
        a[hi] = np.maximum(x, y)
    return a


#: The numpy programs, with what each must compute.
NUMPY_PROGRAMS = {"prefix-sums": (_numpy_sums, np.cumsum),
                  "bitonic-network": (_numpy_network, np.sort)}

PROGRAMS: dict[str, Callable[[Machine, np.ndarray], None]] = {
    "prefix-sums": _sums, "bitonic-network": _network, "record-sort": _records}


def replay(program: Callable[[Machine, np.ndarray], None], values: np.ndarray
           ) -> tuple[Callable[[], object], int]:
    """A call doing the gathers and scatters of ``program``'s run on ``values`` with numpy,
    and the run's steps."""
    m = Machine("erew", trace=True)
    program(m, values)
    trace = m.trace
    sizes = {name: int(np.prod(a.shape)) for name, a in trace.arrays.items()}
    ports = [[(a.kind == "write", a.array, a.cells, a.values) for a in s.accesses]
             for s in trace.steps]

    def numpy() -> None:
        memory = {name: np.zeros(size, dtype=np.int64) for name, size in sizes.items()}
        for step in ports:
            for write, name, cells, written in step:
                if write:
                    memory[name][cells] = written
                else:
                    memory[name][cells]

    return numpy, len(ports)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    values = np.random.default_rng(0).permutation(N).astype(np.int64)
    print(f"{'program':>16} {'steps':>6} {'machine':>10} {'numpy':>10} {'ratio':>7} "
          f"{'numpy program':>14} {'ratio':>7}")
    for name, program in PROGRAMS.items():
        numpy, steps = replay(program, values)

        def machine(program: Callable[[Machine, np.ndarray], None] = program) -> None:
            program(Machine("erew"), values)

        machine()
        numpy()
        best_machine, best_numpy = bench._paired(machine, numpy, args.repeats)
        line = (f"{name:>16} {steps:>6} {best_machine * 1e3:8.3f}ms {best_numpy * 1e3:8.3f}ms "
                f"{best_machine / best_numpy:6.1f}x")
        if name in NUMPY_PROGRAMS:
            own, expected = NUMPY_PROGRAMS[name]
            if not np.array_equal(own(values), expected(values)):
                raise AssertionError(f"the numpy {name} must answer right")
            again, best_own = bench._paired(machine, lambda own=own: own(values), args.repeats)
            line += f" {best_own * 1e3:12.3f}ms {min(best_machine, again) / best_own:6.1f}x"
        print(line)


if __name__ == "__main__":
    main()
