"""The honesty guard: PRAM programs do their sorting, searching, scans and reductions as steps.

Every module under ``algorithms/`` is parsed (never imported) and every call is inspected.
Between steps a processor may only compute elementwise in O(1), so any call that sorts,
searches, scans or reduces across processors is refused, wherever it appears, with the file,
line and call named. This guard is never weakened; a program that needs such an operation
writes it as machine steps (see ``algorithms/primitives.py``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pram.lint import imports

ROOT = Path(__file__).resolve().parent.parent
ALGORITHMS = ROOT / "algorithms"

#: Calls (as ``np.x(...)``, ``array.x(...)``, ``ufunc.x(...)`` or a bare ``x(...)``) that sort,
#: search, scan or reduce. The first lines are the rule's list; the rest are the same thing
#: under other names (a dot product is a sum, a set operation is a sort).
FORBIDDEN_CALLS = frozenset({
    # the rule's list
    "sort", "argsort", "lexsort", "searchsorted", "cumsum", "cumprod", "sum", "prod", "max",
    "min", "amax", "amin", "argmax", "argmin", "any", "all", "unique", "nonzero", "flatnonzero",
    "argwhere", "bincount", "histogram", "digitize", "partition", "argpartition", "diff",
    "roll", "reduce", "accumulate", "reduceat", "extract", "compress", "count_nonzero",
    "median", "mean", "sorted",
    # the same thing under other names
    "nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin", "nancumsum",
    "nancumprod", "nanmean", "nanmedian", "cumulative_sum", "cumulative_prod", "histogram2d",
    "histogramdd", "average", "std", "var", "ptp", "percentile", "quantile", "nanpercentile",
    "nanquantile", "nanstd", "nanvar", "dot", "vdot", "inner", "matmul", "einsum", "tensordot",
    "trace", "ediff1d", "gradient", "convolve", "correlate", "interp", "in1d", "isin",
    "intersect1d", "union1d", "setdiff1d", "setxor1d", "unique_counts", "unique_inverse",
    "unique_values", "unique_all", "sort_complex", "trapz", "trapezoid", "vecdot", "polyfit",
    "fsum",
    # reading other processors' registers: a gather or scatter that is not a machine step
    "take", "put", "choose", "take_along_axis", "put_along_axis",
})

#: Modules, and names taken from modules, that search, heap or fold.
FORBIDDEN_MODULES = frozenset({"bisect", "heapq", "statistics"})
FORBIDDEN_FROM = frozenset({("functools", "reduce"), ("itertools", "accumulate")})

#: Builtins that reduce; ``min(a, b)`` and ``max(a, b)`` of exactly two plain arguments are
#: allowed: that is O(1) work on two scalars (on arrays of more than one element Python's
#: comparison raises, so it can never reduce across processors).
TWO_ARGUMENT_OK = frozenset({"min", "max"})


def _name(node: ast.expr) -> str:
    """Source text of a call's target, for the report."""
    return ast.unparse(node)


#: Builtins that reduce or sort, refused whenever called (but see :data:`TWO_ARGUMENT_OK`).
BUILTINS = frozenset({"sorted", "sum", "min", "max", "any", "all"})


