"""The fallback for hostile lines: what decodes a line msgspec rejects.

``_wire/decode.py`` takes the fast path; a line it cannot decode as a known event
comes here (docs/protocol.md §3, §5: tolerate what the CLI prints, never crash on it):

- a lone surrogate escape or invalid UTF-8 becomes U+FFFD (:func:`repair_line`, from
  ``_wire/json_repair.py`` with :func:`decode_with_decimals`: pure functions of bytes);
- numbers msgspec cannot hold (an integer of more digits than Python converts, ``1e999``)
  are kept as ``Decimal`` (:func:`raw_object`, :func:`decode_with_decimals`);
- JSON nested deeper than msgspec goes gives an ``UnknownEvent`` whose ``error`` is
  :data:`TOO_DEEP`, its ``type`` and ``subtype`` read from the start of the line
  (:func:`too_deep`).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import msgspec

from ..events import UnknownEvent
from .json_repair import decode_with_decimals, repair_line

__all__ = [
    "TOO_DEEP",
    "decode_with_decimals",
    "ends_too_soon",
    "raw_object",
    "repair_line",
    "too_deep",
]

TOO_DEEP = "JSON nested deeper than agent_sdk decodes"
"""The ``error`` of an :class:`~agent_sdk.events.UnknownEvent` whose line nests too deep."""


@functools.cache
def _any_decoder() -> msgspec.json.Decoder[Any]:
    # Any, not dict: then its only ValidationError is a number out of range.
    return msgspec.json.Decoder()


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


def ends_too_soon(text: bytes) -> bool:
    """Whether ``text`` is no JSON only because it ends too soon: more text after it could
    make it JSON. ``False`` for JSON, and for text already wrong before its end (what
    follows cannot mend that: a parser reads left to right)."""
    try:
        _any_decoder().decode(text)
    except msgspec.ValidationError:  # a number out of range: the JSON itself is complete
        return False
    except msgspec.DecodeError as exc:
        return str(exc) == "Input data was truncated"
    except UnicodeDecodeError:
        repaired = repair_line(text)
        return repaired != text and ends_too_soon(repaired)
    except RecursionError:
        return False
    return False


def _decode_with_decimals(line: bytes) -> dict[str, Any] | None:
    """The object on a line holding numbers msgspec rejects (more digits than ``int``
    converts, or beyond a float's range), with those numbers as ``Decimal``; ``None``
    if the line is no JSON object after all."""
    try:
        value = decode_with_decimals(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


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
