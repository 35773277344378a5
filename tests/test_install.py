"""The install claims only ``pram``: the wheel built from the checkout, read file by file."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.helpers import checkout_only

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
    """The distribution is pramsim and its one command is pram; beside it, the trace viewer
    the machine floor finds by entry point (pram.viewers) rather than by an import."""
    import configparser

    points = configparser.ConfigParser()
    points.read_string(wheel.read("pramsim-0.1.0.dist-info/entry_points.txt").decode())
    assert dict(points["console_scripts"]) == {"pram": "pram.reports.cli:main"}
    assert dict(points["pram.viewers"]) == {"write": "pram.reports.trace_page:write",
                                            "inline": "pram.reports.trace_page:inline"}
    assert set(points.sections()) == {"console_scripts", "pram.viewers"}
    metadata = wheel.read("pramsim-0.1.0.dist-info/METADATA").decode().splitlines()
    assert "Name: pramsim" in metadata


def test_wheel_holds_the_trace_page_assets(wheel: zipfile.ZipFile) -> None:
    """The trace page's script and style sheet, read at run time, are installed beside it."""
    names = set(wheel.namelist())
    assert {"pram/reports/trace_page.js", "pram/reports/trace_page.css"} <= names


def test_wheel_holds_no_generated_report(wheel: zipfile.ZipFile) -> None:
    """The committed report (report/) stays out: the wheel's files are code and metadata only."""
    report = {p.name for p in (ROOT / "report").iterdir()}
    assert {"summary.md", "measurements.json", "measurements.csv", "cost.png"} <= report
    kinds = {"png", "csv", "json", "md"}
    generated = [n for n in wheel.namelist() if n.rsplit(".", 1)[-1] in kinds]
    assert generated == []


def test_checkout_holds_no_symlink() -> None:
    """No file of the checkout is a link (git mode 120000): a checkout without links installs."""
    listed = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.splitlines()
    assert listed and [line for line in listed if line.startswith("120000")] == []


@checkout_only
@pytest.mark.parametrize("folder", ["algorithms", "reports"])
def test_a_floor_loads_once_under_its_installed_name(folder: str) -> None:
    """From the top of the checkout, ``import algorithms`` is refused naming pram.algorithms,
    so no file loads as two modules."""
    script = f"import pram.{folder}; import {folder}"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        f"ImportError: {folder!r} is not importable by that name: import pram.{folder} instead "
        f"(it is installed as pram.{folder}; pip install -e . from the checkout)"
    )