def forbidden_calls(source: str, filename: str = "<source>") -> list[str]:
    """Every forbidden call and import in ``source``, as ``file:line: what`` strings.

    A method call is judged by its name alone (``x.sum()``, ``np.add.reduce(x)``), except
    when it is the operand of ``yield from``: that is a PRAM sub-program run as machine steps
    (a numpy result yielded from would reach the machine as a non-step and be refused). A bare
    call is judged when it names a reducing builtin or a forbidden name imported from a
    module (``from numpy import cumsum``); a program's own functions may have any name.
    """
    tree = ast.parse(source, filename)
    found: list[str] = []  # "file:line: what", put in line order at the end
    imported: dict[str, str] = {}
    driven: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                imported[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.YieldFrom):
            driven.add(id(node.value))

    def report(node: ast.AST, what: str) -> None:
        found.append(f"{filename}:{getattr(node, 'lineno', 0)}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for module, name, shown in imports(node):
                if module in FORBIDDEN_MODULES or (module, name) in FORBIDDEN_FROM:
                    report(node, shown)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            report(node, f"{ast.unparse(node)} (a matrix product sums)")
        elif isinstance(node, ast.Call):
            func = node.func
            call = f"{ast.unparse(func)}(...)"
            if isinstance(func, ast.Attribute):
                if func.attr in FORBIDDEN_CALLS and id(node) not in driven:
                    report(node, call)
                elif func.attr == "where" and len(node.args) + len(node.keywords) == 1:
                    report(node, f"{call} with one argument (that is nonzero)")
                elif func.attr == "at" and isinstance(func.value, ast.Attribute):
                    report(node, f"{call} (an unbuffered ufunc.at combines like a reduction)")
            elif isinstance(func, ast.Name):
                if func.id in BUILTINS and func.id not in imported:
                    plain_pair = (
                        func.id in TWO_ARGUMENT_OK
                        and len(node.args) == 2
                        and not node.keywords
                        and not any(isinstance(a, ast.Starred) for a in node.args)
                    )
                    if not plain_pair:
                        report(node, call)
                elif imported.get(func.id) in FORBIDDEN_CALLS:
                    report(node, f"{call} (imported {imported[func.id]})")
                elif imported.get(func.id) == "where" and len(node.args) == 1:
                    report(node, f"{call} with one argument (that is nonzero)")
    return sorted(found, key=lambda line: int(line.rsplit(":", 2)[-2]))


def modules(root: Path = ALGORITHMS) -> list[Path]:
    """Every Python module under ``root``."""
    return sorted(root.rglob("*.py"))


def assert_honest(root: Path) -> None:
    """Fail, naming each file:line and call, if any module under ``root`` cheats."""
    found: list[str] = []
    for path in modules(root):
        found += forbidden_calls(path.read_text(), str(path.relative_to(root.parent)))
    if found:
        raise AssertionError("forbidden calls in PRAM programs:\n" + "\n".join(found))


def test_algorithms_make_no_forbidden_calls() -> None:
    """No module under algorithms/ sorts, searches, scans or reduces outside the machine."""
    assert_honest(ALGORITHMS)


def test_the_guard_sees_every_module() -> None:
    """The guard scans the primitives, so an empty scan cannot pass silently."""
    names = {path.name for path in modules()}
    assert "primitives.py" in names


PLANTED = """\
import numpy as np
from bisect import bisect_left
import heapq
from functools import reduce
from itertools import accumulate
from numpy import cumsum as running


def cheat(x, keys, q, team):
    order = np.argsort(x)
    total = x.sum()
    prefix = np.cumsum(x)
    best = max(x)
    every = sum(x)
    hits = np.where(x > 0)
    np.add.at(x, [0, 1], 1)
    folded = np.maximum.reduce(x)
    ok = max(len(x), 1)
    lowest = min(x, key=abs)
    also = running(x)
    code = yield from team.reduce(x)
    return sorted(keys), x @ x, np.where(x > 0, x, 0), ok, inner(x)


def inner(x):
    return x


def gather(x, q):
    import statistics
    return np.take(x, q), statistics.median_low(x)
"""


def test_the_guard_catches_planted_forbidden_calls() -> None:
    """Planted cheats (a gather from other processors' registers among them) are each reported
    with file and line; two-argument max, np.where(c, a, b), a sub-program run by yield from
    and a program's own function are not."""
    assert forbidden_calls(PLANTED, "cheat.py") == [
        "cheat.py:2: from bisect import bisect_left",
        "cheat.py:3: import heapq",
        "cheat.py:4: from functools import reduce",
        "cheat.py:5: from itertools import accumulate",
        "cheat.py:10: np.argsort(...)",
        "cheat.py:11: x.sum(...)",
        "cheat.py:12: np.cumsum(...)",
        "cheat.py:13: max(...)",
        "cheat.py:14: sum(...)",
        "cheat.py:15: np.where(...) with one argument (that is nonzero)",
        "cheat.py:16: np.add.at(...) (an unbuffered ufunc.at combines like a reduction)",
        "cheat.py:17: np.maximum.reduce(...)",
        "cheat.py:19: min(...)",
        "cheat.py:20: running(...) (imported cumsum)",
        "cheat.py:22: sorted(...)",
        "cheat.py:22: x @ x (a matrix product sums)",
        "cheat.py:30: import statistics",
        "cheat.py:31: np.take(...)",
    ]


def test_the_guard_fails_on_a_planted_module(tmp_path: Path) -> None:
    """On a directory holding a cheating module, the guard fails and names file:line and call."""
    (tmp_path / "programs").mkdir()
    (tmp_path / "programs" / "cheat.py").write_text(
        "import numpy as np\n\n\ndef f(x):\n    return np.sort(x)\n"
    )
    message = "forbidden calls in PRAM programs:\nprograms/cheat.py:5: np.sort(...)"
    with pytest.raises(AssertionError, match=re.escape(message) + "$"):
        assert_honest(tmp_path / "programs")


@pytest.mark.parametrize("forbidden", ["algorithms", "rich", "reports"])
def test_the_machine_imports_no_algorithms_and_no_rendering(forbidden: str) -> None:
    """pram/ imports neither algorithms/ nor rich (nor reports/): the floors stay apart."""
    found = []
    for path in sorted((ROOT / "pram").rglob("*.py")):  # the machine, not its linked floors
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            found += [
                f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}: {name}"
                for name in names
                if name.split(".")[0] == forbidden
            ]
    assert found == []


