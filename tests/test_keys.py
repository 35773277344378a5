"""The token seam with word keys: what each operation answers, and what it costs."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Flags, Machine, Read, Values, Write
from pram.algorithms.keys import Keys, WordKeys, word_keys

WORDS = st.integers(int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max))


def test_word_keys_satisfy_the_keys_protocol() -> None:
    """WordKeys is a complete Keys: one cell per token, the largest int64 as its largest token."""
    keys: Keys = word_keys()
    assert isinstance(keys, WordKeys)
    assert (keys.width, keys.largest) == (1, 2**63 - 1)


def test_store_allocate_and_load_cost_no_steps() -> None:
    """Host input and output of tokens is free; allocated tokens start undefined."""
    m = Machine("erew")
    keys = WordKeys()
    a = keys.store(m, "a", np.array([4, -2, 9]))
    b = keys.allocate(m, "b", 5)
    assert keys.load(a).tolist() == [4, -2, 9]
    assert (len(b), m.cost.time, m.cost.memory_cells) == (5, 0, 8)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(WORDS, WORDS) | st.tuples(st.integers(0, 2), st.integers(0, 2)),
                min_size=1, max_size=20))
def test_compare_answers_less_and_equal_in_one_step(pairs: list[tuple[int, int]]) -> None:
    """compare() gives (a < b, a == b) for every pair, one read step, one processor each."""
    m = Machine("erew")
    keys = WordKeys()
    left = np.array([p[0] for p in pairs], dtype=np.int64)
    right = np.array([p[1] for p in pairs], dtype=np.int64)
    a, b = keys.store(m, "a", left), keys.store(m, "b", right)
    cell = np.arange(len(pairs))
    less, equal = m.run(keys.compare(m, m.processors(len(pairs)), a, cell, b, cell))
    assert less.tolist() == (left < right).tolist()
    assert equal.tolist() == (left == right).tolist()
    assert (m.cost.time, m.cost.work, m.violations) == (1, len(pairs), [])


def test_copy_moves_tokens_in_two_steps() -> None:
    """copy() moves token source[i] to target[j]: a read step and a write step."""
    m = Machine("erew")
    keys = WordKeys()
    source = keys.store(m, "source", np.array([10, 20, 30]))
    target = keys.allocate(m, "target", 3)
    m.run(keys.copy(m, m.processors(3), source, np.array([0, 1, 2]), target, np.array([2, 0, 1])))
    assert keys.load(target).tolist() == [20, 30, 10]
    assert (m.cost.time, m.cost.work, m.violations) == (2, 6, [])


def test_compare_exchange_swaps_where_told_and_carries_words() -> None:
    """compare_exchange() hands the comparison and the extra reads to the decision, swaps the
    tokens it chose and makes its word writes, in two steps of one processor per pair."""
    m = Machine("erew")
    keys = WordKeys()
    tokens = keys.store(m, "tokens", np.array([5, 1, 2, 2, 7, 9]))
    tags = m.array("tags", values=np.array([0, 1, 2, 3, 4, 5]))
    i, j = np.array([0, 2, 4]), np.array([1, 3, 5])
    seen: list[tuple[Flags, Flags, Values]] = []

    def decide(less: Flags, equal: Flags, values: Values) -> tuple[Flags, Sequence[Write]]:
        seen.append((less, equal, values))  # registers: looked at after the run
        swap = ~less & ~equal
        return swap, [Write(tags, i, np.where(swap, values[1], values[0])),
                      Write(tags, j, np.where(swap, values[0], values[1]))]

    m.run(keys.compare_exchange(
        m, m.processors(3), tokens, i, j, decide, [Read(tags, i), Read(tags, j)]
    ))
    assert [(less.tolist(), equal.tolist(), [v.tolist() for v in values])
            for less, equal, values in seen] == [
        ([False, False, True], [False, True, False], [[0, 2, 4], [1, 3, 5]])
    ]
    assert keys.load(tokens).tolist() == [1, 5, 2, 2, 7, 9]
    assert tags.to_numpy().tolist() == [1, 0, 2, 3, 4, 5]
    assert (m.cost.time, m.cost.work, m.violations) == (2, 6, [])


def test_compare_exchange_writes_both_tokens_whatever_it_decides() -> None:
    """The work and the writes counted do not depend on the decision (data-independent cost)."""
    counts = []
    for swap_all in (False, True):
        m = Machine("erew")
        keys = WordKeys()
        tokens = keys.store(m, "tokens", np.array([3, 4, 1, 0]))

        def decide(
            less: Flags, equal: Flags, values: Values, swap_all: bool = swap_all
        ) -> tuple[Flags, Sequence[Write]]:
            return np.full(len(less), swap_all), []

        m.run(keys.compare_exchange(
            m, m.processors(2), tokens, np.array([0, 2]), np.array([1, 3]), decide
        ))
        counts.append(m.cost.as_dict())
        expected = [4, 3, 0, 1] if swap_all else [3, 4, 1, 0]
        assert keys.load(tokens).tolist() == expected
    assert counts[0] == counts[1]
    assert counts[0]["writes"] == 4
