"""The oblivious MQAR: equal to Algorithm 9 on every input, EREW, a trace fixed by the sizes."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Machine
from pram.algorithms import mqar, mqar_oblivious
from pram.algorithms.bits import BitKeys
from pram.algorithms.keys import Keys
from pram.algorithms.mqar import Recall, random_tokens
from pram.algorithms.oracle import brute_force, brute_force_indices
from pram.algorithms.sequential import recall as sequential_recall
from pram.oblivious import Trace, difference
from pram.reports.circuit_mqar import bit_circuit
from pram.reports.circuit_report import mqar_rows
from pram.reports.cli import main
from tests.test_mqar import assert_brute_force_on_tiny_inputs, mqar_inputs, whole_triples


def run(tokens: Any, keys: Keys | None = None, network: str = "bitonic") -> Recall:
    """The oblivious MQAR on a fresh EREW machine; asserts the run is legal EREW."""
    m = Machine("erew")
    result = mqar_oblivious.recall(m, tokens, keys=keys, network=network)  # type: ignore[arg-type]
    assert m.violations == []
    assert m.undefined_reads == []
    return result


@pytest.mark.parametrize("network", mqar_oblivious.NETWORKS)
@settings(max_examples=40, deadline=None)
@given(tokens=mqar_inputs())
def test_equals_algorithm_9_on_random_inputs(network: str, tokens: np.ndarray) -> None:
    """Any length, repeated keys, unmatched queries: Algorithm 9's answers and the brute-force
    matched indices, on EREW with no violation."""
    result = run(tokens, network=network)
    assert result.answers.tolist() == sequential_recall(whole_triples(tokens)).answers.tolist()
    assert result.indices.tolist() == brute_force_indices(whole_triples(tokens)).tolist()


def test_equals_brute_force_on_all_tiny_inputs() -> None:
    """Every choice of keys and queries for N/3 <= 2 over 3 tokens and N/3 = 3, 4 over 2, with
    distinct values: the brute-force oracle's answers and indices."""
    assert_brute_force_on_tiny_inputs(run, [(1, 3), (2, 3), (3, 2), (4, 2)])


@pytest.mark.parametrize("comparator", ["serial", "tree"])
@settings(max_examples=25, deadline=None)
@given(
    tokens=st.lists(st.integers(min_value=0, max_value=7), min_size=3, max_size=40),
)
def test_bit_keys_equal_algorithm_9(comparator: str, tokens: list[int]) -> None:
    """3-bit tokens, one bit per cell, with either comparator: Algorithm 9's answers, EREW."""
    result = run(tokens, BitKeys(3, comparator))
    expected = sequential_recall(whole_triples(tokens)).answers
    assert result.answers.tolist() == expected.tolist()


def test_equals_algorithm_11_on_a_larger_input() -> None:
    """N/3 = 2^9 random triples: the answers and indices of Algorithm 11 with pbs."""
    u = random_tokens(1 << 9, np.random.default_rng(3))
    expected = mqar.recall(Machine("erew"), u)
    result = run(u)
    assert result.answers.tolist() == expected.answers.tolist()
    assert result.indices.tolist() == expected.indices.tolist()


def _inputs(triples: int) -> dict[str, np.ndarray]:
    """Inputs of one size that drive a data-dependent program down different paths."""
    rng = np.random.default_rng(11)
    n = 3 * triples
    return {
        "random": random_tokens(triples, rng),
        "all equal": np.full(n, 4, dtype=np.int64),
        "sorted": np.arange(n, dtype=np.int64),
        "reversed": np.arange(n, dtype=np.int64)[::-1].copy(),
        "no match": np.array([[2 * j, j, 2 * j + 1] for j in range(triples)]).reshape(-1),
    }


@pytest.mark.parametrize(
    ("triples", "keys"),
    [(16, None), (8, BitKeys(6, "serial")), (8, BitKeys(6, "tree"))],
    ids=["word", "bits-serial", "bits-tree"],
)
def test_trace_depends_on_the_sizes_only(triples: int, keys: Keys | None) -> None:
    """Random, all-equal, sorted, reversed and unmatched inputs of one size: the same steps,
    processors, addresses and masks, step for step (pram.oblivious finds no difference)."""
    traces = {}
    for name, tokens in _inputs(triples).items():
        trace = Trace()
        m = Machine("erew", observer=trace)
        mqar_oblivious.recall(m, tokens, keys=keys)
        assert m.violations == []
        traces[name] = trace
    first = traces.pop("random")
    for name, trace in traces.items():
        assert difference(first, trace) is None, name


