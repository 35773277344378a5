"""Zoology's MQAR layout: the generator, the map onto triples, and ``pram zoology``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import InputError, Machine
from pram.algorithms.mqar import recall
from pram.algorithms.zoology import IGNORE, batch, to_triples
from pram.reports.cli import main
from pram.reports.zoology import Batch, load_batch, score
from tests.commands import assert_refusal_output


def save(path: Path, inputs: Any, labels: Any, pairs: Any) -> str:
    np.savez(path, inputs=inputs, labels=labels, num_kv_pairs=pairs)
    return str(path)


def test_generator_follows_zoologys_layout() -> None:
    """Key-value section of distinct keys, each key queried once at an even offset after it."""
    inputs, labels = batch(3, 64, 8, 256, seed=5)
    assert inputs.shape == labels.shape == (3, 64)
    for x, y in zip(inputs, labels, strict=True):
        keys, values = x[0:16:2], x[1:16:2]
        assert len(set(keys.tolist())) == 8
        assert ((keys >= 1) & (keys < 128)).all() and ((values >= 128) & (values < 256)).all()
        where = np.flatnonzero(y != IGNORE)
        assert len(where) == 8 and (where >= 16).all() and ((where - 16) % 2 == 0).all()
        answer = dict(zip(keys.tolist(), values.tolist(), strict=True))
        assert [answer[k] for k in x[where].tolist()] == y[where].tolist()


def test_generator_puts_keys_among_the_fillers() -> None:
    """Unlabelled query-region positions include copies of keys (they are not keys)."""
    inputs, labels = batch(4, 128, 8, 512, seed=2)
    for x, y in zip(inputs, labels, strict=True):
        fillers = x[16:][y[16:] == IGNORE]
        assert np.isin(fillers, x[0:16:2]).sum() >= 4


@st.composite
def examples(draw: st.DrawFn) -> tuple[list[int], int]:
    """A Zoology-layout example over a tiny vocabulary: repeated keys, fillers equal to keys."""
    pairs = draw(st.integers(min_value=1, max_value=6))
    region = draw(st.integers(min_value=1, max_value=12))
    tokens = draw(st.lists(st.integers(min_value=0, max_value=5), min_size=2 * pairs + region,
                           max_size=2 * pairs + region))
    return tokens, pairs


@settings(max_examples=60, deadline=None)
@given(examples())
def test_every_query_position_gets_the_latest_pair_of_the_key_value_section(
    example: tuple[list[int], int],
) -> None:
    """Differential: each query-region position answers like a dict of the key-value section
    filled in order (latest pair wins, query-region tokens never become keys); EREW clean."""
    tokens, pairs = example
    table: dict[int, int] = {}
    for j in range(pairs):
        table[tokens[2 * j]] = tokens[2 * j + 1]
    labels = np.full(len(tokens), IGNORE)
    labels[2 * pairs :] = 0  # ask every query-region position
    triples = to_triples(np.array(tokens), labels, pairs, never=6)
    m = Machine("erew")
    answers = triples.answers_at_positions(recall(m, triples.tokens).answers)
    expected = [table.get(t, -1) for t in tokens[2 * pairs :]]
    assert answers.tolist() == expected
    assert m.violations == []


def test_to_triples_maps_pairs_then_queries() -> None:
    """(k, v, never) per pair, then (never, 0, x_t) per labelled position, in order."""
    x = np.array([3, 30, 4, 40, 4, 9, 3, 3])
    y = np.array([IGNORE, IGNORE, IGNORE, IGNORE, 40, IGNORE, 30, IGNORE])
    t = to_triples(x, y, 2, 99)
    assert t.tokens.tolist() == [3, 30, 99, 4, 40, 99, 99, 0, 4, 99, 0, 3]
    assert t.positions.tolist() == [4, 6] and t.expected.tolist() == [40, 30]


def test_filler_equal_to_a_key_is_not_a_key() -> None:
    """A query-region token equal to key 3, followed by a value-like token, changes nothing."""
    x = np.array([3, 30, 5, 50, 3, 77, 5, 3, 3, 0])
    y = np.array([IGNORE] * 6 + [50, IGNORE, 30, IGNORE])
    result = score(Batch(x[None, :], y[None, :], np.array([2])))
    assert (result["accuracy"], result["violations"]) == (1.0, 0)


def test_repeated_keys_resolve_to_the_latest_pair() -> None:
    """With a key repeated in the key-value section, the latest pair's value is the answer."""
    x = np.array([7, 70, 7, 71, 0, 0, 7, 0])
    y = np.array([IGNORE] * 6 + [71, IGNORE])
    result = score(Batch(x[None, :], y[None, :], np.array([2])))
    assert result["correct"] == 1


