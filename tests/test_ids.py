"""``pram.iota``: whole numbers only (numpy's integers too)."""

from __future__ import annotations

import numpy as np
import pytest

import pram
from pram import InputError


@pytest.mark.parametrize("bad", [-1, 2.5, True, "3", None])
def test_iota_takes_whole_numbers_only(bad: object) -> None:
    with pytest.raises(InputError, match="iota takes a non-negative whole number"):
        pram.iota(bad)  # type: ignore[arg-type]


def test_iota_of_numpy_integers() -> None:
    assert pram.iota(np.int64(3)).tolist() == [0, 1, 2] and pram.iota(0).tolist() == []
