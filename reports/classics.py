"""The catalogue of classic PRAM algorithms as entries: instances, input checks, references.

Six entries (:mod:`pram.algorithms.catalogue`), each run by default under the model it is
written for (:attr:`Algorithm.model`): ``list-ranking`` and ``prefix-sums`` (EREW), ``merge``
and ``matrix-multiply`` (CREW), ``max`` (CRCW common) and ``rank-sort`` (CRCW sum). Each has a
reference computed on the host by other means (a walk along the list, numpy, brute force), and
input files are checked here, before any run, with one-line refusals. Data only: the table of
every entry is :mod:`pram.reports.entries`; the report's section is
:mod:`pram.reports.catalogue`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from pram import InputError, Words, words
from pram.algorithms import catalogue as programs
from pram.reports.formulas import (
    CONSTANT,
    CUBE,
    LINEAR,
    LOG,
    MERGE_LOG,
    MERGE_WORK,
    N_LOG,
    PAIRS,
)
from pram.reports.registry import (
    Algorithm,
    Bound,
    Family,
    Instance,
    Options,
    family_of_n,
    load_array,
    load_arrays,
    read_archive,
    refuse_unsorted,
    solve_with,
    work_and_time,
)

#: Largest magnitude of a random value: sums and products stay far from int64's limits.
SPREAD = 1000
#: Largest |value| a sum or product of the input may reach: int64 must hold every result.
INT64_MAX = int(np.iinfo(np.int64).max)


# ---- list ranking: successor lists ---------------------------------------------------------------

LIST_INPUT = "a .npy file of successor indices, one list through every node (-1 for the tail)"


def _list_build(options: Options, rng: np.random.Generator) -> Instance:
    """One list through n nodes in a random order."""
    n = options.n or 1024
    order = rng.permutation(n)
    successors = np.full(n, programs.NIL, dtype=np.int64)
    successors[order[:-1]] = order[1:]
    return Instance({"successors": successors}, {"n": n})


def refuse_bad_list(successors: Words, where: str) -> None:
    """Refuse anything but one list through every node, naming the first offending node."""
    n = len(successors)
    if n == 0:
        raise InputError(f"{where} holds no nodes; give at least one successor (-1 for the tail)")
    bad = np.flatnonzero((successors < programs.NIL) | (successors >= n))
    if bad.size:
        i = int(bad[0])
        raise InputError(
            f"{where} holds successors[{i}] = {int(successors[i])}, outside -1..{n - 1}; "
            "give each node's successor as a node index, or -1 for the tail"
        )
    tails = np.flatnonzero(successors == programs.NIL)
    if tails.size != 1:
        raise InputError(
            f"{where} has {tails.size} tails (successor -1); one list has exactly one, so "
            "link the lists into one"
        )
    linked = successors[successors != programs.NIL]
    counts = np.bincount(linked, minlength=n)
    shared = np.flatnonzero(counts > 1)
    if shared.size:
        j = int(shared[0])
        who = np.flatnonzero(successors == j)[:2].tolist()
        raise InputError(
            f"{where} gives node {j} two predecessors (nodes {who[0]} and {who[1]}); in one "
            "list each node follows at most one other"
        )
    heads = np.flatnonzero(counts == 0)
    # n - 1 links into distinct nodes leave exactly one node without a predecessor: the head.
    node, seen = int(heads[0]), 1
    while successors[node] != programs.NIL and seen <= n:
        node = int(successors[node])
        seen += 1
    if seen < n:
        raise InputError(
            f"{where} is not one list: from the head, node {int(heads[0])}, the tail is "
            f"reached after {seen} of {n} nodes and the rest form a cycle; break the cycle"
        )


def _list_load(path: str, options: Options) -> Instance:
    successors = load_array(path, LIST_INPUT)
    refuse_bad_list(successors, f"input file {path!r}")
    return Instance({"successors": successors}, {"n": len(successors)})


def _list_reference(instance: Instance) -> Words:
    """Links to the tail, by walking the list on the host from its head."""
    successors = instance.data["successors"].tolist()
    n = len(successors)
    has_predecessor = [False] * n
    for s in successors:
        if s != programs.NIL:
            has_predecessor[s] = True
    node = has_predecessor.index(False)
    order = [node]
    while successors[node] != programs.NIL:
        node = successors[node]
        order.append(node)
    rank = np.zeros(n, dtype=np.int64)
    for position, node in enumerate(order):
        rank[node] = len(order) - 1 - position
    return rank


LIST = family_of_n("list", _list_build, _list_load, _list_reference, "a walk along the list")


# ---- values: prefix sums, max, rank sort ---------------------------------------------------------

VALUES_INPUT = "a .npy file holding integers"


def build_values(options: Options, rng: np.random.Generator) -> Instance:
    """Random integers in ``[-SPREAD, SPREAD]``, with repeats when n is large."""
    n = options.n or 1024
    values = rng.integers(-SPREAD, SPREAD + 1, size=n, dtype=np.int64)
    return Instance({"values": values}, {"n": n})


def load_values(path: str, options: Options) -> Instance:
    values = load_array(path, VALUES_INPUT)
    if len(values) == 0:
        raise InputError(f"input file {path!r} holds no values; give at least one integer")
    return Instance({"values": values}, {"n": len(values)})


def _sums_load(path: str, options: Options) -> Instance:
    instance = load_values(path, options)
    total = sum(abs(v) for v in instance.data["values"].tolist())
    if total > INT64_MAX:
        raise InputError(
            f"input file {path!r}: the sum of the values' magnitudes is {total}, beyond int64, "
            "so a prefix sum may overflow; use smaller values"
        )
    return instance


def _sums_reference(instance: Instance) -> Words:
    return np.cumsum(instance.data["values"]).astype(np.int64)


def _max_reference(instance: Instance) -> Words:
    values = instance.data["values"]
    return np.array([values.max(), int(np.argmax(values))], dtype=np.int64)


def _sorted_reference(instance: Instance) -> Words:
    return np.sort(instance.data["values"]).astype(np.int64)


SUMS = family_of_n("sums", build_values, _sums_load, _sums_reference, "numpy.cumsum")
MAX = family_of_n("max", build_values, load_values, _max_reference, "numpy max and argmax")
RANKS = family_of_n("rank-sort", build_values, load_values, _sorted_reference, "numpy.sort")


# ---- merge: two sorted arrays --------------------------------------------------------------------

MERGE_INPUT = "an .npz file holding sorted integer arrays 'a' and 'b'"


def _merge_build(options: Options, rng: np.random.Generator) -> Instance:
    """Sorted random a and b of n values each, from one range, with repeats.

    (``--m`` stays pbs's; a file may hold arrays of different lengths n and m.)
    """
    n = options.n or 1024
    m = n
    top = 2 * (n + m)
    a = np.sort(rng.integers(0, top, size=n, dtype=np.int64))
    b = np.sort(rng.integers(0, top, size=m, dtype=np.int64))
    return Instance({"a": a, "b": b}, {"n": n, "m": m})


def _merge_load(path: str, options: Options) -> Instance:
    data = load_arrays(path, ("a", "b"), MERGE_INPUT)
    refuse_unsorted(data, path, "give at least one value in each")
    return Instance(data, {"n": len(data["a"]), "m": len(data["b"])})


def _merge_reference(instance: Instance) -> Words:
    both = np.concatenate([instance.data["a"], instance.data["b"]])
    return np.sort(both, kind="stable").astype(np.int64)


MERGE = Family(
    name="merge",
    defaults={"n": 1024},
    build=_merge_build,
    load=_merge_load,
    reference=_merge_reference,
    reference_name="numpy.sort of both",
    symbols={"n": "n", "m": "m"},
)


# ---- matrix product: two square matrices -------------------------------------------------------

MATRIX_INPUT = "an .npz file holding square integer matrices 'a' and 'b' of one size"


def _matrix_build(options: Options, rng: np.random.Generator) -> Instance:
    n = options.n or 16
    a = rng.integers(-SPREAD, SPREAD + 1, size=(n, n), dtype=np.int64)
    b = rng.integers(-SPREAD, SPREAD + 1, size=(n, n), dtype=np.int64)
    return Instance({"a": a, "b": b}, {"n": n})


def _matrix_load(path: str, options: Options) -> Instance:
    raw = read_archive(path, ("a", "b"), MATRIX_INPUT, "input file")
    data = {name: words(raw[name], f"{name!r} in {path!r}", ndim=2) for name in ("a", "b")}
    a, b = data["a"], data["b"]
    for name, matrix in data.items():
        rows, columns = matrix.shape
        if rows != columns or rows == 0:
            raise InputError(
                f"{name!r} in {path!r} has shape {matrix.shape}; it must be a square matrix "
                "n x n with n >= 1"
            )
    if a.shape != b.shape:
        raise InputError(
            f"'a' and 'b' in {path!r} have shapes {a.shape} and {b.shape}; give two square "
            "matrices of the same size"
        )
    n = len(a)
    top = n * max(abs(v) for v in a.reshape(-1).tolist()) * max(
        abs(v) for v in b.reshape(-1).tolist()
    )
    if top > INT64_MAX:
        raise InputError(
            f"input file {path!r}: n times the largest |a| times the largest |b| is {top}, "
            "beyond int64, so the product may overflow; use smaller values"
        )
    return Instance(data, {"n": n})


def _matrix_reference(instance: Instance) -> Words:
    """``a @ b`` by brute force over Python integers (no overflow can hide)."""
    a, b = instance.data["a"].tolist(), instance.data["b"].tolist()
    n = len(a)
    product = [[sum(a[i][k] * b[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    return np.array(product, dtype=np.int64).reshape(n, n)


MATRIX = family_of_n("matrix", _matrix_build, _matrix_load, _matrix_reference,
                     "a @ b by brute force", n=16)


# ---- the bounds and the entries ----------------------------------------------------------------
#
# Each limit is a little above the largest measured / formula at any n >= 1 (the exact counts
# are in each program's docstring), so a run over it means the program changed.


def _per(bytes_per: float, power: int) -> Callable[[Mapping[str, int], Options], float]:
    """A size guard's estimate: ``bytes_per * n**power`` bytes (twice the tracemalloc peaks
    measured at n = 4096..16384, or 256..512 for n^2, 16..32 for n^3)."""
    return lambda sizes, options: bytes_per * float(sizes["n"]) ** power


ENTRIES = (
    Algorithm("list-ranking", "List ranking by Wyllie's pointer jumping", LIST,
              solve_with(programs.list_ranking, "successors"),
              work_and_time(Bound(N_LOG, limit=5), Bound(LOG, limit=5)), memory=_per(400, 1)),
    Algorithm("prefix-sums", "Prefix sums on a balanced tree (Brent and Kung)", SUMS,
              solve_with(programs.prefix_sums, "values"),
              work_and_time(Bound(LINEAR, limit=5), Bound(LOG, limit=6)), memory=_per(200, 1)),
    Algorithm("merge", "Merge by binary search of each element's rank", MERGE,
              solve_with(programs.merge, "a", "b"),
              work_and_time(Bound(MERGE_WORK, limit=5), Bound(MERGE_LOG, limit=5)),
              model="crew", memory=_per(800, 1)),
    Algorithm("matrix-multiply", "Matrix product with n^3 processors and tree sums", MATRIX,
              solve_with(programs.matrix_multiply, "a", "b"),
              work_and_time(Bound(CUBE, limit=5), Bound(LOG, limit=8)),
              model="crew", memory=_per(250, 3)),
    Algorithm("max", "Maximum in O(1) time: all pairs write 'not the max'", MAX,
              solve_with(programs.maximum, "values"),
              work_and_time(Bound(PAIRS, limit=5), Bound(CONSTANT, limit=5)),
              model="crcw-common", memory=_per(300, 2)),
    Algorithm("rank-sort", "Rank sort in O(1) time: all pairs add 1 to a rank", RANKS,
              solve_with(programs.rank_sort, "values"),
              work_and_time(Bound(PAIRS, limit=5), Bound(CONSTANT, limit=5)),
              model="crcw-sum", memory=_per(400, 2)),
)

#: The weaker model each entry is run under as a negative control (it must be flagged).
WEAKER = {"merge": "erew", "matrix-multiply": "erew", "max": "crew", "rank-sort": "crew"}
