"""``--instances K``: K random instances in lockstep batches, summarised (min / mean / max of
every count, every answer checked, violations per instance), the same whatever the split."""

from __future__ import annotations

import bisect
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import InputError
from pram.reports.batched import solver
from pram.reports.entries import algorithm
from pram.reports.measure import (
    BATCH_LIMIT,
    Summary,
    Trial,
    batches_of,
    execute,
    run_batch,
    run_instances,
    sweep,
)
from pram.reports.parallel import Dask, Processes
from pram.reports.registry import Options
from tests.commands import call, one_line_error, run_json

#: A small pbs: its reads, writes and work depend on the data, so min, mean and max differ.
PBS = Options(n=32, m=32, instances=5, seed=3)


def bare(summary: Summary) -> dict[str, object]:
    """The summary's JSON without the wall clock (what must not depend on the split)."""
    return summary.as_dict(wall_clock=False)


def test_the_summary_is_min_mean_max_of_single_runs() -> None:
    """Each count's min / mean / max equals those of K single runs on seeds s .. s+K-1, and
    every answer equals bisect_left, computed here from the instances themselves."""
    summary = run_instances("pbs", PBS)
    singles = [execute("pbs", attrs.evolve(PBS, instances=None, seed=s)) for s in range(3, 8)]
    assert summary.seeds == [3, 4, 5, 6, 7]
    for measure in ("time", "work", "reads", "writes", "local", "max_processors"):
        values = [getattr(r.cost, measure) for r in singles]
        assert summary.counts()[measure] == {
            "min": min(values), "mean": sum(values) / 5, "max": max(values)}
    assert summary.varying() and "reads" in summary.varying()
    for run in singles:
        data = run.options  # the instance again, from its seed
        instance = algorithm("pbs").family.build(data, np.random.default_rng(data.seed))
        keys = list(instance.data["keys"])
        expected = [bisect.bisect_left(keys, q) for q in instance.data["queries"]]
        assert list(run.output) == expected
    assert (summary.checked, summary.correct, summary.violations) == (5, 5, 0)


@pytest.mark.parametrize(("name", "model"), [
    ("sort", "erew"), ("prefix-sums", "erew"), ("rank-sort", "crcw-sum"), ("rank-sort", "crew"),
    ("pbs", "erew"), ("mqar", "erew"), ("list-ranking", "erew"),
])
def test_batched_and_one_by_one_give_the_same_trials(name: str, model: str) -> None:
    """Every instance of a batched run (one machine in lockstep) has the counts, violations
    and answer of its own single run, under the entry's model and under a weaker one."""
    options = Options(n=12 if name != "mqar" else 40, model=model)
    assert solver(name, options) is not None
    together = run_batch(name, options, (4, 5, 6, 7))
    apart = run_batch(name, options, (4, 5, 6, 7), batched=False)
    assert together == apart
    assert all(isinstance(t, Trial) for t in together)
    flagged = (name, model) == ("rank-sort", "crew")
    assert all((t.violations > 0) == flagged for t in together)  # a weaker model flags each


@pytest.mark.parametrize(("name", "options"), [
    ("mqar", Options(n=30, sort="per-block", network="odd-even")),
    ("mqar", Options(n=48, keys="bits", d=5)), ("mqar", Options(n=48, search="oblivious")),
    ("pbs", Options(n=20, m=9)), ("sort", Options(n=12, network="odd-even")),
    ("sort", Options(n=8, keys="bits", d=4)),
])
def test_every_option_gives_the_single_runs_trials(name: str, options: Options) -> None:
    """Algorithm 11's other sort and network, pbs with fewer keys and the odd-even sort of a
    padded n run batched; bit keys and the oblivious search run one machine per instance: the
    trials are the single runs'."""
    lockstep = options.keys == "word" and options.search == "pbs"
    assert (solver(name, options) is not None) == lockstep
    together = run_batch(name, options, (1, 2, 3))
    assert together == run_batch(name, options, (1, 2, 3), batched=False)
    assert all(t.lockstep == lockstep for t in together)


