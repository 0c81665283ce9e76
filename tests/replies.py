"""The reply as docs/protocol.md §3.3 says agent_sdk builds it, written out plainly for the
tests to compare with (the SDK builds it a block at a time, in its decoder)."""

from __future__ import annotations

from agent_sdk.events import AssistantEvent, Event


def reply_of(events: list[Event]) -> str:
    """The events' new text, a blank line where a segment with a ``model_call_id`` (one
    before a tool call) ended a message and more text follows."""
    messages = [""]
    for event in events:
        if isinstance(event, AssistantEvent):
            messages[-1] += event.new_text
            if event.model_call_id is not None and messages[-1]:
                messages.append("")
    return "\n\n".join(message for message in messages if message)


def glued(events: list[Event]) -> str:
    """The events' new text with nothing between: how the CLI's ``result`` joins it."""
    return "".join(e.new_text for e in events if isinstance(e, AssistantEvent))
