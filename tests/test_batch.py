"""Batched runs equal single runs, instance by instance, exactly.

``Machine(batch=B)`` runs B instances of one program in lockstep. Here every instance's
answer, memory, ledger (time, work, reads, writes, local, max_local, processors, phases,
profile, loop tests), violations, resolutions and undefined reads are compared with those of a
single run on its input: on random programs under every model, then on the project's programs
under their models and under a weaker one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import pytest

from pram import MODELS, HonestyError, InputError, Machine, Read, Step, Until, Write, hold
from pram.testing import check_batch

Factory = Callable[..., Any]


def _plain(records: list[Any], instance: int) -> list[Any]:
    return [attrs.evolve(r, instance=None) for r in records if r.instance == instance]


def _outcome(result: Any, i: int | None) -> Any:
    if isinstance(result, tuple | list):
        return tuple(_outcome(r, i) for r in result)
    if result is None or isinstance(result, int | bool | str):
        return result
    values = np.asarray(result)
    if i is None:
        return values.tolist()
    return values[i].tolist() if values.ndim and len(values) and _is_batched(result) else \
        values.tolist()


def _is_batched(result: Any) -> bool:
    from pram.registers import Register

    return type(result) is Register and result._values.ndim > result._processors.ndim


def same_as_single(
    factory: Factory, inputs: dict[str, Any], model: str = "erew", **options: Any
) -> Machine:
    """Run ``factory(m, **arrays)`` batched over the rows of ``inputs`` (an int: that many
    undefined cells) and singly on each row; assert everything is equal."""
    batch = next(len(v) for v in inputs.values() if not isinstance(v, int))
    m = Machine(model, batch=batch, **options)
    arrays = {name: m.array(name, size=v) if isinstance(v, int) else m.array(name, values=v)
              for name, v in inputs.items()}
    result = m.run(factory(m, **arrays))
    costs = m.costs
    for i in range(batch):
        s = Machine(model, **options)
        mine = {name: s.array(name, size=v) if isinstance(v, int) else s.array(name, values=v[i])
                for name, v in inputs.items()}
        single = s.run(factory(s, **mine))
        assert _outcome(result, i) == _outcome(single, None), f"answer of instance {i}"
        for name, array in mine.items():
            assert arrays[name].to_numpy()[i].tolist() == array.to_numpy().tolist(), name
            ours, theirs = arrays[name]._defined, array._defined
            assert (ours is None or ours[i].all()) if theirs is None else \
                ours is not None and ours[i].tolist() == theirs.tolist(), name
        assert costs[i] == s.cost, f"ledger of instance {i}"
        assert _plain(m.violations, i) == s.violations, f"violations of instance {i}"
        assert _plain(m.resolutions, i) == s.resolutions, f"resolutions of instance {i}"
        assert _plain(m.undefined_reads, i) == s.undefined_reads, f"undefined of {i}"
    return m


def rows(rng: np.random.Generator, batch: int, size: int, high: int = 100) -> Any:
    return rng.integers(0, high, (batch, size))


# ---- the API ---------------------------------------------------------------------------------


def swap_and_select(m: Machine, a: Any) -> Any:
    pid = m.processors(4)
    (x,) = yield Step(pid, reads=[Read(a, pid)])
    yield Step(pid, writes=[Write(a, 3 - pid, x * 2)])
    chosen = hold(pid, pid)[x > 2]
    (y,) = yield Step(chosen, reads=[Read(a, 0)])
    yield Step(chosen, writes=[Write(a, hold(pid, pid)[x > 2], y)])
    return x


def test_a_batch_runs_each_instance_as_a_single_run() -> None:
    """Per-instance answers, memory and ledgers; processors chosen by data counted per
    instance."""
    values = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [0, 0, 9, 0]])
    m = same_as_single(swap_and_select, {"a": values}, "crew")
    assert [c.work for c in m.costs] == [12, 16, 10]
    assert m.arrays["a"].to_numpy().shape == (3, 4)


def test_a_batched_cost_is_refused_with_the_fix() -> None:
    """m.cost names m.costs[i] on a batch of more than one instance; batch=1 gives it."""
    m = Machine(batch=2)
    m.array("a", values=np.zeros((2, 4), dtype=np.int64))
    with pytest.raises(InputError, match=r"read m.costs\[i\] for instance i"):
        _ = m.cost
    one = Machine(batch=1)
    a = one.array("a", values=np.arange(4))
    one.run(swap_and_select(one, a))
    assert one.cost == one.costs[0]


def test_batch_is_validated() -> None:
    """batch must be a positive integer."""
    with pytest.raises(InputError, match="batch must be a positive integer"):
        Machine(batch=0)
    with pytest.raises(InputError, match="3 rows but the machine runs a batch of 2"):
        Machine(batch=2).array("a", values=np.zeros((3, 4), dtype=np.int64))


def test_violations_name_their_instance() -> None:
    """Under EREW, a concurrent read chosen by data is a violation of that instance only."""

    def program(m: Machine, a: Any) -> Any:
        pid = m.processors(3)
        (x,) = yield Step(pid, reads=[Read(a, pid)])
        yield Step(pid, reads=[Read(a, x)])

    values = np.array([[0, 1, 2, 0], [1, 1, 0, 3]])
    m = same_as_single(program, {"a": values})
    assert [v.instance for v in m.violations] == [1]
    assert m.violations[0].message.startswith("instance 1: EREW forbids concurrent reads")


def test_check_batch_names_the_wrong_instances() -> None:
    """check_batch compares every instance's answer with the reference."""

    def double(m: Machine, a: Any) -> Any:
        pid = m.processors(a.size)
        (x,) = yield Step(pid, reads=[Read(a, pid)])
        yield Step(pid, writes=[Write(a, pid, 2 * x)])

    values = np.arange(12).reshape(4, 3)
    check_batch(double, {"a": values}, lambda a: 2 * a, output="a")
    with pytest.raises(AssertionError, match="instance 0: got"):
        check_batch(double, {"a": values}, lambda a: 2 * a + (a[0] == 0), output="a")


