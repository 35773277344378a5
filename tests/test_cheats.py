"""Cheats against the machine's honesty, kept in tests/cheats/ as their authors (testers who had
seen neither the code nor the tests) wrote them from the README, the docs and the public API.

The cheats of the public API (``cheats/api.py``: registers, declarations, during runs,
idioms and ``deliberate/``): 109 plausible cheats, 50 deliberate ones and 26 honest idioms,
each run on two inputs, the deliberate ones linted.

What it holds is the issue's bar, with the cases the project cannot stop named: of the
plausible cheats only a batch whose program counts its passes in a module global (P98)
passes, documented (the batches how-to; a declaration whose build kept its instance in a
module global, P93, is closed since build runs in a child process, issue 33); every
deliberate cheat that passes is flagged by ``pram lint``; the honest idioms refused are the
two honesty.md lists as refused (``np.take`` of a register into a table and
``np.vectorize``; ``.real`` of a complex register runs, as ``np.real``).
A new pass or a new refusal changes these sets, and the test says which.

The cheats of sealed state (``cheats/sealed_state.py``, 225 cases by another tester from the
docs) are held the same way on the cases it found passing before its fixes: the closed ones
stay closed, the known ones (named below, documented) are the only ones that pass; and the
cheats of pram's internals (``cheats/internals.py``) on the cases they found: none passes.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

API_CHEATS = Path(__file__).parent / "cheats" / "api.py"

KNOWN = {
    "plausible": {"P98"},
    # gc, ctypes, trace and profile hooks (format strings on the machine's ledger, D46, find
    # nothing: it sits in a slot no name reaches)
    "deliberate": {"D10", "D15", "D16", "D19", "D36", "D39"},
    "honest": {"H12", "H14"},
}


def test_the_api_cheats_pass_only_what_is_documented() -> None:
    done = subprocess.run([sys.executable, str(API_CHEATS)], capture_output=True, text=True,
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


SEALED = Path(__file__).parent / "cheats" / "sealed_state.py"

#: Cheats of sealed state (``sealed_state.py``, 225 cases) that passed before their
#: fixes: the machine's slot readers reached through a module (``pram.trace.cells_of``,
#: ``pram.loop.raw_of``, ``pram.engine.fast.words_of``, ... imported plainly, by
#: ``from ... import``, ``vars``/``getattr`` with a built name, ``pydoc``, ``pkgutil``,
#: ``operator.attrgetter``), ``pram._held`` through ``sys.modules`` or ``importlib``, the
#: ledger rewritten after a run, machines made before a measured call (a sweep builder's, a
#: weakest_model's), ``distinct_processors=False`` hiding an EREW concurrent read, and a
#: register of run 1 kept for run 2 of the same machine (issue 33: a register belongs to its
#: run), a declaration's build keeping its instance in a module global (issue 33: build
#: runs in a child process) and its program calling build with a guessed seed (issue 33: the
#: names of build and load refuse while it runs). Each is now refused or learns nothing.
SEALED_CLOSED = {
    "mod-trace-cells_of-a", "mod-memory-cells_of-a", "mod-views-cells_of-a",
    "mod-core-cells_of-a", "mod-loop-raw_of-x", "mod-register-raw_of-x", "mod-holding-raw_of-x",
    "mod-depth-raw_of-x", "mod-fast-words_of-x", "mod-checks-raw_of-x", "mod-from-import-raw_of",
    "mod-sysmodules-held", "mod-importlib-held", "mod-held-attr", "mod-scan-public",
    "mod-put_raw-sort", "mod-put_cells-sort", "mod-owners-count", "mod-trace-max-1step",
    "step-shared-id-hides-conflict", "cost-mutate-after-run", "sweep-builder-cost-rewrite",
    "sweep-premade-pool", "sweep-premade-m-n", "decl-trace-cells_of",
    "decl-trace-cells_of-writes", "decl-held-put-cells", "decl-sweep-raw", "batch-raw-of",
    "lint-vars-module", "lint-getattr-module", "lint-alias-import", "weakest-premade-token",
    "lint-pydoc-locate", "lint-pkgutil-resolve", "lint-attrgetter-module",
    "lint-from-import-words", "lint-pydoc-plain", "stash-register-same-machine",
    "decl-build-stash", "decl-build-guess-seed",
}

#: The plausible cheats of it that still pass, each a module's own Python keeping data past the
#: machine: a batch's global pass counter (the batches how-to says so; a declaration's program
#: calling its build with a guessed seed is refused since issue 33); and the deliberate ones
#: that pass (gc, frames, settrace, ctypes, the author's own observer, a generator's frame),
#: each flagged by the lint.
SEALED_KNOWN = {
    "cheat": {"until-batch-pass-count"},
    "deliberate": {"dl-gc-referents", "dl-frames", "dl-settrace", "dl-ctypes", "dl-observer",
                   "dl-gen-frame"},
}


def _cheats(script: Path, cases: set[str]) -> list[tuple[str, str, str, str, str]]:
    """The rows ``(id, kind, verdict, outcome, why)`` of a file of cheats' ``cases``, run as
    its author runs them (each case in a child process, the deliberate ones linted)."""
    pram = Path(sys.executable).with_name("pram")
    done = subprocess.run(
        [sys.executable, str(script), "--python", sys.executable, "--pram", str(pram),
         "--only", ",".join(sorted(cases))],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    rows: list[tuple[str, str, str, str, str]] = re.findall(
        r"^(\S+) +(cheat|deliberate|idiom) +(\w+) +(\w+) +(.*)$", done.stdout, re.MULTILINE)
    assert {row[0] for row in rows} == cases, done.stdout[-3000:]
    return rows


def test_the_sealed_state_cheats_refuse_what_they_found_and_pass_only_the_known() -> None:
    """The cases of sealed_state.py that passed before its round's fixes: the closed ones are
    refused or learn nothing, and exactly the known ones still pass, the deliberate among
    them flagged."""
    known = set().union(*SEALED_KNOWN.values())
    rows = _cheats(SEALED, SEALED_CLOSED | known)
    verdicts = {cid: (kind, verdict) for cid, kind, verdict, _, _ in rows}
    passing = {kind: {cid for cid, (k, v) in verdicts.items() if k == kind and v == "PASSES"}
               for kind in SEALED_KNOWN}
    assert passing == SEALED_KNOWN, [row for row in rows if row[2] != "ok"]
    assert {verdicts[cid][1] for cid in SEALED_CLOSED} == {"ok"}, rows
    unflagged = [cid for cid, kind, verdict, _, rest in rows
                 if kind == "deliberate" and not rest.endswith("[lint: flagged]")]
    assert unflagged == [], rows


INTERNALS = Path(__file__).with_name("cheats") / "internals.py"

#: The cases of internals.py that passed before its round's fixes: np.interp with a register as
#: its table, internal functions under public names (pram.loop.answer, operations.unwrap and
#: host, driver.seal, fast.store), a polling thread's copy of memory mid-run, pram.MODELS and
#: a model's class patched, settings.CHECKS rewritten, a Formula whose text is not its
#: function, weakest_model fooled by a program reading m.model, and a module reading the
#: command's arguments or stashing load's input. Each is refused or learns nothing now.
INTERNALS_CLOSED = {
    "sh-interp", "cx-interp-fp", "cx-interp-xp", "cx-interp-period", "dc-load-stash",
    "dc-argv-build", "dc-program-reads-file", "dc-models-patch-module", "dc-formula-text-lies",
    "sw-check-formula-text", "wk-model-sniff", "th-poll-race", "ip-loop-answer",
    "ip-loop-answer-int", "ip-unwrap", "ip-unwrap-wrap-sort", "ip-host-midrun",
    "ip-driver-unseal", "ip-unseal-store-sort", "ip-fast-store-midrun", "ob-model-class-attr",
}
#: The deliberate one that passed, flagged by the lint, until pram's modules were sealed (a
#: module attribute of pram assigned: refused now); its gc, frame and trace-hook cases are
#: sealed_state.py's, and its patches of pram.MODELS and settings.CHECKS, now read-only, are
#: tests of test_honesty_cheats.
INTERNALS_SEALED = {"ip-ids-same-patch"}


def test_the_internals_cheats_refuse_what_they_found() -> None:
    """The cases of internals.py that passed before its round's fixes: none passes now."""
    rows = _cheats(INTERNALS, INTERNALS_CLOSED | INTERNALS_SEALED)
    assert {cid: verdict for cid, _, verdict, _, _ in rows if verdict != "ok"} == {}, rows
