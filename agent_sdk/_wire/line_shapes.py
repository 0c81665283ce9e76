"""The shapes of the CLI's stream-json lines, as msgspec decodes them (docs/protocol.md §3).

Performance note (benchmarks/, docs/benchmarks.md): a run decodes up to a million events
a second, so every event is decoded straight into its public class, with no copy. Nothing
the SDK computes is a field of such a class: what it works out from the wire
(``AssistantEvent.is_flush``, ``new_text``) is a property. msgspec tells the classes of a
union by ``type`` alone, so a ``tool_call`` line, started or completed, decodes into
:class:`~agent_sdk.events.ToolCallCompleted`, whose ``subtype`` is a plain string at run
time; the decoder turns a start into a ``ToolCallStarted`` (``_wire/decode.py``).
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from ..events import (
    AssistantEvent,
    ConnectionEvent,
    PartialAssistantEvent,
    ResultEvent,
    RetryEvent,
    SystemInit,
    ThinkingDelta,
    ToolCallCompleted,
    UserEvent,
)
from .event_base import _Event

__all__ = ["KNOWN_TYPES", "InteractionWire", "PartialWireEvent", "WireEvent"]

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


class InteractionWire(_Event, tag="interaction_query", frozen=True):
    """An ``interaction_query`` line (docs/protocol.md §3.6b): rare, so decoded whole; its
    ``subtype`` and ``query_type`` pick the public class (``_wire/decode.py``)."""

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
    | ToolCallCompleted
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
    | ToolCallCompleted
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
