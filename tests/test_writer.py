"""Writing an output file (:mod:`pram.reports.writer`): a name as long as the file system takes
is written, and only it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.commands import call


@pytest.mark.parametrize("length", [238, 251])
def test_an_output_name_as_long_as_the_file_system_takes_is_written(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, length: int) -> None:
    """The temporary file repeated the whole name and 18 bytes more: names of 238 to 255
    bytes were refused though the file system takes them."""
    name = tmp_path / ("a" * (length - 4) + ".npy")
    status, _, err = call(capsys, "run", "sort", "--n", "8", "--output", str(name))
    assert status == 0, err
    assert np.load(name).tolist() == sorted(np.load(name).tolist())
    assert [p.name for p in tmp_path.iterdir()] == [name.name]


@pytest.mark.parametrize("argv", [["trace", "sort", "--n", "64", "--html", "{out}.html"],
                                  ["run", "sort", "--n", "4000", "--output", "{out}.npy"]])
def test_a_file_size_limit_is_named_as_such(tmp_path: Path, argv: list[str]) -> None:
    """Under ulimit -f, the page's write was "File too large; give a path that exists ...",
    naming no file, and numpy's short write of an array was called a full disk."""
    import resource
    import subprocess
    import sys

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, resource.RLIM_INFINITY))

    given = [a.format(out=tmp_path / "big") for a in argv]
    script = "import sys; from pram.reports.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", script, *given], capture_output=True,
                          text=True, timeout=120, check=False, preexec_fn=limited)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    (line,) = done.stderr.splitlines()
    assert f"{given[-1]!r} could not be written: it is larger than the largest file" in line
    assert "ulimit -f" in line and list(tmp_path.iterdir()) == []
