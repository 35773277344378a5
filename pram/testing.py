"""Assertions for users' own tests: a run was clean under its model (or EREW-clean), a negative
control is flagged, a measure stays within its bound, a program is right on many random
inputs (:func:`check_batch`, one batched run).

Both fail with an :class:`AssertionError` whose message shows what went wrong in full (the
first violations named, the table of a sweep), so a failing test explains itself.

>>> import numpy as np
>>> from pram import Machine, Read, Step
>>> m = Machine("erew")
>>> a = m.array("a", values=np.array([1, 2]))
>>> def both_read_one(m, a):
...     pid = m.processors(2)
...     yield Step(pid, reads=[Read(a, np.zeros(2, dtype=np.int64))])
>>> m.run(both_read_one(m, a))
>>> assert_erew(m)
Traceback (most recent call last):
...
AssertionError: the run broke EREW 1 time:
  EREW forbids concurrent reads: processors 0 and 1 read a[0] in step 1
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from pram.errors import InputError
from pram.laws.bounds import Check, check
from pram.laws.formula import Formula, Sizes
from pram.machine import Machine
from pram.models import EREW, Model, model
from pram.violations import Kind, UndefinedRead, Violation
from pram.weakest import run_on

#: How many violations and undefined reads a failure message names in full.
SHOWN = 5


def _times(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _machine(machine: Any, who: str) -> None:
    """Refuse anything but a Machine where a check needs the machine a program ran on."""
    if not isinstance(machine, Machine):
        raise InputError(
            f"{who} takes the machine the program ran on (got machine={machine!r}, "
            f"a {type(machine).__name__}); pass the Machine, e.g. m = Machine(\"erew\"); "
            f"m.run(program(m)); {who}(m)"
        )


def assert_model(machine: Machine, *, shown: int = SHOWN) -> None:
    """Fail unless ``machine``'s runs recorded no violation of the machine's own model
    (whatever it is: EREW, CREW, CRCW common, ...) and no undefined read.

    The message names the model, the first ``shown`` violations (and undefined reads) in full
    and counts the rest by kind. Run the program with ``mode="collect"`` and ``strict=False``
    to see everything in one failure. A model that forbids nothing (CRCW priority, arbitrary,
    the combining ones) fails only on undefined reads.
    """
    _machine(machine, "assert_model")
    _clean(machine.model.name, machine.violations, machine.undefined_reads, shown)


def assert_erew(machine: Machine, *, shown: int = SHOWN) -> None:
    """Fail unless ``machine`` runs the EREW model and recorded no violation and no undefined read.

    The shorthand of :func:`assert_model` for EREW, which also fails on a machine of another
    model (which does not flag every concurrent access). The message names the first
    ``shown`` violations (and undefined reads) in full and counts the rest by kind.
    """
    _machine(machine, "assert_erew")
    if not isinstance(machine.model, EREW):
        raise AssertionError(
            f"the machine runs {machine.model.name}, which does not flag every concurrent "
            'access; run the program on Machine("erew") to check it is EREW, or check it '
            "under its own model with assert_model"
        )
    _clean("EREW", machine.violations, machine.undefined_reads, shown)


def assert_flagged(
    program: Callable[[Machine], Any], model_name: str | Model, *, seed: int = 0
) -> list[Violation]:
    """Fail unless ``program`` breaks ``model_name``: a negative control.

    ``program`` is a function of a fresh machine that returns the program to run on it (it
    allocates its arrays on that machine), e.g. ``lambda m: both_read_one(m, m.array("a",
    values=[1, 2]))``, or runs it there itself (``lambda m: m.run(...)``, a front door):
    the convention of :func:`pram.weakest_model` too (:func:`pram.weakest.run_on`). It runs
    on ``Machine(model_name, mode="collect", strict=False, seed=seed)``; the assertion
    fails, naming the model, when the run recorded no violation. Returns the violations,
    for a test to look at further.
    """
    rules = model(model_name)
    machine = Machine(rules, mode="collect", strict=False, seed=seed)
    run_on(program, machine, "assert_flagged")
    if not machine.violations:
        raise AssertionError(
            f"expected the program to break {rules.name}, but it ran clean under it "
            f"({machine.cost.time} steps, {machine.cost.work} work); a negative control must "
            "make the accesses the model forbids"
        )
    return list(machine.violations)


def _clean(
    name: str, violations: list[Violation], undefined: list[UndefinedRead], shown: int
) -> None:
    """Fail, naming what was recorded, unless there are no violations and no undefined reads."""
    if not violations and not undefined:
        return
    lines: list[str] = []
    if violations:
        lines.append(f"the run broke {name} {_times(len(violations), 'time')}:")
        lines += [f"  {v.message}" for v in violations[:shown]]
        rest = violations[shown:]
        if rest:
            counts = {kind: 0 for kind in Kind}
            for v in rest:
                counts[v.kind] += 1
            kinds = ", ".join(f"{n} {kind.value}" for kind, n in counts.items() if n)
            lines.append(f"  ... and {len(rest)} more ({kinds})")
    if undefined:
        lines.append(f"the run read {_times(len(undefined), 'undefined cell')}:")
        lines += [f"  {u.message}" for u in undefined[:shown]]
        if len(undefined) > shown:
            lines.append(f"  ... and {len(undefined) - shown} more")
    raise AssertionError("\n".join(lines))


def assert_bound(
    bound: Check | str,
    formula: Formula | None = None,
    points: Sequence[tuple[Sizes, float]] | None = None,
    *,
    limit: float | None = None,
    holds: bool = True,
    allow_undetermined: bool = False,
) -> Check:
    """Fail unless the bound check holds (or, with ``holds=False``, unless it is exceeded).

    Pass a :class:`Check`, or the arguments of :func:`pram.laws.bounds.check` (a measure name,
    a formula and the sweep's points). An ``undetermined`` verdict fails too, with advice to
    extend the sweep (the check's own advice, such as ``add sizes above 2^14``), unless
    ``allow_undetermined`` is set. The failure message is the check's
    table: sizes, measured values, ratios, the law and the decision. Returns the check.
    ``holds=False`` is for negative controls (e.g. all-pairs MQAR against N d log^2 N).
    """
    if isinstance(bound, Check):
        outcome = bound
    else:
        if formula is None or points is None:
            raise InputError(
                "assert_bound needs a Check, or a measure name with a formula and points "
                f"(got measure {bound!r}, formula {formula!r}, points {points!r})"
            )
        outcome = check(bound, formula, points, limit=limit)
    claim = "stay within" if holds else "exceed"
    if outcome.verdict == "undetermined":
        if allow_undetermined:
            return outcome
        advice = outcome.advice or "extend it (5 or more sizes, over a wider range)"
        raise AssertionError(
            f"expected {outcome.measure} to {claim} O({outcome.formula.text}), but the sweep "
            f"cannot tell: {advice}, or pass allow_undetermined=True:\n{outcome.table()}"
        )
    if outcome.holds != holds:
        raise AssertionError(
            f"expected {outcome.measure} to {claim} O({outcome.formula.text}), but the bound "
            f"{outcome.verdict}:\n{outcome.table()}"
        )
    return outcome


def assert_honest_source(module: ModuleType | Any) -> None:
    """Fail unless the source of ``module`` (a module, function or class) passes ``pram lint``:
    no private attribute access on pram objects, no gc, ctypes, inspect, frame or trace hooks,
    no monkey-patching of pram. The message names every finding with file and line.

    Run time refuses every move of a value between processors that ordinary code can make;
    this is the check for the deliberate ones run time cannot stop (see the README's threat
    model).
    """
    from pram.lint import findings

    try:
        source = inspect.getsource(module)
        filename = str(inspect.getsourcefile(module) or getattr(module, "__name__", "<source>"))
    except (OSError, TypeError) as error:
        raise InputError(
            f"assert_honest_source needs a module, class or function with source on disk "
            f"(got {module!r}: {error}); pass the imported module"
        ) from None
    lines = 0 if inspect.ismodule(module) else inspect.getsourcelines(module)[1] - 1
    source = textwrap.dedent(source) if lines else source
    found = findings(source, filename)
    if lines:  # a function or class: report lines of the file, not of the excerpt
        found = [_shift(f, filename, lines) for f in found]
    if found:
        raise AssertionError(
            f"{_times(len(found), 'use')} of Python that run time cannot stop:\n  "
            + "\n  ".join(found)
        )


def _shift(finding: str, filename: str, by: int) -> str:
    line, what = finding[len(filename) + 1 :].split(":", 1)
    return f"{filename}:{int(line) + by}:{what}"


__all__ = [
    "assert_bound", "assert_erew", "assert_flagged", "assert_honest_source", "assert_model",
    "check_batch",
]


def check_batch(
    program: Any,
    inputs: dict[str, Any],
    reference: Any,
    *,
    model: str = "erew",
    output: str | None = None,
    clean: bool = True,
    shown: int = SHOWN,
    **options: Any,
) -> Machine:
    """Check ``program`` on many inputs in one batched run (``Machine(model, batch=B)``).

    ``inputs`` maps array names to values with one row per instance, shape ``(B, size)``
    (``B`` the instances); ``program(m, **arrays)`` makes the program. The answer of
    instance ``i`` is row ``i`` of the array named ``output`` after the run, or row ``i`` of
    the register (or tuple of registers) the program returned for it (``m.results[i]``) when
    ``output`` is None;
    ``reference(**rows)`` gives the expected answer from instance ``i``'s input rows (a
    sequential reference: numpy, ``bisect``, brute force). Fails with an AssertionError
    naming the first ``shown`` instances whose answer differs, and, with ``clean`` (the
    default), those that broke the model or read an undefined cell. Returns the machine:
    ``m.costs[i]`` is instance ``i``'s ledger, equal to a single run's on its input.

        >>> import numpy as np
        >>> from pram import Read, Step, Write
        >>> def double(m, a):
        ...     pid = m.processors(a.size)
        ...     x, = yield Step(pid, reads=[Read(a, pid)])
        ...     yield Step(pid, writes=[Write(a, pid, 2 * x)])
        >>> rows = np.arange(12).reshape(4, 3)
        >>> m = check_batch(double, {"a": rows}, lambda a: 2 * a, output="a")
        >>> [c.work for c in m.costs]
        [6, 6, 6, 6]
    """
    import numpy as np

    if not isinstance(inputs, dict) or not inputs:
        raise InputError(
            "inputs of check_batch must be a dict of array names to values, one row per "
            f"instance (got {inputs!r})"
        )
    rows = {name: np.asarray(values) for name, values in inputs.items()}
    counts = {len(values) for values in rows.values() if values.ndim == 2}
    if len(counts) != 1:
        raise InputError(
            "inputs of check_batch need one row per instance in every two-dimensional array, "
            f"the same number of rows in each (got shapes "
            f"{ {k: v.shape for k, v in rows.items()} }); pass arrays of shape (B, size)"
        )
    batch = counts.pop()
    m = Machine(model, batch=batch, **options)
    arrays = {name: m.array(name, values=values) for name, values in rows.items()}
    m.run(program(m, **arrays))
    if output is not None:
        if output not in arrays:
            raise InputError(
                f"output {output!r} of check_batch names no input array; choose one of "
                f"{sorted(arrays)}"
            )
        answers: Any = arrays[output].to_numpy()
    wrong: list[str] = []
    for i in range(batch):
        # the value of the pass that ran instance i (instances on other paths of loop tests
        # run in passes of their own: pram.batch)
        mine = _row(answers if output is not None else m.results[i], i)
        expected = reference(**{name: values[i] if values.ndim == 2 else values
                                for name, values in rows.items()})
        if not _same(mine, expected):
            wrong.append(f"  instance {i}: got {_show(mine)}, expected {_show(expected)}")
    if clean:
        wrong.extend(f"  {v.message}" for v in m.violations)
        wrong.extend(f"  {u.message}" for u in m.undefined_reads)
    if wrong:
        raise AssertionError(
            f"{len(wrong)} problem(s) in a batch of {batch} instances:\n"
            + "\n".join(wrong[:shown])
            + (f"\n  ... ({len(wrong) - shown} more)" if len(wrong) > shown else "")
        )
    return m


def _row(answers: Any, i: int) -> Any:
    """Instance ``i``'s row of a batch's answer (a register, an array, or a tuple of them)."""
    import numpy as np

    if isinstance(answers, tuple | list):
        return tuple(_row(a, i) for a in answers)
    values = np.asarray(answers)
    return values[i] if values.ndim >= 2 else values


def _same(a: Any, b: Any) -> bool:
    import numpy as np

    if isinstance(a, tuple) or (isinstance(b, tuple | list) and isinstance(a, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def _show(x: Any) -> str:
    import numpy as np

    text = repr(np.asarray(x).tolist()) if not isinstance(x, tuple) else repr(
        tuple(np.asarray(y).tolist() for y in x))
    return text if len(text) <= 80 else text[:77] + "..."
