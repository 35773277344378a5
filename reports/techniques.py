"""The catalogue's second part: the techniques algorithms courses set as exercises (issue 23).

Eight entries over the textbook programs of :mod:`pram.algorithms`, each run by default under
the model it is written for, each with a reference computed on the host by other means (a walk
along the list, a depth-first walk, a post-order evaluation, union-find, numpy) and its input
files checked here, before any run, with one-line refusals:

- ``list-ranking-random`` (EREW): a ``.npy`` of successors (-1 for the tail) / each node's
  links to the tail;
- ``euler-tour`` (EREW): a ``.npy`` (n - 1, 2) array of a tree's edges, rooted at vertex 0 /
  an (n, 4) array: parent (-1 at the root), depth, preorder number and subtree size;
- ``tree-contraction`` (EREW): an ``.npz`` of ``left``, ``right``, ``op``, ``value`` / [value];
- ``components`` (CRCW arbitrary; controls CREW and CRCW common): a text edge list, one
  ``u v`` per line / each vertex's smallest component member;
- ``compaction`` (EREW): an ``.npz`` of ``values`` and ``marks`` / the marked values;
- ``max-loglog`` and ``max-cascading`` (CRCW common; control CREW): a ``.npy`` / [max];
- ``selection`` (EREW): a ``.npy`` and ``--k`` (default n // 2) / [the k-th smallest].

Data only: the table of every entry is :mod:`pram.reports.entries`; the report's section is
:mod:`pram.reports.catalogue`. The bound formulas are in :mod:`pram.reports.formulas`.

>>> from pram.reports.measure import execute
>>> run = execute("components", Options(n=64, model="crcw-arbitrary"))
>>> run.correct, run.violations, run.sizes
(True, 0, {'n': 64, 'e': 64})
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from pram import InputError, Machine, Words, words
from pram.algorithms import cascading, compaction, components, contraction, euler, ranking
from pram.algorithms import selection as selecting
from pram.algorithms.acting import NIL, find_root
from pram.reports.classics import LIST, SPREAD, build_values, load_values
from pram.reports.formulas import (
    BITS_TIME,
    BITS_WORK,
    EDGES_LOG,
    LINEAR,
    LOG,
    LOG_LOG,
    LOG_SQUARED,
    N_LOG_LOG,
    N_LOG_SQUARED,
)
from pram.reports.registry import (
    Algorithm,
    Instance,
    Options,
    Solution,
    family_of_n,
    load_arrays,
    sizes_of,
    solve_with,
    unreadable,
    work_and_time,
)


def _bytes(per: float, logs: int = 0) -> Callable[[Mapping[str, int], Options], float]:
    """A size guard's estimate, ``per * n * log2(n)^logs`` bytes: about twice the tracemalloc
    peaks measured at n = 4096 and 16384 (the coins of a random-mate ranking, R = O(log n)
    per node, make the log)."""

    def need(sizes: Mapping[str, int], options: Options) -> float:
        n = float(max(sizes["n"], 2))
        return per * n * math.log2(n) ** logs

    return need


def _graph_bytes(sizes: Mapping[str, int], options: Options) -> float:
    """The size guard's estimate for components: 550 bytes per vertex and per edge (twice
    the peaks measured at n = e = 4096 and 16384)."""
    return 550.0 * (sizes["n"] + sizes.get("e", sizes["n"]))


def _within(where: str, error: InputError) -> InputError:
    """A program's own refusal of its input, said of the file it came from."""
    return InputError(f"{where}: {error}")


# ---- list ranking by random mate: the list family of list-ranking ----------------------------


def _solve_random_mate(m: Machine, instance: Instance, options: Options) -> Solution:
    ranks = ranking.random_mate_ranking(m, instance.data["successors"], seed=options.seed)
    return Solution(ranks, sizes_of(instance))


# ---- the Euler tour: a tree as an edge array ---------------------------------------------------

TREE_INPUT = "a .npy file holding an (n - 1, 2) integer array: the edges u v of a tree on 0..n-1"


def _tree_build(options: Options, rng: np.random.Generator) -> Instance:
    """A random recursive tree on n vertices (vertex i > 0 hangs below a random earlier one),
    relabelled at random, its edges shuffled and each edge's ends in a random order."""
    n = options.n or 1024
    below = np.array([int(rng.integers(0, i)) for i in range(1, n)], dtype=np.int64)
    label = rng.permutation(n).astype(np.int64)
    pairs = np.stack([label[np.arange(1, n)], label[below]], axis=1).reshape(-1, 2)
    pairs = pairs[rng.permutation(len(pairs))]
    flip = rng.integers(0, 2, size=len(pairs)).astype(bool)
    pairs[flip] = pairs[flip][:, ::-1]
    return Instance({"edges": pairs.astype(np.int64)}, {"n": n})


