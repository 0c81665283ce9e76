"""Lines that once crashed a run or vanished: each now becomes an event, an UnknownEvent
with its reason, or a kept non-JSON line, and the events before it are still delivered
(docs/protocol.md §3 and §5: tolerate what the CLI prints, never crash on it)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hostile.corpus import BOM, HUGE_DIGITS, deep_array

from agent_sdk._wire.decode import LineDecoder
from agent_sdk._wire.stream import MAX_STDOUT_LINE_CHARS, Stream
from agent_sdk.events import (
    AssistantEvent,
    Event,
    ResultEvent,
    SystemInit,
    TextLine,
    UnknownEvent,
    UserEvent,
)


def wire(**event: Any) -> bytes:
    return json.dumps(event).encode() + b"\n"


INIT = wire(type="system", subtype="init", session_id="s1")
USER = wire(type="user", message={"role": "user", "content": [{"type": "text", "text": "hi"}]})
SAY = wire(
    type="assistant",
    message={"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
    session_id="s1",
)


def result(*, is_error: bool, text: str = "") -> bytes:
    return wire(type="result", subtype="success", is_error=is_error, result=text, session_id="s1")


def feed(stream: Stream, data: bytes) -> list[Event]:
    """All events of ``data`` fed as one read, as a run reads a full pipe."""
    return stream.feed(data) + stream.end()


def kinds(events: list[Event]) -> list[str]:
    return [type(event).__name__ for event in events]


def deep(inner: bytes = deep_array()) -> bytes:
    """An assistant event whose unknown field nests as deep as ``inner``."""
    return SAY[:-2] + b',"x_extra":' + inner + b"}\n"


# --- the type of a line is not a string --------------------------------------------
@pytest.mark.parametrize("kind", [{"a": 1}, [1], 7, None, True], ids=repr)
def test_a_type_that_is_not_a_string_becomes_unknown_event_with_reason(kind: object) -> None:
    stream = Stream(keep_events=True)
    events = feed(stream, INIT + wire(type=kind, session_id="s1") + SAY)
    assert kinds(events) == ["SystemInit", "UnknownEvent", "AssistantEvent"]
    unknown = events[1]
    assert isinstance(unknown, UnknownEvent)
    assert (unknown.type, unknown.raw["type"]) == ("", kind)
    assert unknown.error is not None
    assert "type" in unknown.error


# --- nesting deeper than msgspec decodes -------------------------------------------
def test_deep_nesting_in_a_field_becomes_unknown_event_after_the_earlier_events() -> None:
    stream = Stream(keep_events=True)
    events = feed(stream, INIT + USER + deep() + SAY)
    assert kinds(events) == ["SystemInit", "UserEvent", "UnknownEvent", "AssistantEvent"]
    unknown = events[2]
    assert isinstance(unknown, UnknownEvent)
    assert (unknown.type, unknown.raw) == ("assistant", {})
    assert unknown.error is not None
    assert "nested deeper" in unknown.error


def test_deep_nesting_keeps_the_subtype_read_from_the_start_of_the_line() -> None:
    line = b'{"type":"tool_call","subtype":"started","tool_call":' + deep_array()
    event = LineDecoder(partial=False).decode(line + b"}")
    assert isinstance(event, UnknownEvent)
    assert (event.type, event.subtype) == ("tool_call", "started")


def test_deep_nesting_before_the_type_gives_an_unknown_event_of_no_type() -> None:
    line = b'{"x":' + deep_array() + b',"type":"assistant"}'
    event = LineDecoder(partial=False).decode(line)
    assert isinstance(event, UnknownEvent)
    assert (event.type, event.subtype, event.raw) == ("", None, {})
    assert event.error is not None


def test_deep_nesting_that_is_not_an_object_is_kept_as_a_stdout_line() -> None:
    stream = Stream(keep_events=True)
    events = feed(stream, INIT + deep_array() + b"\n" + SAY)
    assert kinds(events) == ["SystemInit", "AssistantEvent"]
    (line,) = stream.stdout_lines
    assert line == "[" * MAX_STDOUT_LINE_CHARS


def test_deep_nesting_on_a_line_of_its_own_is_no_error_on_the_line_path() -> None:
    event = LineDecoder(partial=False).decode(deep().rstrip(b"\n"))
    assert isinstance(event, UnknownEvent)


def test_the_events_after_a_deep_line_keep_the_reply_text() -> None:
    stream = Stream()
    feed(stream, SAY + deep() + SAY)
    assert stream.text == "Done.Done."


# --- numbers msgspec cannot hold ---------------------------------------------------
@pytest.mark.parametrize(
    ("number", "kept"),
    [(HUGE_DIGITS.encode(), Decimal(HUGE_DIGITS)), (b"1e999", Decimal("1e999"))],
    ids=["5000 digits", "1e999"],
)
def test_an_event_with_a_number_out_of_range_becomes_unknown_event_with_reason(
    number: bytes, kept: Decimal
) -> None:
    line = SAY[:-2] + b',"timestamp_ms":' + number + b"}\n"
    stream = Stream(keep_events=True)
    events = feed(stream, INIT + line + SAY)
    assert kinds(events) == ["SystemInit", "UnknownEvent", "AssistantEvent"]
    unknown = events[1]
    assert isinstance(unknown, UnknownEvent)
    assert unknown.type == "assistant"
    assert unknown.error is not None
    assert "out of range" in unknown.error
    assert unknown.raw["message"]["content"][0]["text"] == "Done."
    assert unknown.raw["timestamp_ms"] == kept
    assert list(stream.stdout_lines) == []


def test_a_number_out_of_range_in_an_unknown_event_type_is_a_reason_too() -> None:
    event = LineDecoder(partial=False).decode(b'{"type":"mystery","n":-1e999,"m":1.5}')
    assert isinstance(event, UnknownEvent)
    assert event.raw == {"type": "mystery", "n": Decimal("-1e999"), "m": 1.5}
    assert event.error is not None


def test_a_number_out_of_range_in_an_unknown_field_does_not_change_the_event() -> None:
    event = LineDecoder(partial=False).decode(SAY[:-2] + b',"x_n":1e999}')
    assert isinstance(event, AssistantEvent)


def test_a_line_with_a_number_out_of_range_that_is_not_json_stays_a_stdout_line() -> None:
    stream = Stream()
    assert feed(stream, b'{"type":"mystery","n":1e999,}\n') == []
    assert list(stream.stdout_lines) == ['{"type":"mystery","n":1e999,}']


# --- byte order marks --------------------------------------------------------------
def test_a_bom_before_the_first_line_is_ignored() -> None:
    stream = Stream(keep_events=True)
    events = feed(stream, BOM + INIT + SAY)
    assert kinds(events) == ["SystemInit", "AssistantEvent"]
    assert stream.session_id == "s1"
    assert list(stream.stdout_lines) == []


def test_a_bom_at_the_start_of_a_later_line_is_ignored() -> None:
    stream = Stream(keep_events=True)
    events = feed(stream, INIT + BOM + USER + SAY)
    assert kinds(events) == ["SystemInit", "UserEvent", "AssistantEvent"]
    assert isinstance(events[1], UserEvent)


def test_a_bom_before_a_line_that_is_not_json_is_not_kept() -> None:
    stream = Stream()
    feed(stream, BOM + b"Loading...\n" + INIT)
    assert list(stream.stdout_lines) == ["Loading..."]


def test_a_bom_before_a_line_of_a_text_run_is_not_text() -> None:
    stream = Stream(output_format="text")
    assert feed(stream, BOM + b"Hello\n") == [TextLine(text="Hello")]


# --- the result that decides the run -----------------------------------------------
def test_a_success_result_after_an_error_result_does_not_make_the_run_succeed() -> None:
    stream = Stream(keep_events=True)
    events = feed(stream, INIT + result(is_error=True, text="boom") + result(is_error=False))
    assert kinds(events) == ["SystemInit", "ResultEvent", "ResultEvent"]
    assert stream.result_event is events[1]
    assert stream.events == events


def test_a_success_result_after_an_error_result_in_a_later_read_does_not_win() -> None:
    stream = Stream()
    stream.feed(result(is_error=True, text="boom"))
    stream.feed(result(is_error=False, text="fine"))
    assert stream.result_event is not None
    assert (stream.result_event.is_error, stream.result_event.result) == (True, "boom")


def test_an_error_result_after_a_success_result_replaces_it() -> None:
    stream = Stream()
    feed(stream, result(is_error=False, text="fine") + result(is_error=True, text="boom"))
    assert stream.result_event is not None
    assert stream.result_event.result == "boom"


def test_an_error_result_whose_fields_do_not_fit_still_fails_the_run() -> None:
    stream = Stream(keep_events=True)
    malformed = wire(type="result", subtype="error", is_error=True, result="boom", duration_ms="x")
    events = feed(stream, result(is_error=False, text="fine") + malformed)
    assert isinstance(events[1], UnknownEvent)
    assert events[1].error is not None
    assert stream.result_event is not None
    assert (stream.result_event.is_error, stream.result_event.result) == (True, "boom")


def test_a_success_result_whose_fields_do_not_fit_is_no_result() -> None:
    stream = Stream(keep_events=True)
    feed(stream, INIT + wire(type="result", subtype="success", is_error=False, duration_ms="x"))
    assert stream.result_event is None


def test_the_first_error_result_stays_the_result() -> None:
    stream = Stream()
    feed(stream, result(is_error=True, text="first") + b"junk\n" + result(is_error=True))
    assert isinstance(stream.result_event, ResultEvent)
    assert stream.result_event.result == "first"


# --- redaction before a line is cut ------------------------------------------------
def test_redact_sees_the_whole_line_before_it_is_cut() -> None:
    secret = "sk-" + "x" * 40
    line = "e" * (MAX_STDOUT_LINE_CHARS - 10) + secret
    seen: list[str] = []
    stream = Stream(redact=lambda text: text.replace(secret, "***"), on_other_line=seen.append)
    feed(stream, line.encode() + b"\n" + INIT)
    assert seen == ["e" * (MAX_STDOUT_LINE_CHARS - 10) + "***"]
    assert list(stream.stdout_lines) == [seen[0]]


def test_redact_is_applied_to_the_kept_lines_of_a_text_run() -> None:
    stream = Stream(output_format="text", redact=lambda text: text.replace("key", "***"))
    events = feed(stream, b"my key\n")
    assert list(stream.stdout_lines) == ["my ***"]
    assert events == [TextLine(text="my key")]  # the reply is what the CLI said


def test_redact_is_not_applied_to_events() -> None:
    stream = Stream(redact=lambda text: "***")
    (event,) = feed(stream, INIT)
    assert isinstance(event, SystemInit)
    assert event.session_id == "s1"
