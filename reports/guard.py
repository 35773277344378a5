"""The size guard: one check, before any allocation, that what a command is about to build fits.

Every command that allocates (``run``, ``sweep``, ``report``, ``zoology``, ``circuit``,
``example``, and any command added later) refuses work that would not fit the memory
available, or ``--max-memory``, with one line naming the size asked for, the largest that fits
and the fix. The pieces, each usable alone:

- :func:`parse_memory`: the strict parser of ``--max-memory`` (``512M``, ``8G``, ``1.5GiB`` or
  a whole number of bytes; ``''``, ``0.5``, ``-1``, ``abc`` refused naming those forms);
- :func:`ceiling`: the bytes a command may take (``--max-memory``, else what is available);
- :func:`refuse_bytes`: the generic refusal, for a command that knows what it needs
  (``pram trace`` calls it with its own estimate);
- :func:`refuse_oversized`: the refusal of an algorithm's run, from ``Algorithm.memory``;
- :func:`declared_arrays` and :func:`refuse_declared`: the shapes an ``.npy`` or ``.npz``
  declares, read from its headers without decompressing anything, checked before loading (a
  small zip can declare gigabytes);
- :class:`Budget`: the ceiling shared by runs in parallel (a run starts only when its need and
  those of the runs already going fit together).
"""

from __future__ import annotations

import math
import os
import re
import zipfile
from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from pram import InputError
from pram.declaration.apart import drawn, kept
from pram.reports.entries import algorithm
from pram.reports.options import MOST_DIGITS, Options
from pram.reports.registry import Algorithm

#: The forms ``--max-memory`` takes, for its refusals.
FORMS = "a whole number of bytes or an amount like 512M, 8G or 1.5G"

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}


def parse_memory(text: str, flag: str = "--max-memory") -> int:
    """``"8G"``, ``"512M"``, ``"1.5GiB"`` or a whole number of bytes, as bytes (binary units).

    Strict: an empty value, a fraction of a byte (``0.5``), a negative or zero amount and text
    are refused, so that a typo never means "no ceiling".

    >>> parse_memory("1.5K"), parse_memory("8G") == 8 << 30, parse_memory("100")
    (1536, True, 100)
    """
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(?:i?b)?\s*", str(text).lower())
    if found and len(found.group(1)) > MOST_DIGITS:
        raise InputError(f"{flag} {str(text).strip()[:12]}... has {len(found.group(1)):,} "
                         f"digits, more than any memory; give {FORMS}")
    # exact (a Fraction, not a float): 400 digits of bytes are a size, not infinity
    count = int(Fraction(found.group(1)) * _UNITS[found.group(2)]) if found else 0
    if found is None or count < 1 or ("." in found.group(1) and not found.group(2)):
        raise InputError(f"{flag} {text!r} is not a size; give {FORMS}")
    return count


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


def ceiling(max_memory: int | None) -> int:
    """The bytes a command may take: ``max_memory``, else what this machine has available."""
    return max_memory if max_memory is not None else available_memory()


def size_text(count: float) -> str:
    """Bytes as a short figure in binary units, e.g. ``2.4 TiB`` (``1.07e+11 PiB`` past a
    million PiB, and ``1e+308 B or more`` past a float)."""
    if math.isinf(count):
        return "1e+308 B or more"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if count < 1024 or unit == "PiB":
            if unit == "B":
                return f"{count:.0f} {unit}"
            return f"{count:.1f} {unit}" if count < 1e6 else f"{count:.3g} {unit}"
        count /= 1024
    raise AssertionError("unreachable")


def size_at_least(count: float) -> str:
    """``count`` bytes as ``--max-memory`` takes them (``6.3KiB``), rounded up, so that the
    advice to give at least it is taken (``6.2KiB``, rounded down from 6,340 bytes, was
    refused again)."""
    if math.isinf(count):
        return "1e+308B"
    value, unit = float(count), "B"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if value < 1024 or unit == "PiB":
            break
        value /= 1024
    if unit == "B":
        return f"{math.ceil(value)}B"
    step = 0.1 if value < 1e6 else 10.0 ** (math.floor(math.log10(value)) - 2)
    up = math.ceil(value / step - 1e-9) * step
    return f"{up:.1f}{unit}" if value < 1e6 else f"{up:.3g}{unit}"


def _where(max_memory: int | None) -> str:
    return "--max-memory allows" if max_memory is not None else "this machine has available"


