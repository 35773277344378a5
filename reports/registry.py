"""What an algorithm entry is: its instances, its run, its reference and its bounds.

The public way to declare an algorithm is :class:`pram.Algorithm` (:mod:`pram.declaration`);
:func:`entry_of` builds the command line's entry from such a declaration, so that a user's
module runs exactly like the entries here. The :class:`Algorithm` of this module is that
entry: the internal form, with the options, families and phase bounds of the paper's
algorithms.

An :class:`Algorithm` says how to get an instance (a random one, or the user's ``--input``
file, both through its :class:`Family`), how to run it on a :class:`pram.Machine`, what the
reference answer is, and which bounds its work and time are checked against. The entries are
in :mod:`pram.reports.algorithms` and :mod:`pram.reports.classics`, their one table in
:mod:`pram.reports.entries`; rendering, sweeps and the report only ever go through it.

Bounds are evaluated at the sizes the machine actually ran (a padded N, for instance), and
``log2`` in every formula is taken as at least 1, so a formula never vanishes at tiny sizes.
With word keys a token is one word and a comparison one operation, so the formulas use d = 1
(the report still shows the d that was asked for); with bit keys they use the d that ran.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import traceback
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import attrs
import numpy as np

import pram as pram_package
from pram import Cost, Formula, InputError, Machine, PRAMError, Words, algorithms, words
from pram import declaration as declared
from pram.errors import said
from pram.reports import writer
from pram.reports.options import MAX_D, MODEL_NAMES, Options, choices, used_by, validate

T = TypeVar("T")

#: The option table's choices, by the names the rest of the reports used before the table.
KEY_NAMES, COMPARATOR_NAMES, SORT_NAMES, SEARCH_NAMES, NETWORK_NAMES = (
    choices(name) for name in ("keys", "comparator", "sort", "search", "network")
)


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
    #: An answer entry may differ from the reference by this much times the reference's
    #: magnitude (at least 1); None: it must be equal.
    tolerance: float | None = None
    #: The user's declaration this entry was built from (``--module``), else None.
    declaration: declared.Algorithm | None = attrs.field(default=None, eq=False)

    @property
    def uses(self) -> tuple[str, ...]:
        """The options that change what this algorithm does, e.g. ``("keys", "sort")``: those
        of the option table (:data:`pram.reports.options.OPTIONS`) that list it."""
        return used_by(self.name)

    def expected(self, instance: Instance) -> Words:
        """The reference answer for ``instance``."""
        return (self.reference or self.family.reference)(instance)

    @property
    def checked_against(self) -> str:
        """The name of the reference the answer is compared with."""
        return self.reference_name or self.family.reference_name


class Exited(BaseException):
    """``os._exit(code)`` called by a user's code while :func:`users_code` holds: the process
    would have ended at once (with status ``code``, 0 looking like success)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


@contextlib.contextmanager
def users_code() -> Iterator[None]:
    """Around every call into a user's code (a ``--module``'s import, build, load, program
    and reference): what it prints goes to standard error (standard output holds the report,
    or exactly one JSON object), ``os._exit`` raises :class:`Exited` instead of ending the
    process with a status that may look like success, ``atexit`` functions wait for
    :func:`run_at_exit`, and a change of the working folder is undone (``--output o.npy`` is
    written where it was given), and the command's arguments are not the code's to read:
    ``sys.argv`` and ``sys.orig_argv`` hold the interpreter's name alone (a module that read
    ``--seed`` and ``--input`` there could draw its instance or read its input on the host,
    past the machine; the process's own record of them, /proc/self/cmdline, is flagged by the
    lint). A process the user's code forked ends where it would have: at its ``os._exit``,
    or as it comes back into the command (it would run the command a second time, printing
    a second report or JSON object)."""
    real, register = os._exit, atexit.register
    try:
        folder: str | None = os.getcwd()
    except OSError:  # the working folder was deleted: nothing to come back to, not the code's
        folder = None
    argv, orig_argv = sys.argv, sys.orig_argv
    pid = os.getpid()

    def refused(code: int = 0) -> NoReturn:
        if os.getpid() != pid:
            real(code)
        raise Exited(code)

    os._exit = refused  # type: ignore[assignment]  # put back below
    atexit.register = _at_exit  # type: ignore[assignment]
    sys.argv, sys.orig_argv = argv[:1], orig_argv[:1]
    try:
        with contextlib.redirect_stdout(sys.stderr), _stdout_descriptor_to_stderr():
            yield
    finally:
        if os.getpid() != pid:
            real(0)
        os._exit, atexit.register = real, register
        sys.argv, sys.orig_argv = argv, orig_argv
        if folder is not None:
            with contextlib.suppress(OSError):  # the paths given stay relative to where they were
                os.chdir(folder)


