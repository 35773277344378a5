"""Edges: broken files, impossible sizes, unwritable outputs, ignored options, lost reports."""

from __future__ import annotations

import json
import pickle
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import pram.reports.measure
import pram.reports.signals
from pram import InputError, Machine
from pram.algorithms import allpairs, mqar, sequential
from pram.reports import report
from pram.reports.cli import main
from pram.reports.measure import execute, sweep
from pram.reports.preflight import parse_memory
from pram.reports.registry import Options
from tests.commands import refusal
from tests.helpers import checkout_only


def _archive(path: Path) -> bytes:
    np.savez(path, queries=np.arange(10), keys=np.arange(10))
    return path.read_bytes()


# ---- broken files ---------------------------------------------------------------------------

SEARCH = (
    "it must be an .npz file holding sorted integer arrays 'queries' and 'keys', saved with "
    "numpy.savez"
)
SORT = "it must be a .npy file holding the integers to sort, saved with numpy.save"


def test_truncated_npz_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A truncated .npz is refused as truncated or corrupt, exit 2."""
    data = _archive(tmp_path / "good.npz")
    bad = tmp_path / "t.npz"
    bad.write_bytes(data[: len(data) // 2])
    assert refusal(capsys, "run", "pbs", "--input", str(bad)) == (
        f"pram run: error: input file {str(bad)!r} is not a readable .npz file (the archive is "
        f"truncated or corrupt); {SEARCH}"
    )


def test_bad_crc_npz_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An .npz whose member fails its CRC is refused naming the member, exit 2."""
    data = bytearray(_archive(tmp_path / "good.npz"))
    data[data.find(b"\x93NUMPY") + 80] ^= 0xFF
    bad = tmp_path / "c.npz"
    bad.write_bytes(bytes(data))
    assert refusal(capsys, "run", "pbs", "--input", str(bad)) == (
        f"pram run: error: input file {str(bad)!r} is not a readable .npz file (the archive is "
        f"truncated or corrupt (Bad CRC-32 for file 'queries.npy')); {SEARCH}"
    )


def test_truncated_batch_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """pram zoology refuses a truncated batch file in one line."""
    data = _archive(tmp_path / "good.npz")
    bad = tmp_path / "b.npz"
    bad.write_bytes(data[:100])
    assert refusal(capsys, "zoology", str(bad)).startswith(
        f"pram zoology: error: batch file {str(bad)!r} is not a readable .npz file (the archive "
        "is truncated or corrupt)"
    )


def test_object_array_is_refused_without_pickle_advice(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An object array in an .npz is named as such; numpy's allow_pickle advice is not passed."""
    bad = tmp_path / "o.npz"
    np.savez(bad, queries=np.array([1, "a"], dtype=object), keys=np.arange(3))
    assert refusal(capsys, "run", "pbs", "--input", str(bad)) == (
        f"pram run: error: input file {str(bad)!r} is not a readable .npz file (it holds an "
        f"array of Python objects, not of integers); {SEARCH}"
    )


@pytest.mark.parametrize("kind", ["text", "pickle"])
def test_text_or_pickle_as_npy_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str
) -> None:
    """A text file or a raw pickle named .npy is refused, never loaded, never advised to be."""
    bad = tmp_path / "v.npy"
    if kind == "text":
        bad.write_text("1 2 3\n")
    else:
        bad.write_bytes(pickle.dumps([1, 2, 3]))
    line = refusal(capsys, "run", "sort", "--input", str(bad))
    assert line == (
        f"pram run: error: input file {str(bad)!r} is not a readable .npy file (it is not in "
        f"numpy's format: text or a pickle, which pram never loads); {SORT}"
    )


