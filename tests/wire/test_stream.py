"""Stream: one run's stdout, chunks in, events out, and what the outcome needs kept
(docs/protocol.md §3): session id, result event, non-JSON lines, the reply text, tool calls."""

from __future__ import annotations

import itertools
import json
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from replies import reply_of

from agent_sdk._wire.stream import MAX_STDOUT_LINES, Stream
from agent_sdk.events import (
    AssistantEvent,
    Event,
    PartialAssistantEvent,
    ResultEvent,
    SystemInit,
    TextLine,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
    UserEvent,
)
from agent_sdk.tool_calls import RunningToolCalls, ToolCall, ToolCallTracker


# --- wire lines ---------------------------------------------------------------------
def wire(**event: Any) -> bytes:
    return json.dumps(event, ensure_ascii=False).encode() + b"\n"


def init(session_id: str = "s1") -> bytes:
    return wire(type="system", subtype="init", session_id=session_id)


def user(text: str = "hi") -> bytes:
    # The echoed prompt carries no session id (docs/protocol.md §3).
    return wire(type="user", message={"role": "user", "content": [{"type": "text", "text": text}]})


def say(
    text: str,
    *,
    model_call_id: str | None = None,
    timestamp_ms: int | None = None,
    session_id: str = "s1",
    **extra: Any,
) -> bytes:
    event: dict[str, Any] = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
        "session_id": session_id,
        **extra,
    }
    if model_call_id is not None:
        event["model_call_id"] = model_call_id
    if timestamp_ms is not None:
        event["timestamp_ms"] = timestamp_ms
    return json.dumps(event, ensure_ascii=False).encode() + b"\n"


def delta(text: str, at: int = 1) -> bytes:
    """A partial-output delta: a timestamp, no model_call_id (§3.3)."""
    return say(text, timestamp_ms=at)


def flush_before_tool(text: str) -> bytes:
    """A partial-output flush before a tool call: both fields (§3.3)."""
    return say(text, model_call_id="m-0", timestamp_ms=9)


def end_of_turn(text: str) -> bytes:
    """A partial-output end-of-turn flush, or a plain run's last segment: neither field."""
    return say(text)


def tool(subtype: str, call_id: str, path: str = "a.py") -> bytes:
    body: dict[str, Any] = {"args": {"path": path}}
    if subtype == "completed":
        body["result"] = {"success": {"content": path}}
    return wire(
        type="tool_call",
        subtype=subtype,
        call_id=call_id,
        tool_call={"readToolCall": body},
        session_id="s1",
    )


def result(text: str = "Done.", session_id: str = "s1", **fields: Any) -> bytes:
    return wire(type="result", subtype="success", result=text, session_id=session_id, **fields)


def feed_all(stream: Stream, *chunks: bytes) -> list[Event]:
    events: list[Event] = []
    for chunk in chunks:
        events += stream.feed(chunk)
    return events + stream.end()


def fingerprint(events: list[Event]) -> list[bytes]:
    return [type(e).__name__.encode() + msgspec.json.encode(e) for e in events]


# --- framing: chunks in, events out --------------------------------------------------
def test_an_event_split_across_chunks_comes_out_once_its_line_is_complete() -> None:
    line = result("Done.")
    stream = Stream()
    assert [stream.feed(line[:10]), stream.feed(line[10:-1])] == [[], []]
    events = stream.feed(line[-1:])
    assert [type(e) for e in events] == [ResultEvent]


def test_several_events_in_one_chunk_come_out_in_order() -> None:
    events = Stream().feed(init() + user() + say("Hello") + result())
    assert [type(e) for e in events] == [SystemInit, UserEvent, AssistantEvent, ResultEvent]


def test_a_chunk_seam_inside_a_multibyte_character_does_not_change_the_text() -> None:
    line = say("party 🎉 café")
    cut = line.index("🎉".encode()) + 2  # inside the 4-byte emoji
    events = feed_all(Stream(), line[:cut], line[cut:])
    assert isinstance(events[0], AssistantEvent)
    assert events[0].text == "party 🎉 café"


def test_a_chunk_completing_two_lines_begun_earlier_yields_both_in_order() -> None:
    data = say("one") + say("two") + say("three")
    stream = Stream()
    first = stream.feed(data[:5])
    rest = stream.feed(data[5:])
    assert (first, [e.text for e in rest if isinstance(e, AssistantEvent)]) == (
        [],
        ["one", "two", "three"],
    )


def test_end_yields_the_event_of_a_last_line_without_newline() -> None:
    stream = Stream()
    assert stream.feed(result().rstrip(b"\n")) == []
    assert [type(e) for e in stream.end()] == [ResultEvent]


