"""Our gate on MCP calls (docs/extend.md, "The hook file"; docs/protocol.md §6.2, §6.3):
``before_tool`` answers both ``preToolUse`` of ``MCP:<tool>`` and ``beforeMCPExecution``,
which tells the call with the bare name and its input as a JSON string; one call is one
question (the second event gets the first's answer)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent_sdk.extend import Deny, Hooks, ToolUse
from agent_sdk.extend._hooks import answer, hooks_file
from agent_sdk.extend._mcp_answers import McpAnswers

pytestmark = pytest.mark.anyio


def pre_tool(tool: str, arguments: dict[str, Any]) -> bytes:
    event = {"hook_event_name": "preToolUse", "tool_name": f"MCP:{tool}", "tool_input": arguments}
    return json.dumps(event).encode()


def before_mcp(tool: str, arguments: dict[str, Any]) -> bytes:
    event = {
        "hook_event_name": "beforeMCPExecution",
        "tool_name": tool,
        "tool_input": json.dumps(arguments),
        "mcp_server_name": "agent_sdk",
        "command": "/usr/bin/python3",
    }
    return json.dumps(event).encode()


class Gate:
    def __init__(self, decision: Any = "allow") -> None:
        self.asked: list[ToolUse] = []
        self.decision = decision

    def __call__(self, call: ToolUse) -> Any:
        self.asked.append(call)
        return self.decision


def test_a_gate_on_tools_is_a_gate_on_mcp_calls_too() -> None:
    document = json.loads(hooks_file(Hooks(before_tool=Gate()), ["/usr/bin/relay"]))
    assert document["hooks"]["beforeMCPExecution"][0]["failClosed"] is True


async def test_before_mcp_execution_is_told_as_an_mcp_call_of_preToolUse() -> None:
    gate = Gate()
    await answer(Hooks(before_tool=gate), before_mcp("lookup_issue", {"number": 26}), [])
    (call,) = gate.asked
    assert (call.tool_name, call.tool_input) == ("MCP:lookup_issue", {"number": 26})
    assert call.hook_event_name == "beforeMCPExecution"
    assert call.raw["mcp_server_name"] == "agent_sdk"


async def test_one_mcp_call_is_one_question() -> None:
    gate, mcp = Gate(Deny("not that issue")), McpAnswers()
    hooks = Hooks(before_tool=gate)
    first = await answer(hooks, pre_tool("lookup_issue", {"number": 26}), [], mcp)
    second = await answer(hooks, before_mcp("lookup_issue", {"number": 26}), [], mcp)
    assert len(gate.asked) == 1
    assert second == first
    assert json.loads(second.stdout)["permission"] == "deny"


async def test_a_build_that_skips_pretooluse_still_asks_the_gate() -> None:
    gate, mcp = Gate(Deny("no")), McpAnswers()
    reply = await answer(Hooks(before_tool=gate), before_mcp("fail", {"reason": "x"}), [], mcp)
    assert len(gate.asked) == 1
    assert json.loads(reply.stdout)["permission"] == "deny"


async def test_other_arguments_are_another_question() -> None:
    gate, mcp = Gate(), McpAnswers()
    hooks = Hooks(before_tool=gate)
    await answer(hooks, pre_tool("lookup_issue", {"number": 26}), [], mcp)
    await answer(hooks, before_mcp("lookup_issue", {"number": 27}), [], mcp)
    assert [call.tool_input for call in gate.asked] == [{"number": 26}, {"number": 27}]
