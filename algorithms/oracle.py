"""The brute-force MQAR oracle: every query scans all earlier keys. For tiny inputs in tests.

>>> brute_force([5, 50, 7, 5, 51, 5, 7, 70, 5]).tolist()
[-1, 50, 51]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from algorithms.sequential import NO_MATCH, triples
from pram import Words


def brute_force(tokens: Any) -> Words:
    """For each triple i, the value of the latest j < i with k_j == q_i, or -1 (no match)."""
    u = triples(tokens).tolist()
    count = len(u) // 3
    answers = np.full(count, NO_MATCH, dtype=np.int64)
    for i in range(count):
        for j in range(i):  # ascending, so the last match seen is the latest
            if u[3 * j] == u[3 * i + 2]:
                answers[i] = u[3 * j + 1]
    return answers


__all__ = ["brute_force"]