def _tree_load(path: str, options: Options) -> Instance:
    raw = load_edge_array(path, TREE_INPUT)
    edges = words(raw, f"the array in {path!r}", ndim=2) if raw.size else np.zeros((0, 2),
                                                                                    np.int64)
    try:
        euler._tree(edges, 0)  # the program's own check, before any run
    except InputError as error:
        raise _within(f"input file {path!r}", error) from None
    return Instance({"edges": edges}, {"n": len(edges) + 1})


def load_edge_array(path: str, what: str) -> np.ndarray[Any, Any]:
    """The one array of the ``.npy`` file ``path``, as stored: :func:`load_array` takes 1-d
    arrays only, and a tree's edges are an (n - 1, 2) array."""
    file = Path(path)
    if file.suffix == ".npz":
        raise InputError(f"input file {path!r} is an .npz archive; it must be {what}")
    if not file.exists():
        raise InputError(f"input file {path!r} does not exist; give the path of {what}")
    if file.is_dir():
        raise InputError(f"input file {path!r} is a directory; give the path of {what}")
    try:
        data = np.load(file, allow_pickle=False)
    except Exception as error:  # every way a file can be broken: one line
        raise unreadable(path, ".npy", what, "input file", error) from None
    if isinstance(data, np.lib.npyio.NpzFile):
        data.close()
        raise InputError(f"input file {path!r} is an .npz archive; it must be {what}")
    return np.asarray(data)


def _tree_reference(instance: Instance) -> Words:
    """Parent, depth, preorder number and subtree size of every vertex, by a depth-first walk
    on the host that visits a vertex's neighbours in the order of its edges, starting after
    the edge to its parent (the order of the Euler tour)."""
    edges = instance.data["edges"].tolist()
    n = len(edges) + 1
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        neighbours[u].append(v)
        neighbours[v].append(u)
    parent, depth, preorder, size = [NIL] * n, [0] * n, [0] * n, [1] * n
    order = [0]
    stack = [0]
    while stack:
        v = stack.pop()
        around = neighbours[v]
        start = 0 if v == 0 else around.index(parent[v]) + 1
        children = [w for w in around[start:] + around[:start] if w != parent[v]]
        for w in reversed(children):
            parent[w], depth[w] = v, depth[v] + 1
            stack.append(w)
        if v != 0:
            preorder[v] = len(order)
            order.append(v)
    for v in reversed(order[1:]):
        size[parent[v]] += size[v]
    return np.array([parent, depth, preorder, size], dtype=np.int64).T.copy()


TREE = family_of_n("tree", _tree_build, _tree_load, _tree_reference, "a depth-first walk")


def _solve_euler(m: Machine, instance: Instance, options: Options) -> Solution:
    rooted = euler.euler_tour(m, instance.data["edges"], 0, seed=options.seed)
    table = np.stack([rooted.parent, rooted.depth, rooted.preorder, rooted.size], axis=1)
    return Solution(table.astype(np.int64), sizes_of(instance))


# ---- tree contraction: expression trees ---------------------------------------------------------

EXPRESSION_INPUT = (
    "an .npz file holding integer arrays 'left', 'right', 'op' and 'value' of one length: a "
    "full binary tree rooted at node 0 (children -1 at a leaf, op 0 for + and 1 for *)"
)
EXPRESSION_ARRAYS = ("left", "right", "op", "value")


def _expression_build(options: Options, rng: np.random.Generator) -> Instance:
    """A random full binary tree with n leaves (2n - 1 nodes), grown by splitting a random
    leaf n - 1 times; random operators, leaf values in -9..9."""
    leaves = options.n or 1024
    left, right = [NIL], [NIL]
    tips = [0]
    for _ in range(leaves - 1):
        k = int(rng.integers(0, len(tips)))
        node = tips[k]
        a, b = len(left), len(left) + 1
        left[node], right[node] = a, b
        left += [NIL, NIL]
        right += [NIL, NIL]
        tips[k] = a
        tips.append(b)
    count = len(left)
    op = rng.integers(0, 2, size=count).astype(np.int64)
    value = rng.integers(-9, 10, size=count).astype(np.int64)
    internal = np.array(left) != NIL
    op[~internal] = 0
    value[internal] = 0
    data = {"left": np.array(left, dtype=np.int64), "right": np.array(right, dtype=np.int64),
            "op": op, "value": value}
    return Instance(data, {"n": leaves})


