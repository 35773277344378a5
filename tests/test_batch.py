"""Batched runs equal single runs, instance by instance, exactly.

``Machine(batch=B)`` runs B instances of one program in lockstep. Here every instance's
answer, memory, ledger (time, work, reads, writes, local, max_local, processors, phases,
profile, loop tests), violations, resolutions and undefined reads are compared with those of a
single run on its input: on random programs under every model, then on the project's programs
under their models and under a weaker one.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import (
    MODELS,
    Bundle,
    HonestyError,
    InputError,
    Machine,
    PRAMError,
    Read,
    Step,
    Until,
    Write,
    hold,
)
from pram.algorithms import mqar, networks, sorting
from pram.algorithms.bits import BitKeys
from pram.algorithms.contraction import parse_expression
from pram.batch import run_instances
from pram.engine.instances import _defined_of as defined_of
from pram.engine.instances import _owners_of as owners_of
from pram.engine.instances import _raw_of as raw_of
from pram.testing import check_batch
from tests.helpers import random_expression

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

    return type(result) is Register and raw_of(result).ndim > owners_of(result).ndim


def _allocate(m: Machine, name: str, v: Any, i: int | None = None) -> Any:
    """An input array: ``v`` undefined cells (an int), else rows of values (row ``i`` for a
    single machine), reals kept real."""
    if isinstance(v, int):
        return m.array(name, size=v)
    values = v if i is None else v[i]
    return m.array(name, values=values, dtype=float if v.dtype.kind == "f" else None)


def same_as_single(
    factory: Factory, inputs: dict[str, Any], model: str = "erew", **options: Any
) -> Machine:
    """Run ``factory(m, **arrays)`` batched over the rows of ``inputs`` (an int: that many
    undefined cells) and singly on each row; assert everything is equal."""
    batch = next(len(v) for v in inputs.values() if not isinstance(v, int))
    m = Machine(model, batch=batch, **options)
    arrays = {name: _allocate(m, name, v) for name, v in inputs.items()}
    returned = m.run(factory(m, **arrays))  # registers: each instance's row from its pass
    assert len(m.results) == batch
    costs = m.costs
    for i in range(batch):
        result = m.results[i]  # the value of the pass that ran instance i
        s = Machine(model, **options)
        mine = {name: _allocate(s, name, v, i) for name, v in inputs.items()}
        single = s.run(factory(s, **mine))
        assert _outcome(result, i) == _outcome(single, None), f"answer of instance {i}"
        if not (single is None or isinstance(single, int | bool | str)):  # a plain value
            assert _outcome(returned, i) == _outcome(single, None), f"returned row of {i}"
        for name, array in mine.items():
            assert arrays[name].to_numpy()[i].tolist() == array.to_numpy().tolist(), name
            assert arrays[name].dtype == array.dtype and arrays[name].shape == array.shape
            ours, theirs = defined_of(arrays[name]), defined_of(array)
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
    """m.cost is the ledger every instance shares, and names m.costs[i] once they differ."""
    m = Machine(batch=2)
    a = m.array("a", values=np.array([[1, 2, 3, 4], [0, 0, 9, 0]]))
    assert m.cost == m.costs[0] == m.costs[1]
    m.run(swap_and_select(m, a))
    with pytest.raises(InputError, match=r"^the 2 instances of this batched machine have "
                       r"different ledgers; read m.costs\[i\] for instance i$"):
        _ = m.cost
    one = Machine(batch=1)
    a = one.array("a", values=np.arange(4))
    one.run(swap_and_select(one, a))
    assert one.cost == one.costs[0]


def test_batch_is_validated() -> None:
    """batch must be a positive integer."""
    with pytest.raises(InputError, match="batch must be a positive integer"):
        Machine(batch=0)
    for huge in (10**9, 10**12):  # it took minutes, or ran out of memory
        with pytest.raises(InputError, match=f"batch={huge:,} instances is more than one "
                           "machine holds"):
            Machine(batch=huge)
    with pytest.raises(InputError, match=r"shape \(2, size\), one row per instance of the "
                       r"batch of 2 \(got shape \(3, 4\)\)"):
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


def test_a_batch_register_shows_one_instance_sizes() -> None:
    """While a program runs, a register of a batch has the shape of its processors."""
    seen = []

    def program(m: Machine, a: Any) -> Any:
        pid = m.processors(3)
        (x,) = yield Step(pid, reads=[Read(a, pid)])
        seen.append((np.shape(x), np.size(x), np.ndim(x), x.shape, len(x), x.ndim))
        return x

    m = Machine(batch=2)
    a = m.array("a", values=np.zeros((2, 3), dtype=np.int64))
    result = m.run(program(m, a))
    assert seen == [((3,), 3, 1, (3,), 3, 1)]
    assert result.shape == (2, 3)  # after the run, output: one row per instance


def test_errors_name_the_instance() -> None:
    """An address out of range in one instance stops the batch, naming the instance; so does
    a strict undefined read and, in raise mode, a forbidden access."""
    from pram import AddressError, ConflictError, UndefinedReadError

    def reads_at(m: Machine, a: Any) -> Any:
        pid = m.processors(2)
        (x,) = yield Step(pid, reads=[Read(a, pid)])
        yield Step(pid, reads=[Read(a, x)])

    m = Machine(batch=2)
    a = m.array("a", values=np.array([[0, 1, 0], [1, 5, 0]]))
    with pytest.raises(AddressError, match=r"^instance 1: processor 1 tried to read a\[5\] "
                       r"in step 2, but a has indices 0 to 2$") as caught:
        m.run(reads_at(m, a))
    assert caught.value.instance == 1
    m = Machine(batch=2, mode="raise")
    a = m.array("a", values=np.array([[0, 1, 0], [1, 1, 0]]))
    with pytest.raises(ConflictError, match=r"^instance 1: EREW forbids concurrent reads: "
                       r"processors 0 and 1 read a\[1\] in step 2$") as conflict:
        m.run(reads_at(m, a))
    assert conflict.value.instance == 1

    def undefined(m: Machine, a: Any, b: Any) -> Any:
        pid = m.processors(1)
        (x,) = yield Step(pid, reads=[Read(a, 0)])
        yield Step(pid, reads=[Read(b, x)])

    m = Machine(batch=2)
    a = m.array("a", values=np.array([[0], [1]]))
    b = m.array("b", size=2)
    with pytest.raises(UndefinedReadError, match=r"^instance 0: undefined read: processor 0 "
                       r"read b\[0\] in step 2") as unread:
        m.run(undefined(m, a, b))
    assert unread.value.instance == 0
    m = Machine()  # a single machine's errors name no instance
    a = m.array("a", values=np.array([0, 5, 0]))
    with pytest.raises(AddressError) as single:
        m.run(reads_at(m, a))
    assert single.value.instance is None


def test_a_single_machine_has_one_ledger_and_no_instance() -> None:
    """m.costs of a single machine is its one ledger; its records have no instance."""
    m = Machine()
    a = m.array("a", values=np.array([2, 2, 0, 0]))
    m.run(swap_and_select(m, a))
    assert m.costs == (m.cost,)
    assert all(v.instance is None for v in m.violations)


def test_a_plain_array_per_instance_is_refused() -> None:
    """Per-instance data reaches a step through memory, not as a plain (B, n) array."""
    from pram import StepError

    def program(m: Machine, a: Any) -> Any:
        pid = m.processors(2)
        yield Step(pid, reads=[Read(a, np.zeros((2, 2), dtype=np.int64))])

    m = Machine(batch=2)
    a = m.array("a", values=np.zeros((2, 2), dtype=np.int64))
    with pytest.raises(StepError, match="a batch shares plain arrays"):
        m.run(program(m, a))


def test_check_batch_fails_on_a_broken_model() -> None:
    """check_batch names an instance that broke the model."""

    def program(m: Machine, a: Any) -> Any:
        pid = m.processors(2)
        (x,) = yield Step(pid, reads=[Read(a, pid)])
        (y,) = yield Step(pid, reads=[Read(a, x % 2)])
        return y

    values = np.array([[0, 1], [1, 1]])
    with pytest.raises(AssertionError, match="instance 1: EREW forbids concurrent reads"):
        check_batch(program, {"a": values}, lambda a: a[a % 2])


def test_reals_equal_single_runs_under_every_model() -> None:
    """Float arrays: reads, arithmetic on reals, writes at cells from registers (concurrent
    writers summed in processor order under CRCW sum), per instance as single runs."""

    def program(m: Machine, a: Any, b: Any) -> Any:
        pid = m.processors(6)
        (x,) = yield Step(pid, reads=[Read(a, pid % a.size)])
        cell = (x * 3).astype(np.int64) % b.size
        yield Step(pid, writes=[Write(b, cell, x * 0.5 + 1)])
        (y,) = yield Step(pid, reads=[Read(b, pid % b.size)])
        return y

    rng = np.random.default_rng(3)
    for model in sorted(MODELS):
        same_as_single(program, {"a": rng.random((4, 5)), "b": rng.random((4, 4))}, model)


def test_two_dimensional_arrays_equal_single_runs() -> None:
    """Pairs (i, j) from registers into (r, c) arrays, one matrix per instance; a pair outside
    the shape names its instance."""
    from pram import AddressError

    def program(m: Machine, grid: Any, out: Any) -> Any:
        pid = m.processors(3)
        (x,) = yield Step(pid, reads=[Read(grid, (pid % 2, pid % 3))])
        (y,) = yield Step(pid, reads=[Read(grid, (x % 2, (x + 1) % 3))])
        yield Step(pid, writes=[Write(out, (pid % 2, x % 2), y)])

    rng = np.random.default_rng(4)
    m = same_as_single(program, {"grid": rng.integers(0, 9, (3, 2, 3)),
                                 "out": np.zeros((3, 2, 2), dtype=np.int64)}, "crcw-common")
    assert m.arrays["grid"].to_numpy().shape == (3, 2, 3)

    def outside(m: Machine, grid: Any) -> Any:
        pid = m.processors(1)
        (x,) = yield Step(pid, reads=[Read(grid, (0, 0))])
        yield Step(pid, reads=[Read(grid, (x, 0))])

    m = Machine(batch=2)
    grid = m.array("grid", values=np.array([[[1, 0]], [[0, 0]]]))
    with pytest.raises(AddressError, match=r"^instance 0: processor 0 tried to read grid\[1, "
                       r"0\] in step 2, which is outside shape \(1, 2\)") as caught:
        m.run(outside(m, grid))
    assert caught.value.instance == 0


def test_an_overflow_names_its_instance_and_idle_rows_do_not_overflow() -> None:
    """An int64 overflow in one instance fails the batch naming it; processors that did not
    choose themselves hold values that never overflow the run."""
    from pram import IntegerOverflowError

    def program(m: Machine, a: Any) -> Any:
        pid = m.processors(2)
        (x,) = yield Step(pid, reads=[Read(a, pid % a.size)])
        small = hold(pid, pid)[x < 2**40]
        y = x[x < 2**40] * 2**20  # only the processors that chose themselves compute it
        yield Step(small, writes=[Write(a, hold(pid, pid)[x < 2**40] % a.size, y)])

    m = same_as_single(program, {"a": np.array([[1, 2**62], [2**62, 3]])})
    assert [c.writes for c in m.costs] == [1, 1]

    def big(m: Machine, a: Any) -> Any:
        pid = m.processors(1)
        (x,) = yield Step(pid, reads=[Read(a, 0)])
        yield Step(pid, writes=[Write(a, 0, x * 4)])

    m = Machine(batch=2)
    a = m.array("a", values=np.array([[1], [2**62]]))
    with pytest.raises(IntegerOverflowError, match=r"^instance 1: int64 overflow in multiply: "
                       r"processor 0 computed 4611686018427387904 \* 4") as caught:
        m.run(big(m, a))
    assert caught.value.instance == 1
    assert pickle.loads(pickle.dumps(caught.value)).instance == 1  # crosses to a worker


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


def test_nested_loops_end_per_instance() -> None:
    """An inner loop ended by each instance after its own rounds, inside an outer loop ended
    after its own: every instance's counts as its single run's."""

    def program(m: Machine, limits: Any, inner: Any, outer: Any) -> Any:
        pid, control = m.processors(1), m.processors(1)
        counts = m.array("counts", values=np.zeros(3, dtype=np.int64))
        while True:
            yield Step(pid, writes=[Write(counts, 0, 0)])
            while True:
                (k, top, total) = yield Step(pid, reads=[
                    Read(counts, 0), Read(limits, 0), Read(counts, 2)])
                yield Step(pid, writes=[Write(counts, 0, k + 1), Write(counts, 2, total + 1),
                                        Write(inner, 0, (k + 1 >= top) * 1)])
                if (yield Until(inner, 0, control)):
                    break
            (o, top) = yield Step(pid, reads=[Read(counts, 1), Read(limits, 1)])
            yield Step(pid, writes=[Write(counts, 1, o + 1), Write(outer, 0, (o + 1 >= top) * 1)])
            if (yield Until(outer, 0, control)):
                break
        (total,) = yield Step(pid, reads=[Read(counts, 2)])
        return total

    limits = np.array([[1, 3], [3, 1], [2, 2], [1, 1]])
    zeros = np.zeros((4, 1), dtype=np.int64)
    m = same_as_single(program, {"limits": limits, "inner": zeros, "outer": zeros})
    assert [c.loop_tests for c in m.costs] == [6, 4, 6, 2]


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


# ---- the project's programs ------------------------------------------------------------------


class _Ran(Exception):
    """Raised after a host function's first run, to compare what it left (its reading of
    the output afterwards is the host's, not the machine's)."""


def _first_run(m: Machine) -> dict[str, Any]:
    """Make ``m.run`` stop the host function after the first run, recording what it left."""
    seen: dict[str, Any] = {}
    run = m.run

    def stopping(program: Any) -> Any:
        run(program)
        seen["memory"] = {name: (a.to_numpy(), defined_of(a)) for name, a in m.arrays.items()}
        seen["costs"] = m.costs
        raise _Ran

    m.run = stopping  # type: ignore[method-assign]
    return seen


def same_as_single_host(function: Callable[..., Any], instances: list[tuple[Any, ...]],
                        model: str, **keywords: Any) -> Machine:
    """Run a host function of the catalogue (``function(m, *inputs, **keywords)``, which
    allocates its arrays from its inputs and runs its program on ``m``) once per instance on a
    single machine, then for all instances at once (:func:`pram.batch.run_instances`);
    compare memory, ledgers and records after the run."""
    singles: list[tuple[Machine, dict[str, Any]]] = []
    for inputs in instances:
        s = Machine(model, strict=False)
        seen = _first_run(s)
        with pytest.raises(_Ran):
            function(s, *inputs, **keywords)
        singles.append((s, seen))
    m = Machine(model, batch=len(instances), strict=False)
    run_instances(m, function, instances, **keywords)
    ours = {"memory": {name: (a.to_numpy(), defined_of(a)) for name, a in m.arrays.items()},
            "costs": m.costs}
    for i, (s, seen) in enumerate(singles):
        assert sorted(ours["memory"]) == sorted(seen["memory"])
        for name, (cells, defined) in seen["memory"].items():
            mine, known = ours["memory"][name]
            assert mine[i].tolist() == cells.tolist(), f"{name} of instance {i}"
            assert (known is None or known[i].all()) if defined is None else \
                known is not None and known[i].tolist() == defined.tolist(), name
        assert ours["costs"][i] == seen["costs"][0], f"ledger of instance {i}"
        assert _plain(m.violations, i) == s.violations, f"violations of instance {i}"
        assert _plain(m.resolutions, i) == s.resolutions, f"resolutions of instance {i}"
        assert _plain(m.undefined_reads, i) == s.undefined_reads, f"undefined of {i}"
    return m


def permutation_list(rng: np.random.Generator, n: int) -> Any:
    """A random linked list through n nodes (successors, -1 for the tail)."""
    order = rng.permutation(n)
    successors = np.full(n, -1, dtype=np.int64)
    successors[order[:-1]] = order[1:]
    return successors


def random_tree(rng: np.random.Generator, n: int) -> Any:
    """The edges of a random tree on n nodes, one (u, v) per row."""
    parents = [int(rng.integers(0, i)) for i in range(1, n)]
    return np.array([[p, i + 1] for i, p in enumerate(parents)], dtype=np.int64)


CATALOGUE = [
    # (name, module, function, model, weaker model, inputs of one instance)
    ("list ranking", "catalogue", "list_ranking", "erew", None,
     lambda r: (permutation_list(r, 9),)),
    ("prefix sums", "catalogue", "prefix_sums", "erew", None,
     lambda r: (r.integers(0, 9, 13),)),
    ("merge", "catalogue", "merge", "crew", "erew",
     lambda r: (np.sort(r.integers(0, 20, 6)), np.sort(r.integers(0, 20, 5)))),
    ("matrix product", "catalogue", "matrix_multiply", "crew", "erew",
     lambda r: (r.integers(0, 5, (3, 3)), r.integers(0, 5, (3, 3)))),
    ("maximum", "catalogue", "maximum", "crcw-common", "crew",
     lambda r: (r.integers(0, 6, 7),)),
    ("rank sort", "catalogue", "rank_sort", "crcw-sum", "crcw-common",
     lambda r: (r.permutation(8),)),
    ("compaction", "compaction", "compact", "erew", None,
     lambda r: (r.integers(0, 50, 11), r.integers(0, 2, 11))),
    ("doubly logarithmic max", "cascading", "doubly_log_max", "crcw-common", "crew",
     lambda r: (r.integers(0, 30, 17),)),
    ("cascading max", "cascading", "cascade_max", "crcw-common", "crew",
     lambda r: (r.integers(0, 30, 20),)),
    ("selection", "selection", "select", "erew", None,
     lambda r: (r.integers(0, 30, 12), 5)),
    ("random-mate ranking", "ranking", "random_mate_ranking", "erew", None,
     lambda r: (permutation_list(r, 10),)),
    ("connected components", "tests.test_batch", "components", "crcw-arbitrary",
     "crew", lambda r: (8, r.integers(0, 8, (6, 2)))),
    ("euler tour", "euler", "euler_tour", "erew", None, lambda r: (random_tree(r, 7),)),
    ("expression trees", "contraction", "evaluate", "erew", None,
     lambda r: parse_expression(random_expression(r, 6, 5))),
    ("pbs", "pbs", "search", "erew", None,
     lambda r: (np.sort(r.integers(0, 30, 8)), np.sort(r.integers(0, 30, 8)))),
    ("mqar, word keys", "mqar", "recall", "erew", None, lambda r: (r.integers(0, 6, 12),)),
    ("sorting, bitonic", "sorting", "sort", "erew", None, lambda r: (r.integers(0, 9, 8),)),
    ("sorting, odd-even", "tests.test_batch", "sort_odd_even", "erew", None,
     lambda r: (r.integers(0, 9, 8),)),
    ("network, bitonic", "tests.test_batch", "network_bitonic", "erew", None,
     lambda r: (r.integers(0, 9, 16),)),
    ("network, odd-even merge", "tests.test_batch", "network_merge", "erew", None,
     lambda r: (np.concatenate([np.sort(r.integers(0, 9, 8)), np.sort(r.integers(0, 9, 8))]),)),
]


@pytest.mark.parametrize("entry", CATALOGUE, ids=[e[0] for e in CATALOGUE])
def test_catalogue_entries_equal_single_runs(entry: Any) -> None:
    """Every catalogue entry, under its model and a weaker one: memory, ledgers and
    violations of each instance as its single run's."""
    import importlib

    name, module, function, model, weaker, make = entry
    place = module if module.startswith("tests.") else f"pram.algorithms.{module}"
    host = getattr(importlib.import_module(place), function)
    rng = np.random.default_rng(len(name))
    instances = [make(rng) for _ in range(3)]
    same_as_single_host(host, instances, model)
    if weaker is not None:
        m = same_as_single_host(host, instances, weaker)
        assert m.violations, f"{name} under {weaker} is flagged"


