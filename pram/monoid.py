"""``pram.monoid``, the documented import path of the interval-monoid check of scans, which live in
:mod:`pram.circuits.monoid`: the public names are re-exported so that code written against
``pram.monoid`` keeps working (the project's own modules import from
:mod:`pram.circuits.monoid`).
"""

from pram.circuits.monoid import (
    ERROR,
    IDENTITY,
    SPAN,
    WORD,
    ScanCheck,
    expected,
    scan_check,
    segment_starts,
)

__all__ = [
    "ERROR",
    "IDENTITY",
    "SPAN",
    "WORD",
    "ScanCheck",
    "expected",
    "scan_check",
    "segment_starts",
]
