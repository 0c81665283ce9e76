"""The key and the live agent (docs/acp.md): an agent that says the key in a line that is
no JSON-RPC, in a notification that does not decode and in an error answer (message and
data) shows it in none of the live agent's errors (nor their pickle) or diagnostics."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from secrets_plant import KEY, MakeOptions, fail, lookup_issue, where_shown

from agent_sdk import AgentBudgetError, AgentError, Budget
from agent_sdk.live import LiveAgent
from agent_sdk.testing.memory_acp import MemoryAcpTransport, ScriptedAgent

pytestmark = pytest.mark.anyio

SID = "4c1f9e2a-7b3d-4e8a-9f10-2d6b8c0a5e71"
LIMIT = 30.0  # a hang guard


async def leaking_agent(a: ScriptedAgent) -> None:
    await a.handshake()
    await a.reply(await a.expect("session/new"), {"sessionId": SID})
    prompt = await a.expect("session/prompt")
    await a.send_line(f"Using API key {KEY} from the environment".encode())
    bad = {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": KEY}}
    await a.send_line(json.dumps(bad).encode())
    await a.fail(prompt, -32603, f"Internal error: key {KEY} refused", {"key": KEY})
    await a.receive()


async def failed_turn(options: MakeOptions) -> tuple[AgentError, LiveAgent]:
    async with LiveAgent(options(), transport=MemoryAcpTransport(leaking_agent)) as agent:
        session = await agent.new_session(cwd="/")
        with anyio.fail_after(LIMIT), pytest.raises(AgentError) as info:
            await session.send("go")
    return info.value, agent


async def test_a_live_agents_error_shows_the_key_nowhere(planted: MakeOptions) -> None:
    error, _ = await failed_turn(planted)
    assert where_shown(error) == []


async def test_a_live_agents_diagnostics_show_the_key_nowhere(planted: MakeOptions) -> None:
    _, agent = await failed_turn(planted)
    assert agent.diagnostics  # the premise: the lines that did not decode were kept
    assert where_shown(agent.diagnostics) == []


async def test_a_live_sessions_tool_error_holds_no_key(
    planted: MakeOptions, tmp_path: Path
) -> None:
    # The fake (ACP) calls `fail` through the session's relay: the completed update, the
    # turn's result and the host's record show the key nowhere.
    options = planted(cwd=tmp_path, env={"FAKE_AGENT_ACP_SCENARIO": "custom_tools"})
    async with LiveAgent(options) as agent:
        session = await agent.new_session(tools=[lookup_issue, fail])
        with anyio.fail_after(LIMIT):
            updates = [update async for update in session.prompt("go")]
        (host,) = agent._tools.hosts
        recorded = list(host.calls)
    assert recorded[1].is_error  # the premise: the error went back
    assert "could not log in with" in recorded[1].result
    assert where_shown(updates) == []
    assert where_shown(recorded) == []


async def over_budget_agent(a: ScriptedAgent) -> None:
    # A shell call whose command holds the key, then another: the second goes over.
    await a.handshake()
    await a.reply(await a.expect("session/new"), {"sessionId": SID})
    prompt = await a.expect("session/prompt")
    for n in (1, 2):
        call = {
            "sessionUpdate": "tool_call",
            "toolCallId": f"call-{n}",
            "title": f"`curl -H 'Authorization: {KEY}'`",
            "kind": "execute",
            "status": "pending",
            "rawInput": {"command": f"curl -H 'Authorization: {KEY}' x"},
        }
        await a.update(SID, call)
    while (await a.receive()).get("method") != "session/cancel":
        pass
    await a.reply(prompt, {"stopReason": "cancelled"})
    await a.receive()


async def test_a_live_budget_error_shows_the_key_nowhere(planted: MakeOptions) -> None:
    options = planted(budget=Budget(tool_calls=1))
    async with LiveAgent(options, transport=MemoryAcpTransport(over_budget_agent)) as agent:
        session = await agent.new_session(cwd="/")
        with anyio.fail_after(LIMIT), pytest.raises(AgentBudgetError) as info:
            await session.send("go")
    assert len(info.value.events) == 2  # the premise: the calls holding the key were kept
    assert where_shown(info.value) == []


async def test_a_live_sessions_tools_token_is_in_no_error_nor_diagnostic() -> None:
    # An agent that says the token it was given for the session's MCP server (in
    # session/new's mcpServers, docs/acp.md §3.3) in a line that is no JSON-RPC and in an
    # error answer: the live agent shows it masked, as a key (docs/extend.md).
    said: list[str] = []

    async def echoing_agent(a: ScriptedAgent) -> None:
        await a.handshake()
        opened = await a.expect("session/new")
        (server,) = opened["params"]["mcpServers"]
        env = {item["name"]: item["value"] for item in server["env"]}
        said.append(env["AGENT_SDK_TOOLS_TOKEN"])
        await a.reply(opened, {"sessionId": SID})
        prompt = await a.expect("session/prompt")
        await a.send_line(f"mcp env: AGENT_SDK_TOOLS_TOKEN={said[0]}".encode())
        await a.fail(prompt, -32603, f"Internal error: token {said[0]}", {"token": said[0]})
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(echoing_agent)) as agent:
        session = await agent.new_session(cwd="/", tools=[lookup_issue])
        with anyio.fail_after(LIMIT), pytest.raises(AgentError) as info:
            await session.send("go")
    assert "Internal error: token ***" in str(info.value)  # the premise: it was said
    assert where_shown(info.value, said[0]) == []
    assert where_shown(agent.diagnostics, said[0]) == []
