"""Simulator throughput: how fast the machine's own bookkeeping runs, and against raw numpy.

:func:`measure` times one large step (2^20 processors, one read and one write each, every
access checked under EREW), once with contiguous addresses and once with the addresses in
random order, the cost of one tiny step (a single processor), the cost per step of a program
of small steps (64 and 1024 processors) and of tiny ones (1, 8 and 64), and two whole
programs of small steps (prefix sums and the project's sort of 1024 values), and prefix sums,
the bitonic sorting network and that sort batched, B instances in lockstep on one machine, per
instance beside a single run of the same program (:func:`batched`). Beside each large, small
and tiny figure it times raw numpy doing the same gather and scatter in the same run, round
for round, and reports the machine's time over numpy's. It returns the JSON shape of
``pram bench --json``. These are benchmarks, never tests: nothing asserts on the figures."""

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


#: Processors of the small steps compared with numpy.
SMALL = (64, 1024)

#: Processors of the tiny steps compared with numpy (issue 24's target: at most 3 times a
#: numpy gather and scatter of the same size).
TINY = (1, 8, 64)


def _paired(
    machine: Callable[[], object], numpy: Callable[[], object], repeats: int
) -> tuple[float, float]:
    """The shortest wall times of ``machine`` and of ``numpy`` over ``repeats`` rounds, each
    round timing one then the other, so both see the same load."""
    best_machine = best_numpy = float("inf")
    for _ in range(repeats):
        best_machine = min(best_machine, _best(machine, 1))
        best_numpy = min(best_numpy, _best(numpy, 1))
    return best_machine, best_numpy


def _large_step(order: Words, repeats: int) -> tuple[float, float]:
    """Seconds for one EREW step of ``len(order)`` processors reading ``a[order]`` and writing
    ``b[order]``, and for numpy doing the same gather and scatter."""
    n = len(order)
    m = Machine("erew")
    a = m.array("a", values=np.arange(n, dtype=np.int64))
    b = m.array("b", values=np.zeros(n, dtype=np.int64))
    pid = m.processors(n)
    value = np.ones(n, dtype=np.int64)
    step = Step(pid, reads=(Read(a, order),), writes=(Write(b, order, value),))
    m.execute((step,))  # warm up: lazily allocated scratch, caches
    raw_a, raw_b = np.arange(n, dtype=np.int64), np.zeros(n, dtype=np.int64)

    def numpy_step() -> None:
        raw_a[order]
        raw_b[order] = value

    numpy_step()
    seconds = _paired(lambda: m.execute((step,)), numpy_step, repeats)
    if m.violations:
        raise AssertionError("the benchmark step must be conflict-free under EREW")
    return seconds


#: How many more steps numpy's loop runs than the machine's program: both timings then span
#: windows of similar length, so the shortest of each sees a shared machine alike.
NUMPY_STEPS = 10


