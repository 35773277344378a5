"""The ``pram`` command line: ``run``, ``sweep``, ``report``, ``zoology``, ``example``, ``bench``,
``lint``, ``circuit``.

Every command prints a rich report, or with ``--json`` exactly one JSON object on standard
output (progress and messages go to standard error). Exit status: 0 when everything the command
checks holds, 1 when it finished but something failed (a wrong answer, a violation under the
chosen model, a bound exceeded), 2 for invalid arguments or input, with one line naming the
value and the fix, never a traceback.
"""

from __future__ import annotations

import argparse
import errno
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from pram import InputError, PRAMError
from pram.declaration import drawing
from pram.errors import ConflictError, HonestyError, StepError
from pram.reports import entries, guard, signals, status, writer
from pram.reports.options import (
    EXAMPLE,
    REPORT,
    RUN,
    SWEEP,
    TRACE,
    ZOOLOGY,
    Options,
    add_arguments,
    from_arguments,
    whole,
)
from pram.reports.parallel import WorkerDied
from pram.reports.preflight import (
    matplotlib_home,
    require_matplotlib,
    writable_dir,
    writable_file,
)
from pram.reports.trace_command import HELP

#: Exit status: everything checked holds / something checked failed / invalid input.
OK, FAILED, INVALID = status.OK, status.FAILED, status.INVALID


class UsageError(Exception):
    """An argument the parser refused; carries its one-line message."""


class _Once(argparse.Action):
    """An option's value, refused when the option is given a second time: the first value
    would otherwise be dropped unsaid (``--output a.npy --output b.npy`` writes only one)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        given = vars(namespace).setdefault("_given", {})
        if option_string is not None and self.dest in given:
            first, flag = given[self.dest]
            parser.error(f"{flag} given twice ({first!r}, then {values!r}); give it once")
        given[self.dest] = (values, option_string)
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    """An argument parser that reports a bad argument in one line instead of usage + exit,
    and refuses an option given twice."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, _Once)
        self.register("action", "store", _Once)

    def _print_message(self, message: str, file: Any = None) -> None:
        """Write the help (argparse's own swallows a failed write: ``--help > /dev/full``
        exited 0); a failure reaches :func:`main`, which says so."""
        if message:
            file = sys.stderr if file is None else file
            file.write(message)
            file.flush()

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """Remember the arguments, so that :meth:`error` can name an unknown option."""
        self._argv = self._joined(list(sys.argv[1:] if args is None else args))
        return super().parse_known_args(self._argv, namespace)

    def _joined(self, args: list[str]) -> list[str]:
        """``args`` with a value that looks like an option joined to the option it follows
        (``--max-memory -5G`` as ``--max-memory=-5G``), so that the value's own check names
        it rather than argparse's "expected one argument"."""
        known = self._option_string_actions
        out: list[str] = []
        rest = iter(args)
        for arg in rest:
            action = known.get(arg)
            if arg == "--":
                out += [arg, *rest]
                break
            if action is not None and action.nargs is None:
                value = next(rest, None)
                if value is None:
                    out.append(arg)
                elif value.startswith("-") and value != "--" and \
                        value.split("=")[0] not in known and not _number(value):
                    out.append(f"{arg}={value}")
                else:
                    out += [arg, value]
                continue
            out.append(arg)
        return out

    def error(self, message: str) -> NoReturn:
        if message.startswith("the following arguments are required"):
            # an unknown option is the likelier mistake: name it, not what went missing
            known = self._option_string_actions
            unknown = [a for a in getattr(self, "_argv", ())
                       if a.startswith("-") and a != "-" and a.split("=")[0] not in known
                       and not _number(a)]
            if unknown:
                message = (f"unrecognized argument {unknown[0]!r}; see {self.prog} --help for "
                           "the options")
        prog = self.prog
        if message.startswith("unrecognized arguments") and self._subparsers is not None:
            # what a command did not take comes back to the top parser: name the command
            command = next((a for a in getattr(self, "_argv", ()) if not a.startswith("-")),
                           None)
            prog = f"{prog} {command}" if command else prog
            message += f"; see {prog} --help for its options and arguments"
        raise UsageError(f"{prog}: {message}")


