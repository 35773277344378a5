"""Published numbers of sorting networks and prefix circuits, reproduced by measurement.

Every number in the tables below is copied from its source, cited beside it; nothing here
computes it. What each is compared with is measured while the network runs: the machine's
ledger (two steps, one processor, per comparator level: ``time = 2 levels``, ``work = 2
comparators`` with word keys) or the circuit the recorder makes of a run
(:mod:`pram.circuits.circuit`: its gates and its longest path), so a network that lost or
gained a comparator, or a level, fails here.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from pram import Machine
from pram.algorithms import comparator_networks, networks, prefix_circuits
from pram.circuits.circuit import Circuit
from pram.circuits.io import evaluate
from pram.reports.circuit_build import build, setup
from pram.reports.cli import main

# ---- the published numbers ---------------------------------------------------------------------

#: Comparators of Batcher's merge exchange (Knuth's Algorithm 5.2.2M) for n = 1..16: Knuth,
#: The Art of Computer Programming vol. 3, 2nd ed. (1998), section 5.3.4, the table comparing
#: Batcher's networks with the best known (also in R. Zeno, "A reference of the best-known
#: sorting networks for up to 16 inputs", 2002, row "Batcher's").
KNUTH_MERGE_EXCHANGE = (0, 1, 3, 5, 9, 12, 16, 19, 26, 31, 37, 41, 48, 53, 59, 63)
#: Passes of Algorithm M (each one parallel level of disjoint comparators) for n = 1..16:
#: (1/2) t (t + 1) with t = ceil(lg n), Knuth 5.2.2 (the analysis of Algorithm M) and 5.3.4
#: (Batcher's delay), written out.
KNUTH_MERGE_EXCHANGE_PASSES = (0, 1, 3, 3, 6, 6, 6, 6, 10, 10, 10, 10, 10, 10, 10, 10)

#: The smallest known size of a sorting network on n = 1..16 inputs: Knuth 5.3.4 (the table
#: of the best known networks), optimal for n <= 8 (Knuth), 9 and 10 (Codish, Cruz-Filipe,
#: Frank and Schneider-Kamp, ICTAI 2014), 11 and 12 (Harder, 2020).
BEST_SIZE = (0, 1, 3, 5, 9, 12, 16, 19, 25, 29, 35, 39, 45, 51, 56, 60)
#: The depth of the networks of those sizes: B. Dobbelaere, "Smallest and fastest sorting
#: networks for a given number of inputs" (the networks of the smallest size listed there),
#: the same row as Zeno's (2002) "Delay".
BEST_DEPTH = (0, 1, 3, 3, 5, 5, 6, 6, 7, 8, 8, 9, 10, 10, 10, 10)

#: Batcher (1968) for n = 2^k, k = 1..4: bitonic sort n k (k + 1) / 4 comparators, odd-even
#: merge sort (k^2 - k + 4) 2^(k-2) - 1, both k (k + 1) / 2 levels, written out.
BATCHER_POWERS = {
    2: {"bitonic": 1, "odd-even": 1, "levels": 1},
    4: {"bitonic": 6, "odd-even": 5, "levels": 3},
    8: {"bitonic": 24, "odd-even": 19, "levels": 6},
    16: {"bitonic": 80, "odd-even": 63, "levels": 10},
}


def prefix_published(network: str, n: int) -> tuple[int, int]:
    """The published size and depth of the prefix circuit ``network`` on ``n = 2^k`` inputs.

    Sklansky (IRE Trans. Electronic Computers EC-9, 1960): (n/2) log2 n gates, depth log2 n.
    Kogge and Stone (IEEE Trans. Computers C-22, 1973): n log2 n - n + 1 gates, depth log2 n.
    Brent and Kung (IEEE Trans. Computers C-31, 1982): 2n - 2 - log2 n gates, depth
    2 log2 n - 2 for n >= 4 (its one gate for n = 2). Adder texts (e.g. Harris, "A taxonomy
    of parallel prefix networks", 2003) count Brent-Kung as 2 log2 n - 1 levels because their
    prefix also takes the carry in, one input more than the n here.
    """
    k = n.bit_length() - 1
    if network == "sklansky":
        return n // 2 * k, k
    if network == "kogge-stone":
        return n * k - n + 1, k
    return 2 * n - 2 - k, max(1, 2 * k - 2)


# ---- measuring -----------------------------------------------------------------------------------


def circuit(algorithm: str, n: int, network: str) -> Circuit:
    """The recorded circuit, after the build's checks (oblivious, evaluator = machine)."""
    built = build(setup(algorithm, n, None, None, network))
    assert built.ok and built.circuit is not None, built.as_dict()
    return built.circuit


def zero_one(n: int) -> Any:
    """Every input of n zeros and ones, one per row (row x holds the bits of x)."""
    rows = np.arange(1 << n, dtype=np.int64)[:, None]
    return (rows >> np.arange(n, dtype=np.int64)) & 1


def sorted_on_the_machine(network: str, inputs: Any) -> tuple[Machine, Any]:
    """Run ``network`` on every row of ``inputs`` at once, on an EREW machine of one instance
    per row (word keys); return the machine and the rows it left."""
    m = Machine("erew", batch=len(inputs))
    a = m.array("keys", values=inputs)
    m.run(networks.run_levels(m, a, comparator_networks.levels(network, inputs.shape[1])))
    return m, a.to_numpy()


# ---- Batcher's merge exchange: Knuth's table --------------------------------------------------


@pytest.mark.parametrize("n", range(1, 17))
def test_merge_exchange_has_knuths_comparators_and_passes(n: int) -> None:
    """The machine runs Algorithm M in Knuth's number of passes with Knuth's comparators, the
    recorded circuit has as many, and it sorts every input of 0s and 1s (so every input)."""
    m = Machine("erew")
    a = m.array("keys", values=np.arange(n, dtype=np.int64)[::-1].copy())
    m.run(networks.sort(m, a, "merge-exchange"))
    assert a.to_numpy().tolist() == list(range(n))
    assert m.cost.work == 2 * KNUTH_MERGE_EXCHANGE[n - 1]
    assert m.cost.time == 2 * KNUTH_MERGE_EXCHANGE_PASSES[n - 1]
    assert m.violations == []
    c = circuit("sort", n, "merge-exchange")
    assert c.size == c.by_kind.get("comparator", 0) == KNUTH_MERGE_EXCHANGE[n - 1]
    # the longest chain is at most the passes, and equal for n a power of two (n = 5, 9, 10:
    # a wire idle in an early pass shortens it, 5, 8 and 9)
    assert c.depth <= KNUTH_MERGE_EXCHANGE_PASSES[n - 1]
    if n & (n - 1) == 0:
        assert c.depth == KNUTH_MERGE_EXCHANGE_PASSES[n - 1]
    machine, out = sorted_on_the_machine("merge-exchange", zero_one(n))
    assert (np.diff(out, axis=1) >= 0).all() and machine.violations == []


@pytest.mark.parametrize("n", [8, 16])
def test_odd_even_merge_sort_is_merge_exchange_at_powers_of_two(n: int) -> None:
    """At n = 2^k Batcher's odd-even merge sort has merge exchange's counts (Knuth's table's
    19 and 63), measured on two circuits."""
    assert circuit("sort", n, "odd-even").size == circuit("sort", n, "merge-exchange").size


# ---- the best known networks ---------------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 17))
def test_the_best_known_networks_sort_every_zero_one_input_on_erew(n: int) -> None:
    """Each stored network, run on an EREW machine for all 2^n inputs of 0s and 1s at once,
    sorts every one with no violation (the zero-one principle: so it sorts every input); its
    size and depth, measured by the machine and by the recorder, are the published ones."""
    inputs = zero_one(n)
    m, out = sorted_on_the_machine("best-known", inputs)
    assert (np.diff(out, axis=1) >= 0).all()
    assert (out.sum(axis=1) == inputs.sum(axis=1)).all()  # the same keys, in order
    assert m.violations == []
    assert {c.work for c in m.costs} == {2 * BEST_SIZE[n - 1]}
    assert {c.time for c in m.costs} == {2 * BEST_DEPTH[n - 1]}
    c = circuit("sort", n, "best-known")
    assert (c.size, c.depth) == (BEST_SIZE[n - 1], BEST_DEPTH[n - 1])


# ---- bitonic and odd-even for every n ---------------------------------------------------------


@pytest.mark.parametrize("network", ["bitonic", "odd-even"])
@pytest.mark.parametrize("n", [3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15])
def test_batchers_networks_sort_every_input_when_n_is_not_a_power_of_two(
    network: str, n: int
) -> None:
    """Every input of 0s and 1s is sorted on EREW (hence every input), and so are random
    integers with repeats, against numpy's sort."""
    m, out = sorted_on_the_machine(network, zero_one(n))
    assert (np.diff(out, axis=1) >= 0).all() and m.violations == []
    values = np.random.default_rng(n).integers(0, 5, (50, n))
    m, out = sorted_on_the_machine(network, values)
    assert out.tolist() == np.sort(values, axis=1).tolist()


@pytest.mark.parametrize("network", comparator_networks.SORTERS[:3])
@pytest.mark.parametrize("n", [17, 31, 100])
def test_the_networks_for_any_n_sort_larger_inputs(network: str, n: int) -> None:
    """Beyond the tables: random inputs of 17, 31 and 100 keys come out as numpy sorts them."""
    values = np.random.default_rng(n).integers(0, 1000, (20, n))
    m, out = sorted_on_the_machine(network, values)
    assert out.tolist() == np.sort(values, axis=1).tolist() and m.violations == []


@pytest.mark.parametrize("n", sorted(BATCHER_POWERS))
@pytest.mark.parametrize("network", ["bitonic", "odd-even"])
def test_batchers_counts_at_powers_of_two(network: str, n: int) -> None:
    """At n = 2^k both networks keep Batcher's published counts (the recorder's comparators
    and depth)."""
    c = circuit("sort", n, network)
    assert (c.size, c.depth) == (BATCHER_POWERS[n][network], BATCHER_POWERS[n]["levels"])


# ---- prefix circuits -----------------------------------------------------------------------------


@pytest.mark.parametrize("network", prefix_circuits.PREFIX_NETWORKS)
@pytest.mark.parametrize("k", range(1, 11))
def test_prefix_circuits_have_their_published_size_and_depth(network: str, k: int) -> None:
    """For n = 2^1 .. 2^10 the recorded circuit has the published size and depth, and
    evaluated (by the independent evaluator, not the machine) on random inputs it gives
    numpy's cumulative sums."""
    n = 1 << k
    c = circuit("prefix-sums", n, network)
    assert (c.size, c.depth) == prefix_published(network, n)
    assert set(c.by_kind) == {"add"}
    values = np.random.default_rng(k).integers(0, 1 << 20, (8, n))
    assert evaluate(c, values).tolist() == np.cumsum(values, axis=1).tolist()


@pytest.mark.parametrize("network", prefix_circuits.PREFIX_NETWORKS)
@pytest.mark.parametrize("n", [1, 2, 3, 7, 64, 100])
def test_prefix_programs_give_cumsum_on_their_model(network: str, n: int) -> None:
    """As PRAM programs, on the model each is written for (EREW, CREW for Sklansky), every
    prefix is numpy's, with no violation."""
    values = np.random.default_rng(n).integers(-50, 50, n)
    m = Machine(prefix_circuits.MODELS[network])
    a = m.array("a", values=values)
    m.run(prefix_circuits.prefix_sums(m, a, network))
    assert a.to_numpy().tolist() == np.cumsum(values).tolist()
    assert m.violations == []


def test_sklanskys_fan_out_is_a_concurrent_read() -> None:
    """On EREW Sklansky's circuit is refused where a block's last sum feeds two or more
    positions at once (its fan-out); Kogge-Stone reads each cell once per round."""
    for network, clean in (("sklansky", False), ("kogge-stone", True)):
        m = Machine("erew")
        a = m.array("a", values=np.arange(8))
        m.run(prefix_circuits.prefix_sums(m, a, network))
        assert (m.violations == []) is clean, network


def test_kogge_stone_and_sklansky_take_one_read_and_two_steps_per_round() -> None:
    """Machine time 1 + 2 log2 n, the count their docstrings give, at n = 16."""
    for network in ("kogge-stone", "sklansky"):
        m = Machine(prefix_circuits.MODELS[network])
        a = m.array("a", values=np.ones(16, dtype=np.int64))
        m.run(prefix_circuits.prefix_sums(m, a, network))
        assert m.cost.time == 1 + 2 * 4


# ---- the command line ---------------------------------------------------------------------------


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_pram_circuit_sort_takes_the_networks_for_any_n(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``pram circuit sort --network ... --n 13 --json``: the gates and depth of Knuth's and
    the published tables."""
    out = _json(capsys, "circuit", "sort", "--network", "merge-exchange", "--n", "13", "--json")
    assert (out["network"], out["gates"], out["depth"]) == (
        "merge-exchange", {"comparator": KNUTH_MERGE_EXCHANGE[12]}, 10)
    out = _json(capsys, "circuit", "sort", "--network", "best-known", "--n", "13", "--json")
    assert (out["gates"], out["depth"]) == ({"comparator": BEST_SIZE[12]}, BEST_DEPTH[12])


def test_pram_circuit_prefix_sums_takes_the_networks(capsys: pytest.CaptureFixture[str]) -> None:
    """``pram circuit prefix-sums --network ... --n 64 --json``: gates and depth as published;
    without --network, Brent-Kung's (the project's, as before)."""
    for network in prefix_circuits.PREFIX_NETWORKS:
        out = _json(capsys, "circuit", "prefix-sums", "--network", network, "--n", "64",
                    "--json")
        assert (out["gates"]["add"], out["depth"]) == prefix_published(network, 64)
        assert out["scan"]["every_operator"] is True
    out = _json(capsys, "circuit", "prefix-sums", "--n", "64", "--json")
    assert (out["network"], out["size"]) == ("brent-kung", prefix_published("brent-kung", 64)[0])


@pytest.mark.parametrize("network", comparator_networks.SORTERS)
def test_pram_run_sort_runs_the_same_networks(
    capsys: pytest.CaptureFixture[str], network: str
) -> None:
    """``pram run sort --network ... --n 12 --json`` sorts on EREW with no violation; merge
    exchange and the best known network sort the 12 records as they are (work 2 per
    comparator of the tables), Batcher's two pad to 16 as before."""
    out = _json(capsys, "run", "sort", "--network", network, "--n", "12", "--json")
    assert out["network"] == network and out["violations"] == 0 and out["correct"] is True
    comparators = {"merge-exchange": KNUTH_MERGE_EXCHANGE[11], "best-known": BEST_SIZE[11],
                   "bitonic": BATCHER_POWERS[16]["bitonic"],
                   "odd-even": BATCHER_POWERS[16]["odd-even"]}[network]
    assert out["work"] == 2 * comparators


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["circuit", "sort", "--network", "best-known", "--n", "17"],
         "pram circuit: error: --n 17: the best known networks are stored for n = 1..16; "
         "give --n 16 or less, or --network merge-exchange"),
        (["circuit", "merge", "--network", "merge-exchange", "--n", "8"],
         "pram circuit: error: --network merge-exchange is not a network of circuit merge; "
         "choose one of bitonic, odd-even"),
        (["circuit", "prefix-sums", "--network", "bitonic"],
         "pram circuit: error: --network bitonic is not a network of circuit prefix-sums; "
         "choose one of brent-kung, kogge-stone, sklansky"),
        (["circuit", "compare", "--network", "sklansky"],
         "pram circuit: error: --network sklansky does not apply to circuit compare: only "
         "sort, merge and prefix-sums have a choice of network; leave it out"),
        (["run", "mqar", "--network", "best-known", "--n", "12"],
         "pram run: error: --network best-known applies to sort only: Algorithm 11 sorts and "
         "merges with Batcher's networks; give --network bitonic or odd-even"),
    ],
)
def test_a_bad_network_or_n_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """Each refusal names the value and the fix, in one line, with exit status 2."""
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == message
