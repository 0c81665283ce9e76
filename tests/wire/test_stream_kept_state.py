"""Stream: what it keeps of a run for the outcome (docs/protocol.md §3): the session id
the events carry, the result event, and every event when asked."""

from __future__ import annotations

from stream_lines import (
    feed_all,
    init,
    result,
    say,
    tool,
    user,
    wire,
)

from agent_sdk._wire.stream import Stream


# --- session id ---------------------------------------------------------------------
def test_there_is_no_session_id_before_an_event_carries_one() -> None:
    stream = Stream()
    stream.feed(user() + b"banner\n")
    assert stream.session_id is None


def test_the_session_id_is_the_one_the_events_carry() -> None:
    stream = Stream()
    stream.feed(init("chat-1"))
    assert stream.session_id == "chat-1"


def test_an_event_without_a_session_id_keeps_the_one_seen_before() -> None:
    stream = Stream()
    stream.feed(init("chat-1"))
    stream.feed(user())
    assert stream.session_id == "chat-1"


def test_the_session_id_is_the_latest_one_seen() -> None:
    stream = Stream()
    stream.feed(init("chat-1") + say("x", session_id="chat-2") + user())
    assert stream.session_id == "chat-2"


def test_an_unknown_event_can_carry_the_session_id() -> None:
    stream = Stream()
    stream.feed(wire(type="telemetry", session_id="chat-9"))
    assert stream.session_id == "chat-9"


# --- result event -------------------------------------------------------------------
def test_there_is_no_result_event_before_one_is_seen() -> None:
    stream = Stream()
    stream.feed(init() + say("working"))
    assert stream.result_event is None


def test_the_result_event_is_kept_once_seen() -> None:
    stream = Stream()
    events = feed_all(stream, init(), say("Hi"), result("Hi", duration_ms=12))
    assert stream.result_event is events[-1]
    assert (stream.result_event.result, stream.result_event.duration_ms) == ("Hi", 12)


def test_the_result_event_is_kept_when_events_are_not() -> None:
    stream = Stream(keep_events=False)
    feed_all(stream, result("Hi"))
    assert stream.result_event is not None
    assert (stream.events, stream.result_event.result) == ([], "Hi")


def test_a_result_on_a_last_line_without_newline_is_kept() -> None:
    stream = Stream()
    feed_all(stream, init(), result("Hi").rstrip(b"\n"))
    assert stream.result_event is not None


# --- keeping events -----------------------------------------------------------------
def test_events_are_not_kept_by_default() -> None:
    stream = Stream()
    feed_all(stream, init(), say("hi"), result())
    assert stream.events == []


def test_kept_events_are_every_event_in_order() -> None:
    stream = Stream(keep_events=True)
    events = feed_all(stream, init(), b"banner\n", say("hi"), result())
    assert stream.events == events
    assert len(events) == 3


def test_keep_every_event_keeps_the_events_from_then_on() -> None:
    stream = Stream()
    stream.keep_every_event()
    events = feed_all(stream, init(), say("hi"))
    assert (stream.keep_events, stream.events) == (True, events)


def test_keep_every_event_keeps_every_tool_call() -> None:
    stream = Stream()
    stream.keep_every_event()
    feed_all(stream, tool("started", "c1"), tool("completed", "c1"))
    assert [call.call_id for call in stream.tool_calls.calls] == ["c1"]
