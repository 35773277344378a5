"""Algorithm 10 (pbs-key-values) and the naive CREW search, against numpy and their bounds."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Array, Formula, InputError, Machine, Program, Violation, check
from pram.algorithms.bits import BitKeys
from pram.algorithms.keys import WordKeys
from pram.algorithms.pbs import Found, naive_blocks, naive_search, retrieve, search, search_blocks
from pram.laws.fitting import fit
from pram.violations import Kind

WORD = WordKeys()
CONVERT = (
    "make them integers explicitly, e.g. numpy.rint(x).astype(numpy.int64) for reals (a plain "
    "cast would truncate them)"
)


def sorted_tokens(max_size: int, top: int) -> st.SearchStrategy[np.ndarray]:
    """Sorted non-negative tokens; a small ``top`` forces duplicates."""
    return st.lists(st.integers(min_value=0, max_value=top), max_size=max_size).map(
        lambda xs: np.array(sorted(xs), dtype=np.int64)
    )


#: Small and large vocabularies: duplicates in either array, or almost none.
vocabularies = st.sampled_from([1, 4, 30, 10**9])


def expected(queries: np.ndarray, keys: np.ndarray) -> np.ndarray:
    return np.searchsorted(keys, queries, side="left")


def matches(queries: np.ndarray, keys: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Whether each query's candidate key exists and equals it."""
    padded = np.append(keys, -1)  # position m holds "no key", equal to no query
    equal: np.ndarray = padded[c] == queries
    return equal


def assert_retrieved(queries: np.ndarray, keys: np.ndarray) -> Machine:
    """pbs on EREW equals searchsorted; carried keys, payloads and match bits are right."""
    m = Machine("erew", mode="raise")
    payload = np.arange(len(keys), dtype=np.int64) * 7 + 3
    got = retrieve(m, queries, keys, payload)
    c = expected(queries, keys)
    assert got.index.tolist() == c.tolist()
    has = c < len(keys)
    assert got.key[has].tolist() == keys[c[has]].tolist()
    assert got.payload[has].tolist() == payload[c[has]].tolist()
    assert got.key[~has].tolist() == got.payload[~has].tolist() == [-1] * int((~has).sum())
    assert got.match.tolist() == matches(queries, keys, c).tolist()
    assert m.violations == [] and m.undefined_reads == []
    return m


# ---- answers ---------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.data(), vocabularies)
def test_pbs_equals_searchsorted_on_random_sorted_inputs(data: st.DataObject, top: int) -> None:
    """Random sorted queries and keys (duplicates, n < m, n = m, n > m): bisect_left, on EREW."""
    queries = data.draw(sorted_tokens(40, top), label="queries")
    keys = data.draw(sorted_tokens(40, top), label="keys")
    assert_retrieved(queries, keys)


@pytest.mark.parametrize(
    ("queries", "keys"),
    [
        ([5], [5]),  # n = m = 1
        ([1], [0, 2, 4, 6, 8]),  # n = 1
        ([0, 3, 9, 9, 12], [7]),  # m = 1
        ([0, 1, 2], [10, 20, 30, 40]),  # every query below every key
        ([50, 60, 70, 80, 90], [10, 20, 30]),  # every query above every key
        ([4] * 9, [1, 4, 4, 4, 8]),  # duplicates in both arrays
        (list(range(0, 64, 2)), list(range(64))),  # n < m
        (list(range(64)), list(range(0, 64, 8))),  # n > m
        (list(range(31)), list(range(31))),  # n = m = 2^5 - 1: a complete call tree
        ([3, 3, 3], []),  # no keys at all
        ([], [1, 2, 3]),  # no queries
    ],
)
def test_pbs_equals_searchsorted_on_edge_cases(queries: list[int], keys: list[int]) -> None:
    """The edge cases named by the issue, each on EREW with zero violations."""
    assert_retrieved(np.array(queries, dtype=np.int64), np.array(keys, dtype=np.int64))


def test_search_returns_eq_12() -> None:
    """search() returns exactly eq. (12): bisect_left of each query."""
    m = Machine("erew")
    assert search(m, [1, 4, 9], [2, 4, 6]).tolist() == [0, 1, 3]
    assert m.violations == []


