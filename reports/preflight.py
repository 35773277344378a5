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
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from pram import InputError
from pram.reports.entries import algorithm
from pram.reports.options import ON_MACHINE, OPTIONS, Option, Options
from pram.reports.registry import Algorithm


def _reason(option: Option, entry: Algorithm) -> str:
    """Why ``option`` does not apply to ``entry``, completing "--flag VALUE does not apply to
    NAME: ..."."""
    if option.why is not None and (option.lists(entry) or option.algorithms == ON_MACHINE):
        return option.why
    return f"it applies only to {option.users()}"


def refuse_inapplicable(name: str, options: Options) -> None:
    """Refuse an option ``name`` ignores (a value other than its default), naming why: every
    row of the option table (:data:`pram.reports.options.OPTIONS`) that does not apply."""
    entry = algorithm(name)
    for option in OPTIONS:
        value = getattr(options, option.name)
        # the model an algorithm is written for is its default (``Algorithm.model``)
        default = entry.model if option.name == "model" else option.default
        if value == default or option.applies(entry, options):
            continue
        if value is False:
            shown = "--no-" + option.name.replace("_", "-")
        else:
            shown = option.flag if isinstance(value, bool) else f"{option.flag} {value}"
        raise InputError(f"{shown} does not apply to {name}: {_reason(option, entry)}; "
                         "leave it out")
    if options.input is not None:
        for size in ("n", "m"):
            if getattr(options, size) is not None:
                raise InputError(
                    f"--{size} {getattr(options, size)} and --input {options.input!r} both set "
                    f"the size; the input file decides it, so leave --{size} out"
                )


# ---- memory -----------------------------------------------------------------------------------

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_memory(text: str) -> int:
    """``"8G"``, ``"512M"``, ``"1.5GiB"`` or a number of bytes, as bytes (binary units)."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", text.lower())
    if found is None or float(found.group(1)) <= 0:
        raise InputError(
            f"--max-memory {text!r} is not a size; give a positive amount like 512M, 8G or 1.5G"
        )
    return int(float(found.group(1)) * _UNITS[found.group(2)])


def available_memory() -> int:
    """The memory this process may still take: MemAvailable, or the physical memory."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return 1 << 34


def size_text(count: float) -> str:
    """Bytes as a short figure in binary units, e.g. ``2.4 TiB``."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if count < 1024 or unit == "PiB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    raise AssertionError("unreachable")


def _sizes(entry: Algorithm, options: Options, n: int) -> dict[str, int]:
    defaults = entry.family.defaults
    sizes = {"n": n, "d": options.d or defaults.get("d", 16)}
    if "m" in defaults:
        sizes["m"] = options.m or n
    return sizes


def refuse_oversized(name: str, options: Options, sizes: Mapping[str, int] | None = None) -> None:
    """Refuse a run whose arrays would not fit, naming the largest size that does.

    ``sizes`` are the instance's (n, and m, d where they apply); by default they come from
    ``options`` and the family's defaults, so the check runs before anything is allocated.
    """
    entry = algorithm(name)
    if entry.memory is None:
        return
    if sizes is None:
        n = options.n or entry.family.defaults["n"]
        sizes = _sizes(entry, options, n)
    else:
        n = sizes["n"]
    limit = options.max_memory or available_memory()
    need = entry.memory(sizes, options)
    if need <= limit:
        return
    memory = entry.memory
    fits = _largest(lambda k: memory(_sizes(entry, options, k), options) <= limit, n)
    symbol = entry.family.symbols.get("n", "n")
    where = "--max-memory allows" if options.max_memory else "this machine has available"
    fix = (
        f"the largest {symbol} that fits is {fits:,}, so give --n {fits} or less"
        if fits else "nothing fits; free memory"
    )
    raise InputError(
        f"{name} at {symbol} = {n:,} needs about {size_text(need)} of memory but {where} "
        f"{size_text(limit)}; {fix} (or set the ceiling with --max-memory)"
    )


def _largest(fits: Callable[[int], bool], above: int) -> int:
    """The largest k < ``above`` with ``fits(k)`` (0 if none), assuming fits is monotone."""
    lo, hi = 0, above
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo


# ---- outputs ----------------------------------------------------------------------------------


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def writable_file(
    path: str, flag: str, suffixes: tuple[str, ...], inputs: Iterable[str | None] = ()
) -> Path:
    """``path`` checked before a run: right suffix, folder exists and is writable, not an input."""
    file = Path(path)
    if file.suffix.lower() not in suffixes:
        raise InputError(
            f"{flag} {path!r} must end in {' or '.join(suffixes)}; rename it, e.g. "
            f"{file.with_suffix(suffixes[0]).name!r}"
        )
    for given in inputs:
        if given is not None and _same(file, Path(given)):
            raise InputError(
                f"{flag} {path!r} is the input file; writing there would overwrite your data, "
                "so give another name"
            )
    folder = file.parent
    if not folder.exists():
        raise InputError(
            f"{flag} {path!r}: directory {str(folder)!r} does not exist; create it first"
        )
    if file.is_dir():
        raise InputError(f"{flag} {path!r} is a directory; give a file name")
    if not folder.is_dir():
        raise InputError(f"{flag} {path!r}: {str(folder)!r} is not a directory; fix the path")
    problem = _unwritable(folder) or (_unwritable(file) if file.exists() else None)
    if problem:
        raise InputError(
            f"{flag} {path!r} cannot be written ({problem}); give a path in a folder you can "
            "write"
        )
    return file


def _unwritable(path: Path) -> str | None:
    """Why ``path`` (a folder, or an existing file) cannot be written, or None: found by
    trying (a scratch file in the folder, an append-open of the file), which also holds for
    root and for read-only file systems."""
    try:
        if path.is_dir():
            with tempfile.NamedTemporaryFile(dir=path, prefix=".pram-probe-"):
                pass
        else:
            with path.open("ab"):
                pass
    except OSError as error:
        return error.strerror or type(error).__name__
    return None


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
        problem = _unwritable(folder)
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
