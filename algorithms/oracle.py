"""The brute-force MQAR oracle: every query scans all earlier keys. For tiny inputs in tests.

>>> brute_force([5, 50, 7, 5, 51, 5, 7, 70, 5]).tolist()
[-1, 50, 51]
>>> brute_force_indices([5, 50, 7, 5, 51, 5, 7, 70, 5]).tolist()
[-1, 0, 1]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pram import Words
from pram.algorithms.sequential import NO_MATCH, triples


def brute_force(tokens: Any) -> Words:
    """For each triple i, the value of the latest j < i with k_j == q_i, or -1 (no match)."""
    u = triples(tokens)
    index = brute_force_indices(u)
    return np.where(index != NO_MATCH, u[3 * index + 1], NO_MATCH)


def brute_force_indices(tokens: Any) -> Words:
    """For each triple i, the latest j < i with k_j == q_i (the key whose value answers query
    i), or -1 (no match)."""
    u = triples(tokens).tolist()
    count = len(u) // 3
    indices = np.full(count, NO_MATCH, dtype=np.int64)
    for i in range(count):
        for j in range(i):  # ascending, so the last match seen is the latest
            if u[3 * j] == u[3 * i + 2]:
                indices[i] = j
    return indices


__all__ = ["brute_force", "brute_force_indices"]
