"""Stream framing: one run's stdout in chunks cut anywhere, its events out once each
line is complete, in order (docs/protocol.md §3)."""

from __future__ import annotations

import itertools

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st
from stream_lines import (
    feed_all,
    init,
    result,
    say,
    tool,
    user,
)

from agent_sdk._wire.stream import Stream
from agent_sdk.events import (
    AssistantEvent,
    Event,
    ResultEvent,
    SystemInit,
    UserEvent,
)


def fingerprint(events: list[Event]) -> list[bytes]:
    return [type(e).__name__.encode() + msgspec.json.encode(e) for e in events]


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
