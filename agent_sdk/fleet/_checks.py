"""The checks of the fleet's numbers (``Fleet(limit=..., stagger=...)``, ``RetryPolicy``),
made when the value is built, as ``AgentOptions``' are: a value that would fail later
(``nan`` attempts retry for ever, an ``inf`` backoff waits nothing) is an
:class:`~agent_sdk.AgentConfigError` naming the argument, the value and the fix.
"""

from __future__ import annotations

import math
import numbers
from typing import TypeGuard

from .._option_checks import a_value
from ..errors import AgentConfigError

__all__ = ["check_count", "check_fraction", "check_seconds"]


def check_count(owner: str, name: str, value: object, *, example: int) -> None:
    """``value`` is a whole number >= 1 (an int, not a bool)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and int(value) >= 1:
        return
    raise _refused(owner, name, value, "a whole number >= 1 (an int)", f"{example}", int)


def check_seconds(owner: str, name: str, value: object, *, example: float) -> None:
    """``value`` is a finite number of seconds >= 0 (an int or a float, not a bool)."""
    if _real(value) and math.isfinite(value) and value >= 0:
        return
    expected = "a number of seconds >= 0 (an int or a float, finite)"
    raise _refused(owner, name, value, expected, f"{example}", float)


def check_fraction(owner: str, name: str, value: object, *, example: float) -> None:
    """``value`` is a number from 0 to 1 (an int or a float, not a bool)."""
    if _real(value) and 0 <= value <= 1:
        return
    raise _refused(owner, name, value, "a number from 0 to 1", f"{example}", float)


def _real(value: object) -> TypeGuard[float]:
    # An int, a float, numpy's numbers, a Fraction; not a bool (True is no count).
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _refused(
    owner: str, name: str, value: object, expected: str, example: str, kind: type
) -> AgentConfigError:
    if _real(value):
        problem = f"{name} must be {expected}, got {value!r}"  # out of range, nan, inf
    else:
        problem = f"{name} must be {expected}, not {a_value(value)}"
    if isinstance(value, str):
        hint = f"convert it first, e.g. {owner}({name}={kind.__name__}({value!r}))"
    else:
        hint = f"e.g. {owner}({name}={example})"
    shown = repr(value)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return AgentConfigError(f"{owner}({name}={shown}): {problem}", hint=hint)
