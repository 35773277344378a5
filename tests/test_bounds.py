"""Bound checks: a bounded ratio passes, an extra log factor or a polynomial excess fails."""

from __future__ import annotations

import math
import re

import pytest

from pram import Formula, InputError, check

N_LOG_N = Formula("N log2(N)", lambda s: s["N"] * math.log2(s["N"]))
N_D = Formula("N d", lambda s: s["N"] * s["d"])
SIZES = (16, 64, 256, 1024, 4096)


def test_a_constant_factor_holds() -> None:
    """Measured = 3 N log2 N against N log2 N holds, with constant 3."""
    result = check("work", N_LOG_N, [({"N": n}, 3 * n * math.log2(n)) for n in SIZES])
    assert result.holds
    assert result.constant == pytest.approx(3)
    assert result.ratios == pytest.approx((3, 3, 3, 3, 3))


def test_lower_order_terms_fade() -> None:
    """Measured = N log2 N + 50 N still holds: the ratio falls along the sweep."""
    result = check("work", N_LOG_N, [({"N": n}, n * math.log2(n) + 50 * n) for n in SIZES])
    assert result.holds


def test_an_extra_log_factor_fails() -> None:
    """Measured = N log2(N)^2 against N log2 N fails, with exponent near 1."""
    result = check("work", N_LOG_N, [({"N": n}, n * math.log2(n) ** 2) for n in SIZES])
    assert not result.holds
    assert result.exponent == pytest.approx(1, abs=0.1)


def test_a_polynomial_excess_fails() -> None:
    """Measured = N^2 against N log2 N fails by far."""
    result = check("work", N_LOG_N, [({"N": n}, float(n * n)) for n in SIZES])
    assert not result.holds
    assert result.exponent > 2


def test_the_limit_caps_the_constant() -> None:
    """A bounded ratio above the stated limit fails."""
    points = [({"N": n}, 2.0 * n) for n in SIZES]
    formula = Formula("N", lambda s: s["N"])
    assert check("time", formula, points, limit=2.5).holds
    assert not check("time", formula, points, limit=1.5).holds


def test_every_varying_size_is_checked() -> None:
    """With N and d both swept, excess growth along d alone is caught."""
    points = [({"N": n, "d": d}, n * d * math.log2(d)) for n in (16, 64, 256) for d in (4, 16, 64)]
    assert not check("work", N_D, points).holds
    exact = [({"N": n, "d": d}, 2.0 * n * d) for n in (16, 64, 256) for d in (4, 16, 64)]
    assert check("work", N_D, exact).holds


def test_the_table_shows_sizes_measures_ratios_and_the_decision() -> None:
    """The table lists every point and ends with the verdict."""
    result = check("time", Formula("N", lambda s: s["N"]), [({"N": 2}, 4.0), ({"N": 4}, 8.0)])
    assert result.table() == "\n".join(
        [
            "       N            time       ratio",
            "       2               4           2",
            "       4               8           2",
            "time / (N): holds; ratio grows like log^0.00 (tolerance 0.5), constant 2",
        ]
    )


def test_as_dict_reports_the_decision() -> None:
    """as_dict carries the formula, the decision and the ratios for JSON."""
    result = check("time", Formula("N", lambda s: s["N"]), [({"N": 2}, 4.0), ({"N": 4}, 8.0)])
    assert result.as_dict() == {
        "formula": "N",
        "holds": True,
        "exponent": pytest.approx(0),
        "tolerance": 0.5,
        "limit": None,
        "constant": 2.0,
        "ratios": [2.0, 2.0],
    }


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ([({"N": 4}, 1.0)], "a bound check needs at least 2 sizes in the sweep (got 1)"),
        (
            [({"N": 4}, 1.0), ({"N": 4}, 2.0)],
            "a bound check needs a sweep in which at least one size varies",
        ),
        (
            [({"N": 1}, 1.0), ({"N": 4}, 2.0)],
            "formula N log2(N) is 0 at N=1; a bound check divides by it, so start the sweep at "
            "sizes where it is positive",
        ),
    ],
)
def test_unusable_sweeps_are_refused(
    points: list[tuple[dict[str, float], float]], message: str
) -> None:
    """A sweep that cannot show growth, or a formula of 0, is refused with the reason."""
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        check("work", N_LOG_N, points)
