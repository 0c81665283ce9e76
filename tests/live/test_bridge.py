"""``Bridge`` (agent_sdk/live/_bridge.py) without any I/O: decoded ACP updates in,
agent_sdk events out (docs/acp.md §3.9, §3.10; docs/live.md "Events")."""

from __future__ import annotations

import pytest

from agent_sdk.events import AssistantEvent, ThinkingDelta, ToolCallCompleted, ToolCallStarted
from agent_sdk.live import (
    AcpPlan,
    AcpToolCall,
    AcpToolCallUpdate,
    AgentMessageChunk,
    AgentThoughtChunk,
    AvailableCommandsUpdate,
    ContentBlock,
    CurrentModeUpdate,
    PlanEntry,
    SessionInfoUpdate,
    UnknownUpdate,
)
from agent_sdk.live._bridge import Bridge
from agent_sdk.tool_calls import ToolCallTracker
from agent_sdk.tool_results import Rejection, ShellSuccess, ToolFailure
from agent_sdk.tools import ShellArgs

SESSION = "4c1f9e2a-7b3d-4e8a-9f10-2d6b8c0a5e71"
CALL = "call-8e2d41b0-5c7a-4f3e-a9d2-61b7c3e0f4a8-0\nfc_0b9c6e1d-2a4f-4b8e-8c3d-5e7f9a1b2c4d_0"


def bridge(*rejected: str) -> Bridge:
    return Bridge(SESSION, lambda call_id: call_id in rejected)


def text(kind: type[AgentMessageChunk] | type[AgentThoughtChunk], words: str) -> object:
    return kind(content=ContentBlock(type="text", text=words))


def shell_call(**fields: object) -> AcpToolCall:
    base: dict[str, object] = {
        "tool_call_id": CALL,
        "title": "`pytest -q`",
        "kind": "execute",
        "status": "pending",
        "raw_input": {"command": "pytest -q"},
    }
    return AcpToolCall(**{**base, **fields})  # type: ignore[arg-type]


def done(**fields: object) -> AcpToolCallUpdate:
    return AcpToolCallUpdate(tool_call_id=CALL, status="completed", **fields)  # type: ignore[arg-type]


def test_a_message_chunk_is_an_assistant_event() -> None:
    (event,) = bridge()(text(AgentMessageChunk, "Running"))  # type: ignore[arg-type]
    assert isinstance(event, AssistantEvent)
    assert event.new_text == "Running"
    assert event.session_id == SESSION


def test_a_thought_chunk_is_a_thinking_delta() -> None:
    (event,) = bridge()(text(AgentThoughtChunk, "The user wants"))  # type: ignore[arg-type]
    assert isinstance(event, ThinkingDelta)
    assert (event.text, event.session_id) == ("The user wants", SESSION)


def test_a_message_chunk_that_is_not_text_passes_through() -> None:
    image = AgentMessageChunk(
        content=ContentBlock(type="image", data="AA==", mime_type="image/png")
    )
    assert bridge()(image) == [image]


@pytest.mark.parametrize(
    "update",
    [
        AcpPlan(entries=[PlanEntry(content="Add total()", priority="high", status="pending")]),
        CurrentModeUpdate(current_mode_id="plan"),
        SessionInfoUpdate(title="Run Tests"),
        AvailableCommandsUpdate(),
        UnknownUpdate("usage_update", {"sessionUpdate": "usage_update", "used": 1}),
    ],
)
def test_updates_print_mode_lacks_pass_through_as_they_are(update: object) -> None:
    assert bridge()(update) == [update]  # type: ignore[arg-type]


def test_a_tool_call_starts_once_and_completes_once() -> None:
    b = bridge()
    started = b(shell_call())
    running = AcpToolCallUpdate(tool_call_id=CALL, status="in_progress")
    between = b(running)
    ended = b(done(raw_output={"exitCode": 0, "stdout": "12 passed\n", "stderr": ""}))
    late = AcpToolCallUpdate(tool_call_id=CALL, content=[])
    assert [type(e) for e in started] == [ToolCallStarted]
    assert between == [running]  # a change on the way passes through
    assert [type(e) for e in ended] == [ToolCallCompleted]
    assert b(late) == [late]  # after the end: no second completion
    assert started[0].call_id == CALL  # the newline is kept (§3.10)


