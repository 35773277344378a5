"""The value-judging models on reals: WEAK takes only 0 and 1, agreeing zeros land at the
lowest ids, real resolutions warn of nothing, and ``--weakest-model`` takes a real scalar."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import pram
from pram import (
    Machine,
    Step,
    Write,
)
from pram.testing import assert_flagged, assert_model

# ---- F2 to F5: the value-judging models on reals -------------------------------------------


def _both(values: Any) -> Any:
    def program(m: Machine, a: Any) -> Any:
        yield Step(m.processors(2), writes=[Write(a, np.zeros(2, np.int64), values)])
    return program


@pytest.mark.parametrize("value", [0.5, 1e-300, -0.25, 2.0])
def test_weak_flags_every_real_but_0_and_1(value: float) -> None:
    write = _both(value)
    assert_flagged(lambda m: write(m, m.array("a", size=1, dtype=float)), "crcw-weak")
    found = pram.weakest_model(lambda m: m.run(write(m, m.array("a", size=1, dtype=float))))
    assert "crcw-weak" in found.evidence and "crcw-weak" not in found.also_clean


@pytest.mark.parametrize("value", [0.0, 1.0, -0.0])
def test_weak_allows_0_and_1_as_reals(value: float) -> None:
    m = Machine("crcw-weak")
    a = m.array("a", size=1, dtype=float)
    m.run(_both(np.array([value, value]))(m, a))
    assert_model(m)


@pytest.mark.parametrize("name", ["crcw-tolerant", "crcw-collision+", "crcw-common"])
@pytest.mark.parametrize("first", [-0.0, 0.0])
def test_agreeing_zeros_land_the_lowest_ids(name: str, first: float) -> None:
    m = Machine(name)
    a = m.array("a", size=1, dtype=float)
    m.run(_both(np.array([first, -first]))(m, a))
    assert np.signbit(a.to_numpy()[0]) == np.signbit(first)


@pytest.mark.parametrize("name", ["crcw-sum", "crcw-max", "crcw-min", "crcw-tolerant",
                                  "crcw-collision+", "crcw-arbitrary"])
@pytest.mark.parametrize("pair", [(np.inf, -np.inf), (1e308, 1e308), (np.nan, 1.0)])
def test_real_resolutions_warn_of_nothing(name: str, pair: tuple[float, float]) -> None:
    m = Machine(name)
    a = m.array("a", size=1, dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m.run(_both(np.array(pair))(m, a))
    if name == "crcw-sum":
        with np.errstate(all="ignore"):
            assert np.array_equal(a.to_numpy(), [pair[0] + pair[1]], equal_nan=True)


def test_weakest_model_takes_a_real_scalar() -> None:
    found = pram.weakest_model(
        lambda m: m.run(_both(0.5)(m, m.array("a", size=1, dtype=float))))
    assert found.model == "crcw-common"
    assert found.evidence["crcw-weak"].values == (0.5, 0.5)
