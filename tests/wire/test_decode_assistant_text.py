"""LineDecoder: assistant lines (docs/protocol.md §3.3), a plain or a partial event by
the output mode, flushes told from deltas by their fields (never by is_flush or
new_text on the wire), and to_json of both."""

from __future__ import annotations

import json
from typing import Any

import pytest
from decoded_lines import decode

from agent_sdk.events import (
    AssistantEvent,
    PartialAssistantEvent,
    to_json,
)


def assistant(
    *, model_call_id: bool, timestamp: bool, text: str = "Hello there.", **extra: Any
) -> bytes:
    event: dict[str, Any] = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
        "session_id": "s1",
        **extra,
    }
    if model_call_id:
        event["model_call_id"] = "m-0-abc"
    if timestamp:
        event["timestamp_ms"] = 1785515118001
    return json.dumps(event).encode()


SHAPES = [
    pytest.param(False, True, id="delta"),
    pytest.param(True, True, id="flush-before-tool-call"),
    pytest.param(False, False, id="end-of-turn"),
    pytest.param(True, False, id="model-call-id-only"),
]


@pytest.mark.parametrize(("model_call_id", "timestamp"), SHAPES)
def test_without_partial_output_an_assistant_line_is_a_plain_assistant_event(
    model_call_id: bool, timestamp: bool
) -> None:
    event = decode(assistant(model_call_id=model_call_id, timestamp=timestamp), partial=False)
    assert type(event) is AssistantEvent


@pytest.mark.parametrize(("model_call_id", "timestamp"), SHAPES)
def test_without_partial_output_every_assistant_event_is_new_text(
    model_call_id: bool, timestamp: bool
) -> None:
    event = decode(assistant(model_call_id=model_call_id, timestamp=timestamp), partial=False)
    assert isinstance(event, AssistantEvent)
    assert (event.is_flush, event.new_text, event.text) == (False, "Hello there.", "Hello there.")


@pytest.mark.parametrize(("model_call_id", "timestamp"), SHAPES)
def test_with_partial_output_an_assistant_line_is_a_partial_assistant_event(
    model_call_id: bool, timestamp: bool
) -> None:
    event = decode(assistant(model_call_id=model_call_id, timestamp=timestamp), partial=True)
    assert type(event) is PartialAssistantEvent


def test_with_partial_output_a_delta_is_new_text() -> None:
    event = decode(assistant(model_call_id=False, timestamp=True), partial=True)
    assert isinstance(event, AssistantEvent)
    assert (event.is_flush, event.new_text) == (False, "Hello there.")


def test_with_partial_output_the_flush_before_a_tool_call_adds_no_text() -> None:
    event = decode(assistant(model_call_id=True, timestamp=True), partial=True)
    assert isinstance(event, AssistantEvent)
    assert (event.is_flush, event.text, event.new_text) == (True, "Hello there.", "")


def test_with_partial_output_the_end_of_turn_flush_adds_no_text() -> None:
    event = decode(assistant(model_call_id=False, timestamp=False), partial=True)
    assert isinstance(event, AssistantEvent)
    assert (event.is_flush, event.text, event.new_text) == (True, "Hello there.", "")


@pytest.mark.parametrize("partial", [False, True])
def test_is_flush_true_on_the_wire_does_not_make_a_delta_a_flush(partial: bool) -> None:
    # is_flush is worked out by agent_sdk, never read from the wire (to_json writes it).
    line = assistant(model_call_id=False, timestamp=True, is_flush=True)
    event = decode(line, partial=partial)
    assert isinstance(event, AssistantEvent)
    assert (event.is_flush, event.new_text) == (False, "Hello there.")


def test_is_flush_true_on_the_wire_does_not_make_an_event_without_partial_output_a_flush() -> None:
    line = assistant(model_call_id=False, timestamp=False, is_flush=True)
    event = decode(line, partial=False)
    assert isinstance(event, AssistantEvent)
    assert (event.is_flush, event.new_text) == (False, "Hello there.")


def test_is_flush_false_on_the_wire_does_not_make_a_flush_new_text() -> None:
    line = assistant(model_call_id=False, timestamp=False, is_flush=False)
    event = decode(line, partial=True)
    assert isinstance(event, AssistantEvent)
    assert (event.is_flush, event.new_text) == (True, "")


def test_new_text_on_the_wire_is_ignored() -> None:
    event = decode(assistant(model_call_id=False, timestamp=True, new_text="forged"), partial=True)
    assert isinstance(event, AssistantEvent)
    assert event.new_text == "Hello there."


def test_is_flush_is_not_a_constructor_argument() -> None:
    with pytest.raises(TypeError):
        AssistantEvent(is_flush=True)  # type: ignore[call-arg]


def test_an_assistant_event_built_in_code_is_never_a_flush() -> None:
    assert AssistantEvent(timestamp_ms=None, model_call_id="m-0").is_flush is False


def test_a_partial_assistant_event_built_in_code_follows_the_flush_rule() -> None:
    assert (
        PartialAssistantEvent(timestamp_ms=1).is_flush,
        PartialAssistantEvent(timestamp_ms=1, model_call_id="m").is_flush,
        PartialAssistantEvent().is_flush,
    ) == (False, True, True)


def test_to_json_of_a_flush_writes_is_flush_true_and_empty_new_text() -> None:
    event = decode(assistant(model_call_id=True, timestamp=True), partial=True)
    assert event is not None
    written = json.loads(to_json(event))
    assert (written["type"], written["is_flush"], written["new_text"]) == ("assistant", True, "")


def test_to_json_of_a_delta_writes_is_flush_false_and_its_new_text() -> None:
    event = decode(assistant(model_call_id=False, timestamp=True), partial=True)
    assert event is not None
    written = json.loads(to_json(event))
    assert (written["is_flush"], written["new_text"]) == (False, "Hello there.")


def test_to_json_of_a_flush_read_back_is_still_a_flush() -> None:
    # What to_json wrote (is_flush, new_text) is not read back: the fields decide.
    flush = decode(assistant(model_call_id=True, timestamp=True), partial=True)
    assert flush is not None
    again = decode(to_json(flush), partial=True)
    assert isinstance(again, AssistantEvent)
    assert (again.is_flush, again.new_text) == (True, "")


def test_assistant_text_joins_text_blocks_with_no_separator() -> None:
    event = decode(
        '{"type":"assistant","message":{"content":[{"type":"text","text":"in bash."},'
        '{"type":"image","text":"ignored"},{"type":"text","text":"Both commands"}]}}'
    )
    assert isinstance(event, AssistantEvent)
    assert event.text == "in bash.Both commands"


def test_a_single_non_text_block_has_no_text() -> None:
    event = decode('{"type":"assistant","message":{"content":[{"type":"image","text":"x"}]}}')
    assert isinstance(event, AssistantEvent)
    assert (event.text, event.new_text) == ("", "")
