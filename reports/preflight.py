"""The refusals every command makes before any work: options that apply, sizes that fit, outputs
that can be written.

One rule for every command: what can be found wrong before a run is found then, with one line
naming the value and the fix (an :class:`pram.InputError`, exit status 2). Three mechanisms,
each in one place so that a new option or algorithm plugs in:

- :func:`refuse_inapplicable`: an option that does not apply to an algorithm is refused. The
  option table (:data:`pram.reports.options.OPTIONS`) says for each option its default, the
  algorithms it applies to and the reason it may not. ``--model``, ``--mode`` and
  ``--distinct-processors`` apply to every algorithm that runs on the machine.
- :func:`refuse_oversized`: each algorithm declares ``Algorithm.memory``, the bytes a run needs
  at given sizes (measured peaks times a margin); a run that does not fit the memory available
  (or ``--max-memory``) is refused naming the largest size that fits.
- :func:`writable_file` and :func:`writable_dir`: an output is checked before the run (its
  folder exists and is writable, it is not one of the inputs).
"""

from __future__ import annotations

import os
from pathlib import Path

from pram import InputError
from pram.reports.entries import algorithm
from pram.reports.guard import available_memory, parse_memory, refuse_oversized, size_text
from pram.reports.options import BY_NAME, ON_MACHINE, OPTIONS, TOKEN_ALGORITHMS, Option, Options
from pram.reports.registry import Algorithm
from pram.reports.writer import check_output, unwritable


def _reason(option: Option, entry: Algorithm) -> str:
    """Why ``option`` does not apply to ``entry``, completing "--flag VALUE does not apply to
    NAME: ..."."""
    if option.why is not None and (option.lists(entry) or option.algorithms == ON_MACHINE):
        return option.why
    return f"it applies only to {option.users()}"


def refuse_inapplicable(name: str | Algorithm, options: Options) -> None:
    """Refuse an option ``name`` ignores (a value other than its default), naming why: every
    row of the option table (:data:`pram.reports.options.OPTIONS`) that does not apply.
    ``name`` may be the entry itself, looked up already."""
    entry = name if isinstance(name, Algorithm) else algorithm(name)
    name = entry.name
    for option in OPTIONS:
        value = getattr(options, option.name)
        # the model an algorithm is written for is its default (``Algorithm.model``)
        default = entry.model if option.name == "model" else option.default
        if (value == default and option.name not in options.given) or option.applies(
                entry, options):
            continue
        if value is False:
            shown = "--no-" + option.name.replace("_", "-")
        else:
            shown = option.flag if isinstance(value, bool) else f"{option.flag} {value}"
        raise InputError(f"{shown} does not apply to {name}: {_reason(option, entry)}; "
                         "leave it out")
    if options.d is not None and name not in TOKEN_ALGORITHMS:
        raise InputError(
            f"--d {options.d} does not apply to {name}: it applies only to "
            f"{' and '.join(TOKEN_ALGORITHMS)} (the width of a token); leave it out"
        )
    if options.input is not None and (options.seed != BY_NAME["seed"].default
                                      or "seed" in options.given):
        raise InputError(
            f"--seed {options.seed} does not apply with --input {options.input!r}: the seed "
            "draws a random instance, and the input file is the instance; leave --seed out"
        )
    if options.input is not None:
        for size in ("n", "m"):
            if getattr(options, size) is not None:
                raise InputError(
                    f"--{size} {getattr(options, size)} and --input {options.input!r} both set "
                    f"the size; the input file decides it, so leave --{size} out"
                )


# ---- memory: the size guard (pram.reports.guard), named here for the callers of old -------

def matplotlib_home() -> None:
    """Give matplotlib a writable folder when its own are not (a read-only or missing HOME):
    it would otherwise warn on standard error at its import. ``MPLCONFIGDIR`` given by the
    user is kept; else a fresh temporary folder is used for this command and removed at exit."""
    if os.environ.get("MPLCONFIGDIR"):
        return
    home = Path(os.path.expanduser("~"))
    config = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "matplotlib"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache") / "matplotlib"
    # a HOME that does not exist is no place to make matplotlib's folders in (as root it
    # would be made; on a read-only root it fails, with a warning), whatever its parents
    if home.is_dir() and all(_writable(folder) for folder in (config, cache)):
        return
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="pram-matplotlib-")
    atexit.register(shutil.rmtree, folder, True)
    os.environ["MPLCONFIGDIR"] = folder


def _writable(folder: Path) -> bool:
    """Whether ``folder`` is, or could be made, a folder this process may write in."""
    try:
        for place in (folder, *folder.parents):
            if place.exists():
                return place.is_dir() and os.access(place, os.W_OK | os.X_OK)
    except OSError:  # a HOME this user may not even look in (sudo -u keeps HOME)
        return False
    return False


__all__ = [
    "available_memory",
    "inputs_of",
    "matplotlib_home",
    "parse_memory",
    "refuse_inapplicable",
    "refuse_oversized",
    "require_matplotlib",
    "size_text",
    "writable_dir",
    "writable_file",
]


# ---- outputs ----------------------------------------------------------------------------------


def inputs_of(options: Options) -> list[tuple[str, str | None]]:
    """The files a command reads, by flag: ``--input`` and the ``--module`` file (a package
    module is no file given), so that no output of it is, or links to, one of them."""
    module = options.module
    where = module.rpartition(":")[0] if module is not None else ""
    return [("--input", options.input), ("--module", where if where.endswith(".py") else None)]


def writable_file(path: str, flag: str, suffixes: tuple[str, ...], options: Options) -> Path:
    """``path`` checked before a run (:func:`pram.reports.writer.check_output`): right suffix,
    folder exists and is writable, a regular file if it exists, not one of the command's
    inputs (:func:`inputs_of`)."""
    return check_output(path, flag, suffixes, inputs_of(options))


def writable_dir(path: str, flag: str) -> Path:
    """A folder to write into, checked before the run: it or its parent exists and is
    writable (the parent too, since the folder is replaced as a whole)."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise InputError(f"{flag} {path!r} is a file; give a directory")
    parent = target.resolve().parent
    if not parent.is_dir():
        raise InputError(
            f"{flag} {path!r}: directory {str(parent)!r} does not exist; create it first"
        )
    for folder in (parent, target) if target.exists() else (parent,):
        problem = unwritable(folder)
        if problem:
            raise InputError(
                f"{flag} {path!r} cannot be written ({str(folder)!r}: {problem}); give a "
                "folder you can write"
            )
    return target


#: How to install the optional plotting extra, for the refusal of a command that plots.
INSTALL = "pip install matplotlib (in a checkout: pip install -e '.[plot]')"


def require_matplotlib() -> None:
    """Refuse a command that plots, before it starts and in one line, when matplotlib is
    missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError(f"plots need matplotlib, which is not installed; {INSTALL}") from None
    except ValueError as error:  # a setting it refuses as it starts, e.g. MPLBACKEND=bogus
        given = os.environ.get("MPLBACKEND")
        setting = f"MPLBACKEND={given!r}" if given is not None else "a matplotlibrc setting"
        raise InputError(
            f"matplotlib refused to start ({str(error).split(';')[0]}): {setting}; unset "
            "MPLBACKEND or set MPLBACKEND=agg (the plots are files, any backend draws them)"
        ) from None
