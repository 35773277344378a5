"""reports.bench, batched rows: the shape of the ``batched`` figures and their rows (figures
are benchmarks, never asserted beyond being positive)."""

from __future__ import annotations

import numpy as np

from pram.reports.bench import BATCH_TARGETS, BATCHES, batched, measure, zoology
from pram.reports.render import bench_rows


def test_batched_gives_per_instance_seconds_beside_a_single_run() -> None:
    """For each program and each B: seconds per instance, and the single run's seconds over
    them as the speedup, with the issue's target at 64 and 1024."""
    result = batched(batches=(2, 4), n=16, repeats=1)
    assert sorted(result) == ["bitonic-sort", "prefix-sums", "record-sort"]
    for run in result.values():
        assert run["n"] == 16 and run["single_seconds"] > 0
        assert sorted(run["batches"]) == ["2", "4"]
        for size, row in run["batches"].items():
            assert row["instances"] == int(size)
            assert row["speedup"] == run["single_seconds"] / row["seconds_per_instance"]
            assert row["target"] is None
    assert BATCHES == (64, 1024) and BATCH_TARGETS == {64: 10.0, 1024: 25.0}
    judged = batched(batches=(64,), n=16, repeats=1)
    assert judged["prefix-sums"]["batches"]["64"]["target"] == 10.0
    assert judged["bitonic-sort"]["batches"]["64"]["target"] == 10.0
    assert judged["record-sort"]["batches"]["64"]["target"] is None  # shown, not judged


def test_the_batched_bitonic_rows_time_the_sorting_network_itself() -> None:
    """The bitonic rows run pram.algorithms.networks.sort, single and batched (the same
    program on both sides of the ratio): its counts are the network's, 2 steps a level and
    one processor per comparator, n/2 of them, and they equal a single run's per instance;
    the record sort's row runs the project's sort (two cells a record)."""
    from pram import Machine
    from pram.algorithms import networks
    from pram.reports.bench import BATCHED_PROGRAMS

    n, size = 16, 3
    rows = np.stack([np.random.default_rng(k).permutation(n) for k in range(size)])
    network, expected = BATCHED_PROGRAMS["bitonic-sort"]
    m = Machine("erew", batch=size)
    assert np.array_equal(network(m, rows), expected(rows))
    levels = len(networks.levels("sort", "bitonic", n))
    for k in range(size):
        alone = Machine("erew")
        a = alone.array("a", values=rows[k])
        alone.run(networks.sort(alone, a, "bitonic"))
        assert m.costs[k] == alone.cost
        assert (alone.cost.time, alone.cost.max_processors) == (2 * levels, n // 2)
    records, _ = BATCHED_PROGRAMS["record-sort"]
    r = Machine("erew", batch=size)
    assert np.array_equal(records(r, rows), expected(rows))
    assert r.costs[0].reads == 2 * m.costs[0].reads  # a value and a position a key


def test_bench_rows_judge_the_speedup_against_its_target() -> None:
    """A speedup row is met at or above its target and missed below; the per-instance row has
    no target; measure() adds the batched figures only when asked."""
    figures = measure(processors=1 << 8, repeats=1, steps=10)
    assert "batched" not in figures
    figures["batched"] = {"prefix-sums": {"n": 1024, "single_seconds": 1e-3, "batches": {
        "64": {"instances": 64, "seconds_per_instance": 5e-5, "speedup": 20.0, "target": 10.0},
        "1024": {"instances": 1024, "seconds_per_instance": 1e-4, "speedup": 10.0,
                 "target": 25.0},
    }}}
    rows = {step: (figure, target, met) for step, _, figure, target, met in bench_rows(figures)}
    assert rows["prefix-sums, batched B = 64, speedup"] == (20.0, 10.0, True)
    assert rows["prefix-sums, batched B = 1024, speedup"] == (10.0, 25.0, False)
    assert rows["prefix-sums, batched B = 64, per instance"] == (5e-5, None, True)


def test_zoology_times_both_paths_on_one_batch() -> None:
    """The zoology measurement scores one small batch both ways: the same accuracy and
    violations, and the speedup is one time over the other."""
    result = zoology(examples=4, length=32, num_kv_pairs=4, vocab=64)
    assert (result["examples"], result["accuracy"], result["violations"]) == (4, 1.0, 0)
    assert result["speedup"] == result["one_by_one_seconds"] / result["grouped_seconds"]
    assert result["target"] == 10.0
