"""Tool-call events: the keys beside the kind in the payload (docs/protocol.md §3.4):
the tool call id and the start and completion times, and the duration they give."""

from __future__ import annotations

from tool_payload_events import completed, decode

from agent_sdk.events import ToolCallStarted


def test_sibling_keys_are_parsed_into_tool_call_id_and_millisecond_ints() -> None:
    event = completed("call_siblings\nfc_25")
    assert (event.kind, event.tool_call_id, event.started_at_ms, event.completed_at_ms) == (
        "readToolCall",
        "call_siblings\nfc_25",
        1785515118821,
        1785515118990,
    )


def test_without_sibling_keys_id_and_millis_are_none() -> None:
    event = completed("call_read\nfc_01")
    assert (event.tool_call_id, event.started_at_ms, event.completed_at_ms) == (None, None, None)


def test_a_non_string_tool_call_id_and_a_non_numeric_started_at_are_none() -> None:
    event = decode(
        '{"type":"tool_call","subtype":"started","call_id":"c1",'
        '"tool_call":{"readToolCall":{"args":{"path":"a"}},"toolCallId":5,"startedAtMs":"soon"}}'
    )
    assert isinstance(event, ToolCallStarted)
    assert (event.tool_call_id, event.started_at_ms) == (None, None)


def test_a_tool_call_payload_that_is_not_an_object_is_kept_and_parses_to_nothing() -> None:
    # The payload is decoded on first access only (docs/benchmarks.md), so its shape is
    # not checked while the stream is read: the event arrives, and its views are empty.
    line = '{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":"read"}'
    event = decode(line)
    assert isinstance(event, ToolCallStarted)
    assert bytes(event.tool_call) == b'"read"'
    assert (event.kind, event.args, event.tool_call_id) == ("", None, None)


# --- timing -------------------------------------------------------------------------
def test_a_completed_event_takes_its_duration_from_the_at_ms_pair() -> None:
    # Its timestamp_ms (1785515200024) is from another clock: it plays no part.
    assert completed("call_siblings\nfc_25").duration_ms == 169


def test_a_completed_event_without_the_at_ms_pair_has_no_duration() -> None:
    assert completed("call_read\nfc_01").duration_ms is None
