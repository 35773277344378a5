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
