"""Only the CLI's own relay reaches a run's tools and gates (docs/extend.md, "Who may
connect"), end to end on the fake: a shell command the agent runs holds the run's token
(everything the CLI starts inherits its environment) and tries every way in, its own
connection and the run's own relay started by itself, for a tool call and a gate; each
is refused, the tool never runs for it and no callback is asked, while the CLI's own
relay, started by the CLI in its group, is served in the same run."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from extend_env import CONFIG, LIMIT, UserHome, short_temp_dir, write_scenario

from agent_sdk import AgentOptions, run_async
from agent_sdk.extend import Hooks, ToolUse, tool
from agent_sdk.extend._host import relay_command
from agent_sdk.tool_results import ShellSuccess

pytestmark = pytest.mark.anyio

ATTACKER = Path(__file__).with_name("peer_attacker.py")
SESSION = "5c0a1e2b-7d3f-4a6b-8c9d-0e1f2a3b4c5d"


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_temp_dir(monkeypatch, "peers-", tmpdir_env=True) as where:
        yield where


def steps(temp_dir: Path) -> list[dict[str, Any]]:
    """The agent runs the attacker, then calls the tool as the CLI does (the control)."""
    relay = relay_command()[3]
    command = f"{sys.executable} {ATTACKER} {temp_dir} {relay}"
    return [
        {"type": "system", "subtype": "init", "session_id": SESSION, "model": "m"},
        {"fake": "shell", "command": command, "call_id": "sh1"},
        {"fake": "mcp_call", "server": "agent_sdk", "tool": "lookup_issue"}
        | {"args": {"number": 26}, "call_id": "mcp1"},
        {"type": "result", "subtype": "success", "is_error": False, "result": "done"}
        | {"session_id": SESSION},
    ]


async def test_a_command_of_the_agent_holding_the_token_is_refused(
    fake_binary: str, temp_dir: Path
) -> None:
    looked_up: list[int] = []
    gated: list[str] = []

    @tool
    def lookup_issue(number: int) -> str:
        """Look up an issue by its number."""
        looked_up.append(number)
        return f"Issue {number}"

    def gate(call: ToolUse) -> str:
        gated.append(call.tool_name)
        return "allow"

    user = UserHome(temp_dir, CONFIG)
    workspace = temp_dir / "ws"
    workspace.mkdir()
    scenario = write_scenario(temp_dir / "scenario.ndjson", steps(temp_dir))
    options = AgentOptions(
        binary=fake_binary,
        cwd=workspace,
        env=user.run_env(FAKE_AGENT_SCENARIO=str(scenario)),
        force=True,
        tools=[lookup_issue],
        hooks=Hooks(before_tool=gate),
    )
    with anyio.fail_after(LIMIT * 2):
        result = await run_async("go", options=options)
    (shell,) = [c for c in result.tool_calls if c.kind == "shellToolCall"]
    assert isinstance(shell.result, ShellSuccess), shell.result
    tried = json.loads(shell.result.stdout.strip().splitlines()[-1])
    assert tried["direct_mcp"] == ""
    assert tried["direct_hook"] == ""
    assert tried["relay_mcp"] == ""
    assert tried["relay_hook"].startswith("2 ")  # the relay got no answer: it blocks
    # The tool ran once, for the CLI's own call; the gate was asked for the CLI's calls.
    assert looked_up == [26]
    assert gated == ["Shell", "MCP:lookup_issue"]
