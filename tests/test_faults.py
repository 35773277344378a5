"""Faults: outputs onto inputs, full disks, mount points, signals, size guards, error causes.

One test per cause of issue 20, each against the outside fact it is about (the bytes of a
file, the processes of a session, the status a shell sees), in the style of test_edges.py.
"""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from pram import InputError
from pram.reports import guard, report, signals, writer
from pram.reports.cli import main
from tests.commands import call, refusal
from tests.helpers import PRAM_COMMAND

PRAM = [sys.executable, "-m", "pram.reports.cli"]


def _tokens(path: Path, n: int = 16) -> bytes:
    np.save(path, np.arange(n, dtype=np.int64)[::-1].copy())
    return path.read_bytes()


# ---- outputs --------------------------------------------------------------------------------


def test_circuit_output_onto_its_input_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--output the same file as --input, a symlink to it or a hard link: refused, unchanged."""
    from pram.reports import circuit

    monkeypatch.setitem(vars(circuit), "build", lambda *a: pytest.fail("built before the refusal"))
    values = tmp_path / "v.npy"
    before = _tokens(values)
    (tmp_path / "link.npy").symlink_to(values)
    os.link(values, tmp_path / "hard.npy")
    for output in (values, tmp_path / "link.npy", tmp_path / "hard.npy"):
        line = refusal(capsys, "circuit", "sort", "--input", str(values), "--output", str(output))
        assert "is the file given as --input" in line and "--output another name" in line
    (tmp_path / "c.json").symlink_to(values)
    line = refusal(capsys, "circuit", "sort", "--input", str(values), "--export",
                   str(tmp_path / "c.json"))
    assert "--export" in line and "is the file given as --input" in line
    assert values.read_bytes() == before


def test_an_output_linking_to_a_file_of_another_kind_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An output name that is a symlink to a file of another kind (a user's module, say) is
    refused before any work, and the file it links to keeps its bytes: the writer replaces
    the link's target, so `out.npy -> m.py` would put the answers over the module."""
    module = tmp_path / "m.py"
    module.write_text("x = 1\n")
    for name, command in (("o.npy", ["example", "tokens"]), ("p.png", None),
                          ("t.html", None)):
        link = tmp_path / name
        link.symlink_to(module)
        if command is not None:
            line = refusal(capsys, *command, str(link), "--n", "48")
            assert f"is a link to {str(module)!r}" in line and "not a .npy file" in line
        with pytest.raises(InputError, match=r"is a link to .*m\.py'.*give --x the path"):
            writer.check_output(str(link), "--x", (link.suffix,))
    assert module.read_text() == "x = 1\n"
    same = tmp_path / "same.npy"
    np.save(tmp_path / "real.npy", np.arange(3))
    same.symlink_to(tmp_path / "real.npy")  # a link to a file of the same kind is written through
    assert main(["example", "tokens", str(same), "--n", "48"]) == 0
    assert len(np.load(tmp_path / "real.npy")) == 48


def test_a_dangling_link_as_output_names_the_link_and_the_missing_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """It named a temporary file of the writer's ('.x.npy.XXXX.partial': Not a directory)."""
    link = tmp_path / "dl.npy"
    link.symlink_to(tmp_path / "nowhere" / "x.npy")
    line = refusal(capsys, "example", "tokens", str(link), "--n", "48")
    assert f"{str(link)!r} is a link to" in line and "whose directory does not exist" in line
    assert "partial" not in line