def test_batched_and_one_by_one_give_the_same_summary() -> None:
    """The batched path and the one-by-one path agree on every figure of the summary."""
    options = Options(n=10, model="crew", instances=6)
    together = run_instances("rank-sort", options)
    apart = run_instances("rank-sort", options, batched=False)
    assert (together.lockstep, apart.lockstep) == (True, False)
    assert {**bare(together), "lockstep": False} == bare(apart)


def test_the_summary_is_the_same_whatever_the_split() -> None:
    """One batch, three batches, and two worker processes: the same summary."""
    one = bare(run_instances("pbs", PBS, parts=1))
    assert bare(run_instances("pbs", PBS, parts=3)) == {**one, "batches": 3}
    assert bare(run_instances("pbs", PBS, runner=Processes(2))) == {**one, "batches": 2}


def test_a_dask_cluster_gives_the_same_summary() -> None:
    """Batches as tasks on a Dask cluster (threads, to stay fast): the serial summary."""
    pytest.importorskip("dask.distributed")
    one = bare(run_instances("pbs", PBS))
    assert bare(run_instances("pbs", PBS, runner=Dask("local", 2, processes=False))) == {
        **one, "batches": 2}


def test_batches_split_evenly_and_never_exceed_the_limit() -> None:
    """Contiguous batches of nearly equal size, at most BATCH_LIMIT each, covering every seed."""
    assert batches_of(range(7), 3) == [(0, 1, 2), (3, 4), (5, 6)]
    assert batches_of(range(2), 5) == [(0,), (1,)]
    big = batches_of(range(2 * BATCH_LIMIT + 1), 1)
    assert len(big) == 3 and max(map(len, big)) <= BATCH_LIMIT
    assert [s for b in big for s in b] == list(range(2 * BATCH_LIMIT + 1))


def test_run_instances_json_names_every_field(capsys: pytest.CaptureFixture[str]) -> None:
    """``pram run pbs --instances 4 --json``: counts with min / mean / max, every answer
    checked, violations per instance, the seeds from --seed; exit 0."""
    status, obj = run_json(capsys, "run", "pbs", "--n", "16", "--instances", "4", "--seed", "2")
    assert status == 0
    assert obj["instances"] == 4 and obj["seeds"] == [2, 3, 4, 5]
    assert obj["answers"] == {"checked": 4, "correct": 4, "reference": "bisect_left",
                              "wrong_seeds": [], "first_mismatch": None}
    assert obj["violations"] == {"instances_with": 0, "total": 0, "per_instance": [0] * 4,
                                 "first": []}
    counts = obj["counts"]
    assert isinstance(counts, dict)
    for measure in ("reads", "writes", "time", "work"):
        stats = counts[measure]
        assert stats["min"] <= stats["mean"] <= stats["max"]
    assert obj["correct"] is True and obj["ok"] is True
    assert (obj["n"], obj["m"], obj["model"]) == (16, 16, "erew")


def test_violations_are_counted_per_instance(capsys: pytest.CaptureFixture[str]) -> None:
    """The naive search under EREW: every instance flagged, each named by its seed; exit 1."""
    status, obj = run_json(capsys, "run", "pbs-naive", "--n", "8", "--instances", "3",
                           "--model", "erew")
    assert status == 1
    violations = obj["violations"]
    assert isinstance(violations, dict)
    assert violations["instances_with"] == 3
    assert all(v > 0 for v in violations["per_instance"])
    assert violations["total"] == sum(violations["per_instance"])
    assert violations["first"][0].startswith("seed 0: EREW forbids")


def test_the_report_shows_the_counts_and_the_answers(capsys: pytest.CaptureFixture[str]) -> None:
    """The terminal report: a min / mean / max table, and every answer correct."""
    status, out, _ = call(capsys, "run", "sort", "--n", "16", "--instances", "3")
    assert status == 0
    assert "on 3 random instances" in out and "answers: all 3 correct" in out
    assert "min" in out and "mean" in out and "max" in out


