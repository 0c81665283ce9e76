"""Stream: the lines of stdout that are not events (a banner, an error): kept in order,
the last ones only, and reported as they come (docs/protocol.md §3)."""

from __future__ import annotations

from stream_lines import (
    feed_all,
    init,
    result,
    say,
)

from agent_sdk._wire.stream import MAX_STDOUT_LINES, Stream


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