def _run_laid_out(
    instances: list[tuple[np.ndarray, np.ndarray]], gap: int, keys_repr: Any,
    payload: Callable[[Machine, int], Any],
) -> tuple[Machine, Found, list[tuple[int, int]]]:
    """All instances in one search_blocks call, laid out one after another with ``gap``
    cells between; ``payload(m, cells of keys)`` makes the keys' payload arrays."""
    m = Machine("erew", mode="raise")
    q_start, k_start, q_parts, k_parts = [], [], [], []
    q_at = k_at = 0
    for queries, keys in instances:
        q_start.append(q_at)
        k_start.append(k_at)
        q_parts += [queries, np.zeros(gap, dtype=np.int64)]
        k_parts += [keys, np.zeros(gap, dtype=np.int64)]
        q_at += len(queries) + gap
        k_at += len(keys) + gap
    queries_all = np.concatenate([np.zeros(0, dtype=np.int64), *q_parts])
    keys_all = np.concatenate([np.zeros(0, dtype=np.int64), *k_parts])
    program = search_blocks(
        m,
        keys_repr,
        keys_repr.store(m, "Q", queries_all),
        keys_repr.store(m, "K", keys_all),
        payload(m, len(keys_all)),
        q_start=q_start,
        q_count=[len(q) for q, _ in instances],
        k_start=k_start,
        k_count=[len(k) for _, k in instances],
    )
    return m, m.run(program), list(zip(q_start, k_start, strict=True))


def search_instances(max_size: int) -> st.SearchStrategy[list[tuple[np.ndarray, np.ndarray]]]:
    """1 to ``max_size`` search instances: sorted queries and sorted keys, with duplicates."""
    return st.lists(st.tuples(sorted_tokens(20, 12), sorted_tokens(20, 12)), min_size=1,
                    max_size=max_size)


def answered(
    found: Found, instances: list[tuple[np.ndarray, np.ndarray]], starts: list[tuple[int, int]]
) -> Iterator[tuple[slice, np.ndarray, int, np.ndarray]]:
    """Each instance's span of the answers, its keys, their start and eq. (12)'s
    answers, once its index and match are asserted to be eq. (12)'s and the matches'."""
    index, match = found.index.to_numpy(), found.match.to_numpy()
    for (queries, keys), (qs, ks) in zip(instances, starts, strict=True):
        span = slice(qs, qs + len(queries))
        c = expected(queries, keys)
        assert index[span].tolist() == c.tolist()
        assert match[span].tolist() == matches(queries, keys, c).tolist()
        yield span, keys, ks, c


def run_blocks(
    instances: list[tuple[np.ndarray, np.ndarray]], gap: int = 0
) -> tuple[Machine, Found, list[tuple[int, int]]]:
    """All instances in one search_blocks call, laid out one after another (with gaps)."""
    return _run_laid_out(instances, gap, WORD,
                         lambda m, n: m.array("pi", values=np.arange(n) + 1000))


@settings(max_examples=60, deadline=None)
@given(
    search_instances(max_size=8),
    st.integers(min_value=0, max_value=2),
)
def test_many_instances_at_once_equal_per_instance_searchsorted(
    instances: list[tuple[np.ndarray, np.ndarray]], gap: int
) -> None:
    """One search_blocks call over instances of different sizes: each gets its own eq. (12),
    its candidate key and payload, with zero EREW violations."""
    m, found, starts = run_blocks(instances, gap)
    payload = found.payload.to_numpy()
    key = found.key.to_numpy()
    for span, keys, ks, c in answered(found, instances, starts):
        has = c < len(keys)
        assert key[span][has].tolist() == keys[c[has]].tolist()
        assert payload[span].tolist() == np.where(has, ks + c + 1000, -1).tolist()
    assert m.violations == []