#: Refusals of --instances and what does not go with it: (argv, the one line, exit 2).
BAD_INSTANCES = [
    (("run", "pbs", "--instances", "0"),
     "pram run: argument --instances: invalid instance count '0'; give a positive integer, "
     "e.g. --instances 100"),
    (("run", "sort", "--instances", "2", "--input", "x.npy"),
     "pram run: error: --instances 2 does not apply with --input 'x.npy': a file is one "
     "instance, --instances draws random ones from --seed; leave one of them out"),
    (("run", "sort", "--workers", "2"),
     "pram run: error: --workers applies to pram run only with --instances K (one run is "
     "one process); add --instances, e.g. --instances 100, or leave it out"),
    (("run", "sort", "--instances", "2", "--output", "a.npy"),
     "pram run: error: --output 'a.npy' does not apply with --instances: K instances have "
     "K answers, each checked against the reference; leave --output out"),
    (("run", "sort", "--instances", "2", "--weakest-model"),
     "pram run: error: --weakest-model does not apply with --instances 2: it names the "
     "weakest clean model of one run; leave one of them out"),
]


@pytest.mark.parametrize(("argv", "refusal"), BAD_INSTANCES)
def test_what_does_not_go_with_instances_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], refusal: str
) -> None:
    """K = 0, --instances with --input, --workers without --instances, --output or
    --weakest-model with --instances: one line, exit 2."""
    assert one_line_error(capsys, *argv) == refusal


def test_bad_instances_are_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """More instances in lockstep than memory holds, or than one command runs: one line,
    exit 2."""
    message = one_line_error(capsys, "run", "mqar", "--instances", "1024", "--max-memory",
                             "1G")
    assert message.startswith("pram run: error: --instances 1024 (1024 instances of mqar in "
                              "lockstep) needs about ")
    assert "so give --instances 105 or less" in message
    for huge in ("1000001", "99999999999999999999"):  # refused before any seed is drawn
        assert one_line_error(capsys, "run", "pbs", "--instances", huge) == (
            f"pram run: argument --instances: --instances {huge} is more than the 1,000,000 "
            "one command runs; split the seeds over commands, e.g. --seed 0 --instances "
            "1000000 then --seed 1000000 --instances 1000000")


def test_options_refuse_a_count_below_one() -> None:
    """From the API as from the command line: instances must be positive."""
    with pytest.raises(InputError, match=r"--instances must be a positive integer \(got 0\)"):
        run_instances("sort", Options(instances=0))


