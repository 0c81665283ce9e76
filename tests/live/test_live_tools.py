"""Python tools given to a live session (docs/extend.md, "The live agent"), end to end on
the fake's ACP mode: the session's ``mcpServers`` gets the relay's stdio entry, the fake
connects to it during ``session/new`` and calls the tools of the ``custom_tools``
scenario through it, permission requests for our own tools are allowed without asking
the user's callback, and the host goes with the agent."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest
from extend_env import fail, lookup_issue
from fake_env import clean_env

from agent_sdk import AgentOptions
from agent_sdk.errors import AgentConfigError
from agent_sdk.extend import tool
from agent_sdk.live import AcpToolCallUpdate, LiveAgent, RequestPermissionParams

pytestmark = pytest.mark.anyio

LIMIT = 30.0  # only a broken client or fake waits this long


def tools_options(options: AgentOptions) -> AgentOptions:
    env = clean_env(FAKE_AGENT_ACP_SCENARIO="custom_tools")
    return msgspec.structs.replace(options, env=env)


async def turn(agent: LiveAgent, **kwargs: Any) -> list[Any]:
    session = await agent.new_session(**kwargs)
    with anyio.fail_after(LIMIT):
        return [update async for update in session.prompt("look up issue 26")]


def completed_texts(updates: list[Any]) -> list[str]:
    # content: [{"type": "content", "content": {"type": "text", "text": ...}}] (§3.10)
    return [
        block["content"]["text"]
        for u in updates
        if isinstance(u, AcpToolCallUpdate) and u.status == "completed" and u.content
        for block in u.content
    ]


async def test_a_sessions_tools_are_called_in_this_process(options: AgentOptions) -> None:
    async with LiveAgent(tools_options(options)) as agent:
        await turn(agent, tools=[lookup_issue, fail])
        (host,) = agent._tools.hosts
        served = [(c.tool, c.arguments, c.is_error) for c in host.calls]
    assert served == [
        ("lookup_issue", {"number": 26}, False),
        ("fail", {"reason": "the tracker is down"}, True),
    ]


async def test_the_agent_gets_what_the_tools_returned(options: AgentOptions) -> None:
    async with LiveAgent(tools_options(options)) as agent:
        updates = await turn(agent, tools=[lookup_issue, fail])
    texts = completed_texts(updates)
    assert '{"number":26,"title":"Issue 26"}' in texts
    assert "RuntimeError: the tracker is down" in texts


async def test_our_tools_are_allowed_without_asking_the_permission_callback(
    options: AgentOptions,
) -> None:
    asked: list[RequestPermissionParams] = []

    def permission(params: RequestPermissionParams) -> str:
        asked.append(params)
        return "reject"

    async with LiveAgent(tools_options(options), permission=permission) as agent:
        await turn(agent, tools=[lookup_issue, fail])
        (host,) = agent._tools.hosts
        assert len(host.calls) == 2
    assert asked == []


async def test_a_session_without_our_tools_still_asks_the_callback(
    options: AgentOptions, tmp_path: Path
) -> None:
    # The same calls, but the agent_sdk server is the user's own entry: the callback
    # decides (here: reject), and nothing of ours is allowed on its behalf.
    asked: list[str] = []

    def permission(params: RequestPermissionParams) -> str:
        asked.append(params.tool_call.title or "")
        return "reject"

    server = {
        "name": "agent_sdk",
        "command": sys.executable,
        "args": [str(Path(__file__).parents[1] / "extend" / "tools_server.py"), "asyncio"],
        "env": [{"name": "TOOLS_SERVER_SECRET", "value": "s3cret"}],
    }
    async with LiveAgent(tools_options(options), permission=permission) as agent:
        await turn(agent, mcp_servers=[server])
    assert asked == ["agent_sdk-lookup_issue: lookup_issue", "agent_sdk-fail: fail"]


async def test_the_tools_host_is_gone_when_the_agent_ends(options: AgentOptions) -> None:
    async with LiveAgent(tools_options(options)) as agent:
        await turn(agent, tools=[lookup_issue, fail])
        (host,) = agent._tools.hosts
        directory = host.directory
        assert directory is not None
        assert await anyio.Path(directory).is_dir()
    assert not await anyio.Path(directory).exists()


async def test_two_tools_of_one_name_are_refused_before_the_session(
    options: AgentOptions,
) -> None:
    async with LiveAgent(tools_options(options)) as agent:
        with pytest.raises(AgentConfigError):
            await agent.new_session(tools=[lookup_issue, tool(name="lookup_issue")(fail)])
        assert agent.sessions == []


async def test_a_turns_tool_calls_say_which_were_our_tools(options: AgentOptions) -> None:
    # Known as ours by the permission request the agent made for them (titled
    # agent_sdk-<tool>: <tool>, docs/acp.md §3.11): each completed call is given the
    # host's record of it, in order (docs/extend.md, "Which calls were ours").
    async with LiveAgent(tools_options(options)) as agent:
        session = await agent.new_session(tools=[lookup_issue, fail])
        live_turn = session.run("look up issue 26")
        with anyio.fail_after(LIMIT):
            async for _ in live_turn:
                pass
    calls = [call.custom_tool for call in live_turn.result.tool_calls]
    assert [(c.tool, c.arguments, c.is_error) for c in calls if c is not None] == [
        ("lookup_issue", {"number": 26}, False),
        ("fail", {"reason": "the tracker is down"}, True),
    ]


async def test_calls_of_a_users_own_server_are_not_ours(
    options: AgentOptions, tmp_path: Path
) -> None:
    # The same calls, served by the user's own entry (allowed by their callback): no call
    # of the turn is one of agent_sdk's tools.
    server = {
        "name": "agent_sdk",
        "command": sys.executable,
        "args": [str(Path(__file__).parents[1] / "extend" / "tools_server.py"), "asyncio"],
        "env": [{"name": "TOOLS_SERVER_SECRET", "value": "s3cret"}],
    }
    async with LiveAgent(tools_options(options), permission=lambda p: "allow_once") as agent:
        session = await agent.new_session(mcp_servers=[server])
        live_turn = session.run("look up issue 26")
        with anyio.fail_after(LIMIT):
            async for _ in live_turn:
                pass
    assert len(live_turn.result.tool_calls) == 2  # the premise: both were called
    assert [call.custom_tool for call in live_turn.result.tool_calls] == [None, None]
