"""pram.testing: the assertions users put in their own tests, and their failure messages."""

from __future__ import annotations

import re

import numpy as np
import pytest

from pram import Formula, InputError, Machine, Read, Step, check
from pram.testing import assert_bound, assert_erew
from tests.helpers import whole


def shared_reads(m: Machine, cells: int) -> None:
    """Pairs of processors read each of ``cells`` cells; one more reads an undefined cell."""
    a = m.array("a", values=np.zeros(cells, dtype=np.int64))
    b = m.array("b", size=1)
    pid = m.processors(2 * cells)
    m.execute([Step(pid, reads=[Read(a, pid // 2)])])
    m.execute([Step(pid[:1], reads=[Read(b, 0)])])


def test_assert_erew_passes_a_clean_run() -> None:
    """A run with no violation and no undefined read passes."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(4))
    m.execute([Step(m.processors(4), reads=[Read(a, np.arange(4))])])
    assert_erew(m)


def test_assert_erew_names_the_first_violations_and_counts_the_rest() -> None:
    """The failure names the first violations in full and counts the others by kind."""
    m = Machine("erew", strict=False)
    shared_reads(m, 7)
    message = "\n".join(
        [
            "the run broke EREW 7 times:",
            "  EREW forbids concurrent reads: processors 0 and 1 read a[0] in step 1",
            "  EREW forbids concurrent reads: processors 2 and 3 read a[1] in step 1",
            "  ... and 5 more (5 read/read)",
            "the run read 1 undefined cell:",
            "  undefined read: processor 0 read b[0] in step 2 before anything was written "
            "there; give the array initial values or write it first",
        ]
    )
    with pytest.raises(AssertionError, match=whole(message)):
        assert_erew(m, shown=2)


def test_assert_erew_refuses_a_machine_of_another_model() -> None:
    """Zero violations under CREW prove nothing about EREW, so the assertion fails."""
    m = Machine("crew")
    message = (
        "the machine runs CREW, which does not flag every concurrent access; run the program "
        'on Machine("erew") to check it is EREW, or check it under its own model with '
        "assert_model"
    )
    with pytest.raises(AssertionError, match=whole(message)):
        assert_erew(m)


LINEAR = Formula("N", lambda s: s["N"])


SIZES = (4, 8, 16, 32, 64)


def test_assert_bound_returns_a_check_that_holds() -> None:
    """A bound that holds passes and the check comes back for more assertions."""
    result = assert_bound("work", LINEAR, [({"N": n}, 2.0 * n) for n in SIZES])
    assert (result.verdict, result.tight, result.constant) == ("holds", True, 2)


def test_assert_bound_shows_the_table_when_exceeded() -> None:
    """A bound exceeded fails with the sizes, measured values, ratios, law and decision."""
    result = check("work", LINEAR, [({"N": n}, float(n * n)) for n in SIZES])
    message = "\n".join(
        [
            "expected work to stay within O(N), but the bound exceeded:",
            "       N            work       ratio",
            "       4              16           4",
            "       8              64           8",
            "      16             256          16",
            "      32            1024          32",
            "      64            4096          64",
            "law: work = N^2, L = log2(N), exact on 5 sizes (held out N = 32, 64)",
            "work / (N): exceeded; along N: the exact law's leading term N^2 is of higher order "
            "than the bound's N; constant 64",
        ]
    )
    with pytest.raises(AssertionError, match=whole(message)):
        assert_bound(result)


def test_assert_bound_checks_a_negative_control() -> None:
    """With holds=False a bound that holds is the failure (a negative control must exceed)."""
    points = [({"N": n}, 2.0 * n) for n in SIZES]
    start = re.escape("expected work to exceed O(N), but the bound holds:\n")
    with pytest.raises(AssertionError, match="^" + start):
        assert_bound("work", LINEAR, points, holds=False)


def test_assert_bound_fails_on_undetermined_with_advice() -> None:
    """Two sizes cannot decide: the failure says to extend the sweep."""
    message = "\n".join(
        [
            "expected work to stay within O(N), but the sweep cannot tell: extend the sweep to "
            "5 or more sizes, or pass allow_undetermined=True:",
            "       N            work       ratio",
            "       4               8           2",
            "      16              32           2",
            "law: work = 2 L^2, L = log2(N), exact on 2 sizes",
            "work / (N): undetermined; along N: 2 sizes cannot tell a law's order; extend the "
            "sweep to 5 or more sizes; constant 2",
        ]
    )
    with pytest.raises(AssertionError, match=whole(message)):
        assert_bound("work", LINEAR, [({"N": 4}, 8.0), ({"N": 16}, 32.0)])


def test_assert_bound_allows_undetermined_when_told() -> None:
    """allow_undetermined=True returns the undetermined check instead of failing."""
    result = assert_bound("work", LINEAR, [({"N": 4}, 8.0), ({"N": 16}, 32.0)],
                          allow_undetermined=True)
    assert result.verdict == "undetermined" and not result.holds


def test_assert_bound_needs_a_formula_and_points_with_a_name() -> None:
    """A measure name without formula and points is refused."""
    message = (
        "assert_bound needs a Check, or a measure name with a formula and points "
        "(got measure 'work', formula None, points None)"
    )
    with pytest.raises(InputError, match=whole(message)):
        assert_bound("work")
