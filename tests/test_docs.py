"""The README and the documentation site run as written and say what the code does.

- Every fenced block of the README and of every page under ``docs/`` (the tutorial has its own
  test, ``tests/test_tutorial.py``) is run or explicitly not run: Python blocks run in order in
  one namespace per page (a Python block followed by ``prints:`` and a ``text`` block must print
  exactly that text), console blocks run their ``$ pram ...`` lines in-process with the exit
  status the line gives (``# exit status N``, default 0); ``text`` blocks are output and ``diff``
  blocks patches, neither run; any block may be preceded by ``<!-- not run: REASON -->``.
- The site builds in strict mode (a broken link, anchor or API reference fails), once per
  session.
- The command-line reference (generated from the parser) lists every subcommand, option and
  exit status that ``pram --help`` and each subcommand's ``--help`` show.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pram.reports.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: The pages whose blocks run here (the tutorial's run in tests/test_tutorial.py, in order).
PAGES = [README, *sorted(p for p in DOCS.rglob("*.md") if p.name != "tutorial.md")]

#: A fenced block with the text before it (back to the previous block): language, code.
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.DOTALL | re.MULTILINE)
NOT_RUN = re.compile(r"<!-- not run: (.+?) -->\s*$", re.DOTALL)
STATUS = re.compile(r"\s+# exit status (\d+)$")
#: Languages that are shown, never run: a command's output, a patch.
SHOWN = {"text", "diff"}

SET_UP = [
    "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[plot]' && pram report",
    "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && pytest",
]


def blocks(text: str) -> list[tuple[str, str, str]]:
    """The fenced blocks of ``text`` in order, as (language, code, the text before it)."""
    out, start = [], 0
    for m in FENCE.finditer(text):
        out.append((m.group(1), m.group(2), text[start:m.start()]))
        start = m.end()
    return out


def commands(code: str) -> list[tuple[list[str], int]]:
    """The ``$ `` lines of a console block, as argv and the exit status expected."""
    out = []
    for line in code.splitlines():
        if not line.startswith("$ "):
            continue
        command, expected = line[2:], 0
        status = STATUS.search(command)
        if status:
            expected = int(status.group(1))
            command = command[: status.start()]
        out.append((shlex.split(command, comments=True), expected))
    return out


def _reference() -> ModuleType:
    """``docs/_hooks/reference.py``, the generator of the reference pages."""
    spec = importlib.util.spec_from_file_location("docs_reference", DOCS / "_hooks/reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_is_one_screen_with_the_set_up_first() -> None:
    """At most ~12 KB, the two set-up commands verbatim in its first 30 lines, and CI runs the
    test command exactly as the README gives it."""
    text = README.read_text()
    assert len(text.encode()) <= 12_500, len(text.encode())
    first = "\n".join(text.splitlines()[:30])
    for command in SET_UP:
        assert f"    {command}\n" in first
    assert SET_UP[1] in (ROOT / ".ci/run").read_text()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_block_of_the_page_runs(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each block runs (or says why not), in a fresh folder, in order."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    namespace: dict[str, object] = {"__name__": "docs"}
    found = blocks(page.read_text())
    printed: str | None = None
    for number, (language, code, before) in enumerate(found, 1):
        where = f"{page.relative_to(ROOT)} block {number}"
        if NOT_RUN.search(before):
            printed = None
            continue
        if language in SHOWN:
            if printed is not None and before.strip() == "prints:":
                assert printed == code, f"{where}: the block above printed\n{printed}"
            printed = None
            continue
        printed = None
        if language == "python":
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, where, "exec"), namespace)
            printed = out.getvalue()
        elif language == "console":
            ran = commands(code)
            assert ran, f"{where}: a console block without a $ pram line"
            for argv, expected in ran:
                assert argv[0] == "pram", f"{where}: only pram commands run here"
                with contextlib.redirect_stdout(io.StringIO()):
                    status = main(argv[1:])
                assert status == expected, (
                    f"{where}: {' '.join(argv)} exited {status}, expected {expected}")
        else:
            pytest.fail(f"{where}: a block of language {language!r}: tag it python, console, "
                        "text or diff, or precede it with <!-- not run: REASON -->")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once in strict mode into a folder of its own."""
    pytest.importorskip("mkdocs", reason="the docs extra: pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, check=False,
        env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def test_the_site_builds_in_strict_mode(site: Path) -> None:
    """Every page of the navigation is built, the generated ones with their tables."""
    cli = (site / "reference/cli/index.html").read_text()
    assert "pram sweep" in cli and "Exit statuses" in cli
    assert "max_processors" in (site / "reference/json/index.html").read_text()
    assert "Machine" in (site / "reference/api/index.html").read_text()
    assert (site / "tutorial/index.html").exists()


def _help(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        build_parser().parse_args([*argv, "--help"])
    return out.getvalue()


def test_the_cli_reference_lists_everything_help_shows() -> None:
    """Every subcommand of ``pram --help``, every option of each subcommand's ``--help`` and
    every exit status the commands define appear in the generated reference, in its section."""
    reference = _reference()
    text = reference.cli_reference()
    top = _help([])
    names = re.findall(r"^    (\w+) {2,}", top, re.MULTILINE)
    assert names == list(reference.subcommands(build_parser())) and len(names) >= 9
    sections = dict(zip(re.findall(r"^## pram (\w+)$", text, re.MULTILINE),
                        re.split(r"^## pram \w+$", text, flags=re.MULTILINE)[1:], strict=True))
    assert list(sections) == names
    for name in names:
        shown = set(re.findall(r"(?<![\w-])(--?[a-z][a-z0-9+-]*)", _help([name])))
        shown.discard("-h")
        shown.discard("--help")
        for option in shown:
            assert f"`{option}`" in sections[name] or f"`{option} " in sections[name], (
                f"pram {name} {option} is not in the reference")
    for action in build_parser()._actions:  # the positional arguments too, by metavar
        if action.choices and not action.option_strings:
            for name, sub in action.choices.items():
                for positional in sub._actions:
                    if not positional.option_strings and positional.metavar:
                        assert f"`{positional.metavar}`" in sections[name], (name, positional)
    for code in ("0", "1", "2", "130", "141"):
        assert f"\n| {code} |" in text


def test_the_json_reference_describes_every_field_printed() -> None:
    """The fields the commands print are the fields the reference describes (the hook refuses
    a drift; this runs it outside the build too)."""
    text = _reference().json_reference()
    for field in ("time", "work", "violations", "counts", "laws", "keys"):
        assert f"`{field}`" in text
