"""Sweeps from Python (:func:`sweep`): a declaration, or a builder of a machine, run at every
size, with the law of each measure and the verdict of each bound (:class:`Sweep`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from pram._numpy import np
from pram.cost import Cost
from pram.declaration.algorithm import Algorithm
from pram.declaration.apart import drawing
from pram.declaration.fields import sizes_of, wrong_arity
from pram.declaration.formulas import MEASURES, bounds_of
from pram.errors import InputError
from pram.laws.bounds import Check, Formula, check
from pram.laws.fitting import fit
from pram.laws.law import Law
from pram.machine import Machine
from pram.run import watching
from pram.settings import seed_of


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
    #: The law of each of :data:`MEASURES` over the sweep (exact where one predicts); for a
    #: measure with a bound, the law its check read.
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
    count = (2 if names is not None and len(names) == 2 else 3) if given else (
        1 if names is not None and len(names) == 1 else 2)
    written = wrong_arity(builder, count)
    if written is not None:
        raise InputError(
            f"the builder {written} cannot be called as a sweep calls it; give it one of the "
            "signatures (m, n) or (m, n, rng), to run on the machine the sweep gives it, or "
            "(n) or (n, rng), to return the machine it made"
        )
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
            if model is not None:  # it would be ignored: the builder makes its own machine
                raise InputError(
                    f"model={model!r} applies to a builder that takes the machine, def "
                    "builder(m, n): ...; this one makes its own, so choose the model there "
                    "(Machine(...)) and leave model out"
                )
            ran = builder(n) if names is not None and len(names) == 1 else builder(n, rng)
            if not isinstance(ran, Machine):
                raise InputError(
                    f"the builder returned {type(ran).__name__} at n = {n}; it must return "
                    "the pram.Machine its program ran on (or take the machine: def "
                    "builder(m, n): ...)"
                )
            machine = ran
    others = [m for m in made if m is not machine]
    if others or (not given and not any(m is machine for m in made.made)):
        said = (f"made or ran {len(others)} machine{'s' if len(others) != 1 else ''} besides "
                "the one measured" if others else "returned a machine made before the call")
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
    that makes its machine, runs and returns it (``model`` is then refused: the builder
    chose it); a builder that makes any other machine during the call, or runs steps on one
    made before it, is refused, since its work would not be counted.
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
    seed = seed_of(seed)
    chosen = sizes_of(sizes) if sizes is not None else (
        declared.sizes if declared is not None else ())
    if len(set(chosen)) < 2:
        raise InputError(
            f"a sweep needs at least 2 different sizes to find a law (got {list(chosen)}); "
            "give more, e.g. [16, 32, 64, 128, 256]"
        )
    checked = {**(declared.bounds if declared is not None else {}), **bounds_of(bounds)}
    points: list[Point] = []
    ran_under = ""
    with drawing():  # every size's instance drawn by one child process
        for n in chosen:
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
    checks = {
        key: check(key.split(" ")[0], bound,
                   [({"n": float(p.n)}, float(getattr(p.cost, key.split(" ")[0])))
                    for p in points])
        for key, bound in checked.items()
    }
    # a measure with a bound shows the law its (first) check read, so that the text and the
    # verdict tell one story (a Brent sum's time on 2..20 was 2.573 L + 3.183 to its check,
    # 0.0238 n L log2(L) + ... to a separate fit)
    read = {c.measure: c.law for c in reversed(checks.values())}
    laws = {
        measure: read.get(measure) or fit(
            measure, "n", xs, [float(getattr(p.cost, measure)) for p in points])
        for measure in MEASURES
    }
    name = declared.name if declared is not None else getattr(subject, "__name__", "builder")
    return Sweep(name, ran_under, tuple(points), laws, checks)


__all__ = ["Point", "Sweep", "sweep"]