def test_token_too_wide_in_zoology(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A token 2^63-1 in a Zoology batch is refused naming its place, not an OverflowError."""
    inputs = np.array([[2**63 - 1, 2, 3, 4, 1, 0]], dtype=np.int64)
    labels = np.full_like(inputs, -100)
    labels[0, 4] = 2
    path = tmp_path / "z.npz"
    np.savez(path, inputs=inputs, labels=labels, num_kv_pairs=np.array(2))
    assert refusal(capsys, "zoology", str(path)) == (
        f"pram zoology: error: inputs[0, 0] = 9223372036854775807 in {str(path)!r} is too large; "
        "tokens must be below 2^62 - 1 so that they and one never-matching token fit d = 62 "
        "bits, so renumber the vocabulary from 0"
    )


def test_file_tokens_share_the_d_limit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A token needing 63 bits in an input file meets the same 62-bit limit as --d."""
    path = tmp_path / "u.npy"
    np.save(path, np.array([1, 2, 2**62]))
    assert refusal(capsys, "run", "mqar", "--input", str(path)) == (
        f"pram run: error: input file {str(path)!r} holds entry 2 = {2**62}, which needs 63 "
        "bits; entries must fit in d = 62 bits (below 2^62), so renumber them"
    )


# ---- the size guard ------------------------------------------------------------------------


def test_huge_mqar_is_refused_naming_what_fits(capsys: pytest.CaptureFixture[str]) -> None:
    """pram run mqar --n 10^12 is refused before allocating, naming the largest N that fits."""
    line = refusal(capsys, "run", "mqar", "--n", "1000000000000", "--max-memory", "8G")
    assert line == (
        "pram run: error: mqar at N = 1,000,000,000,000 needs about 3.1 PiB of memory but "
        "--max-memory allows 8.0 GiB; the largest N that fits is 6,291,456, so give --n 6291456 "
        "or less (or set the ceiling with --max-memory)"
    )


def test_allpairs_guard_without_ceiling(capsys: pytest.CaptureFixture[str]) -> None:
    """mqar-allpairs at N = 100,000 is refused against the memory available, exit 2."""
    line = refusal(capsys, "run", "mqar-allpairs", "--n", "100000")
    assert line.startswith("pram run: error: mqar-allpairs at N = 100,000 needs about 310.4 GiB")


def test_largest_size_named_does_run() -> None:
    """The size the guard names runs under the same ceiling; one more is refused."""
    with pytest.raises(InputError, match="the largest N that fits is 3,072,"):
        execute("mqar", Options(n=30000, max_memory=parse_memory("10M")))
    assert execute("mqar", Options(n=3072, max_memory=parse_memory("10M"))).correct
    with pytest.raises(InputError, match="the largest N that fits is 3,072,"):
        execute("mqar", Options(n=3073, max_memory=parse_memory("10M")))


def test_a_ceiling_of_hundreds_of_digits_is_a_size() -> None:
    """--max-memory of 100 nines went through a float to infinity and a traceback (an outside
    battery): it is counted exactly, and a fraction of a unit still rounds down to bytes."""
    nines = "9" * 100
    assert parse_memory(nines) == int(nines) and parse_memory(nines + "G") == int(nines) << 30
    assert parse_memory("1.5K") == 1536 and parse_memory("0.001K") == 1
    assert execute("sort", Options(n=8, max_memory=parse_memory(nines))).correct


@pytest.mark.parametrize("argv", [
    ("run", "sort", "--n", "{}"), ("run", "sort", "--seed", "{}"),
    ("run", "sort", "--instances", "{}"), ("run", "sort", "--instances", "2", "--workers", "{}"),
    ("run", "sort", "--phases", "{}"), ("sweep", "sort", "--n", "8,{}"),
    ("sweep", "sort", "--n", "8,16,32,64", "--predict", "{}"),
    ("trace", "sort", "--steps", "1", "--trace-cells", "{}"), ("run", "selection", "--k", "{}"),
    ("trace", "sort", "--n", "8", "--steps", "{}"), ("run", "sort", "--max-memory", "{}G"),
    ("run", "sort", "--n", "-{}"),
])
def test_a_number_of_thousands_of_digits_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    """5,000 digits passed Python's limit on reading an int (4,300): tracebacks, or argparse's
    "invalid _size value" naming a private function (an outside battery, 12 cases). Every
    whole number of the command line is refused past 4,000 digits, naming its length."""
    nines = "9" * 5000
    line = refusal(capsys, *(a.format(nines) for a in argv))
    assert "99999999999... has 5,000 digits, more than any" in line, line
    assert len(line) < 300 and "_size" not in line


def test_a_size_past_a_float_is_refused_by_the_size_guard(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """A size of 400 digits took the memory models' float arithmetic past its range (an
    OverflowError): its need is past any machine, and the refusal names the size's length."""
    line = refusal(capsys, "run", "sort", "--n", "1" + "0" * 400)
    assert line.startswith("pram run: error: sort at n = a number of 401 digits needs about "
                           "1e+308 B or more of memory but "), line


def test_sweep_checks_every_size_first(capsys: pytest.CaptureFixture[str]) -> None:
    """A sweep whose last size does not fit is refused before its first run."""
    calls: list[str] = []
    with pytest.raises(InputError, match=r"^sort at n = 100,000 needs about"):
        sweep("sort", [8, 100000], Options(max_memory=parse_memory("1M")),
              progress=lambda i, n, label: calls.append(label))
    assert calls == []


def test_bad_max_memory(capsys: pytest.CaptureFixture[str]) -> None:
    """--max-memory must be a size."""
    assert refusal(capsys, "run", "sort", "--max-memory", "lots") == (
        "pram run: error: --max-memory 'lots' is not a size; give a whole number of bytes or an "
        "amount like 512M, 8G or 1.5G"
    )


# ---- options that do not apply -----------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "mqar", "--comparator", "tree"],
         "--comparator tree does not apply to mqar: it picks the comparator of bit keys, and a "
         "word key compares in one operation (add --keys bits); leave it out"),
        (["run", "pbs", "--sort", "per-block"],
         "--sort per-block does not apply to pbs: it applies only to mqar; leave it out"),
        (["run", "pbs", "--network", "odd-even"],
         "--network odd-even does not apply to pbs: it applies only to mqar and sort; leave it "
         "out"),
        (["run", "mqar-sequential", "--model", "crew"],
         "--model crew does not apply to mqar-sequential: it runs on the host (RAM model, one "
         "processor), not on the machine; leave it out"),
        (["sweep", "pbs", "--n", "8,16", "--sort", "per-block"],
         "--sort per-block does not apply to pbs: it applies only to mqar; leave it out"),
    ],
)
def test_option_that_does_not_apply_is_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """An option an algorithm would ignore is refused naming why."""
    assert refusal(capsys, *argv) == f"pram {argv[0]}: error: {message}"