# ---- pram lint: what run time cannot stop -----------------------------------------------------


def test_pram_lint_is_clean_on_the_projects_algorithms() -> None:
    """The command exits 0 on algorithms/ (every program reaches pram only through its public
    objects), and the same check passes as an assertion on each module."""
    from pram.reports.cli import main
    from pram.testing import assert_honest_source

    assert main(["lint", str(ALGORITHMS)]) == 0
    import pram.algorithms.bits
    import pram.algorithms.pbs

    assert_honest_source(pram.algorithms.bits)
    assert_honest_source(pram.algorithms.pbs)


def test_pram_lint_names_file_and_line_of_a_private_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A program that reads ``x._values`` makes ``pram lint`` exit 1 naming file and line."""
    from pram.reports.cli import main

    program = tmp_path / "cheat.py"
    program.write_text(
        "import numpy as np\nfrom pram import Read, Step\n\n"
        "def cheat(m, a, pid):\n    x, = yield Step(pid, reads=[Read(a, pid)])\n"
        "    print(sorted(x._values))\n"
    )
    assert main(["lint", str(program)]) == 1
    assert f"{program}:6: private attribute ._values" in capsys.readouterr().out


def test_assert_honest_source_fails_naming_the_line(tmp_path: Path) -> None:
    import importlib.util

    from pram.testing import assert_honest_source

    program = tmp_path / "patched.py"
    program.write_text("import pram\n\npram.Machine.run = print\n")
    spec = importlib.util.spec_from_file_location("patched", program)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with pytest.raises(AssertionError, match=r"patched.py:3: monkey-patching pram"):
        assert_honest_source(module)


def test_a_module_of_pram_is_sealed_once_loaded() -> None:
    """mock.patch("pram.engine.refusals.MAX_ACCESSES", 4096) let one processor read 4,096
    cells on EREW (the max in 2 steps), and a patched conflict test hid 4,096 concurrent reads
    (fifth outside battery): every module of pram, loaded at import or later, refuses a
    rebinding or a deletion of its attributes, naming it; the import system still binds a
    submodule to its package."""
    from unittest import mock

    import pram
    import pram.engine.conflicts
    import pram.engine.refusals
    import pram.reports.cli
    from pram import HonestyError

    patch = mock.patch("pram.engine.refusals.MAX_ACCESSES", 4096)
    with pytest.raises(HonestyError, match=r"pram\.engine\.refusals\.MAX_ACCESSES cannot be "
                                           r"rebound: pram's modules are sealed"), patch:
        pass
    with pytest.raises(HonestyError, match="distinct_cells cannot be rebound"):
        pram.engine.conflicts.distinct_cells = all  # type: ignore[attr-defined]
    with pytest.raises(HonestyError, match=r"pram\.reports\.cli\.main cannot be deleted"):
        del pram.reports.cli.main
    assert pram.engine.refusals.MAX_ACCESSES == 8 and pram.MAX_ACCESSES == 8
    import pram.algorithms.sorting  # a submodule loaded after the package: sealed too

    with pytest.raises(HonestyError, match="cannot be rebound"):
        pram.algorithms.sorting.sort = None  # type: ignore[assignment]


def test_a_machine_s_records_are_its_own() -> None:
    """m.violations.clear() after a run made assert_erew pass a run that broke EREW (fifth
    outside battery): the host reads a copy, and replacing a record is refused."""
    import numpy as np

    from pram import HonestyError, Machine, Read, Step
    from pram.testing import assert_erew

    m = Machine("erew")
    a = m.array("a", values=np.arange(8))

    def broadcast() -> object:
        yield Step(m.processors(8), reads=[Read(a, np.zeros(8, dtype=np.int64))])

    m.run(broadcast())
    m.violations.clear()
    m.undefined_reads.clear()
    assert len(m.violations) == 1
    with pytest.raises(AssertionError):
        assert_erew(m)
    with pytest.raises(HonestyError, match=r"m\.violations cannot be replaced"):
        m.violations = []
