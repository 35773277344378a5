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
from pram.algorithms import mqar, networks, sorting
from pram.algorithms.bits import BitKeys
from pram.algorithms.contraction import parse_expression
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
        seen["memory"] = {name: (a.to_numpy(), a._defined) for name, a in m.arrays.items()}
        seen["costs"] = m.costs
        raise _Ran

    m.run = stopping  # type: ignore[method-assign]
    return seen


def same_as_single_host(function: Callable[..., Any], instances: list[tuple[Any, ...]],
                        model: str, **keywords: Any) -> Machine:
    """Run a host function of the catalogue (``function(m, *inputs, **keywords)``, which
    allocates its arrays from its inputs and runs its program on ``m``) once per instance on a
    single machine, then once on a batched machine whose k-th array allocated with values gets
    the rows of every instance's k-th; compare memory, ledgers and records after the run."""
    singles: list[tuple[Machine, dict[str, Any]]] = []
    given: list[list[Any]] = []
    for inputs in instances:
        s = Machine(model, strict=False)
        calls: list[Any] = []
        allocate = s.array

        def recording(name: str, size: Any = None, values: Any = None,
                      _calls: list[Any] = calls, _allocate: Any = allocate) -> Any:
            _calls.append(None if values is None else np.array(values))
            return _allocate(name, size, values)

        s.array = recording  # type: ignore[method-assign]
        seen = _first_run(s)
        with pytest.raises(_Ran):
            function(s, *inputs, **keywords)
        singles.append((s, seen))
        given.append(calls)
    batch = len(instances)
    m = Machine(model, batch=batch, strict=False)
    allocate = m.array
    count = [0]

    def substituting(name: str, size: Any = None, values: Any = None) -> Any:
        k = count[0]
        count[0] += 1
        if values is not None:
            values = np.stack([np.broadcast_to(calls[k], np.shape(values))
                               for calls in given])
        return allocate(name, size, values)

    m.array = substituting  # type: ignore[method-assign]
    ours = _first_run(m)
    with pytest.raises(_Ran):
        function(m, *instances[0], **keywords)
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
     lambda r: parse_expression(random_expression(r, 6))),
    ("pbs", "pbs", "search", "erew", None,
     lambda r: (np.sort(r.integers(0, 30, 8)), np.sort(r.integers(0, 30, 8)))),
    ("mqar, word keys", "mqar", "recall", "erew", None, lambda r: (r.integers(0, 6, 12),)),
    ("sorting, bitonic", "sorting", "sort", "erew", None, lambda r: (r.integers(0, 9, 8),)),
    ("sorting, odd-even", "tests.test_batch", "sort_odd_even", "erew", None,
     lambda r: (r.integers(0, 9, 8),)),
]


def random_expression(rng: np.random.Generator, leaves: int) -> str:
    """A random expression of ``leaves`` integers, ``+`` and ``*``, fully bracketed."""
    if leaves == 1:
        return str(int(rng.integers(0, 5)))
    left = int(rng.integers(1, leaves))
    op = "+*"[int(rng.integers(0, 2))]
    return (f"({random_expression(rng, left)} {op} "
            f"{random_expression(rng, leaves - left)})")


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
