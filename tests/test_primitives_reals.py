"""The primitives (:mod:`pram.algorithms.primitives`) keep reals real, and integer scans keep
their counts."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import (
    Machine,
)
from pram.algorithms.primitives import broadcast, prefix_sums
from pram.testing import assert_erew

reals = st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=9)


# ---- F1: the primitives keep reals real ---------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(reals, st.booleans())
def test_prefix_sums_of_reals_are_reals(values: list[float], inclusive: bool) -> None:
    m = Machine("erew")
    a = m.array("a", values=values, dtype=float)
    m.run(prefix_sums(m, a, len(values), inclusive=inclusive))
    total = np.cumsum(values)
    want = total if inclusive else np.concatenate([[0.0], total[:-1]])
    np.testing.assert_allclose(a.to_numpy(), want, rtol=1e-9, atol=1e-6)
    assert_erew(m)


def test_the_exclusive_scan_of_the_brief() -> None:
    m = Machine("erew")
    a = m.array("a", values=[0.5, 0.25, 1.75, -0.5], dtype=float)
    m.run(prefix_sums(m, a, 4, inclusive=False))
    assert a.to_numpy().tolist() == [0.0, 0.5, 0.75, 2.5]


def test_broadcast_of_a_real() -> None:
    m = Machine("erew")
    a = m.array("a", values=[0.75, 0.0, 0.0, 0.0, 0.0], dtype=float)
    m.run(broadcast(m, a, 5))
    assert a.to_numpy().tolist() == [0.75] * 5


def test_integer_scans_keep_their_counts() -> None:
    m = Machine("erew")
    a = m.array("a", values=[3, 1, 4, 1, 5, 9, 2, 6])
    m.run(prefix_sums(m, a, 8, inclusive=False))
    assert a.to_numpy().tolist() == [0, 3, 4, 8, 9, 14, 23, 25]
    assert a.to_numpy().dtype == np.int64
    assert (m.cost.time, m.cost.work) == (12, 37)  # as before reals were kept real
