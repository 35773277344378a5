"""Your own algorithm, declared once: run it, sweep it and check it like a built-in one.

A :class:`Algorithm` says everything the command line and :func:`sweep` need about a PRAM
algorithm of yours: its name, how a random instance of size n is built from a seed, the
program (run on a :class:`pram.Machine`), the reference answer it is compared with, the
model it is written for and its bounds, formulas in n such as ``"n log2(n)"``. Optionally: how
an input file is read (``--input``) and a tolerance for answers in floating point.

>>> import numpy as np
>>> from pram import Read, Step, Write, iota
>>> def double(m, a):
...     n = len(a)
...     pid, i = m.processors(n), iota(n)
...     (x,) = yield Step(pid, reads=[Read(a, i)])
...     yield Step(pid, writes=[Write(a, i, 2 * x)])
...     return a
>>> doubling = Algorithm(
...     name="double",
...     build=lambda n, rng: {"a": rng.integers(0, 100, size=n)},
...     program=double,
...     reference=lambda a: 2 * a,
...     bounds={"work": "n", "time": "1"},
... )
>>> result = sweep(doubling, [8, 16, 32, 64, 128])
>>> result.checks["work"].summary, result.laws["work"].text, result.ok
('holds, tight', '2 n', True)

The machine owns the data: the framework allocates every input that ``build`` (or ``load``)
makes on the machine, as an :class:`pram.Array` named after it, hands the program those
arrays (never the numpy data), runs the program (a generator, composed of other programs with
``yield from``) and reads the answer from the array the program returns, after the run. So a
program cannot compute its answer on the host: the host code of a program runs while memory
is sealed, and an answer that is not an array of the machine is refused.

``pram run --module FILE NAME`` (or ``FILE:NAME``, ``package.module:NAME``) runs a declaration
found in a file exactly like a built-in algorithm, and so do ``pram sweep``, ``pram trace`` and
``pram report``. The decorator :func:`declare` is the same declaration written on the program.

Nothing here imports the reports or rich: the command line builds its entries from
declarations (:func:`pram.reports.registry.entry_of`).
"""

from __future__ import annotations

import ast
import inspect
import math
import re
from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any

import attrs

from pram._numpy import np
from pram.cost import Cost
from pram.errors import HonestyError, InputError
from pram.laws.bounds import Check, Formula, check
from pram.laws.fitting import fit
from pram.laws.law import Law
from pram.machine import Machine
from pram.memory import Array
from pram.models import MODELS
from pram.run import watching
from pram.step import Program

#: The measures a bound may constrain and a sweep finds the law of: the ledger's work and
#: time, and its rounds (the textbooks' steps, :mod:`pram.engine.rounds`) and their work.
MEASURES = ("work", "time", "rounds", "round_work")

#: The name of the input when ``build`` or ``load`` returns one array (passed positionally).
ONE = "input"

#: The sizes a sweep and ``pram report --module`` use when none are given.
SIZES = (16, 32, 64, 128, 256)

#: Functions a formula's text may call; ``log2`` is taken as at least 1 (as in every report),
#: so a formula never vanishes at tiny sizes.
_CALLS: dict[str, Callable[[float], float]] = {
    "log2": lambda x: math.log2(x) if x > 2 else 1.0,
    "sqrt": math.sqrt,
}


def _lg(x: float) -> float:
    return _CALLS["log2"](x)


def formula(text: str, sizes: Sequence[str] = ("n",)) -> Formula:
    """A bound's :class:`pram.Formula` from its text: sizes (``n``), numbers, ``+ - * /``,
    ``^`` for powers, ``log2(...)`` (at least 1) and ``sqrt(...)``; a space multiplies, so
    ``"n log2(n)^2"`` reads as it is written.

    Anything else is refused naming the part and the fix; nothing is evaluated by ``eval``.
    """
    if not isinstance(text, str) or not text.strip():
        raise InputError(
            f"a bound's formula must be text in the sizes, e.g. 'n log2(n)' (got {text!r})"
        )
    # a space between two factors multiplies: "n log2(n)" is n * log2(n)
    spelled = re.sub(r"(?<=[\w).])\s+(?=[\w(])", " * ", text.strip()).replace("^", "**")
    try:
        tree = ast.parse(spelled, mode="eval")
    except SyntaxError:
        raise InputError(
            f"formula {text!r} cannot be read; write it in the sizes {', '.join(sizes)} with "
            "+ - * / ^, log2(...) and sqrt(...), e.g. 'n log2(n)^2'"
        ) from None
    _check_tree(tree.body, text, tuple(sizes))

    def evaluate(at: Mapping[str, float]) -> float:
        return float(_value(tree.body, at))

    return Formula(text.strip(), evaluate)


