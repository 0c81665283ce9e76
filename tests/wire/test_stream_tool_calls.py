"""Stream: tool calls paired start with completion (docs/protocol.md §3), every call
when events are kept, only the running ones when not, across chunk seams and on the
line-by-line path."""

from __future__ import annotations

import pytest
from stream_lines import (
    feed_all,
    tool,
    wire,
)

from agent_sdk._wire.stream import Stream
from agent_sdk.events import (
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
)
from agent_sdk.tool_calls import RunningToolCalls, ToolCall, ToolCallTracker

PARALLEL = [
    tool("started", "call_1\nfc_a", "cart.py"),
    tool("started", "call_1\nfc_b", "README.md"),
    tool("completed", "call_1\nfc_b", "README.md"),
    tool("completed", "call_1\nfc_a", "cart.py"),
]


def test_keeping_events_keeps_every_tool_call() -> None:
    stream = Stream(keep_events=True)
    feed_all(stream, *PARALLEL)
    assert isinstance(stream.tool_calls, ToolCallTracker)


def test_kept_tool_calls_are_paired_in_start_order() -> None:
    stream = Stream(keep_events=True)
    events = feed_all(stream, *PARALLEL)
    assert stream.tool_calls.calls == [
        ToolCall("call_1\nfc_a", events[0], events[3]),  # type: ignore[arg-type]
        ToolCall("call_1\nfc_b", events[1], events[2]),  # type: ignore[arg-type]
    ]


def test_without_keeping_events_only_running_tool_calls_are_held() -> None:
    stream = Stream(keep_events=False)
    events = feed_all(stream, *PARALLEL[:3])
    assert isinstance(stream.tool_calls, RunningToolCalls)
    assert stream.tool_calls.calls == [ToolCall("call_1\nfc_a", events[0])]  # type: ignore[arg-type]


def test_without_keeping_events_no_tool_call_is_held_once_all_completed() -> None:
    stream = Stream(keep_events=False)
    feed_all(stream, *PARALLEL)
    assert stream.tool_calls.calls == []


def test_without_keeping_events_a_completed_event_is_paired_with_its_start() -> None:
    stream = Stream(keep_events=False)
    events = feed_all(stream, *PARALLEL)
    completed = events[2]
    assert isinstance(completed, ToolCallCompleted)
    call = stream.tool_calls.call_of(completed)
    assert (call.started, call.completed) == (events[1], completed)
    assert call.kind == "readToolCall"


def test_tool_calls_are_paired_across_chunk_seams() -> None:
    stream = Stream(keep_events=True)
    data = b"".join(PARALLEL)
    feed_all(stream, *(data[i : i + 7] for i in range(0, len(data), 7)))
    assert [call.is_finished for call in stream.tool_calls.calls] == [True, True]


def test_a_tool_call_on_the_line_by_line_path_is_paired() -> None:
    # A junk line sends the block down the line-by-line path.
    stream = Stream(keep_events=True)
    feed_all(stream, PARALLEL[0] + b"junk\n" + PARALLEL[3])
    (call,) = stream.tool_calls.calls
    assert isinstance(call.started, ToolCallStarted)
    assert isinstance(call.completed, ToolCallCompleted)


def test_without_keeping_events_a_tool_call_on_the_line_by_line_path_is_paired() -> None:
    # The decoder pairs a streamed run's calls in its pass; the line path pairs them too.
    stream = Stream(keep_events=False)
    events = feed_all(stream, PARALLEL[0] + b"junk\n" + PARALLEL[3])
    started, completed = events
    assert isinstance(completed, ToolCallCompleted)
    assert stream.tool_calls.call_of(completed) == ToolCall("call_1\nfc_a", started, completed)  # type: ignore[arg-type]
    assert stream.tool_calls.calls == []


@pytest.mark.parametrize("keep_events", [True, False], ids=["kept", "streamed"])
def test_a_block_decoded_again_line_by_line_pairs_its_calls_from_the_state_it_found(
    keep_events: bool,
) -> None:
    # The pass over the block met the odd subtype after it had paired the completion
    # with the start of an earlier block: it starts again from the state it found.
    stream = Stream(keep_events=keep_events)
    (started,) = stream.feed(PARALLEL[0])
    odd = wire(type="tool_call", subtype="paused", call_id="c9")
    completed, unknown = stream.feed(PARALLEL[3] + odd)
    assert isinstance(unknown, UnknownEvent)
    assert isinstance(completed, ToolCallCompleted)
    assert stream.tool_calls.call_of(completed) == ToolCall("call_1\nfc_a", started, completed)  # type: ignore[arg-type]
    assert [call.is_finished for call in stream.tool_calls.calls] == ([True] if keep_events else [])


@pytest.mark.parametrize("keep_events", [True, False], ids=["kept", "streamed"])
def test_a_kept_tool_call_does_not_keep_the_read_it_came_from(keep_events: bool) -> None:
    # Its payload is copied out of a block of several lines (docs/benchmarks.md): a view
    # would keep the whole read alive. A bytearray cannot grow while a view of it lives.
    read = bytearray(b"".join(PARALLEL))
    stream = Stream(keep_events=keep_events)
    events = stream.feed(read)  # type: ignore[arg-type]
    assert [type(e) for e in events] == [ToolCallStarted] * 2 + [ToolCallCompleted] * 2
    read.extend(b"more")  # BufferError if an event held a view of it
    assert [e.kind for e in events] == ["readToolCall"] * 4  # type: ignore[union-attr]


def test_a_tool_call_of_an_unknown_subtype_is_not_paired() -> None:
    stream = Stream(keep_events=True)
    events = feed_all(stream, wire(type="tool_call", subtype="paused", call_id="c1"))
    assert isinstance(events[0], UnknownEvent)
    assert stream.tool_calls.calls == []
