"""The declaration of an algorithm of yours, :class:`Algorithm` (and its decorator
:func:`declare`): what it builds, runs and is compared with, and the framework that runs it on
a machine that owns its data (see :mod:`pram.declaration`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any

import attrs

from pram._numpy import np
from pram.declaration.apart import drawn, sealed
from pram.declaration.fields import (
    SIZES,
    model_named,
    not_built_in,
    size_of,
    sweep_sizes,
    tolerance_of,
    wrong_arity,
)
from pram.declaration.formulas import bounds_of
from pram.errors import HonestyError, InputError
from pram.laws.bounds import Formula
from pram.machine import Machine
from pram.memory import Array
from pram.run import watching
from pram.settings import seed_of
from pram.step import Program

#: The name of the input when ``build`` or ``load`` returns one array (passed positionally).
ONE = "input"

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
      times the reference's magnitude (at least 1), for answers in floating point (below 1;
      integer answers are compared exactly whatever it is); without it the answer must equal
      the reference exactly;
    - ``n``: the size ``pram run`` uses without ``--n``; ``sizes``: those ``pram report``
      sweeps (and :func:`sweep` without sizes); ``title``: the name shown in reports.
    """

    name: str
    build: Callable[[int, np.random.Generator], Inputs | np.ndarray[Any, Any]] = attrs.field(
        eq=False)
    program: Callable[..., Any] = attrs.field(eq=False)
    reference: Callable[..., Any] = attrs.field(eq=False)
    model: str = attrs.field(default="erew", converter=model_named)
    bounds: Mapping[str, Formula] = attrs.field(factory=dict, converter=bounds_of)
    load: Callable[[str], Inputs | np.ndarray[Any, Any]] | None = attrs.field(
        default=None, eq=False)
    tolerance: float | None = attrs.field(default=None, converter=tolerance_of)
    n: int = attrs.field(default=64, converter=size_of)
    sizes: tuple[int, ...] = attrs.field(default=SIZES, converter=sweep_sizes)
    title: str = ""

    def __getattribute__(self, name: str) -> Any:
        """``build`` and ``load`` refuse while a declared program runs (see :func:`_withhold`)."""
        if _SOLVING and name in ("build", "load"):
            raise _redrawn(f"{_SOLVING[-1]}'s program reading a declaration's {name}")
        return object.__getattribute__(self, name)

    def __attrs_post_init__(self) -> None:
        """Refuse a declaration that cannot run, naming the field and the fix."""
        if not isinstance(self.name, str) or not re.fullmatch(r"[A-Za-z][\w.-]*", self.name):
            raise InputError(
                f"Algorithm(name={self.name!r}): a name is a word of letters, digits, '-', "
                "'_' or '.', starting with a letter, e.g. name='matvec'"
            )
        not_built_in(self.name)
        for field in ("build", "program", "reference"):
            if not callable(getattr(self, field)):
                raise InputError(
                    f"Algorithm {self.name!r}: {field} must be a function (got "
                    f"{type(getattr(self, field)).__name__}); see help(pram.Algorithm)"
                )
        if self.load is not None and not callable(self.load):
            raise InputError(f"Algorithm {self.name!r}: load must be a function or None")
        if not isinstance(self.title, str):
            raise InputError(
                f"Algorithm {self.name!r}: title is the text reports show (got "
                f"{type(self.title).__name__} {self.title!r}); give a string, e.g. "
                f"title='{self.name} by pointer jumping', or leave it out"
            )
        for field, count, call in (("build", 2, "build(n, rng), the size and a numpy "
                                    "Generator"), ("load", 1, "load(path)")):
            function = getattr(self, field)
            written = None if function is None else wrong_arity(function, count)
            if written is not None:
                raise InputError(
                    f"Algorithm {self.name!r}: {field} is {written}, but the framework calls "
                    f"{call}; give it that signature, e.g. def {call.split(',')[0]}"
                    f"{', rng)' if count == 2 else ''}: ..."
                )

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
        runs), drawn in a child process (:mod:`pram.declaration.apart`: nothing ``build``
        keeps in the module's globals reaches the program). Refused while a declared program
        runs: a program that draws its own input again holds it on the host, past the
        machine."""
        _not_solving(self.name, "instance")
        n = size_of(n)
        return drawn(self._built, n, np.random.default_rng(seed_of(seed)),  # type: ignore[no-any-return]
                     what=f"the build of {self.name} at n = {n}",
                     fix="fix its build(n, rng) so that it returns the inputs")

    def _built(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray[Any, Any]]:
        """What :meth:`instance` runs apart: ``build``'s inputs, checked."""
        return self.inputs(self.build(n, rng), "build")

    def read(self, path: str) -> dict[str, np.ndarray[Any, Any]]:
        """The inputs ``load`` reads from ``path`` (``--input``), in a child process as
        :meth:`instance` draws; refused while a declared program runs, as :meth:`instance`
        is."""
        _not_solving(self.name, "read")
        self.reads_input()
        return drawn(self._loaded, path, what=f"the load of {self.name} reading {path!r}",  # type: ignore[no-any-return]
                     fix="fix its load(path), or give another file")

    def reads_input(self) -> None:
        """Refuse ``--input`` for a declaration without ``load`` (asked before any work: the
        size guard builds instances to learn a run's memory)."""
        if self.load is None:
            raise InputError(
                f"--input does not apply to {self.name}: its declaration has no load; add "
                "load=... to it, or leave --input out"
            )

    def _loaded(self, path: str) -> dict[str, np.ndarray[Any, Any]]:
        """What :meth:`read` runs apart: ``load``'s inputs, checked."""
        assert self.load is not None  # (read refused it)
        data = self.inputs(self.load(path), "load")
        name, first = next(iter(data.items()))
        if first.ndim == 0 or len(first) == 0:  # n is its length: at least one entry
            what = "a scalar" if first.ndim == 0 else "no entries"
            raise InputError(
                f"the load of {self.name} returned {what} as its first array {name!r} (shape "
                f"{first.shape}) reading {path!r}; the run's n is that array's length, so give "
                "a file with data (or make load return an array of at least one entry first)"
            )
        return data

    def inputs(self, made: Any, by: str) -> dict[str, np.ndarray[Any, Any]]:
        """``made`` (what ``build`` or ``load`` returned) as input arrays by name."""
        if isinstance(made, np.ndarray):
            return {ONE: made}
        must = "it must return a dict of numpy arrays by input name (or one array)"
        if not isinstance(made, Mapping):
            raise InputError(f"Algorithm {self.name!r}: {by} returned "
                             f"{type(made).__name__}; {must}")
        if not made:
            raise InputError(f"Algorithm {self.name!r}: {by} returned an empty dict; {must}")
        for key, value in made.items():
            if not isinstance(key, str) or not isinstance(value, np.ndarray):
                shown = repr(key) if len(repr(key)) <= 40 else f"a {type(key).__name__}"
                wrong = ("not named by a string" if not isinstance(key, str)
                         else f"of type {type(value).__name__}, not a numpy array")
                raise InputError(
                    f"Algorithm {self.name!r}: {by} returned a dict whose entry {shown} is "
                    f"{wrong}; {must} (np.asarray(...) makes one)"
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
        withheld = _withhold(self)
        _SOLVING.append(self.name)
        try:
            with watching() as made, sealed():
                out = machine.run(self._driven(machine, arrays))
        finally:
            _SOLVING.pop()
            withheld()
        others = [m for m in made if m is not machine]
        if others:
            raise InputError(
                f"the program of {self.name} made or ran {len(others)} other machine"
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
        _callable_as(self.name, "program", self.program, ["m"], list(arrays))
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
        _callable_as(self.name, "reference", self.reference, [], list(copies))
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


def _callable_as(name: str, field: str, function: Callable[..., Any], leading: list[str],
                 inputs: list[str]) -> None:
    """Refuse, naming its signature and the call, a program or reference that cannot take
    the inputs as the framework passes them: after ``leading`` (the machine ``m`` of a
    program), one input positionally, or several by name."""
    positional = [*leading, *(inputs if inputs == [ONE] else [])]
    keywords = [] if inputs == [ONE] else inputs
    written = wrong_arity(function, len(positional), keywords)
    if written is not None:
        call = ", ".join([*positional, *(f"{k}=..." for k in keywords)])
        raise InputError(
            f"the {field} of {name} is {written}, but the framework calls {field}({call}); "
            "give it that signature (the inputs named as build or load returns them)"
        )


#: The declarations whose program runs now (any thread): while one does, no declaration
#: draws or reads an instance, so a program cannot make its input again on the host.
_SOLVING: list[str] = []


def _not_solving(name: str, call: str) -> None:
    if _SOLVING:
        raise _redrawn(f"{name}.{call}(...) while the program of {_SOLVING[-1]} runs")


def _redrawn(what: str) -> HonestyError:
    return HonestyError(
        f"{what} draws the input again on the host, past the machine; a declared program gets "
        "its input only as the arrays the framework put on the machine"
    )


def _withhold(algorithm: Algorithm) -> Callable[[], None]:
    """Bind the names under which the program's module holds the declaration's own ``build``
    and ``load`` to a refusal while the program runs (calling them draws the input again on
    the host, from a guessed seed or the file); returns what puts them back."""
    functions = [f for f in (algorithm.build, algorithm.load) if f is not None]
    names = getattr(algorithm.program, "__globals__", None)
    if not isinstance(names, dict):
        return lambda: None
    bound = {name: value for name, value in names.items()
             if any(value is f for f in functions)}

    def refused(*_: Any, **__: Any) -> Any:
        raise _redrawn(f"the program of {algorithm.name} calling its declaration's build or load")

    for name in bound:
        names[name] = refused

    def restore() -> None:
        for name, value in bound.items():
            if names.get(name) is refused:
                names[name] = value

    return restore


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
    for side, values in (("answer", got), ("reference", expected)):
        if values.dtype.kind not in "biuf":
            raise InputError(
                f"mismatch compares numbers, integers or reals, but the {side} holds "
                f"{values.dtype} values; pass numeric arrays"
            )
    if got.shape != expected.shape:
        return (f"the answer has shape {got.shape} but the reference has shape "
                f"{expected.shape}")
    flat, want = got.reshape(-1), expected.reshape(-1)
    # NaN where both hold it is the same answer (numpy's own equal_nan): never "got nan,
    # expected nan"; a NaN on one side only differs
    both = (np.isnan(flat) & np.isnan(want) if flat.dtype.kind == "f" and want.dtype.kind == "f"
            else np.zeros(flat.shape, dtype=bool))
    exact = flat.dtype.kind in "biu" and want.dtype.kind in "biu"
    if tolerance is None or exact:  # integers and booleans exactly: a tolerance is for reals
        differ = np.flatnonzero((flat != want) & ~both)
    else:
        with np.errstate(all="ignore"):
            allowed = tolerance * np.maximum(np.abs(want.astype(np.float64)), 1.0)
            gap = np.abs(flat.astype(np.float64) - want.astype(np.float64))
            # an infinity equals only itself: the tolerance of an infinite entry is infinite,
            # and so is the gap to it, and neither must let any answer through
            same = both | (flat == want)
            close = (gap <= allowed) & np.isfinite(allowed) & np.isfinite(gap)
        differ = np.flatnonzero(~close & ~same)
    if differ.size == 0:
        return None
    i = int(differ[0])
    within = "" if tolerance is None or exact else f" (tolerance {tolerance:g})"
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
            model=model, bounds=bounds_of(bounds), load=load, tolerance=tolerance, n=n,
            sizes=sweep_sizes(sizes), title=title,
        )

    return wrap


__all__ = [
    "ONE", "Algorithm", "Inputs", "declare", "mismatch",
]