def test_end_yields_nothing_when_the_output_ended_with_a_newline() -> None:
    stream = Stream()
    stream.feed(result())
    assert stream.end() == []


@settings(max_examples=100, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=2000), max_size=20))
def test_any_chunking_yields_the_events_of_the_whole_output(cuts: list[int]) -> None:
    data = init() + user() + say("Hello ") + tool("started", "c1") + b"a banner\n"
    data += tool("completed", "c1") + say("world") + result("Hello world")
    bounds = [0, *sorted(min(c, len(data)) for c in cuts), len(data)]
    chunks = [data[a:b] for a, b in itertools.pairwise(bounds)]
    assert fingerprint(feed_all(Stream(), *chunks)) == fingerprint(feed_all(Stream(), data))


def test_received_counts_events_not_other_lines() -> None:
    stream = Stream()
    feed_all(stream, init() + b"banner\n" + say("hi") + b"\n" + result())
    assert stream.received == 3


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


# --- lines that are not events ------------------------------------------------------
def test_non_json_lines_are_kept_in_order() -> None:
    stream = Stream()
    feed_all(stream, b"Cursor Agent (banner)\n" + init() + b"T: 17 waiting\n" + b"42\n")
    assert list(stream.stdout_lines) == ["Cursor Agent (banner)", "T: 17 waiting", "42"]


def test_non_json_lines_are_reported_to_on_other_line_in_order() -> None:
    seen: list[str] = []
    stream = Stream(on_other_line=seen.append)
    feed_all(stream, b"first\n" + init() + b"second\n", b"thi", b"rd\n", b"last")
    assert seen == ["first", "second", "third", "last"]


def test_events_are_not_reported_to_on_other_line() -> None:
    seen: list[str] = []
    feed_all(Stream(on_other_line=seen.append), init() + say("hi") + result())
    assert seen == []


def test_blank_lines_are_not_other_lines() -> None:
    seen: list[str] = []
    stream = Stream(on_other_line=seen.append)
    feed_all(stream, b"\n   \n" + init() + b"\n")
    assert (seen, list(stream.stdout_lines)) == ([], [])


def test_a_carriage_return_ending_an_other_line_is_dropped() -> None:
    seen: list[str] = []
    stream = Stream(on_other_line=seen.append)
    feed_all(stream, b"Error: boom\r\n")
    assert (seen, list(stream.stdout_lines)) == (["Error: boom"], ["Error: boom"])


def test_invalid_utf8_in_an_other_line_becomes_replacement_characters() -> None:
    stream = Stream()
    feed_all(stream, b"caf\xc3 \xff\n")
    assert list(stream.stdout_lines) == ["caf\ufffd \ufffd"]


def test_only_the_last_other_lines_are_kept() -> None:
    seen: list[str] = []
    stream = Stream(on_other_line=seen.append)
    count = MAX_STDOUT_LINES + 50
    feed_all(stream, b"".join(f"junk {i}\n".encode() for i in range(count)))
    assert list(stream.stdout_lines) == [f"junk {i}" for i in range(50, count)]
    assert len(seen) == count


def test_a_long_other_line_is_cut_where_it_is_kept_but_reported_whole() -> None:
    seen: list[str] = []
    stream = Stream(on_other_line=seen.append)
    line = "x" * 100_000
    feed_all(stream, line.encode() + b"\n")
    assert seen == [line]
    assert 0 < len(stream.stdout_lines[0]) < len(line)
    assert line.startswith(stream.stdout_lines[0])


# --- the reply text -----------------------------------------------------------------
def test_text_is_empty_before_any_assistant_text() -> None:
    stream = Stream()
    stream.feed(init() + user("prompt"))
    assert stream.text == ""


def test_segments_of_one_message_are_joined_with_no_separator() -> None:
    stream = Stream()
    feed_all(stream, init(), say("I'll read "), say("the file."))
    assert stream.text == "I'll read the file."


def test_a_tool_call_between_two_messages_leaves_a_blank_line_between_them() -> None:
    stream = Stream()
    before = say("I'll read the file.", model_call_id="m1", timestamp_ms=1)
    feed_all(stream, before, tool("started", "c1"), tool("completed", "c1"), say("Done."))
    assert stream.text == "I'll read the file.\n\nDone."


def test_the_result_text_stays_as_the_cli_glued_it() -> None:
    stream = Stream()
    before = say("Reading.", model_call_id="m1", timestamp_ms=1)
    feed_all(stream, before, tool("started", "c1"), say("Done."), result("Reading.Done."))
    assert stream.result_event is not None
    assert (stream.text, stream.result_event.result) == ("Reading.\n\nDone.", "Reading.Done.")


def test_a_reply_that_ends_with_a_tool_call_ends_with_its_text() -> None:
    stream = Stream()
    feed_all(stream, say("Reading.", model_call_id="m1", timestamp_ms=1), tool("started", "c1"))
    assert stream.text == "Reading."


