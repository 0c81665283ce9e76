"""The lenient fallback for hostile lines: what decodes a line msgspec rejects.

``_protocol/decode.py`` takes the fast path; a line it cannot decode as a known event
comes here (docs/protocol.md §3, §5: tolerate what the CLI prints, never crash on it):

- a lone surrogate escape or invalid UTF-8 becomes U+FFFD (:func:`repair_line`);
- numbers msgspec cannot hold (an integer of more digits than Python converts, ``1e999``)
  are kept as ``Decimal`` (:func:`raw_object`, :func:`decode_with_decimals`);
- JSON nested deeper than msgspec goes gives an ``UnknownEvent`` whose ``error`` is
  :data:`TOO_DEEP`, its ``type`` and ``subtype`` read from the start of the line
  (:func:`too_deep`).
"""

from __future__ import annotations

import functools
import math
import re
from typing import TYPE_CHECKING, Any

import msgspec

from ..events import UnknownEvent

if TYPE_CHECKING:
    from decimal import Decimal

__all__ = ["TOO_DEEP", "decode_with_decimals", "raw_object", "repair_line", "too_deep"]

TOO_DEEP = "JSON nested deeper than agent_sdk decodes"
"""The ``error`` of an :class:`~agent_sdk.events.UnknownEvent` whose line nests too deep."""


@functools.cache
def _any_decoder() -> msgspec.json.Decoder[Any]:
    # Any, not dict: then its only ValidationError is a number out of range.
    return msgspec.json.Decoder()


# A \uXXXX surrogate escape, unless it is part of a valid pair; escaped backslashes are
# matched first so that `\\ud83d` (a literal backslash, then text) is left alone.
@functools.cache
def _surrogate() -> re.Pattern[bytes]:
    return re.compile(
        rb"(\\\\)"
        rb"|(\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2})"
        rb"|\\u[dD][89a-fA-F][0-9a-fA-F]{2}"
    )


def _replace_lone_surrogate(match: re.Match[bytes]) -> bytes:
    if match.group(1) or match.group(2):
        return match.group(0)
    return rb"\ufffd"


def repair_line(line: bytes) -> bytes:
    """Make a line msgspec can decode without changing any valid part of it.

    Node cuts strings mid-emoji and emits a lone UTF-16 surrogate escape (``"\\ud83d"``),
    which msgspec rejects; invalid UTF-8 is rejected too. Both become U+FFFD.
    """
    if b"\\u" in line:
        line = _surrogate().sub(_replace_lone_surrogate, line)
    return line.decode("utf-8", "replace").encode("utf-8")


def raw_object(line: bytes) -> tuple[dict[str, Any], str | None] | None:
    """The JSON object on a line, and msgspec's reason if some of its numbers had to be
    kept as ``Decimal``; ``None`` if the line is no JSON object. Raises RecursionError
    if it nests too deep."""
    try:
        raw = _any_decoder().decode(line)
    except msgspec.ValidationError as exc:
        # Decoding into Any fails only on a number msgspec cannot hold.
        raw = _decode_with_decimals(line)
        return None if raw is None else (raw, str(exc).partition(" - at ")[0])
    except (msgspec.DecodeError, UnicodeDecodeError):
        repaired = repair_line(line)
        return None if repaired == line else raw_object(repaired)
    return (raw, None) if isinstance(raw, dict) else None


def _decode_with_decimals(line: bytes) -> dict[str, Any] | None:
    """The object on a line holding numbers msgspec rejects (more digits than ``int``
    converts, or beyond a float's range), with those numbers as ``Decimal``; ``None``
    if the line is no JSON object after all."""
    try:
        value = decode_with_decimals(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def decode_with_decimals(data: bytes) -> Any:
    """Any JSON value, with the numbers msgspec cannot hold as ``Decimal``. The standard
    library is slower but takes a hook per number; only rare values come here.

    Raises:
        ValueError: not JSON (NaN and Infinity are not JSON either).
        RecursionError: nested too deep.
    """
    import json  # here: only these rare values need it (asyncio has loaded it anyway)

    return json.loads(
        repair_line(data).decode("utf-8"),
        parse_int=_int_or_decimal,
        parse_float=_float_or_decimal,
        parse_constant=_no_constant,
    )


def _int_or_decimal(digits: str) -> int | Decimal:
    try:
        return int(digits)
    except ValueError:  # more digits than sys.get_int_max_str_digits() allows
        from decimal import Decimal

        return Decimal(digits)


def _float_or_decimal(digits: str) -> float | Decimal:
    value = float(digits)
    if math.isinf(value):
        from decimal import Decimal

        return Decimal(digits)
    return value


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


# The start of a line as the CLI writes it: `{"type":"…","subtype":"…"`; the string
# tokens are captured whole, escapes and all.
@functools.cache
def _leading_type() -> re.Pattern[bytes]:
    ws = rb"[ \t\r\n]*"
    string = rb'("(?:[^"\\]|\\.)*")'
    return re.compile(
        ws + rb"\{" + ws
        + rb'(?:"type"' + ws + rb":" + ws + string
        + rb"(?:" + ws + rb"," + ws + rb'"subtype"' + ws + rb":" + ws + string + rb")?)?"
    )  # fmt: skip


def too_deep(line: bytes) -> UnknownEvent | None:
    """A line msgspec gave up on, nested too deep: an ``UnknownEvent`` if it begins as an
    object (it may not even be valid JSON: checking would recurse too), else ``None``.
    Its ``type`` and ``subtype`` are read from the start of the line, where the CLI puts
    them; one further in cannot be found without decoding the whole line."""
    match = _leading_type().match(line)
    if match is None:
        return None
    kind, subtype = (_string(token) for token in match.groups())
    return UnknownEvent(type=kind or "", subtype=subtype, raw={}, error=TOO_DEEP)


def _string(token: bytes | None) -> str | None:
    if token is None:
        return None
    try:
        return msgspec.json.decode(repair_line(token), type=str)
    except msgspec.DecodeError:
        return None
