"""Cell depths (``Machine(depth=True)``, :mod:`pram.depth`): hand-checked programs, the bound
``depth <= time`` on real runs, no count moved by recording them, and ``pram run --depth``."""

from __future__ import annotations

import json
from collections.abc import Generator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pram import Array, HonestyError, InputError, Machine, Read, Step, Write, hold, iota
from pram.algorithms.primitives import prefix_sums
from pram.reports.cli import main
from pram.reports.measure import execute
from pram.reports.options import Options
from pram.run import current
from pram.step import Program
from tests.commands import one_line_error


def tree_sum(m: Machine, a: object, n: int) -> Program[None]:
    """Sum ``a[0:n]`` (n a power of two) into ``a[0]``: each level, processor i reads cells
    2i and 2i + 1 in one step and writes their sum to cell i in the next."""
    size = n
    while size > 1:
        half = size // 2
        pid = m.processors(half)
        i = iota(half)
        x, y = yield Step(pid, reads=[Read(a, 2 * i), Read(a, 2 * i + 1)],  # type: ignore[arg-type]
                          phase="level")
        yield Step(pid, writes=[Write(a, i, x + y)], phase="level")  # type: ignore[arg-type]
        size = half


def test_a_tree_sum_leaves_every_cell_the_depth_derived_by_hand() -> None:
    """n = 8, three levels. Level 1 (steps 1, 2) writes cells 0..3 at depth 1 (two inputs of
    depth 0 added); level 2 (steps 3, 4) writes cells 0, 1 at depth 2; level 3 (steps 5, 6)
    writes cell 0 at depth 3 = log2 8. Cells 4..7 are never written: depth 0, step 0. The
    root's chain: a[0] at steps 6, 4, 2, then the input a[0] (the first operand of each add,
    ties going to the first)."""
    m = Machine(depth=True)
    a = m.array("a", values=np.arange(8))
    m.run(tree_sum(m, a, 8))
    assert a.to_numpy()[0] == 28 and m.cost.time == 6
    assert m.depths.depths(a).tolist() == [3, 2, 1, 1, 0, 0, 0, 0]
    assert m.depths.steps(a).tolist() == [6, 4, 2, 2, 0, 0, 0, 0]
    assert m.depths.largest == 3
    chain = m.depths.chain(a, 0)
    assert [(k.cell, k.step, k.depth, k.phase) for k in chain] == [
        (0, 6, 3, "level"), (0, 4, 2, "level"), (0, 2, 1, "level"), (0, 0, 0, "")]
    assert m.depths.chain(a, 5)[0].depth == 0  # never written: an input, alone on its chain


def copied(pid: Any, source: Array, target: Array, cells: Any) -> Generator[Any, Any, Any]:
    """Processors ``pid`` read ``source`` at ``cells``, write each value + 0 to ``target``
    there (depth 1) and read it back: the register read, of depth 1 (three steps)."""
    (x,) = yield Step(pid, reads=[Read(source, cells)])
    yield Step(pid, writes=[Write(target, cells, x + 0)])
    (y,) = yield Step(pid, reads=[Read(target, cells)])
    return y


def test_a_value_read_at_an_address_made_from_data_depends_on_the_address() -> None:
    """Step 1 reads p[0] (an input); step 2 writes it + 0 to q[0] (depth 1); step 3 reads
    q[0]; step 4 reads v at the address q[0] holds (an input cell, depth 0, but the address
    has depth 1) and p[0] again (depth 0); that input value takes the read one in place
    (w += y) and step 5 writes it to r[0]: depth 2, the address's chain."""
    m = Machine(depth=True)
    p = m.array("p", values=np.array([1]))
    q = m.array("q", size=1)
    v = m.array("v", values=np.array([10, 20]))
    r = m.array("r", size=1)

    def program() -> Program[None]:
        pid = m.processors(1)
        zero = iota(1)
        address = yield from copied(pid, p, q, zero)
        y, w = yield Step(pid, reads=[Read(v, address), Read(p, zero)])
        w += y
        yield Step(pid, writes=[Write(r, zero, w)])

    m.run(program())
    assert r.to_numpy().tolist() == [21]
    assert m.depths.depths(r).tolist() == [2]
    assert [(k.array, k.step, k.depth) for k in m.depths.chain(r, 0)] == [
        ("r", 5, 2), ("q", 2, 1), ("p", 0, 0)]


