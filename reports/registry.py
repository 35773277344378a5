"""The algorithms the command line knows, each registered in exactly one place.

An :class:`Algorithm` says how to get an instance (a random one, or the user's ``--input``
file, both through its :class:`Family`), how to run it on a :class:`pram.Machine`, what the
reference answer is, and which bounds its work and time are checked against. Rendering, sweeps
and the report only ever go through this table, so a new algorithm plugs in with one entry.

Bounds are evaluated at the sizes the machine actually ran (a padded N, for instance), and
``log2`` in every formula is taken as at least 1, so a formula never vanishes at tiny sizes.
With word keys a token is one word and a comparison one operation, so the formulas use d = 1
(the report still shows the d that was asked for); with bit keys they use the d that ran.
"""

from __future__ import annotations

import math
import numbers
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from pram import Cost, Formula, InputError, Machine, Words, words

#: Models a run may use: the ones of the command-line contract, plus the combining models.
MODEL_NAMES = (
    "erew",
    "crew",
    "crcw-common",
    "crcw-arbitrary",
    "crcw-priority",
    "crcw-sum",
    "crcw-max",
    "crcw-min",
)
KEY_NAMES = ("word", "bits")
COMPARATOR_NAMES = ("serial", "tree")
SORT_NAMES = ("merge-tree", "per-block")
SEARCH_NAMES = ("pbs", "oblivious")
NETWORK_NAMES = ("bitonic", "odd-even")

#: Largest token width: a token must fit a non-negative int64.
MAX_D = 62


def lg(x: float) -> float:
    """``log2(x)``, but at least 1, so that a bound's formula never vanishes at tiny sizes."""
    return math.log2(x) if x > 2 else 1.0