def refuse_bytes(what: str, need: float, max_memory: int | None, fits: str | None) -> None:
    """Refuse ``what`` when its ``need`` (bytes) exceeds :func:`ceiling`, in one line.

    ``fits`` completes the refusal with the largest size that fits and the option to give it
    (``"the largest --n that fits is 4096, so give --n 4096 or less"``); None when nothing fits.

    >>> refuse_bytes("a trace", 10.0, 100, None)
    >>> try:
    ...     refuse_bytes("a trace at --n 9", 1000.0, 100, "give --n 1")
    ... except InputError as error:
    ...     print(str(error)[:60])
    a trace at --n 9 needs about 1000 B of memory but --max-memo
    """
    limit = ceiling(max_memory)
    if need <= limit:
        return
    fix = (f"{fits} (or set the ceiling with --max-memory)" if fits else
           f"nothing fits; give --max-memory {size_at_least(need)} or more"
           + ("" if max_memory is not None else ", or free memory"))
    raise InputError(
        f"{what} needs about {size_text(need)} of memory but {_where(max_memory)} "
        f"{size_text(limit)}; {fix}"
    )


def largest(fits: Callable[[int], bool], above: int) -> int:
    """The largest k < ``above`` with ``fits(k)`` (0 if none), assuming fits is monotone."""
    lo, hi = 0, above
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo


def _sizes(entry: Algorithm, options: Options, n: int) -> dict[str, int]:
    defaults = entry.family.defaults
    sizes = {"n": n, "d": options.d or defaults.get("d", 16)}
    if "m" in defaults:
        sizes["m"] = options.m or n
    return sizes


def need_of(name: str, options: Options, sizes: Mapping[str, int] | None = None) -> float:
    """The bytes a run of ``name`` needs (0 when the entry declares no memory model)."""
    entry = algorithm(name)
    if entry.memory is None:
        return 0.0
    if sizes is None:
        sizes = _sizes(entry, options, options.n or entry.family.defaults["n"])
    return _need(entry.memory, sizes, options)


def _need(memory: Callable[[Mapping[str, int], Options], float], sizes: Mapping[str, int],
          options: Options) -> float:
    """``memory(sizes, options)`` in bytes; infinite for sizes past a float (a size of 400
    digits), which the models' float arithmetic cannot take."""
    try:
        return float(memory(sizes, options))
    except OverflowError:
        return math.inf


def refuse_oversized(name: str | Algorithm, options: Options,
                     sizes: Mapping[str, int] | None = None) -> None:
    """Refuse a run whose arrays would not fit, naming the largest size that does.

    ``sizes`` are the instance's (n, and m, d where they apply); by default they come from
    ``options`` and the family's defaults, so the check runs before anything is allocated.
    ``name`` may be the entry itself, looked up already.
    """
    entry = name if isinstance(name, Algorithm) else algorithm(name)
    name = entry.name
    if entry.memory is None:
        return
    if sizes is None:
        n = options.n or entry.family.defaults["n"]
        sizes = _sizes(entry, options, n)
    else:
        n = sizes["n"]
    limit = ceiling(options.max_memory)
    memory = entry.memory
    need = _need(memory, sizes, options)
    if need <= limit:
        return
    fits = largest(lambda k: _need(memory, _sizes(entry, options, k), options) <= limit, n)
    symbol = entry.family.symbols.get("n", "n")
    # (only a size the user may set: sort's formulas hold a d = 16 it does not take)
    large = [k for k in ("m", "d")
             if k in sizes and k in entry.family.defaults and sizes[k] > n]
    if large and fits >= n - 1:  # n fits; the other size is the one too large
        other = large[0]
        refuse_bytes(f"{name} at {other} = {sizes[other]:,}", need, options.max_memory,
                     f"give a smaller --{other}")
    shown = f"{n:,}" if n < 10**18 else f"a number of {len(str(n)):,} digits"
    smaller = ("give a smaller --input file" if options.input is not None  # (--n is refused
               else f"give --n {fits} or less")  # beside --input)
    refuse_bytes(
        f"{name} at {symbol} = {shown}", need, options.max_memory,
        f"the largest {symbol} that fits is {fits:,}, so {smaller}" if fits else None,
    )


# ---- files: what they declare, before anything is decompressed -------------------------------


@attrs.frozen
class Declared:
    """One array of a file, as its header declares it."""

    name: str
    shape: tuple[int, ...]
    #: The bytes the array takes once loaded (its shape times its item size).
    nbytes: int
    #: For an archive member: the uncompressed size its zip entry declares.
    stored: int = 0

    @property
    def length(self) -> int:
        """Its first dimension (1 for a scalar)."""
        return self.shape[0] if self.shape else 1


