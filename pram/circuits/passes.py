"""The recorder's closing passes over its gate table (:mod:`pram.circuits.circuit`).

When :meth:`~pram.circuits.circuit.Recorder.circuit` is asked for the circuit, the recorded
batches are stacked (:func:`pad`, :func:`concat`), the minimum and the maximum of the same two
wires are fused into one two-output ``comparator`` gate (:func:`fuse`), and the gates no output
depends on are dropped (:func:`live`). Kept apart from the recorder so each file reads on its own.
"""

from __future__ import annotations

from typing import Any

import numpy.typing as npt

from pram._numpy import np
from pram.circuits.io import groups

#: An array of wire ids.
Wires = npt.NDArray[np.int64]
#: The padding of an unused input or output slot of a gate.
NONE = -1


def concat(parts: list[Wires]) -> Wires:
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def pad(x: Wires, width: int) -> Wires:
    out = np.full((len(x), width), NONE, np.int64)
    out[:, : x.shape[1]] = x
    return out


def fuse(
    kinds: tuple[str, ...],
    kind: npt.NDArray[np.int64],
    ins: npt.NDArray[np.int64],
    outs: npt.NDArray[np.int64],
    batch: npt.NDArray[np.int64],
) -> tuple[tuple[str, ...], Any, Any, Any, Any]:
    """Fuse the min and the max of the same two wires into one two-output comparator."""
    if "min" not in kinds or "max" not in kinds:
        return kinds, kind, ins, outs, batch
    if "comparator" not in kinds:
        kinds = (*kinds, "comparator")
    lo, hi, comparator = kinds.index("min"), kinds.index("max"), kinds.index("comparator")
    mins, maxs = np.flatnonzero(kind == lo), np.flatnonzero(kind == hi)
    width = int(max(ins.max(), 0)) + 1

    def key(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        a, b = ins[rows, 0], ins[rows, 1]
        pair: npt.NDArray[np.int64] = np.minimum(a, b) * width + np.maximum(a, b)
        return pair

    min_keys, first_min = np.unique(key(mins), return_index=True)
    max_keys, first_max = np.unique(key(maxs), return_index=True)
    _, at_min, at_max = np.intersect1d(min_keys, max_keys, assume_unique=True, return_indices=True)
    m, x = mins[first_min[at_min]], maxs[first_max[at_max]]
    kind = kind.copy()
    outs = outs.copy()
    batch = batch.copy()
    kind[m] = comparator
    outs[m, 1] = outs[x, 0]
    batch[m] = np.minimum(batch[m], batch[x])
    keep = np.ones(len(kind), np.bool_)
    keep[x] = False
    return kinds, kind[keep], ins[keep], outs[keep], batch[keep]


def live(
    ins: npt.NDArray[np.int64],
    outs: npt.NDArray[np.int64],
    batch: npt.NDArray[np.int64],
    outputs: Wires,
    wires: int,
) -> npt.NDArray[np.bool_]:
    """Which gates some output depends on (a backward pass, batch by batch)."""
    needed = np.zeros(wires + 1, np.bool_)  # the last entry absorbs the -1 padding
    needed[outputs] = True
    keep = np.zeros(len(batch), np.bool_)
    order = np.argsort(batch, kind="stable")
    for rows in reversed(groups(batch[order])):
        gates = order[rows]
        live = needed[outs[gates]].any(axis=1)
        keep[gates[live]] = True
        needed[ins[gates[live]].reshape(-1)] = True
        needed[-1] = False
    return keep


__all__ = ["NONE", "Wires", "concat", "fuse", "live", "pad"]