def test_prefix_sums_depths_are_brent_and_kungs_and_at_most_the_time() -> None:
    """n = 16: the up-sweep puts the total in the last cell after log2 16 = 4 combines; the
    deepest cell is at most half the run's time (each link of a chain takes a read step and a
    write step of its own)."""
    m = Machine(depth=True)
    a = m.array("a", values=np.ones(16, dtype=np.int64))
    m.run(prefix_sums(m, a, 16))
    depths = m.depths.depths(a)
    assert depths[15] == 4 and depths[0] == 0
    assert 0 < 2 * m.depths.largest <= m.cost.time
    assert m.depths.largest == depths.max()


def test_recording_depths_changes_no_count() -> None:
    """The same MQAR instance with and without depths: every count and the answer equal."""
    off = execute("mqar", Options(n=48, seed=3))
    on = execute("mqar", Options(n=48, seed=3, depth=True))
    assert on.cost.as_dict() == off.cost.as_dict()
    assert on.output.tolist() == off.output.tolist()
    assert off.depth is None and on.depth is not None


def test_mqar_depth_is_at_most_its_time_and_its_chain_walks_back_phase_by_phase() -> None:
    """Algorithm 11: the largest depth is at most half the time; the last answer cell's chain
    loses one depth a link, steps going back, down to an input, through sort, search,
    retrieve and combine; the phases' links add up to the chain's depth."""
    depth = execute("mqar", Options(n=64, depth=True)).depth
    assert depth is not None
    assert 2 * depth["max"] <= depth["time"]
    chain = depth["chain"]
    assert chain[0]["array"] == depth["cell"]["array"] == "answers"
    assert [k["depth"] for k in chain] == list(range(chain[0]["depth"], -1, -1))
    steps = [k["step"] for k in chain]
    assert steps == sorted(steps, reverse=True) and steps[-1] == 0
    assert [p["phase"] for p in depth["phases"]] == ["sort", "search", "retrieve", "combine"]
    assert sum(p["links"] for p in depth["phases"]) == chain[0]["depth"]
    assert sum(p["steps"] for p in depth["phases"]) + depth["after"] == depth["time"]


