"""The rules of a machine's settings: each value :class:`pram.Machine` takes for its model,
mode, strictness, processor check, fast path, observer and trace ceiling, checked where it is
set (made with the machine or assigned before a run), so a wrong one is refused naming the fix
rather than failing later inside a step."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from pram._numpy import np
from pram.errors import HonestyError, InputError
from pram.models import model
from pram.trace import CEILING


def _distinct(value: object) -> bool:
    """The one setting of ``distinct_processors`` a machine takes: True (the check of ids
    listed twice in a step, always on). Off, one processor id listed n times in one step
    read n cells and wrote one cell n times, its writes reduced to its last and checked
    against no one: an n-way combine by one "processor" in one step, which no model allows
    and the ledger charged as one step."""
    if value is not True and value is not np.True_:
        raise InputError(
            f"distinct_processors must be True (got {value!r}): without the check one "
            f"processor id listed n times in a step combines n values in one step, "
            f"uncharged; drop distinct_processors=False (or --no-distinct-processors), the "
            f"check is on by default")
    return True


def _mode(value: object) -> str:
    if value not in ("collect", "raise"):
        raise InputError(f"mode must be 'collect' or 'raise' (got {value!r})")
    return str(value)


def switch(name: str, value: object) -> bool:
    """``value`` of the on-or-off setting ``name``, as a bool: True or False only (a string
    ``"no"`` would be truthy and switch it on)."""
    if value is not True and value is not False and not isinstance(value, np.bool_):
        raise InputError(f"{name} must be True or False (got {value!r})")
    return bool(value)


def seed_of(seed: object) -> int:
    """``seed`` as the int every random draw of a run takes, or a refusal naming it: a
    non-negative integer (numpy's generators take no negative seed, nor a float or a bool)."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise InputError(f"seed must be a non-negative integer (got {seed!r})")
    return int(seed)


def trace_cells_of(value: object) -> int:
    """``value`` as the most cells a trace records (``Machine(trace_cells=...)``), or a
    refusal naming it and the default: a positive integer."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise InputError(
            f"trace_cells must be a positive integer (got {value!r}), the most cells "
            f"a trace records; the default is {CEILING:,}"
        )
    return int(value)


def _observer(value: object) -> object:
    """None, or an object with the :class:`pram.Observer` methods ``step`` and
    ``operation``: a number given as the observer failed at the first step."""
    if value is not None and not all(callable(getattr(value, hook, None))
                                     for hook in ("step", "operation")):
        raise InputError(
            f"observer must be None or an object with methods step(number, steps, replies) "
            f"and operation(name, operands, result), as pram.Observer says (got {value!r})"
        )
    return value


#: Each setting's check, by attribute name; it returns the value the machine keeps (a model
#: name becomes its :class:`pram.Model`).
CHECKS: Mapping[str, Callable[[Any], Any]] = MappingProxyType({
    "model": model,
    "mode": _mode,
    "strict": lambda value: switch("strict", value),
    "distinct_processors": _distinct,
    "fast_path": lambda value: switch("fast_path", value),
    "observer": _observer,
})


#: The settings that make a machine's rules: fixed while a program runs.
RULES = frozenset(CHECKS)


def assigned(name: str, value: object, state: Mapping[str, Any],
             fixed: Mapping[str, str], on_class: bool = False) -> Any:
    """The value ``m.<name> = value`` leaves on a machine whose attributes are ``state``: the
    setting's check applied (:data:`CHECKS`), or a :class:`pram.HonestyError` for a ``fixed``
    setting (by its refusal) once the machine is made, and for one of the :data:`RULES` while
    a program runs (its rules changed in the middle of the run); a new public name on a made
    machine, neither set when it was made nor of its class (``on_class``), is refused as a
    typo."""
    if name in fixed and name in state:
        raise HonestyError(fixed[name])
    if ("_results" in state and not name.startswith("_") and name not in state
            and not on_class):  # a made machine takes no new attribute: m.mdoe is a typo
        raise InputError(
            f"a Machine has no setting {name!r} (m.{name} = ... would be kept and read by "
            f"nothing); its settings are {', '.join(sorted(CHECKS))}, set before a run, and "
            "the rest is given when it is made (Machine(seed=..., batch=..., ...))"
        )
    if name in CHECKS:
        value = CHECKS[name](value)
    if name in RULES and state.get("_running"):
        raise HonestyError(
            f"m.{name} = ... while a program runs changes the machine's rules in the middle "
            f"of the run; set {name} before m.run (or make a Machine with it)"
        )
    return value
