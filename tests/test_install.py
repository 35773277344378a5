"""The install claims only ``pram``: the wheel built from the checkout, read file by file."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """The wheel ``pip wheel`` builds from the checkout (once for the module)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(ROOT)],
        check=True, capture_output=True, timeout=600,
    )
    (built,) = out.glob("*.whl")
    return zipfile.ZipFile(built)


def test_wheel_claims_no_top_level_name_but_pram(wheel: zipfile.ZipFile) -> None:
    """Every file of the wheel lies under pram/ or its own dist-info; top_level.txt says pram."""
    tops = {name.split("/")[0] for name in wheel.namelist()}
    assert tops == {"pram", "pramsim-0.1.0.dist-info"}
    assert wheel.read("pramsim-0.1.0.dist-info/top_level.txt").decode().split() == ["pram"]


def test_wheel_holds_the_algorithms_and_reports(wheel: zipfile.ZipFile) -> None:
    """algorithms/ and reports/ are inside as pram.algorithms and pram.reports, file for file."""
    names = set(wheel.namelist())
    for folder in ("algorithms", "reports"):
        sources = {f"pram/{folder}/{p.name}" for p in (ROOT / folder).glob("*.py")}
        assert sources and sources <= names


def test_wheel_command_is_pram(wheel: zipfile.ZipFile) -> None:
    """The distribution is pramsim and its one command is pram."""
    entry = wheel.read("pramsim-0.1.0.dist-info/entry_points.txt").decode()
    assert entry.split() == ["[console_scripts]", "pram", "=", "pram.reports.cli:main"]
    metadata = wheel.read("pramsim-0.1.0.dist-info/METADATA").decode().splitlines()
    assert "Name: pramsim" in metadata
