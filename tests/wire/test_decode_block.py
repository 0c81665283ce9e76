"""LineDecoder.decode_block: a block of complete lines in one call; its events, the
tool-call events among them, its other tracked events (results, interaction queries), the
lines that were not events, and the reply text the block adds (appended to the list it is
given)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from agent_sdk._wire.decode import LineDecoder
from agent_sdk.events import (
    AssistantEvent,
    Event,
    ResultEvent,
    ThinkingCompleted,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
)


def line(**event: Any) -> bytes:
    return json.dumps(event).encode()


def say(text: str, *, model_call_id: str | None = None, timestamp_ms: int | None = None) -> bytes:
    event: dict[str, Any] = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
        "session_id": "s1",
    }
    if model_call_id is not None:
        event["model_call_id"] = model_call_id
    if timestamp_ms is not None:
        event["timestamp_ms"] = timestamp_ms
    return json.dumps(event).encode()


STARTED = line(
    type="tool_call",
    subtype="started",
    call_id="c1",
    tool_call={"readToolCall": {"args": {"path": "a.py"}}},
)
COMPLETED = line(
    type="tool_call",
    subtype="completed",
    call_id="c1",
    tool_call={"readToolCall": {"args": {"path": "a.py"}, "result": {"success": {}}}},
)
RESULT = line(type="result", subtype="success", result="Hello world", session_id="s1")
INIT = line(type="system", subtype="init", session_id="s1")


def block(*lines: bytes) -> bytes:
    return b"".join(item + b"\n" for item in lines)


def fingerprint(events: list[Event]) -> list[bytes]:
    return [type(e).__name__.encode() + msgspec.json.encode(e) for e in events]


def one_by_one(lines: list[bytes], *, partial: bool = False) -> list[Event]:
    decoder = LineDecoder(partial=partial)
    return [e for e in map(decoder.decode, lines) if e is not None]


PLAIN = [INIT, say("Hello "), STARTED, COMPLETED, say("world"), RESULT]


def test_a_block_decodes_to_the_events_of_its_lines_one_by_one() -> None:
    events, _, _, _ = LineDecoder(partial=False).decode_block(block(*PLAIN), [])
    assert fingerprint(events) == fingerprint(one_by_one(PLAIN))


def test_a_block_that_needs_the_line_by_line_path_decodes_to_the_same_events() -> None:
    lines = [*PLAIN, b"a banner", line(type="thinking", subtype="paused")]
    events, _, _, _ = LineDecoder(partial=False).decode_block(block(*lines), [])
    assert fingerprint(events) == fingerprint(one_by_one(lines))


def test_tool_calls_in_a_block_become_started_and_completed_events() -> None:
    events, _, _, _ = LineDecoder(partial=False).decode_block(block(STARTED, COMPLETED), [])
    assert [type(e) for e in events] == [ToolCallStarted, ToolCallCompleted]


def test_the_tool_calls_of_a_block_are_returned_apart_in_order() -> None:
    events, calls, _, _ = LineDecoder(partial=False).decode_block(block(*PLAIN), [])
    assert calls == [events[2], events[3]]
    assert [type(e) for e in calls] == [ToolCallStarted, ToolCallCompleted]


def test_the_notable_events_of_a_block_are_its_other_tracked_events() -> None:
    events, _, notable, _ = LineDecoder(partial=False).decode_block(block(*PLAIN), [])
    assert notable == [events[5]]
    assert isinstance(notable[0], ResultEvent)


def test_the_line_by_line_path_returns_the_tool_calls_and_notable_events_apart() -> None:
    lines = [*PLAIN, b"a banner"]
    events, calls, notable, _ = LineDecoder(partial=False).decode_block(block(*lines), [])
    assert calls == [events[2], events[3]]
    assert notable == [events[5]]


def test_the_text_a_block_adds_is_appended_in_order() -> None:
    text: list[str] = []
    LineDecoder(partial=False).decode_block(block(*PLAIN), text)
    assert "".join(text) == "Hello world"


def test_the_text_already_in_the_list_is_kept() -> None:
    text = ["Before. "]
    LineDecoder(partial=False).decode_block(block(say("After.")), text)
    assert "".join(text) == "Before. After."


def test_with_partial_output_flushes_add_no_text_but_one_ends_a_message() -> None:
    lines = [
        say("Hel", timestamp_ms=1),
        say("lo", timestamp_ms=2),
        say("Hello", model_call_id="m-0", timestamp_ms=3),  # flush before a tool call
        say("Hello", timestamp_ms=None),  # end-of-turn flush
    ]
    text: list[str] = []
    LineDecoder(partial=True).decode_block(block(*lines), text)
    assert "".join(text) == "Hello\n\n"  # the break the flush before a tool call adds


def test_with_partial_output_flushes_add_no_text_on_the_line_by_line_path() -> None:
    lines = [say("Hel", timestamp_ms=1), b"junk", say("Hel", model_call_id="m", timestamp_ms=2)]
    text: list[str] = []
    LineDecoder(partial=True).decode_block(block(*lines), text)
    assert "".join(text) == "Hel\n\n"


@pytest.mark.parametrize("partial", [False, True])
def test_is_flush_on_the_wire_does_not_keep_text_out_of_the_list(partial: bool) -> None:
    wire = json.loads(say("kept", timestamp_ms=1))
    wire["is_flush"] = True
    text: list[str] = []
    LineDecoder(partial=partial).decode_block(block(json.dumps(wire).encode()), text)
    assert text == ["kept"]


@pytest.mark.parametrize(
    "late",
    [
        line(type="thinking", subtype="paused"),
        line(type="tool_call", subtype="paused", call_id="c9"),
    ],
    ids=["thinking", "tool_call"],
)
def test_text_is_added_once_when_a_block_is_decoded_again_line_by_line(late: bytes) -> None:
    # The text of the events before the line that needs its own pass is taken back
    # before the block is decoded again.
    text: list[str] = []
    events, _, _, _ = LineDecoder(partial=False).decode_block(block(say("once"), late), text)
    assert "".join(text) == "once"
    assert isinstance(events[-1], UnknownEvent)


def test_a_thinking_completed_in_a_block_is_converted() -> None:
    events, _, _, _ = LineDecoder(partial=False).decode_block(
        block(line(type="thinking", subtype="completed", timestamp_ms=5)), []
    )
    assert events == [ThinkingCompleted(timestamp_ms=5)]


def test_lines_that_are_not_events_are_returned_in_order() -> None:
    lines = [b"Cursor Agent (banner)", say("hi"), b"42", b"T: waiting"]
    events, _, _, junk = LineDecoder(partial=False).decode_block(block(*lines), [])
    assert junk == [b"Cursor Agent (banner)", b"42", b"T: waiting"]
    assert [type(e) for e in events] == [AssistantEvent]


def test_blank_and_whitespace_lines_are_neither_events_nor_junk() -> None:
    data = block(say("a"), b"", b"   ", b"\t", say("b"))
    text: list[str] = []
    events, _, _, junk = LineDecoder(partial=False).decode_block(data, text)
    assert (len(events), junk, "".join(text)) == (2, [], "ab")


def test_blank_lines_beside_junk_are_not_junk() -> None:
    _, _, _, junk = LineDecoder(partial=False).decode_block(block(b"junk", b"", b"  "), [])
    assert junk == [b"junk"]


def test_a_block_given_as_a_memoryview_decodes_like_bytes() -> None:
    data = block(*PLAIN)
    events, _, _, _ = LineDecoder(partial=False).decode_block(memoryview(data), [])
    assert fingerprint(events) == fingerprint(one_by_one(PLAIN))
