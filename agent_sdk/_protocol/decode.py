"""Lines in, typed events out: one stdout line, or a block of complete lines at once.

Performance note (docs/benchmarks.md): a block of lines is decoded by one msgspec call
(``decode_lines``) when it holds only known events, which is nearly always; a block holding
anything else (a banner, a new event type, a lone surrogate) is decoded line by line. One
Python pass over each block converts the few events that need it (tool calls).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import msgspec

from ..events import (
    AssistantEvent,
    Event,
    PartialAssistantEvent,
    ResultEvent,
    SystemEvent,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
)
from .wire import KNOWN_TYPES, PartialWireEvent, ToolCallWire, WireEvent, decoder

__all__ = ["Block", "LineDecoder", "repair_line"]

# What a block of lines held: its events; the tool-call and result events among them,
# which the stream keeps track of; and its lines that were not events (banners, garbage).
Block = tuple[list[Event], list[Event], list[bytes]]


class _NeedsLineError(Exception):
    """An event that can only be built from its own line: an unknown subtype, or a
    field of the wrong shape (rare). Its message, if any, says what did not fit."""


@functools.cache
def _any_decoder() -> msgspec.json.Decoder[dict[str, Any]]:
    return msgspec.json.Decoder(dict[str, Any])


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
    """Decodes NDJSON into events.

    Args:
        partial: whether the run used ``--stream-partial-output``; its assistant events
            are then :class:`~agent_sdk.events.PartialAssistantEvent` (docs/protocol.md §3.3).
    """

    __slots__ = ("_wire", "partial")

    def __init__(self, *, partial: bool) -> None:
        self.partial = partial
        self._wire = decoder(partial)

    def decode_block(self, block: bytes | memoryview, text: list[str]) -> Block:
        """The events of a block of complete lines (see :data:`Block`); the reply text
        they add (each assistant event's ``new_text``) is appended to ``text``."""
        try:
            events: list[Any] = self._wire.decode_lines(block)
        except (msgspec.DecodeError, UnicodeDecodeError):
            return self._decode_lines_one_by_one(block, text)
        notable: list[Event] = []
        mark = len(text)
        try:
            # One pass in Python over the block; everything else was done by msgspec.
            # Most events are assistant text, final as decoded.
            for i, cls in enumerate(map(type, events)):
                if cls is AssistantEvent or (
                    cls is PartialAssistantEvent and not events[i].is_flush
                ):
                    # Message.text, inlined for the one text block nearly every message
                    # has: the call alone cost a tenth of a streamed run (benchmarks).
                    content = events[i].message.content
                    if len(content) == 1 and content[0].type == "text":
                        text.append(content[0].text)
                    else:
                        text.append(events[i].message.text)
                elif cls is ToolCallWire:
                    events[i] = event = _public_tool_call(events[i])
                    notable.append(event)
                elif cls is ResultEvent:
                    notable.append(events[i])
                elif cls is ThinkingDelta and events[i].subtype != "delta":
                    events[i] = _public_thinking(events[i])
        except _NeedsLineError:
            del text[mark:]  # the block is decoded again, line by line
            return self._decode_lines_one_by_one(block, text)
        if len(text) - mark > 1:
            # One string per block, not one per delta: the reply costs its own size.
            text[mark:] = ["".join(text[mark:])]
        return events, notable, []

    def _decode_lines_one_by_one(self, block: bytes | memoryview, text: list[str]) -> Block:
        events: list[Event] = []
        junk: list[bytes] = []
        for line in bytes(block).split(b"\n"):
            if line and not line.isspace():
                event = self.decode(line)
                if event is None:
                    junk.append(line)
                else:
                    events.append(event)
        notable: list[Event] = [
            e for e in events if isinstance(e, (ToolCallStarted, ToolCallCompleted, ResultEvent))
        ]
        text.extend(e.new_text for e in events if isinstance(e, AssistantEvent))
        return events, notable, junk

    def decode(self, line: bytes) -> Event | None:
        """The event on one line, or ``None`` if the line is not a JSON object."""
        try:
            wire = self._wire.decode(line)
        except msgspec.ValidationError as exc:
            return _not_plain(line, str(exc))
        except (msgspec.DecodeError, UnicodeDecodeError):
            repaired = repair_line(line)
            if repaired == line:
                return None
            return self.decode(repaired)
        try:
            return _public(wire)
        except _NeedsLineError as exc:
            return _not_plain(line, str(exc) or None)


def _public(wire: WireEvent | PartialWireEvent) -> Event:
    """The public event for a decoded wire event."""
    if isinstance(wire, ToolCallWire):
        return _public_tool_call(wire)
    if isinstance(wire, ThinkingDelta) and wire.subtype != "delta":
        return _public_thinking(wire)
    return wire


def _public_thinking(wire: ThinkingDelta) -> ThinkingCompleted:
    # Thinking decodes straight into ThinkingDelta (most events are deltas); the rare
    # other subtype is converted here.
    if wire.subtype != "completed":
        raise _NeedsLineError
    return ThinkingCompleted(session_id=wire.session_id, timestamp_ms=wire.timestamp_ms)


# A Raw is a view into the block it was decoded from and keeps all of it alive. Small
# ones are copied out (cheap); a big one is most of its block anyway, and copying it
# would cost more than the block it keeps: at most a few times its own size.
_COPY_BELOW = 64 * 1024


_TOOL_CALL_CLASSES: dict[str, type[ToolCallStarted | ToolCallCompleted]] = {
    "started": ToolCallStarted,
    "completed": ToolCallCompleted,
}


def _public_tool_call(wire: ToolCallWire) -> ToolCallStarted | ToolCallCompleted:
    cls = _TOOL_CALL_CLASSES.get(wire.subtype)
    if cls is None:
        raise _NeedsLineError
    # The payload is not looked at here, not even its first byte (that alone cost a
    # fifth of the conversion): it is decoded, and checked, on first access.
    raw = wire.tool_call
    return cls(
        call_id=wire.call_id,
        tool_call=raw.copy() if len(raw) < _COPY_BELOW else raw,
        model_call_id=wire.model_call_id,
        session_id=wire.session_id,
        timestamp_ms=wire.timestamp_ms,
    )


def _not_plain(line: bytes, error: str | None) -> Event | None:
    """A line that is JSON but not a plain known event: another system subtype, an
    unknown type or subtype, or a known type whose fields do not fit (``error``)."""
    try:
        raw = _any_decoder().decode(line)
    except (msgspec.DecodeError, UnicodeDecodeError):
        try:
            raw = _any_decoder().decode(repair_line(line))
        except (msgspec.DecodeError, UnicodeDecodeError):
            return None  # valid JSON, but not an object: not an event
    kind = raw.get("type")
    subtype = raw.get("subtype")
    if kind == "system" and isinstance(subtype, str) and subtype != "init":
        session_id = raw.get("session_id")
        timestamp = raw.get("timestamp_ms")
        return SystemEvent(
            subtype=subtype,
            raw=raw,
            session_id=session_id if isinstance(session_id, str) else None,
            timestamp_ms=timestamp if type(timestamp) is int else None,
        )
    return UnknownEvent(
        type=kind if isinstance(kind, str) else "",
        subtype=subtype if isinstance(subtype, str) else None,
        raw=raw,
        error=error if kind in KNOWN_TYPES else None,
    )