def test_a_sweep_finds_laws_of_the_mean_and_the_maximum(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``pram sweep pbs --instances 3``: a summary per size, verdicts of the work and time
    bounds on the mean and on the maximum, and laws of the data-dependent reads and writes."""
    status, obj = run_json(capsys, "sweep", "pbs", "--n", "16,32,64,128", "--instances", "3")
    assert status == 0
    assert obj["instances"] == 3 and len(obj["runs"]) == 4  # type: ignore[arg-type]
    bounds, laws = obj["bounds"], obj["laws"]
    assert isinstance(bounds, dict) and isinstance(laws, dict)
    assert set(bounds) == {"work (mean)", "work (max)", "time (mean)", "time (max)"}
    assert {"reads (mean)", "reads (max)", "writes (mean)", "writes (max)"} <= set(laws)
    runs = obj["runs"]
    assert isinstance(runs, list)
    assert bounds["work (max)"]["measured"] == [r["counts"]["work"]["max"] for r in runs]


def test_a_sweep_of_instances_is_the_same_over_workers() -> None:
    """The sweep's JSON is the same with its batches in two processes."""
    options = Options(m=16, instances=2)
    here = sweep("pbs", [8, 16], attrs.evolve(options, m=None))
    pooled = sweep("pbs", [8, 16], attrs.evolve(options, m=None), runner=Processes(2))
    strip = lambda s: {**s.as_dict(wall_clock=False),  # noqa: E731
                       "runs": [{**r, "batches": 0} for r in s.as_dict(wall_clock=False)["runs"]]}
    assert strip(here) == strip(pooled)


@settings(max_examples=8, deadline=None)
@given(count=st.integers(1, 6), seed=st.integers(0, 10**6), parts=st.integers(1, 4))
def test_any_count_seed_and_split_give_the_single_runs_summary(
    count: int, seed: int, parts: int
) -> None:
    """For any K, first seed and split, the batched summary equals the one-by-one summary in
    one batch, and its min / mean / max are numpy's over the single runs."""
    options = Options(n=8, instances=count, seed=seed)
    split = run_instances("sort", options, parts=parts)
    alone = run_instances("sort", options, batched=False)
    ignored = {"batches": 0, "lockstep": False}
    assert {**bare(split), **ignored} == {**bare(alone), **ignored}
    singles = [execute("sort", attrs.evolve(options, instances=None, seed=s))
               for s in range(seed, seed + count)]
    reads = np.array([r.cost.reads for r in singles])
    assert split.counts()["reads"] == {"min": reads.min(), "mean": reads.mean(),
                                       "max": reads.max()}
    assert split.correct == count


def test_a_sweep_exits_1_when_an_instance_breaks_the_model(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The naive search swept under EREW: every size's instances flagged, exit 1."""
    status, obj = run_json(capsys, "sweep", "pbs-naive", "--n", "8,16", "--instances", "2",
                           "--model", "erew")
    assert status == 1
    runs = obj["runs"]
    assert isinstance(runs, list)
    assert [r["violations"]["instances_with"] for r in runs] == [2, 2]


@pytest.mark.parametrize("name", ["pbs-naive", "rank-sort"])  # one by one, and in lockstep
def test_mode_raise_names_the_instance_and_its_seed(
    capsys: pytest.CaptureFixture[str], name: str,
) -> None:
    """``--instances K --mode raise`` stops at the first violation, naming the instance and
    its seed before the single run's own message; exit 1 as for one run."""
    assert (solver(name, Options(model="erew")) is None) == (name == "pbs-naive")
    status, _, alone = call(capsys, "run", name, "--n", "8", "--model", "erew", "--mode",
                            "raise", "--seed", "5")
    assert status == 1
    message = alone.strip().removeprefix("pram run: ConflictError: ")
    status, out, err = call(capsys, "run", name, "--n", "8", "--model", "erew", "--mode",
                            "raise", "--seed", "5", "--instances", "3")
    assert (status, out) == (1, "")
    assert err.strip() == f"pram run: ConflictError: instance 0 (seed 5): {message}"
    status, obj = run_json(capsys, "run", name, "--n", "8", "--model", "erew", "--mode",
                           "raise", "--seed", "5", "--instances", "3")
    assert status == 1
    assert obj["message"] == f"instance 0 (seed 5): {message}"


def test_mode_raise_in_lockstep_names_the_instance_that_raised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A batch in which only its third instance breaks the model: the error names that
    instance of --instances and its seed (the batch's own "instance 2: " replaced)."""
    from pram import ConflictError, Machine, Read, Step, iota
    from pram.reports import batched

    def reads_twice(m: Machine, instances: Any, options: Options) -> Any:
        cells = m.array("cells", values=np.array([[0, 1], [0, 1], [0, 0]]))

        def program() -> Any:
            pid = m.processors(2)
            (x,) = yield Step(pid, reads=[Read(cells, iota(2))])
            yield Step(pid, reads=[Read(cells, x)])  # cell 0 twice in instance 2 only

        m.run(program())
        raise AssertionError("the run should have stopped")

    monkeypatch.setitem(batched.SOLVERS, "prefix-sums", (reads_twice, lambda options: True))
    options = Options(n=8, model="erew", mode="raise", seed=7, instances=3)
    with pytest.raises(ConflictError) as raised:
        run_batch("prefix-sums", options, [7, 8, 9])
    said = str(raised.value)
    assert said.startswith("instance 2 (seed 9): EREW forbids concurrent reads: processors 0 "
                           "and 1 read cells[0] in step 2")
    assert raised.value.violation.instance == 2