def run_payloads(
    instances: list[tuple[np.ndarray, np.ndarray]], count: int, keys_repr: Any = WORD
) -> tuple[Machine, Found, list[tuple[int, int]], list[np.ndarray]]:
    """All instances in one search_blocks call carrying ``count`` payload arrays per key."""
    n = sum(len(k) for _, k in instances)
    given = [np.arange(n, dtype=np.int64) * (p + 2) + 100 * p for p in range(count)]
    m, found, starts = _run_laid_out(
        instances, 0, keys_repr,
        lambda m, _: [m.array(f"pay {p}", values=values) for p, values in enumerate(given)],
    )
    return m, found, starts, given


@settings(max_examples=40, deadline=None)
@given(
    search_instances(max_size=6),
    st.integers(min_value=1, max_value=4),
)
def test_several_payloads_each_equal_numpy(
    instances: list[tuple[np.ndarray, np.ndarray]], count: int
) -> None:
    """With 1 to 4 payload arrays, every query gets each payload of its candidate key (the
    holder copies included), -1 where there is no key, with zero EREW violations."""
    m, found, starts, given = run_payloads(instances, count)
    assert len(found.payloads) == count and found.payloads[0] is found.payload
    carried = [array.to_numpy() for array in found.payloads]
    for span, keys, ks, c in answered(found, instances, starts):
        has = c < len(keys)
        for values, got in zip(given, carried, strict=True):
            want = np.append(values, -1)[np.where(has, ks + c, len(values))]
            assert got[span].tolist() == want.tolist()
    assert m.violations == [] and m.undefined_reads == []


def test_several_payloads_with_bit_keys() -> None:
    """Bit keys move their tokens differently; the payloads still arrive, on EREW."""
    rng = np.random.default_rng(3)
    instances = [(np.sort(rng.integers(0, 8, 9)), np.sort(rng.integers(0, 8, 7))) for _ in range(3)]
    words = run_payloads(instances, 3)
    m, found, _, _ = run_payloads(instances, 3, BitKeys(3, "tree"))
    for ours, theirs in zip(found.payloads, words[1].payloads, strict=True):
        assert ours.to_numpy().tolist() == theirs.to_numpy().tolist()
    assert m.violations == []


def test_further_payloads_cost_no_time() -> None:
    """The further payloads are written in steps the processors already take part in
    (pipelined), so the time is that of one payload; only reads, writes and work grow."""
    rng = np.random.default_rng(5)
    instances = [(np.sort(rng.integers(0, 30, 40)), np.sort(rng.integers(0, 30, 40)))]
    one, _, _, _ = run_payloads(instances, 1)
    two, _, _, _ = run_payloads(instances, 2)
    assert two.cost.time == one.cost.time
    assert two.cost.reads > one.cost.reads and two.cost.writes > one.cost.writes


def test_too_many_payloads_are_refused() -> None:
    """Two reads per payload in one step: at most four payload arrays."""
    m = Machine()
    k = m.array("K", values=np.arange(4))
    pay = [m.array(f"P{i}", values=np.arange(4)) for i in range(5)]
    message = (
        "payload must be one array or a sequence of 1 to 4 arrays (got 5); "
        "carry the others in a second search"
    )
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        m.run(search_blocks(m, WORD, k, k, pay, q_start=[0], q_count=[4], k_start=[0],
                            k_count=[4]))
    short = [pay[0], m.array("short", values=np.arange(3))]
    message = "payload 1 must have one cell per key (got 3 cells for 4 keys)"
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        m.run(search_blocks(m, WORD, k, k, short, q_start=[0], q_count=[4], k_start=[0],
                            k_count=[4]))


