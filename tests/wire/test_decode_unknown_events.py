"""LineDecoder tolerance (docs/protocol.md §3): unknown fields are ignored; an unknown
type or subtype, or a known type with a wrong-typed field, passes through as an event
that keeps its raw object."""

from __future__ import annotations

import json

import pytest
from decoded_lines import decode

from agent_sdk.events import (
    ResultEvent,
    SystemEvent,
    UnknownEvent,
)


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