def test_an_execute_call_has_the_shape_of_a_shell_tool_call() -> None:
    b = bridge()
    (started,) = b(shell_call())
    (completed,) = b(done(raw_output={"exitCode": 1, "stdout": "", "stderr": "boom"}))
    assert isinstance(started, ToolCallStarted)
    assert isinstance(completed, ToolCallCompleted)
    assert started.kind == "shellToolCall"
    assert started.args == ShellArgs(command="pytest -q")
    assert started.extras["title"] == "`pytest -q`"
    assert completed.status == "succeeded"  # a shell call that ran, as in print mode
    assert isinstance(completed.result, ShellSuccess)
    assert (completed.result.command, completed.result.exit_code) == ("pytest -q", 1)
    assert completed.result.stderr == "boom"


def test_a_call_that_starts_ended_gives_both_events() -> None:
    events = bridge()(shell_call(status="completed", raw_output={"exitCode": 0}))
    assert [type(e) for e in events] == [ToolCallStarted, ToolCallCompleted]


def test_failed_also_ends_a_call() -> None:
    b = bridge()
    b(shell_call())
    (completed,) = b(AcpToolCallUpdate(tool_call_id=CALL, status="failed"))
    assert isinstance(completed, ToolCallCompleted)


def test_updates_merge_and_never_clear() -> None:
    b = bridge()
    b(shell_call())
    b(AcpToolCallUpdate(tool_call_id=CALL, title=None, raw_input=None, status="in_progress"))
    (completed,) = b(done(raw_output={"exitCode": 0, "stdout": "", "stderr": ""}))
    assert isinstance(completed, ToolCallCompleted)
    assert completed.args == ShellArgs(command="pytest -q")  # not cleared by the None
    assert completed.extras["title"] == "`pytest -q`"


def test_a_call_this_client_rejected_is_blocked() -> None:
    b = bridge(CALL)
    b(shell_call())
    (completed,) = b(done())  # ACP says `completed`, with no output (§3.10)
    assert isinstance(completed, ToolCallCompleted)
    assert completed.status == "blocked"
    assert isinstance(completed.result, Rejection)
    assert completed.result.command == "pytest -q"


def test_an_output_that_says_rejected_is_blocked() -> None:
    b = bridge()
    b(shell_call())
    (completed,) = b(done(raw_output={"rejected": True}))
    assert isinstance(completed, ToolCallCompleted)
    assert completed.status == "blocked"


def test_an_output_with_an_error_is_a_failure() -> None:
    b = bridge()
    b(shell_call())
    (completed,) = b(done(raw_output={"error": "MCP error -32601: Method not found"}))
    assert isinstance(completed, ToolCallCompleted)
    assert completed.status == "failed"
    assert isinstance(completed.result, ToolFailure)
    assert "Method not found" in (completed.result.message or "")


def test_a_resent_tool_call_is_one_call() -> None:
    b = bridge()
    tracker = ToolCallTracker()
    generic = shell_call(title="Terminal", raw_input={})
    real = shell_call()
    events = [*b(generic), *b(real), *b(done(raw_output={"exitCode": 0}))]
    for event in events:
        if isinstance(event, ToolCallStarted | ToolCallCompleted):
            tracker.add(event)
    assert len(tracker.calls) == 1
    resent = events[1]  # started again, with the real title and input (§3.10)
    assert isinstance(resent, ToolCallStarted)
    assert resent.extras["title"] == "`pytest -q`"
    assert tracker.calls[0].started is resent
    completed = tracker.calls[0].completed
    assert completed is not None
    assert completed.extras["title"] == "`pytest -q`"  # upserted (§3.10)
    assert isinstance(completed.result, ShellSuccess)
    assert completed.result.command == "pytest -q"


def test_calls_are_kept_apart_by_id() -> None:
    b = bridge("other")
    b(shell_call())
    b(shell_call(tool_call_id="other"))
    (first,) = b(done(raw_output={"exitCode": 0}))
    (second,) = b(AcpToolCallUpdate(tool_call_id="other", status="completed"))
    assert isinstance(first, ToolCallCompleted)
    assert isinstance(second, ToolCallCompleted)
    assert (first.call_id, first.status) == (CALL, "succeeded")
    assert (second.call_id, second.status) == ("other", "blocked")


@pytest.mark.parametrize("kind", ["read", "edit", "search", "other"])
def test_other_kinds_keep_their_acp_name(kind: str) -> None:
    b = bridge()
    (started,) = b(AcpToolCall(tool_call_id="c", title="Read File", kind=kind, status="pending"))
    (completed,) = b(AcpToolCallUpdate(tool_call_id="c", status="completed"))
    assert isinstance(started, ToolCallStarted)
    assert isinstance(completed, ToolCallCompleted)
    assert started.kind == kind
    assert started.extras["title"] == "Read File"
    assert completed.status == "succeeded"