def test_n_with_input_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--n together with --input is refused: the file sets the size."""
    path = tmp_path / "u.npy"
    np.save(path, np.arange(12))
    assert refusal(capsys, "run", "mqar", "--input", str(path), "--n", "48") == (
        f"pram run: error: --n 48 and --input {str(path)!r} both set the size; the input file "
        "decides it, so leave --n out"
    )


def test_network_reaches_the_merge_tree() -> None:
    """--network odd-even changes Algorithm 11's counts, answers stay right; bitonic is default."""
    default = execute("mqar", Options(n=768))
    bitonic = execute("mqar", Options(n=768, network="bitonic"))
    odd = execute("mqar", Options(n=768, network="odd-even"))
    assert bitonic.cost == default.cost
    assert odd.correct and odd.violations == 0
    assert odd.cost.work < bitonic.cost.work  # odd-even merges use fewer comparators


def test_network_reaches_the_per_block_sorts() -> None:
    """--network odd-even also reaches the per-block strategy's Batcher sorts."""
    bitonic = execute("mqar", Options(n=768, sort="per-block"))
    odd = execute("mqar", Options(n=768, sort="per-block", network="odd-even"))
    assert odd.correct and odd.cost.work < bitonic.cost.work


# ---- outputs -------------------------------------------------------------------------------


def test_output_may_not_name_the_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--output naming the --input file is refused and the tokens stay as they were."""
    path = tmp_path / "u.npy"
    tokens = np.array([5, 50, 7, 7, 70, 5, 5, 51, 5, 9, 90, 5])
    np.save(path, tokens)
    before = path.read_bytes()
    assert refusal(capsys, "run", "mqar", "--input", str(path), "--output",
                   str(tmp_path / "." / "u.npy")) == (
        f"pram run: error: --output {str(tmp_path / 'u.npy')!r} is the file given as --input "
        f"{str(path)!r}; writing there would overwrite your data, so give --output another name"
    )
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["run", "sort", "--output"], "--output"),
        (["sweep", "sort", "--n", "8,16", "--plot"], "--plot"),
    ],
)
def test_unwritable_output_is_refused_first(
    capsys: pytest.CaptureFixture[str], argv: list[str], flag: str
) -> None:
    """An output in a folder nobody can write is refused before the run."""
    path = "/proc/pram-edge" + (".png" if flag == "--plot" else ".npy")
    assert refusal(capsys, *argv, path) == (
        f"pram {argv[0]}: error: {flag} {path!r} cannot be written (No such file or directory); "
        "give a path in a folder you can write"
    )


def test_report_out_unwritable_is_refused_first(capsys: pytest.CaptureFixture[str]) -> None:
    """pram report --out into an unwritable place is refused before the 50-110 s job."""
    assert refusal(capsys, "report", "--out", "/proc/sys/pram") == (
        "pram report: error: --out '/proc/sys/pram' cannot be written ('/proc/sys': No such "
        "file or directory); give a folder you can write"
    )


def test_report_without_matplotlib_is_refused_first(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Without matplotlib, pram report stops before it starts, with a hint fit for a checkout."""
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert refusal(capsys, "report", "--quick", "--out", str(tmp_path / "r")) == (
        "pram report: error: plots need matplotlib, which is not installed; pip install "
        "matplotlib (in a checkout: pip install -e '.[plot]')"
    )
    assert not (tmp_path / "r").exists()


