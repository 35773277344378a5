"""Zoology's MQAR batches (the empirical layout) and their map onto the triple layout.

Zoology's synthetic MQAR data (``zoology/data/multiquery_ar.py`` in HazyResearch/zoology) lays an
example out as every key-value pair first, ``k v k v ...`` (``2 P`` tokens, keys distinct), then
a query region in which some positions hold a key and the others filler tokens, which may equal
keys or values. ``labels[t]`` is the value expected at query position ``t`` and
:data:`IGNORE` (-100) elsewhere. Only the key-value section holds keys: a query-region token
equal to a key is *not* a key (shared/spec/algorithms.md, section 1).

:func:`to_triples` maps one example onto the theory layout of Algorithm 11: a triple
``(k_j, v_j, never)`` per pair, then a triple ``(never, 0, x_t)`` per labelled position ``t``,
where ``never`` is a token no input equals. The pair triples come first, so every query sees
every key; the query triples' keys never match, so query-region tokens never act as keys; the
pair triples' queries never match either, and their answers are not scored. Repeated keys in
the key-value section resolve by Algorithm 11's rule: the latest pair wins.

:func:`batch` generates batches in Zoology's layout for tests (it does not use Zoology itself).
All of this is host-side input and output: it costs no machine steps.

>>> inputs, labels = batch(2, 16, 2, 32, seed=1)
>>> t = to_triples(inputs[0], labels[0], 2, 32)
>>> len(t.tokens), len(t.positions)
(12, 2)
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from pram import InputError, Words, iota, words

#: The label of a position that is not a query (PyTorch's ignore index, as in Zoology).
IGNORE = -100

Grid = npt.NDArray[np.int64]


@attrs.frozen
class Triples:
    """One example in the triple layout, and where its answers go.

    ``tokens`` holds ``pairs + len(positions)`` triples; the answer of triple ``pairs + r``
    belongs to query position ``positions[r]``, whose label is ``expected[r]``.
    """

    tokens: Words
    positions: Words
    expected: Words
    pairs: int

    def answers_at_positions(self, answers: Words) -> Words:
        """The answers of the query triples, one per labelled position (host output)."""
        return answers[self.pairs : self.pairs + len(self.positions)]


def to_triples(inputs: Any, labels: Any, num_kv_pairs: int, never: int) -> Triples:
    """Map one example (``inputs`` and ``labels`` of one length) onto the triple layout.

    ``never`` must differ from every token of ``inputs`` (e.g. the vocabulary size); it serves
    as the key of the query triples and the query of the pair triples, so neither matches.
    """
    x = words(inputs, "inputs")
    y = words(labels, "labels")
    pairs = int(num_kv_pairs)
    if y.shape != x.shape:
        raise InputError(
            f"inputs and labels of one example must be of one length (got {len(x)} inputs and "
            f"{len(y)} labels); give one label per input position"
        )
    if not 1 <= pairs <= len(x) // 2:
        raise InputError(
            f"num_kv_pairs must be from 1 to half the sequence length {len(x)} (got {pairs})"
        )
    labelled = y != IGNORE
    positions = iota(len(x))[labelled]
    queries = x[labelled]
    count = len(positions)
    tokens = np.empty(3 * (pairs + count), dtype=np.int64)
    # triples (k_j, v_j, never) for the key-value section
    tokens[0 : 3 * pairs : 3] = x[0 : 2 * pairs : 2]
    tokens[1 : 3 * pairs : 3] = x[1 : 2 * pairs : 2]
    tokens[2 : 3 * pairs : 3] = never
    # triples (never, 0, x_t) for the labelled query positions
    tokens[3 * pairs :: 3] = never
    tokens[3 * pairs + 1 :: 3] = 0
    tokens[3 * pairs + 2 :: 3] = queries
    return Triples(tokens, positions, y[labelled], pairs)


def batch(
    examples: int,
    length: int,
    num_kv_pairs: int,
    vocab: int,
    *,
    seed: int = 0,
    key_fillers: float = 0.25,
) -> tuple[Grid, Grid]:
    """A batch ``(inputs, labels)`` of shape ``[examples, length]`` in Zoology's MQAR layout.

    As in Zoology: keys are distinct tokens from ``[1, vocab // 2)``, values from
    ``[vocab // 2, vocab)``; each key is queried once, at an even offset of the query region
    chosen at random; the other query-region positions hold random filler tokens from
    ``[0, vocab)``. In addition a share ``key_fillers`` of the filler positions repeats one of
    the example's keys, so fillers equal to keys are always present.
    """
    if examples < 1 or length < 1 or num_kv_pairs < 1:
        raise InputError(
            f"examples, length and num_kv_pairs must be positive "
            f"(got {examples}, {length}, {num_kv_pairs})"
        )
    if 4 * num_kv_pairs > length:
        raise InputError(
            f"length must be at least 4 * num_kv_pairs = {4 * num_kv_pairs} so every key can be "
            f"queried (got {length})"
        )
    if vocab // 2 - 1 < num_kv_pairs:
        raise InputError(
            f"vocab must hold {num_kv_pairs} distinct keys in [1, vocab // 2) (got vocab = "
            f"{vocab}); use vocab >= {2 * num_kv_pairs + 2}"
        )
    if not 0.0 <= key_fillers <= 1.0:
        raise InputError(f"key_fillers must be a share from 0 to 1 (got {key_fillers})")
    rng = np.random.default_rng(seed)
    pairs = num_kv_pairs
    context = 2 * pairs
    slots = (length - context) // 2
    inputs = np.empty((examples, length), dtype=np.int64)
    labels = np.full((examples, length), IGNORE, dtype=np.int64)
    for e in range(examples):
        keys = 1 + rng.choice(vocab // 2 - 1, size=pairs, replace=False)
        values = vocab // 2 + rng.choice(vocab - vocab // 2, size=pairs, replace=False)
        row = rng.integers(0, vocab, size=length, dtype=np.int64)  # filler tokens
        fill = rng.random(length) < key_fillers
        row[fill] = keys[rng.integers(0, pairs, size=length)][fill]
        row[0:context:2] = keys
        row[1:context:2] = values
        where = context + 2 * rng.choice(slots, size=pairs, replace=False)
        row[where] = keys
        labels[e, where] = values
        inputs[e] = row
    return inputs, labels


__all__ = ["IGNORE", "Triples", "batch", "to_triples"]