def test_tool_calls_with_no_text_between_them_leave_one_blank_line() -> None:
    stream = Stream()
    feed_all(
        stream,
        tool("started", "c0"),  # no text before the first call: no break either
        say("Reading.", model_call_id="m1", timestamp_ms=1),
        tool("started", "c1"),
        say("", model_call_id="m2", timestamp_ms=2),
        tool("started", "c2"),
        say("Done."),
    )
    assert stream.text == "Reading.\n\nDone."


def test_a_message_that_ends_with_a_newline_gets_only_the_one_it_lacks() -> None:
    stream = Stream()
    before = say("The plan:\n", model_call_id="m1", timestamp_ms=1)
    feed_all(stream, before, tool("started", "c1"), say("Done."))
    assert stream.text == "The plan:\n\nDone."


def test_text_grows_as_the_output_streams() -> None:
    stream = Stream()
    stream.feed(say("Hello "))
    first = stream.text
    stream.feed(say("world"))
    assert (first, stream.text) == ("Hello ", "Hello world")


def test_text_does_not_take_the_result_text() -> None:
    stream = Stream()
    feed_all(stream, say("streamed"), result("authoritative"))
    assert stream.text == "streamed"


def test_is_flush_on_the_wire_does_not_keep_text_out_of_the_reply() -> None:
    stream = Stream(partial=False)
    feed_all(stream, say("kept", is_flush=True))
    assert stream.text == "kept"


@pytest.mark.parametrize("keep_events", [False, True])
def test_text_is_the_joined_new_text_of_the_events(keep_events: bool) -> None:
    stream = Stream(keep_events=keep_events)
    events = feed_all(stream, init(), say("a"), b"junk\n", say("b"), say("c"), result())
    assert stream.text == reply_of(events) == "abc"


_piece = st.text(max_size=12)
_plain_line = st.one_of(
    _piece.map(say),
    _piece.map(lambda t: say(t, model_call_id="m", timestamp_ms=1)),
    st.just(b"a banner\n"),
    st.just(init()),
)
_partial_line = st.one_of(
    _piece.map(delta),
    _piece.map(flush_before_tool),
    _piece.map(end_of_turn),
    st.just(b"a banner\n"),
    st.just(tool("started", "c1")),
)


@settings(max_examples=150, deadline=None)
@given(
    partial=st.booleans(),
    keep_events=st.booleans(),
    data=st.data(),
    cuts=st.lists(st.integers(min_value=0, max_value=3000), max_size=20),
)
def test_text_equals_the_joined_new_text_whether_or_not_events_are_kept(
    partial: bool, keep_events: bool, data: st.DataObject, cuts: list[int]
) -> None:
    lines = data.draw(st.lists(_partial_line if partial else _plain_line, max_size=15))
    output = b"".join(lines)
    bounds = [0, *sorted(min(c, len(output)) for c in cuts), len(output)]
    stream = Stream(partial=partial, keep_events=keep_events)
    events = feed_all(stream, *(output[a:b] for a, b in itertools.pairwise(bounds)))
    assert stream.text == reply_of(events)


def test_keeping_events_does_not_change_the_text() -> None:
    output = [init(), say("Hello "), b"junk\n", say("world"), result("Hello world")]
    kept, not_kept = Stream(keep_events=True), Stream(keep_events=False)
    feed_all(kept, *output)
    feed_all(not_kept, *output)
    assert kept.text == not_kept.text == "Hello world"


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


# --- partial output (§3.3) ----------------------------------------------------------
def test_with_partial_output_assistant_events_are_partial_assistant_events() -> None:
    events = feed_all(Stream(partial=True), delta("Hel"))
    assert type(events[0]) is PartialAssistantEvent


def test_with_partial_output_flushes_are_not_added_to_the_text() -> None:
    stream = Stream(partial=True)
    feed_all(
        stream,
        delta("I'll "),
        delta("read it."),
        flush_before_tool("I'll read it."),
        tool("started", "c1"),
        tool("completed", "c1"),
        delta("Done."),
        end_of_turn("Done."),
    )
    assert stream.text == "I'll read it.\n\nDone."


def test_with_partial_output_flushes_are_still_delivered() -> None:
    events = feed_all(Stream(partial=True), delta("Hi"), end_of_turn("Hi"))
    assert [(e.text, e.new_text) for e in events if isinstance(e, AssistantEvent)] == [
        ("Hi", "Hi"),
        ("Hi", ""),
    ]