def test_blocks_of_one_mqar_level_structure_run_clean() -> None:
    """The shape Algorithm 11 uses: every level k's T/2^(k+1) blocks of 2^k, all at once."""
    rng = np.random.default_rng(7)
    levels = 6
    instances = []
    for k in range(levels):
        for _ in range(2**levels // 2 ** (k + 1)):
            instances.append((np.sort(rng.integers(0, 9, 2**k)), np.sort(rng.integers(0, 9, 2**k))))
    m, found, starts = run_blocks(instances)
    index = found.index.to_numpy()
    for (queries, keys), (qs, _) in zip(instances, starts, strict=True):
        assert index[qs : qs + len(queries)].tolist() == expected(queries, keys).tolist()
    assert m.violations == []
    # The depth is that of the largest block: (log2 n + 1) levels of (log2 m + 1) probes each.
    assert m.cost.time == _single_time(2 ** (levels - 1))


def _single_time(n: int) -> int:
    m = Machine("erew")
    search(m, np.arange(n), np.arange(n))
    return m.cost.time


@settings(max_examples=25, deadline=None)
@given(sorted_tokens(12, 31), sorted_tokens(12, 31), st.sampled_from(["serial", "tree"]))
def test_bit_keys_give_the_same_answers_as_word_keys(
    queries: np.ndarray, keys: np.ndarray, comparator: str
) -> None:
    """With 5-bit keys (serial or tree comparator) pbs gives what word keys give, on EREW."""
    word = retrieve(Machine("erew", mode="raise"), queries, keys)
    m = Machine("erew", mode="raise")
    bits = retrieve(m, queries, keys, keys_repr=BitKeys(5, comparator))
    for field in ("index", "key", "payload", "match"):
        assert getattr(bits, field).tolist() == getattr(word, field).tolist()
    assert m.violations == []


def test_instances_sharing_keys_are_flagged() -> None:
    """Instances must own disjoint key ranges: two searching the same keys collide on EREW."""
    m = Machine("erew")
    q = m.array("Q", values=np.array([1, 1]))
    k = m.array("K", values=np.array([0, 1, 2]))
    m.run(
        search_blocks(m, WORD, q, k, q_start=[0, 1], q_count=[1, 1], k_start=[0, 0], k_count=[3, 3])
    )
    assert m.violations[0].message == (
        "EREW forbids concurrent reads: processors 0 and 1 read K[1] in step 1 "
        "(phase 'pbs/level 0')"
    )


def test_phases_are_labelled_by_level() -> None:
    """Every step is labelled pbs/level t (or pbs/match); levels = ceil(log2(n + 1))."""
    m = Machine("erew")
    search(m, np.arange(20), np.arange(20))
    levels = [p for p in m.cost.phases if p.startswith("pbs/level ")]
    assert levels == [f"pbs/level {t}" for t in range(math.ceil(math.log2(21)))]
    assert "pbs/match" in m.cost.phases
    assert m.cost.phases["pbs"].time == m.cost.time


# ---- the negative control --------------------------------------------------------------------


def test_naive_search_is_flagged_under_erew() -> None:
    """All queries read the middle key in the first probe: EREW names them and the cell."""
    m = Machine("erew")
    got = naive_search(m, np.arange(8), np.arange(8))
    assert got.tolist() == list(range(8))
    first = m.violations[0]
    assert first == Violation(
        "EREW", Kind.READ_READ, 1, "pbs-naive/probe 0", "pbs-naive.keys", 4, tuple(range(8))
    )
    assert first.message == (
        "EREW forbids concurrent reads: processors 0, 1, 2, 3, 4, 5, ... (8 in all) "
        "read pbs-naive.keys[4] in step 1 (phase 'pbs-naive/probe 0')"
    )


def test_naive_search_runs_clean_under_crew() -> None:
    """The same program is a correct CREW program."""
    rng = np.random.default_rng(3)
    queries, keys = np.sort(rng.integers(0, 50, 40)), np.sort(rng.integers(0, 50, 30))
    m = Machine("crew", mode="raise")
    assert naive_search(m, queries, keys).tolist() == expected(queries, keys).tolist()
    assert m.violations == []


# ---- bounds ----------------------------------------------------------------------------------

# The sweep keeps n = m, so one size varies: the check fits the ratio's growth along it, and
# reads m in the texts as n (its twin).
WORK = Formula("n log2(m)", lambda s: s["n"] * math.log2(s["m"] if "m" in s else s["n"]),
               twins={"m": "n"})
TIME = Formula(
    "log2(n) log2(m)", lambda s: math.log2(s["n"]) * math.log2(s["m"] if "m" in s else s["n"]),
    twins={"m": "n"},
)
#: n = m = 2^4 .. 2^16: the whole sweep of the issue (the largest run takes well under a second).
SWEEP = [2**e for e in range(4, 17, 2)]


def measure(
    program: Callable[[Machine, np.ndarray, np.ndarray], Any],
    sizes: list[int],
    model: str = "erew",
) -> list[tuple[dict[str, float], int, int]]:
    """(sizes, work, time) of ``program`` on random sorted n = m inputs, violation-free."""
    rng = np.random.default_rng(11)
    points = []
    for n in sizes:
        queries = np.sort(rng.integers(0, 4 * n, n))
        keys = np.sort(rng.integers(0, 4 * n, n))
        m = Machine(model, mode="raise")
        program(m, queries, keys)
        assert m.violations == []
        points.append(({"n": float(n)}, m.cost.work, m.cost.time))
    return points


def pbs_once(m: Machine, queries: np.ndarray, keys: np.ndarray) -> None:
    assert search(m, queries, keys).tolist() == expected(queries, keys).tolist()


def repeated(
    blocks: Callable[..., Program[Any]], power: int = 1
) -> Callable[[Machine, np.ndarray, np.ndarray], None]:
    """A planted slower variant: the whole search run log2(n)^power times, one after another."""

    def run(m: Machine, queries: np.ndarray, keys: np.ndarray) -> None:
        q, k = WORD.store(m, "Q", queries), WORD.store(m, "K", keys)

        def program() -> Program[None]:
            for r in range(int(math.log2(len(queries))) ** power):
                yield from blocks(m, q, k, name=f"run {r}")

        m.run(program())

    return run


def pbs_blocks(m: Machine, q: Array, k: Array, name: str) -> Program[Found]:
    return search_blocks(
        m, WORD, q, k, q_start=[0], q_count=[q.size], k_start=[0], k_count=[k.size], name=name
    )


def naive_program(m: Machine, q: Array, k: Array, name: str) -> Program[Array]:
    return naive_blocks(m, WORD, q, k, name=name)


@pytest.fixture(scope="module")
def pbs_sweep() -> list[tuple[dict[str, float], int, int]]:
    return measure(pbs_once, SWEEP)


def test_pbs_work_is_within_n_log_m(pbs_sweep: list[tuple[dict[str, float], int, int]]) -> None:
    """Measured work / (n log2 m) stays bounded over n = m = 2^4 .. 2^16."""
    result = check("work", WORK, [(s, w) for s, w, _ in pbs_sweep], limit=4.0)
    assert result.holds, result.table()


def test_pbs_time_is_within_log_n_log_m(
    pbs_sweep: list[tuple[dict[str, float], int, int]],
) -> None:
    """Measured time / (log2 n log2 m) stays bounded over n = m = 2^4 .. 2^16."""
    result = check("time", TIME, [(s, t) for s, _, t in pbs_sweep], limit=4.0)
    assert result.holds, result.table()


def test_the_time_law_is_l_times_p_plus_5_plus_1() -> None:
    """Time is exactly L (P + 5) + 1, L = ceil(log2(n+1)), P = ceil(log2(m+1)): the law found
    on sizes that are not powers of two (m fixed at 100, so P = 7: 12 L + 1; and n = m)."""
    sizes = [20, 50, 100, 300, 700, 1500]
    rng = np.random.default_rng(3)
    keys = np.sort(rng.integers(0, 500, 100))
    times = []
    for n in sizes:
        m = Machine("erew")
        search(m, np.sort(rng.integers(0, 500, n)), keys)
        times.append(m.cost.time)
    law = fit("time", "n", sizes, times)
    assert law.describe().startswith("time = 12 L + 1, L = ceil(log2(n")
    square = fit("time", "n", *zip(*[(s["n"], t) for s, _, t in measure(pbs_once, sizes)],
                                   strict=True))
    assert square.describe().startswith("time = L^2 + 5 L + 1, L = ceil(log2(n")


def test_naive_search_work_is_n_log_m_too() -> None:
    """The naive search does log2(m) probes per query: work n log m, time log m (on CREW)."""
    points = measure(naive_search, SWEEP[:5], model="crew")
    assert check("work", WORK, [(s, w) for s, w, _ in points], limit=2.0).holds


def test_planted_variants_fail_the_checks() -> None:
    """The naive search run log2 n times exceeds the work bound, and run log2(n)^2 times the
    time bound: the same checks are able to fail by one log factor."""
    sizes = [2**e for e in range(4, 13, 2)]
    naive = measure(repeated(naive_program), sizes, model="crew")
    work = check("work", WORK, [(s, w) for s, w, _ in naive])
    assert work.verdict == "exceeded", work.table()
    slow = measure(repeated(naive_program, power=2), sizes, model="crew")
    time = check("time", TIME, [(s, t) for s, _, t in slow])
    assert time.verdict == "exceeded", time.table()


# ---- invalid input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("queries", "keys", "message"),
    [
        (
            [1, 2],
            [1, 7, 2],
            "keys must be sorted ascending (got keys[1] = 7 > keys[2] = 2); sort them first",
        ),
        (
            [3, 1],
            [1, 2],
            "queries must be sorted ascending (got queries[0] = 3 > queries[1] = 1); "
            "sort them first",
        ),
        ([1, 2], [0.5, 1.5], f"keys must be integers (got dtype float64); {CONVERT}"),
        (["a"], [1], f"queries must be integers (got dtype <U1); {CONVERT}"),
        ([1, 2], [[1, 2]], "keys must be one-dimensional (got shape (1, 2)); pass a flat array"),
        ([True], [1], f"queries must be integers (got dtype bool); {CONVERT}"),
    ],
)
def test_invalid_search_input_is_refused(queries: Any, keys: Any, message: str) -> None:
    """Unsorted, non-integer or misshapen arrays get a message naming the value and the fix."""
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        search(Machine(), queries, keys)
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        naive_search(Machine(), queries, keys)


