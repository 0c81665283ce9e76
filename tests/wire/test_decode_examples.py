"""LineDecoder: one stdout line in, one typed event out (docs/protocol.md §3): every
example of the protocol doc decodes to its class and fields, every event line of the
fake agent's scenarios decodes.

Unknown events are in test_decode_unknown_events.py, lines that are not events in
test_decode_not_events.py, assistant text in test_decode_assistant_text.py, tool-call
payloads in test_tool_payload_*.py, text repair in test_text_repair.py, blocks of
lines in test_decode_block.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from decoded_lines import decode

import fake_agent
from agent_sdk.events import (
    AssistantEvent,
    ConnectionEvent,
    ResultEvent,
    RetryEvent,
    SystemInit,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
    Usage,
    UserEvent,
)
from agent_sdk.tools import ReadArgs, ReadSuccess, Rejection

EXAMPLES = Path(__file__).parents[1] / "data" / "cli_protocol_examples.ndjson"

SESSION = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"


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
