"""Algorithm 9 (the sequential associative array) and the brute-force oracle."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Formula, InputError, check
from pram.algorithms.oracle import brute_force
from pram.algorithms.sequential import SequentialResult, recall


@st.composite
def token_sequences(draw: st.DrawFn) -> np.ndarray:
    """N/3 triples with a small or large vocabulary: repeated keys, or queries matching nothing."""
    triples = draw(st.integers(min_value=1, max_value=40), label="triples")
    top = draw(st.sampled_from([0, 1, 3, 10, 2**40]), label="largest token")
    tokens = draw(
        st.lists(
            st.integers(min_value=0, max_value=top), min_size=3 * triples, max_size=3 * triples
        )
    )
    return np.array(tokens, dtype=np.int64)


# ---- answers ---------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(token_sequences())
def test_recall_equals_brute_force(tokens: np.ndarray) -> None:
    """Algorithm 9 gives the latest earlier matching key's value, or -1, like the oracle."""
    assert recall(tokens).answers.tolist() == brute_force(tokens).tolist()


def test_latest_key_wins_and_own_key_is_not_seen() -> None:
    """An overwritten key answers with its latest value; query i never sees its own key k_i."""
    tokens = [5, 50, 5, 5, 51, 5, 7, 70, 5, 9, 90, 9]
    assert recall(tokens).answers.tolist() == [-1, 50, 51, -1]
    assert brute_force(tokens).tolist() == [-1, 50, 51, -1]


def test_queries_matching_nothing_answer_no_match() -> None:
    """Queries that equal no earlier key all answer -1."""
    tokens = np.array([[k, k + 100, k + 1000] for k in range(20)]).ravel()
    assert recall(tokens).answers.tolist() == [-1] * 20


def test_operations_are_counted_as_it_runs() -> None:
    """A hand-traced run: 6 comparisons; 18 operations (6 comparisons, 3 nodes, 3 answers,
    5 height updates, 1 rotation); each comparison costs d with d-bit keys."""
    result = recall([1, 10, 2, 2, 20, 1, 3, 30, 2])
    assert result.answers.tolist() == [-1, 10, 20]
    assert (result.comparisons, result.operations) == (6, 18)
    assert result.operations_with(8) == 18 + 7 * 6
    assert isinstance(result, SequentialResult)


def test_tree_stays_balanced_on_sorted_keys() -> None:
    """Sorted keys (a plain search tree's worst case) cost O(log N) comparisons per lookup."""
    triples = 1023
    tokens = np.array([[k, k, 10**6] for k in range(triples)]).ravel()
    result = recall(tokens)
    # An AVL tree of t nodes is at most 1.45 log2(t + 2) high; a find and an insert per triple.
    assert result.comparisons <= 2 * triples * 1.45 * math.log2(triples + 2)


# ---- bounds ----------------------------------------------------------------------------------

WORK = Formula("N log2(N)", lambda s: s["N"] * math.log2(s["N"]))
CONVERT = (
    "make them integers explicitly, e.g. numpy.rint(x).astype(numpy.int64) for reals (a plain "
    "cast would truncate them)"
)


def sweep_tokens(triples: int, rng: np.random.Generator) -> np.ndarray:
    """Ascending keys (the worst case for an unbalanced tree), queries hitting about half."""
    keys = np.arange(triples)
    values = rng.integers(0, 2**20, triples)
    queries = rng.integers(0, 2 * triples, triples)
    return np.stack([keys, values, queries], axis=1).ravel()


@pytest.fixture(scope="module")
def sequential_sweep() -> list[tuple[dict[str, float], int]]:
    """Algorithm 9's operations over N/3 = 2^4 .. 2^16 (the largest run takes about a second)."""
    rng = np.random.default_rng(5)
    points = []
    for e in range(4, 17, 2):
        tokens = sweep_tokens(2**e, rng)
        points.append(({"N": float(len(tokens))}, recall(tokens).operations))
    return points


def test_operations_are_within_n_log_n(
    sequential_sweep: list[tuple[dict[str, float], int]],
) -> None:
    """Measured operations / (N log2 N) stay bounded over N/3 = 2^4 .. 2^16."""
    result = check("operations", WORK, sequential_sweep, limit=4.0)
    assert result.holds, result.table()


def scan_operations(tokens: np.ndarray) -> int:
    """A planted slower associative array: a list scanned from the start (comparisons)."""
    keys: list[int] = []
    values: list[int] = []
    operations = 0
    u = tokens.tolist()
    for i in range(len(u) // 3):
        key, value, query = u[3 * i], u[3 * i + 1], u[3 * i + 2]
        for stored in keys:  # find
            operations += 1
            if stored == query:
                break
        for j, stored in enumerate(keys):  # insert, overwriting
            operations += 1
            if stored == key:
                values[j] = value
                break
        else:
            keys.append(key)
            values.append(value)
    return operations


def test_planted_list_scan_fails_the_same_check() -> None:
    """A linear-scan associative array exceeds N log N: the check is able to fail."""
    rng = np.random.default_rng(5)
    points = []
    for e in range(4, 11, 2):
        tokens = sweep_tokens(2**e, rng)
        points.append(({"N": float(len(tokens))}, scan_operations(tokens)))
    result = check("operations", WORK, points)
    assert not result.holds, result.table()


# ---- invalid input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tokens", "message"),
    [
        ([[1, 2, 3]], "tokens must be one-dimensional (got shape (1, 3)); pass a flat array"),
        ([1.0, 2.0, 3.0], f"tokens must be integers (got dtype float64); {CONVERT}"),
        ([True, False, True], f"tokens must be integers (got dtype bool); {CONVERT}"),
        ([1, 2, -3], "tokens must be non-negative (got tokens[2] = -3)"),
        (
            [1, 2, 3, 4],
            "the number of tokens must be a positive multiple of 3, one (key, value, query) "
            "triple each (got 4)",
        ),
        (
            [],
            "the number of tokens must be a positive multiple of 3, one (key, value, query) "
            "triple each (got 0)",
        ),
    ],
)
def test_invalid_tokens_are_refused(tokens: Any, message: str) -> None:
    """Algorithm 9 and the oracle refuse bad input with a message naming the value."""
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        recall(tokens)
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        brute_force(tokens)
