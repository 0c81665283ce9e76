"""The plan of a run, told from the tool calls as they stream (both trackers): a plan
call's kind is read from its first event, and its completion still completes the plan."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent_sdk import tool_calls
from agent_sdk._wire.decode import LineDecoder
from agent_sdk.events import ToolCallCompleted, ToolCallStarted
from agent_sdk.tool_calls import RunningToolCalls, ToolCallTracker

Tracker = type[ToolCallTracker] | type[RunningToolCalls]
TRACKERS = [ToolCallTracker, RunningToolCalls]


def call(subtype: str, call_id: str, kind: str, name: str) -> ToolCallStarted | ToolCallCompleted:
    body: dict[str, Any] = {"args": {"plan": f"# {name}", "name": name, "todos": []}}
    if subtype == "completed":
        body["result"] = {"success": {}, "planUri": f"file:///plans/{name}.md"}
    line = {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": call_id,
        "tool_call": {kind: body, "toolCallId": call_id},
    }
    event = LineDecoder(partial=False).decode(json.dumps(line).encode())
    assert isinstance(event, ToolCallStarted | ToolCallCompleted)
    return event


@pytest.fixture(params=["one by one", "in one block"])
def at_once(request: pytest.FixtureRequest) -> bool:
    """Events recorded with ``add``, or all with one ``add_all`` (as a stream does)."""
    return bool(request.param == "in one block")


def plan_name_and_uri(
    tracker: Tracker, *events: ToolCallStarted | ToolCallCompleted, at_once: bool = False
) -> Any:
    calls = tracker()
    if at_once:
        calls.add_all(events)
    else:
        for event in events:
            calls.add(event)
    plan = calls.plan
    return None if plan is None else (plan.name, plan.uri)


@pytest.mark.parametrize("tracker", TRACKERS)
def test_a_completed_plan_call_gives_the_plan_its_uri(tracker: Tracker, at_once: bool) -> None:
    events = [call(s, "c1", "createPlanToolCall", "A") for s in ("started", "completed")]
    assert plan_name_and_uri(tracker, *events, at_once=at_once) == ("A", "file:///plans/A.md")


@pytest.mark.parametrize("tracker", TRACKERS)
def test_of_two_plan_calls_in_flight_the_last_completed_is_the_plan(
    tracker: Tracker, at_once: bool
) -> None:
    events = [
        call("started", "c1", "createPlanToolCall", "A"),
        call("started", "c2", "createPlanToolCall", "B"),
        call("completed", "c2", "createPlanToolCall", "B"),
        call("completed", "c1", "createPlanToolCall", "A"),
    ]
    assert plan_name_and_uri(tracker, *events, at_once=at_once) == ("A", "file:///plans/A.md")


@pytest.mark.parametrize("tracker", TRACKERS)
def test_a_plan_completed_before_its_start_is_seen_is_the_plan(
    tracker: Tracker, at_once: bool
) -> None:
    event = call("completed", "c1", "createPlanToolCall", "A")
    assert plan_name_and_uri(tracker, event, at_once=at_once) == ("A", "file:///plans/A.md")


@pytest.mark.parametrize("tracker", TRACKERS)
def test_a_call_of_another_kind_leaves_the_plan_alone(tracker: Tracker, at_once: bool) -> None:
    events = [
        call("started", "c1", "createPlanToolCall", "A"),
        call("completed", "c1", "createPlanToolCall", "A"),
        call("started", "c2", "readToolCall", "B"),
        call("completed", "c2", "readToolCall", "B"),
    ]
    assert plan_name_and_uri(tracker, *events, at_once=at_once) == ("A", "file:///plans/A.md")


@pytest.mark.parametrize("tracker", TRACKERS)
def test_a_plan_started_among_other_calls_of_a_block_is_the_plan(
    tracker: Tracker, at_once: bool
) -> None:
    events = [
        call("started", "c1", "readToolCall", "R"),
        call("started", "c2", "createPlanToolCall", "A"),
        call("completed", "c1", "readToolCall", "R"),
        call("started", "c3", "grepToolCall", "G"),
    ]
    assert plan_name_and_uri(tracker, *events, at_once=at_once) == ("A", None)


@pytest.mark.parametrize("tracker", TRACKERS)
def test_a_payload_naming_the_plan_kind_past_its_head_is_no_plan(
    tracker: Tracker, at_once: bool
) -> None:
    # Its head names another kind: the key deep in its arguments does not make a plan.
    events = [call("started", "c1", "readToolCall", "x" * 200 + '"createPlanToolCall"')]
    assert plan_name_and_uri(tracker, *events, at_once=at_once) is None


@pytest.mark.parametrize("tracker", TRACKERS)
def test_a_plan_payload_too_large_to_join_is_still_the_plan(
    tracker: Tracker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tool_calls, "_JOIN_AT_MOST", 10)  # its head searched alone
    events = [call("started", "c1", "createPlanToolCall", "A")]
    assert plan_name_and_uri(tracker, *events, at_once=True) == ("A", None)


def plan_of_blocks(tracker: Tracker, *blocks: list[ToolCallStarted | ToolCallCompleted]) -> Any:
    calls = tracker()
    for events in blocks:
        calls.add_all(events)
    plan = calls.plan
    return None if plan is None else (plan.name, plan.uri)


@pytest.mark.parametrize("tracker", TRACKERS)
def test_a_plan_started_in_one_block_is_completed_in_a_later_one(tracker: Tracker) -> None:
    first = [call("started", "c1", "createPlanToolCall", "A"), call("started", "c2", "r", "R")]
    later = [call("completed", "c2", "r", "R"), call("completed", "c1", "createPlanToolCall", "A")]
    assert plan_of_blocks(tracker, first, later) == ("A", "file:///plans/A.md")


@pytest.mark.parametrize("tracker", TRACKERS)
@pytest.mark.parametrize("order", ["start first", "completion first"])
def test_in_one_block_the_later_of_two_plans_is_the_plan(tracker: Tracker, order: str) -> None:
    # A plan completed without its start being seen, and another one started: the later.
    alone = call("completed", "c2", "createPlanToolCall", "B")
    started = call("started", "c1", "createPlanToolCall", "A")
    block = [started, alone] if order == "start first" else [alone, started]
    expected = ("B", "file:///plans/B.md") if order == "start first" else ("A", None)
    assert plan_of_blocks(tracker, block) == expected
