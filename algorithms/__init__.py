"""PRAM programs written against :mod:`pram`'s public API: primitives, sorting networks and
merges, comparators, parallel binary search (Algorithm 10), MQAR (Algorithms 9 and 11) and the
baselines. Between steps a program only computes elementwise in O(1) per processor."""

if __name__ != "pram.algorithms":
    # One module object per file: this folder installs as pram.algorithms (pyproject.toml maps it);
    # imported as plain ``algorithms`` (from the top of the checkout) each file would load twice.
    raise ImportError(
        f"{__name__!r} is not importable by that name: import pram.algorithms instead "
        f"(it is installed as pram.algorithms; pip install -e . from the checkout)",
        name=__name__,
    )