@attrs.frozen
class Options:
    """What the user asked for: sizes, representation, model and where the input comes from."""

    n: int | None = None
    m: int | None = None
    d: int | None = None
    keys: str = "word"
    comparator: str = "serial"
    sort: str = "merge-tree"
    #: The search inside Algorithm 11's blocks: Algorithm 10, or the oblivious merge and scan.
    search: str = "pbs"
    network: str = "bitonic"
    model: str = "erew"
    mode: str = "collect"
    seed: int = 0
    input: str | None = None
    check: bool = True
    #: Refuse a processor id acting twice in one global step (None: the machine's default).
    distinct_processors: bool | None = None
    #: The memory a run may need, in bytes (None: what the machine has available).
    max_memory: int | None = None

    def __attrs_post_init__(self) -> None:
        """Refuse a value of the wrong type at once, naming the argument (``Options(n="48")``)."""
        for name in ("n", "m", "d", "seed", "max_memory"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, numbers.Integral)
            ):
                raise InputError(
                    f"Options({name}={value!r}): {name} must be an int"
                    + (" or None" if name != "seed" else "")
                    + f", not {type(value).__name__}; e.g. Options({name}={_example(value)})"
                )
        for name in ("keys", "comparator", "sort", "network", "model", "mode"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise InputError(
                    f"Options({name}={value!r}): {name} must be a str, not "
                    f"{type(value).__name__}"
                )
        if self.input is not None and not isinstance(self.input, str):
            raise InputError(
                f"Options(input={self.input!r}): input must be a path as a str, not "
                f"{type(self.input).__name__}; e.g. Options(input=str(path))"
            )
        for name in ("check", "distinct_processors"):
            value = getattr(self, name)
            if not isinstance(value, bool) and not (name != "check" and value is None):
                raise InputError(
                    f"Options({name}={value!r}): {name} must be True or False, not "
                    f"{type(value).__name__}"
                )


def _example(value: object) -> str:
    """A whole number like ``value`` (``"48"`` -> ``48``), for the fix in a message."""
    try:
        return str(int(str(value)))
    except ValueError:
        return "48"


@attrs.frozen
class Instance:
    """One input: its arrays (``tokens``, or ``queries`` and ``keys``, or ``values``) and sizes.

    ``sizes`` are as the user gave them (``n``, and ``m`` or ``d`` where they apply).
    """

    data: Mapping[str, Words]
    sizes: Mapping[str, int]
    notes: tuple[str, ...] = ()


@attrs.frozen
class Solution:
    """What a run produced: its answer, the sizes the bounds are evaluated at, and notes.

    ``cost`` is set only by algorithms that do not run on the machine (Algorithm 9 counts its
    comparisons itself); for the others the machine's ledger is the cost.
    """

    output: Words
    bound_sizes: Mapping[str, float]
    notes: tuple[str, ...] = ()
    cost: Cost | None = None


@attrs.frozen
class Bound:
    """A bound on one measure: its formula (the verdict comes from a sweep's laws).

    ``limit`` is kept for old entries and decides nothing: a cap copied from the project's own
    measurements cannot tell a bound that holds from one that does not.
    """

    formula: Formula
    limit: float | None = None
    #: Whether the bound is checked for a run with these options (e.g. only for bit keys).
    applies: Callable[[Options], bool] = attrs.field(default=lambda options: True, eq=False)


@attrs.frozen
class Family:
    """The instances several algorithms share (MQAR sequences, search problems, sort inputs)."""

    name: str
    #: Sizes a user may set, with their defaults (``n`` always; ``m``, ``d`` where they apply).
    defaults: Mapping[str, int]
    build: Callable[[Options, np.random.Generator], Instance]
    load: Callable[[str, Options], Instance]
    reference: Callable[[Instance], Words]
    #: The reference's name, for reports ("Algorithm 9", "bisect_left", "sorted order").
    reference_name: str
    #: How each size is written in reports, e.g. ``{"n": "N"}`` for MQAR's sequence length.
    symbols: Mapping[str, str] = attrs.field(factory=dict)


@attrs.frozen
class Algorithm:
    """One runnable algorithm: its family, how it runs, and its bounds."""

    name: str
    title: str
    family: Family
    solve: Callable[[Machine, Instance, Options], Solution]
    bounds: Mapping[str, Bound]
    #: False for algorithms whose operations are counted by the algorithm itself (RAM model).
    on_machine: bool = True
    #: Options that change what this algorithm does (shown in reports), e.g. ("keys", "sort").
    uses: tuple[str, ...] = ("keys",)
    #: A reference other than the family's (Algorithm 9 is not checked against itself).
    reference: Callable[[Instance], Words] | None = None
    reference_name: str | None = None
    #: The model it is written for: what ``pram run`` uses when ``--model`` is not given.
    model: str = "erew"
    #: The bytes a run needs at sizes ``{"n", "m", "d"}`` with these options, for the size
    #: guard (:mod:`reports.preflight`): measured peaks times a margin. None: not guarded.
    memory: Callable[[Mapping[str, int], Options], float] | None = attrs.field(
        default=None, eq=False
    )
    #: Bounds of phases (by top-level phase label, then measure), each checked on its own.
    phase_bounds: Mapping[str, Mapping[str, Bound]] = attrs.field(factory=dict)

    def expected(self, instance: Instance) -> Words:
        """The reference answer for ``instance``."""
        return (self.reference or self.family.reference)(instance)

    @property
    def checked_against(self) -> str:
        """The name of the reference the answer is compared with."""
        return self.reference_name or self.family.reference_name


#: The table: algorithm name -> what runs. Filled by :mod:`reports.algorithms`.
ALGORITHMS: dict[str, Algorithm] = {}


def register(algorithm: Algorithm) -> Algorithm:
    """Add ``algorithm`` to the table (a later entry with the same name replaces it)."""
    ALGORITHMS[algorithm.name] = algorithm
    return algorithm


def algorithm(name: str) -> Algorithm:
    """The registered algorithm called ``name``, or an InputError listing the known ones."""
    import pram.reports.algorithms  # noqa: F401  (fills the table)

    found = ALGORITHMS.get(name)
    if found is None:
        raise InputError(f"algorithm must be one of {', '.join(ALGORITHMS)} (got {name!r})")
    return found


def names() -> list[str]:
    """The names of every registered algorithm, in registration order."""
    import pram.reports.algorithms  # noqa: F401  (fills the table)

    return list(ALGORITHMS)


# ---- validation of options and files ------------------------------------------------------


def validate(options: Options) -> None:
    """Refuse options no algorithm can run with, naming the value and the fix."""
    for size in ("n", "m", "d"):
        value = getattr(options, size)
        if value is not None and value < 1:
            raise InputError(f"--{size} must be a positive integer (got {value})")
    if options.d is not None and options.d > MAX_D:
        raise InputError(f"--d must be at most {MAX_D} so a token fits a word (got {options.d})")
    for flag, value, allowed in (
        ("keys", options.keys, KEY_NAMES),
        ("comparator", options.comparator, COMPARATOR_NAMES),
        ("sort", options.sort, SORT_NAMES),
        ("search", options.search, SEARCH_NAMES),
        ("network", options.network, NETWORK_NAMES),
        ("model", options.model, MODEL_NAMES),
        ("mode", options.mode, ("collect", "raise")),
    ):
        if value not in allowed:
            raise InputError(f"--{flag} must be one of {', '.join(allowed)} (got {value!r})")


def bits_needed(top: int) -> int:
    """How many bits the token ``top`` needs (at least 1)."""
    return max(1, int(top).bit_length())


def file_width(values: Words, label: str) -> int:
    """The bits the widest entry of ``values`` needs, refused above :data:`MAX_D` like ``--d``.

    ``label`` names the array in the message, e.g. ``"tokens in 'u.npy'"``.
    """
    if len(values) == 0:
        return 1
    wide = int(np.argmax(np.maximum(values, -(values + 1))))  # no overflow at -2^63
    top = int(values[wide])
    d = bits_needed(abs(top))
    if d > MAX_D:
        raise InputError(
            f"{label} holds entry {wide} = {top}, which needs {d} bits; entries must fit in "
            f"d = {MAX_D} bits (below 2^{MAX_D}), so renumber them"
        )
    return d


def load_array(path: str, what: str) -> Words:
    """Read a 1-d array of integers from a ``.npy`` file, refusing anything else clearly."""
    data = _open(path, ".npy", what, "input file")
    if isinstance(data, np.lib.npyio.NpzFile):
        data.close()
        raise InputError(f"input file {path!r} is an .npz archive; it must be {what}")
    return words(data, f"the array in {path!r}")


def load_arrays(path: str, names: tuple[str, ...], what: str) -> dict[str, Words]:
    """Read named 1-d integer arrays from an ``.npz`` file, refusing anything else clearly."""
    raw = read_archive(path, names, what, "input file")
    return {n: words(raw[n], f"{n!r} in {path!r}") for n in names}


def read_archive(
    path: str, names: tuple[str, ...], what: str, noun: str
) -> dict[str, np.ndarray[Any, Any]]:
    """The arrays ``names`` of the ``.npz`` file ``path``, as stored (no other checks).

    ``what`` describes the file expected and ``noun`` names it ("input file", "batch file")
    in the one-line refusals: missing, a directory, unreadable, not an archive, no such array.
    """
    archive = _open(path, ".npz", what, noun)
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise InputError(f"{noun} {path!r} is a single .npy array; it must be {what}")
    with archive:
        missing = [n for n in names if n not in archive.files]
        if missing:
            held = ", ".join(archive.files) or "nothing"
            raise InputError(
                f"{noun} {path!r} has no array {missing[0]!r} (it holds {held}); "
                f"it must be {what}"
            )
        try:
            return {n: np.asarray(archive[n]) for n in names}
        except Exception as error:  # a bad CRC or an object array inside
            raise unreadable(path, ".npz", what, noun, error) from None


def _open(path: str, suffix: str, what: str, noun: str) -> Any:
    file = Path(path)
    if not file.exists():
        raise InputError(f"{noun} {path!r} does not exist; give the path of {what}")
    if file.is_dir():
        raise InputError(f"{noun} {path!r} is a directory; give the path of {what}")
    try:
        return np.load(file, allow_pickle=False)
    except Exception as error:  # every way a file can be broken: one line
        raise unreadable(path, suffix, what, noun, error) from None


def unreadable(path: str, suffix: str, what: str, noun: str, error: BaseException) -> InputError:
    """The one-line refusal of a file numpy could not read, in our words, never numpy's advice.

    numpy suggests ``allow_pickle`` for text files, pickles and object arrays; a pickle can run
    any code when loaded, so the message says what the file holds instead.
    """
    text = str(error)
    if "Object arrays" in text:
        reason = "it holds an array of Python objects, not of integers"
    elif "pickle" in text:
        reason = "it is not in numpy's format: text or a pickle, which pram never loads"
    elif isinstance(error, zipfile.BadZipFile) or "zip" in text.lower() or "CRC" in text:
        reason = "the archive is truncated or corrupt" + (
            f" ({text.splitlines()[0]})" if "CRC" in text else ""
        )
    elif isinstance(error, EOFError) or "fully written" in text or "read all data" in text:
        reason = "the file is empty or truncated"
    elif isinstance(error, MemoryError):
        reason = "its header asks for more memory than this machine has"
    elif isinstance(error, OSError):
        reason = text.splitlines()[0] if text else type(error).__name__
    else:
        reason = f"{type(error).__name__}: {text.splitlines()[0]}" if text else type(error).__name__
    return InputError(
        f"{noun} {path!r} is not a readable {suffix} file ({reason}); it must be {what}, "
        f"saved with numpy.{'save' if suffix == '.npy' else 'savez'}"
    )
