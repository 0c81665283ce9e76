"""LineDecoder: one stdout line in, one typed event out (docs/protocol.md §3).

Tool-call payloads are in test_tool_payload_*.py, text repair in test_text_repair.py,
blocks of lines in test_decode_block.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import fake_agent
from agent_sdk._wire.decode import LineDecoder
from agent_sdk.events import (
    AssistantEvent,
    ConnectionEvent,
    Event,
    PartialAssistantEvent,
    ResultEvent,
    RetryEvent,
    SystemEvent,
    SystemInit,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
    Usage,
    UserEvent,
    to_json,
)
from agent_sdk.tools import ReadArgs, ReadSuccess, Rejection

EXAMPLES = Path(__file__).parents[1] / "data" / "cli_protocol_examples.ndjson"

SESSION = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"


def decode(line: bytes | str, *, partial: bool = False) -> Event | None:
    if isinstance(line, str):
        line = line.encode()
    return LineDecoder(partial=partial).decode(line)


def example_lines() -> list[bytes]:
    return EXAMPLES.read_bytes().splitlines()


# --- every example of the protocol doc ----------------------------------------------
# line index in cli_protocol_examples.ndjson -> (class, type, subtype, key fields)
EXPECTED_EXAMPLES: dict[int, tuple[type, str, str | None, dict[str, Any]]] = {
    0: (
        ResultEvent,
        "result",
        "success",
        {
            "is_error": False,
            "result": "Done. I added the test.",
            "duration_ms": 4210,
            "session_id": SESSION,
            "request_id": "9e1f0c3a-7d2b-4c65-8a0e-2b5d6f7a8c91",
            "usage": Usage(
                input_tokens=18211, output_tokens=96, cache_read_tokens=5120, cache_write_tokens=0
            ),
        },
    ),
    1: (
        SystemInit,
        "system",
        "init",
        {
            "api_key_source": "env",
            "cwd": "/home/dev/shop",
            "session_id": SESSION,
            "model": "Claude 4.5 Sonnet",
            "permission_mode": "default",
        },
    ),
    2: (UserEvent, "user", None, {"text": "Add a test for cart totals", "session_id": SESSION}),
    3: (
        AssistantEvent,
        "assistant",
        None,
        {
            "text": "I'll read the cart module first.",
            "new_text": "I'll read the cart module first.",
            "is_flush": False,
            "model_call_id": "9e1f0c3a-...-0-kq3z",
            "timestamp_ms": 1785515118001,
        },
    ),
    4: (
        ToolCallStarted,
        "tool_call",
        "started",
        {
            "call_id": "call_7Qx2\nfc_01ab",
            "kind": "readToolCall",
            "args": ReadArgs(path="src/cart.py"),
            "tool_call_id": "call_7Qx2\nfc_01ab",
            "started_at_ms": 1785515118821,
            "model_call_id": "9e1f0c3a-...-0-kq3z",
            "timestamp_ms": 1785515118818,
        },
    ),
    5: (
        ToolCallCompleted,
        "tool_call",
        "completed",
        {
            "call_id": "call_7Qx2\nfc_01ab",
            "kind": "readToolCall",
            "outcome": "success",
            "result": ReadSuccess(
                content="def total(items):\n    ...",
                total_lines=54,
                total_chars=1254,
            ),
            "completed_at_ms": 1785515118990,
        },
    ),
    6: (
        ToolCallCompleted,
        "tool_call",
        "completed",
        {
            "call_id": "call_9",
            "kind": "shellToolCall",
            "outcome": "rejected",
            "result": Rejection(
                command="pytest -q",
                working_directory="/home/dev/shop",
                reason="",
                is_readonly=False,
            ),
        },
    ),
    7: (
        ThinkingDelta,
        "thinking",
        "delta",
        {"text": "**Planning the change", "timestamp_ms": 1785515117001},
    ),
    8: (ThinkingCompleted, "thinking", "completed", {"timestamp_ms": 1785515117950}),
    9: (
        ConnectionEvent,
        "connection",
        "reconnecting",
        {"attempt": 1, "endpoint_url": "https://api.example.invalid"},
    ),
    10: (RetryEvent, "retry", "starting", {"attempt": 1, "is_resume": True}),
    11: (ConnectionEvent, "connection", "reconnected", {"attempt": None}),
    12: (
        ResultEvent,
        "result",
        "success",
        {
            "duration_ms": 18788,
            "result": "I'll read the cart module first.The test is added and passes.",
            "usage": Usage(
                input_tokens=115, output_tokens=18, cache_read_tokens=19776, cache_write_tokens=0
            ),
        },
    ),
}


def test_the_example_table_covers_every_line_of_the_data_file() -> None:
    assert sorted(EXPECTED_EXAMPLES) == list(range(len(example_lines())))


@pytest.mark.parametrize("index", sorted(EXPECTED_EXAMPLES))
def test_each_protocol_example_decodes_to_its_class_and_fields(index: int) -> None:
    cls, type_, subtype, fields = EXPECTED_EXAMPLES[index]
    event = decode(example_lines()[index])
    assert type(event) is cls
    assert (event.type, event.subtype) == (type_, subtype)
    assert {name: getattr(event, name) for name in fields} == fields


# --- tolerance: unknown things pass through -----------------------------------------
def test_unknown_fields_are_ignored() -> None:
    event = decode(
        '{"type":"result","subtype":"success","is_error":false,"result":"ok",'
        '"brand_new":{"nested":[1,2]},"session_id":"s1"}'
    )
    assert isinstance(event, ResultEvent)
    assert (event.result, event.session_id) == ("ok", "s1")


def test_an_unknown_event_type_becomes_unknown_event_keeping_the_raw_object() -> None:
    line = '{"type":"interaction_query","subtype":"request","query_id":"iq_1","session_id":"s1"}'
    event = decode(line)
    assert isinstance(event, UnknownEvent)
    assert (event.type, event.subtype, event.raw) == (
        "interaction_query",
        "request",
        json.loads(line),
    )


def test_an_unknown_event_type_is_not_an_error() -> None:
    event = decode('{"type":"telemetry","subtype":"heartbeat","seq":7}')
    assert isinstance(event, UnknownEvent)
    assert event.error is None


def test_an_unknown_event_keeps_its_session_id() -> None:
    event = decode('{"type":"telemetry","session_id":"s1"}')
    assert isinstance(event, UnknownEvent)
    assert event.session_id == "s1"


def test_an_object_without_a_type_becomes_unknown_event() -> None:
    event = decode('{"hello":"world"}')
    assert isinstance(event, UnknownEvent)
    assert (event.type, event.raw) == ("", {"hello": "world"})


def test_an_unknown_system_subtype_becomes_system_event_with_raw() -> None:
    line = '{"type":"system","subtype":"task_notification","task":{"id":"t1"},"session_id":"s1"}'
    event = decode(line)
    assert isinstance(event, SystemEvent)
    assert (event.subtype, event.raw, event.session_id) == (
        "task_notification",
        json.loads(line),
        "s1",
    )


@pytest.mark.parametrize("type_", ["thinking", "tool_call"])
def test_an_unknown_subtype_of_thinking_or_tool_call_becomes_unknown_event(type_: str) -> None:
    line = json.dumps({"type": type_, "subtype": "paused", "session_id": "s1"})
    event = decode(line)
    assert isinstance(event, UnknownEvent)
    assert (event.type, event.subtype, event.raw) == (type_, "paused", json.loads(line))


@pytest.mark.parametrize(
    "line",
    [
        '{"type":"result","subtype":"success","duration_ms":"slow","result":"x"}',
        '{"type":"assistant","message":{"content":"not a list"}}',
        '{"type":"system","subtype":"init","cwd":42}',
        '{"type":"thinking","subtype":"delta","text":7}',
        '{"type":"tool_call","subtype":"started","call_id":7,"tool_call":{}}',
        '{"type":"connection","subtype":"reconnecting","attempt":"one"}',
    ],
)
def test_a_known_type_with_a_wrong_typed_field_becomes_unknown_event_with_error(line: str) -> None:
    event = decode(line)
    assert isinstance(event, UnknownEvent)
    assert event.raw == json.loads(line)
    assert event.error


# --- lines that are not events ------------------------------------------------------
@pytest.mark.parametrize(
    "line",
    [
        b"Cursor Agent 2026.10.01 (headless)",
        b"T: 1785515150000 waiting for model response",
        b"\xe2\x9a\xa0 Warning: The provided API key is invalid.",
        b"\xff\xfe garbage",
    ],
)
def test_a_non_json_line_decodes_to_none(line: bytes) -> None:
    assert decode(line) is None


@pytest.mark.parametrize("line", [b"42", b'"x"', b"[1]", b"null", b"true", b'[{"type":"result"}]'])
def test_valid_json_that_is_not_an_object_decodes_to_none(line: bytes) -> None:
    assert decode(line) is None


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"result","subtype":"success","result":"Done',
        b'{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"readToolCall":',
        b'{"type":"result","result":"cut \\ud83d',
    ],
)
def test_truncated_json_decodes_to_none(line: bytes) -> None:
    assert decode(line) is None


def test_a_trailing_carriage_return_is_json_whitespace() -> None:
    event = decode(b'{"type":"result","result":"ok"}\r')
    assert isinstance(event, ResultEvent)
    assert event.result == "ok"


# --- assistant text (§3.3) ----------------------------------------------------------
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


# --- the fake agent's scenarios -----------------------------------------------------
def scenario_events() -> list[tuple[str, int, bytes]]:
    cases = []
    for name in sorted(fake_agent.scenario_names()):
        path = fake_agent.scenario_path(name)
        for number, line in enumerate(path.read_bytes().splitlines(), start=1):
            if line.strip() and "fake" not in json.loads(line):
                cases.append((name, number, line))
    return cases


SCENARIO_EVENTS = scenario_events()


def test_the_scenarios_have_events() -> None:
    assert len(SCENARIO_EVENTS) > 50


@pytest.mark.parametrize(
    ("scenario", "number", "line"),
    SCENARIO_EVENTS,
    ids=[f"{name}:{number}" for name, number, _ in SCENARIO_EVENTS],
)
def test_every_scenario_event_decodes(scenario: str, number: int, line: bytes) -> None:
    event = decode(line)
    assert event is not None
    if scenario != "unknown_events":
        assert not isinstance(event, UnknownEvent), event
