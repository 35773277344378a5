"""assert_model (clean under the machine's own model) and assert_flagged (negative controls)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from pram import Machine, Read, Step, Write, iota
from pram import reports as pram_reports
from pram.step import Program
from pram.testing import assert_erew, assert_flagged, assert_model


def writers(m: Machine, values: list[int]) -> Program[None]:
    """Processors 0.. write ``values`` to one cell."""
    a = m.array("a", size=1)
    n = len(values)
    yield Step(m.processors(n), writes=[Write(a, np.zeros(n, np.int64), np.array(values))])


def test_assert_model_passes_a_clean_crcw_common_program() -> None:
    m = Machine("crcw-common")
    m.run(writers(m, [4, 4, 4]))
    assert_model(m)


def test_assert_model_fails_naming_the_disagreeing_writers() -> None:
    m = Machine("crcw-common")
    m.run(writers(m, [1, 2]))
    message = (
        "the run broke CRCW-common 1 time:\n  CRCW-common forbids disagreeing writes: "
        "processors 0 and 1 write 1 and 2 to a[0] in step 1"
    )
    with pytest.raises(AssertionError, match="^" + re.escape(message) + "$"):
        assert_model(m)


@pytest.mark.parametrize("name", ["erew", "crew", "crcw-priority", "crcw-sum"])
def test_assert_model_takes_any_model_and_fails_on_undefined_reads(name: str) -> None:
    m = Machine(name, strict=False)
    a = m.array("a", size=2)

    def program(m: Machine) -> Program[None]:
        yield Step(m.processors(2), reads=[Read(a, iota(2))])

    m.run(program(m))
    with pytest.raises(AssertionError, match=r"^the run read 2 undefined cells:\n  undefined"):
        assert_model(m)


def test_assert_model_names_the_first_few_and_counts_the_rest() -> None:
    m = Machine("crew")
    a = m.array("a", size=8)

    def program(m: Machine) -> Program[None]:
        yield Step(m.processors(16), writes=[Write(a, iota(16) // 2, 1)])

    m.run(program(m))
    with pytest.raises(AssertionError) as error:
        assert_model(m, shown=2)
    lines = str(error.value).splitlines()
    assert lines[0] == "the run broke CREW 8 times:"
    assert len(lines) == 4 and lines[-1] == "  ... and 6 more (6 write/write)"


def test_assert_flagged_returns_the_violations_of_a_negative_control() -> None:
    found = assert_flagged(lambda m: writers(m, [1, 2]), "crcw-common")
    assert [v.processors for v in found] == [(0, 1)]


def test_assert_flagged_fails_when_the_program_runs_clean() -> None:
    message = (
        "expected the program to break CRCW-common, but it ran clean under it (1 steps, 2 "
        "work); a negative control must make the accesses the model forbids"
    )
    with pytest.raises(AssertionError, match="^" + re.escape(message) + "$"):
        assert_flagged(lambda m: writers(m, [3, 3]), "crcw-common")


def test_assert_erew_stays_the_shorthand_and_the_reports_export_all_three() -> None:
    m = Machine("erew")
    m.run(writers(m, [5]))
    assert_erew(m)
    assert_model(m)
    assert pram_reports.assert_model is assert_model
    assert pram_reports.assert_flagged is assert_flagged