def _check_tree(node: ast.AST, text: str, sizes: tuple[str, ...]) -> None:
    """Refuse any part of a formula but sizes, numbers, arithmetic and the allowed calls."""
    def refuse(what: str) -> InputError:
        return InputError(
            f"formula {text!r} uses {what}; a formula holds the sizes {', '.join(sizes)}, "
            "numbers, + - * / ^, log2(...) and sqrt(...)"
        )

    if isinstance(node, ast.BinOp):
        if not isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div | ast.Pow):
            raise refuse(f"the operator {type(node.op).__name__}")
        _check_tree(node.left, text, sizes)
        _check_tree(node.right, text, sizes)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        _check_tree(node.operand, text, sizes)
    elif isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in _CALLS or len(node.args) != 1 or node.keywords:
            raise refuse(f"the call {ast.unparse(node)}")
        _check_tree(node.args[0], text, sizes)
    elif isinstance(node, ast.Name):
        if node.id not in sizes:
            raise refuse(f"the name {node.id!r}")
    elif isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise refuse(f"the constant {node.value!r}")
    else:
        raise refuse(f"'{ast.unparse(node)}'")


def _value(node: ast.AST, at: Mapping[str, float]) -> float:
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left, at), _value(node.right, at)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.Div):
            return left / right
        return float(left**right)
    if isinstance(node, ast.UnaryOp):
        inner = _value(node.operand, at)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        return _CALLS[node.func.id](_value(node.args[0], at))
    if isinstance(node, ast.Name):
        return float(at[node.id])
    assert isinstance(node, ast.Constant) and isinstance(node.value, int | float)
    return float(node.value)


def _bounds(given: Mapping[str, Formula | str] | None) -> dict[str, Formula]:
    """Bounds keyed by measure (``work``, ``time``, ``rounds``, ``round_work``), every formula
    text turned into one."""
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise InputError(
            f"bounds must map a measure to a formula, e.g. {{'work': 'n^2', 'time': "
            f"'log2(n)'}} (got {type(given).__name__})"
        )
    out: dict[str, Formula] = {}
    for key, bound in given.items():
        if not isinstance(key, str) or key.split(" ")[0] not in MEASURES:
            raise InputError(
                f"bound {key!r}: a bound constrains {', '.join(MEASURES[:-1])} or "
                f"{MEASURES[-1]} (a key such as 'work' or 'work (n^2)'); rename it"
            )
        out[key] = bound if isinstance(bound, Formula) else formula(bound)
    return out


def _model(name: str) -> str:
    if name not in MODELS:
        raise InputError(f"model must be one of {', '.join(MODELS)} (got {name!r})")
    return name


def _tolerance(value: float | None) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise InputError(
            f"tolerance must be a number >= 0, the relative and absolute error allowed in "
            f"each entry, e.g. 1e-9 (got {value!r})"
        )
    return float(value)