#: The functions a user's code registered with ``atexit`` (with their arguments), run by
#: :func:`run_at_exit` when the command has ended, under :func:`users_code` like the rest of
#: it: at the interpreter's exit they would print after the JSON object, or end the process
#: with a status of their own.
_AT_EXIT: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = []


def _at_exit(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[..., Any]:
    _AT_EXIT.append((function, args, kwargs))
    return function


def run_at_exit() -> str | None:
    """Run the user's ``atexit`` functions (the last registered first), each as user code:
    None, or the one line saying what the first failing one did."""
    failed = None
    while _AT_EXIT:
        function, args, kwargs = _AT_EXIT.pop()
        name = getattr(function, "__name__", "an exit function")
        try:
            _users(lambda f=function, a=args, k=kwargs: f(*a, **k),  # type: ignore[misc]
                   f"the atexit function {name} of the module", "at the command's end",
                   "fix it, or leave atexit out")
        except InputError as error:
            failed = failed or str(error)
    return failed


@contextlib.contextmanager
def _stdout_descriptor_to_stderr() -> Iterator[None]:
    """Standard output's file descriptor pointed at standard error's while the block runs, so
    that what bypasses ``sys.stdout`` (``os.write(1, ...)``, a subprocess's ``echo``, a C
    library's ``printf``) lands there too; nothing changes where the process has no such
    descriptors (a test's captured streams)."""
    try:
        out, err = sys.__stdout__.fileno(), sys.__stderr__.fileno()  # type: ignore[union-attr]
        sys.__stdout__.flush()  # type: ignore[union-attr]
        kept = os.dup(out)
    except (AttributeError, OSError, ValueError):
        yield
        return
    try:
        os.dup2(err, out)
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            sys.__stderr__.flush()  # type: ignore[union-attr]
        os.dup2(kept, out)
        os.close(kept)


def user_line(error: BaseException) -> str | None:
    """``file:line`` of the user's code where ``error`` was raised (its innermost frame that
    is not pram's or numpy's), or None. A syntax error names the file it is in."""
    if isinstance(error, SyntaxError) and error.filename:
        return f"{Path(error.filename).name}:{error.lineno}"
    frames = traceback.extract_tb(error.__traceback__)
    return next((f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames)
                 if not _ours(f.filename)), None)


def raised(error: BaseException) -> str:
    """What ``error`` is, in words: ``ValueError``, ``sys.exit(0)``, ``os._exit(0)``."""
    if isinstance(error, SystemExit):
        return f"sys.exit({error.code!r})"
    if isinstance(error, Exited):
        return f"os._exit({error.code!r})"
    return type(error).__name__


def _users(call: Callable[[], T], what: str, where: str, fix: str) -> T:
    """``call()``, the user's own code: an error of its own (not the machine's, which reports
    itself, nor a signal the command got) becomes one line naming it, its message and the
    file and line it came from; so do ``sys.exit``, ``os._exit`` and a KeyboardInterrupt the
    code raised itself."""
    from pram.reports.signals import Stopped

    try:
        with users_code():
            return call()
    except Stopped:
        raise
    except (InputError, PRAMError) as error:
        frames = traceback.extract_tb(error.__traceback__)
        if not frames or _ours(frames[-1].filename):  # the machine's own: it names itself
            raise
        # one the user's code raised itself: located like any other error of its
        raise InputError(f"{what} raised {raised(error)} in {user_line(error)} {where} "
                         f"({said(error)}); {fix}") from None
    except BaseException as error:
        first = "no message" if isinstance(error, SystemExit | Exited) else said(error)
        line = user_line(error)
        at = f" in {line}" if line else ""
        verb = "called" if isinstance(error, SystemExit | Exited) else "raised"
        raise InputError(
            f"{what} {verb} {raised(error)}{at} {where} ({first}); {fix}"
        ) from None


def _ours(filename: str) -> bool:
    """Whether ``filename`` is pram's (the machine, the programs, the reports) or numpy's code
    rather than the user's."""
    path = Path(filename).resolve()
    return any(path.is_relative_to(folder) for folder in _OURS)


#: The folders of the code that is not the user's, for naming the line an error came from.
_OURS = tuple(Path(str(module.__file__)).resolve().parent
              for module in (np, pram_package, algorithms, sys.modules[__name__]))