def test_algorithm_10_is_not_oblivious_under_the_same_check() -> None:
    """The check can fail: Algorithm 11 with pbs leaves different traces on two inputs."""
    traces = []
    for tokens in list(_inputs(16).values())[:2]:
        trace = Trace()
        mqar.recall(Machine("erew", observer=trace), tokens)
        traces.append(trace)
    assert difference(traces[0], traces[1]) is not None


def test_work_and_time_per_log_squared_stay_bounded() -> None:
    """Word keys, N/3 = 2^4 .. 2^8: work / (N log2(N)^2) and time / log2(N)^2 stay within
    [1, 1.4] and [2, 2.4] (measured 1.25 .. 1.29 and 2.28 .. 2.14)."""
    rng = np.random.default_rng(0)
    for levels in range(4, 9):
        m = Machine("erew")
        mqar_oblivious.recall(m, random_tokens(1 << levels, rng))
        n = 3 << levels
        assert 1.0 < m.cost.work / (n * math.log2(n) ** 2) < 1.4
        assert 2.0 < m.cost.time / math.log2(n) ** 2 < 2.4


# ---- the command line ----------------------------------------------------------------------------


def test_run_with_oblivious_search_is_correct_and_erew(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``pram run mqar --search oblivious --input --output``: Algorithm 9's answers, exit 0."""
    tokens = np.random.default_rng(4).integers(0, 6, size=50)
    source, target = tmp_path / "u.npy", tmp_path / "a.npy"
    np.save(source, tokens)
    status = main(["run", "mqar", "--search", "oblivious", "--input", str(source),
                   "--output", str(target), "--json"])
    obj = json.loads(capsys.readouterr().out)
    assert status == 0
    assert (obj["search"], obj["correct"], obj["violations"]) == ("oblivious", True, 0)
    assert np.load(target).tolist() == sequential_recall(tokens[:48]).answers.tolist()


def test_oblivious_search_refuses_the_per_block_sort(capsys: pytest.CaptureFixture[str]) -> None:
    """The oblivious search runs on the merge-sort trees: --sort per-block is refused, exit 2."""
    status = main(["run", "mqar", "--search", "oblivious", "--sort", "per-block"])
    assert status == 2
    assert capsys.readouterr().err.strip() == (
        "pram run: error: --sort per-block does not apply to mqar: --search oblivious always "
        "sorts with the merge-sort trees; leave it out"
    )


# ---- the circuit --------------------------------------------------------------------------------


def test_circuit_input_output_gives_the_latest_match(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``pram circuit mqar --input u.npy --output a.npy`` on 20 tokens (N from the file, padded
    to 24): the brute-force answers, oblivious and checked against the machine."""
    tokens = np.random.default_rng(9).integers(0, 4, size=20)
    source, target = tmp_path / "u.npy", tmp_path / "a.npy"
    np.save(source, tokens)
    status = main(["circuit", "mqar", "--input", str(source), "--output", str(target),
                   "--json"])
    obj = json.loads(capsys.readouterr().out)
    assert status == 0 and obj["oblivious"] is True and obj["checked"]["equal"] is True
    assert (obj["inputs"], obj["outputs"]) == (20, 6)
    assert np.load(target).tolist() == brute_force(tokens[:18]).tolist()


def test_circuit_size_and_depth_per_log_squared_stay_bounded() -> None:
    """N/3 = 2^4 .. 2^6: size / (N log2(N)^2) within [2.5, 4.5] and depth / log2(N)^2 within
    [2.5, 3] (measured 2.72 .. 3.32 and 2.60 .. 2.69; 3.98 and 2.79 at N/3 = 2^10)."""
    for row in mqar_rows(range(4, 7), checks=1):
        assert 2.5 < row.size_ratio < 4.5
        assert 2.5 < row.depth_ratio < 3.0


def test_circuit_refuses_bit_keys(capsys: pytest.CaptureFixture[str]) -> None:
    """Values travel as words: ``--keys bits`` is refused with exit 2 and one line."""
    assert main(["circuit", "mqar", "--keys", "bits"]) == 2
    assert capsys.readouterr().err.strip() == (
        "pram circuit: error: pram circuit mqar takes word keys only (got --keys bits); "
        "leave --keys out"
    )


def test_bit_key_circuits_check_out_and_the_tree_is_shallower() -> None:
    """16-bit keys, N/3 = 4: both comparators' circuits agree with the machine, and Lemma
    H.32's tree makes the circuit shallower than the serial scan."""
    serial, tree = (bit_circuit(4, 16, c, checks=1) for c in ("serial", "tree"))
    assert serial.equal and tree.equal
    assert tree.depth < serial.depth
