"""reports.bench: the shape of ``pram bench --json`` (figures are benchmarks, never asserted)."""

from __future__ import annotations

from pram.reports.bench import measure


def test_measure_returns_the_cli_shape() -> None:
    """measure() returns exactly the keys cli.md fixes, with positive figures."""
    result = measure(processors=1 << 10, repeats=1)
    assert {k: sorted(v) for k, v in result.items()} == {
        "large_step": [
            "processor_steps_per_second",
            "processors",
            "random_order_processor_steps_per_second",
        ],
        "tiny_step": ["processors", "seconds_per_step"],
    }
    assert result["large_step"]["processors"] == 1 << 10
    assert result["tiny_step"]["processors"] == 1
    figures = [*result["large_step"].values(), result["tiny_step"]["seconds_per_step"]]
    assert all(f > 0 for f in figures)
