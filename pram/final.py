"""The type of the machine's own classes whose behaviour a run relies on (:class:`pram.Machine`,
:class:`pram.Array`): no subclass, and no method or attribute of the class replaced or removed.

A program could otherwise change what the framework calls: ``pram.Machine.array = spy`` in a
declaration's module caught the inputs the framework allocated, and a subclass of Machine with
a ``cost`` property of its own told ``pram.sweep`` any counts it liked. Instances are as free
as their classes make them (their own ``__setattr__`` rules); only the class is closed.
"""

from __future__ import annotations

from typing import Any

from pram.errors import HonestyError


class Final(type):
    """A class that takes no subclass and whose namespace is fixed once it is made."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                **kwargs: Any) -> Final:
        for base in bases:
            if isinstance(base, Final):
                raise TypeError(
                    f"pram.{base.__name__} is final: a subclass could count or answer other than "
                    f"the machine does; use pram.{base.__name__} itself")
        return super().__new__(mcs, name, bases, namespace, **kwargs)

    def __setattr__(cls, name: str, value: Any) -> None:
        raise HonestyError(
            f"pram.{cls.__name__}.{name} = ... replaces what every run calls; the machine's "
            "classes are fixed: call them, or write your own function beside them")

    def __delattr__(cls, name: str) -> None:
        Final.__setattr__(cls, name, None)
