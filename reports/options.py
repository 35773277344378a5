"""The options of ``pram run``, ``pram sweep`` and ``pram trace``: one table, and everything
generated from it.

Each row of :data:`OPTIONS` is an :class:`Option`: its flag, choices, default, help, the
commands that take it and the algorithms it applies to. From the table come

- the command line's arguments (:func:`add_arguments`) and the :class:`Options` made from the
  parsed ones (:func:`from_arguments`);
- the validation of a value (:func:`validate`: a choice not offered is refused, naming them);
- the refusal of an option that does not apply to the chosen algorithm
  (:func:`pram.reports.preflight.refuse_inapplicable`: one line, exit 2, "leave it out");
- which options an algorithm uses (:func:`used_by`, shown as ``Algorithm.uses``), the option
  fields of a run's JSON (:func:`json_fields`) and the settings text of a report
  (:func:`setting_parts`).

:class:`Options` holds the values: one typed field per row (a test checks that the class and the
table list the same options), plus the sizes (``n``, ``m``, ``d``) and where the input comes
from. Adding an option that applies to one algorithm is one row here (its field beside it), and
the entry's ``solve`` reading it.
"""

from __future__ import annotations

import argparse
import numbers
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from pram import MODELS, InputError

if TYPE_CHECKING:  # the entry type only: pram.reports.registry imports this module
    from pram.reports.registry import Algorithm

#: Largest token width: a token must fit a non-negative int64.
MAX_D = 62

#: The commands an option of the table may belong to (``pram trace`` runs one instance, as
#: ``pram run`` does, so it takes the same options).
RUN, SWEEP = "run", "sweep"
REPORT, ZOOLOGY, CIRCUIT, EXAMPLE, TRACE = "report", "zoology", "circuit", "example", "trace"

#: The commands that allocate, each refusing work over its size guard (``--max-memory``).
ALLOCATING = (RUN, SWEEP, REPORT, ZOOLOGY, CIRCUIT, EXAMPLE, TRACE)

#: The algorithms the paper's token options apply to (the catalogue's entries take none).
TOKEN_ALGORITHMS = ("mqar", "mqar-sequential", "mqar-allpairs", "pbs", "pbs-naive", "sort")

#: ``Option.algorithms`` for options of every algorithm that runs on the machine.
ON_MACHINE = "on the machine"


@attrs.frozen
class Option:
    """One option of the command line: how it is spelled, what it takes, where it applies.

    ``algorithms`` is the tuple of algorithm names it applies to, :data:`ON_MACHINE` for every
    algorithm that runs on the machine, or None for every algorithm. ``when`` narrows it for
    the options chosen (e.g. the comparator applies to bit keys only) and ``why`` completes the
    refusal "--flag VALUE does not apply to NAME: ...". ``argument`` holds what argparse takes
    beyond the flag, choices, default and help (a type, an action, a metavar).
    """

    name: str
    help: str
    default: object = None
    choices: tuple[str, ...] | None = None
    commands: tuple[str, ...] = (RUN, SWEEP, TRACE)
    algorithms: tuple[str, ...] | str | None = None
    when: Callable[[Options], bool] | None = attrs.field(default=None, eq=False)
    why: str | None = None
    #: Written in a run's JSON: ``"applies"`` (the value where :meth:`applies`, null
    #: elsewhere), ``"listed"`` (the value for the algorithms listed, whatever ``when`` says),
    #: ``"always"``, or None (not written).
    json: str | None = None
    #: The JSON value where the option does not apply (``"ram"`` for the model off the machine).
    json_off: object = None
    #: The words of the settings text for the algorithms listed (None: not shown).
    setting: Callable[[Options], str] | None = attrs.field(default=None, eq=False)
    argument: dict[str, Any] = attrs.field(factory=dict, eq=False)

    @property
    def flag(self) -> str:
        """The command-line spelling, e.g. ``--distinct-processors``."""
        return "--" + self.name.replace("_", "-")

    def lists(self, entry: Algorithm) -> bool:
        """Whether the table lists ``entry`` among the algorithms the option applies to."""
        if self.algorithms == ON_MACHINE:
            return entry.on_machine
        return self.algorithms is None or entry.name in self.algorithms

    def applies(self, entry: Algorithm, options: Options) -> bool:
        """Whether the option changes what ``entry`` does with ``options``."""
        return self.lists(entry) and (self.when is None or self.when(options))

    def users(self) -> str:
        """The algorithms it applies to, in words (for a refusal)."""
        if self.algorithms == ON_MACHINE:
            return "the algorithms that run on the machine"
        if self.algorithms is None:
            return "every algorithm"
        return " and ".join(self.algorithms) or "no algorithm"