def entry_of(declaration: declared.Algorithm) -> Algorithm:
    """The command line's entry for a user's :class:`pram.Algorithm`: its instances from
    ``build`` (seeded by ``--seed``) or ``load`` (``--input``), its program run on the
    machine, its reference, model, bounds and tolerance, and size ``n``."""

    # build, load and reference run in a child process (pram.declaration.apart), as the
    # user's code there: nothing they keep in the module's globals reaches the program
    def built(n: int, rng: np.random.Generator) -> dict[str, Words]:
        made = _users(lambda: declaration.build(n, rng),
                      f"the build of declaration {declaration.name!r}", f"at n = {n}",
                      "fix its build(n, rng) so that it returns the inputs")
        return declaration.inputs(made, "build")

    def loaded(path: str) -> dict[str, Words]:
        return _users(lambda: declaration.read(path),
                      f"the load of declaration {declaration.name!r}", f"reading {path!r}",
                      "fix its load(path), or give another file")

    def drawn(n: int, rng: np.random.Generator) -> dict[str, Words]:
        return declared.drawn(built, n, rng,  # type: ignore[no-any-return]
                              what=f"the build of declaration {declaration.name!r} at n = {n}",
                              fix="fix its build(n, rng) so that it returns the inputs")

    def build(options: Options, rng: np.random.Generator) -> Instance:
        n = options.n or declaration.n
        return Instance(drawn(n, rng), {"n": n})

    def load(path: str, options: Options) -> Instance:
        if declaration.load is not None:  # (without one, read says so)
            writer.check_input(path, "--input", f"a file the load of {declaration.name} reads")
        inputs = declared.drawn(loaded, path, what=f"the load of declaration "
                                f"{declaration.name!r} reading {path!r}",
                                fix="fix its load(path), or give another file")
        return Instance(inputs, {"n": len(next(iter(inputs.values())))})

    def solve(machine: Machine, instance: Instance, options: Options) -> Solution:
        answer = _users(lambda: declaration.solve(machine, instance.data),
                        f"the program of declaration {declaration.name!r}",
                        f"at n = {instance.sizes['n']}", "fix the program")
        return Solution(answer, {k: float(v) for k, v in instance.sizes.items()})

    def expected(data: dict[str, Words], n: int) -> Words:
        return _users(lambda: declaration.expected(data),
                      f"the reference of declaration {declaration.name!r}", f"at n = {n}",
                      "fix the reference")

    def reference(instance: Instance) -> Words:
        # apart too: what the reference keeps of the inputs it is given (in a module global)
        # stays there, out of a later instance's program's reach
        n = int(instance.sizes["n"])
        return declared.drawn(expected, instance.data, n,  # type: ignore[no-any-return]
                              what=f"the reference of declaration {declaration.name!r} at "
                              f"n = {n}", fix="fix the reference")

    memory = _DeclaredMemory(lambda n: drawn(n, np.random.default_rng(0)))
    family = Family(
        name=declaration.name, defaults={"n": declaration.n}, build=build, load=load,
        reference=reference,
        reference_name=getattr(declaration.reference, "__name__", "the reference")
        .replace("<lambda>", "the declared reference"),
        symbols={"n": "n"},
    )
    return Algorithm(
        name=declaration.name, title=declaration.shown, family=family, solve=solve,
        bounds={key: Bound(f) for key, f in declaration.bounds.items()},
        model=declaration.model, tolerance=declaration.tolerance, declaration=declaration,
        memory=memory,
    )


#: Bytes a declared run takes per byte of its inputs: the instance, the reference's copy, the
#: machine's cells and which are defined, the answer read back (the program's own scratch
#: arrays are beyond what the declaration says; the machine refuses what cannot be allocated).
DECLARED_FACTOR = 4

#: The sizes at which a declaration's inputs are built to learn how they grow with n.
_PROBES = (16, 64)


@attrs.define
class _DeclaredMemory:
    """The size guard's model of a declaration: its inputs' bytes measured at two small sizes
    (``draw(n)``: the declaration's own build, seed 0, in the child that draws its
    instances), grown to n as the power of n they show, times :data:`DECLARED_FACTOR`; what
    ``--instances`` multiplies. 0 when the build cannot be probed (then the run's own build
    reports its error)."""

    draw: Callable[[int], Mapping[str, Words]] = attrs.field(eq=False)
    growth: tuple[float, float] | None = None

    def __call__(self, sizes: Mapping[str, int], options: Options) -> float:
        if self.growth is None:
            self.growth = self._probe()
        scale, power = self.growth
        return float(DECLARED_FACTOR * scale * float(sizes["n"]) ** power)

    def _probe(self) -> tuple[float, float]:
        measured = []
        for n in _PROBES:
            from pram.reports.signals import Stopped

            try:
                inputs = self.draw(n)
            except Stopped:
                raise
            except BaseException as error:  # the run's own build says what is wrong
                if not declared.of_the_drawing(error):  # the wait was interrupted
                    at = user_line(error)
                    raise InputError(
                        f"the module's code raised {raised(error)}"
                        f"{f' in {at}' if at else ''} while its build ran apart "
                        f"({said(error)}): a signal handler of the module's runs in the "
                        "command's process; fix it, or leave the signal to pram") from None
                return (0.0, 0.0)
            measured.append(float(sum(a.nbytes for a in inputs.values())))
        small, large = measured
        if small <= 0 or large <= 0:
            return (0.0, 0.0)
        import math

        power = max(0.0, math.log(large / small) / math.log(_PROBES[1] / _PROBES[0]))
        return (large / _PROBES[1] ** power, power)