# ---- loop tests ------------------------------------------------------------------------------


def count_to(m: Machine, limit: Any, flag: Any) -> Any:
    """Each instance counts up to its own limit: a loop ended by a test of memory."""
    pid, control = m.processors(1), m.processors(1)
    counter = m.array("counter", values=np.zeros(1, dtype=np.int64))
    while True:
        (c, top) = yield Step(pid, reads=[Read(counter, 0), Read(limit, 0)])
        yield Step(pid, writes=[Write(counter, 0, c + 1), Write(flag, 0, (c + 1 >= top) * 1)])
        if (yield Until(flag, 0, control)):
            break
    (c,) = yield Step(pid, reads=[Read(counter, 0)])
    return c


def test_an_instance_that_ended_its_loop_idles_uncharged() -> None:
    """The batch ends the loop when every instance has; each is charged its own rounds."""
    limits = np.array([[1], [4], [2]])
    m = same_as_single(count_to, {"limit": limits, "flag": 1})
    assert [c.loop_tests for c in m.costs] == [1, 4, 2]


# ---- every model, random programs ------------------------------------------------------------


@pytest.mark.parametrize("model", sorted(MODELS))
def test_random_steps_equal_single_runs_under_every_model(model: str) -> None:
    """Random reads and writes at random cells (from registers), masks, constants: every
    instance as its single run."""
    rng = np.random.default_rng(sorted(MODELS).index(model))
    for _ in range(6):
        size, n, batch = int(rng.integers(2, 9)), int(rng.integers(1, 7)), 4
        plan = [(int(rng.integers(0, 3)), int(rng.integers(0, 4))) for _ in range(3)]

        def program(m: Machine, a: Any, b: Any, plan: Any = plan, n: int = n) -> Any:
            pid = m.processors(n)
            (x,) = yield Step(pid, reads=[Read(a, pid % a.size)])
            for kind, twist in plan:
                cell = (x + twist) % b.size
                if kind == 0:
                    (y,) = yield Step(pid, reads=[Read(b, cell)], writes=[Write(a, pid % a.size,
                                                                                 x + 1)])
                    x = x + y
                elif kind == 1:
                    yield Step(pid, writes=[Write(b, cell, x % 7, where=x % 3 != 0)])
                else:
                    chosen = hold(pid, pid)[x % 2 == 0]
                    (y,) = yield Step(chosen, reads=[Read(b, twist % b.size)],
                                      writes=[Write(a, 0, 5)])
                    x = x + 1
            return x

        same_as_single(program, {"a": rows(rng, batch, size, 10), "b": rows(rng, batch, size, 10)},
                       model)


def test_a_register_of_other_processors_is_refused() -> None:
    """Processors of one selection cannot use another's register as an index."""

    def program(m: Machine, a: Any) -> Any:
        pid = m.processors(3)
        other = m.processors(3)
        (x,) = yield Step(pid, reads=[Read(a, pid)])
        yield Step(other, reads=[Read(a, x)])

    m = Machine(batch=2)
    a = m.array("a", values=np.zeros((2, 3), dtype=np.int64))
    with pytest.raises(HonestyError, match="register of other processors"):
        m.run(program(m, a))
