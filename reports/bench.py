"""Simulator throughput: how fast the machine's own bookkeeping runs.

:func:`measure` times one large step (2^20 processors, one read and one write each, every
access checked under EREW), once with contiguous addresses and once with the addresses in
random order, and the cost of one tiny step (a single processor). It returns the JSON shape of
``pram bench --json``. These are benchmarks, never tests: nothing asserts on the figures.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from pram import Machine, Program, Read, Step, Words, Write

#: Processors of the large step.
LARGE = 1 << 20


def _best(run: Callable[[], object], repeats: int) -> float:
    """The shortest wall time of ``repeats`` calls of ``run``, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _large_step(order: Words, repeats: int) -> float:
    """Seconds for one EREW step of ``len(order)`` processors reading ``a[order]`` and writing
    ``b[order]``."""
    n = len(order)
    m = Machine("erew")
    a = m.array("a", values=np.arange(n, dtype=np.int64))
    b = m.array("b", values=np.zeros(n, dtype=np.int64))
    pid = m.processors(n)
    value = np.ones(n, dtype=np.int64)
    step = Step(pid, reads=(Read(a, order),), writes=(Write(b, order, value),))
    m.execute((step,))  # warm up: lazily allocated scratch, caches
    seconds = _best(lambda: m.execute((step,)), repeats)
    if m.violations:
        raise AssertionError("the benchmark step must be conflict-free under EREW")
    return seconds


def _tiny_step(processors: int, steps: int) -> float:
    """Seconds per step of ``processors`` processors each reading and writing one cell."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(processors, dtype=np.int64))
    b = m.array("b", values=np.zeros(processors, dtype=np.int64))
    pid = m.processors(processors)
    step = Step(pid, reads=(Read(a, pid),), writes=(Write(b, pid, pid),))

    def program() -> Program[None]:
        for _ in range(steps):
            yield step

    m.run(program())  # warm up
    return _best(lambda: m.run(program()), 5) / steps


def measure(*, processors: int = LARGE, repeats: int = 5, seed: int = 0) -> dict[str, Any]:
    """Time the machine and return ``{"large_step": {...}, "tiny_step": {...}}`` (cli.md)."""
    contiguous = np.arange(processors, dtype=np.int64)
    shuffled = np.random.default_rng(seed).permutation(processors).astype(np.int64)
    large = _large_step(contiguous, repeats)
    large_random = _large_step(shuffled, repeats)
    tiny = _tiny_step(1, 2000)
    return {
        "large_step": {
            "processors": processors,
            "processor_steps_per_second": processors / large,
            "random_order_processor_steps_per_second": processors / large_random,
        },
        "tiny_step": {"processors": 1, "seconds_per_step": tiny},
    }


def tiny_steps(sizes: tuple[int, ...] = (1, 2, 4, 8), steps: int = 2000) -> dict[int, float]:
    """Seconds per tiny step for each number of processors in ``sizes`` (1 to 8 by default)."""
    return {p: _tiny_step(p, steps) for p in sizes}


if __name__ == "__main__":
    import json

    print(json.dumps(measure(), indent=2))
    print(json.dumps(tiny_steps(), indent=2))
