"""An event split over several lines by raw newlines (docs/protocol.md §3, an unverified
report about ``result`` lines): the decoder joins the pieces back while the joined text
still fails to parse, within limits, counts each repair, and never takes in a line that
is an event of its own (``_wire/rejoin.py``, through ``LineDecoder`` and ``Stream``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent_sdk._wire.decode import LineDecoder
from agent_sdk._wire.rejoin import MAX_BYTES, MAX_LINES
from agent_sdk._wire.stream import Stream
from agent_sdk.events import AssistantEvent, ResultEvent

REPLY = "Done.\n\nI added the test:\n- tests/test_cart.py\nand it passes."


def result(text: str = REPLY, **extra: Any) -> bytes:
    event = {"type": "result", "subtype": "success", "is_error": False, "result": text}
    return json.dumps({**event, "session_id": "s1", **extra}).encode()


def split(line: bytes, newline: bytes = b"\n") -> bytes:
    """The line as the report has it: each ``\\n`` escape of its strings a raw newline."""
    return line.replace(b"\\n", newline)


SAY = json.dumps(
    {"type": "assistant", "message": {"content": [{"type": "text", "text": "Hi."}]}}
).encode()


def test_a_result_split_by_raw_newlines_is_joined_back_and_counted() -> None:
    decoder = LineDecoder(partial=False)
    events, _, notable, junk = decoder.decode_block(split(result()) + b"\n", [])
    assert [type(e) for e in events] == [ResultEvent]
    assert isinstance(events[0], ResultEvent)
    assert events[0].result == REPLY  # the line breaks are the text's again
    assert notable == events
    assert (junk, decoder.rejoined) == ([], 1)


def test_a_crlf_split_keeps_its_carriage_returns() -> None:
    decoder = LineDecoder(partial=False)
    events, *_ = decoder.decode_block(split(result(), b"\r\n") + b"\n", [])
    assert isinstance(events[0], ResultEvent)
    assert events[0].result == REPLY.replace("\n", "\r\n")


def test_the_events_around_it_keep_their_order() -> None:
    decoder = LineDecoder(partial=False)
    block = b"\n".join([SAY, split(result()), SAY]) + b"\n"
    events, *_ = decoder.decode_block(block, [])
    assert [type(e) for e in events] == [AssistantEvent, ResultEvent, AssistantEvent]


def test_lines_that_parse_cost_no_repair() -> None:
    decoder = LineDecoder(partial=False)
    events, _, _, junk = decoder.decode_block(b"\n".join([SAY, result(), SAY]) + b"\n", [])
    assert (len(events), junk, decoder.rejoined) == (3, [], 0)


def test_a_line_that_is_an_event_of_its_own_is_never_taken_in() -> None:
    # A broken line, then a good event: the good event stays itself, the broken line
    # stays a line that is no event.
    broken = b'{"type":"result","result":"cut here'
    decoder = LineDecoder(partial=False)
    events, _, _, junk = decoder.decode_block(b"\n".join([broken, SAY, b"x}"]) + b"\n", [])
    assert [type(e) for e in events] == [AssistantEvent]
    assert junk == [broken, b"x}"]
    assert decoder.rejoined == 0


def test_a_stream_joins_a_split_that_straddles_two_reads() -> None:
    stream = Stream(keep_events=True)
    data = split(result()) + b"\n" + SAY + b"\n"
    cut = data.index(b"I added") + 3  # the pieces before in one read, the rest in the next
    first = stream.feed(data[:cut])
    assert first == []
    assert list(stream.stdout_lines) == []  # held, not yet given up as lines that are no JSON
    rest = stream.feed(data[cut:])
    assert [type(e) for e in rest] == [ResultEvent, AssistantEvent]
    assert stream.result_event is not None
    assert stream.result_event.result == REPLY
    assert (stream.rejoined_events, list(stream.stdout_lines)) == (1, [])


def test_a_start_whose_end_never_comes_is_kept_as_lines_at_the_end() -> None:
    stream = Stream()
    pieces = [b'{"type":"result","result":"first', b"second"]
    assert stream.feed(b"\n".join(pieces) + b"\n") == []
    assert stream.end() == []
    assert list(stream.stdout_lines) == ['{"type":"result","result":"first', "second"]
    assert stream.rejoined_events == 0


def test_the_partial_output_detection_keeps_what_is_held() -> None:
    stream = Stream(partial=None, keep_events=True)
    data = split(result()) + b"\n" + SAY + b"\n"
    cut = data.index(b"I added")
    stream.feed(data[:cut])
    events = stream.feed(data[cut:])
    assert [type(e) for e in events] == [ResultEvent, AssistantEvent]
    assert stream.rejoined_events == 1


def test_more_lines_than_the_limit_are_not_joined() -> None:
    text = "\n".join(f"line {i}" for i in range(MAX_LINES + 1))  # MAX_LINES + 1 pieces
    stream = Stream()
    events = [*stream.feed(split(result(text)) + b"\n"), *stream.end()]
    assert events == []
    assert len(stream.stdout_lines) == MAX_LINES + 1
    assert stream.rejoined_events == 0


def test_an_event_over_the_byte_limit_is_not_joined() -> None:
    stream = Stream()
    events = [*stream.feed(split(result("a\n" + "x" * MAX_BYTES)) + b"\n"), *stream.end()]
    assert events == []
    assert stream.rejoined_events == 0
    assert len(stream.stdout_lines) == 2


def test_just_within_the_limits_it_is_joined() -> None:
    text = "\n".join(["x" * 1000] * MAX_LINES)  # MAX_LINES pieces
    stream = Stream()
    events = stream.feed(split(result(text)) + b"\n")
    assert isinstance(events[0], ResultEvent)
    assert events[0].result == text


@pytest.mark.parametrize("partial", [False, True])
def test_a_run_counts_each_repair(partial: bool) -> None:
    stream = Stream(partial=partial)
    one = split(result("a\nb"))
    stream.feed(b"\n".join([one, SAY, one]) + b"\n")
    assert stream.rejoined_events == 2