def _header(stream: Any, name: str) -> Declared | None:
    """The declared shape of the ``.npy`` stream (None when it is not one)."""
    from numpy.lib import format as npy

    try:
        version = npy.read_magic(stream)
        read = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
        shape, _, dtype = read(stream)
    except Exception:  # not an .npy: numpy's loader refuses it in its own words
        return None
    count = 1
    for side in shape:
        count *= int(side)
    return Declared(name, tuple(int(s) for s in shape), count * max(1, int(dtype.itemsize)))


def declared_arrays(path: str) -> list[Declared]:
    """The arrays ``path`` declares (an ``.npz``'s members, or an ``.npy``'s one array), read
    from the headers only: a few bytes of each member are decompressed, never the data.
    An unreadable file declares nothing (the loader then refuses it in its own words), and
    so does anything but a regular file (a FIFO is never opened here: it would block)."""
    if not os.path.isfile(path):
        return []
    if kept(path):  # a declaration's input: only a child of the framework's opens it
        found: list[Declared] = drawn(_headers, path, what=f"the look at {path!r}'s headers",
                                      fix="give another file")
        return found
    return _headers(path)


def _headers(path: str) -> list[Declared]:
    """:func:`declared_arrays` of a regular file."""
    try:
        if zipfile.is_zipfile(path):
            out = []
            with zipfile.ZipFile(path) as archive:
                for info in archive.infolist():
                    with archive.open(info) as member:
                        found = _header(member, info.filename.removesuffix(".npy"))
                    if found is not None:
                        out.append(attrs.evolve(found, stored=info.file_size))
            return out
        with open(path, "rb") as file:
            found = _header(file, Path(path).name)
        return [] if found is None else [found]
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, RuntimeError, NotImplementedError):
        return []


#: Bytes a loaded array costs beyond its own, per byte (its int64 copy, as checked).
LOAD_FACTOR = 2


def refuse_declared(path: str, flag: str, max_memory: int | None) -> list[Declared]:
    """Refuse ``path`` when loading the arrays it declares would not fit; return them.

    The need is each array's bytes (the larger of the header's shape and the zip entry's
    declared size) times :data:`LOAD_FACTOR`: the array read, and its checked copy.
    """
    arrays = declared_arrays(path)
    if not arrays:
        return arrays
    need = float(sum(max(a.nbytes, a.stored) for a in arrays) * LOAD_FACTOR)
    big = max(arrays, key=lambda a: max(a.nbytes, a.stored))
    shape = "x".join(str(s) for s in big.shape) or "scalar"
    refuse_bytes(
        f"{flag} {path!r} declares arrays ({big.name!r} of shape {shape}, "
        f"{size_text(max(big.nbytes, big.stored))}) that",
        need, max_memory, "give a smaller file",
    )
    return arrays


def refuse_input(name: str, path: str, options: Options) -> None:
    """Before loading ``--input``: the file's declared arrays fit, and so does the run at the
    size they declare (the first dimension of the largest array stands for n)."""
    arrays = refuse_declared(path, "--input", options.max_memory)
    if not arrays:
        return
    entry = algorithm(name)
    if entry.memory is None:
        return
    n = max(a.length for a in arrays)
    sizes = _sizes(entry, options, max(1, n))
    need = _need(entry.memory, sizes, options)
    if need > ceiling(options.max_memory):
        refuse_bytes(
            f"{name} on --input {path!r} (arrays of {n:,} entries)", need, options.max_memory,
            "give a smaller file",
        )


# ---- runs in parallel ---------------------------------------------------------------------------


@attrs.define
class Budget:
    """The memory ceiling shared by runs going at once: :meth:`admits` a run when its need and
    those of the runs already going fit together (a run alone is always admitted: it was
    checked against the whole ceiling before any work)."""

    limit: float
    going: dict[int, float] = attrs.field(factory=dict)

    def admits(self, need: float) -> bool:
        """Whether a run needing ``need`` bytes may start now."""
        return not self.going or sum(self.going.values()) + need <= self.limit

    def start(self, key: int, need: float) -> None:
        """Count the run ``key`` as going."""
        self.going[key] = need

    def finish(self, key: int) -> None:
        """Count the run ``key`` as finished."""
        self.going.pop(key, None)


def array_bytes(*shape: int, dtype: Any = np.int64) -> int:
    """The bytes an array of ``shape`` and ``dtype`` takes."""
    count = 1
    for side in shape:
        count *= int(side)
    return count * int(np.dtype(dtype).itemsize)