def components(m: Machine, n: int, edges: Any) -> Any:
    """Shiloach and Vishkin's connected components, as pram.algorithms.components runs them
    (without reading the ledger before the run, which a batch keeps per instance)."""
    from pram import phase
    from pram.algorithms.components import _edges, hook_and_shortcut, sv_rounds

    pairs = _edges(n, edges)
    parent = m.array("components/parent", values=np.arange(n, dtype=np.int64))
    us = m.array("components/u", values=pairs[:, 0].copy())
    vs = m.array("components/v", values=pairs[:, 1].copy())
    changed = m.array("components/changed", values=np.zeros(sv_rounds(n) + 1, dtype=np.int64))
    return m.run(phase("components", hook_and_shortcut(m, parent, us, vs, n, len(pairs),
                                                       changed)))


def network_bitonic(m: Machine, values: Any) -> Any:
    """The bitonic network of pram.algorithms.networks on word keys."""
    a = m.array("keys", values=values)
    m.run(networks.sort(m, a, "bitonic"))


def network_merge(m: Machine, values: Any) -> Any:
    """The odd-even merge of two sorted halves (pram.algorithms.networks)."""
    a = m.array("keys", values=values)
    m.run(networks.merge(m, a, "odd-even"))


def sort_odd_even(m: Machine, values: Any) -> Any:
    """The odd-even merge sort network on ``values``."""
    return sorting.sort(m, values, network="odd-even")


