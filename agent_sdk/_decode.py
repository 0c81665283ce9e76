"""One stdout line in, one typed event out (or ``None`` for a line that is not an event)."""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

import msgspec

from .events import (
    AssistantEvent,
    ConnectionEvent,
    Event,
    ResultEvent,
    RetryEvent,
    SystemEvent,
    SystemInit,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
    UserEvent,
    _Event,
    _ToolCallEvent,
)

_KNOWN_TYPES = frozenset(
    {"system", "user", "assistant", "thinking", "tool_call", "connection", "retry", "result"}
)


# Wire shapes of the types whose subtype picks the public class; msgspec tags on one
# field only, so these decode with a free `subtype` and are converted (cheaply) after.
class _SystemWire(_Event, tag="system", frozen=True):
    subtype: str = ""


class _ThinkingWire(_Event, tag="thinking", frozen=True):
    subtype: str = ""
    text: str = ""


class _ToolCallWire(_ToolCallEvent, tag="tool_call", frozen=True):
    subtype: str = ""


_WireEvent = (
    _SystemWire
    | UserEvent
    | AssistantEvent
    | _ThinkingWire
    | _ToolCallWire
    | ConnectionEvent
    | RetryEvent
    | ResultEvent
)


class _Decoders(NamedTuple):
    wire: msgspec.json.Decoder[_WireEvent]
    init: msgspec.json.Decoder[SystemInit]
    any: msgspec.json.Decoder[dict[str, Any]]


@functools.cache
def _decoders() -> _Decoders:
    # Built on first use, once per process: `import agent_sdk` stays cheap (benchmarks/).
    return _Decoders(
        msgspec.json.Decoder(_WireEvent),
        msgspec.json.Decoder(SystemInit),
        msgspec.json.Decoder(dict[str, Any]),
    )


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


class LineDecoder:
    """Decodes NDJSON lines into events.

    Args:
        partial: whether the run used ``--stream-partial-output``; it decides which
            assistant events carry new text (cli-protocol.md §3.3).
    """

    __slots__ = ("_wire", "partial")

    def __init__(self, *, partial: bool) -> None:
        self.partial = partial
        self._wire = _decoders().wire

    def decode(self, line: bytes) -> Event | None:
        """The event on this line, or ``None`` if the line is not a JSON object."""
        try:
            wire = self._wire.decode(line)
        except msgspec.ValidationError as exc:
            return self._decode_unknown(line, str(exc))
        except (msgspec.DecodeError, UnicodeDecodeError):
            repaired = repair_line(line)
            if repaired == line:
                return None
            return self.decode(repaired)
        if isinstance(wire, AssistantEvent):
            return self._with_new_text(wire)
        if isinstance(wire, _ToolCallWire):
            return _tool_call(wire, line)
        if isinstance(wire, _ThinkingWire):
            return _thinking(wire, line)
        if isinstance(wire, _SystemWire):
            return _system(wire, line)
        return wire

    def _with_new_text(self, event: AssistantEvent) -> AssistantEvent:
        # §3.3: without partial output every event is the only copy of its text. With it,
        # only deltas (timestamp, no model_call_id) are new; the two flush kinds repeat.
        is_new = not self.partial or (
            event.timestamp_ms is not None and event.model_call_id is None
        )
        msgspec.structs.force_setattr(event, "new_text", event.message.text if is_new else "")
        return event

    @staticmethod
    def _decode_unknown(line: bytes, error: str) -> UnknownEvent | None:
        try:
            raw = _decoders().any.decode(line)
        except (msgspec.DecodeError, UnicodeDecodeError):
            try:
                raw = _decoders().any.decode(repair_line(line))
            except (msgspec.DecodeError, UnicodeDecodeError):
                return None  # valid JSON, but not an object: not an event
        kind = raw.get("type")
        subtype = raw.get("subtype")
        return UnknownEvent(
            type=kind if isinstance(kind, str) else "",
            subtype=subtype if isinstance(subtype, str) else None,
            raw=raw,
            error=error if kind in _KNOWN_TYPES else None,
        )


def _tool_call(wire: _ToolCallWire, line: bytes) -> Event:
    cls: type[ToolCallStarted | ToolCallCompleted]
    if wire.subtype == "started":
        cls = ToolCallStarted
    elif wire.subtype == "completed":
        cls = ToolCallCompleted
    else:
        return _unknown_subtype(wire, line)
    return cls(
        call_id=wire.call_id,
        tool_call=wire.tool_call,
        model_call_id=wire.model_call_id,
        session_id=wire.session_id,
        timestamp_ms=wire.timestamp_ms,
    )


def _thinking(wire: _ThinkingWire, line: bytes) -> Event:
    if wire.subtype == "delta":
        return ThinkingDelta(
            text=wire.text, session_id=wire.session_id, timestamp_ms=wire.timestamp_ms
        )
    if wire.subtype == "completed":
        return ThinkingCompleted(session_id=wire.session_id, timestamp_ms=wire.timestamp_ms)
    return _unknown_subtype(wire, line)


def _system(wire: _SystemWire, line: bytes) -> Event:
    if wire.subtype == "init":
        try:
            return _decoders().init.decode(line)
        except msgspec.DecodeError as exc:
            return LineDecoder._decode_unknown(line, str(exc)) or _unknown_subtype(wire, line)
    raw = _decoders().any.decode(line)
    return SystemEvent(
        subtype=wire.subtype, raw=raw, session_id=wire.session_id, timestamp_ms=wire.timestamp_ms
    )


def _unknown_subtype(wire: _SystemWire | _ThinkingWire | _ToolCallWire, line: bytes) -> Event:
    raw = _decoders().any.decode(line)
    return UnknownEvent(type=str(raw.get("type", "")), subtype=wire.subtype, raw=raw)