def test_payload_of_the_wrong_length_is_refused() -> None:
    """A payload must have one entry per key."""
    message = "payload must have one entry per key (got 2 entries for 3 keys)"
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        retrieve(Machine(), [1], [1, 2, 3], payload=[5, 6])


@pytest.mark.parametrize(
    ("description", "message"),
    [
        (
            {"q_count": [2, 2]},
            "q_start, q_count, k_start and k_count must have one entry per instance each "
            "(got lengths q_start 1, q_count 2, k_start 1, k_count 1)",
        ),
        ({"k_count": [-1]}, "k_count must be non-negative (got k_count[0] = -1)"),
        (
            {"q_count": [5]},
            "instance 0 reaches past the end of Q: q_start[0] + q_count[0] = 5 "
            "but Q holds 4 tokens",
        ),
        (
            {"k_start": [2]},
            "instance 0 reaches past the end of K: k_start[0] + k_count[0] = 6 "
            "but K holds 4 tokens",
        ),
        ({"q_start": [0.0]}, f"q_start must be integers (got dtype float64); {CONVERT}"),
    ],
)
def test_invalid_instance_descriptions_are_refused(
    description: dict[str, Any], message: str
) -> None:
    """Instance descriptions of mismatched lengths or out of range are refused up front."""
    m = Machine()
    arrays = {"q_start": [0], "q_count": [4], "k_start": [0], "k_count": [4], **description}
    program = search_blocks(
        m, WORD, m.array("Q", values=np.arange(4)), m.array("K", values=np.arange(4)), **arrays
    )
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        m.run(program)


def test_search_frees_its_records_and_keeps_what_it_found() -> None:
    """The calls' records are freed at the end of a search; the Found arrays stay alive."""
    m = Machine("erew")
    assert search(m, np.array([1, 4, 9]), np.array([2, 4, 6])).tolist() == [0, 1, 3]
    assert sorted(m.arrays) == [
        "pbs.found payload", "pbs.index", "pbs.key", "pbs.keys", "pbs.match", "pbs.queries"
    ]
    # queries, keys, payload, found payload, index, key, match, lo, hi, alive: 3 cells each
    assert m.cost.memory_cells == 3 * 10
