"""The paper's algorithms as entries: one each, with its instances, run, reference and bounds.

Three families of instances are shared: MQAR token sequences (``mqar``, ``mqar-sequential``,
``mqar-allpairs``), search problems (``pbs``, ``pbs-naive``) and sort inputs (``sort``). Each
entry below says how its algorithm runs on a machine and which bounds it is held to. Data only:
the one table of every entry is :mod:`pram.reports.entries`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from pram import Cost, InputError, Machine, Words
from pram.algorithms import (
    allpairs,
    bits,
    comparator_networks,
    mqar,
    mqar_oblivious,
    pbs,
    sequential,
    sorting,
)
from pram.algorithms.keys import Keys, WordKeys
from pram.reports.formulas import (
    COMBINE_TIME,
    COMBINE_WORK,
    MQAR_TIME,
    MQAR_TREE_TIME,
    MQAR_WORK,
    PHASE_TIME,
    PHASE_WORK,
    QUADRATIC,
    SEARCH_TIME,
    SEARCH_WORK,
    SEQUENTIAL,
    SORT_TIME,
    SORT_WORK,
    lg,
)
from pram.reports.registry import (
    Algorithm,
    Bound,
    Family,
    Instance,
    Options,
    Solution,
    bits_needed,
    file_width,
    load_array,
    load_arrays,
    refuse_unsorted,
    work_and_time,
)

# ---- tokens: word or bit keys -------------------------------------------------------------


def token_keys(options: Options, d: int) -> Keys:
    """The token representation ``options`` asks for, for ``d``-bit tokens."""
    if options.keys == "word":
        return WordKeys()
    return bits.bit_keys(d, comparator=options.comparator)


def bound_d(options: Options, d: int) -> int:
    """The d the bound formulas use: the token width for bit keys, 1 for word keys."""
    return d if options.keys == "bits" else 1


def _width(instance: Instance) -> int:
    """The token width of an instance: as given, or what its largest token needs."""
    if "d" in instance.sizes:
        return instance.sizes["d"]
    top = max(int(np.abs(a).max()) for a in instance.data.values() if len(a))
    return bits_needed(top)


def _refuse_wide(tokens: Words, d: int, what: str) -> None:
    """Refuse tokens that do not fit ``d`` bits (or are negative), naming the first."""
    if len(tokens) == 0:
        return
    bad = np.flatnonzero((tokens < 0) | (tokens >= (1 << d)))
    if bad.size:
        i = int(bad[0])
        raise InputError(
            f"{what}[{i}] = {int(tokens[i])} does not fit in d = {d} bits; raise --d to at least "
            f"{bits_needed(abs(int(tokens[i])))} or leave --d out"
        )


def _widths(sizes: dict[str, int], d: int, options: Options) -> dict[str, int]:
    """``sizes`` with the token width added when it matters (bit keys, or asked for)."""
    if options.keys == "bits" or options.d is not None:
        return {**sizes, "d": d}
    return sizes


# ---- family: MQAR token sequences -----------------------------------------------------------

MQAR_INPUT = "a .npy file holding the token sequence (non-negative integers, length N >= 3)"


def _mqar_build(options: Options, rng: np.random.Generator) -> Instance:
    """Random triples whose keys and queries share a small vocabulary, so queries often match."""
    n = options.n or 3072
    d = options.d or 16
    if n < 3:
        raise InputError(f"--n must be at least 3 for MQAR (one key, value, query; got {n})")
    triples = -(-n // 3)
    vocabulary = min(1 << d, max(2, triples // 2))
    symbols = rng.integers(0, 1 << d, size=vocabulary, dtype=np.int64)
    keys = symbols[rng.integers(0, vocabulary, size=triples)]
    queries = symbols[rng.integers(0, vocabulary, size=triples)]
    values = rng.integers(0, 1 << d, size=triples, dtype=np.int64)
    tokens = np.stack([keys, values, queries], axis=1).reshape(-1)[:n]
    return Instance({"tokens": tokens}, {"n": n, "d": d})


def _mqar_load(path: str, options: Options) -> Instance:
    tokens = load_array(path, MQAR_INPUT)
    if len(tokens) < 3:
        raise InputError(
            f"input file {path!r} holds {len(tokens)} tokens; MQAR needs at least one triple "
            "(key, value, query), so 3 or more"
        )
    negative = np.flatnonzero(tokens < 0)
    if negative.size:
        i = int(negative[0])
        raise InputError(
            f"input file {path!r} holds tokens[{i}] = {int(tokens[i])}; tokens must be "
            "non-negative integers, so renumber the vocabulary from 0"
        )
    widest = file_width(tokens, f"input file {path!r}")
    d = options.d or widest
    _refuse_wide(tokens, d, "tokens")
    top = int(tokens.max())
    notes = () if options.d else (f"d = {d}: the bits the largest token ({top}) needs",)
    return Instance({"tokens": tokens}, {"n": len(tokens), "d": d}, notes)


def _whole_triples(tokens: Words) -> Words:
    """The tokens of the whole triples: a trailing partial triple has no query to answer."""
    return tokens[: 3 * (len(tokens) // 3)]


def _dictionary(instance: Instance) -> Words:
    """The answers by a Python dict, latest insert winning: the oracle of Algorithm 9 itself."""
    tokens = _whole_triples(instance.data["tokens"]).tolist()
    table: dict[int, int] = {}
    out = []
    for i in range(0, len(tokens), 3):
        key, value, query = tokens[i : i + 3]
        out.append(table.get(query, sequential.NO_MATCH))
        table[key] = value
    return np.array(out, dtype=np.int64)


def _mqar_reference(instance: Instance) -> Words:
    """The latest earlier key equal to each query: Algorithm 9's answers."""
    return sequential.recall(_whole_triples(instance.data["tokens"])).answers


