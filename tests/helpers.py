"""Helpers shared by several test modules: a pattern matching one whole message, and the step
that reads an array into one register per processor."""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any

from pram import Machine, Read, Step, iota


def whole(message: str) -> str:
    """A pattern (for ``pytest.raises(match=...)``) matching exactly ``message``."""
    return "^" + re.escape(message) + "$"


def read_all(m: Machine, a: Any, n: int) -> Generator[Any, Any, tuple[Any, Any]]:
    """One step in which processors 0..n-1 each read their cell of ``a``: their ids and the
    register read."""
    pid = m.processors(n)
    (x,) = yield Step(pid, reads=[Read(a, iota(n))])
    return pid, x
