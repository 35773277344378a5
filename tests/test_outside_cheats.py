"""The outside honesty battery (tests/outside_cheats/, written from the README, the docs and the
public API by a tester who had seen neither the code nor the tests): 109 plausible cheats, 50
deliberate ones and 26 honest idioms, each run on two inputs, the deliberate ones linted.

What it holds is the issue's bar, with the cases the project cannot stop named: of the
plausible cheats only a declaration whose build keeps its instance in a module global (P93)
and a batch whose program counts its passes in a module global (P98) pass, both documented
(the declare how-to, the batches how-to); every deliberate cheat that passes is flagged by
``pram lint``; the honest idioms refused are the three honesty.md lists as refused
(``np.take`` of a register into a table, ``.real`` of a complex register, ``np.vectorize``).
A new pass or a new refusal changes these sets, and the test says which.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BATTERY = Path(__file__).parent / "outside_cheats" / "battery.py"

KNOWN = {
    "plausible": {"P93", "P98"},
    # gc, ctypes, trace and profile hooks (format strings on the machine's ledger, D46, find
    # nothing: it sits in a slot no name reaches)
    "deliberate": {"D10", "D15", "D16", "D19", "D36", "D39"},
    "honest": {"H12", "H13", "H14"},
}


def test_the_outside_battery_passes_only_what_is_documented() -> None:
    done = subprocess.run([sys.executable, str(BATTERY)], capture_output=True, text=True,
                          timeout=600)
    out = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    found = {cat: set(re.findall(r"'(\w+)'", ids)) for cat, ids in
             re.findall(r"^(plausible|deliberate|honest): \d+ cases, \d+ BAD \[(.*)\]$", out,
                        re.MULTILINE)}
    assert set(found) == set(KNOWN), out[-3000:]
    lines = [line for line in out.splitlines() if " BAD " in line]
    for cat, known in KNOWN.items():
        assert found[cat] == known, (cat, sorted(found[cat] ^ known), lines)
    unflagged = re.search(r"^deliberate BAD and not flagged by lint: \[(.*)\]$", out,
                          re.MULTILINE)
    assert unflagged is not None and unflagged.group(1) == "", out[-3000:]
    assert len(re.findall(r"^[PDH]\d+ ", out, re.MULTILINE)) == 109 + 50 + 26
