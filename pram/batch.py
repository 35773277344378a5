"""Batched runs of host functions: :func:`run_instances`.

``Machine(batch=B)`` runs B instances of one program in lockstep on one machine (the engine's
instance axis, :mod:`pram.engine.instances`); this module runs a host function of the project
(which allocates its inputs and calls ``m.run``) over many instances' inputs at once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pram._numpy import np
from pram.errors import InputError

if TYPE_CHECKING:
    from pram.machine import Machine

__all__ = ["run_instances"]


# ---- host functions over many instances --------------------------------------------------


class _Ran(Exception):
    """A host function reached (or finished) its run: what it does after is the host's."""


def run_instances(m: Machine, function: Any, instances: Sequence[Sequence[Any]],
                  **keywords: Any) -> None:
    """Run a host function of the project, ``function(m, *inputs, **keywords)`` (which allocates its
    arrays from its inputs, then runs its program on ``m``, as the catalogue's do), for
    every instance's ``inputs`` in one batched run on ``m`` (``Machine(batch=B)``, B the
    number of instances).

    Each instance's inputs are first given to the function on a scratch machine that stops
    at its program's first step, to learn the values it allocates its arrays with; on ``m``
    the k-th array allocated with values then gets, row by row, every instance's k-th values
    (an array the program allocates after its first step is taken as it makes it: from
    sizes, the same for every instance). The function
    stops when its run ends (what it does afterwards reads the output as one machine's): read
    the answers from ``m.arrays[name].to_numpy()[i]`` and the ledgers from ``m.costs``. The
    instances must allocate alike (the same names and sizes), as inputs of one size do.
    """
    if m.batch is None or m.batch != len(instances):
        raise InputError(
            f"run_instances needs a machine made with batch={len(instances)}, one instance "
            f"per input (got batch={m.batch!r})"
        )
    given: list[list[tuple[str, Any]]] = []
    for inputs in instances:
        scratch = type(m)(m.model)
        calls: list[tuple[str, Any]] = []
        allocate = scratch.array

        def recording(name: str, size: Any = None, values: Any = None, *,
                      _calls: list[tuple[str, Any]] = calls, _allocate: Any = allocate,
                      **more: Any) -> Any:
            _calls.append((name, None if values is None else np.array(values)))
            return _allocate(name, size, values, **more)

        def stop(program: Any) -> Any:
            with contextlib.suppress(StopIteration):
                next(program)  # what the program allocates before its first step
            program.close()
            raise _Ran

        scratch.array = recording  # type: ignore[method-assign]
        scratch.run = stop  # type: ignore[method-assign]
        with contextlib.suppress(_Ran):
            function(scratch, *inputs, **keywords)
        given.append(calls)
    first = given[0]
    for i, calls in enumerate(given[1:], 1):
        if [(name, None if v is None else v.shape) for name, v in calls] != \
                [(name, None if v is None else v.shape) for name, v in first]:
            error = InputError(
                f"instance {i} allocates other arrays than instance 0 (names or sizes); a "
                "batch runs instances of one size: group the inputs by size"
            )
            error.instance = i
            raise error
    allocate, run, count = m.array, m.run, [0]

    def substituting(name: str, size: Any = None, values: Any = None, **more: Any) -> Any:
        k = count[0]
        count[0] += 1
        if values is not None and k < len(first):
            values = np.stack([calls[k][1] for calls in given])  # shapes checked alike
        return allocate(name, size, values, **more)

    def once(program: Any) -> Any:
        run(program)
        raise _Ran

    m.array = substituting  # type: ignore[method-assign]
    m.run = once  # type: ignore[method-assign]
    try:
        function(m, *instances[0], **keywords)
    except _Ran:
        pass
    finally:
        del m.array, m.run
