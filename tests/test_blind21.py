"""Regressions of an independent battery: reals through the primitives and the value-judging
models, two-dimensional arrays, narrowing casts, the checks' arguments and ``--module``."""

from __future__ import annotations

import textwrap
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pram
from pram import (
    InputError,
    IntegerOverflowError,
    Machine,
    Read,
    Step,
    StepError,
    Write,
    iota,
)
from pram.algorithms.primitives import broadcast, prefix_sums
from pram.reports.trace_view import tables
from pram.testing import assert_erew, assert_flagged, assert_model
from tests.commands import call, one_line_error

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


# ---- F6, F7: two-dimensional arrays ------------------------------------------------------


@pytest.mark.parametrize("model", ["erew", "crew", "crcw-priority"])
@pytest.mark.parametrize("kind", ["read", "write", "plain int"])
def test_a_flat_index_into_a_matrix_is_refused(model: str, kind: str) -> None:
    m = Machine(model)
    A = m.array("A", values=np.arange(12).reshape(3, 4))

    def program(m: Machine) -> Any:
        pid = m.processors(2)
        if kind == "read":
            yield Step(pid, reads=[Read(A, iota(2) + 5)])
        elif kind == "write":
            yield Step(pid, writes=[Write(A, np.array([5, 6]), 1)])
        else:
            yield Step(pid[:1], reads=[Read(A, 5)])

    with pytest.raises(StepError, match=r"two-dimensional, shape \(3, 4\); pass a pair"):
        m.run(program(m))
    assert A.to_numpy().reshape(-1).tolist() == list(range(12))


def test_trace_tables_name_matrix_cells_by_row_and_column() -> None:
    m = Machine("crew", trace=True)
    A = m.array("A", values=np.arange(12).reshape(3, 4))
    b = m.array("b", size=2)

    def program(m: Machine) -> Any:
        pid = m.processors(2)
        (x,) = yield Step(pid, reads=[Read(A, (iota(2) + 1, iota(2) * 0))])
        yield Step(pid, writes=[Write(b, iota(2), x), Write(A, (iota(2), iota(2) + 2), x)])

    m.run(program(m))
    from rich.console import Console
    console = Console(width=200, record=True)
    console.print(tables(m.trace, [1, 2]))
    text = console.export_text()
    assert "A[1, 0] = 4" in text and "A[2, 0] = 8" in text
    assert "A[0, 2] <- 4 (2 -> 4)" in text and "A[1, 3] <- 8" in text
    assert "b[1] <- 8" in text
    assert "A[4]" not in text


# ---- F8: narrowing casts -------------------------------------------------------------------


@pytest.mark.parametrize(("dtype", "value"), [(np.int32, 2**40), (np.int8, 300),
                                              (np.uint64, -1), (np.uint8, -3)])
def test_narrowing_astype_that_wraps_is_an_overflow(dtype: Any, value: int) -> None:
    m = Machine("erew")
    a = m.array("a", values=[1, value])

    def program(m: Machine) -> Any:
        pid = m.processors(2)
        (x,) = yield Step(pid, reads=[Read(a, iota(2))])
        yield Step(pid, writes=[Write(a, iota(2), x.astype(dtype).astype(np.int64))])

    with pytest.raises(IntegerOverflowError, match=f"processor 1 converted {value} from int64"):
        m.run(program(m))


def test_narrowing_values_that_fit_is_allowed_and_modular_wraps() -> None:
    m = Machine("erew")
    a = m.array("a", values=[-5, 100])

    def program(m: Machine, dtype: Any) -> Any:
        pid = m.processors(2)
        (x,) = yield Step(pid, reads=[Read(a, iota(2))])
        yield Step(pid, writes=[Write(a, iota(2), x.astype(dtype).astype(np.int64))])

    m.run(program(m, np.int8))
    assert a.to_numpy().tolist() == [-5, 100]
    m.run(pram.modular(program(m, np.uint64)))  # wraps, as numpy does, when declared
    assert a.to_numpy().tolist() == [-5, 100]


# ---- F9, F12: the checks' and the declaration's arguments -----------------------------------


def test_checks_refuse_what_is_not_their_argument() -> None:
    def program(m: Machine) -> Any:
        yield Step(m.processors(1), reads=[Read(m.array("a", size=1), 0)])

    with pytest.raises(InputError, match="assert_flagged got a program already made"):
        assert_flagged(program(Machine()), "erew")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="assert_model takes the machine"):
        assert_model("erew")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="assert_erew takes the machine"):
        assert_erew("erew")  # type: ignore[arg-type]


def test_a_declaration_of_no_sizes_is_refused() -> None:
    with pytest.raises(InputError, match="sizes must hold at least one size"):
        pram.Algorithm(name="x", build=lambda n, rng: {}, program=lambda m: None,
                       reference=lambda: None, sizes=())


# ---- F10, F11 and the module's folder: --module ---------------------------------------------


MODULE = textwrap.dedent("""
    import numpy as np
    import pram
    from helper21 import make
    from pram.algorithms.primitives import prefix_sums

    def program(m, a):
        yield from prefix_sums(m, a, len(a))
        return a

    def broken_build(n, rng):
        raise ValueError("no instance today")

    segmented = pram.Algorithm(name="segscan21", build=make, program=program,
                               reference=np.cumsum, sizes=(4, 8))
    broken = pram.Algorithm(name="broken21", build=broken_build, program=program,
                            reference=np.cumsum)
""")


@pytest.fixture
def module(tmp_path: Path) -> Path:
    (tmp_path / "helper21.py").write_text(
        "def make(n, rng):\n    return {'a': rng.integers(0, 9, n)}\n")
    path = tmp_path / "seg21.py"
    path.write_text(MODULE)
    return path


def test_module_imports_its_helper_and_a_failing_build_is_one_line(
    capsys: pytest.CaptureFixture[str], module: Path
) -> None:
    status, out, _ = call(capsys, "run", "--module", str(module), "segmented", "--n", "4")
    assert status == 0 and "correct" in out
    line = one_line_error(capsys, "run", "--module", str(module), "broken")
    assert "build of declaration 'broken21' raised ValueError" in line
    assert "no instance today" in line and "fix its build" in line


def test_report_writes_the_folder_of_the_declarations_name(
    capsys: pytest.CaptureFixture[str], module: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    status, _, _ = call(capsys, "report", "--module", str(module), "segmented",
                        "--out", str(out))
    assert status == 0
    assert sorted(p.name for p in (out / "segscan21").iterdir()) == [
        "measurements.csv", "measurements.json", "summary.md"]  # no bounds: no ratio plot
