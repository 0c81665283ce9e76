"""Which ``mcpToolCall`` of a run was a call of its own tools (docs/extend.md, "Which
calls were ours"), against the in-memory transport: a completion is paired with what the
host recorded by its tool's name and arguments, taken from the started event when the
completion carries none (docs/protocol.md §3.4)."""

from __future__ import annotations

from typing import Any

import pytest
from scripts import SESSION, init, lines, result

from agent_sdk import AgentOptions, run_async
from agent_sdk.extend import CustomToolCall
from agent_sdk.testing import MemoryTransport

pytestmark = pytest.mark.anyio

ARGS = {"number": 26}


class Hosted(MemoryTransport):
    """The in-memory CLI, with what a run's host recorded."""

    def __init__(self, script: list[Any], recorded: list[CustomToolCall]) -> None:
        super().__init__(script)
        self.custom_tool_calls = recorded


def mcp(subtype: str, *, with_args: bool) -> dict[str, Any]:
    call: dict[str, Any] = {}
    if with_args:
        call["args"] = {
            "name": "agent_sdk-lookup_issue",
            "args": ARGS,
            "toolName": "lookup_issue",
            "providerIdentifier": "agent_sdk",
        }
    if subtype == "completed":
        call["result"] = {
            "success": {"content": [{"text": {"text": "Issue 26"}}], "isError": False}
        }
    return {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": "c1",
        "tool_call": {"mcpToolCall": call},
        "session_id": SESSION,
    }


def recorded() -> list[CustomToolCall]:
    return [CustomToolCall("lookup_issue", ARGS, "Issue 26", False)]


@pytest.mark.parametrize("completion_has_args", [True, False])
async def test_a_call_of_ours_is_known_with_or_without_args_in_its_completion(
    completion_has_args: bool,
) -> None:
    script = [
        lines(
            init(),
            mcp("started", with_args=True),
            mcp("completed", with_args=completion_has_args),
            result(),
        )
    ]
    transport = Hosted(script, recorded())
    done = await run_async("go", options=AgentOptions(keep_events=True), transport=transport)
    (call,) = [c for c in done.tool_calls if c.kind == "mcpToolCall"]
    assert call.custom_tool is not None
    assert call.custom_tool.tool == "lookup_issue"


async def test_a_call_with_other_arguments_is_not_ours() -> None:
    other = [CustomToolCall("lookup_issue", {"number": 27}, "Issue 27", False)]
    script = [
        lines(init(), mcp("started", with_args=True), mcp("completed", with_args=False), result())
    ]
    done = await run_async(
        "go", options=AgentOptions(keep_events=True), transport=Hosted(script, other)
    )
    (call,) = [c for c in done.tool_calls if c.kind == "mcpToolCall"]
    assert call.custom_tool is None
