"""reports.bench: the shape of ``pram bench --json`` (figures are benchmarks, never asserted)."""

from __future__ import annotations

from pram.reports.bench import measure


def test_measure_returns_the_cli_shape() -> None:
    """measure() returns exactly the keys cli.md fixes, with positive figures."""
    result = measure(processors=1 << 10, repeats=1, steps=20)
    assert {k: sorted(v) for k, v in result.items()} == {
        "large_step": [
            "numpy_processor_steps_per_second",
            "numpy_random_order_processor_steps_per_second",
            "processor_steps_per_second",
            "processors",
            "random_order_processor_steps_per_second",
        ],
        "tiny_step": ["processors", "seconds_per_step"],
        "small_step": ["1024", "64"],
        "tiny_ratios": ["1", "64", "8"],
        "ratios": ["1024", "64", "large_step", "large_step_random"],
        "programs": ["bitonic-sort", "prefix-sums"],
    }
    assert all(run["n"] == 1024 and run["seconds"] > 0 for run in result["programs"].values())
    assert result["large_step"]["processors"] == 1 << 10
    assert result["tiny_step"]["processors"] == 1
    figures = [*result["large_step"].values(), result["tiny_step"]["seconds_per_step"],
               *result["ratios"].values()]
    assert all(f > 0 for f in figures)


def test_small_steps_pair_the_machine_with_numpy() -> None:
    """Each small step names its processors and gives the machine's and numpy's seconds."""
    result = measure(processors=1 << 10, repeats=1, steps=20)
    for p in ("64", "1024"):
        small = result["small_step"][p]
        assert sorted(small) == ["numpy_seconds_per_step", "processors", "seconds_per_step"]
        assert small["processors"] == int(p)
        assert result["ratios"][p] == small["seconds_per_step"] / small["numpy_seconds_per_step"]


def test_tiny_steps_pair_the_machine_with_numpy_against_three_times() -> None:
    """At 1, 8 and 64 processors the bench gives the machine's and numpy's seconds per step
    and their ratio, and ``pram bench`` shows each against the 3x target, met or missed."""
    from pram.reports.render import TINY_RATIO_TARGET, bench_rows

    result = measure(processors=1 << 10, repeats=1, steps=20)
    for p in ("1", "8", "64"):
        tiny = result["tiny_ratios"][p]
        assert sorted(tiny) == ["numpy_seconds_per_step", "processors", "ratio",
                                "seconds_per_step"]
        assert tiny["processors"] == int(p)
        assert tiny["ratio"] == tiny["seconds_per_step"] / tiny["numpy_seconds_per_step"]
    rows = [row for row in bench_rows(result) if row[0] == "tiny, over numpy"]
    assert [row[1] for row in rows] == [1, 8, 64]
    for _, p, figure, target, met in rows:
        assert target == TINY_RATIO_TARGET == 3.0
        assert figure == result["tiny_ratios"][str(p)]["ratio"]
        assert met == (figure <= 3.0)