def _bit_keys(options: Options) -> bool:
    return options.keys == "bits"


def _searched_by_pbs(options: Options) -> bool:
    return options.search != "oblivious"


def _keys_text(options: Options) -> str:
    if options.keys == "word":
        return "word keys"
    return f"bit keys ({options.comparator} comparator)"


#: The most digits a whole number of the command line may have: far past every count, size,
#: seed and ceiling, and below Python's own limit on reading an int (4,300 digits).
MOST_DIGITS = 4000


def whole(text: str) -> int | None:
    """``text`` as a whole number written plainly, ASCII digits with an optional minus sign
    (``1_024``, ``+8``, ``²`` and other scripts' digits are not), or None: every whole number
    of the command line is read by this one rule. A number of more than :data:`MOST_DIGITS`
    digits is refused (``argparse.ArgumentTypeError``), naming its length."""
    written = str(text).strip()
    if not re.fullmatch(r"-?[0-9]+", written):
        return None
    if len(written.lstrip("-")) > MOST_DIGITS:
        raise argparse.ArgumentTypeError(
            f"{written[:12]}... has {len(written.lstrip('-')):,} digits, more than any count, "
            f"size or seed pram takes ({MOST_DIGITS:,} at most); give a smaller number")
    return int(written)


def _rank(text: str) -> int:
    """``--k``: a non-negative whole number (the rank is checked against n with the input)."""
    value = whole(text)
    value = -1 if value is None else value
    if value < 0:
        raise argparse.ArgumentTypeError(
            f"invalid rank {text!r}; give a non-negative integer (0 is the smallest)")
    return value


#: The most instances one command runs: their seeds and summaries are held at once, so a
#: count past this is refused before any work rather than ending in an out-of-memory kill.
MAX_INSTANCES = 1_000_000


def _instances(text: str) -> int:
    """``--instances``: how many random instances to run, a positive whole number, at most
    :data:`MAX_INSTANCES`."""
    value = whole(text) or 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"invalid instance count {text!r}; give a positive integer, e.g. --instances 100")
    if value > MAX_INSTANCES:
        raise argparse.ArgumentTypeError(
            f"--instances {text.strip()} is more than the {MAX_INSTANCES:,} one command runs; "
            f"split the seeds over commands, e.g. --seed 0 --instances {MAX_INSTANCES} then "
            f"--seed {MAX_INSTANCES} --instances {MAX_INSTANCES}")
    return value


_OFF_MACHINE = "it runs on the host (RAM model, one processor), not on the machine"

#: Models a run may use: every model the machine has (``pram.MODELS``), in its order.
MODEL_NAMES = tuple(MODELS)

