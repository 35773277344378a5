"""The circuit recorder and the independent evaluator, driven through the observer hooks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pram import InputError, Machine, Read, Step, Write
from pram.algorithms.bits import BitKeys
from pram.circuits.circuit import Circuit, Recorder, evaluate


def _reads(r: Recorder, m: Machine, values: list[int]) -> tuple[np.ndarray, ...]:
    """Declare an input array of ``values`` and read every cell as one processor's registers."""
    a = m.array("a", values=np.array(values))
    r.input(a)
    registers = tuple(np.array([v]) for v in values)
    step = Step(np.array([0]), reads=[Read(a, k) for k in range(len(values))])
    r.step(1, [step], [registers])
    return registers


def _write(r: Recorder, m: Machine, *values: np.ndarray) -> None:
    """Write ``values`` to a fresh array, one cell each, and declare it the output."""
    out = m.array("out", size=len(values))
    step = Step(np.array([0]), writes=[Write(out, k, v) for k, v in enumerate(values)])
    r.step(2, [step], [()])
    r.output(out)


def _op(r: Recorder, name: str, *operands: object) -> np.ndarray:
    """Apply numpy's ``name`` to the operands and tell the recorder, as a register would."""
    result = getattr(np, name)(*operands)
    r.operation(name, operands, result)
    return np.asarray(result)


def test_min_and_max_of_the_same_wires_fuse_into_one_comparator() -> None:
    """A word comparator is one gate with two outputs, one level deep."""
    r, m = Recorder(), Machine()
    x, y = _reads(r, m, [5, 3])
    _write(r, m, _op(r, "minimum", x, y), _op(r, "maximum", y, x))
    circuit = r.circuit()
    assert (circuit.by_kind, circuit.size, circuit.depth) == ({"comparator": 1}, 1, 1)


def test_the_evaluator_agrees_with_numpy_on_a_small_arithmetic_circuit() -> None:
    """(x + y) * x - 3 evaluated by the circuit equals numpy on random inputs."""
    r, m = Recorder(), Machine()
    x, y = _reads(r, m, [2, 7])
    _write(r, m, _op(r, "subtract", _op(r, "multiply", _op(r, "add", x, y), x), 3))
    circuit = r.circuit()
    inputs = np.random.default_rng(0).integers(-50, 50, (20, 2))
    expected = (inputs[:, 0] + inputs[:, 1]) * inputs[:, 0] - 3
    assert evaluate(circuit, inputs)[:, 0].tolist() == expected.tolist()
    assert (circuit.by_kind, circuit.depth) == ({"add": 1, "mul": 1, "sub": 1}, 3)


def test_operations_on_constants_fold_into_constants() -> None:
    """An operation whose operands are all constants makes no gate."""
    r = Recorder()
    r.operation("add", (np.array([1, 2]), 5), np.array([6, 7]))
    assert r.circuit().size == 0


def test_gates_no_output_depends_on_are_dropped() -> None:
    """Only the gates on a path to an output count."""
    r, m = Recorder(), Machine()
    x, y = _reads(r, m, [1, 2])
    _op(r, "multiply", x, y)  # never written
    _write(r, m, _op(r, "add", x, y))
    assert r.circuit().by_kind == {"add": 1}


def test_a_select_on_a_constant_condition_is_wiring() -> None:
    """np.where with a condition computed from sizes picks a wire, making no gate."""
    r, m = Recorder(), Machine()
    x, y = _reads(r, m, [1, 2])
    _write(r, m, _op(r, "where", np.array([False]), x, y))
    circuit = r.circuit()
    assert circuit.size == 0
    assert evaluate(circuit, [[4, 9]]).tolist() == [[9]]


def test_xor_with_one_of_a_bit_is_an_inverter() -> None:
    """On bit inputs, x ^ 1 is INV and x & y is AND: a boolean circuit."""
    r, m = Recorder(), Machine()
    a = m.array("a", values=np.array([0, 1]))
    r.input(a, bits=True)
    x, y = np.array([0]), np.array([1])
    r.step(1, [Step(np.array([0]), reads=[Read(a, 0), Read(a, 1)])], [(x, y)])
    _write(r, m, _op(r, "bitwise_and", _op(r, "bitwise_xor", x, 1), y))
    circuit = r.circuit()
    assert (circuit.by_kind, circuit.boolean) == ({"AND": 1, "INV": 1}, True)
    table = evaluate(circuit, [[0, 0], [0, 1], [1, 0], [1, 1]])[:, 0].tolist()
    assert table == [0, 1, 0, 0]


def test_a_masked_off_read_is_the_constant_zero() -> None:
    """Where a read's mask is False, the register entry is the constant 0 wire."""
    r, m = Recorder(), Machine()
    a = m.array("a", values=np.array([4, 5]))
    r.input(a)
    value = np.array([4, 0])
    mask = np.array([True, False])
    r.step(1, [Step(np.array([0, 1]), reads=[Read(a, np.array([0, 1]), where=mask)])], [(value,)])
    out = m.array("out", size=2)
    r.step(2, [Step(np.array([0, 1]), writes=[Write(out, np.array([0, 1]), value)])], [()])
    r.output(out)
    assert evaluate(r.circuit(), [[7, 8]]).tolist() == [[7, 0]]


