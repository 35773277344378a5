"""``pram circuit``: Knuth's counts, Lemma H.32's comparator, Bristol Fashion read by an outside
evaluator (bfcl), the check against the machine, --input/--output, and the refusal of pbs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import bfcl
import numpy as np
import pytest

from pram import Machine, Read, Step, Words
from pram.circuits.circuit import Recorder
from pram.reports import circuit as command
from pram.reports import circuit_build, circuit_report
from pram.reports.cli import main
from tests.commands import one_line_error


def call(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    """Run ``pram circuit argv --json`` in-process; return the status and the JSON object."""
    status = main(["circuit", *argv, "--json"])
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    obj = json.loads(out[0])
    assert isinstance(obj, dict)
    return status, obj


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
def test_bitonic_sort_has_knuths_comparators_and_depth(k: int) -> None:
    """Bitonic sort of 2^k keys: n k(k+1)/4 comparators, depth k(k+1)/2 (Knuth 5.3.4)."""
    built = command.build(command.setup("sort", 2**k, None, None, "bitonic"), checks=2)
    assert built.circuit is not None
    assert built.circuit.by_kind == {"comparator": 2**k * k * (k + 1) // 4}
    assert built.circuit.depth == k * (k + 1) // 2


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
def test_odd_even_sort_has_knuths_comparators_and_depth(k: int) -> None:
    """Odd-even merge sort of 2^k keys: (k^2 - k + 4) 2^(k-2) - 1 comparators, k(k+1)/2 deep."""
    built = command.build(command.setup("sort", 2**k, None, None, "odd-even"), checks=2)
    assert built.circuit is not None
    assert built.circuit.size == (k * k - k + 4) * 2**k // 4 - 1
    assert built.circuit.depth == k * (k + 1) // 2


@pytest.mark.parametrize("network", ["bitonic", "odd-even"])
@pytest.mark.parametrize("k", [1, 3, 5])
def test_merge_networks_have_batchers_counts(network: str, k: int) -> None:
    """Merging two runs of 2^(k-1): k 2^(k-1) (bitonic) or (k-1) 2^(k-1) + 1 comparators, k deep."""
    built = command.build(command.setup("merge", 2**k, None, None, network), checks=2)
    assert built.circuit is not None
    expected = k * 2 ** (k - 1) if network == "bitonic" else (k - 1) * 2 ** (k - 1) + 1
    assert (built.circuit.size, built.circuit.depth) == (expected, k)


@pytest.mark.parametrize("d", [1, 2, 3, 5, 8, 16, 33, 64])
def test_the_bit_comparator_has_size_9d_minus_log_and_log_depth(d: int) -> None:
    """Lemma H.32: size 9d - ceil(log2 d) - 4 (O(d)), depth 2 ceil(log2 d) + 4 (O(log d))."""
    built = command.build(command.setup("compare", None, d, None), checks=2)
    assert built.circuit is not None and built.circuit.boolean
    lg = math.ceil(math.log2(d))
    assert (built.circuit.size, built.circuit.depth) == (9 * d - lg - 4, 2 * lg + 4)


@pytest.mark.parametrize("d", [8, 16, 31, 64])
def test_bfcl_evaluates_the_bristol_comparator_to_min_then_max(d: int) -> None:
    """An outside Bristol Fashion evaluator (bfcl) computes min then max of two d-bit tokens."""
    built = command.build(command.setup("compare", None, d, None), checks=2)
    assert built.circuit is not None
    bristol = bfcl.circuit(command.to_bristol(built.circuit))
    assert (bristol.value_in_length, bristol.value_out_length) == ([d, d], [d, d])
    rng = np.random.default_rng(d)
    pairs = [(int(rng.integers(0, 2**62)) << 2 | int(rng.integers(0, 4)),) for _ in range(40)]
    tokens = [p[0] % 2**d for p in pairs]
    tokens += [2**d - 1, 0, 2**d - 1, 2**d - 1]
    for x, y in zip(tokens[::2], tokens[1::2], strict=True):
        bits = [[(x >> k) & 1 for k in range(d)], [(y >> k) & 1 for k in range(d)]]
        low, high = bristol.evaluate(bits)
        got = [sum(b << k for k, b in enumerate(value)) for value in (low, high)]
        assert got == [min(x, y), max(x, y)]


def test_circuit_json_follows_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    """`pram circuit sort --n 16 --json` is the contract's object, checked on 20 inputs."""
    status, obj = call(capsys, "sort", "--n", "16")
    assert status == 0
    assert obj == {
        "algorithm": "sort", "n": 16, "d": 1, "keys": "word", "oblivious": True,
        "network": "bitonic", "gates": {"comparator": 80}, "size": 80, "depth": 10,
        "inputs": 16, "outputs": 16, "checked": {"inputs": 20, "equal": True},
    }