def _expression_load(path: str, options: Options) -> Instance:
    data = load_arrays(path, EXPRESSION_ARRAYS, EXPRESSION_INPUT)
    try:
        contraction._tree(*(data[k] for k in EXPRESSION_ARRAYS))  # the program's own check
    except InputError as error:
        raise _within(f"input file {path!r}", error) from None
    return Instance(data, {"n": (len(data["left"]) + 1) // 2})


def _expression_reference(instance: Instance) -> Words:
    """The tree's value by a post-order walk on the host over Python integers, reduced modulo
    2^64 to int64 as the machine's arithmetic wraps."""
    left, right = instance.data["left"].tolist(), instance.data["right"].tolist()
    op, value = instance.data["op"].tolist(), instance.data["value"].tolist()
    result = [0] * len(left)
    stack = [(0, False)]
    while stack:
        node, ready = stack.pop()
        if left[node] == NIL:
            result[node] = value[node]
        elif ready:
            a, b = result[left[node]], result[right[node]]
            whole = a + b if op[node] == contraction.PLUS else a * b
            result[node] = (whole + 2**63) % 2**64 - 2**63
        else:
            stack += [(node, True), (left[node], False), (right[node], False)]
    return np.array([result[0]], dtype=np.int64)


EXPRESSION = family_of_n("expression", _expression_build, _expression_load,
                         _expression_reference, "a post-order evaluation", symbol="leaves")


def _solve_expression(m: Machine, instance: Instance, options: Options) -> Solution:
    found = contraction.evaluate(m, *(instance.data[k] for k in EXPRESSION_ARRAYS),
                                 seed=options.seed)
    return Solution(np.array([found], dtype=np.int64), sizes_of(instance))


# ---- connected components: edge lists ----------------------------------------------------------


def _graph_build(options: Options, rng: np.random.Generator) -> Instance:
    """n vertices and n random edges (average degree 2): one large component and many small
    ones, and some isolated vertices."""
    n = options.n or 1024
    edges = rng.integers(0, n, size=(n, 2), dtype=np.int64)
    return Instance({"edges": edges}, {"n": n, "e": n})


def _graph_load(path: str, options: Options) -> Instance:
    n, edges = components.read_edges(path)
    return Instance({"edges": edges}, {"n": n, "e": len(edges)})


def smallest_members(labels: Words) -> Words:
    """Each vertex's component named by its smallest vertex: ``labels`` renamed so that two
    runs that find one partition give one array (a host-side renaming after the run).

    >>> smallest_members(np.array([4, 4, 2, 4, 2])).tolist()
    [0, 0, 2, 0, 2]
    """
    first: dict[int, int] = {}
    out = [first.setdefault(label, v) for v, label in enumerate(labels.tolist())]
    return np.array(out, dtype=np.int64)


def _graph_reference(instance: Instance) -> Words:
    """Union-find on the host (by smaller root, with path halving): each vertex's smallest
    component member."""
    n = instance.sizes["n"]
    root = list(range(n))
    for u, v in instance.data["edges"].tolist():
        a, b = find_root(root, u), find_root(root, v)
        if a != b:
            root[max(a, b)] = min(a, b)
    return np.array([find_root(root, v) for v in range(n)], dtype=np.int64)


GRAPH = family_of_n("graph", _graph_build, _graph_load, _graph_reference, "union-find")


def _solve_components(m: Machine, instance: Instance, options: Options) -> Solution:
    found = components.connected_components(m, instance.sizes["n"], instance.data["edges"])
    note = (f"{found.rounds} hooking rounds run, ended by {found.tests} loop tests of the "
            f"round's flag in memory; {found.busy} of them changed a pointer")
    return Solution(smallest_members(found.labels), sizes_of(instance), notes=(note,))


# ---- compaction: values and marks ---------------------------------------------------------------

MARKED_INPUT = "an .npz file holding integer arrays 'values' and 'marks' of one length n >= 1"


def _marked_build(options: Options, rng: np.random.Generator) -> Instance:
    n = options.n or 1024
    values = rng.integers(-SPREAD, SPREAD + 1, size=n, dtype=np.int64)
    marks = rng.integers(0, 2, size=n, dtype=np.int64)
    return Instance({"values": values, "marks": marks}, {"n": n})


def _marked_load(path: str, options: Options) -> Instance:
    data = load_arrays(path, ("values", "marks"), MARKED_INPUT)
    n, k = len(data["values"]), len(data["marks"])
    if n == 0 or k != n:
        raise InputError(f"input file {path!r} holds {n} values and {k} marks; give one mark "
                         "per value, at least one value")
    return Instance(data, {"n": n})


def _marked_reference(instance: Instance) -> Words:
    kept: Words = instance.data["values"][instance.data["marks"] != 0].astype(np.int64)
    return kept


MARKED = family_of_n("marked", _marked_build, _marked_load, _marked_reference,
                     "numpy selection by the marks")


# ---- maximum and selection: values -------------------------------------------------------------


def _max_reference(instance: Instance) -> Words:
    return np.array([instance.data["values"].max()], dtype=np.int64)


TOP = family_of_n("top", build_values, load_values, _max_reference, "numpy max")


def _rank_of(instance: Instance, options: Options, where: str) -> Instance:
    n = instance.sizes["n"]
    k = n // 2 if options.k is None else options.k
    if not 0 <= k < n:
        raise InputError(f"--k {k} is not a rank among the {n} values of {where}; give --k in "
                         f"0..{n - 1}, or leave it out for the median (k = n // 2)")
    return Instance(instance.data, {"n": n, "k": k})


def _select_build(options: Options, rng: np.random.Generator) -> Instance:
    return _rank_of(build_values(options, rng), options, "the random instance")


def _select_load(path: str, options: Options) -> Instance:
    return _rank_of(load_values(path, options), options, f"{path!r}")


def _select_reference(instance: Instance) -> Words:
    return np.sort(instance.data["values"])[[instance.sizes["k"]]].astype(np.int64)


RANKED = family_of_n("ranked", _select_build, _select_load, _select_reference, "numpy.sort")


def _solve_select(m: Machine, instance: Instance, options: Options) -> Solution:
    values = instance.data["values"]
    bits = selecting.value_bits(values)
    found = selecting.select(m, values, instance.sizes["k"], bits=bits)
    sizes = {"n": float(instance.sizes["n"]), "b": float(bits)}
    return Solution(np.array([found], dtype=np.int64), sizes,
                    notes=(f"b = {bits}: the bits two's complement needs for every value",))


# ---- the entries ----------------------------------------------------------------------------

ENTRIES = (
    Algorithm("list-ranking-random",
              "List ranking by random mate: O(n) expected work (Miller and Reif; JaJa 3.1)",
              LIST, _solve_random_mate, work_and_time(LINEAR, LOG), memory=_bytes(90, 1)),
    Algorithm("euler-tour",
              "Rooting and numbering a tree by the Euler tour (Tarjan and Vishkin; JaJa 3.2)",
              TREE, _solve_euler, work_and_time(N_LOG_SQUARED, LOG_SQUARED),
              memory=_bytes(320, 1)),
    Algorithm("tree-contraction",
              "Expression trees by rake tree contraction (Abrahamson et al.; JaJa 3.3)",
              EXPRESSION, _solve_expression, work_and_time(LINEAR, LOG), memory=_bytes(450, 1)),
    Algorithm("components",
              "Connected components by hooking and shortcutting (Shiloach and Vishkin; JaJa 5.1)",
              GRAPH, _solve_components, work_and_time(EDGES_LOG, LOG), model="crcw-arbitrary",
              memory=_graph_bytes),
    Algorithm("compaction", "Compaction by prefix sums (Blelloch; JaJa 2.1)", MARKED,
              solve_with(compaction.compact, "values", "marks"), work_and_time(LINEAR, LOG),
              memory=_bytes(280)),
    Algorithm("max-loglog",
              "Maximum in O(log log n) time by the doubly logarithmic tree (Valiant; JaJa 2.6)",
              TOP, solve_with(cascading.doubly_log_max, "values"),
              work_and_time(N_LOG_LOG, LOG_LOG), model="crcw-common", memory=_bytes(580)),
    Algorithm("max-cascading",
              "Maximum with O(n) work by accelerated cascading (Cole and Vishkin; JaJa 2.6)",
              TOP, solve_with(cascading.cascade_max, "values"), work_and_time(LINEAR, LOG_LOG),
              model="crcw-common", memory=_bytes(220)),
    Algorithm("selection",
              "Selection by radix counting, counts by accelerated cascading (JaJa 2.6)",
              RANKED, _solve_select, work_and_time(BITS_WORK, BITS_TIME), memory=_bytes(130)),
)

#: The negative controls: each entry that needs concurrent access under each weaker model that
#: must flag it (components: concurrent reads are not enough, nor a common value).
CONTROLS: tuple[tuple[str, str], ...] = (
    ("components", "crew"),
    ("components", "crcw-common"),
    ("max-loglog", "crew"),
    ("max-cascading", "crew"),
)

__all__ = ["CONTROLS", "ENTRIES", "smallest_members"]
