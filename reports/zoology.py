"""``pram zoology``: read a batch in Zoology's MQAR layout, solve it with Algorithm 11, score it.

Every example is mapped onto the triple layout (:func:`algorithms.zoology.to_triples`) and
solved on its own EREW machine; the answers at the labelled positions are compared with the
labels. The file is validated first, so a bad file gives one line naming what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from pram import InputError, Machine, words
from pram.algorithms import mqar
from pram.algorithms.zoology import IGNORE, to_triples
from pram.reports import guard
from pram.reports.registry import MAX_D, Options, bits_needed, read_archive

#: How many disagreeing positions a score names (the first ones, in example order).
SHOWN = 5

WHAT = (
    "an .npz file holding 'inputs' and 'labels' (integer arrays of shape [examples, length]) "
    "and 'num_kv_pairs'"
)


@attrs.frozen
class Batch:
    """A validated batch: inputs and labels ``[examples, length]``, pairs per example."""

    inputs: np.ndarray[Any, np.dtype[np.int64]]
    labels: np.ndarray[Any, np.dtype[np.int64]]
    num_kv_pairs: np.ndarray[Any, np.dtype[np.int64]]
    file: str = ""

    def pairs(self, example: int) -> int:
        """The key-value pairs of ``example`` (one count for all, or one per example)."""
        counts = np.asarray(self.num_kv_pairs).reshape(-1)
        return int(counts[example] if counts.size > 1 else counts[0])

    @property
    def vocab(self) -> int:
        """One more than the largest token: a token no input equals."""
        return int(self.inputs.max()) + 1


def batch_need(examples: int, length: int) -> float:
    """The bytes ``pram zoology`` needs for a batch of ``examples`` sequences of ``length``
    tokens: its two arrays as read and checked, and the run of one example (its triples,
    padded to 3 * 2^L tokens, at most 3 * the next power of two of ``length``)."""
    arrays = 2 * guard.array_bytes(examples, length) * guard.LOAD_FACTOR
    padded = 1 << max(0, length - 1).bit_length()
    return arrays + guard.need_of("mqar", Options(n=3 * padded))


def refuse_oversized_batch(path: str, max_memory: int | None) -> None:
    """Refuse, before the batch is read, one whose arrays and runs would not fit the ceiling,
    naming the largest batch that fits (the same examples, shorter sequences). The shapes come
    from the file's headers (nothing is decompressed); a file that declares none is left to
    :func:`load_batch`, which refuses it in its own words."""
    declared = {a.name: a for a in guard.declared_arrays(path)}
    inputs = declared.get("inputs")
    if inputs is None or len(inputs.shape) != 2:
        guard.refuse_declared(path, "batch file", max_memory)
        return
    examples, length = inputs.shape
    need = batch_need(examples, length)
    limit = guard.ceiling(max_memory)
    if need <= limit:
        guard.refuse_declared(path, "batch file", max_memory)
        return
    fits = guard.largest(lambda k: batch_need(examples, k) <= limit, length)
    guard.refuse_bytes(
        f"batch file {path!r} ('inputs' of {examples:,} examples of {length:,} tokens)", need,
        max_memory,
        f"the largest batch of {examples:,} examples that fits has sequences of {fits:,} "
        f"tokens, so give sequences of {fits} tokens or fewer, or fewer examples" if fits > 1
        else None,
    )


def load_batch(path: str) -> Batch:
    """Read and validate a batch file, refusing anything malformed in one line."""
    raw = read_archive(path, ("inputs", "labels", "num_kv_pairs"), WHAT, "batch file")
    inputs = _grid(raw["inputs"], "inputs", path)
    labels = _grid(raw["labels"], "labels", path)
    return _validate(inputs, labels, raw["num_kv_pairs"], path)


def _grid(data: Any, name: str, path: str) -> np.ndarray[Any, np.dtype[np.int64]]:
    label = f"{name!r} in {path!r}"
    shape = np.shape(data)
    if len(shape) != 2:
        raise InputError(
            f"{label} must be of shape [examples, length] (got shape {shape}); "
            "save one sequence per row"
        )
    array = words(data, label, ndim=2)
    if array.size == 0:
        raise InputError(f"{label} must hold at least one token (got shape {shape}); give examples")
    return array


def _validate(
    inputs: np.ndarray[Any, np.dtype[np.int64]],
    labels: np.ndarray[Any, np.dtype[np.int64]],
    pairs: np.ndarray[Any, Any],
    path: str,
) -> Batch:
    examples, length = inputs.shape
    if labels.shape != inputs.shape:
        raise InputError(
            f"'labels' in {path!r} has shape {labels.shape} but 'inputs' has {inputs.shape}; "
            "give one label per input position"
        )
    if pairs.dtype.kind not in "iu" or pairs.ndim > 1 or pairs.size not in (1, examples):
        raise InputError(
            f"'num_kv_pairs' in {path!r} must be one integer or one per example (got dtype "
            f"{pairs.dtype}, shape {pairs.shape})"
        )
    # compared as Python integers: an unsigned 2^64 - 1 is that, never -1 once cast
    counts = [int(v) for v in pairs.reshape(-1).tolist()]
    for e, count in enumerate(counts):
        if not 1 <= count <= length // 2:
            raise InputError(
                f"num_kv_pairs = {count} does not fit sequences of length {length} "
                f"(example {e if len(counts) > 1 else 0}); it must be from 1 to {length // 2}"
            )
    per_example = np.broadcast_to(np.asarray(counts, dtype=np.int64), (examples,)).copy()
    negative = np.argwhere(inputs < 0)
    if negative.size:
        e, t = (int(v) for v in negative[0])
        raise InputError(
            f"inputs[{e}, {t}] = {int(inputs[e, t])} in {path!r} is negative; tokens must be "
            "non-negative integers"
        )
    too_big = np.argwhere(inputs >= (1 << MAX_D) - 1)
    if too_big.size:
        e, t = (int(v) for v in too_big[0])
        raise InputError(
            f"inputs[{e}, {t}] = {int(inputs[e, t])} in {path!r} is too large; tokens must be "
            f"below 2^{MAX_D} - 1 so that they and one never-matching token fit d = {MAX_D} bits, "
            "so renumber the vocabulary from 0"
        )
    labelled = labels != IGNORE
    in_context = labelled & (np.arange(length)[None, :] < 2 * per_example[:, None])
    if in_context.any():
        e, t = (int(v) for v in np.argwhere(in_context)[0])
        raise InputError(
            f"labels[{e}, {t}] = {int(labels[e, t])} in {path!r} lies in the key-value section "
            f"(the first {2 * int(per_example[e])} positions); only query positions may be "
            f"labelled, others must be {IGNORE}"
        )
    strange = labelled & (labels < 0)
    if strange.any():
        e, t = (int(v) for v in np.argwhere(strange)[0])
        raise InputError(
            f"labels[{e}, {t}] = {int(labels[e, t])} in {path!r} is neither a value token nor "
            f"{IGNORE} (not a query); fix the labels"
        )
    if not labelled.any():
        raise InputError(
            f"'labels' in {path!r} hold no query (every entry is {IGNORE}); nothing to score"
        )
    return Batch(inputs, labels, per_example, path)


def score(
    batch: Batch, *, progress: Callable[[int, int, str], None] | None = None
) -> dict[str, Any]:
    """Solve every example with Algorithm 11 under EREW and score it against the labels."""
    never = batch.vocab
    d = bits_needed(never)
    examples, length = batch.inputs.shape
    labeled = correct = violations = work = time = padded = 0
    mismatches: list[dict[str, int]] = []
    for e in range(examples):
        if progress is not None:
            progress(e, examples, f"example {e + 1} of {examples}")
        triples = to_triples(batch.inputs[e], batch.labels[e], batch.pairs(e), never)
        m = Machine("erew")
        result = mqar.recall(m, triples.tokens)
        got = triples.answers_at_positions(result.answers)
        labeled += len(triples.expected)
        correct += int((got == triples.expected).sum())
        for r in np.flatnonzero(got != triples.expected)[: SHOWN - len(mismatches)]:
            mismatches.append({
                "example": e,
                "position": int(triples.positions[r]),
                "label": int(triples.expected[r]),
                "answer": int(got[r]),
            })
        violations += len(m.violations)
        work += m.cost.work
        time = max(time, m.cost.time)
        padded += int(result.padded)
    if progress is not None:
        progress(examples, examples, "done")
    pairs = sorted({batch.pairs(e) for e in range(examples)})
    notes = [
        "each example runs as its key-value pairs (one triple each) followed by one triple per "
        "labelled position; query-region tokens never act as keys",
        f"the triples use tokens 0 to {never} ({never} never matches), so d = {d} bits; "
        "word keys",
    ]
    if padded:
        notes.append(
            f"{padded} of {examples} examples padded to 3 * 2^L tokens with never-matching "
            "triples"
        )
    return {
        "examples": examples,
        "labeled": labeled,
        "correct": correct,
        "accuracy": correct / labeled,
        "violations": violations,
        "file": batch.file,
        "length": length,
        "num_kv_pairs": pairs[0] if len(pairs) == 1 else pairs,
        "model": "erew",
        "time": time,
        "work": work,
        "notes": notes,
        "mismatches": mismatches,
    }
