"""What a program cannot change or learn while it runs: the machine's rules and batch, its
arrays, its trace, its run token and its logs are fixed for the run, and aliases taken before
it see none of it (cases found by outside red teams, which read only the README, the tutorial
and the public API)."""

from __future__ import annotations

import contextlib
import copy
import operator
import pickle
import string
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import pram
from pram import Cost, HonestyError, Machine, Program, Read, Step, Until, Write, hold, iota
from pram.run import current
from tests.helpers import D16, N16, read_all

N = 8


def test_the_model_cannot_change_while_a_program_runs() -> None:
    """An EREW machine switched to CRCW-sum for one step would sum in one step, unflagged."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(N))
    c = m.array("c", values=np.zeros(1, dtype=np.int64))

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        m.model = pram.models.model("crcw-sum")
        yield Step(pid, writes=[Write(c, 0, x)])

    with pytest.raises(HonestyError, match=r"m\.model = \.\.\. while a program runs"):
        m.run(program())
    assert m.model.name == "EREW"
    assert c.to_numpy().tolist() == [0]


@pytest.mark.parametrize("name, value", [("mode", "collect"), ("strict", False),
                                         ("distinct_processors", True), ("fast_path", False),
                                         ("observer", None)])
def test_no_rule_of_the_machine_changes_mid_run(name: str, value: object) -> None:
    m = Machine("erew")
    a = m.array("a", values=np.arange(N))

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        yield Step(pid, reads=[Read(a, iota(N))])
        setattr(m, name, value)

    with pytest.raises(HonestyError, match=f"m.{name} = "):
        m.run(program())
    setattr(m, name, value)  # before or after a run: an ordinary setting


def _traced(look):  # type: ignore[no-untyped-def]
    m = Machine("erew", trace=True)
    a = m.array("a", values=np.array([512, 130, 777, 305, 999, 241, 618, 402]))
    o = m.array("o", values=np.zeros(N, dtype=np.int64))
    trace = m.trace

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        who = hold(pid, pid)[x > 500]
        yield Step(who, writes=[Write(o, hold(pid, iota(N))[x > 500], 1)])
        look(trace)

    m.run(program())
    return trace


def test_the_trace_counts_no_cells_mid_run() -> None:
    """``cells`` counts the accesses, so under processors chosen by data it counts them."""
    with pytest.raises(HonestyError, match=r"reading the trace \(cells\)"):
        _traced(lambda t: t.cells)
    after = _traced(lambda t: None)  # after the run it is an ordinary count
    assert after.cells == after.as_dict()["cells"] > 0


def test_the_trace_cannot_be_unsealed() -> None:
    def unseal(t: pram.Trace) -> None:
        t.sealed = False  # type: ignore[misc]

    with pytest.raises(AttributeError):
        _traced(unseal)


def test_a_loop_test_gives_its_bit_only_as_a_step() -> None:
    """The bit of an Until is the machine's reply to the step; no method of the step turns a
    register into a bool without one."""
    assert not hasattr(Until, "answer")
    m = Machine("erew")
    a = m.array("a", values=np.arange(N))

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        with pytest.raises(HonestyError):
            bool(x > 4)
        return (yield Until(a, 0, pid[:1], value=0))

    assert m.run(program()) is True
    assert m.cost.loop_tests == 1


@pytest.mark.parametrize("attribute, value", [("size", 100), ("shape", (100,)), ("name", "b"),
                                              ("freed", True)])
def test_an_array_cannot_be_resized_renamed_or_marked_freed(attribute: str, value: Any) -> None:
    """An array resized mid-run would move its addresses under the range and conflict checks
    (a size of 100 passes index 50 to the cells' own indexing); renamed or marked freed, it
    would confuse the machine's own bookkeeping. All four are read-only, before and during a
    run."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(N))
    with pytest.raises(AttributeError):
        setattr(a, attribute, value)

    def program():  # type: ignore[no-untyped-def]
        setattr(a, attribute, value)
        yield Step(m.processors(N), reads=[Read(a, iota(N))])

    with pytest.raises(AttributeError):
        m.run(program())
    assert (a.size, a.shape, a.name, a.freed) == (N, (N,), "a", False)


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


@pytest.mark.parametrize("how", [
    pickle.dumps, lambda a: pickle.dumps(a, protocol=0), copy.copy, copy.deepcopy,
], ids=["pickle", "pickle protocol 0", "copy.copy", "copy.deepcopy"])
def test_a_sealed_array_is_neither_pickled_nor_copied(how: Callable[[Any], Any]) -> None:
    """Mid-run, a pickle or a copy of an array would carry its cells past the steps (to a
    worker process, or to a copy the program reads with to_numpy); before and after the run
    both work."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(N))
    assert pickle.loads(pickle.dumps(a)).to_numpy().tolist() == list(range(N))
    assert copy.deepcopy(a).to_numpy().tolist() == list(range(N))

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        yield Step(pid, reads=[Read(a, iota(N))])
        how(a)
        yield Step(pid)

    with pytest.raises(HonestyError, match=r"^pickling or copying array 'a' .* while a "
                       r"program runs .*; read a with a Read in a step"):
        m.run(program())
    assert copy.copy(a).to_numpy().tolist() == list(range(N))


@pytest.mark.parametrize("reach", [
    lambda a: "{0._cells}".format(a),  # noqa: UP030, UP032  # the cheat as written
    lambda a: string.Formatter().get_field("0._cells", (a,), {}),
    lambda a: operator.attrgetter("_cells")(a),
    lambda a: "{0._defined}".format(a),  # noqa: UP030, UP032  # which cells were written
], ids=["str.format", "Formatter.get_field", "operator.attrgetter", "the defined flags"])
def test_no_attribute_path_reaches_an_arrays_cells(reach: Callable[[Any], Any]) -> None:
    """``"{0._cells}".format(a)`` gave a sealed array's memory as text mid-run, no step
    taken: the cells (and the flags of which hold a value) sit in slots no name leads to
    (pram._held), during the run and after it; a pickle made back mid-run is refused too."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(N))
    state = pickle.loads(pickle.dumps(a)).__reduce_ex__(2)[2]

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        yield Step(pid, reads=[Read(a, iota(N))])
        with pytest.raises(AttributeError, match="'Array' object has no attribute '_"):
            reach(a)
        with pytest.raises(HonestyError, match="restoring a from a pickle while a program "
                           "runs"):
            a.__setstate__(state)
        yield Step(pid, writes=[Write(a, iota(N), 7)])

    m.run(program())
    with pytest.raises(AttributeError, match="'Array' object has no attribute '_"):
        reach(a)
    assert a.to_numpy().tolist() == [7] * N


def test_no_module_of_pram_but_held_names_an_accessor_publicly() -> None:
    """``import pram.trace; pram.trace.cells_of(a)`` (or ``pram.loop.raw_of(x)``,
    ``pram.engine.core.put_cells``) read and wrote a sealed array's cells and a register's raw
    values without naming the private module ``pram._held``: every module of pram that uses
    the accessors holds them under private names only, which ``pram lint`` flags."""
    import importlib
    import pkgutil
    import pydoc
    import sys
    import types

    from pram import _held
    from pram.engine import instances

    def reaches_a_slot(value: object) -> bool:  # an accessor: a slot descriptor's own method
        return isinstance(getattr(value, "__self__", None), types.MemberDescriptorType)

    assert reaches_a_slot(instances._raw_of) and reaches_a_slot(instances._cells_of)
    found, walked = [], 0
    for info in pkgutil.walk_packages(pram.__path__, "pram."):
        module = importlib.import_module(info.name)
        walked += 1
        found += [f"{info.name}.{name}" for name, value in vars(module).items()
                  if (module is _held or not name.startswith("_")) and reaches_a_slot(value)]
    found += [f"pram.{name}" for name, value in vars(pram).items()
              if not name.startswith("_") and reaches_a_slot(value)]
    assert walked > 40 and found == []
    # pram._held is sealed once pram is imported: its accessors are gone from it by every path
    held = sys.modules["pram._held"]
    for name in held.ACCESSORS:
        assert not hasattr(held, name) and pydoc.locate(f"pram._held.{name}") is None, name
    for gone in ("pram.trace.cells_of", "pram.loop.raw_of", "pram.engine.fast.words_of"):
        assert pydoc.locate(gone) is None, gone


@pytest.mark.parametrize("reach", [
    lambda m: "{0._cost.work}".format(m),  # noqa: UP030, UP032  # the cheat as written (D46)
    lambda m: "{0._cost.profile}".format(m),  # noqa: UP030, UP032
    lambda m: "{0._violations}".format(m),  # noqa: UP030, UP032
    lambda m: "{0._ledger}".format(m),  # noqa: UP030, UP032
    lambda m: string.Formatter().get_field("0._cost", (m,), {}),
    lambda m: string.Formatter().get_field("0._violations", (m,), {}),
    lambda m: operator.attrgetter("_undefined_reads")(m),
    lambda m: operator.attrgetter("_resolutions")(m),
    lambda m: "{0._engine}".format(m),  # noqa: UP030, UP032  # a batch's ledgers are in it
    lambda m: "{0._recorder}".format(m),  # noqa: UP030, UP032
    lambda m: "{0._depths}".format(m),  # noqa: UP030, UP032
    lambda m: "{0._failure}".format(m),  # noqa: UP030, UP032  # an overflow kept from it
], ids=["work", "profile", "violations", "ledger view", "get_field ledger",
        "get_field violations", "undefined reads", "resolutions", "engine", "trace recorder",
        "depths", "failure"])
def test_no_attribute_path_reaches_a_machines_ledger(reach: Callable[[Any], Any]) -> None:
    """``"{0._cost.work}".format(m)`` read mid-run how many processors chose themselves by
    data (no step taken), and ``get_field`` handed the program the ledger and the list of
    violations themselves, to zero or clear: they sit in slots no name leads to
    (pram._held.HeldRecord), during the run and after it; the view a running program gets
    as m.cost keeps its ledger the same way, and a machine is neither pickled nor copied."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(N))
    chosen = 3  # a[i] >= N - chosen: 3 processors chosen by data

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        keep = x >= N - chosen
        yield Step(hold(pid, pid)[keep], reads=[Read(a, hold(pid, iota(N))[keep])])
        yield Step(pid, reads=[Read(a, keep.astype(np.int64))])  # concurrent: a violation
        with pytest.raises(AttributeError, match="'Machine' object has no attribute '_"):
            reach(m)
        with pytest.raises(HonestyError, match=r"m\.cost\._cost while a program runs"):
            "{0.cost._cost.work}".format(m)  # noqa: UP030, UP032
        yield Step(pid, reads=[Read(a, iota(N))])

    m.run(program())
    with pytest.raises(AttributeError, match="'Machine' object has no attribute '_"):
        reach(m)
    assert (m.cost.work, m.cost.time) == (3 * N + chosen, 4)
    assert len(m.violations) > 0
    for how in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(HonestyError, match=r"^pickling or copying a Machine"):
            how(m)


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


def test_the_public_run_token_still_reads() -> None:
    """What the red team found harmless stays available: the token's read-only properties."""
    def look(m: Machine, x: Any) -> None:
        token = current()
        assert token is not None and token.active and token.operations >= 0

    assert _after_a_read(look).cost.time == 2
    assert pram.run.current() is None


def test_an_alias_of_defined_taken_before_the_run_sees_none_of_it() -> None:
    """``out.defined`` kept from before the run stays as it was (fresh flags at the start)."""
    m = Machine()
    a, out = m.array("a", values=D16), m.array("out", size=N16)
    flags = out.defined
    seen: list[Any] = []

    def program() -> Any:
        pid, x = yield from read_all(m, a, N16)
        yield Step(pid, writes=[Write(out, iota(N16), 1, where=x > 500)])
        seen.append(np.array(flags, copy=True))
    m.run(program())
    assert not seen[0].any() and out.defined is not None and out.defined.sum() == (D16 > 500).sum()


def test_aliases_of_the_logs_and_the_ledger_taken_before_the_run_see_none_of_it() -> None:
    """m.violations, m.undefined_reads, m.cost and its lists kept from before a run do not
    change during it; after the run, m.* shows the run."""
    m = Machine("erew", mode="collect", strict=False)
    a, b = m.array("a", values=D16 % 4), m.array("b", size=4)
    logs, undefined, cost = m.violations, m.undefined_reads, m.cost
    profile, phases = cost.profile, cost.phases
    seen: list[Any] = []

    def program() -> Any:
        pid, x = yield from read_all(m, a, N16)
        yield Step(pid, reads=[Read(b, x)])
        seen.append((len(logs), len(undefined), cost.work, list(profile), dict(phases)))
    m.run(program())
    assert seen == [(0, 0, 0, [], {})]
    assert m.violations and m.undefined_reads and m.cost.work == 2 * N16


def test_the_ledger_after_a_run_is_not_the_programs_to_rewrite() -> None:
    """A sweep builder ran n^2 work, then set m.cost.work = n (or replaced m.cost): the sweep
    said O(n) "holds, tight". After a run m.cost is a copy that refuses assignment, and the
    ledger cannot be replaced; the sweep reads the machine's own counts."""

    def builder(m: Machine, n: int) -> None:
        a = m.array("a", values=np.arange(n))

        def program(m: Machine) -> Program[None]:
            for _ in range(n):
                yield Step(m.processors(n), reads=[Read(a, iota(n))])

        m.run(program(m))
        for cheat in (lambda: setattr(m.cost, "work", n), lambda: setattr(m, "cost", Cost()),
                      lambda: m.cost.profile.clear(), lambda: delattr(m.cost, "time")):
            with contextlib.suppress(HonestyError):
                cheat()

    swept = pram.sweep(builder, [16, 32, 64, 128, 256], bounds={"work": "n"})
    assert [p.cost.work for p in swept.points] == [n * n for n in (16, 32, 64, 128, 256)]
    assert swept.checks["work"].verdict == "exceeded"
