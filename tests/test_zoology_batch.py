"""``pram zoology`` grouped: examples grouped by the size of their triple layout, each group on
one batched machine; the same accuracy, violations and counts as one example per machine."""

from __future__ import annotations

import numpy as np

from pram.algorithms.zoology import IGNORE, batch, to_triples
from pram.reports.zoology import GROUP_LIMIT, groups_of, load_batch, score


def test_examples_are_grouped_by_the_size_of_their_layout(tmp_path: object) -> None:
    """Examples with as many triples go together, in order; other sizes form their own group;
    no group exceeds GROUP_LIMIT."""
    inputs, labels = batch(5, 32, 4, 64, seed=3)
    labels[1, labels[1] != IGNORE] = IGNORE  # example 1: fewer labelled positions
    labels[1, np.flatnonzero(batch(1, 32, 4, 64, seed=3)[1][0] != IGNORE)[:1]] = 0
    triples = [to_triples(inputs[e], labels[e], 4, 64) for e in range(5)]
    assert [len(t.tokens) for t in triples] == [24, 15, 24, 24, 24]
    assert groups_of(triples) == [[0, 2, 3, 4], [1]]
    many = [triples[0]] * (GROUP_LIMIT + 1)
    assert [len(g) for g in groups_of(many)] == [GROUP_LIMIT, 1]


def test_grouped_and_one_by_one_score_the_same(tmp_path: object) -> None:
    """Grouped (batched) and one-by-one scores agree on every field but the notes."""
    inputs, labels = batch(6, 64, 8, 128, seed=4)
    path = f"{tmp_path}/b.npz"
    np.savez(path, inputs=inputs, labels=labels, num_kv_pairs=8)
    loaded = load_batch(path)
    grouped, apart = score(loaded, grouped=True), score(loaded, grouped=False)
    assert {k: v for k, v in grouped.items() if k != "notes"} == {
        k: v for k, v in apart.items() if k != "notes"}
    assert grouped["accuracy"] == 1.0 and grouped["violations"] == 0
