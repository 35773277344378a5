"""pram.words: the one host-side check that turns integer input into a fresh int64 array."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import InputError, words

CONVERT = (
    "make them integers explicitly, e.g. numpy.rint(x).astype(numpy.int64) for reals (a plain "
    "cast would truncate them)"
)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(min_value=-(2**63), max_value=2**63 - 1), max_size=20))
def test_words_keep_every_int64_value(values: list[int]) -> None:
    """Any list of int64 values comes back unchanged as a 1-d int64 array."""
    result = words(values, "keys")
    assert result.dtype == np.int64
    assert result.shape == (len(values),)
    assert result.tolist() == values


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
)
def test_words_accept_every_integer_dtype(dtype: Any) -> None:
    """Integer arrays of any width and sign that fit int64 are converted to int64."""
    result = words(np.array([0, 1, 7], dtype=dtype), "keys")
    assert result.dtype == np.int64
    assert result.tolist() == [0, 1, 7]


def test_words_are_a_fresh_copy() -> None:
    """The result never shares memory with the input, even an int64 array."""
    given_ = np.array([1, 2, 3], dtype=np.int64)
    result = words(given_, "keys")
    result[0] = 9
    assert given_.tolist() == [1, 2, 3]


@pytest.mark.parametrize(
    "empty",
    [[], np.array([]), np.array([], dtype=np.float32), np.array([], dtype=np.complex128),
     np.array([], dtype=np.uint64), np.array([], dtype=object)],
)
def test_an_empty_numeric_array_is_an_empty_integer_array(empty: Any) -> None:
    """numpy makes ``[]`` float64: an empty array of any numeric dtype is taken as no integers."""
    result = words(empty, "keys")
    assert result.dtype == np.int64
    assert result.shape == (0,)


def test_python_ints_beyond_64_bits_that_fit_are_accepted() -> None:
    """An object array of Python ints (numpy's choice for huge ints) passes if each fits."""
    result = words(np.array([1, -(2**63), 2**63 - 1], dtype=object), "keys")
    assert result.tolist() == [1, -(2**63), 2**63 - 1]


def test_words_with_two_dimensions() -> None:
    """``ndim=2`` keeps the shape of a 2-d integer array."""
    result = words([[1, 2, 3], [4, 5, 6]], "grid", ndim=2)
    assert result.dtype == np.int64
    assert result.tolist() == [[1, 2, 3], [4, 5, 6]]


@pytest.mark.parametrize(
    ("values", "ndim", "message"),
    [
        (
            np.zeros((2, 3), dtype=np.int64),
            1,
            "keys must be one-dimensional (got shape (2, 3)); pass a flat array",
        ),
        (5, 1, "keys must be one-dimensional (got shape ()); pass a flat array"),
        (
            [1, 2, 3],
            2,
            "keys must be two-dimensional (got shape (3,)); pass an array of 2 dimensions",
        ),
        ([1.5, 2.0], 1, f"keys must be integers (got dtype float64); {CONVERT}"),
        (np.array([1.5]), 1, f"keys must be integers (got dtype float64); {CONVERT}"),
        ([True, False], 1, f"keys must be integers (got dtype bool); {CONVERT}"),
        (np.array([], dtype=bool), 1, f"keys must be integers (got dtype bool); {CONVERT}"),
        (["a", "b"], 1, f"keys must be integers (got dtype <U1); {CONVERT}"),
        ([1j], 1, f"keys must be integers (got dtype complex128); {CONVERT}"),
        ([None], 1, f"keys must be integers (got None); {CONVERT}"),
        (np.array([1, True], dtype=object), 1, f"keys must be integers (got True); {CONVERT}"),
        (
            np.array([1, 2**64 - 1], dtype=np.uint64),
            1,
            "keys must fit in int64 (got 18446744073709551615); use values below 2**63",
        ),
        ([2**63], 1, "keys must fit in int64 (got 9223372036854775808); use values below 2**63"),
        ([2**70], 1, "keys must fit in int64 (got 1180591620717411303424); use values below 2**63"),
        (
            [-(2**70)],
            1,
            "keys must fit in int64 (got -1180591620717411303424); use values from -2**63 up",
        ),
        (
            [[1, 2], [3]],
            1,
            "keys must be an array of integers (got a list numpy cannot turn into an array); "
            "pass a flat sequence of integers",
        ),
    ],
)
def test_words_refuse_what_is_not_int64_integers(values: Any, ndim: int, message: str) -> None:
    """Every refusal names the value and the fix, in one message form."""
    with pytest.raises(InputError, match=re.escape(message) + "$"):
        words(values, "keys", ndim=ndim)