#: The table: every option of ``pram run`` and ``pram sweep`` beside the sizes and the files.
OPTIONS: tuple[Option, ...] = (
    Option("keys", "a token is one word, or d cells of one bit each", "word", ("word", "bits"),
           algorithms=TOKEN_ALGORITHMS, json="always", setting=lambda o: _keys_text(o)),
    Option("comparator", "bit-key comparator: serial scan or log-depth tree", "serial",
           ("serial", "tree"), algorithms=TOKEN_ALGORITHMS, when=_bit_keys,
           why="it picks the comparator of bit keys, and a word key compares in one operation "
           "(add --keys bits)", json="applies"),
    Option("sort", "Algorithm 11's sort: one merge-sort tree, or Batcher per block", "merge-tree",
           ("merge-tree", "per-block"), algorithms=("mqar",), when=_searched_by_pbs,
           why="--search oblivious always sorts with the merge-sort trees", json="listed",
           setting=lambda o: f"sort {o.sort}"),
    Option("search", "Algorithm 11's search: Algorithm 10, or oblivious merge and scan", "pbs",
           ("pbs", "oblivious"), algorithms=("mqar",), json="listed",
           setting=lambda o: f"search {o.search}"),
    Option("network", "the sorting network: Batcher's bitonic or odd-even (sort and mqar), "
           "Batcher's merge exchange or the best known for n <= 16 (sort)", "bitonic",
           ("bitonic", "odd-even", "merge-exchange", "best-known"), algorithms=("mqar", "sort"),
           json="listed",
           setting=lambda o: f"{o.network} network"),
    Option("model", "access model (default: the one the algorithm is written for)", "erew",
           MODEL_NAMES, algorithms=ON_MACHINE, why=_OFF_MACHINE, json="listed", json_off="ram",
           argument={"default": None}),
    Option("mode", "collect every violation, or stop at the first", "collect",
           ("collect", "raise"), algorithms=ON_MACHINE, why=_OFF_MACHINE),
    Option("weakest_model", "also name the weakest model under which the run is clean, with "
           "the first violation of each model too weak (information: it changes no exit "
           "status)", False, commands=(RUN,), algorithms=ON_MACHINE, why=_OFF_MACHINE,
           argument={"action": "store_true"}),
    Option("depth", "record every cell's dependency depth (the longest chain of read-then-write "
           "that made its value) and show the critical chain of the last answer cell, phase by "
           "phase (information: it changes no count); the trace page colours the cells by "
           "depth and draws a clicked cell's chain", False, commands=(RUN, TRACE),
           algorithms=ON_MACHINE, why=_OFF_MACHINE, argument={"action": "store_true"}),
    Option("seed", "seed of the random instance", 0, json="always", argument={"type": "seed"}),
    Option("check", "skip comparing the answer with the reference", True,
           argument={"flag": "--no-check", "action": "store_false"}),
    Option("distinct_processors", "refuse a processor id acting twice in one step (always "
           "on: the flag is kept for the commands that name it)", None, algorithms=ON_MACHINE,
           why=_OFF_MACHINE, argument={"action": "store_true"}),
    Option("k", "the rank selection finds, 0-based: the k-th smallest (default: n // 2, the "
           "median; a run shows the k it used among its sizes)", None, algorithms=("selection",),
           argument={"type": _rank, "metavar": "K"}),
    Option("instances", "run K random instances, seeds S, S+1, ..., S+K-1 from --seed, in "
           "lockstep, and report each count's min / mean / max with every answer checked",
           None, commands=(RUN, SWEEP), argument={"type": _instances, "metavar": "K"}),
    Option("max_memory", "the memory the command may take, e.g. 512M or 8G (default: what is "
           "available); shared by the runs going at once", None, commands=ALLOCATING,
           argument={"metavar": "SIZE"}),
)

#: The table by option name.
BY_NAME = {o.name: o for o in OPTIONS}


@attrs.frozen
class Options:
    """What the user asked for: sizes, where the input comes from, and one field per row of
    :data:`OPTIONS` (same names, same defaults)."""

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
    #: Also classify every access of the run and name the weakest clean model (``pram run``).
    weakest_model: bool = False
    #: Record every cell's dependency depth and the critical chain (``pram run --depth``).
    depth: bool = False
    seed: int = 0
    input: str | None = None
    #: Where a declared algorithm comes from (``--module``: ``FILE:NAME`` or
    #: ``package.module:NAME``), so that a worker process loads it too; None for a built-in.
    module: str | None = None
    check: bool = True
    #: Refuse a processor id acting twice in one global step (None: the machine's default).
    distinct_processors: bool | None = None
    #: The rank selection finds (None: n // 2, the median).
    k: int | None = None
    #: The memory a run may need, in bytes (None: what the machine has available).
    max_memory: int | None = None
    #: How many random instances to run (seeds ``seed`` to ``seed + instances - 1``; None:
    #: one run, reported on its own).
    instances: int | None = None
    #: The options given on the command line (by name), whatever their value: one given equal
    #: to its default still does not apply where it does not (:func:`pram.reports.preflight.
    #: refuse_inapplicable`). Empty from Python, where a value other than the default is what
    #: counts as given.
    given: frozenset[str] = attrs.field(default=frozenset(), eq=False)

    def __attrs_post_init__(self) -> None:
        """Refuse a value of the wrong type at once, naming the argument (``Options(n="48")``)."""
        for name in ("n", "m", "d", "seed", "k", "max_memory", "instances"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, numbers.Integral)
            ):
                raise InputError(
                    f"Options({name}={value!r}): {name} must be an int"
                    + (" or None" if name != "seed" else "")
                    + f", not {type(value).__name__}; e.g. Options({name}={_example(value)})"
                )
        for option in OPTIONS:
            value = getattr(self, option.name)
            if option.choices is not None and not isinstance(value, str):
                raise InputError(
                    f"Options({option.name}={value!r}): {option.name} must be a str, not "
                    f"{type(value).__name__}"
                )
        if self.module is not None and not isinstance(self.module, str):
            raise InputError(
                f"Options(module={self.module!r}): module must be 'FILE:NAME' as a str, not "
                f"{type(self.module).__name__}"
            )
        if self.input is not None and not isinstance(self.input, str):
            raise InputError(
                f"Options(input={self.input!r}): input must be a path as a str, not "
                f"{type(self.input).__name__}; e.g. Options(input=str(path))"
            )
        for name in ("check", "distinct_processors", "weakest_model", "depth"):
            value = getattr(self, name)
            if not isinstance(value, bool) and not (name == "distinct_processors"
                                                    and value is None):
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