def _size(value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise InputError(f"n must be a positive integer, the size run uses (got {value!r})")
    return int(value)


def _sweep_sizes(values: Sequence[int]) -> tuple[int, ...]:
    """The sizes of a sweep: positive integers, at least one (a report of no size is empty)."""
    sizes = tuple(_size(v) for v in values)
    if not sizes:
        raise InputError(
            "sizes must hold at least one size, the sizes pram report sweeps (got an empty "
            f"sequence); pass some, e.g. sizes={SIZES}, or leave sizes out for that default"
        )
    return sizes


Inputs = Mapping[str, np.ndarray[Any, Any]]


@attrs.frozen
class Algorithm:
    """The declaration of an algorithm of yours: what the command line and :func:`sweep`
    run.

    - ``build(n, rng)``: a random instance of size ``n`` from a numpy ``Generator`` (seeded by
      ``--seed``): a dict of input arrays by name, passed to ``program`` and ``reference`` as
      keyword arguments (or one array, passed positionally);
    - ``program(m, **inputs)``: the PRAM program, a generator function: it gets the fresh
      :class:`pram.Machine` ``m`` (its model is ``model`` or ``--model``) and the inputs as
      :class:`pram.Array` s the framework allocated on ``m`` (one array: positionally), yields
      its steps (``yield from`` other programs) and returns the :class:`pram.Array` of ``m``
      that holds the answer, which the framework reads after the run. Calling the declaration
      is calling its program: ``m.run(double(m, a))`` for arrays ``a`` of ``m``;
    - ``reference(**inputs)``: the answer computed by other means (numpy, brute force);
    - ``model``: the model it is written for, the default of ``--model``;
    - ``bounds``: formulas in ``n`` for ``work`` and ``time`` (text such as ``"n log2(n)"``,
      or a :class:`pram.Formula`), checked by every sweep;
    - ``load(path)``, optional: the inputs read from a file, for ``--input`` (n is the length
      of the first array it returns);
    - ``tolerance``, optional: an answer entry may differ from the reference by ``tolerance``
      times the reference's magnitude (at least 1), for answers in floating point; without it
      the answer must equal the reference exactly;
    - ``n``: the size ``pram run`` uses without ``--n``; ``sizes``: those ``pram report``
      sweeps (and :func:`sweep` without sizes); ``title``: the name shown in reports.
    """

    name: str
    build: Callable[[int, np.random.Generator], Inputs | np.ndarray[Any, Any]] = attrs.field(
        eq=False)
    program: Callable[..., Any] = attrs.field(eq=False)
    reference: Callable[..., Any] = attrs.field(eq=False)
    model: str = attrs.field(default="erew", converter=_model)
    bounds: Mapping[str, Formula] = attrs.field(factory=dict, converter=_bounds)
    load: Callable[[str], Inputs | np.ndarray[Any, Any]] | None = attrs.field(
        default=None, eq=False)
    tolerance: float | None = attrs.field(default=None, converter=_tolerance)
    n: int = attrs.field(default=64, converter=_size)
    sizes: tuple[int, ...] = attrs.field(default=SIZES, converter=_sweep_sizes)
    title: str = ""

    def __attrs_post_init__(self) -> None:
        """Refuse a declaration that cannot run, naming the field and the fix."""
        if not isinstance(self.name, str) or not re.fullmatch(r"[A-Za-z][\w.-]*", self.name):
            raise InputError(
                f"Algorithm(name={self.name!r}): a name is a word of letters, digits, '-', "
                "'_' or '.', starting with a letter, e.g. name='matvec'"
            )
        for field in ("build", "program", "reference"):
            if not callable(getattr(self, field)):
                raise InputError(
                    f"Algorithm {self.name!r}: {field} must be a function (got "
                    f"{type(getattr(self, field)).__name__}); see help(pram.Algorithm)"
                )
        if self.load is not None and not callable(self.load):
            raise InputError(f"Algorithm {self.name!r}: load must be a function or None")

    @property
    def shown(self) -> str:
        """The title, or the name when no title was given."""
        return self.title or self.name

    def __call__(self, machine: Any, *arrays: Any, **named: Any) -> Any:
        """The program itself, made on ``machine`` with arrays of it: what ``m.run`` drives
        (``m.run(double(m, a))``). Numpy data is refused naming the two right calls."""
        given = [*arrays, *named.values()]
        if not isinstance(machine, Machine) or not given or not all(
                isinstance(a, Array) for a in given):
            got = ", ".join(type(a).__name__ for a in [machine, *given])
            raise InputError(
                f"{self.name}(m, ...) makes the program on machine m from arrays of m (got "
                f"{got}); allocate them first, a = m.array('a', values=x), then "
                f"m.run({self.name}(m, a)) and a.to_numpy(), or let the declaration do it: "
                f"answer = {self.name}.solve(m, x)"
            )
        return self.program(machine, *arrays, **named)

    def instance(self, n: int, seed: int = 0) -> dict[str, np.ndarray[Any, Any]]:
        """The random instance of size ``n`` drawn from ``seed`` (what ``--n n --seed seed``
        runs). Refused while a declared program runs: a program that draws its own input
        again holds it on the host, past the machine."""
        _not_solving(self.name, "instance")
        return self.inputs(self.build(int(n), np.random.default_rng(seed)), "build")

    def read(self, path: str) -> dict[str, np.ndarray[Any, Any]]:
        """The inputs ``load`` reads from ``path`` (``--input``); refused while a declared
        program runs, as :meth:`instance` is."""
        _not_solving(self.name, "read")
        if self.load is None:
            raise InputError(
                f"--input does not apply to {self.name}: its declaration has no load; add "
                "load=... to it, or leave --input out"
            )
        return self.inputs(self.load(path), "load")

    def inputs(self, made: Any, by: str) -> dict[str, np.ndarray[Any, Any]]:
        """``made`` (what ``build`` or ``load`` returned) as input arrays by name."""
        if isinstance(made, np.ndarray):
            return {ONE: made}
        if not isinstance(made, Mapping) or not made or not all(
            isinstance(k, str) and isinstance(v, np.ndarray) for k, v in made.items()
        ):
            raise InputError(
                f"Algorithm {self.name!r}: {by} returned {type(made).__name__}; it must return "
                "a dict of numpy arrays by input name (or one array)"
            )
        return dict(made)

    def solve(self, machine: Machine, inputs: Inputs | np.ndarray[Any, Any]) -> np.ndarray[
            Any, Any]:
        """Run the program on ``machine``; its answer as an array.

        ``inputs`` (a dict of numpy arrays by name, or one array) are allocated on
        ``machine`` as arrays of those names, the program made from them and run inside one
        :meth:`pram.Machine.run` (its host code too runs while memory is sealed), and the
        answer is a copy of the :class:`pram.Array` it returns, read after the run. Refused:
        a program that is not a generator, one that runs or makes another machine, and an
        answer that is not an array of ``machine``.
        """
        if not isinstance(machine, Machine):
            raise InputError(
                f"{self.name}.solve(m, inputs) takes the machine first (got "
                f"{type(machine).__name__}); e.g. {self.name}.solve(pram.Machine("
                f"{self.model!r}), x)"
            )
        data = self.inputs(inputs, "solve's inputs")
        arrays = {name: _allocate(machine, name, values) for name, values in data.items()}
        _SOLVING.append(self.name)
        try:
            with watching() as made:
                out = machine.run(self._driven(machine, arrays))
        finally:
            _SOLVING.pop()
        others = [m for m in made if m is not machine]
        if others:
            raise InputError(
                f"the program of {self.name} made {len(others)} other machine"
                f"{'s' if len(others) != 1 else ''} while it ran on the one it was given; "
                "what they computed is not counted: run every step on m"
            )
        if not isinstance(out, Array) or machine.arrays.get(out.name) is not out:
            what = ("a numpy array" if isinstance(out, np.ndarray) else
                    "an array of another machine" if isinstance(out, Array) else
                    type(out).__name__)
            raise InputError(
                f"the program of {self.name} returned {what}; a declared program returns the "
                "pram.Array of its machine that holds the answer (return out), which the "
                "framework reads after the run"
            )
        return out.to_numpy()

    def _driven(self, machine: Machine, arrays: dict[str, Array]) -> Program[Any]:
        """The program made and driven inside the run: memory is sealed from its first line."""
        try:
            if list(arrays) == [ONE]:  # one array: passed positionally
                made = self.program(machine, arrays[ONE])
            else:
                made = self.program(machine, **arrays)
        except HonestyError as error:
            if "Machine.run" not in str(error):
                raise
            raise InputError(
                f"the program of {self.name} calls m.run itself; a declared program is one "
                "program, a generator the framework runs: compose its phases with yield from "
                "instead of m.run"
            ) from None
        if not isinstance(made, Generator):
            raise InputError(
                f"the program of {self.name} returned {type(made).__name__} instead of a "
                "program; a declared program is a generator function of (m, inputs as "
                "arrays of m) that yields its steps and returns the array holding the answer"
            )
        return (yield from made)

    def expected(self, inputs: Inputs | np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """The reference answer for ``inputs`` (given copies of them)."""
        copies = _copies(self.inputs(inputs, "the reference's inputs"))
        if list(copies) == [ONE]:
            answer = np.asarray(self.reference(copies[ONE]))
        else:
            answer = np.asarray(self.reference(**copies))
        if answer.dtype.kind not in "biuf":
            raise InputError(
                f"the reference of {self.name} returned an array of {answer.dtype} (e.g. "
                f"{answer.reshape(-1)[:1].tolist()!r}); it must return numbers, integers or "
                "reals, to compare with the answer"
            )
        return answer

    def mismatch(self, got: Any, expected: Any) -> str | None:
        """None when ``got`` equals ``expected`` (within the tolerance), else a sentence
        naming the first differing entry."""
        return mismatch(got, expected, self.tolerance)


#: The declarations whose program runs now (any thread): while one does, no declaration
#: draws or reads an instance, so a program cannot make its input again on the host.
_SOLVING: list[str] = []


def _not_solving(name: str, call: str) -> None:
    if _SOLVING:
        raise HonestyError(
            f"{name}.{call}(...) while the program of {_SOLVING[-1]} runs draws the input "
            "again on the host, past the machine; a declared program gets its input only as "
            "the arrays the framework put on the machine"
        )


def _allocate(machine: Machine, name: str, values: np.ndarray[Any, Any]) -> Array:
    """Input ``name`` on ``machine``: float64 reals for floating data, int64 words for
    integers and booleans (0 and 1); anything else is refused naming the input."""
    kind = values.dtype.kind
    if kind not in "biuf":
        raise InputError(
            f"input {name!r} holds {values.dtype} values; the machine holds int64 words or "
            "float64 reals, so make build (or load) return integers, booleans or reals"
        )
    if kind == "b":
        values = values.astype(np.int64)
    return machine.array(name, values=values, dtype=float if kind == "f" else None)


def _copies(inputs: Inputs) -> dict[str, np.ndarray[Any, Any]]:
    """Fresh copies of the input arrays, so that user code given them cannot change the
    instance (the reference is computed after the program, from the same instance)."""
    return {name: array.copy() for name, array in inputs.items()}


def mismatch(got: Any, expected: Any, tolerance: float | None = None) -> str | None:
    """None when the answer ``got`` equals ``expected`` (exactly, or within ``tolerance``
    times each reference entry's magnitude, at least 1; NaN equals NaN at the same place),
    else a sentence naming the first differing entry."""
    got, expected = np.asarray(got), np.asarray(expected)
    if got.shape != expected.shape:
        return (f"the answer has shape {got.shape} but the reference has shape "
                f"{expected.shape}")
    flat, want = got.reshape(-1), expected.reshape(-1)
    # NaN where both hold it is the same answer (numpy's own equal_nan): never "got nan,
    # expected nan"; a NaN on one side only differs
    both = (np.isnan(flat) & np.isnan(want) if flat.dtype.kind == "f" and want.dtype.kind == "f"
            else np.zeros(flat.shape, dtype=bool))
    if tolerance is None:
        differ = np.flatnonzero((flat != want) & ~both)
    else:
        with np.errstate(all="ignore"):
            allowed = tolerance * np.maximum(np.abs(want.astype(np.float64)), 1.0)
            gap = np.abs(flat.astype(np.float64) - want.astype(np.float64))
            # infinities of one sign are equal (their gap is NaN)
            same = both | (flat == want)
        differ = np.flatnonzero(~(gap <= allowed) & ~same)
    if differ.size == 0:
        return None
    i = int(differ[0])
    within = "" if tolerance is None else f" (tolerance {tolerance:g})"
    return (
        f"{differ.size} of {want.size} entries differ{within}; first at index {i}: "
        f"got {flat[i].item()!r}, expected {want[i].item()!r}"
    )


def declare(
    *,
    build: Callable[[int, np.random.Generator], Inputs | np.ndarray[Any, Any]],
    reference: Callable[..., Any],
    model: str = "erew",
    bounds: Mapping[str, Formula | str] | None = None,
    load: Callable[[str], Inputs | np.ndarray[Any, Any]] | None = None,
    tolerance: float | None = None,
    n: int = 64,
    sizes: Sequence[int] = SIZES,
    name: str | None = None,
    title: str = "",
) -> Callable[[Callable[..., Any]], Algorithm]:
    """The decorator form of :class:`Algorithm`: ``@pram.declare(build=..., reference=...,
    ...)`` on the program makes it the declaration, named after the function unless
    ``name`` is given."""

    def wrap(program: Callable[..., Any]) -> Algorithm:
        return Algorithm(
            name=name or program.__name__, build=build, program=program, reference=reference,
            model=model, bounds=_bounds(bounds), load=load, tolerance=tolerance, n=n,
            sizes=_sweep_sizes(sizes), title=title,
        )

    return wrap


# ---- sweeps from Python ------------------------------------------------------------------


@attrs.frozen
class Point:
    """One run of a sweep: its size, what the machine counted and what was checked."""

    n: int
    cost: Cost
    #: Violations of the machine's model (0 when clean).
    violations: int
    #: The first violation in words, or None.
    first_violation: str | None
    #: Whether the answer equals the reference (None: a builder, nothing to compare).
    correct: bool | None
    mismatch: str | None = None


@attrs.frozen
class Sweep:
    """A sweep from Python (:func:`sweep`): every run, the law of each measure and the
    verdict of each bound."""

    name: str
    model: str
    points: tuple[Point, ...]
    #: The law of each of :data:`MEASURES` over the sweep (exact where one predicts).
    laws: Mapping[str, Law]
    #: Each bound's check (:class:`pram.Check`: verdict, ``summary``, law, evidence).
    checks: Mapping[str, Check]

    @property
    def sizes(self) -> tuple[int, ...]:
        """The sizes that ran, in order."""
        return tuple(p.n for p in self.points)

    @property
    def ok(self) -> bool:
        """Every answer right, every run clean under its model, and no bound exceeded."""
        return (all(p.correct is not False and p.violations == 0 for p in self.points)
                and all(c.verdict != "exceeded" for c in self.checks.values()))

    def text(self) -> str:
        """The sweep in a few lines: each law, each bound's verdict, and what failed."""
        lines = [f"{self.name} under {self.model}, n = {', '.join(map(str, self.sizes))}"]
        lines += [f"  {law.describe()}" for law in self.laws.values()]
        lines += [f"  {key} <= O({c.formula.text}): {c.summary}" for key, c in self.checks.items()]
        for p in self.points:
            if p.violations:
                lines.append(f"  n = {p.n}: {p.violations} violations, e.g. {p.first_violation}")
            if p.correct is False:
                lines.append(f"  n = {p.n}: wrong answer: {p.mismatch}")
        return "\n".join(lines)


def _parameters(function: Callable[..., Any]) -> list[str] | None:
    """The names of ``function``'s positional parameters (None when it cannot be told, or
    it takes ``*args``)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters):
        return None
    return [p.name for p in parameters if p.kind in kinds]


#: The names a builder's first parameter takes when it wants the machine from the sweep.
_MACHINE_NAMES = ("m", "machine")


def _build(builder: Callable[..., Any], n: int, seed: int, model: str | None) -> Machine:
    """Run ``builder`` at size ``n`` and return the machine whose counts are measured.

    A builder of ``(m, n)`` or ``(m, n, rng)`` (its first parameter named ``m`` or
    ``machine``) gets a fresh machine from the sweep (under ``model``, EREW by default); one
    of ``(n)`` or ``(n, rng)`` makes its own and returns it. Either way every machine made
    during the call must be the one measured: a builder that runs a phase on a machine of
    its own and returns another one would be measured on part of its work, and is refused.
    """
    names = _parameters(builder)
    rng = np.random.default_rng(seed)
    given = names is not None and bool(names) and names[0] in _MACHINE_NAMES
    with watching() as made:
        if given:
            machine = Machine(model or "erew", seed=seed)
            assert names is not None
            ran = builder(machine, n) if len(names) == 2 else builder(machine, n, rng)
            if ran is not None and ran is not machine:
                raise InputError(
                    f"the builder returned {type(ran).__name__} at n = {n}; a builder of (m, "
                    "n) runs its program on m, the machine the sweep gives it, and returns "
                    "nothing (or m)"
                )
        else:
            ran = builder(n) if names is not None and len(names) == 1 else builder(n, rng)
            if not isinstance(ran, Machine):
                raise InputError(
                    f"the builder returned {type(ran).__name__} at n = {n}; it must return "
                    "the pram.Machine its program ran on (or take the machine: def "
                    "builder(m, n): ...)"
                )
            machine = ran
    others = [m for m in made if m is not machine]
    if others or (not given and not made):
        said = (f"made {len(others)} machine{'s' if len(others) != 1 else ''} besides the "
                "one measured" if others else "returned a machine made before the call")
        raise InputError(
            f"the builder {said} at n = {n}; a sweep measures one fresh machine per size, so "
            "run every phase on it: take the machine from the sweep, def builder(m, n): ..."
        )
    return machine


def sweep(
    subject: Algorithm | Callable[..., Any],
    sizes: Sequence[int] | None = None,
    *,
    bounds: Mapping[str, Formula | str] | None = None,
    seed: int = 0,
    model: str | None = None,
) -> Sweep:
    """Run ``subject`` at every size of ``sizes`` and check its bounds, as ``pram sweep``.

    ``subject`` is a declaration (:class:`Algorithm`: each size runs its random instance from
    ``seed`` on a fresh machine under ``model`` or its own, and the answer is compared with
    the reference), or a builder: a function of ``(m, n)`` (or ``(m, n, rng)``, a numpy
    Generator seeded by ``seed``) that runs its program on the fresh machine ``m`` the sweep
    gives it (under ``model``, EREW by default), or a function of ``n`` (or ``n, rng``)
    that makes its machine, runs and returns it; a builder that makes any other machine
    during the call is refused, since its work would not be counted.
    ``bounds`` (``{"work": "n log2(n)"}``) add to or replace the declaration's. Returns the
    laws of work, time, rounds and round work and each bound's :class:`pram.Check`
    (``bounds={"rounds": "log2(n)"}`` takes a verdict on rounds).
    """
    declared = subject if isinstance(subject, Algorithm) else None
    if declared is None and not callable(subject):
        raise InputError(
            f"pram.sweep takes a pram.Algorithm or a function of n that returns the machine it "
            f"ran on (got {type(subject).__name__})"
        )
    chosen = tuple(int(s) for s in (sizes if sizes is not None else (
        declared.sizes if declared is not None else ())))
    if len(set(chosen)) < 2:
        raise InputError(
            f"a sweep needs at least 2 different sizes to find a law (got {list(chosen)}); "
            "give more, e.g. [16, 32, 64, 128, 256]"
        )
    checked = {**(declared.bounds if declared is not None else {}), **_bounds(bounds)}
    points: list[Point] = []
    ran_under = ""
    for n in chosen:
        _size(n)
        if declared is not None:
            inputs = declared.instance(n, seed)
            machine = Machine(model or declared.model, seed=seed)
            got = declared.solve(machine, inputs)
            wrong = declared.mismatch(got, declared.expected(inputs))
            correct: bool | None = wrong is None
        else:
            builder: Callable[..., Any] = subject  # not a declaration
            machine, correct, wrong = _build(builder, n, seed, model), None, None
        found = machine.violations
        ran_under = machine.model.name
        points.append(Point(n, machine.cost, len(found),
                            found[0].message if found else None, correct, wrong))
    xs = [float(p.n) for p in points]
    laws = {
        measure: fit(measure, "n", xs, [float(getattr(p.cost, measure)) for p in points])
        for measure in MEASURES
    }
    checks = {
        key: check(key.split(" ")[0], bound,
                   [({"n": float(p.n)}, float(getattr(p.cost, key.split(" ")[0])))
                    for p in points])
        for key, bound in checked.items()
    }
    name = declared.name if declared is not None else getattr(subject, "__name__", "builder")
    return Sweep(name, ran_under, tuple(points), laws, checks)


__all__ = ["MEASURES", "SIZES", "Algorithm", "Point", "Sweep", "declare", "formula",
           "mismatch", "sweep"]
