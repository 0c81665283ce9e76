"""AgentOptions' bool and number options (agent_sdk/_options/checks.py): a bool takes
only a bool, a number of seconds a finite non-negative real; a string says to convert it."""

from __future__ import annotations

import fractions
from typing import Any

import pytest
from option_values import FIELDS, refused

from agent_sdk import AgentOptions

BOOLS = [name for name, field in FIELDS.items() if field.type in (bool, bool | None)]
NUMBERS = ["timeout", "idle_timeout", "result_grace"]


# --- bools --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", BOOLS)
@pytest.mark.parametrize("value", ["false", "no", 1, 0, "True"])
def test_a_bool_option_takes_only_a_bool(name: str, value: object) -> None:
    error = refused(**{name: value})
    assert f"{name} must be True or False" in error.message
    assert f"AgentOptions({name}={value!r})" in error.message


def test_force_as_a_string_says_to_convert_it() -> None:
    error = refused(force="false")
    assert error.message == "AgentOptions(force='false'): force must be True or False, not a str"
    assert error.hint == 'convert it first, e.g. force=os.environ.get("FORCE") == "1"'


# --- numbers ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NUMBERS)
@pytest.mark.parametrize(
    "value", ["10", True, False, float("nan"), float("inf"), -float("inf"), -1, -0.5, [1]]
)
def test_a_number_option_takes_a_finite_non_negative_int_or_float(name: str, value: object) -> None:
    error = refused(**{name: value})
    assert f"{name} must be a" in error.message
    assert "number of seconds" in error.message


@pytest.mark.parametrize("name", ["timeout", "idle_timeout"])
def test_a_limit_of_zero_seconds_is_refused(name: str) -> None:
    assert "positive number" in refused(**{name: 0}).message


def test_a_number_as_a_string_says_to_convert_it() -> None:
    assert refused(timeout="10").hint == "convert it first, e.g. timeout=float('10')"


class Seconds(float):
    """A float subclass, as numpy.float64 is."""


@pytest.mark.parametrize("value", [10, 0.5, Seconds(3.0), fractions.Fraction(1, 2)], ids=repr)
def test_a_real_number_of_seconds_is_accepted(value: Any) -> None:
    assert AgentOptions(timeout=value, result_grace=value).result_grace == value