@checkout_only
def test_quick_never_replaces_the_committed_report(capsys: pytest.CaptureFixture[str]) -> None:
    """--quick into the checkout's report/ is refused."""
    import pram.reports

    committed = str(Path(pram.reports.__file__).resolve().parent.parent / "report")
    assert refusal(capsys, "report", "--quick", "--out", committed) == (
        f"pram report: error: --quick would replace the committed full report in {committed!r}; "
        "give another folder, e.g. --out pram-report-quick, or leave --out out"
    )


def test_default_report_folder_outside_the_checkout(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Outside the checkout the report goes to pram-report/, a name no package can have."""
    from pram.reports.cli import default_report_folder

    monkeypatch.chdir(tmp_path)
    assert (default_report_folder(False), default_report_folder(True)) == (
        "pram-report", "pram-report-quick"
    )


def _folder(path: Path, files: dict[str, str]) -> Path:
    """A report folder at ``path`` holding ``files`` (name: text), as a previous report."""
    path.mkdir()
    for name, text in files.items():
        (path / name).write_text(text)
    return path


def test_interrupted_report_leaves_the_previous_one_whole(tmp_path: Path) -> None:
    """Ctrl-C while the files are written leaves the previous report as it was, no debris."""
    out = _folder(tmp_path / "r", {"summary.md": "old summary", "measurements.csv": "old csv"})

    def write(folder: Path) -> list[Path]:
        (folder / "measurements.csv").write_text("new csv")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        report._publish(out, write)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]
    assert {p.name: p.read_text() for p in out.iterdir()} == {
        "summary.md": "old summary", "measurements.csv": "old csv"
    }


def test_finished_report_moves_into_place(tmp_path: Path) -> None:
    """A finished report replaces the files and keeps other files of the folder."""
    out = _folder(tmp_path / "r", {"summary.md": "old", "keep.py": "x = 1"})

    def write(folder: Path) -> list[Path]:
        (folder / "summary.md").write_text("new")
        return [folder / "summary.md"]

    assert report._publish(out, write) == [out / "summary.md"]
    assert {p.name: p.read_text() for p in out.iterdir()} == {
        "summary.md": "new", "keep.py": "x = 1"
    }
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]


# ---- the library ---------------------------------------------------------------------------


def test_options_refuse_a_string_size() -> None:
    """Options(n="48") names the argument instead of a TypeError later."""
    with pytest.raises(InputError) as caught:
        Options(n="48")  # type: ignore[arg-type]
    assert str(caught.value) == (
        "Options(n='48'): n must be an int or None, not str; e.g. Options(n=48)"
    )


def test_run_refuses_a_non_generator() -> None:
    """m.run(program_function) names the mistake: call it first."""

    def noop(m: Machine):  # type: ignore[no-untyped-def]
        yield from ()

    with pytest.raises(InputError) as caught:
        Machine("erew").run(noop)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "program must be a generator, the result of calling a program function (got function); "
        "call it, e.g. m.run(swap(m, a)) rather than m.run(swap)"
    )


def test_recall_twice_on_one_machine() -> None:
    """Algorithm 11 and all-pairs run twice on one machine, right both times, arrays apart."""
    tokens = np.array([5, 50, 7, 7, 70, 5, 5, 51, 5, 9, 90, 5])
    expected = sequential.recall(tokens).answers
    m = Machine("erew")
    for _ in range(2):
        assert np.array_equal(mqar.recall(m, tokens).answers, expected)
        assert np.array_equal(allpairs.recall(m, tokens).answers, expected)
    assert "run 2/keys.index" in m.arrays and "allpairs 2.values" in m.arrays
    assert m.violations == []


def test_zoology_names_the_first_disagreement(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A wrong label is named by example, position, label and answer."""
    inputs = np.array([[1, 2, 3, 4, 1, 0]], dtype=np.int64)
    labels = np.full_like(inputs, -100)
    labels[0, 4] = 4  # key 1 holds 2
    path = tmp_path / "z.npz"
    np.savez(path, inputs=inputs, labels=labels, num_kv_pairs=np.array(2))
    assert main(["zoology", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-2:] == [
        "1 labelled position disagrees with the answer; the first 1:",
        "example 0, position 4: label 4, answer 2",
    ]


@pytest.mark.parametrize(("name", "status", "words"), [
    ("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated"), ("SIGHUP", 129, "hung up"),
])
def test_a_signal_while_starting_is_one_line(name: str, status: int, words: str) -> None:
    """A signal while the command line loads its commands (seconds on a busy machine): one
    line, 128 + the signal (main holds the three while it loads); with --json also the one
    object a command stopped later prints (stdout was empty)."""
    for argv, out in (([], ""), (["run", "sort", "--json"], json.dumps({
            "command": "run", "ok": False, "error": words, "status": status,
            "message": f"pram: {words}"}) + "\n")):
        script = (
            "import os, signal, sys, time\n"
            "from pram.reports import cli\n"
            f"def loading():\n    os.kill(os.getpid(), signal.{name}); time.sleep(30)\n"
            "vars(cli)['build_parser'] = loading\n"  # under the sealed module, as a test may
            f"sys.exit(cli.main({argv!r}))\n"
        )
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=60, check=False)
        assert (done.returncode, done.stdout, done.stderr) == (status, out, f"pram: {words}\n")


def test_ctrl_c_during_a_run_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during a run ends with one line and exit 130."""

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setitem(vars(pram.reports.measure), "execute", interrupted)
    assert main(["run", "sort"]) == 130
    assert capsys.readouterr() == ("", "pram run: interrupted\n")


@pytest.mark.parametrize(("number", "words"), [
    (signal.SIGINT, "interrupted"), (signal.SIGTERM, "terminated"),
])
def test_a_signal_during_a_run_with_json_still_prints_one_object(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, number: int,
    words: str,
) -> None:
    """A run stopped by a signal with --json printed nothing on standard output (an outside
    battery: 7 of its signal cases): it prints the one object, saying why, as a refusal does."""

    def stopped(*args: object, **kwargs: object) -> None:
        raise pram.reports.signals.Stopped(number)

    monkeypatch.setitem(vars(pram.reports.measure), "execute", stopped)
    assert main(["run", "sort", "--json"]) == 128 + number
    out, err = capsys.readouterr()
    assert err == f"pram run: {words}\n"
    assert json.loads(out) == {"command": "run", "ok": False, "error": words,
                               "status": 128 + number, "message": f"pram run: {words}"}


def test_library_import_keeps_pythons_ctrl_c() -> None:
    """Importing pram leaves Ctrl-C to Python (a KeyboardInterrupt), even named ``pram``."""
    script = (
        "import os, signal, sys\nsys.argv[0] = '/bin/pram'\nimport pram, pram.reports.cli\n"
        "try:\n    os.kill(os.getpid(), signal.SIGINT)\nexcept KeyboardInterrupt:\n"
        "    print('caught')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)
    assert (done.returncode, done.stdout) == (0, "caught\n")


# ---- example input files -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "name", "argv"),
    [
        ("tokens", "u.npy", ["run", "mqar", "--input"]),
        ("search", "s.npz", ["run", "pbs", "--input"]),
        ("values", "v.npy", ["run", "sort", "--input"]),
        ("batch", "b.npz", ["zoology"]),
    ],
)
def test_example_files_feed_their_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str, name: str, argv: list[str]
) -> None:
    """pram example KIND FILE writes a file its command accepts and answers right (twice)."""
    path = str(tmp_path / name)
    for _ in range(2):
        assert main(["example", kind, "--n", "48", path]) == 0
        assert main([*argv, path, "--json"]) == 0
        out, _ = capsys.readouterr()
        result = json.loads(out)
        assert result["accuracy"] == 1.0 if kind == "batch" else result["correct"] is True


def test_path_too_long_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A path the system cannot even look at is one line, exit 2, its middle elided."""
    path = "x" * 5000 + ".npy"
    assert refusal(capsys, "run", "sort", "--input", path) == (
        f"pram run: error: '{'x' * 30}...{'x' * 26}.npy': File name too long; give a path "
        "that exists and that you may use"
    )


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("mqar", Options(n=3072)),
        ("mqar", Options(n=768, keys="bits", d=16, comparator="tree")),
        ("mqar", Options(n=3072, sort="per-block")),
        ("mqar", Options(n=3072, search="oblivious")),
        ("mqar-allpairs", Options(n=768)),
        ("mqar-allpairs", Options(n=192, keys="bits", d=16)),
        ("mqar-sequential", Options(n=24576)),
        ("pbs", Options(n=8192)),
        ("pbs", Options(n=1024, keys="bits", d=16)),
        ("pbs-naive", Options(n=4096)),
        ("sort", Options(n=8192)),
        ("sort", Options(n=1024, keys="bits", d=16)),
        ("list-ranking", Options(n=4096)),
        ("prefix-sums", Options(n=4096)),
        ("merge", Options(n=4096, model="crew")),
        ("matrix-multiply", Options(n=32, model="crew")),
        ("max", Options(n=512, model="crcw-common")),
        ("rank-sort", Options(n=256, model="crcw-sum")),
    ],
)
def test_memory_estimate_covers_the_measured_peak(name: str, options: Options) -> None:
    """The size guard's estimate is at least the peak tracemalloc measures for the run."""
    import tracemalloc

    from pram.reports.entries import algorithm
    from pram.reports.guard import _sizes

    entry = algorithm(name)
    assert entry.memory is not None and options.n is not None
    estimate = entry.memory(_sizes(entry, options, options.n), options)
    tracemalloc.start()
    try:
        execute(name, options)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= estimate


