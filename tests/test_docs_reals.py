"""The documentation's section on reals, overflow and CRCW-common (docs/explanation/machine.md)
runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

#: The page that holds the section on reals (moved from the README into the documentation).
MACHINE_PAGE = Path(__file__).resolve().parent.parent / "docs" / "explanation" / "machine.md"


def test_the_section_on_reals_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    text = MACHINE_PAGE.read_text()
    section = text[text.index("## Real numbers, overflow"):]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    scope: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(MACHINE_PAGE), "exec"), scope)
    y, A, x = scope["y"], scope["A"], scope["x"]
    assert np.allclose(y.to_numpy(), A.to_numpy() @ x.to_numpy())  # type: ignore[attr-defined]
    assert capsys.readouterr().out.startswith(
        "CRCW-common forbids disagreeing writes: processors 0 and 1 write 1 and 2 to a[0]")