def test_pbs_is_refused_with_a_witness(capsys: pytest.CaptureFixture[str]) -> None:
    """pbs's addresses depend on the data: exit 1, oblivious false, a witness."""
    status, obj = call(capsys, "pbs", "--n", "8")
    assert status == 1
    assert obj["oblivious"] is False
    witness = obj["witness"]
    assert isinstance(witness, dict)
    assert set(witness) == {"step", "phase", "processor", "inputs", "addresses"}
    assert witness["inputs"][0] == "random"
    first, second = witness["addresses"]
    assert first != second


def test_input_and_output_evaluate_the_circuit_on_user_tokens(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--input tokens through the bit-level sorting circuit come out sorted in --output."""
    tokens = np.array([9, 3, 14, 0, 7, 7, 1, 12])
    np.save(tmp_path / "u.npy", tokens)
    status, obj = call(
        capsys, "sort", "--keys", "bits", "--d", "4", "--input", str(tmp_path / "u.npy"),
        "--output", str(tmp_path / "a.npy"),
    )
    assert status == 0 and obj["n"] == 8
    assert np.load(tmp_path / "a.npy").tolist() == sorted(tokens.tolist())


def test_a_word_circuit_is_refused_in_bristol_fashion(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Bristol Fashion holds boolean circuits only: exit 2, one line naming the fix."""
    status = main(["circuit", "sort", "--n", "4", "--export", str(tmp_path / "c.txt"),
                   "--format", "bristol"])
    assert status == 2
    assert capsys.readouterr().err.strip() == (
        "pram circuit: error: Bristol Fashion holds boolean circuits (AND, XOR, INV on bits); "
        "this one has comparator: use --keys bits, or --format json"
    )


def test_an_n_that_is_not_a_power_of_two_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """merge needs 2^k tokens (two halves of 2^(k-1)): exit 2 and one line; sort takes any n
    (tests/test_published.py)."""
    assert main(["circuit", "merge", "--n", "12"]) == 2
    assert capsys.readouterr().err.strip() == (
        "pram circuit: error: --n 12 must be a power of two, at least 2 (e.g. 16)"
    )


def test_the_json_export_lists_every_gate(tmp_path: Path) -> None:
    """The JSON export of merge --n 4 holds its 4 comparators with two outputs each."""
    path = tmp_path / "c.json"
    assert main(["circuit", "merge", "--n", "4", "--export", str(path)]) == 0
    exported = json.loads(path.read_text())
    assert exported["format"] == "pram-circuit/1"
    assert [g["kind"] for g in exported["gates"]] == ["comparator"] * 4
    assert all(len(g["in"]) == 2 and len(g["out"]) == 2 for g in exported["gates"])
    assert (exported["size"], exported["depth"], len(exported["inputs"])) == (4, 2, 4)


def test_the_dot_export_draws_one_box_per_gate(tmp_path: Path) -> None:
    """The DOT export of compare --d 2 has a box per gate and an edge into each output."""
    path = tmp_path / "c.dot"
    assert main(["circuit", "compare", "--d", "2", "--export", str(path), "--format", "dot"]) == 0
    text = path.read_text()
    assert text.startswith('digraph "compare" {')
    assert text.count("shape=box") == 13
    assert text.count("-> out") == 4


def _chase(m: Machine, tokens: Words, s: command.Setup, recorder: Recorder | None) -> Words:
    """A program that reads the cell its first token names: not oblivious."""
    a = m.array("a", values=tokens % len(tokens))

    def program() -> object:
        pid = m.processors(1)
        (x,) = yield Step(pid, reads=[Read(a, 0)])
        yield Step(pid, reads=[Read(a, x)])

    m.run(program())  # type: ignore[arg-type]
    return a.to_numpy()


def test_a_program_whose_address_is_data_is_refused_with_its_witness() -> None:
    """The witness names step 2, its processor, the two inputs and the two addresses."""
    command.TARGETS["chase"] = command.Target(
        tokens=lambda s: s.n,
        draw=lambda rng, kind, s: circuit_build._draw(rng, kind, s.n, s.top),
        run=_chase,
    )
    try:
        built = command.build(command.Setup("chase", 4, 3, "bits", "bitonic"))
    finally:
        del command.TARGETS["chase"]
    assert built.circuit is None and built.witness is not None
    witness = built.as_dict()["witness"]
    assert (witness["step"], witness["phase"], witness["processor"]) == (2, "", 0)
    assert witness["inputs"][0] == "random" and witness["inputs"][1] in command.KINDS[1:]
    assert witness["addresses"] == [built.witness.first, built.witness.second]
    assert built.witness.first != built.witness.second
    assert built.witness.first.startswith("read a[")


def test_the_report_section_draws_the_network_and_tables_the_sweep(tmp_path: Path) -> None:
    """The report's section writes the Knuth drawing and the sweep plot, and tables every row."""
    text, files = circuit_report.circuit_section(tmp_path, quick=True)
    assert [f.name for f in files] == ["circuit_bitonic8.png", "circuit_sweep.png"]
    assert all(f.stat().st_size > 0 for f in files)
    assert "| sort bitonic, word | 8 | 1 | 24 | 6 |" in text
    assert "| compare (Lemma H.32) | 2 | 64 | 566 | 16 |" in text


def test_bfcl_evaluates_the_bristol_bit_sorting_network() -> None:
    """The boolean circuit of a bitonic sort of four 4-bit tokens, read by bfcl, sorts them."""
    built = command.build(command.setup("sort", 4, 4, "bits", "bitonic"), checks=2)
    assert built.circuit is not None
    bristol = bfcl.circuit(command.to_bristol(built.circuit))
    assert (bristol.value_in_length, bristol.value_out_length) == ([4] * 4, [4] * 4)
    rng = np.random.default_rng(4)
    for tokens in rng.integers(0, 16, (10, 4)).tolist():
        outputs = bristol.evaluate([[(t >> k) & 1 for k in range(4)] for t in tokens])
        assert [sum(b << k for k, b in enumerate(v)) for v in outputs] == sorted(tokens)


def test_a_circuit_that_disagrees_with_the_machine_fails_the_check(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check can fail: an evaluator off by one gives "equal": false and exit 1."""
    evaluate = circuit_build.evaluate
    monkeypatch.setitem(vars(circuit_build), "evaluate", lambda c, x: evaluate(c, x) + 1)
    status, obj = call(capsys, "sort", "--n", "4")
    assert (status, obj["checked"]) == (1, {"inputs": 20, "equal": False})


def test_an_export_name_that_does_not_fit_its_format_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A DOT export must end in .dot or .gv: exit 2 and one line naming the fix."""
    assert main(["circuit", "compare", "--export", str(tmp_path / "c.json"),
                 "--format", "dot"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"pram circuit: error: --export {str(tmp_path / 'c.json')!r} must end in .dot or .gv; "
        "rename it, e.g. 'c.dot'"
    )


# ---- edge cases found from the docs by testers who had not seen the code: each was a
# traceback or a wrong success, now one line and exit 2 (an InputError in Python) ----


def test_a_circuit_on_an_empty_input_is_refused(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    empty = tmp_path / "empty.npy"
    np.save(empty, np.zeros(0, np.int64))
    line = one_line_error(capsys, "circuit", "sort", "--input", str(empty))
    assert "holds no tokens" in line and "--n N" in line
