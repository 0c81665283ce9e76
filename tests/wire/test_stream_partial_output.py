"""Stream with partial output (docs/protocol.md §3.3): deltas are the reply, flushes are
delivered but not added again, and partial=None finds out which from the first one."""

from __future__ import annotations

import pytest
from stream_lines import (
    delta,
    end_of_turn,
    feed_all,
    flush_before_tool,
    init,
    say,
    tool,
    user,
)

from agent_sdk._wire.stream import Stream
from agent_sdk.events import (
    AssistantEvent,
    PartialAssistantEvent,
)


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