def stack(instances: Sequence[Instance], name: str) -> Words:
    """The array ``name`` of every instance, one row each (``(B, size)``): what a batched
    machine takes to hold one row per instance. The instances must be of one size."""
    rows = [np.asarray(i.data[name]) for i in instances]  # words stay words, reals reals
    if len({r.shape for r in rows}) != 1:
        shapes = sorted({r.shape for r in rows})
        raise InputError(
            f"instances run in lockstep must be of one size, but {name!r} comes in shapes "
            f"{shapes[0]} and {shapes[1]}; group the instances by size first"
        )
    return np.stack(rows)


# ---- the parts entries share -----------------------------------------------------------------


def family_of_n(
    name: str, build: Callable[[Options, np.random.Generator], Instance],
    load: Callable[[str, Options], Instance], reference: Callable[[Instance], Words],
    reference_name: str, *, n: int = 1024, symbol: str = "n",
) -> Family:
    """A family sized by ``n`` alone (default ``n``, written ``symbol`` in reports): the
    catalogue's lists, values, trees, graphs and matrices."""
    return Family(name=name, defaults={"n": n}, build=build, load=load, reference=reference,
                  reference_name=reference_name, symbols={"n": symbol})


def work_and_time(work: Formula | Bound, time: Formula | Bound) -> dict[str, Bound]:
    """The bounds of an entry held to one work and one time formula (a formula is a
    :class:`Bound` of its own)."""
    return {"work": _bound(work), "time": _bound(time)}


def _bound(formula: Formula | Bound) -> Bound:
    return formula if isinstance(formula, Bound) else Bound(formula)


def sizes_of(instance: Instance) -> dict[str, float]:
    """The sizes the bounds are evaluated at, for a program that runs its instance as given
    (no padding): the instance's own sizes."""
    return {k: float(v) for k, v in instance.sizes.items()}


def solve_with(
    program: Callable[..., Words], *arrays: str
) -> Callable[[Machine, Instance, Options], Solution]:
    """The ``solve`` of an entry whose program takes the machine and the instance's
    ``arrays`` (by name, in order) and returns the answer itself, at the instance's sizes."""

    def solve(m: Machine, instance: Instance, options: Options) -> Solution:
        return Solution(program(m, *(instance.data[k] for k in arrays)), sizes_of(instance))

    return solve


# ---- validation of options and files ------------------------------------------------------


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


def refuse_unsorted(data: Mapping[str, Words], path: str, fix: str) -> None:
    """Refuse an empty or unsorted array of ``data`` (from the file ``path``), naming the
    first that is and, for an empty one, ``fix`` (what to give instead)."""
    for name, values in data.items():
        if len(values) == 0:
            raise InputError(f"{name!r} in {path!r} is empty; {fix}")
        down = np.flatnonzero(values[1:] < values[:-1])
        if down.size:
            i = int(down[0])
            raise InputError(
                f"{name} must be sorted ascending (got {name}[{i}] = {int(values[i])} > "
                f"{name}[{i + 1}] = {int(values[i + 1])}); sort them first"
            )


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
    from pram.reports.writer import check_input

    file = Path(path)
    check_input(path, noun, what)  # a FIFO or a device is refused before anything opens it
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


__all__ = [
    "COMPARATOR_NAMES", "KEY_NAMES", "MAX_D", "MODEL_NAMES", "NETWORK_NAMES", "SEARCH_NAMES",
    "SORT_NAMES", "Algorithm", "Bound", "Family", "Instance", "Options", "Solution",
    "bits_needed", "entry_of", "family_of_n", "file_width", "load_array", "load_arrays",
    "read_archive", "refuse_unsorted", "sizes_of", "solve_with", "stack", "unreadable",
    "validate", "work_and_time",
]
