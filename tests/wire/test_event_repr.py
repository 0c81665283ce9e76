"""Reprs show a tool call's raw payload as text, never as ``<msgspec.Raw object at 0x…>``."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

import fake_agent
from agent_sdk import AgentError, AgentProcessError, AgentResultError, ErrorContext
from agent_sdk._wire.decode import LineDecoder
from agent_sdk.events import Event, ResultEvent, ToolCallCompleted, ToolCallStarted
from agent_sdk.tool_calls import ToolCallTracker, calls_of

DATA = Path(__file__).resolve().parents[1] / "data"
RAW_OBJECT = "msgspec.Raw object"


def _events(path: Path) -> list[Event]:
    decoder = LineDecoder(partial=False)
    events = [decoder.decode(line) for line in path.read_bytes().splitlines() if line.strip()]
    return [event for event in events if event is not None]


def _tool_events() -> list[ToolCallStarted | ToolCallCompleted]:
    events: list[Event] = []
    for path in (
        DATA / "tool_call_kinds.ndjson",
        DATA / "parallel_tool_calls.ndjson",
        fake_agent.SCENARIOS_DIR / "tools.ndjson",
        fake_agent.SCENARIOS_DIR / "plan.ndjson",
    ):
        events += _events(path)
    calls = [e for e in events if isinstance(e, (ToolCallStarted, ToolCallCompleted))]
    assert len(calls) >= 30
    return calls


def test_msgspec_would_show_a_raw_object() -> None:
    # What the custom repr replaces (if msgspec ever shows Raw readably, drop it).
    assert RAW_OBJECT in repr(msgspec.Raw(b"{}"))


def test_every_tool_call_events_repr_shows_its_payload_as_text() -> None:
    for event in _tool_events():
        shown = repr(event)
        assert RAW_OBJECT not in shown
        assert shown.startswith(f"{type(event).__name__}(call_id={event.call_id!r}, ")
        assert f", tool_call=<raw {len(event.tool_call):,} bytes: {{" in shown
        assert event.kind in shown or len(event.tool_call) > 100
        assert f"session_id={event.session_id!r}" in shown


def test_the_repr_keeps_every_field_as_msgspec_shows_it() -> None:
    event = ToolCallStarted(call_id="c1", tool_call=msgspec.Raw(b'{"lsToolCall":{}}'))
    assert repr(event) == (
        "ToolCallStarted(call_id='c1', tool_call=<raw 17 bytes: {\"lsToolCall\":{}}>, "
        "model_call_id=None, subtype='started', session_id=None, timestamp_ms=None)"
    )


def test_a_huge_payload_shows_its_size_and_its_start_only() -> None:
    payload = json.dumps({"readToolCall": {"args": {"path": "a"}, "result": "x" * 1_000_000}})
    event = ToolCallCompleted(call_id="c", tool_call=msgspec.Raw(payload.encode()))
    shown = repr(event)
    assert len(shown) < 400
    assert f"<raw {len(payload):,} bytes: " + '{"readToolCall": {"args"' in shown
    assert "…>" in shown


def test_control_characters_and_a_cut_character_stay_readable() -> None:
    event = ToolCallStarted(
        call_id="c", tool_call=msgspec.Raw(b'{"a\x1b[31m":"' + "é".encode() * 200)
    )
    shown = repr(event)
    assert "\x1b" not in shown
    assert "\\x1b[31m" in shown
    assert "é" in shown


def test_tool_calls_plans_and_error_contexts_show_no_raw_object() -> None:
    events = _tool_events()
    tracker = ToolCallTracker()
    for event in events:
        tracker.add(event)
    assert RAW_OBJECT not in repr(tracker.calls)
    plan = tracker.plan
    assert plan is not None
    assert plan.call is not None
    assert RAW_OBJECT not in repr(plan)
    context = ErrorContext(session_id="s", events=list(events))
    assert RAW_OBJECT not in repr(context)


@pytest.mark.parametrize("error_type", [AgentError, AgentProcessError])
def test_an_error_holding_tool_call_events_shows_no_raw_object(
    error_type: type[AgentError],
) -> None:
    events = _tool_events()
    error = error_type("it failed", context=ErrorContext(events=list(events)), hint="retry")
    for shown in (repr(error), repr(error.context), repr(error.events), repr(error.tool_calls)):
        assert RAW_OBJECT not in shown
    assert "<raw " in repr(error.context.events)
    result = AgentResultError(
        "error result",
        event=ResultEvent(is_error=True),
        context=ErrorContext(events=[*events, ResultEvent(is_error=True)]),
    )
    assert RAW_OBJECT not in repr(result) + repr(result.context) + repr(calls_of(result.events))
