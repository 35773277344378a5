"""The circuits ``pram circuit`` builds, and the one loop that records and checks them (H.7.6).

For an algorithm (a :class:`Target` of :data:`TARGETS`) and its sizes (a :class:`Setup`),
:func:`build`

1. runs the program on four inputs of the same size (random, all equal, sorted, reversed) with a
   :class:`pram.oblivious.Trace` each, and stops at a program whose traces part (the
   :class:`~pram.oblivious.Witness`);
2. records the run on a random input with a :class:`pram.circuit.Recorder`;
3. compares the independent evaluator (:func:`pram.circuit.evaluate`) with the machine on
   ``CHECKS`` more random inputs (the evaluator agreement).

Every circuit of the command and of the report goes through :func:`build`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from pram import InputError, Machine, Words
from pram.algorithms import comparator_networks, networks, pbs, prefix_circuits
from pram.algorithms.sorting import Level
from pram.circuits.circuit import Circuit, Recorder, evaluate
from pram.circuits.monoid import ScanCheck, scan_check
from pram.circuits.oblivious import Trace, Witness, difference
from pram.reports import circuit_mqar

#: Random inputs on which the evaluator is checked against the machine.
CHECKS = 20
#: The inputs compared for obliviousness, the first against each other.
KINDS = ("random", "all equal", "sorted", "reversed")
#: Export formats.
FORMATS = ("json", "bristol", "dot")
#: Widest token with bit keys.
MAX_D = 64
#: Widest token the host draws or reads (int64); wider circuits are checked on such tokens.
HOST_D = 62


@attrs.frozen
class Setup:
    """What the user asked for."""

    algorithm: str
    n: int
    d: int
    keys: str
    network: str

    @property
    def bits(self) -> bool:
        """Whether tokens are d bit wires (else one word wire)."""
        return self.keys == "bits"

    @property
    def top(self) -> int:
        """Tokens are below this: 2^d with bit keys (2^62 at most: host tokens are int64), any
        non-negative word below 2^62 else."""
        return 1 << min(self.d, HOST_D) if self.bits else 1 << HOST_D


@attrs.frozen
class Target:
    """One ALGORITHM of ``pram circuit``.

    ``tokens(setup)`` is the number of input tokens; ``draw(rng, kind, setup)`` an input of that
    many (``kind`` one of :data:`KINDS`); ``run(m, tokens, setup, recorder)`` runs the program on
    a fresh machine (declaring the recorder's inputs and outputs when it is given) and returns
    the output tokens. ``default_n`` is used when ``--n`` is not given.
    """

    tokens: Callable[[Setup], int]
    draw: Callable[[np.random.Generator, str, Setup], Words]
    run: Callable[[Machine, Words, Setup, Recorder | None], Words]
    default_n: int = 16
    model: str = "erew"
    #: The model by network, where the networks of the target differ (else ``model``).
    models: dict[str, str] | None = None
    size_problem: Callable[[int], str | None] = lambda n: None
    #: A scan: its circuit is also checked on the interval monoid (:mod:`pram.monoid`).
    scan: bool = False


# ---- the targets -----------------------------------------------------------------------------


def _power_of_two(n: int) -> str | None:
    if n < 2 or n & (n - 1):
        return f"--n {n} must be a power of two, at least 2 (e.g. {max(2, 1 << n.bit_length())})"
    return None


def _draw(rng: np.random.Generator, kind: str, count: int, top: int) -> Words:
    values = rng.integers(0, top, count, dtype=np.int64)
    if kind == "all equal":
        return np.full(count, values[0], dtype=np.int64)
    if kind == "sorted":
        return np.sort(values)
    if kind == "reversed":
        return np.sort(values)[::-1].copy()
    return values


def _draw_halves(rng: np.random.Generator, kind: str, setup: Setup) -> Words:
    """Two sorted runs of n/2 (what a merge takes); ``reversed`` puts the larger run first."""
    values = _draw(rng, kind, setup.n, setup.top)
    half = setup.n // 2
    first, second = np.sort(values[:half]), np.sort(values[half:])
    if kind == "reversed":
        first, second = np.sort(values)[half:], np.sort(values)[:half]
    return np.concatenate([first, second])


def _keys_run(
    levels: Callable[[Setup], list[Level]],
) -> Callable[[Machine, Words, Setup, Recorder | None], Words]:
    def run(m: Machine, tokens: Words, setup: Setup, recorder: Recorder | None) -> Words:
        d = setup.d if setup.bits else 0
        a = networks.store_bits(m, "keys", tokens, d) if d else m.array("keys", values=tokens)
        if recorder is not None:
            recorder.width = d or 1
            recorder.input(a, bits=setup.bits)
        m.run(networks.run_levels(m, a, levels(setup), d=d))
        if recorder is not None:
            recorder.output(a)
        return networks.load_bits(a, d) if d else a.to_numpy()

    return run


def _one_comparator(setup: Setup) -> list[Level]:
    return [Level(1, lambda r: (r * 0, r * 0 + 1))]




def _pbs_run(m: Machine, tokens: Words, setup: Setup, recorder: Recorder | None) -> Words:
    half = setup.n
    return pbs.search(m, tokens[:half], tokens[half:])


def _prefix_sums_run(
    m: Machine, tokens: Words, setup: Setup, recorder: Recorder | None
) -> Words:
    """The prefix circuit ``setup.network`` (Brent and Kung's by default, the project's
    :func:`~pram.algorithms.primitives.prefix_sums`), inputs and outputs the same cells."""
    a = m.array("values", values=tokens)
    if recorder is not None:
        recorder.input(a)
    m.run(prefix_circuits.prefix_sums(m, a, setup.network))
    if recorder is not None:
        recorder.output(a)
    return a.to_numpy()


def _pbs_draw(rng: np.random.Generator, kind: str, setup: Setup) -> Words:
    """n sorted queries then n sorted keys, from one drawn sequence of 2n tokens."""
    values = _draw(rng, kind, 2 * setup.n, setup.top)
    queries, keys = values[: setup.n], values[setup.n :]
    return np.concatenate([np.sort(queries), np.sort(keys)])


#: The algorithms of ``pram circuit``, in the order of the contract: one table.
TARGETS: dict[str, Target] = {
    "sort": Target(
        tokens=lambda s: s.n,
        draw=lambda rng, kind, s: _draw(rng, kind, s.n, s.top),
        run=_keys_run(lambda s: networks.levels("sort", s.network, s.n)),
    ),
    "merge": Target(
        tokens=lambda s: s.n,
        draw=_draw_halves,
        run=_keys_run(lambda s: networks.levels("merge", s.network, s.n)),
        size_problem=_power_of_two,
    ),
    "compare": Target(
        tokens=lambda s: 2,
        draw=lambda rng, kind, s: _draw(rng, kind, 2, s.top),
        run=_keys_run(_one_comparator),
        default_n=2,
    ),
    # the oblivious MQAR: N word tokens in, one answer per triple out
    "mqar": Target(
        tokens=lambda s: s.n,
        draw=circuit_mqar.draw,
        run=circuit_mqar.run,
        default_n=circuit_mqar.DEFAULT_N,
        size_problem=circuit_mqar.size_problem,
    ),
    "pbs": Target(tokens=lambda s: 2 * s.n, draw=_pbs_draw, run=_pbs_run),
    # a scan: words below 2^20, so that the sums of the check stay far from wrapping
    "prefix-sums": Target(
        tokens=lambda s: s.n,
        draw=lambda rng, kind, s: _draw(rng, kind, s.n, 1 << 20),
        run=_prefix_sums_run,
        models=prefix_circuits.MODELS,
        scan=True,
    ),
}

#: The algorithms the command knows, in the order of the contract.
NAMES = tuple(TARGETS)

#: The networks each algorithm with a choice of network takes (``--network``), its default
#: first: any sorting network of :mod:`pram.algorithms.comparator_networks` for sort, Batcher's
#: two merges, the prefix circuits of :mod:`pram.algorithms.prefix_circuits`.
NETWORKS: dict[str, tuple[str, ...]] = {
    "sort": comparator_networks.SORTERS,
    "merge": ("bitonic", "odd-even"),
    "prefix-sums": prefix_circuits.PREFIX_NETWORKS,
}


# ---- building and checking ---------------------------------------------------------------------


@attrs.frozen(eq=False)
class Built:
    """What ``pram circuit`` found: the circuit, or the witness that there is none."""

    setup: Setup
    circuit: Circuit | None
    witness: Witness | None
    checked: dict[str, Any] | None
    #: For a scan, the interval-monoid check of its circuit (else None).
    scan: ScanCheck | None = None

    @property
    def ok(self) -> bool:
        """Oblivious, the evaluator agreed with the machine, and a scan scans."""
        return (self.circuit is not None and bool(self.checked and self.checked["equal"])
                and (self.scan is None or self.scan.ok))

    def as_dict(self) -> dict[str, Any]:
        """The ``--json`` object of the contract."""
        s = self.setup
        out: dict[str, Any] = {
            "algorithm": s.algorithm,
            "n": s.n,
            "d": s.d,
            "keys": s.keys,
            "oblivious": self.circuit is not None,
        }
        if s.algorithm in NETWORKS:
            out["network"] = s.network
        c = self.circuit
        if c is None:
            assert self.witness is not None
            out["witness"] = self.witness.as_dict()
            return out
        out |= {
            "gates": c.by_kind,
            "size": c.size,
            "depth": c.depth,
            "inputs": len(c.inputs),
            "outputs": len(c.outputs),
            "checked": self.checked,
        }
        if self.scan is not None:
            out["scan"] = {"every_operator": self.scan.ok, "message": self.scan.message}
        return out


def target(name: str) -> Target:
    """The target called ``name``, or an InputError naming the fix."""
    found = TARGETS.get(name)
    if found is None:
        raise InputError(f"unknown circuit {name!r}; choose one of {', '.join(NAMES)}")
    return found


def setup(
    name: str, n: int | None, d: int | None, keys: str | None, network: str | None = None
) -> Setup:
    """Validate the options of ``pram circuit``."""
    t = target(name)
    n = t.default_n if n is None else n
    if name == "compare" and n != 2:
        raise InputError(f"--n {n}: compare takes two tokens; leave --n out")
    problem = t.size_problem(n)
    if problem:
        raise InputError(problem)
    network = _network(name, n, network)
    if keys is None:  # compare: Definition H.31 on d-bit tokens, with Lemma H.32's network
        keys = "bits" if name == "compare" else "word"
    width = (8 if keys == "bits" else 1) if d is None else d
    if not 1 <= width <= MAX_D:
        raise InputError(f"--d {width} must be from 1 to {MAX_D}")
    return Setup(name, n, width, keys, network)


def _network(name: str, n: int, network: str | None) -> str:
    """The network of ``name`` (its default when None), checked against ``name`` and ``n``."""
    known = NETWORKS.get(name)
    if known is None:
        return "bitonic" if network is None else network  # refused before, by the command
    if network is None:
        return known[0]
    if network not in known:
        raise InputError(f"--network {network} is not a network of circuit {name}; choose "
                         f"one of {', '.join(known)}")
    if name == "sort":
        if n < 1:
            raise InputError(f"--n {n}: a sort takes at least one token; give --n 1 or more")
        if network == "best-known" and n > comparator_networks.BEST_KNOWN_MAX:
            top = comparator_networks.BEST_KNOWN_MAX
            raise InputError(f"--n {n}: the best known networks are stored for n = 1..{top}; "
                             f"give --n {top} or less, or --network merge-exchange")
    return network


def _machine(model: str, observer: Any) -> Machine:
    m = Machine(model)
    m.observer = observer
    return m


def build(s: Setup, *, seed: int = 0, checks: int = CHECKS) -> Built:
    """Check obliviousness, record the circuit, and check the evaluator against the machine."""
    t = target(s.algorithm)
    model = t.model if t.models is None else t.models[s.network]
    rng = np.random.default_rng(seed)
    inputs = [t.draw(rng, kind, s) for kind in KINDS]
    traces = []
    for tokens in inputs:
        trace = Trace()
        t.run(_machine(model, trace), tokens, s, None)
        traces.append(trace)
    for kind, trace in zip(KINDS[1:], traces[1:], strict=True):
        witness = difference(traces[0], trace)
        if witness is not None:
            return Built(s, None, witness.named(KINDS[0], kind), None)
    recorder = Recorder()
    t.run(_machine(model, recorder), inputs[0], s, recorder)
    circuit = recorder.circuit()
    samples = np.stack([t.draw(rng, "random", s) for _ in range(checks)])
    machine = np.stack([t.run(Machine(model), row, s, None) for row in samples])
    by_circuit = tokens_out(s, evaluate(circuit, wires_in(s, samples)))
    checked = {"inputs": checks, "equal": bool(np.array_equal(machine, by_circuit))}
    return Built(s, circuit, None, checked, scan_check(circuit) if t.scan else None)


def wires_in(s: Setup, tokens: Words) -> Words:
    """Rows of tokens as rows of input wire values (d bits each, least significant first)."""
    if not s.bits:
        return tokens
    shifts = np.arange(s.d, dtype=np.int64)
    bits: Words = ((tokens[:, :, None] >> shifts) & 1).reshape(len(tokens), -1)
    return bits


def tokens_out(s: Setup, wires: Words) -> Words:
    """Rows of output wire values as rows of tokens."""
    if not s.bits:
        return wires
    shifts = np.arange(s.d, dtype=np.int64)
    tokens: Words = (wires.reshape(len(wires), -1, s.d) << shifts).sum(axis=2)
    return tokens


__all__ = [
    "CHECKS", "HOST_D", "KINDS", "MAX_D", "NAMES", "TARGETS", "Built", "Setup", "Target",
    "build", "setup", "target", "tokens_out", "wires_in",
]
