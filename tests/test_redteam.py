"""Cases of the two independent red teams' batteries that found holes or false refusals.

Each plausible cheat must learn nothing (or be refused); each honest idiom must run and give
numpy's answer; each deliberate cheat that run time cannot stop must be flagged by the lint.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import numpy as np
import pytest

from pram import HonestyError, Machine, Read, Step, Write, hold, iota
from pram.lint import findings

D = np.array([381, 349, 353, 426, 997, 619, 230, 197, 139, 281, 464, 497, 258, 740, 926, 607])
N = len(D)


def _read_all(m: Machine, a: Any) -> Generator[Any, Any, tuple[Any, Any]]:
    pid = m.processors(N)
    (x,) = yield Step(pid, reads=[Read(a, iota(N))])
    return pid, x


def test_an_alias_of_defined_taken_before_the_run_sees_none_of_it() -> None:
    """``out.defined`` kept from before the run stays as it was (fresh flags at the start)."""
    m = Machine()
    a, out = m.array("a", values=D), m.array("out", size=N)
    flags = out.defined
    seen: list[Any] = []

    def program() -> Any:
        pid, x = yield from _read_all(m, a)
        yield Step(pid, writes=[Write(out, iota(N), 1, where=x > 500)])
        seen.append(np.array(flags, copy=True))
    m.run(program())
    assert not seen[0].any() and out.defined is not None and out.defined.sum() == (D > 500).sum()


def test_aliases_of_the_logs_and_the_ledger_taken_before_the_run_see_none_of_it() -> None:
    """m.violations, m.undefined_reads, m.cost and its lists kept from before a run do not
    change during it; after the run, m.* shows the run."""
    m = Machine("erew", mode="collect", strict=False)
    a, b = m.array("a", values=D % 4), m.array("b", size=4)
    logs, undefined, cost = m.violations, m.undefined_reads, m.cost
    profile, phases = cost.profile, cost.phases
    seen: list[Any] = []

    def program() -> Any:
        pid, x = yield from _read_all(m, a)
        yield Step(pid, reads=[Read(b, x)])
        seen.append((len(logs), len(undefined), cost.work, list(profile), dict(phases)))
    m.run(program())
    assert seen == [(0, 0, 0, [], {})]
    assert m.violations and m.undefined_reads and m.cost.work == 2 * N


@pytest.mark.parametrize("k", [2, 4, 7])
def test_a_plain_array_in_a_step_of_chosen_processors_is_refused_whatever_its_length(
    k: int,
) -> None:
    """A length accepted only when it equals the count would tell the count."""
    m = Machine()
    a, out = m.array("a", values=D), m.array("out", size=N)

    def program() -> Any:
        pid, x = yield from _read_all(m, a)
        who = hold(pid, pid)[x > 500]
        yield Step(who, writes=[Write(out, np.arange(k), 1)])
    with pytest.raises(HonestyError, match="chosen by data"):
        m.run(program())


def _run(body: Callable[[Any, Any], Any]) -> np.ndarray:
    """Read ``D`` and write ``body(pid, x)`` for each processor; the output array."""
    m = Machine()
    a, out = m.array("a", values=D), m.array("out", values=np.zeros(N, dtype=np.int64))

    def program() -> Any:
        pid, x = yield from _read_all(m, a)
        yield from body(out, (pid, x))
    m.run(program())
    return out.to_numpy()


def test_hold_mask_actors_with_masks_computed_apart() -> None:
    """The README's pattern: processors, index and value each selected by ``x > 500``."""
    def body(out: Any, px: Any) -> Any:
        pid, x = px
        yield Step(hold(pid, pid)[x > 500],
                   writes=[Write(out, hold(pid, iota(N))[x > 500], (x - 1)[x > 500])])
    assert _run(body).tolist() == np.where(D > 500, D - 1, 0).tolist()


def test_another_selection_takes_part_only_where_it_holds() -> None:
    """A register selected by x > 600 in a step of x > 500: only its holders write."""
    def body(out: Any, px: Any) -> Any:
        pid, x = px
        yield Step(hold(pid, pid)[x > 500],
                   writes=[Write(out, hold(pid, iota(N))[x > 600], np.minimum(x, 700)[x > 500])])
    assert _run(body).tolist() == np.where(D > 600, np.minimum(D, 700), 0).tolist()


def test_masked_assignment_between_registers_of_the_same_processors() -> None:
    """``y[x > 500] = z[x > 500]`` with masks computed apart."""
    def body(out: Any, px: Any) -> Any:
        pid, x = px
        y, z = x.copy(), x * 10
        y[x > 500] = z[x > 500]
        yield Step(pid, writes=[Write(out, iota(N), y)])
    assert _run(body).tolist() == np.where(D > 500, D * 10, D).tolist()


def test_a_constant_table_lookup_is_np_choose() -> None:
    """np.choose(x % 10, table): one lookup per processor in a table of constants."""
    table = np.arange(10) * 11

    def body(out: Any, px: Any) -> Any:
        pid, x = px
        yield Step(pid, writes=[Write(out, iota(N), np.choose(x % 10, table))])
    assert _run(body).tolist() == table[D % 10].tolist()


#: Deliberate cheats run time cannot stop, as their source: the lint must name each.
DELIBERATE = {
    "gc": "import gc\ndef f(x):\n    return gc.get_referents(x)\n",
    "ctypes": "import ctypes\ndef f(p):\n    return ctypes.string_at(p, 8)\n",
    "frames": "import sys\ndef f():\n    return sys._getframe(1).f_back.f_locals\n",
    "profile hook": "import sys\nsys.setprofile(lambda frame, e, a: frame.f_locals)\n",
    "monkey-patching": "import pram\npram.Register.__array__ = lambda self: None\n",
    "patched run": "from pram import Machine\nMachine.run = lambda self, p: None\n",
    "private attributes": "def f(x):\n    return x._values\n",
    "computed getattr": "def f(x, n):\n    return getattr(x, n)\n",
    "object.__getattribute__": "def f(x):\n    return object.__getattribute__(x, 'v')\n",
    "driving by hand": "def f(m, g):\n    return m.execute([next(g)])\n",
    "tracemalloc": "import tracemalloc\ntracemalloc.start()\n",
    "getsizeof": "import sys\ndef f(x):\n    return sys.getsizeof(x)\n",
    "exec": "exec('print(1)')\n",
    "hidden import": "import importlib\nimportlib.import_module('gc')\n",
    "observer": "from pram import Machine\nm = Machine(observer=print)\n",
}


@pytest.mark.parametrize("name", sorted(DELIBERATE))
def test_every_deliberate_cheat_is_flagged_by_the_lint(name: str) -> None:
    """Each names file and line."""
    found = findings(DELIBERATE[name], "cheat.py")
    assert found and all(f.startswith("cheat.py:") for f in found)