MQAR = Family(name="mqar", defaults={"n": 3072, "d": 16}, build=_mqar_build, load=_mqar_load,
              reference=_mqar_reference, reference_name="Algorithm 9",
              symbols={"n": "N", "d": "d"})


# ---- family: search problems ---------------------------------------------------------------

SEARCH_INPUT = "an .npz file holding sorted integer arrays 'queries' and 'keys'"


def _search_build(options: Options, rng: np.random.Generator) -> Instance:
    """Sorted random queries and keys with duplicates, drawn from one range."""
    n = options.n or 1024
    m = options.m or n
    d = options.d or 16
    top = min(2 * max(n, m), 1 << d)
    queries = np.sort(rng.integers(0, top, size=n, dtype=np.int64))
    keys = np.sort(rng.integers(0, top, size=m, dtype=np.int64))
    return Instance({"queries": queries, "keys": keys}, _widths({"n": n, "m": m}, d, options))


def _search_load(path: str, options: Options) -> Instance:
    data = load_arrays(path, ("queries", "keys"), SEARCH_INPUT)
    refuse_unsorted(data, path, "give at least one query and one key")
    d = options.d or max(file_width(v, f"{k!r} in {path!r}") for k, v in data.items())
    if options.keys == "bits":
        _refuse_wide(data["queries"], d, "queries")
        _refuse_wide(data["keys"], d, "keys")
    return Instance(data, _widths({"n": len(data["queries"]), "m": len(data["keys"])}, d, options))


def _search_reference(instance: Instance) -> Words:
    """eq. (12): ``bisect_left`` of each query among the keys."""
    keys, queries = instance.data["keys"], instance.data["queries"]
    return np.searchsorted(keys, queries, side="left").astype(np.int64)


SEARCH = Family(name="search", defaults={"n": 1024, "m": 1024}, build=_search_build,
                load=_search_load, reference=_search_reference, reference_name="bisect_left",
                symbols={"n": "n", "m": "m", "d": "d"})


# ---- family: sort inputs -----------------------------------------------------------------------

SORT_INPUT = "a .npy file holding the integers to sort"


def _sort_build(options: Options, rng: np.random.Generator) -> Instance:
    n = options.n or 1024
    d = options.d or 16
    top = min(4 * n, 1 << d)
    values = rng.integers(0, top, size=n, dtype=np.int64)
    return Instance({"values": values}, _widths({"n": n}, d, options))


def _sort_load(path: str, options: Options) -> Instance:
    values = load_array(path, SORT_INPUT)
    if len(values) == 0:
        raise InputError(f"input file {path!r} holds no values; give at least one integer")
    d = options.d or file_width(values, f"input file {path!r}")
    if options.keys == "bits":
        _refuse_wide(values, d, "values")
    return Instance({"values": values}, _widths({"n": len(values)}, d, options))


def _sort_reference(instance: Instance) -> Words:
    return np.sort(instance.data["values"]).astype(np.int64)


SORT = Family(name="sort", defaults={"n": 1024}, build=_sort_build, load=_sort_load,
              reference=_sort_reference, reference_name="sorted order",
              symbols={"n": "n", "d": "d"})


# ---- the bounds ------------------------------------------------------------------------------
#
# A bound is a formula; a sweep decides it from the laws of its counts (see pram.laws.bounds).
# Algorithm 11's phases each have their own bound, so a failure names the phase.

