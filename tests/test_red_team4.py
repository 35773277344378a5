"""Cheats found by a fourth outside red team (which read only the README, the tutorial and the
public API), each now refused at run time or flagged by ``pram lint``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import pram
from pram import HonestyError, Machine, Read, Step, Write, iota
from pram.lint import findings
from pram.run import current

N = 8
DATA = np.array([512, 130, 777, 305, 999, 241, 618, 402])


class _Spy:
    """An observer that keeps every value it is shown."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def operation(self, name: str, operands: tuple[Any, ...], result: Any) -> None:
        self.seen.append(result)

    def step(self, number: int, steps: Any, replies: Any) -> None:
        self.seen.append(replies)


def _after_a_read(cheat: Callable[[Machine, Any], Any]) -> Machine:
    """Run a program that reads DATA into a register, then does ``cheat(m, x)``."""
    m = Machine("erew")
    a = m.array("a", values=DATA)
    b = m.array("b", values=np.zeros(N, dtype=np.int64))

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        cheat(m, x)
        yield Step(pid, writes=[Write(b, iota(N), x + 1)])

    m.run(program())
    return m


def test_the_run_token_cannot_be_made_again_with_an_observer() -> None:
    """Made again with a spy, the token would show the spy every register's values."""
    spy = _Spy()
    with pytest.raises(HonestyError, match=r"made once, by Machine\.run"):
        _after_a_read(lambda m, x: current().__init__(m, spy))  # type: ignore[misc]
    assert spy.seen == []


def test_the_run_token_cannot_be_made_again_to_erase_local_work() -> None:
    def erase(m: Machine, x: Any) -> None:
        for _ in range(20):
            x = x + 1
        current().__init__(m, None)  # type: ignore[misc]

    with pytest.raises(HonestyError, match="made once"):
        _after_a_read(erase)


def test_an_array_cannot_be_made_again_to_unseal_it() -> None:
    m = Machine("erew")
    o = m.array("o", values=np.zeros(N, dtype=np.int64))
    with pytest.raises(HonestyError, match="array 'o' is made once"):
        o.__init__("o", np.zeros(N, np.int64), None)  # type: ignore[misc]

    def program():  # type: ignore[no-untyped-def]
        o.__init__("o", np.zeros(N, np.int64), None)  # type: ignore[misc]
        yield Step(m.processors(N), writes=[Write(o, iota(N), 1)])

    with pytest.raises(HonestyError, match="made once"):
        m.run(program())
    assert o.sealed is False and o.to_numpy().tolist() == [0] * N


def test_a_trace_cannot_be_made_again_to_unseal_it() -> None:
    m = Machine("erew", trace=True)
    t = m.trace
    assert t is not None
    with pytest.raises(HonestyError, match="a trace is made once"):
        _after_a_read(lambda _, x: t.__init__(10**6, "erew"))  # type: ignore[misc]


def test_the_batch_of_a_machine_is_fixed_when_it_is_made() -> None:
    """m.batch = 2 on a single machine charged a 16-value array as 8 cells."""
    m = Machine("erew")
    with pytest.raises(HonestyError, match=r"m\.batch = \.\.\."):
        m.batch = 2
    with pytest.raises(HonestyError, match=r"m\.batch"):
        _after_a_read(lambda m, x: setattr(m, "batch", 2))
    assert Machine("erew", batch=3).batch == 3


@pytest.mark.parametrize("source, what", [
    ('import operator\ny = operator.attrgetter("_values")(x)\n', "attrgetter of _values"),
    ('import operator\ny = operator.attrgetter("a._cells")(x)\n', "attrgetter of a._cells"),
    ('import operator\ny = operator.methodcaller("_sealed")(x)\n', "methodcaller of _sealed"),
    ('from operator import attrgetter\nname = "_v"\ny = attrgetter(name)(x)\n',
     "attrgetter with a computed attribute name"),
    ('import sys\ny = sys.modules["gc"].get_referents(x)\n', "sys.modules"),
    ("import pram\npram.run.current().__init__(m, spy)\n", "an object made again"),
    ('o.__init__("o", values, None)\n', "an object made again"),
])
def test_lint_flags_what_reaches_under_objects(source: str, what: str) -> None:
    found = findings(source, "p.py")
    assert any(what in f for f in found), found


def test_lint_leaves_a_class_of_ones_own_alone() -> None:
    source = ("import operator\nclass A(dict):\n    def __init__(self):\n"
              "        super().__init__()\n        self.__init__\n"
              "y = operator.attrgetter('size')(x)\n")
    assert findings(source, "p.py") == []


def test_the_public_run_token_still_reads() -> None:
    """What the red team found harmless stays available: the token's read-only properties."""
    def look(m: Machine, x: Any) -> None:
        token = current()
        assert token is not None and token.active and token.operations >= 0

    assert _after_a_read(look).cost.time == 2
    assert pram.run.current() is None
