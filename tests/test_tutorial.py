"""docs/tutorial.md runs as written: its Python blocks in order, its files, its commands."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from pram.reports.cli import main

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"

#: A fenced block: its language and its text.
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.DOTALL | re.MULTILINE)
#: The first line of a block that is a file of its own.
FILE = re.compile(r"^# file: (\S+)\n")
#: A command's expected exit status, as a trailing comment.
STATUS = re.compile(r"\s+# exit status (\d+)$")


def blocks(text: str) -> list[tuple[str, str]]:
    """The fenced blocks of ``text`` in order, as (language, code)."""
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(text)]


def commands(code: str) -> list[tuple[list[str], int]]:
    """The ``$ `` lines of a console block, as argv and the exit status expected (default 0)."""
    out = []
    for line in code.splitlines():
        if not line.startswith("$ "):
            continue
        command = line[2:]
        expected = 0
        status = STATUS.search(command)
        if status:
            expected = int(status.group(1))
            command = command[: status.start()]
        out.append((shlex.split(command), expected))
    return out


def test_the_tutorial_has_python_console_and_test_blocks() -> None:
    """The tutorial exists and holds Python blocks, console blocks and a pytest file."""
    found = blocks(TUTORIAL.read_text())
    languages = {language for language, _ in found}
    assert languages == {"python", "console"}
    assert any(FILE.match(code) and "test_" in code.splitlines()[0] for _, code in found)


def test_every_block_of_the_tutorial_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python blocks run in order in one namespace (their asserts hold), files are written and
    test files pass under pytest, and every command exits with the status the text gives."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    namespace: dict[str, object] = {"__name__": "tutorial"}
    ran = {"python": 0, "file": 0, "test": 0, "command": 0}
    for number, (language, code) in enumerate(blocks(TUTORIAL.read_text()), 1):
        if language == "console":
            for argv, expected in commands(code):
                assert argv[0] == "pram", f"block {number}: only pram commands run here"
                status = main(argv[1:])  # the console script's entry point, in-process
                assert status == expected, (
                    f"block {number}: {' '.join(argv)} exited {status}, expected {expected}"
                )
                ran["command"] += 1
            continue
        file = FILE.match(code)
        if file is None:
            exec(compile(code, f"tutorial block {number}", "exec"), namespace)
            ran["python"] += 1
            continue
        path = tmp_path / file.group(1)
        path.write_text(code)
        if path.name.startswith("test_"):
            done = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", path.name],
                capture_output=True, text=True, check=False, cwd=tmp_path,
            )
            assert done.returncode == 0, f"block {number}: {path.name} failed\n{done.stdout}"
            assert " passed" in done.stdout and "failed" not in done.stdout
            ran["test"] += 1
        else:
            ran["file"] += 1
    assert all(count > 0 for count in ran.values()), ran
