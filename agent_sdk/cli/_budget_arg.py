"""A :class:`~agent_sdk.budget.Budget` on the command line: a JSON object of its limits,
as ``--budget`` (each run, each task), ``agent-sdk batch --fleet-budget`` (all the tasks
together) and a tasks file's ``options.budget`` take it (docs/budgets.md)."""

from __future__ import annotations

import argparse

import msgspec

from ..budget import Budget
from ..errors import AgentConfigError
from .hints import in_flag_terms

__all__ = ["EXAMPLE", "budget_arg", "budget_of"]

EXAMPLE = '{"tool_calls": 20, "tool_calls_by_kind": {"shell": 5}}'
"""A budget as the command line writes it."""
_LIMITS = ", ".join(Budget.__struct_fields__)


def budget_of(value: object) -> Budget:
    """The budget a decoded JSON value gives.

    Raises:
        ValueError: it is not an object of known limits, or a limit is not a whole
            number >= 0 (the message in JSON terms).
    """
    if not isinstance(value, dict):
        raise ValueError(f"a budget is a JSON object of limits, e.g. {EXAMPLE}")
    unknown = sorted(str(name) for name in value if name not in Budget.__struct_fields__)
    if unknown:
        raise ValueError(f"a budget has no limit {unknown[0]!r}: its limits are {_LIMITS}")
    try:
        return Budget(**value)
    except AgentConfigError as exc:
        said = in_flag_terms(exc.message)
        hint = in_flag_terms(exc.hint) if exc.hint else ""
        raise ValueError(f"{said} ({hint})" if hint else said) from None


def budget_arg(text: str) -> Budget:
    """``--budget JSON``'s value (an ``argparse`` type).

    Raises:
        argparse.ArgumentTypeError: not a JSON object of known limits (argparse says so
            as a usage error, exit status 2).
    """
    try:
        value = msgspec.json.decode(text)
    except msgspec.ValidationError:  # valid JSON, a number no float holds (1e400)
        where = _out_of_range(text.encode(errors="surrogatepass"))
        if where:
            said = f"{where}: the number is out of range; a limit is a whole number >= 0 or null"
        else:
            said = (
                f"{text.strip()[:80]}: the number is out of range; a budget is a JSON object "
                f"of limits, e.g. {EXAMPLE}"
            )
        raise argparse.ArgumentTypeError(said) from None
    except (msgspec.DecodeError, RecursionError):  # RecursionError: msgspec's depth limit
        raise argparse.ArgumentTypeError(
            f"not a JSON object: write the limits as one, e.g. '{EXAMPLE}'"
        ) from None
    try:
        return budget_of(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw])


def _out_of_range(data: bytes) -> str:
    """The member of the JSON object ``data`` that holds the number msgspec refused as out
    of range, as JSON (``{"tool_calls_by_kind": {"shell": 1e999}}``); ``""`` when ``data``
    is no object or none is found."""
    try:
        members = _MEMBERS.decode(data)
    except (msgspec.DecodeError, RecursionError):  # ValidationError included: no object
        return ""
    for key, raw in members.items():
        try:
            msgspec.json.decode(raw)
        except msgspec.ValidationError:
            inner = _out_of_range(bytes(raw)) or bytes(raw).decode(errors="replace")
            return "{" + msgspec.json.encode(key).decode() + ": " + inner + "}"
        except (msgspec.DecodeError, RecursionError):
            continue
    return ""