@checkout_only
def test_default_report_folder_in_the_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the top of the checkout the full report keeps report/; a quick one goes elsewhere."""
    import pram.reports
    from pram.reports.cli import default_report_folder

    monkeypatch.chdir(Path(pram.reports.__file__).resolve().parent.parent)
    assert (default_report_folder(False), default_report_folder(True)) == (
        "report", "pram-report-quick"
    )


@pytest.mark.parametrize("columns", ["0", "1", "2"])
def test_a_terminal_of_no_width_still_shows_the_run(
    columns: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """COLUMNS=0 printed nothing at all, exit 0 (and a failing check's exit 1 came with no
    word); COLUMNS=1 a character a line, cutting values. Text is laid out at 40 columns at
    least."""
    from pram.reports.cli import NARROWEST

    monkeypatch.setenv("COLUMNS", columns)
    for argv, status in ((["run", "sort", "--n", "16"], 0),
                         (["run", "pbs-naive", "--n", "16"], 1),
                         (["sweep", "sort", "--n", "16,32,64"], 0)):
        assert main(argv) == status
        out, _ = capsys.readouterr()
        lines = out.splitlines()
        assert "time" in out and max(map(len, lines)) <= NARROWEST, argv
        assert "model EREW" in " ".join(lines[:4]), lines[:4]


def test_two_bounds_of_one_measure_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """--bound work=n --bound work=n^2 checked only the second, the first dropped without a
    word (a repeated --n is refused); two measures still go together."""
    line = refusal(capsys, "sweep", "sort", "--n", "16,32,64", "--bound", "work=n",
                   "--bound", "work=n^2")
    assert "--bound work= is given twice ('n' and 'n^2')" in line, line
    assert main(["sweep", "sort", "--n", "16,32,64", "--bound", "work=n",
                 "--bound", "time=log2(n)^2"]) == 0
    capsys.readouterr()


def test_an_argument_a_command_does_not_take_names_the_command_and_its_help(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """It was "pram: unrecognized arguments: --bogus", naming neither the command nor a fix;
    and pram lint '' linted the current folder."""
    for argv, bad in ((["run", "sort", "--n", "16", "--bogus"], "--bogus"),
                      (["run", "sort", "--n", "16", "extra"], "extra"),
                      (["lint", "x.py", "--bogus"], "--bogus")):
        line = refusal(capsys, *argv)
        assert line == (f"pram {argv[0]}: unrecognized arguments: {bad}; see pram {argv[0]} "
                        "--help for its options and arguments"), line
    line = refusal(capsys, "lint", "")
    assert "the path '' names no file or folder" in line, line


def test_a_signal_while_the_json_is_written_leaves_one_object() -> None:
    """A reader slow to take a 190 KB object: SIGTERM while the command was blocked writing it
    left half the object, then the object saying the command was terminated. Now the line
    is written whole, then the signal ends the command, and no second object is added."""
    import os
    import time

    script = "import sys; from pram.reports.cli import main; sys.exit(main(sys.argv[1:]))"
    read, write = os.pipe()
    process = subprocess.Popen(
        [sys.executable, "-c", script, "run", "sort", "--n", "8", "--instances", "20000",
         "--json"], stdout=write, stderr=subprocess.PIPE, text=True)
    os.close(write)
    time.sleep(4)  # the run is done and blocked on the full pipe (or, if slow, still running)
    process.send_signal(signal.SIGTERM)
    data = b""
    while chunk := os.read(read, 1 << 20):
        data += chunk
    os.close(read)
    assert process.wait(timeout=60) == 143
    text = data.decode()
    obj, end = json.JSONDecoder().raw_decode(text)
    assert text[end:].strip() == "" and isinstance(obj, dict), text[end:][:200]


@pytest.mark.parametrize("argv", [["run", "sort", "--n", "8"], ["run", "mqar", "--n", "3072"],
                                  ["run", "sort", "--n", "3"]])
def test_the_memory_the_size_guard_advises_is_taken(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """'give --max-memory 6.2KiB or more' was rounded down from the need, so 6.2KiB was refused
    again; at the advised size sort was told to "give a smaller --d", which it does not take."""
    import re

    line = refusal(capsys, *argv, "--max-memory", "1")
    advised = re.search(r"give --max-memory (\S+) or more", line)
    assert advised is not None, line
    assert main([*argv, "--max-memory", advised.group(1)]) == 0
    capsys.readouterr()
    line = refusal(capsys, "run", "sort", "--n", "3", "--max-memory", "3.1KiB")
    assert "--d" not in line and "give --n 2 or less" in line, line


def test_an_input_too_large_is_told_to_be_smaller_not_given_an_n(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An --input graph naming vertex 99999999999 was told "give --n 22559550 or less", and
    --n beside --input is refused."""
    graph = tmp_path / "graph.txt"
    graph.write_text("0 99999999999\n")
    line = refusal(capsys, "run", "components", "--input", str(graph), "--max-memory", "1G")
    assert "so give a smaller --input file" in line and "--n" not in line, line


