"""The fixed circuit of pbs-key-values (eqs. 14-17): bisect_left on every input, its growth."""

from __future__ import annotations

import bisect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import InputError
from pram.algorithms.pbs_circuit import build, route
from pram.circuit import evaluate
from pram.reports.circuit_report import mqar_section as section
from pram.reports.circuit_report import pbs_measure as measure


def tokens(queries: list[int], keys: list[int], d: int) -> np.ndarray:
    """The circuit's input row: queries then keys, d bits each (least significant first)."""
    row = np.array(queries + keys, dtype=np.int64)
    if d > 1:
        row = ((row[:, None] >> np.arange(d)) & 1).reshape(-1)
    return row.reshape(1, -1)


@settings(max_examples=60, deadline=None)
@given(
    queries=st.lists(st.integers(min_value=0, max_value=7), min_size=1, max_size=9),
    keys=st.lists(st.integers(min_value=0, max_value=7), min_size=1, max_size=9),
    d=st.sampled_from([1, 3]),
)
def test_outputs_are_bisect_left(queries: list[int], keys: list[int], d: int) -> None:
    """Sorted queries and keys with repeats, word or 3-bit tokens: C[i] is bisect_left."""
    queries, keys = sorted(queries), sorted(keys)
    got = evaluate(build(len(queries), len(keys), d), tokens(queries, keys, d))[0]
    assert got.tolist() == [bisect.bisect_left(keys, q) for q in queries]


def test_index_zero_is_not_a_dead_branch() -> None:
    """Every query below every key: z_t = x = 0 and the calls stay alive (answers all 0), which
    the paper's "z = 0 means dead" would get wrong."""
    got = evaluate(build(5, 4), tokens([0, 0, 1, 1, 2], [5, 6, 7, 8], 1))[0]
    assert got.tolist() == [0, 0, 0, 0, 0]


def test_random_checks_agree() -> None:
    """measure() checks 8 random inputs at n = m = 16, d = 8 and finds them equal."""
    row = measure(16, 16, 8)
    assert row.equal and row.checked == 8


def test_multiplexers_make_the_size_grow_with_m() -> None:
    """At fixed n, doubling m from 32 to 64 more than doubles the select gates: every call
    reads keys through multiplexers over all m keys (the PRAM's work grows only with log m)."""
    assert build(8, 64).by_kind["select"] > 2 * build(8, 32).by_kind["select"]


def test_bad_size_is_refused() -> None:
    """n = 0 is refused with the value named."""
    with pytest.raises(InputError, match=r"^n must be an integer of at least 1 \(got 0\)$"):
        build(0, 4)


def test_the_route_sums_the_blocks_built() -> None:
    """N = 48: 8 blocks of n = m = 1, 4 of 2, 2 of 4, 1 of 8, each built; sizes add up."""
    (r,) = route([4])
    assert r.n == 48
    assert r.size == sum(b * build(k, k).size for b, k in ((8, 1), (4, 2), (2, 4), (1, 8)))
    assert r.depth == build(8, 8).depth


def test_report_section_lists_checked_circuits() -> None:
    """The quick report section has the three tables and every pbs circuit checked equal."""
    text = section(quick=True)
    assert text.count("### ") == 3
    assert "equal on 8" in text and "DIFFERENT" not in text
