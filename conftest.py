"""``python -m pytest`` puts the checkout first on ``sys.path``; against a regular ``pip install .``
its bare ``pram/`` folder (without ``pram.algorithms`` and ``pram.reports``, which install from
``algorithms/`` and ``reports/``) would then shadow the installed package. Take the checkout off
the path wherever a ``pram`` is installed, as ``pytest`` itself (importlib mode) does."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
_checkout = [entry for entry in sys.path if Path(entry or ".").resolve() == ROOT]
if _checkout and "pram" not in sys.modules:
    _kept = sys.path[:]
    sys.path[:] = [entry for entry in sys.path if entry not in _checkout]
    if importlib.util.find_spec("pram") is None:  # nothing installed: the checkout it is
        sys.path[:] = _kept