@pytest.mark.parametrize(
    ("length", "pairs"),
    [(64, 4), (64, 16), (128, 8), (256, 32), (512, 64), (1024, 128), (2048, 4), (2048, 256)],
)
def test_algorithm_11_answers_every_label_under_erew(length: int, pairs: int) -> None:
    """Accuracy 1.0 and zero EREW violations from length 64 to 2048, 4 to 256 pairs."""
    inputs, labels = batch(2, length, pairs, 4 * length, seed=length + pairs)
    result = score(Batch(inputs, labels, np.array([pairs])))
    assert result["labeled"] == 2 * pairs
    assert (result["accuracy"], result["violations"]) == (1.0, 0)


def test_pram_zoology_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``pram zoology FILE --json`` prints the contract's object; exit 0 at accuracy 1.0."""
    inputs, labels = batch(3, 128, 16, 512, seed=9)
    path = save(tmp_path / "b.npz", inputs, labels, 16)
    assert main(["zoology", path, "--json"]) == 0
    out, _ = capsys.readouterr()
    obj = json.loads(out)
    for key, kind in (("examples", int), ("labeled", int), ("correct", int),
                      ("accuracy", float), ("violations", int)):
        assert isinstance(obj[key], kind)
    assert (obj["examples"], obj["labeled"], obj["correct"], obj["accuracy"],
            obj["violations"]) == (3, 48, 48, 1.0, 0)