def _step_program(processors: int, steps: int) -> Callable[[], object]:
    """A fresh machine (warmed up) and a call that runs a program of ``steps`` steps on it,
    in which ``processors`` processors each read one cell and write one."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(processors, dtype=np.int64))
    b = m.array("b", values=np.zeros(processors, dtype=np.int64))
    pid = m.processors(processors)
    step = Step(pid, reads=(Read(a, pid),), writes=(Write(b, pid, pid),))

    def program() -> Program[None]:
        for _ in range(steps):
            yield step

    m.run(program())  # warm up
    return lambda: m.run(program())


def _small_steps(processors: int, steps: int, repeats: int = 5) -> tuple[float, float]:
    """Seconds per step of :func:`_step_program`, and per step of numpy doing the same gather
    and scatter (over ``NUMPY_STEPS`` times as many steps)."""
    run = _step_program(processors, steps)
    raw_a, raw_b = np.arange(processors, dtype=np.int64), np.zeros(processors, dtype=np.int64)
    index = np.arange(processors, dtype=np.int64)

    def numpy_steps() -> None:
        for _ in range(NUMPY_STEPS * steps):
            raw_a[index]
            raw_b[index] = index

    numpy_steps()
    machine, numpy = _paired(run, numpy_steps, repeats)
    return machine / steps, numpy / (NUMPY_STEPS * steps)


def _tiny_step(processors: int, steps: int) -> float:
    """Seconds per step of :func:`_step_program` (a tiny one: 1 to 8 processors)."""
    return _best(_step_program(processors, steps), 5) / steps


#: Size of the whole programs timed: where a compiled PRAM library was compared (issue 13).
PROGRAM_N = 1 << 10


def _programs(repeats: int, seed: int) -> dict[str, dict[str, Any]]:
    """Seconds for whole programs of many small steps at n = 1024, each on a fresh machine:
    prefix sums (Brent and Kung, 38 steps) and a bitonic sort (110 steps)."""
    from pram.algorithms import primitives, sorting

    values = np.random.default_rng(seed).permutation(PROGRAM_N).astype(np.int64)

    def prefix_sums() -> None:
        m = Machine("erew")
        m.run(primitives.prefix_sums(m, m.array("a", values=values), PROGRAM_N))

    def bitonic_sort() -> None:
        sorting.sort(Machine("erew"), values)

    runs = {"prefix-sums": (prefix_sums, 8 * repeats), "bitonic-sort": (bitonic_sort, 2 * repeats)}
    for run, _ in runs.values():
        run()  # warm up
    return {name: {"n": PROGRAM_N, "seconds": _best(run, count)}
            for name, (run, count) in runs.items()}


def measure(
    *, processors: int = LARGE, repeats: int = 5, seed: int = 0, steps: int = 2000,
    batches: tuple[int, ...] = (),
) -> dict[str, Any]:
    """Time the machine and return the JSON of ``pram bench --json`` (cli.md): ``large_step``,
    ``tiny_step``, ``small_step`` (per step, machine and numpy, by processors), ``ratios``
    (machine time over numpy time at 64 and 1024 processors and on the large steps),
    ``tiny_ratios`` (per step, machine and numpy and their ratio, at 1, 8 and 64 processors),
    ``programs`` (seconds for whole programs of small steps at n = 1024) and ``batched`` (the
    same programs batched, per instance, beside a single run, for each B of ``batches``:
    :func:`batched`; ``pram bench`` measures :data:`BATCHES`, and without ``batches`` there is
    no ``batched`` key)."""
    contiguous = np.arange(processors, dtype=np.int64)
    shuffled = np.random.default_rng(seed).permutation(processors).astype(np.int64)
    large, large_numpy = _large_step(contiguous, repeats)
    large_random, large_random_numpy = _large_step(shuffled, repeats)
    tiny = _tiny_step(1, steps)
    small = {p: _small_steps(p, steps, repeats) for p in SMALL}
    tiny_pairs = {p: small[p] if p in small else _small_steps(p, steps, repeats) for p in TINY}
    out: dict[str, Any] = {
        "large_step": {
            "processors": processors,
            "processor_steps_per_second": processors / large,
            "random_order_processor_steps_per_second": processors / large_random,
            "numpy_processor_steps_per_second": processors / large_numpy,
            "numpy_random_order_processor_steps_per_second": processors / large_random_numpy,
        },
        "tiny_step": {"processors": 1, "seconds_per_step": tiny},
        "small_step": {
            str(p): {"processors": p, "seconds_per_step": machine,
                     "numpy_seconds_per_step": numpy}
            for p, (machine, numpy) in small.items()
        },
        "tiny_ratios": {
            str(p): {"processors": p, "seconds_per_step": machine,
                     "numpy_seconds_per_step": numpy, "ratio": machine / numpy}
            for p, (machine, numpy) in tiny_pairs.items()
        },
        "ratios": {
            **{str(p): machine / numpy for p, (machine, numpy) in small.items()},
            "large_step": large / large_numpy,
            "large_step_random": large_random / large_random_numpy,
        },
        "programs": _programs(repeats, seed),
    }
    if batches:
        out["batched"] = batched(batches=batches, seed=seed)
    return out


# ---- batched runs: many instances in lockstep on one machine ---------------------------------

#: Instances per batched machine the bench measures (issue 24's targets: at least 10 times
#: cheaper per instance than a single run at 64, 25 times at 1024).
BATCHES = (64, 1024)

#: The least single-run time over per-instance batched time, per batch size.
BATCH_TARGETS = {64: 10.0, 1024: 25.0}


def _network_once(m: Machine, values: Words) -> Words:
    """Sort ``values`` (one row, or one row per instance) on ``m`` with the bitonic sorting
    network itself (:func:`pram.algorithms.networks.sort`, word keys: one processor per
    comparator, two steps a level), at a power of two."""
    from pram.algorithms import networks

    a = m.array("a", values=values)
    m.run(networks.sort(m, a, "bitonic"))
    return a.to_numpy()


def _records_once(m: Machine, values: Words) -> Words:
    """Sort ``values`` (one row, or one row per instance) on ``m`` as the project's ``sort``
    does: records (value, position) through the bitonic network
    (:func:`pram.algorithms.sorting.sort_blocks`), at a power of two."""
    from pram.algorithms import sorting
    from pram.algorithms.keys import WordKeys

    size = values.shape[-1]
    key = m.array("sort/key", values=values)
    index = m.array("sort/index", values=np.arange(size, dtype=np.int64))
    m.run(sorting.sort_blocks(m, WordKeys(), key, index, size=size))
    return key.to_numpy()


def _sums_once(m: Machine, values: Words) -> Words:
    """Prefix sums (Brent and Kung) of ``values`` (one row, or one row per instance) on ``m``."""
    from pram.algorithms import primitives

    a = m.array("a", values=values)
    m.run(primitives.prefix_sums(m, a, values.shape[-1]))
    return a.to_numpy()


#: The whole programs the batched rows run, with what each must compute (numpy, per row):
#: prefix sums and the bitonic sorting network (issue 24's two programs), and the project's
#: record sort (``pram run sort``: the network over (value, position) records, more work a
#: comparator), whose row has no target. Each row times one program, single and batched.
BATCHED_PROGRAMS: dict[str, tuple[Callable[[Machine, Words], Words],
                                  Callable[[Words], Words]]] = {
    "prefix-sums": (_sums_once, lambda v: np.cumsum(v, axis=-1)),
    "bitonic-sort": (_network_once, lambda v: np.sort(v, axis=-1)),
    "record-sort": (_records_once, lambda v: np.sort(v, axis=-1)),
}

#: The programs of :data:`BATCHED_PROGRAMS` issue 24's targets are for (the others are shown).
TARGETED = ("prefix-sums", "bitonic-sort")


def batched(
    *, batches: tuple[int, ...] = BATCHES, n: int = PROGRAM_N, repeats: int = 3, seed: int = 0
) -> dict[str, dict[str, Any]]:
    """Per-instance seconds of whole programs run batched (B instances in lockstep on one EREW
    machine) beside a single run of the same program, measured in this run, for each program of
    :data:`BATCHED_PROGRAMS` at ``n`` and each B of ``batches`` (the targets of
    :data:`BATCH_TARGETS` on the programs of :data:`TARGETED`, None on the others).

    Each figure is the shortest of ``repeats`` runs on a fresh machine (allocation, the run and
    reading the answers back), a batch's divided by B; ``speedup`` is the single run's time
    over that. The answers are checked against numpy (outside the timing), and the machines
    must be clean under EREW.
    """
    rng = np.random.default_rng(seed)
    out: dict[str, dict[str, Any]] = {}
    for name, (program, expected) in BATCHED_PROGRAMS.items():
        one = rng.permutation(n).astype(np.int64)

        def single(values: Words = one, program: Callable[..., Words] = program) -> Words:
            return program(Machine("erew"), values)

        single()  # warm up
        seconds = _best(single, 4 * repeats)
        row: dict[str, Any] = {"n": n, "single_seconds": seconds, "batches": {}}
        for size in batches:
            values = np.stack([rng.permutation(n) for _ in range(size)]).astype(np.int64)
            machines: list[Machine] = []

            def run(values: Words = values, size: int = size,
                    program: Callable[..., Words] = program,
                    machines: list[Machine] = machines) -> Words:
                m = Machine("erew", batch=size)
                machines.append(m)
                return program(m, values)

            answers = run()  # warm up, and the answers checked
            if not np.array_equal(answers, expected(values)) or machines[-1].violations:
                raise AssertionError(f"the batched {name} must answer right, clean under EREW")
            per = _best(run, repeats) / size
            row["batches"][str(size)] = {
                "instances": size, "seconds_per_instance": per, "speedup": seconds / per,
                "target": BATCH_TARGETS.get(size) if name in TARGETED else None,
            }
        out[name] = row
    return out


#: The batch of ``pram zoology``'s must-show: 512 examples of 256 tokens (32 pairs each).
ZOOLOGY_BATCH = {"examples": 512, "length": 256, "num_kv_pairs": 32, "vocab": 8192}

#: The least speedup of ``pram zoology`` grouped over one example per machine (issue 24).
ZOOLOGY_TARGET = 10.0


def zoology(
    *, examples: int = 512, length: int = 256, num_kv_pairs: int = 32, vocab: int = 8192,
    seed: int = 0,
) -> dict[str, Any]:
    """Seconds of ``pram zoology``'s scoring of one generated batch, grouped (each group of one
    layout size batched on one machine) and one example per machine, measured in this run, and
    the speedup; the two scores must agree on accuracy, violations and counts."""
    from pram.algorithms.zoology import batch
    from pram.reports.zoology import Batch, score

    inputs, labels = batch(examples, length, num_kv_pairs, vocab, seed=seed)
    pairs = np.full(examples, num_kv_pairs, dtype=np.int64)
    loaded = Batch(inputs, labels, pairs)
    start = time.perf_counter()
    grouped = score(loaded)
    middle = time.perf_counter()
    apart = score(loaded, grouped=False)
    end = time.perf_counter()
    same = ("examples", "labeled", "correct", "accuracy", "violations", "time", "work")
    if any(grouped[k] != apart[k] for k in same):
        raise AssertionError("grouped and one-by-one zoology scores must agree")
    seconds, alone = middle - start, end - middle
    return {
        "examples": examples, "length": length, "num_kv_pairs": num_kv_pairs,
        "accuracy": grouped["accuracy"], "violations": grouped["violations"],
        "grouped_seconds": seconds, "one_by_one_seconds": alone, "speedup": alone / seconds,
        "target": ZOOLOGY_TARGET,
    }


def tiny_steps(sizes: tuple[int, ...] = (1, 2, 4, 8), steps: int = 2000) -> dict[int, float]:
    """Seconds per tiny step for each number of processors in ``sizes`` (1 to 8 by default)."""
    return {p: _tiny_step(p, steps) for p in sizes}


if __name__ == "__main__":
    import json

    print(json.dumps(measure(), indent=2))
    print(json.dumps(tiny_steps(), indent=2))
