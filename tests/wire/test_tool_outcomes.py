"""What a tool call's outcome means (docs/protocol.md §3.4): every outcome key maps to a
status (succeeded, blocked, failed, other), on the completed event and on the paired
ToolCall; and a plan-mode run's plan reaches the RunResult, whether or not the run kept
its events."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent_sdk import AgentOptions, RunResult, ToolCall, ToolCallStatus
from agent_sdk._run.outcome import failure_or_result
from agent_sdk._wire import tool_payloads
from agent_sdk._wire.decode import LineDecoder
from agent_sdk._wire.stream import Stream
from agent_sdk.events import ToolCallCompleted, ToolCallStarted
from agent_sdk.tool_calls import ToolCallTracker
from agent_sdk.tools import PlanTodo

SESSION = "5e0c9a41-7b2d-4c8e-a1f3-2d6b8e0f4c57"


def wire(**event: Any) -> bytes:
    return json.dumps(event).encode() + b"\n"


def call_line(
    subtype: str,
    call_id: str,
    kind: str,
    body: dict[str, Any],
    **siblings: Any,
) -> bytes:
    return wire(
        type="tool_call",
        subtype=subtype,
        call_id=call_id,
        tool_call={kind: body, **siblings},
        session_id=SESSION,
    )


def completed_with(result: dict[str, Any], kind: str = "shellToolCall") -> ToolCallCompleted:
    line = call_line("completed", "c1", kind, {"args": {"command": "make"}, "result": result})
    event = LineDecoder(partial=False).decode(line.rstrip(b"\n"))
    assert isinstance(event, ToolCallCompleted)
    return event


# --- status -------------------------------------------------------------------------
STATUS_OF_OUTCOME: list[tuple[str, dict[str, Any], ToolCallStatus]] = [
    ("success", {"command": "make", "exitCode": 0}, "succeeded"),
    ("rejected", {"command": "make", "reason": "Blocked by a hook."}, "blocked"),
    ("permissionDenied", {"command": "make", "error": "Command blocked"}, "blocked"),
    ("writePermissionDenied", {"path": "/w/a.txt", "error": "Write denied"}, "blocked"),
    ("error", {"message": "spawn failed"}, "failed"),
    ("failure", {"message": "it broke"}, "failed"),
    ("timeout", {"timeoutMs": 1000}, "failed"),
    ("fileNotFound", {"path": "/w/missing"}, "failed"),
    ("spawnError", {"message": "ENOENT"}, "failed"),
    ("deferredToCloud", {"ticket": "t-1"}, "other"),
]


@pytest.mark.parametrize(
    ("key", "payload", "status"), STATUS_OF_OUTCOME, ids=[k for k, _, _ in STATUS_OF_OUTCOME]
)
def test_each_outcome_key_has_its_status_on_the_completed_event(
    key: str, payload: dict[str, Any], status: ToolCallStatus
) -> None:
    assert completed_with({key: payload}).status == status


@pytest.mark.parametrize(
    ("key", "payload", "status"), STATUS_OF_OUTCOME, ids=[k for k, _, _ in STATUS_OF_OUTCOME]
)
def test_each_outcome_key_has_its_status_on_the_tool_call(
    key: str, payload: dict[str, Any], status: ToolCallStatus
) -> None:
    assert ToolCall("c1", completed=completed_with({key: payload})).status == status


def test_a_non_zero_exit_code_still_succeeded() -> None:
    assert completed_with({"success": {"exitCode": 2}}).status == "succeeded"


def test_a_scalar_sibling_does_not_change_the_status() -> None:
    event = completed_with({"isBackground": False, "rejected": {"reason": "no"}})
    assert (event.outcome, event.status) == ("rejected", "blocked")


def test_an_unknown_outcome_is_other_and_keeps_its_key_and_payload() -> None:
    event = completed_with({"deferredToCloud": {"ticket": "t-1"}})
    assert (event.status, event.outcome, event.result) == (
        "other",
        "deferredToCloud",
        {"ticket": "t-1"},
    )


def test_a_completed_event_without_a_result_is_other_with_no_outcome() -> None:
    line = call_line("completed", "c1", "readToolCall", {"args": {"path": "a"}})
    event = LineDecoder(partial=False).decode(line.rstrip(b"\n"))
    assert isinstance(event, ToolCallCompleted)
    assert (event.status, event.outcome, event.result) == ("other", None, None)


def test_an_empty_result_is_other_with_no_outcome() -> None:
    event = completed_with({})
    assert (event.status, event.outcome, event.result) == ("other", None, None)


def test_a_running_call_has_no_status() -> None:
    line = call_line("started", "c1", "readToolCall", {"args": {"path": "a"}})
    started = LineDecoder(partial=False).decode(line.rstrip(b"\n"))
    assert isinstance(started, ToolCallStarted)
    assert ToolCall("c1", started).status is None


def test_the_outcome_key_is_still_there_beside_the_status() -> None:
    call = ToolCall("c1", completed=completed_with({"permissionDenied": {"error": "no"}}))
    assert (call.outcome, call.status) == ("permissionDenied", "blocked")


# --- duration -----------------------------------------------------------------------
def test_a_tool_call_duration_comes_from_the_at_ms_pair_of_the_completed_event() -> None:
    tracker = ToolCallTracker()
    body = {"args": {"path": "a"}}
    for line in (
        call_line("started", "c1", "readToolCall", body, startedAtMs="5000"),
        call_line(
            "completed",
            "c1",
            "readToolCall",
            {**body, "result": {"success": {}}},
            startedAtMs="5000",
            completedAtMs="5042",
        ),
    ):
        event = LineDecoder(partial=False).decode(line.rstrip(b"\n"))
        assert isinstance(event, ToolCallStarted | ToolCallCompleted)
        tracker.add(event)
    (call,) = tracker.calls
    assert call.duration_ms == 42


# --- the plan of a plan-mode run ----------------------------------------------------
PLAN_ARGS = {
    "plan": "# Split the cart module\n\n1. Move pricing out\n",
    "todos": [
        {
            "id": "move",
            "content": "Move pricing to pricing.py",
            "status": "TODO_STATUS_PENDING",
            "createdAt": "1790000000000",
            "updatedAt": "1790000000000",
            "dependencies": [],
        }
    ],
    "overview": "Pricing gets its own module.",
    "name": "Split the cart",
    "isProject": False,
    "phases": [],
}
PLAN_SIBLINGS = {"toolCallId": "plan-1", "startedAtMs": "1790000000100"}
RESULT = wire(
    type="result",
    subtype="success",
    is_error=False,
    result="I'll write a short plan.",
    session_id=SESSION,
)


def plan_call(
    call_id: str = "plan-1",
    args: dict[str, Any] | None = None,
    result: dict[str, Any] | None = None,
) -> tuple[bytes, bytes]:
    body = {"args": args if args is not None else PLAN_ARGS}
    outcome = result if result is not None else {"success": {}, "planUri": ""}
    return (
        call_line("started", call_id, "createPlanToolCall", body, **PLAN_SIBLINGS),
        call_line(
            "completed",
            call_id,
            "createPlanToolCall",
            {**body, "result": outcome},
            **PLAN_SIBLINGS,
            completedAtMs="1790000000180",
        ),
    )


def run_result(*lines: bytes, keep_events: bool) -> RunResult:
    stream = Stream(keep_events=keep_events)
    for line in lines:
        stream.feed(line)
    stream.end()
    value = failure_or_result(
        stream, exit_code=0, ended_by_us=False, stderr="", options=AgentOptions(mode="plan")
    )
    assert isinstance(value, RunResult), value
    return value


@pytest.mark.parametrize("keep_events", [True, False], ids=["kept", "streamed"])
def test_a_plan_mode_run_has_its_plan_markdown_on_the_result(keep_events: bool) -> None:
    result = run_result(*plan_call(), RESULT, keep_events=keep_events)
    assert result.plan is not None
    assert result.plan.markdown == "# Split the cart module\n\n1. Move pricing out\n"


@pytest.mark.parametrize("keep_events", [True, False], ids=["kept", "streamed"])
def test_a_plan_mode_run_has_its_plan_todos_on_the_result(keep_events: bool) -> None:
    result = run_result(*plan_call(), RESULT, keep_events=keep_events)
    assert result.plan is not None
    assert result.plan.todos == [
        PlanTodo(
            id="move",
            content="Move pricing to pricing.py",
            status="TODO_STATUS_PENDING",
            created_at="1790000000000",
            updated_at="1790000000000",
            dependencies=[],
        )
    ]


def test_the_plan_has_its_name_overview_and_project_flag() -> None:
    plan = run_result(*plan_call(), RESULT, keep_events=False).plan
    assert plan is not None
    assert (plan.name, plan.overview, plan.is_project, plan.phases) == (
        "Split the cart",
        "Pricing gets its own module.",
        False,
        [],
    )


def test_the_result_text_stays_the_narration() -> None:
    result = run_result(*plan_call(), RESULT, keep_events=False)
    assert result.result == "I'll write a short plan."


def test_an_empty_plan_uri_is_none() -> None:
    plan = run_result(*plan_call(), RESULT, keep_events=False).plan
    assert plan is not None
    assert plan.uri is None


def test_a_plan_uri_beside_the_outcome_is_the_plan_uri() -> None:
    uri = "file:///home/dev/.cursor/plans/split.plan.md"
    lines = plan_call(result={"success": {}, "planUri": uri})
    plan = run_result(*lines, RESULT, keep_events=False).plan
    assert plan is not None
    assert plan.uri == uri


def test_the_plan_keeps_its_tool_call() -> None:
    plan = run_result(*plan_call(), RESULT, keep_events=False).plan
    assert plan is not None
    assert plan.call is not None
    assert (plan.call.call_id, plan.call.status, plan.call.duration_ms) == (
        "plan-1",
        "succeeded",
        80,
    )


def test_a_blocked_plan_call_is_still_the_plan_and_says_it_was_blocked() -> None:
    lines = plan_call(result={"rejected": {"reason": "User Rejected"}})
    plan = run_result(*lines, RESULT, keep_events=False).plan
    assert plan is not None
    assert plan.call is not None
    assert (plan.name, plan.call.status) == ("Split the cart", "blocked")


@pytest.mark.parametrize("keep_events", [True, False], ids=["kept", "streamed"])
def test_the_latest_plan_call_is_the_plan(keep_events: bool) -> None:
    second = {**PLAN_ARGS, "name": "Split the cart, revised"}
    lines = (*plan_call("plan-1"), *plan_call("plan-2", args=second), RESULT)
    plan = run_result(*lines, keep_events=keep_events).plan
    assert plan is not None
    assert plan.name == "Split the cart, revised"


@pytest.mark.parametrize("keep_events", [True, False], ids=["kept", "streamed"])
def test_a_plan_call_that_never_completed_is_still_the_plan(keep_events: bool) -> None:
    started, _ = plan_call()
    plan = run_result(started, RESULT, keep_events=keep_events).plan
    assert plan is not None
    assert (plan.name, plan.uri) == ("Split the cart", None)


@pytest.mark.parametrize("keep_events", [True, False], ids=["kept", "streamed"])
def test_a_run_without_a_plan_call_has_no_plan(keep_events: bool) -> None:
    read = call_line("completed", "r1", "readToolCall", {"args": {"path": "a"}})
    assert run_result(read, RESULT, keep_events=keep_events).plan is None


def test_a_plan_call_whose_args_do_not_fit_gives_no_plan() -> None:
    started, completed = plan_call(args={"plan": 5})
    assert run_result(started, completed, RESULT, keep_events=False).plan is None


@pytest.mark.parametrize("keep_events", [True, False], ids=["kept", "streamed"])
def test_a_later_call_whose_payload_names_the_plan_kind_does_not_replace_the_plan(
    keep_events: bool,
) -> None:
    # The plan call is told by its kind: a payload holding the name is not one.
    body = {"args": {"createPlanToolCall": {"args": {}}}, "result": {"success": {}}}
    other = call_line("completed", "t1", "taskToolCall", body)
    plan = run_result(*plan_call(), other, RESULT, keep_events=keep_events).plan
    assert plan is not None
    assert plan.name == "Split the cart"


def test_a_streamed_run_leaves_other_calls_payloads_undecoded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Looking for the plan must not decode every tool call (docs/benchmarks.md). (The
    # parsed payload is kept in a slot since issue 24's third round, not a __dict__:
    # the parser itself is watched.)
    parsed: list[object] = []
    real = tool_payloads.parse_tool_call
    monkeypatch.setattr(
        tool_payloads, "parse_tool_call", lambda raw: parsed.append(raw) or real(raw)
    )
    stream = Stream(keep_events=False)
    events = stream.feed(call_line("started", "r1", "readToolCall", {"args": {"path": "a"}}))
    (event,) = events
    assert parsed == []
    assert isinstance(event, ToolCallStarted)
    assert event.kind == "readToolCall"  # on first access, then
    assert len(parsed) == 1