def test_pram_zoology_exits_1_when_a_label_cannot_be_reached(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A label whose query matches no key is scored wrong, and the command exits 1."""
    x = np.array([[3, 30, 5, 50, 8, 0, 3, 0]])
    y = np.array([[IGNORE] * 4 + [80, IGNORE, 30, IGNORE]])
    assert main(["zoology", save(tmp_path / "b.npz", x, y, 2), "--json"]) == 1
    obj = json.loads(capsys.readouterr().out)
    assert (obj["labeled"], obj["correct"], obj["accuracy"]) == (2, 1, 0.5)


def test_pram_zoology_renders_a_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    inputs, labels = batch(2, 64, 4, 256, seed=1)
    assert main(["zoology", save(tmp_path / "b.npz", inputs, labels, 4)]) == 0
    out = capsys.readouterr().out
    assert "Algorithm 11 under EREW: every labelled position answered correctly" in out


def refused(path: str) -> str:
    with pytest.raises(InputError) as error:
        load_batch(path)
    return str(error.value)


def test_invalid_batches_are_refused_with_one_sentence(tmp_path: Path) -> None:
    """Missing arrays, wrong shapes, labels that do not fit, non-npz files, bad pair counts."""
    x = np.zeros((2, 16), dtype=np.int64)
    y = np.full((2, 16), IGNORE)
    y[:, 10] = 1
    missing = str(tmp_path / "none.npz")
    assert refused(missing) == (
        f"batch file {missing!r} does not exist; give the path of an .npz file holding "
        "'inputs' and 'labels' (integer arrays of shape [examples, length]) and 'num_kv_pairs'"
    )
    np.savez(tmp_path / "a.npz", inputs=x, labels=y)
    assert refused(str(tmp_path / "a.npz")).startswith(
        f"batch file {str(tmp_path / 'a.npz')!r} has no array 'num_kv_pairs' (it holds inputs, "
        "labels)"
    )
    path = save(tmp_path / "b.npz", x[0], y, 2)
    assert refused(path) == (
        f"'inputs' in {path!r} must be of shape [examples, length] (got shape (16,)); "
        "save one sequence per row"
    )
    path = save(tmp_path / "c.npz", x, y[:, :8], 2)
    assert refused(path) == (
        f"'labels' in {path!r} has shape (2, 8) but 'inputs' has (2, 16); give one label per "
        "input position"
    )
    path = save(tmp_path / "d.npz", x, y, -1)
    assert refused(path) == (
        "num_kv_pairs = -1 does not fit sequences of length 16 (example 0); it must be from 1 "
        "to 8"
    )
    path = save(tmp_path / "e.npz", x, y, 6)
    assert refused(path) == (
        f"labels[0, 10] = 1 in {path!r} lies in the key-value section (the first 12 "
        "positions); only query positions may be labelled, others must be -100"
    )
    path = save(tmp_path / "f.npz", x.astype(float), y, 2)
    assert refused(path) == (
        f"'inputs' in {path!r} must be integers (got dtype float64); make them integers "
        "explicitly, e.g. numpy.rint(x).astype(numpy.int64) for reals (a plain cast would "
        "truncate them)"
    )
    path = save(tmp_path / "g.npz", x, np.full((2, 16), IGNORE), 2)
    assert refused(path) == (
        f"'labels' in {path!r} hold no query (every entry is -100); nothing to score"
    )
    np.save(tmp_path / "h.npy", x)
    assert refused(str(tmp_path / "h.npy")).endswith("is a single .npy array; it must be an "
                                                      ".npz file holding 'inputs' and 'labels' "
                                                      "(integer arrays of shape [examples, "
                                                      "length]) and 'num_kv_pairs'")
    (tmp_path / "i.npz").write_text("not a zip")
    assert refused(str(tmp_path / "i.npz")).startswith(
        f"batch file {str(tmp_path / 'i.npz')!r} is not a readable .npz file ("
    )


def test_pram_zoology_refuses_a_bad_file_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The command prints the refusal on one line of stderr and exits 2 (with --json, one
    JSON object on stdout saying so)."""
    (tmp_path / "x.npz").write_text("text")
    argv = ["zoology", str(tmp_path / "x.npz"), "--json"]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1
    assert_refusal_output(argv, out, err)
    assert err.startswith("pram zoology: error: batch file ")


def test_generator_refuses_impossible_shapes() -> None:
    """Too many pairs for the length or the vocabulary are refused with the fix."""
    with pytest.raises(InputError, match="length must be at least 4 \\* num_kv_pairs = 64"):
        batch(1, 32, 16, 512)
    with pytest.raises(InputError, match="use vocab >= 34"):
        batch(1, 64, 16, 20)


def test_to_triples_refuses_float_tokens_and_unequal_labels() -> None:
    """Tokens that are not integers are refused, not truncated; labels must match the inputs."""
    with pytest.raises(InputError, match=re.escape(
        "inputs must be integers (got dtype float64); make them integers explicitly, e.g. "
        "numpy.rint(x).astype(numpy.int64) for reals (a plain cast would truncate them)"
    ) + "$"):
        to_triples(np.array([1.5, 2.0, 3.0, 4.0]), np.full(4, IGNORE), 1, 9)
    with pytest.raises(InputError, match=re.escape(
        "inputs and labels of one example must be of one length (got 4 inputs and 3 labels); "
        "give one label per input position"
    ) + "$"):
        to_triples(np.array([1, 2, 3, 4]), np.full(3, IGNORE), 1, 9)