def test_pram_run_depth_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``pram run mqar --depth --json`` carries the depth field; without --depth it has none."""
    assert main(["run", "mqar", "--n", "32", "--depth", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["depth"]) == {"max", "time", "cell", "chain", "phases", "after"}
    assert out["depth"]["time"] == out["time"]
    assert set(out["depth"]["chain"][0]) == {"array", "cell", "step", "phase", "depth"}
    assert main(["run", "mqar", "--n", "32", "--json"]) == 0
    assert "depth" not in json.loads(capsys.readouterr().out)


def test_pram_run_depth_prints_the_chain_by_phase(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --json, --depth prints the largest depth against the time and the last
    answer's chain, phase by phase, as the JSON gives them."""
    assert main(["run", "mqar", "--n", "32", "--depth", "--json"]) == 0
    depth = json.loads(capsys.readouterr().out)["depth"]
    assert main(["run", "mqar", "--n", "32", "--depth"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert f"depth: largest {depth['max']} in {depth['time']} steps" in text
    first = depth["phases"][0]
    assert (f"chain of answers[{depth['cell']['cell']}]: {depth['chain'][0]['depth']} links "
            f"({first['phase']} {first['links']} in {first['steps']} steps,") in text


def test_pram_run_depth_refuses_instances_and_algorithms_off_the_machine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--depth records one run on the machine: one line and exit 2 otherwise."""
    assert "--depth does not apply with --instances 2" in one_line_error(
        capsys, "run", "mqar", "--n", "8", "--depth", "--instances", "2")
    assert "--depth does not apply to mqar-sequential" in one_line_error(
        capsys, "run", "mqar-sequential", "--n", "8", "--depth")


def test_depths_refuse_batches_bad_values_and_a_look_mid_run() -> None:
    """A batch keeps no depths; depth takes a bool; a program may not read the depths (a
    depth may tell it about its data), through m.depths or the run's observer, nor call the
    recorder's hooks or make it again; a machine without depths says how to get them."""
    with pytest.raises(InputError, match="batched machine keeps no cell depths"):
        Machine(batch=2, depth=True)
    with pytest.raises(InputError, match="depth must be True or False"):
        Machine(depth="yes")  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"Machine\(depth=True\)"):
        _ = Machine().depths
    m = Machine(depth=True)
    a = m.array("a", values=np.arange(2))

    def peek(look: Any) -> Program[None]:
        pid = m.processors(2)
        yield Step(pid, reads=[Read(a, iota(2))])
        look()

    for look, what in ((lambda: m.depths.depths(a), "depths"),
                       (lambda: m.depths.largest, "largest"),
                       (lambda: current().observer.chain(a, 0), "chain")):  # type: ignore[union-attr]
        with pytest.raises(HonestyError, match=rf"the depths \({what}\) while a program runs"):
            m.run(peek(look))
    with pytest.raises(HonestyError, match="the machine's to call"):
        m.run(peek(lambda: current().observer.step(1, [], [])))  # type: ignore[union-attr]
    with pytest.raises(HonestyError, match="made once"):
        m.run(peek(lambda: m.depths.__init__()))  # type: ignore[misc]
    assert m.depths.depths(a).tolist() == [0, 0]  # after the runs: readable, nothing made up


def test_a_mask_made_from_data_and_the_processors_it_chooses_carry_its_depth() -> None:
    """Step 1 reads flags f (inputs, depth 0); step 2 writes f + 0 to g (depth 1); step 3
    reads g; the processors whose flag is set (chosen by data, depth 1) write the constant 7
    to h in step 4 (depth 2: the choice), and every processor assigns 5 into a register
    where its flag is set and writes it to k in step 5 (depth 2: the mask)."""
    m = Machine(depth=True)
    f = m.array("f", values=np.array([1, 0, 1]))
    g = m.array("g", size=3)
    h = m.array("h", values=np.zeros(3, dtype=np.int64))
    k = m.array("k", size=3)

    def program() -> Program[None]:
        pid = m.processors(3)
        i = iota(3)
        flag = yield from copied(pid, f, g, i)
        chosen = flag == 1
        everyone = hold(pid, pid)
        yield Step(everyone[chosen], writes=[Write(h, hold(pid, i)[chosen], 7)])
        r = hold(pid, 0)
        r[chosen] = 5
        yield Step(pid, writes=[Write(k, i, r)])

    m.run(program())
    assert h.to_numpy().tolist() == [7, 0, 7] and k.to_numpy().tolist() == [5, 0, 5]
    assert m.depths.depths(h).tolist() == [2, 0, 2]
    assert m.depths.depths(k).tolist() == [2, 2, 2]
    assert [link.array for link in m.depths.chain(k, 1)] == ["k", "g", "f"]


def test_depths_beside_an_observer_and_a_trace() -> None:
    """A machine's own observer and its trace see the run as without depths."""
    seen: list[list[int]] = []

    class Counting:
        def step(self, number: int, steps: object, replies: object) -> None:
            seen[-1].append(number)

        def operation(self, name: str, operands: object, result: object) -> None:
            seen[-1].append(-1)

    traces = []
    for depth in (False, True):
        seen.append([])
        m = Machine(observer=Counting(), trace=True, depth=depth)
        a = m.array("a", values=np.arange(8))
        m.run(tree_sum(m, a, 8))
        traces.append([(s.number, s.work) for s in m.trace.steps])
    assert seen[0] == seen[1] and len(seen[0]) == 6 + 3
    assert traces[0] == traces[1]
    assert m.depths.depths(a)[0] == 3


def test_pram_trace_depth_puts_every_version_in_the_page(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    """``pram trace mqar --depth --html``: the page's data holds the run's versions (as many
    as the depth JSON's run made, the last answer's among them); without --depth, none."""
    pages = {}
    for flag in ([], ["--depth"]):
        path = tmp_path / f"t{len(flag)}.html"
        assert main(["trace", "mqar", "--n", "16", *flag, "--html", str(path)]) == 0
        text = path.read_text()
        start = text.index('id="trace-data">') + len('id="trace-data">')
        pages[len(flag)] = json.loads(text[start:text.index("</script>", start)])
    capsys.readouterr()
    assert pages[0]["depths"] is None
    versions = {key: _unpacked(column) for key, column in pages[1]["depths"].items()}
    assert len({len(column) for column in versions.values()}) == 1 and versions["array"]
    depth = execute("mqar", Options(n=16, depth=True)).depth
    assert depth is not None
    assert max(versions["depth"]) == depth["max"]
    last = max(v for v, step in enumerate(versions["step"]) if step == depth["time"])
    assert versions["array"][last] == "answers"


def _unpacked(column: Any) -> list[Any]:
    """A column as the page unpacks it: a list, or an arithmetic run ``{"a": [s, d, n]}``."""
    if isinstance(column, dict):
        start, stride, n = column["a"]
        return [start + stride * i for i in range(n)]
    return list(column)