def test_too_many_open_files_is_not_blamed_on_a_path() -> None:
    """Under ulimit -n 16, two workers ended with "Too many open files; give a path that
    exists and that you may use": no path is at fault."""
    import resource

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (16, 16))

    script = "import sys; from pram.reports.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", script, "sweep", "sort", "--n", "8,16,32",
                           "--workers", "2"], capture_output=True, text=True, timeout=120,
                          check=False, preexec_fn=limited)
    if done.returncode == 0:
        pytest.skip("the workers started within 16 open files here")
    assert done.returncode == 2 and "too many open files for this process" in done.stderr
    assert "give a path" not in done.stderr and len(done.stderr.splitlines()) == 1


def test_the_line_of_an_output_written_shows_its_path_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An --output path with a newline was printed raw, its "wrote" line split in two."""
    odd = tmp_path / "new\nline.npy"
    assert main(["run", "sort", "--n", "8", "--output", str(odd)]) == 0
    _, err = capsys.readouterr()
    assert err == f"wrote 8 answers to {str(odd)!r}\n" and np.load(odd).shape == (8,)


def test_lint_of_a_binary_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    """pram lint values.npy said "cannot be parsed", exit 1, as if it were a finding; a script
    without the .py suffix is still read as Python."""
    data = tmp_path / "values.npy"
    np.save(data, np.arange(8))
    line = refusal(capsys, "lint", str(data))
    assert line.endswith("is not Python source (it holds binary data); give a .py file or a "
                         "folder of them"), line
    script = tmp_path / "script"
    script.write_text("import gc\n")
    assert main(["lint", str(script)]) == 1
    assert "import gc" in capsys.readouterr().out
