"""Tree contraction: expression trees of + and * evaluate as Python's eval does (modulo
2^64), EREW clean, O(log n) time and O(n) work."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import InputError, Machine
from pram.algorithms import contraction
from pram.algorithms.contraction import evaluate, parse_expression


def wrapped(x: int) -> int:
    """Python's exact integer as int64 arithmetic gives it: modulo 2^64, signed."""
    return (x + 2**63) % 2**64 - 2**63


@st.composite
def expressions(draw: st.DrawFn, leaves: int) -> str:
    """A fully bracketed random expression with ``leaves`` integer leaves."""
    if leaves == 1:
        return str(draw(st.integers(0, 12)))
    k = draw(st.integers(1, leaves - 1))
    symbol = draw(st.sampled_from(["+", "*"]))
    return f"({draw(expressions(k))} {symbol} {draw(expressions(leaves - k))})"


def test_the_module_examples_run() -> None:
    """The docstrings' examples give what they print."""
    assert doctest.testmod(contraction).failed == 0


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 40).flatmap(expressions), st.integers(0, 1000))
def test_the_value_is_evals(text: str, seed: int) -> None:
    """The contracted tree's value is eval's (wrapped to int64), with no EREW violation."""
    m = Machine("erew")
    assert evaluate(m, *parse_expression(text), seed=seed) == wrapped(eval(text))
    assert m.violations == [] and m.undefined_reads == []


def test_deep_and_wide_trees() -> None:
    """A left comb, a right comb and a balanced tree of 256 leaves (unbracketed text, so the
    parser's precedence decides) against eval."""
    rng = np.random.default_rng(3)
    digits = [str(d) for d in rng.integers(0, 9, 256).tolist()]
    texts = [" + ".join(digits), "*".join(digits[:40]) + " + 1",
             " + ".join(f"{a} * {b}" for a, b in zip(digits[::2], digits[1::2], strict=True))]
    for text in texts:
        m = Machine("erew")
        assert evaluate(m, *parse_expression(text), seed=1) == wrapped(eval(text))
        assert m.violations == []


def test_time_is_logarithmic_and_work_linear() -> None:
    """time / log2 n stays under 25 and falls (24.0 at n = 127, 22.6 at 2047); work / n stays
    under 35 and does not grow; the contraction itself is under 3 n work (its rounds halve
    the leaves)."""
    time_ratio, work_ratio = [], []
    for leaves in (64, 256, 1024):
        rng = np.random.default_rng(leaves)
        text = " + ".join(f"{a} * {b}" for a, b in rng.integers(0, 9, (leaves // 2, 2)).tolist())
        left, right, op, value = parse_expression(text)
        n = len(left)
        m = Machine("erew")
        evaluate(m, left, right, op, value)
        time_ratio.append(m.cost.time / math.log2(n))
        work_ratio.append(m.cost.work / n)
        assert m.cost.phases["expression/contract"].work < 3 * n
    assert max(time_ratio) < 25 and time_ratio[-1] <= time_ratio[0]
    assert max(work_ratio) < 35 and work_ratio[-1] <= work_ratio[0] + 0.5


def test_a_node_with_one_child_is_refused() -> None:
    """Every internal node needs two children: refused before any run, naming the node."""
    with pytest.raises(InputError, match="node 0 has one child"):
        evaluate(Machine("erew"), [1, -1], [-1, -1], [0, 0], [0, 5])
