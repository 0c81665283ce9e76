"""Our gate on the run's MCP calls end to end on the fake, which fires ``preToolUse``
(``MCP:<tool>``) then ``beforeMCPExecution`` for each (docs/protocol.md §6.3): a deny blocks
the call before our tool runs, and each call asks ``before_tool`` once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from extend_env import CONFIG, UserHome, short_temp_dir

from agent_sdk import AgentOptions, run_async
from agent_sdk.extend import Decision, Deny, Hooks, ToolUse, tool

pytestmark = pytest.mark.anyio

LIMIT = 60.0  # a hang guard, not a timing claim


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_temp_dir(monkeypatch, "mcpgate-", tmpdir_env=True) as where:
        yield where


class World:
    def __init__(self) -> None:
        self.ran: list[int] = []
        self.asked: list[tuple[str, str]] = []

    def lookup(self) -> Any:
        @tool(name="lookup_issue")
        def lookup_issue(number: int) -> str:
            """Look up an issue by its number."""
            self.ran.append(number)
            return f"Issue {number}"

        @tool(name="fail")
        def fail(reason: str) -> str:
            """Fail with a reason."""
            raise RuntimeError(reason)

        return [lookup_issue, fail]


def options(world: World, binary: str, temp_dir: Path, gate: Any) -> AgentOptions:
    user = UserHome(temp_dir, CONFIG)
    workspace = temp_dir / "ws"
    workspace.mkdir()
    env = user.run_env(FAKE_AGENT_SCENARIO="custom_tools")
    hooks = Hooks(before_tool=gate)
    return AgentOptions(binary=binary, cwd=workspace, env=env, tools=world.lookup(), hooks=hooks)


async def test_a_deny_of_an_mcp_call_blocks_it_before_our_tool_runs(
    fake_binary: str, temp_dir: Path
) -> None:
    world = World()

    def gate(call: ToolUse) -> Decision:
        return Deny("not issues") if call.tool_name == "MCP:lookup_issue" else "allow"

    with anyio.fail_after(LIMIT):
        result = await run_async("go", options=options(world, fake_binary, temp_dir, gate))
    assert world.ran == []
    outcomes = [call.outcome for call in result.tool_calls if call.kind == "mcpToolCall"]
    assert outcomes[0] == "rejected"


async def test_each_mcp_call_asks_the_gate_once(fake_binary: str, temp_dir: Path) -> None:
    world = World()

    def gate(call: ToolUse) -> Decision:
        if call.tool_name.startswith("MCP:"):
            world.asked.append((call.hook_event_name, call.tool_name))
        return "allow"

    with anyio.fail_after(LIMIT):
        await run_async("go", options=options(world, fake_binary, temp_dir, gate))
    assert world.ran == [26]
    assert [name for _, name in world.asked] == ["MCP:lookup_issue", "MCP:fail"]
    assert {event for event, _ in world.asked} == {"preToolUse"}