def _number(text: str) -> bool:
    """Whether ``text`` is a negative number (a value, not an option)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def _size(text: str) -> int:
    value = whole(text)
    if value is None or value < 1:
        raise argparse.ArgumentTypeError(f"invalid size {text!r}; give a positive integer")
    return value


def _seed(text: str) -> int:
    value = whole(text)
    if value is None or value < 0:
        raise argparse.ArgumentTypeError(f"invalid seed {text!r}; give a non-negative integer")
    return value


def _depth(text: str) -> int | None:
    if text == "all":
        return None
    value = whole(text)
    if value is None or value < 1:
        raise argparse.ArgumentTypeError(
            f"invalid depth {text!r}; give a positive integer or 'all'"
        )
    return value


def _sizes(text: str) -> list[int]:
    parts = [p.strip() for p in text.split(",")]
    out = []
    for part in parts:
        value = whole(part)
        if value is None or value < 1:
            raise argparse.ArgumentTypeError(
                f"invalid size {part!r} in {text!r}; give positive integers separated by "
                "commas, e.g. 48,96,192"
            )
        out.append(value)
    return out


#: The measures ``pram sweep --bound`` may check: counts every run has.
BOUND_MEASURES = ("work", "time", "rounds", "round_work", "reads", "writes")


def _bound(text: str) -> tuple[str, Any]:
    """``MEASURE=FORMULA`` of ``--bound``, the formula read as a declaration's are, in the
    sizes it names (``N`` and ``d`` for MQAR; :func:`_refuse_bound_sizes` holds them to the
    algorithm's before the sweep runs)."""
    from pram.declaration import formula
    from pram.laws.formula import names_in

    measure, equals, written = str(text).partition("=")
    measure = measure.strip()
    if not equals or measure not in BOUND_MEASURES:
        raise argparse.ArgumentTypeError(
            f"invalid bound {text!r}; give MEASURE=FORMULA with MEASURE one of "
            f"{', '.join(BOUND_MEASURES)}, e.g. 'work=n log2(n)'"
        )
    try:
        return measure, formula(written, names_in(written) or ("n",))
    except InputError as error:
        # the formula's error shows (the start of) its text; the whole may be long
        raise argparse.ArgumentTypeError(f"invalid bound of {measure}: {error}") from None


#: The most local processes ``--workers`` starts (the pool's semaphores hold a C int).
MOST_WORKERS = 4096


def _workers(text: str) -> int:
    value = whole(text)
    if value is None or value < 1:
        raise argparse.ArgumentTypeError(
            f"invalid worker count {text!r}; give a positive integer, e.g. 2"
        )
    if value > MOST_WORKERS:
        raise argparse.ArgumentTypeError(
            f"worker count {text} is more local processes than can be started (at most "
            f"{MOST_WORKERS}); give about as many as the machine has cores, e.g. 2"
        )
    return value


def _parallel_options(parser: argparse.ArgumentParser) -> None:
    """``--workers`` and ``--dask``: where the runs of ``pram sweep`` and ``pram report`` go."""
    parser.add_argument("--workers", type=_workers, metavar="K",
                        help="run in K local processes (same counts, same order; default 1, "
                        "or with --dask local the cluster's workers)")
    parser.add_argument("--dask", metavar="ADDRESS|local",
                        help="run as tasks on the Dask scheduler at ADDRESS (tcp://host:8786), "
                        "or on a LocalCluster started here ('local'); needs pramsim[dask]")


def _run_options(parser: argparse.ArgumentParser, *, sweep: bool, command: str = RUN) -> None:
    """The options of ``pram run`` and ``pram trace`` (``command``), and of ``pram sweep``
    (``sweep``, which takes lists for --n and --d): the sizes, then the table's rows."""
    if sweep:
        parser.add_argument(
            "--n", type=_sizes, required=True, metavar="N1,N2,...",
            help="the sizes to sweep (N tokens for MQAR, n queries or elements otherwise)",
        )
        parser.add_argument("--d", type=_sizes, metavar="D1,D2,...", help="token widths to sweep")
    else:
        parser.add_argument("--n", type=_size, help="N tokens (MQAR), n queries or n elements")
        parser.add_argument("--d", type=_size, help="bits per token (default 16, or what the "
                            "input's largest token needs)")
    parser.add_argument("--m", type=_size, help="m keys (pbs; default n)")
    add_arguments(parser, SWEEP if sweep else command, {"seed": _seed})
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")


MODULE_HELP = ("run your own algorithm: a .py file (or package.module) that declares it with "
               "pram.Algorithm or @pram.declare; NAME follows, or FILE:NAME")


def _algorithm_argument(parser: argparse.ArgumentParser, algorithms: list[str]) -> None:
    """The ALGORITHM of run, sweep and trace (a built-in one, or with ``--module`` the NAME of
    a declaration), checked against the table after parsing (:func:`resolve`)."""
    parser.add_argument("algorithm", nargs="?", metavar="ALGORITHM",
                        help=f"one of {', '.join(algorithms)}; or with --module FILE the NAME "
                        "of your declaration")
    parser.add_argument("--module", metavar="FILE|package.module", help=MODULE_HELP)


def resolve(args: argparse.Namespace) -> None:
    """Settle which algorithm ``args`` name: with ``--module`` the declaration (loaded and
    registered, its ``FILE:NAME`` kept as ``args.module_spec`` for the workers), else one of
    the table, refused as argparse refuses a choice not offered."""
    from pram.declaration.apart import keep_inputs
    from pram.reports.entries import load_declared, split_spec

    prog = f"pram {args.command}"
    module = getattr(args, "module", None)
    if module is not None:
        where, name = split_spec(module, args.algorithm)
        if getattr(args, "input", None) is not None:  # read only by the declaration's load
            if writer.same_file(args.input, where):
                raise InputError(
                    f"--input {args.input!r} is the module's own file; give the file of the "
                    "instance, the one the declaration's load reads"
                )
            keep_inputs(args.input)
        spec = f"{where}:{name}"
        args.algorithm = load_declared(spec).name
        args.module_spec = spec
        return
    args.module_spec = None
    if args.command == "report":
        if args.algorithm is not None:
            raise UsageError(
                f"{prog}: NAME {args.algorithm!r} needs --module: give --module FILE "
                f"{args.algorithm}, or leave NAME out for the main report"
            )
        return
    if args.algorithm is None:
        raise UsageError(f"{prog}: the following arguments are required: ALGORITHM")
    known = entries.names()
    if args.algorithm not in known:
        offered = ", ".join(repr(n) for n in known)
        raise UsageError(
            f"{prog}: argument ALGORITHM: invalid choice: {args.algorithm!r} (choose from "
            f"{offered})"
        )


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand."""
    parser = _Parser(
        prog="pram",
        description="A PRAM simulator with work/depth accounting: run the Zoology paper's "
        "parallel MQAR algorithms, check EREW compliance and the paper's bounds.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    algorithms = entries.names()

    run = commands.add_parser("run", help="run one algorithm and report its cost")
    _algorithm_argument(run, algorithms)
    _run_options(run, sweep=False)
    run.add_argument("--input", metavar="FILE", help="run on your own data (.npy or .npz)")
    run.add_argument("--output", metavar="FILE", help="write the answers as a .npy (int64, or "
                     "float64 for a declared algorithm's real answers)")
    run.add_argument("--phases", type=_depth, default=2, metavar="DEPTH",
                     help="nesting levels of phases to show (a number, or 'all'; default 2)")
    _parallel_options(run)  # where the batches of --instances go
    run.set_defaults(handler=_run)

    sweep = commands.add_parser("sweep", help="run over sizes and check the bounds")
    _algorithm_argument(sweep, algorithms)
    _run_options(sweep, sweep=True)
    sweep.add_argument("--plot", metavar="FILE", help="plot measured/formula (.png or .svg)")
    sweep.add_argument("--predict", type=_sizes, default=[], metavar="S1,S2,...",
                       help="evaluate the laws found at these unseen sizes")
    sweep.add_argument("--bound", type=_bound, action="append", default=None,
                       metavar="MEASURE=FORMULA",
                       help="check this bound instead of the declared one of MEASURE (work, "
                       "time, rounds, round_work, reads or writes), e.g. --bound "
                       "'work=n log2(n)'; may be repeated, once a measure")
    sweep.add_argument("--measure", choices=("steps", "rounds"), default="steps",
                       help="what the declared bounds are judged on: steps (time and work, "
                       "the default) or rounds (time bounds on rounds, the textbooks' steps, "
                       "work bounds on the rounds' work)")
    _parallel_options(sweep)
    sweep.set_defaults(handler=_sweep)

    report = commands.add_parser("report", help="the main job: sweeps, checks, plots, exports")
    report.add_argument("--out", metavar="DIR", default=None,
                        help="where to write it (default: report/ in the checkout, else "
                        "pram-report/; pram-report-quick/ with --quick)")
    report.add_argument("--quick", action="store_true",
                        help="small sizes only (a smoke test of the whole job)")
    report.add_argument("--json", action="store_true", help="print the summary as JSON")
    report.add_argument("algorithm", nargs="?", metavar="NAME",
                        help="with --module: the declaration to report on (its own section "
                        "in --out)")
    report.add_argument("--module", metavar="FILE|package.module", help=MODULE_HELP)
    _parallel_options(report)
    add_arguments(report, REPORT, {})
    report.set_defaults(handler=_report)

    zoology = commands.add_parser("zoology", help="solve a batch in Zoology's MQAR layout")
    zoology.add_argument("file", metavar="FILE.npz")
    zoology.add_argument("--json", action="store_true", help="print one JSON object instead")
    add_arguments(zoology, ZOOLOGY, {})
    zoology.set_defaults(handler=_zoology)

    example = commands.add_parser(
        "example", help="write an input file to try --input and pram zoology with"
    )
    example.add_argument("kind", choices=("tokens", "search", "values", "batch"),
                         metavar="KIND", help="tokens (.npy, for mqar), search (.npz, for pbs), "
                         "values (.npy, for sort) or batch (.npz, for pram zoology)")
    example.add_argument("file", metavar="FILE")
    example.add_argument("--n", type=_size, help="tokens, queries, values, or a batch's length")
    example.add_argument("--seed", type=_seed, default=0, help="seed of the random instance")
    add_arguments(example, EXAMPLE, {})
    example.set_defaults(handler=_example)

    trace = commands.add_parser("trace", help="trace a run step by step: a page, or tables")
    _algorithm_argument(trace, algorithms)
    _run_options(trace, sweep=False, command=TRACE)
    trace.add_argument("--input", metavar="FILE", help="run on your own data (.npy or .npz)")
    trace.add_argument("--html", metavar="FILE", help=HELP["html"])
    trace.add_argument("--steps", metavar="RANGE", help=HELP["steps"])
    trace.add_argument("--trace-cells", type=_size, metavar="CELLS", help=HELP["trace-cells"])
    trace.set_defaults(handler=_trace)

    bench = commands.add_parser("bench", help="simulator throughput")
    bench.add_argument("--json", action="store_true", help="print one JSON object instead")
    bench.set_defaults(handler=_bench)

    lint = commands.add_parser(
        "lint", help="flag what run time cannot stop in a program's source (private "
        "attributes, gc, ctypes, inspect, frames, monkey-patching pram)"
    )
    lint.add_argument("paths", nargs="+", metavar="PATH", help="Python files or directories")
    lint.set_defaults(handler=_lint)

    from pram.reports.circuit import add_parser as add_circuit

    add_circuit(commands, _size)
    return parser


#: The exit status of a command whose standard output was closed by its reader (128 + SIGPIPE),
#: the shell's convention for ``pram ... | head``.
BROKEN_PIPE = 141


def _streams() -> None:
    """Standard output and error that never fail on a character their encoding lacks (a
    non-ASCII path under an ASCII locale is written with backslash escapes)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


def _quiet_stdout() -> None:
    """After a broken pipe: point standard output at /dev/null so that the flush at exit does
    not fail again (and print "Exception ignored")."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``pram`` command line on ``argv`` (default: the process's); return the status."""
    from pram import _startup

    # The one place that installs a signal handler: Ctrl-C while the commands load ends with one
    # line and exit 130; from then on the handlers below catch it (importing pram never does).
    _startup.hold_interrupts(argv)
    try:
        parser = build_parser()
    finally:
        _startup.release_interrupts()
    _streams()
    err = _floored(Console(stderr=True, highlight=False, emoji=False))
    matplotlib_home()  # a read-only HOME: no matplotlib warnings on standard error
    threads = set(threading.enumerate())
    signals.install()  # before a --module is imported: its own KeyboardInterrupt is its error
    try:
        with drawing():  # a declaration's instances: one child process per command
            status = _command(parser, argv, err)
        from pram.reports.registry import run_at_exit

        failed = run_at_exit()  # a --module's atexit functions, as its other code runs
        if failed:
            _say(err, f"pram: error: {failed}")
            status = status if status != OK else INVALID
    finally:
        signals.finish()
    if signals.received():  # stopped: nothing more runs (a Dask cluster's exit hooks wait)
        signals.exit_now(status)
    left = [t for t in threading.enumerate()
            if t not in threads and t.is_alive() and not t.daemon]
    if left:  # a user's code started threads: the command still ends after its output
        names = ", ".join(repr(t.name) for t in left[:3])
        _say(err, f"pram: note: {len(left)} thread{'s' if len(left) != 1 else ''} the code "
             f"run started ({names}) still running; the command ends without waiting for them")
        signals.exit_now(status)
    return status


def _command(parser: argparse.ArgumentParser, argv: Sequence[str] | None, err: Console) -> int:
    """Parse ``argv``, load a ``--module``, and run the command: its status. A command
    refused (exit 2) or stopped by a signal (128 + its number) with ``--json`` still prints
    one JSON object, saying so (``error``: ``refused``, ``interrupted``, ``terminated``, ...)."""
    said.clear()
    status.printed.clear()
    code = _status(parser, argv, err)
    tokens = list(sys.argv[1:] if argv is None else argv)
    stopped = signals.words_of(code)
    if (code == INVALID or stopped) and "--json" in tokens and said and not status.printed \
            and sys.stdout is not None:
        command = next((t for t in tokens if not t.startswith("-")), None)
        error = stopped or "refused"
        _json_quietly({"command": command, "ok": False, "error": error, "status": code,
                       "message": said[-1]})
    return code


#: The lines said on standard error by the command running (the last one names a refusal).
said: list[str] = []


def _status(parser: argparse.ArgumentParser, argv: Sequence[str] | None, err: Console) -> int:
    """:func:`_command`'s status: parse, load a ``--module``, run."""
    try:
        args = parser.parse_args(argv)
        if hasattr(args, "module"):
            resolve(args)
    except UsageError as error:
        _say(err, f"{error}")
        return INVALID
    except InputError as error:  # a --module that cannot be loaded: one line, exit 2
        _say(err, f"pram {args.command}: error: {error}")
        return INVALID
    except KeyboardInterrupt as error:  # a signal while a --module loads
        stop = signals.stopped(error)
        _say(err, f"pram: {stop.words}")
        return stop.status
    except SystemExit as stop:  # --help
        return _helped(int(stop.code or 0), err)
    except OSError as error:  # the help could not be written
        return _unwritten(error, err)
    if sys.stdout is None and args.command != "example":
        _say(err, f"pram {args.command}: error: standard output is closed, so the "
             f"{'JSON' if getattr(args, 'json', False) else 'report'} would go nowhere; give "
             "it a place, e.g. > result.txt")
        return INVALID
    out = _floored(_Output(highlight=False, emoji=False))
    handler: Callable[[argparse.Namespace, Console, Console], int] = args.handler
    return _handle(handler, args, out, err)


def _helped(code: int, err: Console) -> int:
    """The status after ``--help``: the help must have reached standard output (a full disk,
    a closed pipe or /dev/full is a failure, not a silent 0)."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as error:
        return _unwritten(error, err)
    return code


def _unwritten(error: OSError, err: Console) -> int:
    """The help could not be written: a closed pipe quietly (141), anything else one line."""
    _quiet_stdout()
    if error.errno == errno.EPIPE:
        return BROKEN_PIPE
    _say(err, f"pram: error: the help could not be written ({error.strerror or error}); give "
         "standard output a place that takes it")
    return INVALID


def _handle(
    handler: Callable[[argparse.Namespace, Console, Console], int],
    args: argparse.Namespace, out: Console, err: Console,
) -> int:
    """``handler``'s status, every failure turned into its one line and status by cause."""
    try:
        return handler(args, out, err)
    except (InputError, WorkerDied) as error:
        _say(err, f"pram {args.command}: error: {error}")
        return INVALID
    except PRAMError as error:
        _say(err, f"pram {args.command}: {type(error).__name__}: {error}")
        if getattr(args, "json", False):
            # --mode raise stopped the run: the JSON object still comes, saying why
            _json_quietly({"command": args.command, "algorithm": getattr(args, "algorithm", None),
                           "ok": False, "error": type(error).__name__, "message": str(error),
                           "violations": [str(error)] if isinstance(error, VIOLATIONS) else []})
        return FAILED
    except SystemExit as exited:  # only user code exits (a --module's program or build)
        _say(err, f"pram {args.command}: error: the run did not finish: code it runs called "
             f"sys.exit({exited.code!r}); return the answer instead of exiting")
        return INVALID
    except KeyboardInterrupt as error:  # SIGINT, SIGTERM, SIGHUP (pram.reports.signals)
        stop = signals.stopped(error)
        signals.end_workers()
        _say(err, f"pram {args.command}: {stop.words}")
        return stop.status
    except BrokenPipeError:  # the reader went away (| head): the shell's quiet convention
        _quiet_stdout()
        return BROKEN_PIPE
    except OSError as error:
        if error.errno in writer.FULL:
            name = error.filename or "standard output"  # a write with no path: stdout
            _say(err, f"pram {args.command}: error: {_short(str(name))!r} could not be written: "
                 "the disk is full (no space left on device); free space or give a path on "
                 "another disk")
            return INVALID
        if error.errno in (errno.EMFILE, errno.ENFILE):  # no path is at fault
            _say(err, f"pram {args.command}: error: too many open files for this process; "
                 "raise the limit (ulimit -n) or give fewer --workers")
            return INVALID
        # a path the checks could not even look at (too long, a loop)
        name = f"{_short(str(error.filename))!r}: " if error.filename else ""
        _say(err, f"pram {args.command}: error: {name}{error.strerror or error}; give a path "
             "that exists and that you may use")
        return INVALID
    except MemoryError:
        fix = ("give smaller sizes, or a lower --max-memory so the size guard refuses them first"
               if hasattr(args, "max_memory") else "give smaller sizes")
        _say(err, f"pram {args.command}: error: this machine ran out of memory; {fix}")
        return INVALID


#: The narrowest width the command lays its text out at: COLUMNS=0 printed nothing at all and
#: COLUMNS=1 a character a line, cutting values; a narrower terminal wraps the lines instead.
NARROWEST = 40


def _floored(console: Console) -> Console:
    """``console``, laid out at :data:`NARROWEST` columns at least."""
    if console.width < NARROWEST:
        console.width = NARROWEST
    return console


class _Output(Console):
    """Standard output's console: a reader gone away is a broken pipe for main to end quietly
    (rich alone would exit with status 1, the status of a failed check)."""

    def on_broken_pipe(self) -> None:
        import errno

        self.quiet = True
        _quiet_stdout()
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")


#: The errors that are violations of the model (what ``--mode raise`` stops at).
VIOLATIONS = (ConflictError, HonestyError, StepError)


def _json_quietly(obj: Any) -> None:
    """``obj`` as the JSON line, unless standard output is gone."""
    with suppress(OSError, ValueError):
        _json(obj)


def _short(text: str, keep: int = 60) -> str:
    """``text``, its middle elided when longer than ``keep`` characters."""
    return text if len(text) <= keep else f"{text[: keep // 2]}...{text[-keep // 2 :]}"


def _say(err: Console, message: str) -> None:
    """One line on standard error, whatever the message holds; when standard error cannot take
    it (a full disk, /dev/full) the exit status alone tells, as it would have anyway."""
    line = " ".join(message.split())
    said.append(line)
    with suppress(OSError):
        err.print(line, markup=False, emoji=False, soft_wrap=True)


_json = status.print_json


def _shown(args: argparse.Namespace, out: Console, outcome: Any,
           view: Callable[[Any], Any]) -> int:
    """``outcome`` (a run's summary, a sweep, a report) as the one JSON line with ``--json``,
    else ``view(outcome)`` on the terminal; the exit status is whether it is ``ok``."""
    if args.json:
        _json(outcome.as_dict())
    else:
        out.print(view(outcome))
    return OK if outcome.ok else FAILED


def _options(args: argparse.Namespace, **sizes: Any) -> Options:
    return from_arguments(
        args,
        model=entries.algorithm(args.algorithm).model,
        max_memory=max_memory(args),
        **sizes,
    )


def max_memory(args: argparse.Namespace) -> int | None:
    """The parsed ``--max-memory`` (None when not given; an empty value is refused)."""
    given = getattr(args, "max_memory", None)
    return None if given is None else guard.parse_memory(given)


# ---- the commands ----------------------------------------------------------------------------


def _run(args: argparse.Namespace, out: Console, err: Console) -> int:
    from pram.reports.measure import execute
    from pram.reports.render import RunReport

    options = _options(args)
    if options.instances is not None or args.workers is not None or args.dask is not None:
        return _run_instances(args, options, out, err)
    output = (
        writable_file(args.output, "--output", (".npy",), options)
        if args.output is not None else None
    )
    run = execute(args.algorithm, options)
    if output is not None:
        answer = run.answer()
        writer.save_array(output, answer, "--output")  # reals stay reals, words int64
        shape = f" (shape {' x '.join(map(str, answer.shape))})" if answer.ndim > 1 else ""
        path = str(output) if str(output).isprintable() else repr(str(output))  # a newline
        err.print(f"wrote {answer.size} answers{shape} to {path}", highlight=False, markup=False,
                  soft_wrap=True)
    if args.json:
        # the answer's dtype, as --output writes it (extends the contract's object)
        _json(run.as_dict() | {"dtype": run.answer().dtype.name})
    else:
        out.print(RunReport(run, depth=args.phases))
    return OK if run.ok else FAILED


def _run_instances(args: argparse.Namespace, options: Options, out: Console, err: Console) -> int:
    """``pram run ALGORITHM --instances K``: K random instances in lockstep batches (over
    ``--workers`` or ``--dask`` if given), summarised."""
    from pram.reports.instances import refuse_instances, run_instances
    from pram.reports.parallel import runner
    from pram.reports.render import SummaryReport

    if options.instances is None:
        flag = "--workers" if args.workers is not None else "--dask"
        raise InputError(
            f"{flag} applies to pram run only with --instances K (one run is one process); "
            "add --instances, e.g. --instances 100, or leave it out"
        )
    if args.output is not None:
        raise InputError(
            f"--output {args.output!r} does not apply with --instances: K instances have K "
            "answers, each checked against the reference; leave --output out"
        )
    job = refuse_instances(args.algorithm, options)  # looked up and checked once
    chosen = runner(args.workers, args.dask, max_memory=options.max_memory)
    with _progress(err, f"run {args.algorithm}") as tick:
        summary = run_instances(job, runner=chosen, progress=tick, checked=True)
    return _shown(args, out, summary, SummaryReport)


def _sweep(args: argparse.Namespace, out: Console, err: Console) -> int:
    from pram.reports.parallel import runner
    from pram.reports.render import SweepReport
    from pram.reports.sweeps import refuse_sweep, sweep

    options = _options(args, n=None, d=None)
    plot = (writable_file(args.plot, "--plot", (".png", ".svg"), options)
            if args.plot is not None else None)
    if plot is not None:
        require_matplotlib()
    jobs = refuse_sweep(args.algorithm, args.n, options, args.d)  # every size checked once
    if args.measure == "rounds" and not jobs[0].entry.on_machine:
        raise InputError(
            f"--measure rounds: {args.algorithm} runs off the machine (it counts its own "
            "operations), so no rounds are counted; sweep an algorithm of the machine, or "
            "leave --measure out"
        )
    if args.bound:
        _refuse_twice_bound(args.bound)
        _refuse_bound_sizes(args.algorithm, args.bound, jobs[0].entry)
    if plot is not None and not jobs[0].entry.bounds and not args.bound:
        raise InputError(
            f"--plot draws measured / formula for each bound, and {args.algorithm} declares "
            "none; give one, e.g. --bound 'work=n log2(n)', or leave --plot out"
        )
    chosen = runner(args.workers, args.dask, max_memory=options.max_memory)
    if options.instances is not None:
        if args.bound:
            raise InputError(
                f"--bound {args.bound[0][0]}=... does not apply with --instances yet; check it "
                "on a sweep of one instance per size (leave --instances out)"
            )
        if args.measure != "steps":
            raise InputError(
                f"--measure {args.measure} does not apply with --instances yet; take it on a "
                "sweep of one instance per size (leave --instances out)"
            )
        return _sweep_instances(args, options, chosen, plot, out, err, jobs)
    with _progress(err, f"sweep {args.algorithm}") as tick:
        result = sweep(args.algorithm, args.n, options, args.d, progress=tick, runner=chosen,
                       jobs=jobs)
    if args.measure == "rounds":
        from pram.reports.sweeps import on_rounds

        result = on_rounds(result)
    if args.bound:
        result = _with_bounds(result, args.bound)
    if args.predict:
        from attrs import evolve

        result = evolve(result, predict=tuple(args.predict))
    if plot is not None:
        from pram.reports.plots import ratio_plot

        ratio_plot(result, plot)
        err.print(f"wrote {plot}", highlight=False, markup=False)
    return _shown(args, out, result, SweepReport)


def _refuse_twice_bound(given: Sequence[tuple[str, Any]]) -> None:
    """Refuse two ``--bound`` of one measure: a sweep checks one bound a measure, and the
    first was dropped without a word."""
    first: dict[str, str] = {}
    for measure, formula in given:
        if measure in first:
            raise InputError(
                f"--bound {measure}= is given twice ({first[measure]!r} and "
                f"{formula.text!r}); a sweep checks one bound of each measure, so give one "
                f"--bound {measure}=..., and sweep again for the other"
            )
        first[measure] = formula.text


def _refuse_bound_sizes(name: str, given: Sequence[tuple[str, Any]], entry: Any) -> None:
    """Refuse, before the sweep runs, a ``--bound`` formula naming a size that none of the
    algorithm's own bounds names (``n`` for MQAR, whose sizes are N and d)."""
    from pram.laws.formula import names_in

    known = sorted({size for bound in entry.bounds.values()
                    for size in names_in(bound.formula.text)})
    for measure, formula in given:
        unknown = [size for size in names_in(formula.text) if size not in known]
        if known and unknown:
            own = entry.bounds.get(measure) or next(iter(entry.bounds.values()))
            raise InputError(
                f"--bound {measure}={formula.text}: {name}'s runs have no size {unknown[0]!r} "
                f"(its sizes: {', '.join(known)}); write the bound in those, e.g. "
                f"--bound '{measure}={own.formula.text}'"
            )


def _with_bounds(result: Any, given: Sequence[tuple[str, Any]]) -> Any:
    """``result`` with the bounds of ``--bound`` checked over its runs, each in place of the
    entry's bounds of the same measure (measured by the machine, as every check)."""
    from attrs import evolve

    from pram.reports.runs import measure_of
    from pram.reports.sweeps import counts_check

    checks = dict(result.checks)
    for measure, formula in given:
        checks = {k: c for k, c in checks.items() if measure_of(k) != measure}
        checks[measure] = counts_check(result.runs, measure, formula,
                                 [float(getattr(r.cost, measure)) for r in result.runs])
    return evolve(result, checks=checks)


def _sweep_instances(args: argparse.Namespace, options: Options, chosen: Any, plot: Any,
                     out: Console, err: Console, jobs: Any) -> int:
    """``pram sweep ALGORITHM --instances K``: K instances at every size, and the laws and
    verdicts of the mean and the maximum of each count."""
    from pram.reports.render import InstancesSweepReport
    from pram.reports.sweeps import sweep

    if plot is not None:
        raise InputError(
            f"--plot {args.plot!r} does not apply with --instances yet: the plot draws one run "
            "per size; leave --plot out, or --instances"
        )
    with _progress(err, f"sweep {args.algorithm}") as tick:
        result = sweep(args.algorithm, args.n, options, args.d, progress=tick, runner=chosen,
                       predict=args.predict, jobs=jobs)
    return _shown(args, out, result, InstancesSweepReport)


def _report(args: argparse.Namespace, out: Console, err: Console) -> int:
    from pram.reports.parallel import runner
    from pram.reports.report import write_report

    if args.out == "":
        raise InputError("--out '' is an empty path; give a folder, e.g. --out pram-report")
    if args.module_spec is not None:
        return _report_declared(args, out, err)
    target = writable_dir(args.out or default_report_folder(args.quick), "--out")
    limit = max_memory(args)
    committed = _committed_report()
    if args.quick and committed is not None and target.resolve() == committed:
        raise InputError(
            f"--quick would replace the committed full report in {args.out!r}; give another "
            "folder, e.g. --out pram-report-quick, or leave --out out"
        )
    require_matplotlib()
    with _progress(err, "report") as tick:
        summary = write_report(target, quick=args.quick, progress=tick, max_memory=limit,
                               runner=runner(args.workers, args.dask, default=None,
                                             max_memory=limit))
    return _shown(args, out, summary, lambda summary: summary)


def _report_declared(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``pram report --module FILE NAME``: the declaration's own section in ``--out``
    (default ``pram-report/``, in a folder named after the declaration, never the committed
    report's folder)."""
    from pram.reports.parallel import runner
    from pram.reports.render import SweepReport
    from pram.reports.report import write_declared

    if args.quick:
        raise InputError(
            "--quick does not apply with --module: the report sweeps the declaration's own "
            "sizes (sizes=... in it); leave --quick out"
        )
    target = writable_dir(args.out or "pram-report", "--out")
    target.mkdir(exist_ok=True)
    options = Options(model=entries.algorithm(args.algorithm).model, module=args.module_spec,
                      max_memory=max_memory(args))
    require_matplotlib()
    with _progress(err, f"report {args.algorithm}") as tick:
        result, files = write_declared(target, args.algorithm, options, progress=tick,
                                       runner=runner(args.workers, args.dask,
                                                     max_memory=options.max_memory))
    if args.json:
        _json(result.as_dict() | {"files": [str(f) for f in files]})
    else:
        out.print(SweepReport(result))
        err.print(f"wrote {', '.join(str(f) for f in files)}", highlight=False, markup=False)
    return OK if result.ok else FAILED


#: The folder of the committed report, at the top of the checkout (beside the code, not in it).
REPORT_FOLDER = "report"


def _committed_report() -> Path | None:
    """The checkout's ``report/`` folder, where the committed report lives (None when pram is
    installed rather than checked out)."""
    import pram.reports

    checkout = Path(pram.reports.__file__).resolve().parent.parent
    return checkout / REPORT_FOLDER if (checkout / "pyproject.toml").is_file() else None


def default_report_folder(quick: bool) -> str:
    """Where ``pram report`` writes without ``--out``: the committed ``report/`` when run at
    the top of the checkout, else ``pram-report/`` (a name no package can have, so it never
    shadows one); a quick report always goes to ``pram-report-quick/``."""
    if quick:
        return "pram-report-quick"
    committed = _committed_report()
    if committed is not None and Path.cwd().resolve() == committed.parent:
        return REPORT_FOLDER
    return "pram-report"


def _trace(args: argparse.Namespace, out: Console, err: Console) -> int:
    from pram.reports.trace_command import trace

    return trace(args.algorithm, _options(args), html=args.html, steps=args.steps,
                 trace_cells=args.trace_cells, as_json=args.json, out=out, err=err)


def _zoology(args: argparse.Namespace, out: Console, err: Console) -> int:
    from pram.reports.render import ZoologyReport
    from pram.reports.zoology import WHAT, load_batch, refuse_oversized_batch, score

    limit = max_memory(args)
    writer.check_input(args.file, "batch file", WHAT)
    refuse_oversized_batch(args.file, limit)
    batch = load_batch(args.file)
    with _progress(err, "zoology") as tick:
        result = score(batch, progress=tick)
    if args.json:
        keys = ("examples", "labeled", "correct", "accuracy", "violations")
        _json({k: result[k] for k in keys} | {k: v for k, v in result.items() if k not in keys})
    else:
        out.print(ZoologyReport(result))
    return OK if result["accuracy"] == 1.0 and result["violations"] == 0 else FAILED


def _example(args: argparse.Namespace, out: Console, err: Console) -> int:
    from pram.reports.examples import suffix, write_example

    path = writer.check_output(args.file, "FILE", (suffix(args.kind),))
    guard.refuse_oversized(
        {"batch": "mqar", "search": "pbs", "values": "sort"}.get(args.kind, "mqar"),
        Options(n=args.n, max_memory=max_memory(args)))
    what = write_example(args.kind, path, n=args.n, seed=args.seed)
    err.print(f"wrote {path}: {what}", highlight=False, markup=False)
    return OK


def _bench(args: argparse.Namespace, out: Console, err: Console) -> int:
    from pram.reports.bench import BATCHES, measure
    from pram.reports.render import BenchReport, bench_rows

    err.print("measuring simulator throughput ...", highlight=False)
    figures = measure(batches=BATCHES)
    if args.json:
        _json(figures)
    else:
        out.print(BenchReport(figures))
    missed = [(step, p, figure, target) for step, p, figure, target, met in bench_rows(figures)
              if not met]
    for step, p, figure, target in missed:  # exit 1 says which target, on stderr
        _say(err, f"pram bench: missed the target of {step!r} at {p:,} processors: measured "
             f"{figure:.4g}, target {target:.4g}" if target is not None else
             f"pram bench: missed the target of {step!r} at {p:,} processors ({figure:.4g})")
    return OK if not missed else FAILED


def _lint(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``pram lint PATH...``: one line per finding (file:line: what); exit 1 if any, else 0."""
    from pram.lint import lint, passed_over, paths

    for given in args.paths:  # '' would be read as the current folder
        if not given.strip():
            raise InputError(f"the path {given!r} names no file or folder; give a .py file or "
                             "a folder of them, e.g. pram lint myprogram.py")
    files = paths(args.paths)
    skipped = passed_over(args.paths)
    if skipped:
        many = len(skipped) != 1
        _say(err, f"pram lint: note: {len(skipped)} entr{'ies' if many else 'y'} named *.py "
             f"{'are not regular files' if many else 'is not a regular file'}, passed over "
             f"({', '.join(repr(str(p)) for p in skipped[:3])})")
    for folder in args.paths:
        if Path(folder).is_dir() and not paths([folder]):
            raise InputError(f"the folder {folder!r} holds no Python file (*.py), so there is "
                             "nothing to check; give a .py file or a folder that holds some")
    for file in files:  # a FIFO or a device is refused, not opened (it would block)
        writer.check_input(str(file), "pram lint", "a Python file or a folder of them")
        if file.suffix != ".py" and b"\0" in file.read_bytes()[:8192]:
            raise InputError(f"{str(file)!r} is not Python source (it holds binary data); "
                             "give a .py file or a folder of them")
    found = lint(files)
    for line in found:
        out.print(line, markup=False, soft_wrap=True)
    if found:
        return FAILED
    files_read = f"{len(files)} file{'s' * (len(files) != 1)}"
    out.print(f"{files_read}: nothing that run time cannot stop", markup=False)
    return OK


@contextmanager
def _progress(err: Console, what: str) -> Iterator[Callable[[int, int, str], None]]:
    """A progress bar on standard error when it is a terminal (elsewhere nothing: a log or a
    pipe gets the one line of an error, not the bar's debris); yields the
    ``progress(done, total, label)`` callback."""
    if not err.is_terminal:
        yield lambda done, total, label: None
        return
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )
    task = bar.add_task(what, total=None)

    def tick(done: int, total: int, label: str) -> None:
        bar.update(task, completed=done, total=total, description=f"{what}: {label}")

    with bar:
        yield tick


if __name__ == "__main__":
    sys.exit(main())