SEARCH_BOUNDS = work_and_time(SEARCH_WORK, SEARCH_TIME)
MQAR_BOUNDS = work_and_time(MQAR_WORK, MQAR_TIME)
#: Proposition H.30's proof, phase by phase: the sort and the searches (Algorithm 10 in every
#: block) within the whole bound; the retrieve (one key comparison per query and level) and
#: the combine (a reduction over the L levels of each query) a log factor below it.
MQAR_PHASES = {
    "sort": MQAR_BOUNDS,
    "search": MQAR_BOUNDS,
    "retrieve": work_and_time(PHASE_WORK, PHASE_TIME),
    "combine": work_and_time(COMBINE_WORK, COMBINE_TIME),
}


# ---- memory: what a run needs, for the size guard -------------------------------------------
#
# Bytes per unit from peaks measured with tracemalloc (word keys; bit keys grow with d), then
# doubled: Algorithm 11 about 270 B per T log2(T) (T = padded triples; 285 MB at N = 196,608),
# all-pairs about 140 B per (N/3)^2 (144 MB at N = 3,072), Algorithm 9 about 90 B per token,
# pbs and the sort network a few hundred bytes per element.


def _triples(n: int) -> int:
    """The padded triples T = 2^L >= N/3 that Algorithm 11 runs on."""
    return 1 << max(0, (-(-n // 3) - 1).bit_length())


def _bit_factor(sizes: Mapping[str, int], options: Options, per_bit: float) -> float:
    return 1.0 + per_bit * sizes.get("d", 16) if options.keys == "bits" else 1.0


#: Peak bytes per t log2 t (t = N/3) the guard allows Algorithm 11: about 1.6 times the peaks
#: measured with /usr/bin/time, which were 111 at t = 2^18, 97 at 2^20 and 87 at 2^22; 126
#: with per-block sorts and 390 with the oblivious search at 2^18; and 5.7 times as much with
#: bit keys of d = 16 at 2^14. Small runs add a fixed part (scratch, records of the levels):
#: tracemalloc measures under 6 MB at N = 3072.
MQAR_BYTES = {"merge-tree": 160.0, "per-block": 200.0, "oblivious": 600.0}
MQAR_FIXED_BYTES = 8 << 20


def _mqar_memory(sizes: Mapping[str, int], options: Options) -> float:
    t = _triples(sizes["n"])
    per = MQAR_BYTES["oblivious" if options.search == "oblivious" else options.sort]
    slope = per * t * max(1, t.bit_length()) * _bit_factor(sizes, options, 0.3)
    return MQAR_FIXED_BYTES + slope


def _allpairs_memory(sizes: Mapping[str, int], options: Options) -> float:
    real = max(1, sizes["n"] // 3)
    return 300.0 * real * real * _bit_factor(sizes, options, 1.0)


def _sequential_memory(sizes: Mapping[str, int], options: Options) -> float:
    return 200.0 * sizes["n"]


def _search_memory(sizes: Mapping[str, int], options: Options) -> float:
    n, m = sizes["n"], sizes.get("m", sizes["n"])
    return 800.0 * (n + m) * _bit_factor(sizes, options, 0.3)


def _naive_memory(sizes: Mapping[str, int], options: Options) -> float:
    n, m = sizes["n"], sizes.get("m", sizes["n"])
    return 200.0 * (n + m) * lg(m) * _bit_factor(sizes, options, 0.3)


def _sort_memory(sizes: Mapping[str, int], options: Options) -> float:
    size = 1 << max(0, (sizes["n"] - 1).bit_length())
    return 800.0 * size * _bit_factor(sizes, options, 0.3)


# ---- the entries -------------------------------------------------------------------------------


def _solve_sort(m: Machine, instance: Instance, options: Options) -> Solution:
    values = instance.data["values"]
    d = _width(instance)
    keys = token_keys(options, d)
    network = options.network
    if network in ("bitonic", "odd-even"):  # Batcher's two: padded, as before
        batcher: sorting.Network = "odd-even" if network == "odd-even" else "bitonic"
        result = sorting.sort(m, values, network=batcher, keys=keys)
    else:  # any n as it is
        comparator_networks.check(network, len(values))
        result = sorting.sort(m, values, keys=keys,
                              levels=lambda n: comparator_networks.levels(network, n))
    notes: tuple[str, ...] = ()
    if result.padding:
        notes = (
            f"n = {len(values)} padded with {result.padding} records to {result.size}, a power "
            "of two; padding sorts after every real record",
        )
    sizes = {"n": float(result.size), "d": float(bound_d(options, d))}
    return Solution(result.keys, sizes, notes)


def _tree(options: Options) -> bool:
    return options.keys == "bits" and options.comparator == "tree"


def _recall_solution(result: mqar.Recall, instance: Instance, options: Options) -> Solution:
    d = _width(instance)
    sizes = {"N": float(3 << result.levels), "d": float(bound_d(options, d))}
    return Solution(result.answers, sizes, (result.note,) if result.padded else ())


def merge_network(options: Options) -> sorting.Network:
    """Algorithm 11's network: Batcher's bitonic or odd-even, the two that merge (refused
    otherwise, naming the fix)."""
    if options.network == "odd-even":
        return "odd-even"
    if options.network != "bitonic":
        raise InputError(f"--network {options.network} applies to sort only: Algorithm 11 "
                         "sorts and merges with Batcher's networks; give --network bitonic or "
                         "odd-even")
    return "bitonic"


def _solve_mqar(m: Machine, instance: Instance, options: Options) -> Solution:
    keys = token_keys(options, _width(instance))
    network = merge_network(options)
    if options.search == "oblivious":
        found = mqar_oblivious.recall(m, instance.data["tokens"], keys=keys, network=network)
        return _recall_solution(found, instance, options)
    result = mqar.recall(m, instance.data["tokens"], sort=options.sort, keys=keys,  # type: ignore[arg-type]
                         network=network)
    return _recall_solution(result, instance, options)


def _solve_allpairs(m: Machine, instance: Instance, options: Options) -> Solution:
    keys = token_keys(options, _width(instance))
    result = allpairs.recall(m, instance.data["tokens"], keys=keys)
    return _recall_solution(result, instance, options)


def _tokens_text(count: int) -> str:
    return "token forms" if count == 1 else f"{count} tokens form"


def _solve_sequential(m: Machine, instance: Instance, options: Options) -> Solution:
    tokens = instance.data["tokens"]
    whole = _whole_triples(tokens)
    d = _width(instance)
    result = sequential.recall(whole)
    operations = result.operations_with(bound_d(options, d))
    cost = Cost(time=operations, work=operations, max_processors=1)
    notes = [
        "Algorithm 9 runs on the host (RAM model, one processor) and counts its own "
        f"operations: {result.comparisons:,} key comparisons"
        + (f", each costing d = {d}" if options.keys == "bits" else ""),
    ]
    if len(whole) < len(tokens):
        notes.append(
            f"the trailing {_tokens_text(len(tokens) - len(whole))} no whole triple, "
            "so no query is lost"
        )
    return Solution(result.answers, {"N": float(len(whole)), "d": float(bound_d(options, d))},
                    tuple(notes), cost)


def _searching(
    program: Callable[[Machine, Words, Words, Keys], Words],
) -> Callable[[Machine, Instance, Options], Solution]:
    """The ``solve`` of a search entry: ``program(m, queries, keys, token keys)`` (Algorithm
    10 or the naive search) at sizes n, m and the bound's d."""

    def solve(m: Machine, instance: Instance, options: Options) -> Solution:
        d = _width(instance)
        index = program(m, instance.data["queries"], instance.data["keys"], token_keys(options, d))
        sizes = {"n": instance.sizes["n"], "m": instance.sizes["m"], "d": bound_d(options, d)}
        return Solution(index, {k: float(v) for k, v in sizes.items()})

    return solve


#: The paper's algorithms and baselines, in the order the command line lists them.
ENTRIES = (
    Algorithm("mqar", "Algorithm 11, parallel MQAR over dyadic intervals", MQAR, _solve_mqar,
              {**MQAR_BOUNDS, "time (tree)": Bound(MQAR_TREE_TIME, applies=_tree)},
              phase_bounds=MQAR_PHASES, memory=_mqar_memory),
    Algorithm("mqar-sequential", "Algorithm 9, sequential associative array (AVL tree)", MQAR,
              _solve_sequential, work_and_time(SEQUENTIAL, SEQUENTIAL), on_machine=False,
              reference=_dictionary, reference_name="a Python dict, latest insert winning",
              memory=_sequential_memory),
    Algorithm("mqar-allpairs", "All-pairs (attention-like) MQAR baseline", MQAR, _solve_allpairs,
              {**MQAR_BOUNDS, "work (N^2)": Bound(QUADRATIC)}, memory=_allpairs_memory),
    Algorithm("pbs", "Algorithm 10, parallel binary search (pbs-key-values)", SEARCH,
              _searching(pbs.search), SEARCH_BOUNDS, memory=_search_memory),
    Algorithm("pbs-naive", "Naive parallel binary search (CREW negative control)", SEARCH,
              _searching(pbs.naive_search), SEARCH_BOUNDS, memory=_naive_memory),
    Algorithm("sort", "Batcher sorting network", SORT, _solve_sort,
              work_and_time(SORT_WORK, SORT_TIME), memory=_sort_memory),
)
