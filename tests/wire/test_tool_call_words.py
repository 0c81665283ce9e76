"""What a tool call is, in a person's words (``agent_sdk/_wire/tool_labels.py``): its label, a
command's exit code, and whether it did what was asked (``ok``), on the events and on the
paired ``ToolCall``. A command that exited non-zero is a ``success`` outcome for the CLI
(docs/protocol.md §3.4) but not ``ok``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent_sdk import ToolCall
from agent_sdk._wire.decode import LineDecoder
from agent_sdk.events import ToolCallCompleted, ToolCallStarted


def event(subtype: str, kind: str, body: dict[str, Any]) -> ToolCallStarted | ToolCallCompleted:
    line = {"type": "tool_call", "subtype": subtype, "call_id": "c1", "tool_call": {kind: body}}
    decoded = LineDecoder(partial=False).decode(json.dumps(line).encode())
    assert isinstance(decoded, (ToolCallStarted, ToolCallCompleted))
    return decoded


def shell(result: dict[str, Any] | None, command: str = "pytest -q") -> ToolCall:
    args = {"command": command}
    started = event("started", "shellToolCall", {"args": args})
    if result is None:
        return ToolCall("c1", started, None)
    completed = event("completed", "shellToolCall", {"args": args, "result": result})
    assert isinstance(started, ToolCallStarted)
    assert isinstance(completed, ToolCallCompleted)
    return ToolCall("c1", started, completed)


def test_a_command_that_exited_1_succeeded_for_the_cli_but_is_not_ok() -> None:
    call = shell({"success": {"command": "pytest -q", "exitCode": 1, "stdout": "1 failed"}})
    assert (call.outcome, call.status) == ("success", "succeeded")
    assert (call.exit_code, call.ok) == (1, False)


def test_a_command_that_exited_0_is_ok() -> None:
    call = shell({"success": {"command": "pytest -q", "exitCode": 0}})
    assert (call.exit_code, call.ok) == (0, True)


def test_a_command_ended_by_a_signal_is_not_ok() -> None:
    call = shell({"success": {"command": "sleep 9", "exitCode": 0, "signal": "SIGKILL"}})
    assert call.ok is False


def test_a_blocked_command_is_not_ok_and_has_no_exit_code() -> None:
    call = shell({"rejected": {"command": "rm -rf /", "reason": "Blocked by a hook."}})
    assert (call.status, call.exit_code, call.ok) == ("blocked", None, False)


def test_a_running_call_is_not_ok_yet() -> None:
    call = shell(None)
    assert (call.exit_code, call.ok, call.label) == (None, False, "$ pytest -q")


def test_a_call_that_is_no_command_has_no_exit_code() -> None:
    started = event("started", "readToolCall", {"args": {"path": "src/cart.py"}})
    result = {"success": {"content": "x = 1\n", "totalLines": 1}}
    body = {"args": {"path": "src/cart.py"}, "result": result}
    completed = event("completed", "readToolCall", body)
    assert isinstance(started, ToolCallStarted)
    assert isinstance(completed, ToolCallCompleted)
    call = ToolCall("c1", started, completed)
    assert (call.label, call.exit_code, call.ok) == ("read src/cart.py", None, True)


@pytest.mark.parametrize(
    ("kind", "args", "label"),
    [
        ("shellToolCall", {"command": "pytest -q"}, "$ pytest -q"),
        ("editToolCall", {"path": "src/cart.py"}, "edit src/cart.py"),
        ("grepToolCall", {"pattern": "def total", "path": "src"}, "grep 'def total' in src"),
        ("webSearchToolCall", {"searchTerm": "python decimal"}, "web search python decimal"),
        ("fooBarToolCall", {"target": "x"}, "foo bar x"),  # a kind no one has seen
        # A tool of the run's own (its server, agent_sdk): the label of its approval too.
        (
            "mcpToolCall",
            {
                "name": "agent_sdk-lookup_issue",
                "toolName": "lookup_issue",
                "providerIdentifier": "agent_sdk",
                "args": {"number": 26},
            },
            "tool lookup_issue",
        ),
        ("mcpToolCall", {"name": "agent_sdk-lookup_issue", "args": {}}, "tool lookup_issue"),
        (
            "mcpToolCall",
            {"name": "linear-get_issue", "toolName": "get_issue", "providerIdentifier": "linear"},
            "mcp linear get_issue",
        ),
        ("mcpToolCall", {"name": "get_issue"}, "mcp get_issue"),  # no server said
    ],
)
def test_the_label_says_what_the_call_is_about(kind: str, args: dict[str, Any], label: str) -> None:
    assert event("started", kind, {"args": args}).label == label


def test_the_completed_event_says_the_same_as_the_paired_call() -> None:
    call = shell({"success": {"command": "make", "exitCode": 2}}, command="make")
    assert call.completed is not None
    completed = call.completed
    assert (completed.label, completed.exit_code, completed.ok) == ("$ make", 2, False)
    assert (call.label, call.exit_code, call.ok) == ("$ make", 2, False)
