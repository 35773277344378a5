"""The shortcuts for speed (ids, the order test) answer exactly what the full tests answer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pram.engine.memo import StepMemo, ascending
from pram.registers.ids import freeze, immutable, same_processors


def test_frozen_ids_and_their_views_are_immutable_and_not_copied_again() -> None:
    """What freeze made (and any view of it) is kept as it is; a writable array is copied."""
    host = np.arange(10, dtype=np.int64)
    frozen = freeze(host)
    assert frozen is not host and not immutable(host) and immutable(frozen)
    assert freeze(frozen) is frozen
    view = frozen[2:7]
    assert immutable(view) and freeze(view) is view
    with pytest.raises(ValueError, match="WRITEABLE"):
        view.flags.writeable = True
    assert not immutable(frozen[[1, 2]])  # a fancy selection is a fresh, writable array


def test_a_changed_host_array_is_frozen_afresh() -> None:
    """The frozen copy of a host array is reused only while the array holds the same ids."""
    host = np.arange(5000, dtype=np.int64)
    first = freeze(host)
    assert freeze(host) is first
    host[0] = 7
    again = freeze(host)
    assert again is not first and again.tolist() == host.tolist()
    assert first[0] == 0


@pytest.mark.parametrize("n", [1, 8, 2048, 2049, 70000])
def test_same_processors_agrees_with_numpy(n: int) -> None:
    """Equal ids compare equal, ids that differ in one place do not, at every size and path
    (by bytes, by numpy, remembered for immutable pairs), and a remembered answer for
    immutable arrays stays right however often it is asked."""
    ids = np.arange(n, dtype=np.int64)
    a, b = freeze(ids.copy()), freeze(ids.copy())
    other = ids.copy()
    other[-1] += 1
    c = freeze(other)
    for _ in range(2):
        assert same_processors(a, b) is True
        assert same_processors(a, c) is False
        assert same_processors(a, c[: n - 1]) is False
    mutable = ids.copy()
    assert same_processors(a, mutable) is True
    mutable[-1] += 1
    assert same_processors(a, mutable) is False  # never remembered for a writable array


def test_the_order_test_agrees_with_numpy_on_both_sides_of_its_threshold() -> None:
    """Strictly ascending or not, in Python (up to 24 entries) or by numpy, against numpy's
    own comparison of neighbours: ties, descents and ascending arrays of 1 to 40 entries."""
    rng = np.random.default_rng(5)
    for n in range(1, 41):
        for values in (np.arange(n) * 3, np.sort(rng.integers(0, 2 * n, n)),
                       rng.integers(-5, 5, n), np.arange(n)[::-1].copy()):
            words = np.ascontiguousarray(values, dtype=np.int64)
            expected = bool(np.all(words[1:] > words[:-1]))
            assert ascending(words, StepMemo()) is expected, (n, words.tolist())


def test_the_ids_processors_hands_out_cannot_rename_a_registers_processors() -> None:
    """A register selected by a plain integer key has ids of its own; pram.registers.processors
    hands them out immutable, so writing them (to move processor 0's value to processor 3
    without memory) is refused."""
    from pram import Machine, Read, Step
    from pram.registers import processors

    m = Machine()
    a = m.array("a", values=np.array([10, 20, 30, 40]))

    def rename(m: Machine) -> Any:
        pid = m.processors(4)
        (x,) = yield Step(pid, reads=[Read(a, pid)])
        ids = processors(x[np.array([0, 1])])
        ids[0] = pid[3]

    with pytest.raises(ValueError, match="read-only"):
        m.run(rename(m))
