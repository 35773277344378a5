"""The entries that run batched: many instances of one size on one machine, in lockstep.

An entry's ``solve`` takes one instance and calls an algorithm's front door, which checks its
host input as one flat array; a batched run hands the same program one row per instance
instead. Each solver here stacks the instances' arrays (:func:`pram.reports.registry.stack`),
allocates them on a ``Machine(batch=B)``, runs the entry's program once for all of them and
returns one :class:`Solution` per instance: the same answer and bound sizes as the entry's own
``solve`` on that instance (tests/test_instances.py compares every count of every instance with
its single run).

Entries without a solver here (and options a solver does not take, such as bit keys) run one
instance per machine; the summary is the same either way, only slower.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs
import numpy as np

from pram import Array, Machine, Program, phase
from pram.algorithms import catalogue, comparator_networks, mqar, pbs, primitives, sorting
from pram.algorithms.keys import WordKeys
from pram.reports.algorithms import merge_network
from pram.reports.registry import Instance, Options, Solution, stack

#: A batched solver: the instances (one size) on a batched machine, one solution each.
Solver = Callable[[Machine, Sequence[Instance], Options], list[Solution]]


def _sort(m: Machine, instances: Sequence[Instance], options: Options) -> list[Solution]:
    """:func:`pram.algorithms.sorting.sort` on every instance at once (word keys)."""
    values = stack(instances, "values")
    n = values.shape[1]
    padded = options.network in sorting.NETWORKS  # Batcher's two pad to a power of two
    size = 1 << (n - 1).bit_length() if padded else n
    keys = WordKeys()
    filler = np.full((len(instances), size - n), keys.largest, dtype=np.int64)
    key = m.array("sort/key", values=np.concatenate([values, filler], axis=1))
    index = m.array("sort/index", values=np.arange(size, dtype=np.int64))
    if options.network == "odd-even":
        m.run(sorting.sort_blocks(m, keys, key, index, size=size, network="odd-even"))
    elif padded:
        m.run(sorting.sort_blocks(m, keys, key, index, size=size, network="bitonic"))
    else:
        levels = comparator_networks.levels(options.network, n)
        m.run(sorting.sort_network(m, keys, key, index, levels))
    notes: tuple[str, ...] = ()
    if size > n:
        notes = (f"n = {n} padded with {size - n} records to {size}, a power of two; padding "
                 "sorts after every real record",)
    sizes = {"n": float(size), "d": 1.0}
    return [Solution(row[:n], sizes, notes) for row in key.to_numpy()]


def _search(m: Machine, instances: Sequence[Instance], options: Options) -> list[Solution]:
    """Algorithm 10 (:func:`pram.algorithms.pbs.search`) on every instance at once (word
    keys)."""
    queries, keys = stack(instances, "queries"), stack(instances, "keys")
    n, size = queries.shape[1], keys.shape[1]
    word = WordKeys()
    zero = np.zeros(1, dtype=np.int64)
    found = m.run(pbs.search_blocks(
        m, word, m.array("pbs.queries", values=queries), m.array("pbs.keys", values=keys),
        q_start=zero, q_count=np.array([n]), k_start=zero, k_count=np.array([size]),
        name="pbs"))
    sizes = _search_sizes(instances[0])
    return [Solution(row, sizes) for row in found.index.to_numpy()]


@attrs.frozen
class Stacked(mqar.Layout):
    """The layouts of instances of one size, one row per instance (``(B, T)`` columns), for
    Algorithm 11 on a batched machine."""

    @property
    def triples(self) -> int:
        """``T = 2**levels``: the triples each instance runs on (a row's length)."""
        return int(self.keys.shape[-1])


def stacked(layouts: Sequence[mqar.Layout]) -> Stacked:
    """The layouts of one size (as :func:`pram.algorithms.mqar.layout` makes them), stacked."""
    first = layouts[0]
    return Stacked(
        keys=np.stack([lay.keys for lay in layouts]),
        values=np.stack([lay.values for lay in layouts]),
        queries=np.stack([lay.queries for lay in layouts]),
        answered=first.answered,
        tokens=first.tokens,
        padding=first.padding,
        levels=first.levels,
    )


def _recall(m: Machine, instances: Sequence[Instance], options: Options) -> list[Solution]:
    """Algorithm 11 (:func:`pram.algorithms.mqar.recall`) on every instance at once (word
    keys, Algorithm 10 in the blocks)."""
    layouts = [mqar.layout(i.data["tokens"]) for i in instances]
    lay = stacked(layouts)
    network = merge_network(options)
    answers, indices = m.run(mqar.program(m, WordKeys(), lay, sort=options.sort,  # type: ignore[arg-type]
                                          network=network))
    out = []
    for row, index, layout in zip(answers.to_numpy(), indices.to_numpy(), layouts, strict=True):
        real = slice(0, layout.answered)
        result = mqar.Recall(row[real], layout.tokens, layout.padding, layout.levels, index[real])
        sizes = {"N": float(3 << result.levels), "d": 1.0}
        out.append(Solution(result.answers, sizes, (result.note,) if result.padded else ()))
    return out


def _search_sizes(instance: Instance) -> dict[str, float]:
    return {"n": float(instance.sizes["n"]), "m": float(instance.sizes["m"]), "d": 1.0}


def _catalogue(
    label: str, program: Callable[[Machine, Array, int, Array], Program[None]], out: int | None
) -> Solver:
    """A batched solver for a catalogue program of one ``values`` array written to ``label/out``
    (``out`` cells, None: n), as :mod:`pram.algorithms.catalogue`'s front doors run it."""

    def solve(m: Machine, instances: Sequence[Instance], options: Options) -> list[Solution]:
        values = stack(instances, "values")
        n = values.shape[1]
        cells = m.array(f"{label}/values", values=values)
        answer = m.array(f"{label}/out", size=n if out is None else out)
        m.run(phase(label, program(m, cells, n, answer)))
        return [Solution(row, _sizes(instances[0])) for row in answer.to_numpy()]

    return solve


def _sizes(instance: Instance) -> dict[str, float]:
    return {k: float(v) for k, v in instance.sizes.items()}


def _list_ranking(m: Machine, instances: Sequence[Instance], options: Options) -> list[Solution]:
    """The catalogue's list ranking (pointer jumping, EREW) on every instance at once."""
    successors = stack(instances, "successors")
    n = successors.shape[1]
    nxt = m.array("list-ranking/next", values=successors)
    rank = m.array("list-ranking/rank", size=n)
    m.run(phase("list-ranking", catalogue.rank_list(m, nxt, rank, n)))
    return [Solution(row, _sizes(instances[0])) for row in rank.to_numpy()]


def _sums(m: Machine, instances: Sequence[Instance], options: Options) -> list[Solution]:
    """The catalogue's prefix sums (Brent and Kung) on every instance at once."""
    values = stack(instances, "values")
    sums = m.array("prefix-sums", values=values)
    m.run(phase("prefix-sums", primitives.prefix_sums(m, sums, values.shape[1])))
    return [Solution(row, _sizes(instances[0])) for row in sums.to_numpy()]


def _word_keys(options: Options) -> bool:
    return options.keys == "word"


def _any(options: Options) -> bool:
    return True


#: The batched solvers by entry name, each with the options it takes (others run one by one).
#: Only where a batch pays (the whole of ``run_instances``, batched against one by one, one
#: run each on the shared machine): 128 instances of prefix sums at n = 1,024 took 11x less
#: time, 64 sorts of 1,024 values 14x, 100 pbs searches of 1,024 queries 10x, 20 runs of
#: Algorithm 11 at N = 3,072 5x, 64 list rankings of 256 links 3.6x, 128 rank sorts of 64 values
#: 1.4x. The programs whose steps are large and read concurrently
#: took as long or longer batched (merge 0.6x to 1.5x, matrix multiply 0.8x, max 0.8x to 1.0x,
#: the naive search 0.9x), so they run one by one.
SOLVERS: dict[str, tuple[Solver, Callable[[Options], bool]]] = {
    "sort": (_sort, _word_keys),
    "prefix-sums": (_sums, _any),
    "rank-sort": (_catalogue("rank-sort", catalogue.sort_by_rank, None), _any),
    "pbs": (_search, _word_keys),
    "list-ranking": (_list_ranking, _any),
    "mqar": (_recall, lambda options: options.keys == "word" and options.search == "pbs"),
}




def solver(name: str, options: Options) -> Solver | None:
    """The batched solver of entry ``name`` for ``options``, or None (run one by one).

    CRCW arbitrary draws its choices from the machine's seed, which a single run takes from the
    instance's seed; a batched machine has one seed, so those runs go one by one.
    """
    found = SOLVERS.get(name)
    if found is None or not found[1](options) or options.model == "crcw-arbitrary":
        return None
    return found[0]


__all__ = ["SOLVERS", "Solver", "Stacked", "solver"]
