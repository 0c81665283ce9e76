"""The reply as docs/protocol.md §3.3 says agent_sdk builds it, written out plainly for the
tests to compare with (the SDK builds it a block at a time, in its decoder)."""

from __future__ import annotations

from agent_sdk.events import AssistantEvent, Event


def reply_of(events: list[Event]) -> str:
    """The events' new text, with a blank line after a segment that has a
    ``model_call_id`` (one before a tool call), adding only the newlines the text lacks;
    none at the start, none at the end."""
    reply = ""
    for event in events:
        if isinstance(event, AssistantEvent):
            reply += event.new_text
            if event.model_call_id is not None and reply and not reply.endswith("\n\n"):
                reply += "\n" if reply.endswith("\n") else "\n\n"
    return reply.removesuffix("\n\n")


def glued(events: list[Event]) -> str:
    """The events' new text with nothing between: how the CLI's ``result`` joins it."""
    return "".join(e.new_text for e in events if isinstance(e, AssistantEvent))
