"""The all-pairs MQAR baseline: equal to Algorithm 9 on EREW, work Theta(N^2), time O(log N)."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings

from pram import Formula, InputError, Machine, check
from pram.algorithms.allpairs import recall
from pram.algorithms.bits import BitKeys
from pram.algorithms.keys import Keys
from pram.algorithms.mqar import Recall, check_bounds, random_tokens, sweep
from pram.algorithms.sequential import recall as sequential_recall
from tests.test_mqar import (
    assert_brute_force_on_tiny_inputs,
    assert_indices,
    assert_latest_earlier_key_wins,
    mqar_inputs,
    whole_triples,
)


def run(tokens: Any, keys: Keys | None = None) -> Recall:
    """The baseline on a fresh EREW machine; asserts the run is legal EREW."""
    m = Machine("erew")
    result = recall(m, tokens, keys=keys)
    assert m.violations == []
    assert m.undefined_reads == []
    return result


@settings(max_examples=120, deadline=None)
@given(tokens=mqar_inputs())
def test_allpairs_equals_algorithm_9_on_random_inputs(tokens: np.ndarray) -> None:
    """Repeated keys, unmatched queries, any size: the answers of Algorithm 9, on EREW."""
    expected = sequential_recall(whole_triples(tokens)).answers
    result = run(tokens)
    assert result.answers.tolist() == expected.tolist()
    assert_indices(result, tokens)


def test_allpairs_equals_brute_force_on_all_tiny_inputs() -> None:
    """Every choice of keys and queries for N/3 <= 3 over 3 tokens (and N/3 = 4 over 2)."""
    assert_brute_force_on_tiny_inputs(run, [(1, 3), (2, 3), (3, 3), (4, 2)])


def test_latest_earlier_key_wins_and_own_key_is_not_seen() -> None:
    """Ties go to the latest earlier key; query i never sees k_i; no match is -1."""
    assert_latest_earlier_key_wins(run)


def test_bit_keys_give_the_same_answers() -> None:
    """Tokens of d bits, one per cell (serial and tree comparators): same answers, EREW."""
    u = random_tokens(12, np.random.default_rng(3), vocabulary=4)
    expected = sequential_recall(u).answers.tolist()
    for comparator in ("serial", "tree"):
        result = run(u, BitKeys(4, comparator))
        assert result.answers.tolist() == expected
        assert_indices(result, u)


def test_padding_is_reported_like_algorithm_11() -> None:
    """Same layout and padding report as Algorithm 11."""
    result = run(np.arange(13) % 3)
    assert (result.queries, result.padding, result.levels) == (4, 11, 3)


def test_phases_are_labelled() -> None:
    """Replicate, compare and combine are the phases, and their work adds up."""
    m = Machine("erew")
    recall(m, random_tokens(32, np.random.default_rng(0)))
    top = {label: p for label, p in m.cost.phases.items() if "/" not in label}
    assert set(top) == {"replicate", "compare", "combine"}
    assert sum(p.work for p in top.values()) == m.cost.work


def test_allpairs_fails_the_work_bound_of_algorithm_11() -> None:
    """Quadratic work: the O(N log^2 N) check fails; work / N^2 and time / log2(N) hold."""
    points = sweep(recall, [1 << L for L in range(4, 11)])
    checks = check_bounds(points)
    assert not checks["work"].holds, checks["work"].table()
    quadratic = Formula("N^2", lambda s: s["N"] ** 2)
    assert check("work", quadratic, [(s, c.work) for s, c in points]).holds
    logarithmic = Formula("log2(N)", lambda s: math.log2(s["N"]))
    assert check("time", logarithmic, [(s, c.time) for s, c in points]).holds


def test_invalid_tokens_are_refused() -> None:
    """The same boundary checks as Algorithm 11."""
    message = "tokens must be non-negative (got tokens[0] = -1); renumber the vocabulary from 0"
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        recall(Machine("erew"), [-1, 2, 3])
