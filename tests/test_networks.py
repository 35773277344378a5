"""Oblivious comparator networks: they sort and merge, on word keys and on bit keys."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Machine
from pram.algorithms import networks


def assert_sorts(keys: list[int], network: str, d: int) -> None:
    """``network`` sorts ``keys`` (d = 0: as words; else reduced to d-bit keys), EREW-clean."""
    tokens = np.array(keys) % (1 << d) if d else np.array(keys)
    m = Machine("erew")
    a = networks.store_bits(m, "a", tokens, d) if d else m.array("a", values=tokens)
    m.run(networks.sort(m, a, network, d=d))
    out = networks.load_bits(a, d) if d else a.to_numpy()
    assert out.tolist() == sorted(tokens.tolist())
    assert m.violations == []


@settings(max_examples=25, deadline=None)
@given(
    keys=st.lists(st.integers(min_value=0, max_value=2**12 - 1), min_size=8, max_size=8),
    network=st.sampled_from(["bitonic", "odd-even"]),
    d=st.sampled_from([0, 1, 3, 12]),
)
def test_sort_equals_numpy_sort_on_word_and_bit_keys(keys: list[int], network: str, d: int) -> None:
    """The network sorts any 8 keys (d = 0: words; else d-bit keys), EREW-clean."""
    assert_sorts(keys, network, d)


@settings(max_examples=25, deadline=None)
@given(
    first=st.lists(st.integers(min_value=0, max_value=31), min_size=4, max_size=4),
    second=st.lists(st.integers(min_value=0, max_value=31), min_size=4, max_size=4),
    network=st.sampled_from(["bitonic", "odd-even"]),
)
def test_merge_of_two_sorted_halves_equals_numpy_sort(
    first: list[int], second: list[int], network: str
) -> None:
    """The merge network merges two sorted runs of 4 five-bit keys."""
    tokens = np.array(sorted(first) + sorted(second))
    m = Machine("erew")
    a = networks.store_bits(m, "a", tokens, 5)
    m.run(networks.merge(m, a, network, d=5))
    assert networks.load_bits(a, 5).tolist() == sorted(tokens.tolist())
    assert m.violations == []


def test_bit_keys_are_stored_least_significant_bit_first() -> None:
    """Token 6 in 3 bits is the cells 0, 1, 1."""
    m = Machine("erew")
    assert networks.store_bits(m, "a", [6], 3).to_numpy().tolist() == [0, 1, 1]


@settings(max_examples=25, deadline=None)
@given(
    keys=st.lists(st.integers(min_value=0, max_value=2**6 - 1), min_size=1, max_size=16),
    network=st.sampled_from(["bitonic", "odd-even", "merge-exchange", "best-known"]),
    d=st.sampled_from([0, 2, 6]),
)
def test_every_network_sorts_any_n_on_word_and_bit_keys(
    keys: list[int], network: str, d: int
) -> None:
    """Any of the four networks sorts any 1..16 keys, words or d-bit keys, EREW-clean."""
    assert_sorts(keys, network, d)


def test_only_batchers_networks_merge() -> None:
    """A merge is the last stage of Batcher's two networks; the others have none, and say so."""
    import pytest

    from pram import InputError

    with pytest.raises(InputError, match="to merge"):
        networks.levels("merge", "merge-exchange", 8)
