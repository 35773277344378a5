"""Measure batched runs: the time per instance of ``Machine(batch=B)`` against a single run.

For each program (prefix sums and the bitonic sorting network at n = 2^10 by default, pbs and
MQAR with word keys, whose steps go through the general path), one single run and one batched
run of B instances are timed in turn, several times, and the least time of each is kept; the
ratio is single time over batched time per instance, measured in the same run of this script.
Each batched run includes reading every instance's ledger (``m.costs``). No count is timed:
the counts of every instance equal its single run's (tests/test_batch.py).

Run it from the top of the checkout: ``python benchmarks/batch.py [--n 1024] [--batch 64 1024]``.
The figures vary with the machine and its load (two shared cores give a spread of about 2 in
the single runs); the ratios vary less, since both sides are measured side by side.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from pram import Machine
from pram.algorithms import networks, pbs
from pram.algorithms.mqar import recall
from pram.algorithms.primitives import prefix_sums


def _prefix(m: Machine, rows: Any) -> None:
    a = m.array("a", values=rows)
    m.run(prefix_sums(m, a, a.size))


def _bitonic(m: Machine, rows: Any) -> None:
    a = m.array("a", values=rows)
    m.run(networks.sort(m, a, "bitonic"))


class _Done(Exception):
    """The host function's run is over (its reading of the output is not timed)."""


def _first_run(m: Machine, arrays: Callable[..., Any] | None = None) -> Machine:
    """``m`` stopping its host function after its first run (and allocating through
    ``arrays``, if given)."""
    program = m.run

    def stop(p: Any) -> None:
        program(p)
        raise _Done

    m.run = stop  # type: ignore[method-assign]
    if arrays is not None:
        m.array = arrays  # type: ignore[method-assign]
    return m


def _host(function: Callable[..., Any]) -> Callable[[Machine, Any], None]:
    """A host function of the catalogue (``function(m, *inputs)``, allocating its arrays
    from its inputs) run on one instance's inputs, or on a list of instances' inputs on a
    batched machine: its k-th array with values gets the k-th values of every instance,
    recorded beforehand on scratch machines (not timed)."""

    def run(m: Machine, inputs: Any) -> None:
        if m.batch is None:
            with contextlib.suppress(_Done):
                function(_first_run(m), *inputs)
            return
        given = inputs[1]
        allocate, count = m.array, [0]

        def substituting(name: str, size: Any = None, values: Any = None) -> Any:
            k = count[0]
            count[0] += 1
            if values is not None:
                values = np.stack([np.broadcast_to(calls[k], np.shape(values))
                                   for calls in given])
            return allocate(name, size, values)

        with contextlib.suppress(_Done):
            function(_first_run(m, substituting), *inputs[0][0])

    return run


def _recorded(function: Callable[..., Any], instances: list[Any]) -> Any:
    """Every instance's inputs, and the values each allocated its arrays with."""
    given = []
    for inputs in instances:
        s = Machine()
        calls: list[Any] = []
        allocate = s.array

        def recording(name: str, size: Any = None, values: Any = None,
                      _calls: list[Any] = calls, _allocate: Any = allocate) -> Any:
            _calls.append(None if values is None else np.array(values))
            return _allocate(name, size, values)

        with contextlib.suppress(_Done):
            function(_first_run(s, recording), *inputs)
        given.append(calls)
    return instances, given


def _time(run: Callable[[], Any]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def _together(program: Callable[[Machine, Any], None], batch: int, rows: Any) -> None:
    m = Machine(batch=batch)
    program(m, rows)
    _ = m.costs  # every instance's ledger, read


def measure(name: str, program: Callable[[Machine, Any], None], make: Callable[[int], Any],
            batches: list[int], repeats: int) -> None:
    """Print single and per-instance batched time of ``program`` for each batch size."""
    for batch in batches:
        rows = make(batch)
        first = rows[0][0] if isinstance(rows, tuple) else rows[0]
        single = batched = float("inf")
        for _ in range(repeats):
            single = min(single, _time(partial(program, Machine(), first)))
            batched = min(batched, _time(partial(_together, program, batch, rows)) / batch)
        print(f"{name:24} B={batch:5}  single {single * 1e6:9.0f} us   per instance "
              f"{batched * 1e6:8.1f} us   ratio {single / batched:6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1024, help="cells (tokens for MQAR)")
    parser.add_argument("--batch", type=int, nargs="+", default=[64, 1024])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    n, rng = args.n, np.random.default_rng(1)
    measure("prefix sums", _prefix, lambda b: rng.integers(0, 100, (b, n)), args.batch,
            args.repeats)
    measure("bitonic sort", _bitonic, lambda b: rng.integers(0, 100, (b, n)), args.batch,
            args.repeats)
    small = [b for b in args.batch if b <= 64] or args.batch[:1]
    keys = np.arange(0, 2 * 64, 2)

    def search(m: Machine, queries: Any) -> Any:
        return pbs.search(m, queries, keys)

    measure("pbs (64 queries)", _host(search), lambda b: _recorded(search, [
        (np.sort(rng.integers(0, 128, 64)),) for _ in range(b)]), small, args.repeats)
    measure("mqar (96 tokens)", _host(recall), lambda b: _recorded(recall, [
        (rng.integers(0, 16, 96),) for _ in range(b)]), small, args.repeats)


if __name__ == "__main__":
    main()