def test_without_partial_output_an_event_shaped_like_a_flush_is_new_text() -> None:
    stream = Stream(partial=False)
    feed_all(stream, say("Reading.", model_call_id="m", timestamp_ms=1), end_of_turn("Done."))
    # Its text is kept (not skipped as a repeat); as a segment before a tool call (§3.3),
    # it ends its message.
    assert stream.text == "Reading.\n\nDone."


def test_partial_none_finds_partial_output_from_a_first_delta() -> None:
    stream = Stream(partial=None)
    events = feed_all(stream, init(), delta("Hel"), delta("lo"), end_of_turn("Hello"))
    assert stream.text == "Hello"
    assert all(type(e) is PartialAssistantEvent for e in events if isinstance(e, AssistantEvent))


@pytest.mark.parametrize(
    ("first", "reply"),
    [
        pytest.param(
            say("Reading.", model_call_id="m", timestamp_ms=1),
            "Reading.\n\nDone.",  # it ends its message (§3.3)
            id="before-a-tool-call",
        ),
        pytest.param(end_of_turn("Reading. "), "Reading. Done.", id="last-segment"),
    ],
)
def test_partial_none_finds_output_without_partial_from_a_first_non_delta(
    first: bytes, reply: str
) -> None:
    stream = Stream(partial=None)
    events = feed_all(stream, init(), first, end_of_turn("Done."))
    assert stream.text == reply
    assert all(type(e) is AssistantEvent for e in events if isinstance(e, AssistantEvent))


def test_partial_none_waits_for_the_first_assistant_event_across_chunks() -> None:
    stream = Stream(partial=None)
    feed_all(stream, init(), user(), b"banner\n", tool("started", "c1"), delta("A"))
    feed_all(stream, delta("B"), end_of_turn("AB"))
    assert stream.text == "AB"


def test_partial_none_decides_once_on_the_first_assistant_event() -> None:
    # A delta later in a run without partial output is still new text, and so is an
    # end-of-turn segment after a first delta only once: decided by the first event.
    stream = Stream(partial=None)
    feed_all(stream, say("One.", model_call_id="m", timestamp_ms=1), delta("Two. "))
    feed_all(stream, end_of_turn("Three."))
    assert stream.text == "One.\n\nTwo. Three."


def test_partial_none_finds_partial_output_when_the_first_delta_shares_a_block_with_junk() -> None:
    stream = Stream(partial=None)
    feed_all(stream, b"banner\n" + delta("Hi") + end_of_turn("Hi"))
    assert stream.text == "Hi"


# --- text output --------------------------------------------------------------------
def test_text_output_gives_a_text_line_per_line() -> None:
    events = feed_all(Stream(output_format="text"), b"first line\nsecond line\n")
    assert events == [TextLine(text="first line"), TextLine(text="second line")]


def test_text_output_does_not_decode_json_lines() -> None:
    line = result("Hi")
    events = feed_all(Stream(output_format="text"), line)
    assert events == [TextLine(text=line.decode().rstrip("\n"))]


def test_text_output_keeps_blank_lines() -> None:
    events = feed_all(Stream(output_format="text"), b"a\n\nb\n")
    assert [e.text for e in events if isinstance(e, TextLine)] == ["a", "", "b"]


def test_text_output_text_is_the_lines_joined_by_newlines() -> None:
    stream = Stream(output_format="text")
    feed_all(stream, b"The tests", b" pass.\n\nAll", b" done.\n")
    assert stream.text == "The tests pass.\n\nAll done."


def test_text_output_without_a_final_newline_keeps_its_last_line() -> None:
    stream = Stream(output_format="text")
    events = feed_all(stream, b"one\ntwo")
    assert (stream.text, events[-1]) == ("one\ntwo", TextLine(text="two"))


def test_text_output_text_lines_lose_a_carriage_return() -> None:
    events = feed_all(Stream(output_format="text"), b"one\r\ntwo\r\n")
    assert events == [TextLine(text="one"), TextLine(text="two")]


def test_text_output_lines_are_also_kept_as_what_the_cli_said() -> None:
    stream = Stream(output_format="text")
    feed_all(stream, b"Error: no\nsecond\n")
    assert list(stream.stdout_lines) == ["Error: no", "second"]


def test_text_output_counts_each_line() -> None:
    stream = Stream(output_format="text")
    feed_all(stream, b"a\nb\nc")
    assert stream.received == 3


def test_text_output_keeps_its_lines_when_asked() -> None:
    stream = Stream(output_format="text", keep_events=True)
    events = feed_all(stream, b"a\nb\n")
    assert stream.events == events == [TextLine(text="a"), TextLine(text="b")]


def test_text_output_has_no_session_id_or_result_event() -> None:
    stream = Stream(output_format="text")
    feed_all(stream, init("chat-1") + result())
    assert (stream.session_id, stream.result_event) == (None, None)


# --- tool calls ---------------------------------------------------------------------
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
