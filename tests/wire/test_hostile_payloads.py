"""Tool-call payloads are read lazily, from properties: whatever a payload holds, reading
``kind``, ``args``, ``outcome``, ``result`` and the timings never raises
(docs/protocol.md §3.4)."""

from __future__ import annotations

from decimal import Decimal

from hostile.corpus import HUGE_DIGITS as HUGE

from agent_sdk._wire.stream import Stream
from agent_sdk.events import ToolCallCompleted


def completed(tool_call: str) -> ToolCallCompleted:
    """The event of a line whose payload is ``tool_call``, with HUGE spelt out."""
    line = '{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":TC}\n'
    (event,) = Stream().feed(line.replace("TC", tool_call.replace("HUGE", HUGE)).encode())
    assert isinstance(event, ToolCallCompleted)
    return event


def test_a_huge_number_in_typed_args_leaves_them_a_plain_dict() -> None:
    event = completed('{"readToolCall":{"args":{"path":"a.py","limit":HUGE}}}')

    assert event.kind == "readToolCall"
    assert event.args == {"path": "a.py", "limit": Decimal(HUGE)}


def test_a_huge_number_in_an_unknown_outcome_is_kept_as_a_decimal() -> None:
    event = completed('{"readToolCall":{"args":{"path":"a.py"},"result":{"odd":HUGE}}}')

    assert event.outcome == "odd"
    assert event.result == {"value": Decimal(HUGE)}


def test_timings_that_are_no_integers_read_as_none() -> None:
    event = completed(
        '{"readToolCall":{"args":{"path":"a.py"}},"startedAtMs":1e999,'
        '"completedAtMs":"soon","toolCallId":HUGE}'
    )

    assert event.kind == "readToolCall"
    assert event.tool_call_id is None
    assert event.started_at_ms is None
    assert event.completed_at_ms is None
