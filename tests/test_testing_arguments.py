""":mod:`pram.testing`: each check refuses what is not its argument, in one line."""

from __future__ import annotations

from typing import Any

import pytest

from pram import (
    InputError,
    Machine,
    Read,
    Step,
)
from pram.testing import assert_erew, assert_flagged, assert_model

# ---- F9, F12: the checks' and the declaration's arguments -----------------------------------


def test_checks_refuse_what_is_not_their_argument() -> None:
    def program(m: Machine) -> Any:
        yield Step(m.processors(1), reads=[Read(m.array("a", size=1), 0)])

    with pytest.raises(InputError, match="assert_flagged got a program already made"):
        assert_flagged(program(Machine()), "erew")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="assert_model takes the machine"):
        assert_model("erew")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="assert_erew takes the machine"):
        assert_erew("erew")  # type: ignore[arg-type]
