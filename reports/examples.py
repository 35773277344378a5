"""``pram example``: write an input file of each kind ``--input`` and ``pram zoology`` read.

Each file is a random instance from the seed, the same one ``pram run`` would draw itself, so a
newcomer can see the format, edit it and feed it back:

- ``tokens``: a ``.npy`` token sequence ``k v q k v q ...`` for the MQAR algorithms;
- ``search``: a ``.npz`` with sorted ``queries`` and ``keys`` for ``pbs`` and ``pbs-naive``;
- ``values``: a ``.npy`` of integers for ``sort``;
- ``batch``: a ``.npz`` Zoology batch (``inputs``, ``labels``, ``num_kv_pairs``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pram import InputError
from pram.reports.entries import algorithm
from pram.reports.registry import Options
from pram.reports.writer import save_array, save_arrays

#: Kind -> (the algorithm whose family draws it, suffix, what it holds).
KINDS = {
    "tokens": ("mqar", ".npy", "a token sequence for pram run mqar --input"),
    "search": ("pbs", ".npz", "sorted queries and keys for pram run pbs --input"),
    "values": ("sort", ".npy", "integers for pram run sort --input"),
    "batch": ("", ".npz", "a Zoology batch for pram zoology"),
}


def suffix(kind: str) -> str:
    """The file suffix of ``kind``."""
    return KINDS[kind][1]


def write_example(kind: str, path: Path, *, n: int | None, seed: int) -> str:
    """Write an example file of ``kind`` to ``path`` (whole or not at all, at exactly that name);
    return a sentence saying what it holds."""
    if kind == "batch":
        from pram.algorithms.zoology import batch

        length = n or 64
        if length < 8:
            raise InputError(f"--n {length} is too short for a batch; give --n 8 or more")
        pairs = length // 8
        inputs, labels = batch(4, length, pairs, max(64, 4 * pairs), seed=seed)
        save_arrays(path, "FILE", inputs=inputs, labels=labels, num_kv_pairs=np.array(pairs))
        return f"4 examples of {length} tokens, {pairs} key-value pairs each"
    name = KINDS[kind][0]
    family = algorithm(name).family
    instance = family.build(Options(n=n, seed=seed), np.random.default_rng(seed))
    data = {k: np.asarray(v, dtype=np.int64) for k, v in instance.data.items()}
    if kind == "search":
        save_arrays(path, "FILE", queries=data["queries"], keys=data["keys"])
        return f"{len(data['queries'])} sorted queries and {len(data['keys'])} sorted keys"
    (values,) = data.values()
    save_array(path, values, "FILE")
    noun = "tokens" if kind == "tokens" else "integers"
    return f"{len(values)} {noun}"