def test_exact_output_name_is_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An upper-case suffix is written exactly as given: numpy adds no '.npy' to it."""
    assert main(["example", "tokens", str(tmp_path / "T.NPY"), "--n", "48"]) == 0
    assert main(["example", "batch", str(tmp_path / "B.NPZ")]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["B.NPZ", "T.NPY"]
    assert len(np.load(tmp_path / "T.NPY")) == 48


def test_a_failed_write_leaves_the_previous_file_whole(tmp_path: Path) -> None:
    """A write that fails halfway (here: the disk fills) keeps the old bytes, no debris, and
    the refusal names the file and the full disk."""
    target = tmp_path / "a.npy"
    target.write_bytes(b"old answers")

    def half(file: io.BufferedWriter) -> None:
        file.write(b"new, half")
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(InputError, match=r"--output '.*a\.npy' could not be written: the disk "
                       r"is full .* the previous file is unchanged"):
        writer.write(target, half, "--output")
    assert target.read_bytes() == b"old answers"
    assert [p.name for p in tmp_path.iterdir()] == ["a.npy"]


def test_a_failed_report_leaves_no_folder_it_made(tmp_path: Path) -> None:
    """A report (or a declaration's section) that meets a full disk removes the folders it
    made for --out, so no empty folder stands behind the error; a folder that was there
    stays, with what it held."""
    from pram.reports import report

    def full(folder: Path) -> list[Path]:
        (folder / "summary.md").write_text("half")
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(InputError, match="the disk is full"):
        report._publish(tmp_path / "new" / "section", full)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "keep.txt").write_text("keep")
    with pytest.raises(InputError, match="the disk is full"):
        report._publish(tmp_path / "old" / "section", full)
    assert [p.name for p in tmp_path.iterdir()] == ["old"]
    assert [p.name for p in (tmp_path / "old").iterdir()] == ["keep.txt"]


def _mount_tmpfs(folder: Path, size: str) -> None:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")


def test_full_disk_keeps_the_old_answers(tmp_path: Path) -> None:
    """On a real full disk (a 64 KiB tmpfs) --output keeps the older file and names it."""
    disk = tmp_path / "full"
    _mount_tmpfs(disk, "64k")
    try:
        (disk / "a.npy").write_bytes(b"older")
        (disk / "filler").write_bytes(b"\0" * (48 << 10))
        done = subprocess.run([*PRAM, "example", "tokens", str(disk / "a.npy"), "--n", "30000"],
                              capture_output=True, text=True)
        assert done.returncode == 2
        assert "a.npy" in done.stderr and "disk is full" in done.stderr
        assert (disk / "a.npy").read_bytes() == b"older"
        assert sorted(p.name for p in disk.iterdir()) == ["a.npy", "filler"]
    finally:
        subprocess.run(["umount", str(disk)])


def test_report_into_a_mount_point(tmp_path: Path) -> None:
    """--out a mount point (another file system than its parent): the files move into place
    (the temporary folder is inside it), and a stale partial folder there is cleared."""
    out = tmp_path / "vol"
    _mount_tmpfs(out, "1m")
    try:
        stale = out / f"{writer.PARTIAL}old"
        stale.mkdir()
        (out / "summary.md").write_text("old")
        (out / "mine.txt").write_text("keep")

        def write(folder: Path) -> list[Path]:
            assert folder.parent == out and os.stat(folder).st_dev == os.stat(out).st_dev
            (folder / "summary.md").write_text("new")
            return [folder / "summary.md"]

        assert report._publish(out, write) == [out / "summary.md"]
        assert {p.name: p.read_text() for p in out.iterdir()} == {
            "summary.md": "new", "mine.txt": "keep"
        }
    finally:
        subprocess.run(["umount", str(out)])


# ---- inputs that are not files ----------------------------------------------------------------


def test_fifo_and_device_inputs_are_refused_before_opening(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A FIFO as --input would block for ever, /dev/zero never end: refused, naming them."""
    fifo = tmp_path / "t.npy"
    os.mkfifo(fifo)
    assert "is a FIFO" in refusal(capsys, "run", "mqar", "--input", str(fifo))
    assert "is a FIFO" in refusal(capsys, "zoology", str(fifo))
    assert "is a device" in refusal(capsys, "run", "sort", "--input", "/dev/zero")
    _tokens(tmp_path / "in.npy")
    line = refusal(capsys, "run", "sort", "--input", str(tmp_path / "in.npy"), "--output",
                   str(fifo))
    assert "--output" in line and "FIFO" in line


# ---- signals ------------------------------------------------------------------------------------


def _session(pid: int) -> list[int]:
    """The live processes of session ``pid`` (zombies excluded)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to list processes")
@pytest.mark.parametrize(("number", "status", "words"), [
    (signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted"),
])
def test_a_signal_ends_the_workers_at_once(number: int, status: int, words: str) -> None:
    """SIGTERM or SIGINT to a sweep with two workers: one line, 128 + the signal, within two
    seconds, and no process of its session (workers, resource tracker) left."""
    process = subprocess.Popen(
        [*PRAM, "sweep", "mqar", "--n", "3072,12288,49152,196608", "--workers", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 30
    while len(_session(process.pid)) < 4 and time.monotonic() < deadline:  # main, tracker, 2
        time.sleep(0.1)
    time.sleep(0.5)
    process.send_signal(number)
    sent = time.monotonic()
    _, err = process.communicate(timeout=10)
    assert time.monotonic() - sent < 2
    assert (process.returncode, err) == (status, f"pram sweep: {words}\n")
    time.sleep(0.3)
    assert _session(process.pid) == []


def test_held_signals_are_raised_afterwards() -> None:
    """A SIGTERM while the report's files move is delivered once they have moved."""
    signals.install()
    try:
        moved = []
        with pytest.raises(signals.Stopped) as stop, signals.held():
            os.kill(os.getpid(), signal.SIGTERM)
            moved.append(True)
        assert moved == [True] and stop.value.status == 143
    finally:
        for number in signals.HANDLED:
            signal.signal(number, signal.default_int_handler if number == signal.SIGINT
                          else signal.SIG_DFL)
        signals._received.clear()


# ---- the size guard -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "0.5", "-1", "abc", "0", "1.5"])
def test_max_memory_is_parsed_strictly(text: str) -> None:
    """An empty value, a fraction of a byte, a negative amount or text never mean "no
    ceiling": refused naming the forms accepted."""
    with pytest.raises(InputError, match="give a whole number of bytes or an amount like 512M"):
        guard.parse_memory(text)


def test_max_memory_refusal_from_every_command(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    """Every command that allocates takes --max-memory (and parses it strictly)."""
    for argv in (["run", "sort"], ["sweep", "sort", "--n", "8,16"], ["zoology", "b.npz"],
                 ["circuit", "sort"], ["example", "tokens", str(tmp_path / "t.npy")],
                 ["report", "--out", str(tmp_path / "r")]):
        assert "--max-memory '0.5' is not a size" in refusal(capsys, *argv, "--max-memory", "0.5")


def _batch(path: Path, length: int, examples: int = 2) -> None:
    from pram.algorithms.zoology import batch

    inputs, labels = batch(examples, length, length // 8, max(64, length // 2), seed=0)
    np.savez(path, inputs=inputs, labels=labels, num_kv_pairs=np.array(length // 8))


def test_zoology_over_the_ceiling_names_the_largest_batch(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch whose runs would need more than --max-memory is refused before it is read,
    naming the largest sequence length that fits; that length then passes the guard."""
    from pram.reports import zoology

    file = tmp_path / "b.npz"
    _batch(file, 4096)
    monkeypatch.setitem(vars(zoology), "load_batch",
                        lambda path: pytest.fail("read before refusing"))
    line = refusal(capsys, "zoology", str(file), "--max-memory", "12M")
    fits = int(line.split("has sequences of ")[1].split(" tokens")[0].replace(",", ""))
    assert 0 < fits < 4096
    assert zoology.batch_need(2, fits) <= 12 << 20 < zoology.batch_need(2, fits + 1)


def _bomb(path: Path, name: str, count: int) -> None:
    """An .npz whose member declares ``count`` int64 zeros (compressed to almost nothing)."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<i8", "fortran_order": False, "shape": (count,)})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, \
            archive.open(f"{name}.npy", "w", force_zip64=True) as member:
        member.write(header.getvalue())
        chunk = b"\0" * (1 << 20)
        for _ in range(count * 8 // len(chunk)):
            member.write(chunk)
        member.write(b"\0" * (count * 8 % len(chunk)))


def test_zip_bomb_is_refused_before_decompression(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small archive declaring 128 MiB is refused from its headers: numpy never loads it."""
    bomb = tmp_path / "s.npz"
    _bomb(bomb, "queries", 1 << 24)
    assert bomb.stat().st_size < 1 << 20
    monkeypatch.setattr(np, "load", lambda *a, **k: pytest.fail("decompressed"))
    line = refusal(capsys, "run", "pbs", "--input", str(bomb), "--max-memory", "50M")
    assert "'queries' of shape 16777216" in line and "--max-memory allows 50.0 MiB" in line


def test_budget_shares_the_ceiling() -> None:
    """Runs start together only when their needs fit the ceiling together; one alone always."""
    budget = guard.Budget(100.0)
    assert budget.admits(150.0)
    budget.start(0, 60.0)
    assert not budget.admits(50.0) and budget.admits(40.0)
    budget.finish(0)
    assert budget.admits(100.0)


def test_circuit_size_guard_names_the_value(capsys: pytest.CaptureFixture[str]) -> None:
    """A circuit too large is refused before it is built, naming n and the largest that fits
    (a power of two for sort), never a traceback."""
    line = refusal(capsys, "circuit", "sort", "--n", str(1 << 40))
    assert "circuit sort at n = 1,099,511,627,776" in line
    line = refusal(capsys, "circuit", "merge", "--n", str(1 << 61))
    assert "2,305,843,009,213,693,952" in line
    line = refusal(capsys, "circuit", "sort", "--n", str(1 << 20), "--max-memory", "100M")
    fits = int(line.split("so give --n ")[1].split()[0])
    assert fits & (fits - 1) == 0 and fits < 1 << 20


def test_uint64_num_kv_pairs_is_named_as_stored(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    """An unsigned 2^64 - 1 is reported as that, not as -1."""
    file = tmp_path / "b.npz"
    np.savez(file, inputs=np.zeros((1, 8), np.int64), labels=np.full((1, 8), -100),
             num_kv_pairs=np.array(2**64 - 1, dtype=np.uint64))
    assert "num_kv_pairs = 18446744073709551615" in refusal(capsys, "zoology", str(file))


# ---- errors by cause ----------------------------------------------------------------------------


def test_broken_pipe_exits_quietly(tmp_path: Path) -> None:
    """A reader that goes away (| head -c 1): exit 141, the shell's convention, no message."""
    done = subprocess.run(
        ["bash", "-c", '"$@" 2>err | true; s=${PIPESTATUS[0]}; cat err; exit $s',
         "-", *PRAM, "sweep", "sort", "--n", "8,16,32,64,128,256,512,1024", "--json"],
        capture_output=True, text=True, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (141, "")


def test_stdout_closed_and_unencodable_paths(tmp_path: Path) -> None:
    """Standard output closed: one line, exit 2. A non-ASCII path under an ASCII encoding:
    written, and named with an escape, never a traceback."""
    done = subprocess.run([*PRAM, "run", "sort", "--json"], stdout=None, capture_output=False,
                          stderr=subprocess.PIPE, text=True, pass_fds=(),
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 2 and "standard output is closed" in done.stderr
    env = dict(os.environ, PYTHONIOENCODING="ascii", LC_ALL="C")
    done = subprocess.run([*PRAM, "example", "tokens", "ü.npy"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, errors="replace")
    assert done.returncode == 0 and "\\xfc.npy" in done.stderr
    assert (tmp_path / "ü.npy").is_file()


def test_dask_addresses_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """tls:// and ucx:// (settings pram does not take), a bad port, --workers with a remote
    scheduler: refused before any work."""
    assert "over tcp:// only" in refusal(capsys, "sweep", "sort", "--n", "8,16", "--dask",
                                         "ucx://127.0.0.1:8786")
    assert "over tcp:// only" in refusal(capsys, "sweep", "sort", "--n", "8,16", "--dask",
                                         "tls://127.0.0.1:8786")
    assert "port from 1 to 65535" in refusal(capsys, "sweep", "sort", "--n", "8,16", "--dask",
                                             "tcp://127.0.0.1:99999")
    assert "a remote scheduler's workers are its own" in refusal(
        capsys, "sweep", "sort", "--n", "8,16", "--dask", "tcp://127.0.0.1:8786",
        "--workers", "2")


def test_dask_at_an_http_port_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A web server where the scheduler should be: "no Dask scheduler answered", not a
    complaint about memory."""
    pytest.importorskip("distributed")
    import http.server
    import threading

    class Quiet(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        line = refusal(capsys, "sweep", "sort", "--n", "8,16", "--dask",
                       f"tcp://127.0.0.1:{server.server_address[1]}")
        assert "no Dask scheduler answered" in line
    finally:
        server.shutdown()


# ---- no silent options, checks before the work --------------------------------------------------


@pytest.mark.parametrize(("argv", "flag"), [
    (["run", "list-ranking", "--d", "8"], "--d 8"),
    (["sweep", "prefix-sums", "--n", "8,16", "--d", "4,8"], "--d"),
    (["circuit", "compare", "--network", "odd-even"], "--network odd-even"),
    (["circuit", "sort", "--n", "8", "--format", "dot"], "--format dot"),
    (["circuit", "sort", "--n", "8", "--d", "8"], "--d 8"),
])
def test_options_that_change_nothing_are_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str], flag: str
) -> None:
    """An option that would change nothing is refused, naming it and "leave it out"."""
    line = refusal(capsys, *argv)
    assert flag in line and "leave it out" in line


def test_seed_with_input_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--seed draws a random instance; with --input the file is the instance."""
    _tokens(tmp_path / "v.npy")
    assert "--seed 3 does not apply with --input" in refusal(
        capsys, "run", "sort", "--input", str(tmp_path / "v.npy"), "--seed", "3")


def test_sweeps_without_a_varying_size_are_refused_before_any_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One size, or the same size twice: refused before the first run."""
    from pram.reports import measure

    monkeypatch.setitem(vars(measure), "execute", lambda *a, **k: pytest.fail("ran"))
    assert "at least 2 sizes" in refusal(capsys, "sweep", "sort", "--n", "16")
    assert "some size varies" in refusal(capsys, "sweep", "sort", "--n", "16,16")


def test_mode_raise_json_still_prints_its_object(capsys: pytest.CaptureFixture[str]) -> None:
    """--mode raise stops at the first violation; --json still prints one object saying so."""
    assert main(["run", "pbs-naive", "--n", "16", "--mode", "raise", "--json"]) == 1
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert (result["ok"], result["error"], result["algorithm"]) == (
        False, "ConflictError", "pbs-naive")
    assert err.startswith("pram run: ConflictError:")


def test_no_blank_line_before_an_error_under_a_progress_bar() -> None:
    """stderr not a terminal: no progress bar, so an error is the first and only line."""
    done = subprocess.run([*PRAM, "sweep", "sort", "--n", "8,16", "--dask", "tcp://127.0.0.1:1"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.startswith("pram sweep: error:")
    assert done.stderr.count("\n") == 1


def test_predict_beyond_a_float_is_null(capsys: pytest.CaptureFixture[str]) -> None:
    """--predict 10^400: the exact laws give the exact integer, the others null."""
    assert main(["sweep", "sort", "--n", "8,16,32", "--predict", "1" + "0" * 400, "--json"]) == 0
    laws = json.loads(capsys.readouterr().out)["laws"]
    values = [v for law in laws.values() for v in law["predictions"].values()]
    assert values and all(v is None or isinstance(v, int) for v in values)


# ---- edge cases found from the docs by testers who had not seen the code: each was a
# traceback or a wrong success, now one line and exit 2 (an InputError in Python) ----


def test_an_output_name_that_is_not_utf8_is_written(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    """A file name of bytes that are not UTF-8 (as a shell passes $'x\\xff.npy') was a
    UnicodeEncodeError traceback in the temporary file's name; it is written as given."""
    target = os.fsdecode(os.fsencode(str(tmp_path)) + b"/x\xff.npy")
    status, _, err = call(capsys, "run", "sort", "--n", "8", "--output", target)
    assert status == 0, err
    assert np.load(target).tolist() == sorted(np.load(target).tolist())


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_standard_output_is_named() -> None:
    """`pram run ... > /dev/full` said "'a file' could not be written"."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([PRAM_COMMAND, "run", "sort", "--n", "8"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2
    assert "'standard output' could not be written: the disk is full" in done.stderr


def test_ctrl_c_while_workers_start_is_one_line() -> None:
    """A terminal's Ctrl-C (SIGINT to the whole process group) while --workers starts its
    processes printed their KeyboardInterrupt tracebacks from the middle of their imports."""
    for delay in (0.9, 1.5):
        p = subprocess.Popen(
            [PRAM_COMMAND, "run", "sort", "--n", "4096", "--instances", "400", "--workers", "2"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        time.sleep(delay)
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=120)
        lines = [line for line in err.splitlines() if line.strip()]
        if p.returncode == 0:
            continue  # finished before the signal: nothing to see
        # (on a busy machine the signal may come while the command still loads: "pram: ...")
        assert p.returncode == 130 and lines in (["pram run: interrupted"],
                                                 ["pram: interrupted"]), err[-3000:]


def test_a_home_this_user_cannot_look_in_gives_matplotlib_a_folder(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """sudo -u keeps a HOME the user may not read: looking for matplotlib's folder raised
    PermissionError in every command, --help included; now the folder counts as not writable
    and a temporary one is used."""
    from pram.reports import preflight

    real = Path.exists

    def exists(self: Path) -> bool:
        if str(self).startswith(str(tmp_path / "home")):
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "exists", exists)
    monkeypatch.delenv("MPLCONFIGDIR", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    preflight.matplotlib_home()
    assert os.environ["MPLCONFIGDIR"] and Path(os.environ["MPLCONFIGDIR"]).is_dir()


def test_an_error_standard_error_cannot_take_still_exits_2() -> None:
    """With standard error on a full device the refusal of --n 0 exited 1 (rich's write
    failed); the status alone must still say "bad input"."""
    with open(os.devnull if not Path("/dev/full").exists() else "/dev/full", "w") as full:
        done = subprocess.run([PRAM_COMMAND, "run", "sort", "--n", "0"], stderr=full,
                              stdout=subprocess.PIPE, timeout=120)
    assert (done.returncode, done.stdout) == (2, b"")


def test_a_prediction_beyond_a_float_is_shown(capsys: pytest.CaptureFixture[str]) -> None:
    """--predict 10^400 overflowed a float where the report showed an exact law's exact
    prediction (the JSON gives the integer, or null)."""
    status, out, err = call(capsys, "sweep", "sort", "--n", "8,16,32,64,128", "--predict",
                            "1" + "0" * 400)
    assert status == 0 and "e+" in out and "Traceback" not in err
