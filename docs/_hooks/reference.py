"""The generated reference pages: every command, option and exit status from the parser
(``pram.reports.cli.build_parser``, which adds the rows of ``pram.reports.options.OPTIONS``),
and every JSON field from the objects the commands print.

MkDocs calls :func:`on_page_markdown` for each page (``hooks:`` in ``mkdocs.yml``); a page
holding a ``<!-- generated: NAME -->`` line gets that text in its place, made from the code at
build time, so the reference cannot drift from the command line. ``tests/test_docs.py``
imports this file to compare the text with ``pram --help`` and to check the JSON fields.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
from collections.abc import Callable, Iterator
from typing import Any

from pram.reports import cli, options, signals, status

#: A run's JSON fields, in words. The build fails on a field the commands print that is not
#: here, or one here they no longer print (:func:`json_reference`), so the list stays whole.
RUN_FIELDS = {
    "algorithm": "the algorithm's name, as given on the command line",
    "n": "the size (tokens N for MQAR, keys for the searches, values for the sort, n for the "
         "catalogue)",
    "m": "the second size (queries of the searches, the second list of merge)",
    "d": "the token width in bits (MQAR and the searches)",
    "input": "the --input file, or null for a random instance",
    "time": "steps, counted by the machine while the program ran",
    "work": "processor-steps: the sum over steps of the processors active in each",
    "rounds": "rounds, the textbooks' steps (a read, the local computation, a write): a step "
              "that only reads and the next that only writes, by processors among the "
              "readers, in one phase, are one round; any other step is one; counted by the "
              "machine (null off the machine)",
    "round_work": "the work of rounds: the processors active in each round, summed (null "
                  "off the machine)",
    "reads": "cells read, over every step",
    "writes": "cells written, over every step",
    "max_processors": "the most processors active in one step",
    "memory_cells": "cells allocated over the run",
    "peak_cells": "the most cells alive at once",
    "local": "elementwise register operations between steps, over the run",
    "max_local": "the most register operations between two steps",
    "violations": "accesses the model forbids (0 for a clean run)",
    "first_violations": "the first violations, each in one line naming step, phase, array, "
                        "index and processors",
    "undefined_reads": "reads of cells never written",
    "correct": "whether the answer equals the reference computed outside the machine (null "
               "with --no-check)",
    "mismatch": "the first difference from the reference, in words, or null",
    "notes": "what the run adapted (padding to N = 3 2^L, a size rounded) in words",
    "bound_sizes": "the sizes the bounds' formulas are evaluated at (d = 1 for word keys)",
    "bounds": "per bound (work, time, ...): formula, measured, formula_value, ratio = measured "
              "/ formula_value, limit, holds (null: one run decides no bound) and at",
    "phases": "per phase label (nested labels joined with /): time, work, reads, writes, "
              "max_processors, local, max_local, rounds, round_work",
    "seconds": "wall-clock seconds of the run (not a count)",
    "dtype": "the answer's dtype as --output writes it: int64 for words, float64 for reals",
    "weakest_model": "with --weakest-model: the weakest model under which the run is clean, "
                     "with the first violation of each weaker one",
    "depth": "with --depth: max (the largest cell depth), time, cell (the last answer cell: "
             "the highest the last writing step wrote to the array it wrote last), chain (that "
             "cell's critical chain back to an input, each link array, cell, step, phase, "
             "depth), phases (per top-level phase on the chain: links, steps spanned) and after "
             "(steps after the chain's last link); see the machine's explanation, Cell depths",
}

#: ``pram run --instances K --json``: the summary of K random instances.
INSTANCES_FIELDS = {
    "algorithm": "the algorithm's name",
    "instances": "K, the number of instances",
    "seeds": "the first and last seed (S to S+K-1)",
    "n": "the size", "m": "the second size", "d": "the token width in bits",
    "counts": "per count (time, work, reads, ...): its min, mean and max over the instances",
    "data_dependent": "the counts that differ between instances",
    "answers": "correct and checked answers",
    "violations": "violations over all the instances",
    "undefined_reads": "reads of undefined cells over all the instances",
    "correct": "whether every checked answer is correct",
    "ok": "correct, and no violation",
    "bound_sizes": "the sizes the formulas are evaluated at",
    "bounds": "per bound: formula and the min, mean and max of measured / formula",
    "notes": "what the runs adapted, in words",
    "batches": "how many batches the instances ran in",
    "lockstep": "whether each batch ran in lockstep on one machine (else one machine per "
                "instance)",
    "seconds": "wall-clock seconds (not a count)",
}

#: ``pram sweep --json``: the runs, the verdicts and the laws.
SWEEP_FIELDS = {
    "algorithm": "the algorithm's name",
    "runs": "one object per size, the fields of a run's JSON",
    "bounds": "per bound: formula, verdict (holds, exceeded or undetermined), holds, tight, "
              "loose_by, reason, law, limit, constant, ratios, advice and evidence",
    "phase_bounds": "the same per phase bound (Algorithm 11's sort, search, retrieve, combine)",
    "laws": "per measure: the law fitted to the exact counts (its text, terms and how it was "
            "found) and, with --predict, its values at the sizes asked",
}


def _quiet_json(argv: list[str]) -> dict[str, Any]:
    """What ``pram ARGV`` prints as JSON, run in this process."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
        cli.main(argv)
    out: dict[str, Any] = json.loads(printed.getvalue())
    return out


