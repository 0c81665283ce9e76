"""Stream: the reply text, the assistant's new text joined as the user reads it, a blank
line where a tool call stood between two messages (docs/protocol.md §3)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from replies import reply_of
from stream_lines import (
    delta,
    end_of_turn,
    feed_all,
    flush_before_tool,
    init,
    result,
    say,
    tool,
    user,
)

from agent_sdk._wire.stream import Stream


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


def test_a_second_tool_call_adds_no_second_break_after_text_ending_in_a_newline() -> None:
    # Found by the property above: the text "\n", then two segments before tool calls.
    # The first adds the newline the text lacked; the second must see the blank line the
    # two make together (they are two parts of the reply), not only its last part.
    def text_of(*lines: bytes) -> str:
        stream = Stream()
        feed_all(stream, *lines)
        return stream.text

    before_a_call = say("", model_call_id="m", timestamp_ms=1)
    assert text_of(say("\n"), before_a_call, before_a_call) == text_of(say("\n"), before_a_call)
    assert text_of(say("a\n"), before_a_call, before_a_call, say("b")) == "a\n\nb"


def test_keeping_events_does_not_change_the_text() -> None:
    output = [init(), say("Hello "), b"junk\n", say("world"), result("Hello world")]
    kept, not_kept = Stream(keep_events=True), Stream(keep_events=False)
    feed_all(kept, *output)
    feed_all(not_kept, *output)
    assert kept.text == not_kept.text == "Hello world"
