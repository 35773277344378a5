"""``pram zoology``: read a batch in Zoology's MQAR layout, solve it with Algorithm 11, score it.

Every example is mapped onto the triple layout (:func:`algorithms.zoology.to_triples`); the
examples are grouped by the size of that layout and each group is solved on one batched EREW
machine, every example in lockstep with the others and with its own ledger (the one-by-one
path, each example on its own machine, is kept for the comparison: :func:`score` with
``grouped=False``). The answers at the labelled positions are compared with the labels.
The file is validated first, so a bad file gives one line naming what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from pram import InputError, Machine, Words, words
from pram.algorithms import mqar
from pram.algorithms.keys import WordKeys
from pram.algorithms.zoology import IGNORE, Triples, to_triples
from pram.reports import guard
from pram.reports.batched import stacked
from pram.reports.registry import MAX_D, Options, bits_needed, read_archive

#: How many disagreeing positions a score names (the first ones, in example order).
SHOWN = 5

#: The most examples one machine solves in lockstep (a larger group is split).
GROUP_LIMIT = 1024

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
    tokens: its two arrays as read and checked, and the run of its largest group, up to
    :data:`GROUP_LIMIT` examples in lockstep (each example's triples padded to 3 * 2^L
    tokens, at most 3 * the next power of two of ``length``): one run's need, and for each
    further example of the group that need without the fixed part of a run."""
    from pram.reports.algorithms import MQAR_FIXED_BYTES

    arrays = 2 * guard.array_bytes(examples, length) * guard.LOAD_FACTOR
    padded = 1 << max(0, length - 1).bit_length()
    one = guard.need_of("mqar", Options(n=3 * padded))
    together = min(examples, GROUP_LIMIT)
    return arrays + one + (together - 1) * max(0.0, one - MQAR_FIXED_BYTES)


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


@attrs.frozen
class Solved:
    """One example solved: its answers at the labelled positions and what its run cost."""

    answers: Words
    violations: int
    work: int
    time: int
    padded: bool


def solve_one_by_one(
    triples: Sequence[Triples], tick: Callable[[int], None] = lambda done: None
) -> list[Solved]:
    """Each example on its own EREW machine, one after the other (the reference the grouped
    path is compared with)."""
    out = []
    for e, example in enumerate(triples):
        tick(e)
        m = Machine("erew")
        result = mqar.recall(m, example.tokens)
        out.append(Solved(example.answers_at_positions(result.answers), len(m.violations),
                          m.cost.work, m.cost.time, bool(result.padded)))
    return out


def groups_of(triples: Sequence[Triples]) -> list[list[int]]:
    """The examples (their indices, in order) grouped by the length of their triple layout,
    hence by padded size, each group at most :data:`GROUP_LIMIT` examples: the examples of a
    group take the same steps with the same processors, so they run in lockstep."""
    by_length: dict[int, list[int]] = {}
    for e, example in enumerate(triples):
        by_length.setdefault(len(example.tokens), []).append(e)
    return [members[i : i + GROUP_LIMIT] for members in by_length.values()
            for i in range(0, len(members), GROUP_LIMIT)]


def solve_grouped(
    triples: Sequence[Triples], tick: Callable[[int], None] = lambda done: None
) -> list[Solved]:
    """The examples grouped by the length of their triple layout (:func:`groups_of`), each
    group on one batched EREW machine running Algorithm 11 once for all of its examples.

    Every example's answers, violations and counts equal those of its own machine
    (:func:`solve_one_by_one`): the batched machine keeps one ledger per instance.
    """
    out: dict[int, Solved] = {}
    done = 0
    for group in groups_of(triples):
        tick(done)
        layouts = [mqar.layout(triples[e].tokens) for e in group]
        first = layouts[0]
        m = Machine("erew", batch=len(group))
        answers, _ = m.run(mqar.program(m, WordKeys(), stacked(layouts)))
        rows = answers.to_numpy()
        flagged = [0] * len(group)
        for v in m.violations:
            flagged[int(v.instance or 0)] += 1  # a batched machine names every instance
        costs = m.costs  # one ledger per example (built on each access: take it once)
        for b, e in enumerate(group):
            real = rows[b][: first.answered]
            cost = costs[b]
            out[e] = Solved(triples[e].answers_at_positions(real), flagged[b], cost.work,
                            cost.time, first.padding > 0)
        done += len(group)
    return [out[e] for e in range(len(triples))]


def score(
    batch: Batch,
    *,
    grouped: bool = True,
    progress: Callable[[int, int, str], None] | None = None,
) -> dict[str, Any]:
    """Solve every example with Algorithm 11 under EREW and score it against the labels.

    By default the examples run grouped by padded size, each group batched on one
    machine in lockstep (:func:`solve_grouped`); ``grouped=False`` solves them one by one, each
    on its own machine (:func:`solve_one_by_one`). Accuracy, violations and counts are the same
    either way (tests/test_zoology_batch.py compares them).
    """
    never = batch.vocab
    d = bits_needed(never)
    examples, length = batch.inputs.shape
    triples = [to_triples(batch.inputs[e], batch.labels[e], batch.pairs(e), never)
               for e in range(examples)]

    def tick(done: int) -> None:
        if progress is not None:
            progress(done, examples, f"example {done + 1} of {examples}")

    solved = (solve_grouped if grouped else solve_one_by_one)(triples, tick)
    labeled = correct = violations = work = time = padded = 0
    mismatches: list[dict[str, int]] = []
    for e, (example, result) in enumerate(zip(triples, solved, strict=True)):
        got = result.answers
        labeled += len(example.expected)
        correct += int((got == example.expected).sum())
        for r in np.flatnonzero(got != example.expected)[: SHOWN - len(mismatches)]:
            mismatches.append({
                "example": e,
                "position": int(example.positions[r]),
                "label": int(example.expected[r]),
                "answer": int(got[r]),
            })
        violations += result.violations
        work += result.work
        time = max(time, result.time)
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
    if grouped:
        count = len(groups_of(triples))
        notes.append(
            f"the examples ran in {count} group{'s' if count != 1 else ''} of equal size, "
            "each on one machine in lockstep (one ledger per example)"
        )
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