def printed_fields() -> dict[str, set[str]]:
    """The top-level JSON fields the commands print, from small runs made now: a run of an
    algorithm of each kind (words, tokens, two sizes, the weakest model, the depths), one of K
    instances and a sweep."""
    runs = [["run", "sort", "--n", "8"], ["run", "mqar", "--n", "48"],
            ["run", "merge", "--n", "8"], ["run", "pbs", "--n", "16", "--d", "8"],
            ["run", "max", "--n", "8", "--weakest-model"],
            ["run", "prefix-sums", "--n", "8", "--depth"]]
    instances = [["run", "sort", "--n", "8", "--instances", "2"],
                 ["run", "pbs", "--n", "16", "--d", "8", "--instances", "2"],
                 ["run", "merge", "--n", "8", "--instances", "2"]]
    return {
        "run": set().union(*(_quiet_json([*a, "--json"]) for a in runs)),
        "instances": set().union(*(_quiet_json([*a, "--json"]) for a in instances)),
        "sweep": set(_quiet_json(["sweep", "sort", "--n", "8,16,32", "--json"])),
    }


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subcommands of ``parser`` by name, in the order ``--help`` lists them."""
    for action in parser._actions:  # argparse keeps its subcommands only here
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _help_of(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each subcommand's one-line help, as ``pram --help`` shows it."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help or "" for a in action._choices_actions}
    return {}


def _expanded(action: argparse.Action, prog: str) -> str:
    """An argument's help with argparse's ``%(default)s`` and the like filled in."""
    text = action.help or ""
    if "%" in text:
        text = text % {**vars(action), "prog": prog}
    return " ".join(text.split())


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _argument_rows(parser: argparse.ArgumentParser) -> Iterator[str]:
    table = {o.flag: o for o in options.OPTIONS}
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if action.option_strings:
            spelled = ", ".join(f"`{s}`" for s in action.option_strings)
            if action.nargs != 0 and not isinstance(action, argparse.BooleanOptionalAction):
                spelled += f" `{action.metavar or action.dest.upper()}`"
        else:
            spelled = f"`{action.metavar or action.dest}`"
        choices = ", ".join(f"`{c}`" for c in action.choices) if action.choices else ""
        default = action.default
        shown = "" if default in (None, False, argparse.SUPPRESS, []) else f"`{default}`"
        where = ""
        option = next((table[s] for s in action.option_strings if s in table), None)
        if option is not None:
            where = option.users()
        yield (f"| {spelled} | {_cell(_expanded(action, parser.prog))} | {choices} | {shown} | "
               f"{where} |")


def exit_statuses() -> list[tuple[str, str]]:
    """Every exit status a command can end with, from the constants that define them."""
    return [
        (str(status.OK), "everything the command checks holds"),
        (str(status.FAILED), "it finished but something it checks failed: a wrong answer, a "
         "violation under the chosen model, a bound exceeded (for `pram lint`: a finding)"),
        (str(status.INVALID), "invalid arguments or input: one line naming the value and the "
         "fix, never a traceback"),
        *((str(128 + int(number)), f"stopped by {number.name} (128 + its number): one line, "
           f"`pram COMMAND: {said}`, no process left behind")
          for number, said in signals.HANDLED.items()),
        (str(cli.BROKEN_PIPE), "the reader of standard output went away (`pram ... | head`): "
         "ends quietly"),
    ]


def cli_reference() -> str:
    """The command-line reference: each subcommand's usage, arguments and options (with their
    choices, defaults and the algorithms they apply to), and the exit statuses."""
    parser = cli.build_parser()
    helps = _help_of(parser)
    out = [" ".join((parser.description or "").split()), "",
           "| command | what it does |", "| --- | --- |"]
    out += [f"| [`pram {name}`](#pram-{name}) | {_cell(helps.get(name, ''))} |"
            for name in subcommands(parser)]
    out += ["", "## Exit statuses", "", "| status | meaning |", "| --- | --- |"]
    out += [f"| {code} | {meaning} |" for code, meaning in exit_statuses()]
    for name, sub in subcommands(parser).items():
        usage = " ".join(sub.format_usage().split())
        out += ["", f"## pram {name}", "", _cell(helps.get(name, "")) + ".", "",
                "```text", usage.removeprefix("usage: "), "```", "",
                "| argument | what | choices | default | applies to |",
                "| --- | --- | --- | --- | --- |", *_argument_rows(sub)]
    return "\n".join(out) + "\n"


def _fields_table(fields: dict[str, str]) -> list[str]:
    return ["| field | what |", "| --- | --- |",
            *(f"| `{k}` | {_cell(v)} |" for k, v in fields.items())]


def json_reference() -> str:
    """The JSON fields of ``pram run``, ``pram run --instances`` and ``pram sweep``; refuses
    (fails the build) when the fields printed and the fields described differ."""
    printed = printed_fields()
    described = {"run": RUN_FIELDS, "instances": INSTANCES_FIELDS, "sweep": SWEEP_FIELDS}
    for kind, fields in printed.items():
        missing = fields - set(described[kind]) - {o.name for o in options.OPTIONS}
        stale = set(described[kind]) - fields
        if missing or stale:
            raise ValueError(f"the {kind} JSON fields drifted: undescribed {sorted(missing)}, "
                             f"no longer printed {sorted(stale)}; update docs/_hooks/"
                             "reference.py")
    modes = {"always": "always", "applies": "where the option applies (else null)",
             "listed": "for the algorithms it is listed for (else null)"}
    option_rows = [f"| `{o.name}` | {_cell(o.help)} | {modes[o.json]} |"
                   for o in options.OPTIONS if o.json is not None]
    return "\n".join([
        "## `pram run --json`", "",
        "Beside these, the option fields, in the option table's order:", "",
        "| field | the option | written |", "| --- | --- | --- |", *option_rows, "",
        *_fields_table(RUN_FIELDS), "",
        "## `pram run --instances K --json`", "", *_fields_table(INSTANCES_FIELDS), "",
        "## `pram sweep --json`", "", *_fields_table(SWEEP_FIELDS), "",
    ])


def findings() -> str:
    """The findings of the committed report (``report/summary.md``, written by ``pram
    report``), as they stand in the checkout."""
    from pathlib import Path

    summary = (Path(__file__).resolve().parents[2] / "report" / "summary.md").read_text()
    start = summary.index("## Findings\n") + len("## Findings\n")
    end = summary.index("\n## ", start)
    verdict = next(line for line in summary.splitlines() if line.startswith("**Verdict"))
    return f"{verdict}\n{summary[start:end].rstrip()}\n"


def models() -> str:
    """Every access model of the machine (``pram.MODELS``), with the first paragraph of its
    class's docstring: the rule it enforces."""
    import pram

    rows = []
    for name in pram.MODELS:
        doc = (type(pram.model(name)).__doc__ or "").strip().split("\n\n")[0]
        rule = " ".join(doc.split()).replace(":data:`COLLISION`", "`pram.COLLISION`")
        rows.append(f"| `{name}` | {_cell(rule)} |")
    return "\n".join(["| model | rule |", "| --- | --- |", *rows])


GENERATED: dict[str, Callable[[], str]] = {"cli": cli_reference, "json": json_reference,
                                           "findings": findings, "models": models}


def on_page_markdown(markdown: str, **_: Any) -> str:
    """MkDocs' hook: put each generated text in place of its marker line."""
    for name, make in GENERATED.items():
        marker = f"<!-- generated: {name} -->"
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown


def on_files(files: Any, config: Any) -> Any:
    """MkDocs' hook: the committed report's plots (``report/*.png``) join the site under
    ``report/``, so the figures pages show the very files ``pram report`` wrote."""
    from pathlib import Path

    from mkdocs.structure.files import File

    root = Path(config["config_file_path"]).parent
    for plot in sorted((root / "report").glob("*.png")):
        files.append(File(f"report/{plot.name}", src_dir=str(root), dest_dir=config["site_dir"],
                          use_directory_urls=config["use_directory_urls"]))
    return files
