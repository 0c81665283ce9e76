"""One stdout line in, one typed event out (or ``None`` for a line that is not an event)."""

from __future__ import annotations

import functools
import re
from typing import Any

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
    _ToolCallEvent,
)

_KNOWN_TYPES = frozenset(
    {"system", "user", "assistant", "thinking", "tool_call", "connection", "retry", "result"}
)


# Wire shapes of the types whose subtype picks the public class; msgspec tags on one
# field only, so these decode with a free `subtype` and are converted (cheaply) after.
# `system` and `thinking` need no such shape: their other subtypes are rare (take the
# slow path, or are converted below).
class _ToolCallWire(_ToolCallEvent, tag="tool_call", frozen=True):
    subtype: str = ""


_WireEvent = (
    SystemInit
    | UserEvent
    | AssistantEvent
    | ThinkingDelta
    | _ToolCallWire
    | ConnectionEvent
    | RetryEvent
    | ResultEvent
)


# What a block of lines held: its events; the tool-call and result events among them,
# which the run keeps track of; and its lines that were not events (banners, garbage).
# A plain tuple: a NamedTuple class costs more to create at import than it saves.
Block = tuple[list[Event], list[Event], list[bytes]]


class _NeedsLineError(Exception):
    """An event that can only be built from its own line: an unknown subtype, or a
    field of the wrong shape (rare). Its message, if any, says what did not fit."""


@functools.cache
def _wire_decoder() -> msgspec.json.Decoder[_WireEvent]:
    # Built on first use, once per process: `import agent_sdk` stays cheap (benchmarks/).
    return msgspec.json.Decoder(_WireEvent)


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
        partial: whether the run used ``--stream-partial-output``; it decides which
            assistant events carry new text (cli-protocol.md §3.3).
    """

    __slots__ = ("_wire", "partial")

    def __init__(self, *, partial: bool) -> None:
        self.partial = partial
        self._wire = _wire_decoder()

    def decode_block(self, block: bytes | memoryview) -> Block:
        """The events of a block of complete lines (see :class:`Block`).

        The whole block is decoded in one call when it holds only known events (the
        hot path: benchmarks/); anything else in it (a banner, a new event type, a
        lone surrogate) sends the block through :meth:`decode`, line by line.
        """
        try:
            events: list[Any] = self._wire.decode_lines(block)
        except (msgspec.DecodeError, UnicodeDecodeError):
            return self._decode_lines_one_by_one(block)
        notable: list[Event] = []
        partial = self.partial
        try:
            # One pass in Python over the block's events; everything else about them was
            # done by msgspec. Most are assistant text, final as decoded.
            for i, cls in enumerate(map(type, events)):
                if cls is AssistantEvent:
                    if partial:
                        self._mark_flush(events[i])
                elif cls is ThinkingDelta:
                    if events[i].subtype != "delta":
                        events[i] = _public_thinking(events[i])
                elif cls is _ToolCallWire:
                    events[i] = event = _public_tool_call(events[i])
                    notable.append(event)
                elif cls is ResultEvent:
                    notable.append(events[i])
        except _NeedsLineError:
            return self._decode_lines_one_by_one(block)
        return events, notable, []

    def _decode_lines_one_by_one(self, block: bytes | memoryview) -> Block:
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
            return self._finish(wire)
        except _NeedsLineError as exc:
            return _not_plain(line, str(exc) or None)

    @staticmethod
    def _mark_flush(event: AssistantEvent) -> None:
        # §3.3, with partial output: only deltas (timestamp, no model_call_id) are new
        # text; the flush before a tool call and the end-of-turn flush repeat it.
        if event.timestamp_ms is None or event.model_call_id is not None:
            msgspec.structs.force_setattr(event, "is_flush", True)

    def _finish(self, wire: _WireEvent) -> Event:
        """The public event for a decoded wire event."""
        if isinstance(wire, AssistantEvent):
            if self.partial:
                self._mark_flush(wire)
            return wire
        if isinstance(wire, _ToolCallWire):
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


def _public_tool_call(wire: _ToolCallWire) -> ToolCallStarted | ToolCallCompleted:
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
        error=error if kind in _KNOWN_TYPES else None,
    )
