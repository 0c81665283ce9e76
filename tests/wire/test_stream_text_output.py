"""Stream of text output (--output-format text): a line is a TextLine, the reply is the
lines joined, nothing is decoded as JSON."""

from __future__ import annotations

from stream_lines import (
    feed_all,
    init,
    result,
)

from agent_sdk._wire.stream import Stream
from agent_sdk.events import (
    TextLine,
)


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