def test_the_evaluator_refuses_inputs_of_the_wrong_width() -> None:
    """Inputs must have one column per input wire."""
    r, m = Recorder(), Machine()
    x, y = _reads(r, m, [1, 2])
    _write(r, m, _op(r, "add", x, y))
    with pytest.raises(InputError) as error:
        evaluate(r.circuit(), [[1, 2, 3]])
    assert str(error.value) == (
        "a circuit with 2 inputs is evaluated on an array of shape (K, 2) (got shape (1, 3))"
    )


def test_parallel_branches_read_memory_as_it_was_before_the_step() -> None:
    """A branch's read in a global step does not see another branch's write of that step."""
    r, m = Recorder(), Machine()
    a = m.array("a", values=np.array([1, 2]))
    r.input(a)
    write = Step(np.array([0]), writes=[Write(a, 0, 9)])
    read = Step(np.array([1]), reads=[Read(a, 0)])
    x = np.array([1])
    r.step(1, [write, read], [(), (x,)])
    out = m.array("out", size=1)
    r.step(2, [Step(np.array([1]), writes=[Write(out, 0, x)])], [()])
    r.output(out)
    assert evaluate(r.circuit(), [[5, 6]]).tolist() == [[5]]


def _bit_keys_circuit(comparator: str, d: int) -> Circuit:
    """The recorded compare-exchange of two d-bit tokens by pram.algorithms.bits.BitKeys."""
    keys = BitKeys(d, comparator)
    r = Recorder()
    m = Machine("erew", observer=r)
    a = keys.store(m, "a", np.array([5, 3]))
    r.input(a, bits=True)

    def decide(less: Any, equal: Any, values: Any) -> tuple[Any, tuple[()]]:
        return ~less & ~equal, ()

    m.run(keys.compare_exchange(m, m.processors(1), a, np.array([0]), np.array([1]), decide))
    r.output(a)
    return r.circuit()


@pytest.mark.parametrize("d", [8, 16, 64])
def test_recorded_bit_keys_comparators_are_serial_or_logarithmic_in_depth(d: int) -> None:
    """From d = 8, bits.py's serial scan records 2d + 2 deep, its tree 2 log2(d) + 8; both sort."""
    serial, tree = _bit_keys_circuit("serial", d), _bit_keys_circuit("tree", d)
    assert (serial.depth, tree.depth) == (2 * d + 2, 2 * int(np.log2(d)) + 8)
    tokens = np.random.default_rng(d).integers(0, 2**min(d, 62), (30, 2))
    msb_first = np.arange(d - 1, -1, -1)
    bits = ((tokens[:, :, None] >> msb_first) & 1).reshape(30, -1)
    for circuit in (serial, tree):
        out = evaluate(circuit, bits).reshape(30, 2, d)
        assert ((out << msb_first).sum(axis=2) == np.sort(tokens, axis=1)).all()


def test_a_register_held_from_a_register_keeps_its_wires() -> None:
    """hold(pid, x) of a read register is wiring: the circuit passes the input through."""
    from pram import hold

    r = Recorder()
    m = Machine("erew", observer=r)
    a = m.array("a", values=np.array([3, 4]))
    r.input(a)

    def program() -> Any:
        pid = m.processors(2)
        (x,) = yield Step(pid, reads=[Read(a, np.array([0, 1]))])
        yield Step(pid, writes=[Write(a, np.array([1, 0]), hold(pid, x))])

    m.run(program())
    r.output(a)
    assert evaluate(r.circuit(), [[7, 9]]).tolist() == [[9, 7]]


# ---- the pram.circuits package -------------------------------------------------------------

#: The modules of pram.circuits whose docstrings hold examples (the doctest collection of the
#: three floors reads their top-level folders only, so the sub-package runs its own here).
CIRCUIT_MODULES = ("builder", "circuit", "monoid", "oblivious")


@pytest.mark.parametrize("name", CIRCUIT_MODULES)
def test_the_circuits_examples_run(name: str) -> None:
    """Each module's docstring examples run and print what they show."""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"pram.circuits.{name}"))
    assert result.attempted > 0 and result.failed == 0, result


@pytest.mark.parametrize(
    ("old", "new"),
    [("circuit", "circuit"), ("circuit_io", "io"), ("monoid", "monoid"),
     ("oblivious", "oblivious")],
)
def test_the_documented_paths_name_the_same_objects(old: str, new: str) -> None:
    """``pram.circuit``, ``pram.circuit_io``, ``pram.monoid`` and ``pram.oblivious`` (the paths
    the README and users' code name) re-export every public name of their new home, the very
    same objects."""
    import importlib

    before = importlib.import_module(f"pram.{old}")
    after = importlib.import_module(f"pram.circuits.{new}")
    for name in before.__all__:
        assert getattr(before, name) is getattr(after, name), name
    assert set(before.__all__) <= set(after.__all__)


def test_the_circuits_import_no_algorithms_reports_or_rendering() -> None:
    """pram.circuits is part of the machine floor: it imports neither pram.algorithms nor
    pram.reports nor rich (the floors stay apart, as for the rest of pram/)."""
    import ast
    from pathlib import Path

    import pram.circuits

    found = []
    for path in sorted(Path(pram.circuits.__path__[0]).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            found += [f"{path.name}: {n}" for n in names
                      if n.startswith(("pram.algorithms", "pram.reports", "rich"))]
    assert found == []
