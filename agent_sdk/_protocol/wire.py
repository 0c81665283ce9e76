"""The shapes of the CLI's stream-json lines, as msgspec decodes them (docs/protocol.md §3).

Performance note (benchmarks/, docs/benchmarks.md): a run decodes up to a million events
a second, so an event whose public class holds exactly its wire fields is decoded straight
into that class, with no copy. Nothing the SDK computes is a field of such a class: what
it works out from the wire (``AssistantEvent.is_flush``, ``new_text``) is a property. The
one event that needs converting, ``tool_call`` (its ``subtype`` picks the public class and
its payload is parsed on first access), decodes into the private :class:`ToolCallWire`.
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from .._event_base import _Event
from ..events import (
    AssistantEvent,
    ConnectionEvent,
    PartialAssistantEvent,
    ResultEvent,
    RetryEvent,
    SystemInit,
    ThinkingDelta,
    UserEvent,
)

__all__ = ["KNOWN_TYPES", "InteractionWire", "PartialWireEvent", "ToolCallWire", "WireEvent"]

KNOWN_TYPES = frozenset(
    {
        "system",
        "user",
        "assistant",
        "thinking",
        "tool_call",
        "connection",
        "retry",
        "interaction_query",
        "result",
    }
)


class ToolCallWire(_Event, tag="tool_call", frozen=True):
    """A ``tool_call`` line: msgspec tags on one field, so ``subtype`` is free here and the
    public ``ToolCallStarted`` / ``ToolCallCompleted`` is built from it.

    The fields of the public events, but not their class: those have a ``__dict__`` and
    are tracked by the garbage collector (for their lazily parsed payload), which this
    short-lived object need not be (175 instructions per event on the realistic stream,
    docs/benchmarks.md, issue 24)."""

    call_id: str = ""
    tool_call: msgspec.Raw = msgspec.Raw(b"{}")
    model_call_id: str | None = None
    subtype: str = ""


class InteractionWire(_Event, tag="interaction_query", frozen=True):
    """An ``interaction_query`` line (docs/protocol.md §3.6b): rare, so decoded whole; its
    ``subtype`` and ``query_type`` pick the public class (``_protocol/decode.py``)."""

    subtype: str = ""
    query_type: str = ""
    query: dict[str, Any] | None = None
    response: dict[str, Any] | None = None


# `system` and `thinking` decode into their common subtype's class (`init`, `delta`); the
# rare others take the line-by-line path or are converted by the decoder.
WireEvent = (
    SystemInit
    | UserEvent
    | AssistantEvent
    | ThinkingDelta
    | ToolCallWire
    | ConnectionEvent
    | RetryEvent
    | InteractionWire
    | ResultEvent
)
"""What a line of a run without ``--stream-partial-output`` decodes into."""

PartialWireEvent = (
    SystemInit
    | UserEvent
    | PartialAssistantEvent
    | ThinkingDelta
    | ToolCallWire
    | ConnectionEvent
    | RetryEvent
    | InteractionWire
    | ResultEvent
)
"""The same for a run with ``--stream-partial-output``: its assistant events know which of
them repeat text (the flush rule lives in :class:`PartialAssistantEvent`)."""


def decoder(partial: bool) -> msgspec.json.Decoder[WireEvent | PartialWireEvent]:
    """The decoder of one line or a block of lines, made once per process and kind."""
    return _partial_decoder() if partial else _decoder()


# Built on first use: `import agent_sdk` stays cheap (docs/benchmarks.md).
@functools.cache
def _decoder() -> msgspec.json.Decoder[WireEvent | PartialWireEvent]:
    return msgspec.json.Decoder(WireEvent)


@functools.cache
def _partial_decoder() -> msgspec.json.Decoder[WireEvent | PartialWireEvent]:
    return msgspec.json.Decoder(PartialWireEvent)
