"""The option table: the typed Options class mirrors it, and the command line, the refusals,
the JSON and the settings text all come from it."""

from __future__ import annotations

import attrs
import pytest

from pram import InputError
from pram.reports.cli import build_parser
from pram.reports.entries import algorithm
from pram.reports.options import OPTIONS, Options, json_fields, setting_parts, used_by, whole
from pram.reports.preflight import refuse_inapplicable
from tests.commands import one_line_error


def test_the_options_class_has_one_field_per_row_with_its_default() -> None:
    """Options = the sizes, the input file, and every row of the table with the row's default
    (the model's default is the entry's own, so its row says erew like the class)."""
    fields = {f.name: f.default for f in attrs.fields(Options)}
    assert set(fields) == {"n", "m", "d", "input", "module", "given"} | {o.name for o in OPTIONS}
    assert {o.name: fields[o.name] for o in OPTIONS} == {o.name: o.default for o in OPTIONS}


def test_run_and_sweep_take_every_row_with_its_choices() -> None:
    """Each row is an argument of the commands it names (pram run, pram sweep), offering
    exactly its choices, and no argument of the others."""
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for command in ("run", "sweep"):
        actions = {a.dest: a for a in commands[command]._actions}
        for option in OPTIONS:
            if command not in option.commands:  # --weakest-model belongs to pram run only
                assert option.name not in actions, (command, option.name)
                continue
            assert option.name in actions, (command, option.name)
            offered = actions[option.name].choices
            assert (tuple(offered) if offered else None) == option.choices


def test_uses_come_from_the_table() -> None:
    """An entry uses the options whose rows list it; the catalogue's entries use none."""
    assert used_by("mqar") == ("keys", "comparator", "sort", "search", "network")
    assert used_by("sort") == ("keys", "comparator", "network")
    assert algorithm("max").uses == ()


def test_a_row_that_does_not_apply_is_refused_in_one_line() -> None:
    """A row's refusal names the algorithms it applies to, as the table lists them."""
    with pytest.raises(InputError) as caught:
        refuse_inapplicable("pbs", Options(network="odd-even"))
    assert str(caught.value) == (
        "--network odd-even does not apply to pbs: it applies only to mqar and sort; leave it out"
    )


def test_json_and_settings_follow_the_table() -> None:
    """The option fields of a run's JSON, and the settings words, for mqar and for a run off
    the machine."""
    mqar = algorithm("mqar")
    assert json_fields(mqar, Options(keys="bits", comparator="tree")) == {
        "keys": "bits", "comparator": "tree", "sort": "merge-tree", "search": "pbs",
        "network": "bitonic", "model": "erew", "seed": 0,
    }
    assert json_fields(algorithm("mqar-sequential"), Options())["model"] == "ram"
    assert setting_parts(mqar, Options(sort="per-block")) == [
        "word keys", "sort per-block", "search pbs", "bitonic network"
    ]


@pytest.mark.parametrize("argv", [
    ["pbs", "--n", "16", "--sort", "merge-tree"],
    ["prefix-sums", "--n", "16", "--network", "bitonic"],
    ["prefix-sums", "--n", "16", "--keys", "word"],
    ["mqar", "--n", "48", "--comparator", "serial"],
])
def test_an_option_given_at_its_default_is_refused_where_it_does_not_apply(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """It passed unseen: only a value other than the default counted as given."""
    line = one_line_error(capsys, "run", *argv)
    assert f"{argv[3]} {argv[4]} does not apply to {argv[0]}" in line and "leave it out" in line


@pytest.mark.parametrize("argv", [
    ["run", "sort", "--n", "1_024"], ["run", "sort", "--n", "\uff18"],
    ["run", "sort", "--n", "+8"], ["run", "sort", "--n", "8", "--seed", "1_0"],
    ["run", "sort", "--n", "8", "--instances", "\u00b2"],
    ["run", "selection", "--n", "8", "--k", "\u00b2"], ["sweep", "sort", "--n", "8,1_6"],
    ["trace", "sort", "--n", "8", "--steps", "1_0"],
    ["trace", "sort", "--n", "8", "--steps", "\uff13"],
])
def test_every_whole_number_of_the_command_line_is_plain_ascii_digits(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """One rule for --n, --seed, --instances, --k, --steps: ``1_024`` and a fullwidth 8 were
    read by int() for --n and --seed but refused by --instances, and a superscript 2 for
    --instances or --k was argparse's "invalid _instances value" with no fix named."""
    from pram.reports.cli import main

    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert ("give" in err) and ("_value" not in err), err
    assert [whole(t) for t in ("8", " 008 ", "-1", "1_0", "+8", "\uff18", "\u00b2", "")] == [
        8, 8, -1, None, None, None, None, None]


# ---- edge cases found from the docs by testers who had not seen the code: each was a
# traceback or a wrong success, now one line and exit 2 (an InputError in Python) ----


@pytest.mark.parametrize(("value", "says"), [
    ("-5G", "--max-memory '-5G' is not a size"), ("-1", "--max-memory '-1' is not a size")])
def test_a_value_that_looks_like_an_option_is_checked_as_the_value(
        capsys: pytest.CaptureFixture[str], value: str, says: str) -> None:
    """``--max-memory -5G`` was argparse's "expected one argument", which names no value."""
    line = one_line_error(capsys, "run", "sort", "--n", "8", "--max-memory", value)
    assert says in line
    assert "expected one argument" in one_line_error(capsys, "run", "sort", "--input", "--json")


@pytest.mark.parametrize("argv", [
    ("sweep", "sort", "--n", "8,16", "--workers", str(2**31)),
    ("run", "sort", "--n", "8", "--instances", "4", "--workers", str(10**30)),
])
def test_a_worker_count_beyond_a_c_int_is_one_line(
        capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    """--workers 2^31 overflowed the pool's semaphore (tracebacks, leaked semaphores, exit 1;
    third outside edge battery)."""
    line = one_line_error(capsys, *argv)
    assert "--workers" in line and "at most 4096" in line