def validate(options: Options) -> None:
    """Refuse options no algorithm can run with, naming the value and the fix."""
    for size in ("n", "m", "d"):
        value = getattr(options, size)
        if value is not None and value < 1:
            raise InputError(f"--{size} must be a positive integer (got {value})")
    if options.k is not None and options.k < 0:
        raise InputError(f"--k must be a rank, 0 or more (got {options.k}); 0 is the smallest")
    if options.instances is not None and options.instances < 1:
        raise InputError(
            f"--instances must be a positive integer (got {options.instances}); "
            "e.g. --instances 100"
        )
    if options.d is not None and options.d > MAX_D:
        raise InputError(f"--d must be at most {MAX_D} so a token fits a word (got {options.d})")
    for option in OPTIONS:
        value = getattr(options, option.name)
        if option.choices is not None and value not in option.choices:
            raise InputError(
                f"{option.flag} must be one of {', '.join(option.choices)} (got {value!r})"
            )


def used_by(name: str) -> tuple[str, ...]:
    """The options that change what algorithm ``name`` does (those naming it in the table)."""
    return tuple(o.name for o in OPTIONS
                 if isinstance(o.algorithms, tuple) and name in o.algorithms)


def json_fields(entry: Algorithm, options: Options) -> dict[str, object]:
    """The option fields of a run's JSON, in the table's order: the value where the option
    applies (or always), else null (``"ram"`` for the model of a run off the machine). A
    declared algorithm (``--module``) carries only the fields of the options it takes: no
    ``keys`` or ``sort`` of MQAR's."""
    out: dict[str, object] = {}
    declared = getattr(entry, "declaration", None) is not None
    for option in OPTIONS:
        if option.json is None or (declared and not option.lists(entry)):
            continue
        shown = option.json == "always" or (
            option.applies(entry, options) if option.json == "applies" else option.lists(entry)
        )
        out[option.name] = getattr(options, option.name) if shown else option.json_off
    return out


def setting_parts(entry: Algorithm, options: Options) -> list[str]:
    """The words of a report's settings line for the options the table lists for ``entry``,
    e.g. ``sort per-block``; the comparator joins the bit keys it belongs to."""
    return [o.setting(options) for o in OPTIONS if o.setting is not None and o.lists(entry)]


# ---- the command line ----------------------------------------------------------------------


def add_arguments(
    parser: argparse.ArgumentParser, command: str, types: dict[str, Callable[[str], Any]]
) -> None:
    """Add every option of the table that ``command`` takes to ``parser``; ``types`` names
    the command line's parsers of values (``"seed"`` -> a non-negative integer)."""
    for option in OPTIONS:
        if command not in option.commands:
            continue
        extra = dict(option.argument)
        flag = extra.pop("flag", option.flag)
        if isinstance(extra.get("type"), str):
            extra["type"] = types[extra["type"]]
        # None until given, so that a value given equal to the default is still seen as
        # given (``--keys word`` for a declaration is refused as ``--keys bits`` is);
        # :func:`from_arguments` puts the default in
        kwargs: dict[str, Any] = {"help": option.help, "default": None}
        if option.choices is not None:
            kwargs["choices"] = option.choices
        if flag != option.flag:
            kwargs["dest"] = option.name
        parser.add_argument(flag, **(kwargs | extra))


def from_arguments(
    args: argparse.Namespace, *, model: str, max_memory: int | None, **sizes: Any
) -> Options:
    """The :class:`Options` of parsed arguments: every row of the table, the sizes (``sizes``
    overrides what was parsed, as a sweep does), ``model`` when ``--model`` was not given."""
    parsed = {o.name: getattr(args, o.name) for o in OPTIONS if hasattr(args, o.name)}
    values: dict[str, Any] = {name: BY_NAME[name].default if value is None else value
                              for name, value in parsed.items()}
    values |= {"model": args.model or model, "max_memory": max_memory}
    return Options(
        given=frozenset(name for name, value in parsed.items() if value is not None),
        n=sizes.get("n", getattr(args, "n", None)),
        m=args.m,
        d=sizes.get("d", getattr(args, "d", None)),
        input=getattr(args, "input", None),
        module=getattr(args, "module_spec", None),
        **values,
    )


def choices(name: str) -> tuple[str, ...]:
    """The choices of the table's option ``name``."""
    offered = BY_NAME[name].choices
    assert offered is not None, f"{name} takes no choices"
    return offered
