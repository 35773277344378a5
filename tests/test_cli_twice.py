"""The command line: an option given twice is refused before any work (the first value was
dropped unsaid), a flag given twice loses nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.commands import one_line_error, run_json


@pytest.mark.parametrize("argv, flag", [
    (("run", "sort", "--n", "8", "--output", "a.npy", "--output", "b.npy"), "--output"),
    (("run", "sort", "--n", "16", "--n", "32"), "--n"),
    (("run", "sort", "--n", "8", "--seed", "1", "--seed", "2"), "--seed"),
    (("run", "sort", "--n", "8", "--model", "erew", "--model", "crew"), "--model"),
    (("sweep", "sort", "--n", "8,16", "--n", "32,64,128,256"), "--n"),
    (("example", "tokens", "t.npy", "--n", "30", "--n", "60"), "--n"),
])
def test_an_option_given_twice_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch,
                                          argv: tuple[str, ...], flag: str) -> None:
    """The first value was dropped unsaid (``--output a.npy --output b.npy`` wrote b only)."""
    monkeypatch.chdir(tmp_path)
    line = one_line_error(capsys, *argv)
    assert f"{flag} given twice" in line and "give it once" in line
    assert list(tmp_path.iterdir()) == []  # refused before any work


def test_a_flag_given_twice_loses_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    status, run = run_json(capsys, "run", "sort", "--n", "8", "--json")
    assert status == 0 and run["correct"] is True
