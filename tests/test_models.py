"""Each access model's rule: what it forbids at one cell and which value a write clash stores."""

from __future__ import annotations

import re

import numpy as np
import pytest

from pram import (
    COLLISION,
    MODELS,
    InputError,
    Kind,
    Machine,
    Model,
    Read,
    Step,
    Violation,
    Words,
    Write,
    model,
)
from pram.models import EREW
from tests.helpers import ints


def clash(name: str, values: tuple[int, ...], *, seed: int = 0) -> tuple[int, list[Violation]]:
    """Processors 4, 1, 3, ... (in that order in the step) all write a[0]; return what lands."""
    m = Machine(name, seed=seed)
    a = m.array("a", values=ints(0))
    pid = ints(4, 1, 3, 2, 5, 0)[: len(values)]
    m.execute([Step(pid, writes=[Write(a, 0, ints(*values))])])
    return int(a.to_numpy()[0]), m.violations


def shared_read(name: str) -> list[Violation]:
    """Processors 0 and 1 read a[0] while processor 2 writes it."""
    m = Machine(name)
    a = m.array("a", values=ints(0))
    pid = m.processors(3)
    reading = np.array([True, True, False])
    m.execute([Step(pid, reads=[Read(a, 0, reading)], writes=[Write(a, 0, 9, ~reading)])])
    return m.violations


def test_erew_forbids_every_meeting() -> None:
    """EREW flags two readers, and readers meeting a writer, at one cell."""
    assert [(v.kind, v.processors) for v in shared_read("erew")] == [
        (Kind.READ_READ, (0, 1)),
        (Kind.READ_WRITE, (0, 1, 2)),
    ]


def test_erew_forbids_concurrent_writes() -> None:
    """EREW flags two writers; the lowest processor's value lands."""
    landed, violations = clash("erew", (7, 8))
    assert landed == 8
    assert violations == [Violation("EREW", Kind.WRITE_WRITE, 1, "", "a", 0, (1, 4))]


def test_crew_shares_reads_with_each_other_and_a_writer() -> None:
    """CREW allows concurrent reads, also alongside one write of the cell."""
    assert shared_read("crew") == []


def test_crew_forbids_concurrent_writes() -> None:
    """CREW flags two writers of one cell, even writing the same value."""
    landed, violations = clash("crew", (5, 5))
    assert (landed, [v.kind for v in violations]) == (5, [Kind.WRITE_WRITE])


def test_common_accepts_agreeing_writers() -> None:
    """CRCW-common allows writers that all write the same value."""
    assert clash("crcw-common", (6, 6, 6)) == (6, [])


def test_common_flags_disagreeing_writers_with_their_values() -> None:
    """CRCW-common flags writers that disagree, showing each writer's value."""
    landed, violations = clash("crcw-common", (6, 6, 7))
    assert landed == 6
    assert violations == [
        Violation("CRCW-common", Kind.WRITE_WRITE, 1, "", "a", 0, (1, 3, 4), (6, 7, 6))
    ]


def test_priority_lowest_processor_wins() -> None:
    """CRCW-priority stores the lowest processor id's value, whatever the order in the step."""
    assert clash("crcw-priority", (40, 10, 30, 20)) == (10, [])


@pytest.mark.parametrize(
    ("name", "landed"), [("crcw-sum", 100), ("crcw-max", 40), ("crcw-min", 10)]
)
def test_combining_models_combine(name: str, landed: int) -> None:
    """CRCW-sum, -max and -min store the sum, maximum and minimum of the written values."""
    assert clash(name, (40, 10, 30, 20)) == (landed, [])


def test_arbitrary_picks_one_of_the_writers() -> None:
    """CRCW-arbitrary stores one of the written values, and flags nothing."""
    for seed in range(20):
        landed, violations = clash("crcw-arbitrary", (40, 10, 30, 20, 50, 60), seed=seed)
        assert landed in (10, 20, 30, 40, 50, 60)
        assert violations == []


def test_arbitrary_is_reproducible_from_the_seed() -> None:
    """The same seed makes the same choices; different seeds make different ones."""
    values = (40, 10, 30, 20, 50, 60)
    first = [clash("crcw-arbitrary", values, seed=s)[0] for s in range(12)]
    again = [clash("crcw-arbitrary", values, seed=s)[0] for s in range(12)]
    assert first == again
    assert len(set(first)) > 1


def test_concurrent_reads_are_fine_under_every_crcw_model() -> None:
    """Every CRCW model lets readers and a writer share a cell."""
    for name in MODELS:
        if name.startswith("crcw"):
            assert shared_read(name) == []


