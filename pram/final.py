"""The types of the machine's own classes whose behaviour a run relies on: :class:`Final` for
:class:`pram.Machine` and :class:`pram.Array` (no subclass, and no method or attribute of the
class replaced or removed), :class:`Fixed` for the models (no attribute replaced).

A program could otherwise change what the framework calls: ``pram.Machine.array = spy`` in a
declaration's module caught the inputs the framework allocated, and a subclass of Machine with
a ``cost`` property of its own told ``pram.sweep`` any counts it liked. Instances are as free
as their classes make them (their own ``__setattr__`` rules); only the class is closed.
"""

from __future__ import annotations

from typing import Any

from pram.errors import HonestyError


class Fixed(type):
    """A class whose namespace is fixed once it is made (its subclasses' too): the models,
    whose class attributes (``checks_reads``, ``forbids``) every run of every machine of the
    model consults, so that ``pram.MODELS["erew"].checks_reads = False`` cannot turn EREW's
    check off for every run after it. A subclass is a new class, free to say what it likes
    under its own name."""

    def __setattr__(cls, name: str, value: Any) -> None:
        raise HonestyError(
            f"pram.{cls.__name__}.{name} = ... replaces what every run calls; the machine's "
            "classes are fixed: call them, or write your own function beside them")

    def __delattr__(cls, name: str) -> None:
        Fixed.__setattr__(cls, name, None)


class Final(Fixed):
    """A class that takes no subclass and whose namespace is fixed once it is made."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                **kwargs: Any) -> Final:
        for base in bases:
            if isinstance(base, Final):
                raise TypeError(
                    f"pram.{base.__name__} is final: a subclass could count or answer other than "
                    f"the machine does; use pram.{base.__name__} itself")
        return super().__new__(mcs, name, bases, namespace, **kwargs)
