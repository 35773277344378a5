"""The one table of algorithm entries the command line knows, in the order it lists them.

The paper's algorithms and baselines (:mod:`pram.reports.algorithms`) come first, then the
catalogue of classic algorithms (:mod:`pram.reports.classics`, then the techniques courses set,
:mod:`pram.reports.techniques`). Every lookup by name goes through :func:`algorithm`; adding an
algorithm is one entry in one of those modules.
"""

from __future__ import annotations

from pram import InputError
from pram.reports import algorithms, classics, techniques
from pram.reports.registry import Algorithm

#: The table: algorithm name -> what runs.
ALGORITHMS: dict[str, Algorithm] = {
    e.name: e for e in (*algorithms.ENTRIES, *classics.ENTRIES, *techniques.ENTRIES)
}


def algorithm(name: str) -> Algorithm:
    """The entry called ``name``, or an InputError listing the known ones."""
    found = ALGORITHMS.get(name)
    if found is None:
        raise InputError(f"algorithm must be one of {', '.join(ALGORITHMS)} (got {name!r})")
    return found


def names() -> list[str]:
    """The name of every entry, in the table's order."""
    return list(ALGORITHMS)