@pytest.mark.parametrize("comparator", ["serial", "tree"])
def test_bit_keys_equal_single_runs(comparator: str) -> None:
    """MQAR and a sorting network with d-bit keys (processors chosen by their bits)."""
    rng = np.random.default_rng(7)

    def recall(m: Machine, tokens: Any) -> Any:
        return mqar.recall(m, tokens, keys=BitKeys(3, comparator))

    same_as_single_host(recall, [(rng.integers(0, 8, 12),) for _ in range(3)], "erew")

    def bits(m: Machine, values: Any) -> Any:
        a = networks.store_bits(m, "keys", values, 3)
        m.run(networks.sort(m, a, "bitonic", d=3))

    same_as_single_host(bits, [(rng.integers(0, 8, 8),) for _ in range(3)], "erew")


# ---- random programs, every model ------------------------------------------------------------



def random_program(seed: int) -> tuple[Callable[..., Any], dict[str, Any], dict[str, Any]]:
    """A random program (the same host control flow for every instance) of one to five global
    steps of one or two branches, with indices, values and masks plain or from registers,
    processors now and then chosen by data, and now and then a loop ended by a test of
    memory after a number of rounds each instance reads from memory; its inputs for four
    instances, and machine options."""
    rng = np.random.default_rng(seed)
    batch = 4
    sizes = [int(rng.integers(1, 10)) for _ in range(int(rng.integers(1, 4)))]
    inputs: dict[str, Any] = {}
    for k, size in enumerate(sizes):
        draw = rng.random()
        inputs[f"a{k}"] = size if draw < 0.2 else (
            rng.integers(-3, 12, (batch, size)) / 2 if draw < 0.35  # reals, some halves
            else rng.integers(-3, 12, (batch, size)))
    inputs["limit"] = rng.integers(1, 4, (batch, 1))
    inputs["flag"] = np.zeros((batch, 1), dtype=np.int64)
    widths = [int(rng.integers(1, 7)) for _ in range(int(rng.integers(1, 3)))]
    plan = []
    for _ in range(int(rng.integers(1, 6))):
        branches = []
        for _ in widths:
            ports = []
            for write in [False] * int(rng.integers(0, 3)) + [True] * int(rng.integers(0, 3)):
                ports.append({
                    "write": write, "array": int(rng.integers(0, len(sizes))),
                    "index": str(rng.choice(["ascending", "plain", "constant", "register",
                                             "register", "out"], p=[.25, .15, .1, .2, .25,
                                                                    .05])),
                    "stride": int(rng.integers(1, 3)), "shift": int(rng.integers(0, 5)),
                    "where": str(rng.choice(["none", "plain", "register"], p=[.6, .2, .2])),
                    "value": str(rng.choice(["int", "plain", "register"])),
                    "seed": int(rng.integers(0, 1 << 30)),
                })
            branches.append({"ports": ports, "chosen": bool(rng.random() < 0.25)})
        plan.append(branches)
    looped = (int(rng.integers(0, len(plan))), int(rng.integers(0, len(plan)))) \
        if rng.random() < 0.4 else None
    options = {"strict": bool(rng.random() < 0.3), "mode": "raise" if rng.random() < 0.15
               else "collect", "seed": int(rng.integers(0, 5))}

    def program(m: Machine, **arrays: Any) -> Any:
        data = [arrays[f"a{k}"] for k in range(len(sizes))]
        pids = [m.processors(w) for w in widths]
        xs = [hold(pid, pid) for pid in pids]
        control = m.processors(1)

        def port(spec: dict[str, Any], pid: Any, x: Any, chosen: Any) -> Any:
            array = data[spec["array"]]
            size, n = array.size, len(pid)
            local = np.random.default_rng(spec["seed"])
            kind = spec["index"]
            if chosen is not None and kind in ("ascending", "plain", "out"):
                kind = "register"  # a plain array has no length beside chosen processors
            if kind == "ascending":
                index: Any = (spec["shift"] + spec["stride"] * np.arange(n)) % size
            elif kind == "plain":
                index = local.integers(0, size, n)
            elif kind == "out":
                index = local.integers(-1, size + 1, n)
            elif kind == "constant":
                index = int(local.integers(0, size))
            else:
                index = (x + spec["shift"]) % size
            where: Any = None
            if spec["where"] == "plain" and chosen is None:
                where = local.integers(0, 2, n).astype(bool)
            elif spec["where"] == "register":
                where = (x + spec["shift"]) % 3 != 0
            if not spec["write"]:
                return Read(array, index, where=where)
            value: Any
            if spec["value"] == "int":
                value = spec["shift"]
            elif spec["value"] == "plain" and chosen is None:
                value = local.integers(-2, 3, n)
            else:
                value = (x * 2 + spec["shift"]) % 5
            return Write(array, index, value, where=where)

        def global_step(branches: list[dict[str, Any]]) -> Any:
            steps, owners = [], []
            for b, branch in enumerate(branches):
                pid, x = pids[b], xs[b]
                chosen = None
                who: Any = pid
                if branch["chosen"]:
                    mask = x % 2 == 0
                    who, chosen = hold(pid, pid)[mask], mask
                    x = x[mask]
                ports = [port(p, pid, x, chosen) for p in branch["ports"]]
                steps.append(Step(who, reads=[p for p in ports if isinstance(p, Read)],
                                  writes=[p for p in ports if isinstance(p, Write)],
                                  phase=f"b{b}" if b else ""))
                owners.append(chosen)
            replies = yield (steps[0] if len(steps) == 1 else Bundle(tuple(steps)))
            if len(steps) == 1:
                replies = [replies]
            for b, (reply, chosen) in enumerate(zip(replies, owners, strict=True)):
                for value in reply:
                    if value.dtype.kind == "f":  # a real read: its integer part, as a word
                        value = np.floor(value).astype(np.int64)
                    if chosen is None:
                        xs[b] = xs[b] + value
                    else:
                        xs[b][chosen] = value + 1

        counter = m.array("counter", values=np.zeros(1, dtype=np.int64))
        t = 0
        while t < len(plan):
            if looped is not None and t == looped[0]:
                first, last = looped[0], max(looped)
                one = m.processors(1)
                # Registers the loop's body computes are the loop's own (an instance that
                # ended the loop idles, and its rows of them hold nothing): what the steps
                # after the loop use was computed before it, or is carried through memory.
                kept = list(xs)
                while True:
                    for u in range(first, last + 1):
                        yield from global_step(plan[u])
                    (c, top) = yield Step(one, reads=[Read(counter, 0),
                                                      Read(arrays["limit"], 0)])
                    yield Step(one, writes=[Write(counter, 0, c + 1),
                                            Write(arrays["flag"], 0, (c + 1 >= top) * 1)])
                    if (yield Until(arrays["flag"], 0, control)):
                        break
                xs[:] = kept
                t = last + 1
                continue
            yield from global_step(plan[t])
            t += 1
        return None

    return program, inputs, options


def same_or_refused(program: Callable[..., Any], inputs: dict[str, Any], model: str,
                    options: dict[str, Any]) -> None:
    """As :func:`same_as_single`, or, when some instance's single run raises, the batch raises
    an error of the same kind."""
    failures = []
    for i in range(4):
        s = Machine(model, **options)
        mine = {name: _allocate(s, name, v, i) for name, v in inputs.items()}
        try:
            s.run(program(s, **mine))
        except PRAMError as error:
            failures.append(type(error))
    if not failures:
        same_as_single(program, inputs, model, **options)
        return
    m = Machine(model, batch=4, **options)
    arrays = {name: _allocate(m, name, v) for name, v in inputs.items()}
    with pytest.raises(PRAMError) as caught:
        m.run(program(m, **arrays))
    assert caught.type in failures or isinstance(caught.value, HonestyError | InputError), \
        caught.value


@pytest.mark.parametrize("model", sorted(MODELS))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_programs_equal_single_runs(model: str, seed: int) -> None:
    """Every instance's answers, memory, ledger and records equal its single run's, on random
    programs under every model (or both refuse)."""
    program, inputs, options = random_program(seed)
    same_or_refused(program, inputs, model, options)