@pytest.mark.parametrize(
    "name", ["crcw-priority", "crcw-arbitrary", "crcw-sum", "crcw-max", "crcw-min"]
)
def test_a_million_writes_resolve_together(name: str) -> None:
    """2^20 processors writing 2^18 cells (4 each, shuffled) resolve cell by cell, exactly."""
    n, cells = 1 << 20, 1 << 18
    rng = np.random.default_rng(1)
    target = rng.permutation(np.arange(n, dtype=np.int64) % cells)
    value = rng.integers(-1000, 1000, size=n)
    m = Machine(name, seed=3)
    a = m.array("a", values=np.zeros(cells, dtype=np.int64))
    m.execute([Step(m.processors(n), writes=[Write(a, target, value)])])
    got = a.to_numpy()
    order = np.lexsort((np.arange(n), target))  # by cell, then processor id
    by_cell = value[order].reshape(cells, 4)
    if name == "crcw-arbitrary":
        assert ((by_cell == got[:, None]).any(axis=1)).all()
        return
    expected = {
        "crcw-priority": by_cell[:, 0],
        "crcw-sum": by_cell.sum(axis=1),
        "crcw-max": by_cell.max(axis=1),
        "crcw-min": by_cell.min(axis=1),
    }[name]
    assert np.array_equal(got, expected)


def test_ercw_forbids_shared_reads_and_disagreeing_writes() -> None:
    """ERCW common flags two readers of one cell (not a reader meeting a writer), and
    writers that disagree, with their values; agreeing writers are fine."""
    assert [v.kind for v in shared_read("ercw")] == [Kind.READ_READ]
    assert clash("ercw", (7, 7, 7)) == (7, [])
    landed, found = clash("ercw", (7, 8))
    assert landed == 8 and [(v.kind, v.processors, v.values) for v in found] == [
        (Kind.WRITE_WRITE, (1, 4), (8, 7))]


def test_weak_allows_only_agreeing_zeros_or_ones() -> None:
    """CRCW weak accepts all writing 1 or all writing 0, and flags agreeing 2s and a 0 meeting
    a 1; a lone writer writes any word."""
    assert clash("crcw-weak", (1, 1, 1)) == (1, [])
    assert clash("crcw-weak", (0, 0)) == (0, [])
    assert clash("crcw-weak", (9,)) == (9, [])
    assert [v.values for v in clash("crcw-weak", (2, 2))[1]] == [(2, 2)]
    assert [v.values for v in clash("crcw-weak", (0, 1))[1]] == [(1, 0)]


def test_tolerant_keeps_the_old_value_when_writers_disagree() -> None:
    """CRCW tolerant: agreeing writers land, disagreeing ones leave the old 0; never a
    violation."""
    assert clash("crcw-tolerant", (5, 5, 5)) == (5, [])
    assert clash("crcw-tolerant", (5, 6)) == (0, [])


def test_collision_models_write_the_collision_symbol() -> None:
    """CRCW collision writes the symbol for any two writers; collision+ only when they
    disagree; a lone writer lands under both."""
    assert clash("crcw-collision", (5, 5)) == (COLLISION, [])
    assert clash("crcw-collision", (5,)) == (5, [])
    assert clash("crcw-collision+", (5, 5)) == (5, [])
    assert clash("crcw-collision+", (5, 6, 5)) == (COLLISION, [])
    assert np.iinfo(np.int64).min == COLLISION


def test_model_names_are_case_insensitive() -> None:
    """'EREW' and 'erew' name the same model; a Model instance passes through."""
    assert isinstance(model("EREW"), EREW)
    instance = model("crcw-sum")
    assert model(instance) is instance
    assert Machine("CRCW-Max").model.name == "CRCW-max"


def test_an_unknown_model_is_refused() -> None:
    """An unknown model name is refused with the names that exist."""
    message = (
        "model must be one of erew, crew, crcw-common, crcw-arbitrary, crcw-priority, "
        "crcw-sum, crcw-max, crcw-min, ercw, crcw-weak, crcw-tolerant, crcw-collision, "
        "crcw-collision+ (got 'crcw')"
    )
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        model("crcw")


def test_a_custom_model_plugs_in_through_its_hooks() -> None:
    """A model forbidding only read/write, keeping the last writer, works through the hooks."""

    class LastWins(Model):
        name = "last-wins"
        checks_reads = True

        def forbids(self, kind: Kind, agree: bool) -> bool:
            return kind is Kind.READ_WRITE

        def resolve(self, values: Words, starts: Words, rng: np.random.Generator) -> Words:
            ends = np.append(starts[1:], len(values))
            last: Words = values[ends - 1]
            return last

    m = Machine(LastWins())
    a = m.array("a", values=ints(0, 0))
    pid = m.processors(3)
    m.execute([Step(pid, reads=[Read(a, ints(1, 1, 0))], writes=[Write(a, 0, ints(1, 2, 3))])])
    assert a.to_numpy().tolist() == [3, 0]
    assert m.violations == [Violation("last-wins", Kind.READ_WRITE, 1, "", "a", 0, (0, 1, 2))]
