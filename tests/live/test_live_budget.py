"""A live session's budget (docs/budgets.md) against an agent played in memory: the tool
call that goes over is delivered, the turn is cancelled on the wire (``session/cancel``)
and AgentBudgetError raised; a session's prompts share it; no token budget (§3.9)."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from agent_sdk import AgentBudgetError, AgentConfigError, AgentOptions, Budget, ToolCallStarted
from agent_sdk.live import LiveAgent
from agent_sdk.testing.memory_acp import MemoryAcpTransport, ScriptedAgent

pytestmark = pytest.mark.anyio

LIMIT = 10.0
SID = "4c1f9e2a-7b3d-4e8a-9f10-2d6b8c0a5e71"


def call(n: int, kind: str = "execute") -> dict[str, Any]:
    return {
        "sessionUpdate": "tool_call",
        "toolCallId": f"call-{n}\nfc_{n}",
        "title": "`ls`",
        "kind": kind,
        "status": "pending",
        "rawInput": {"command": "ls"},
    }


def done(n: int) -> dict[str, Any]:
    return {
        "sessionUpdate": "tool_call_update",
        "toolCallId": f"call-{n}\nfc_{n}",
        "status": "completed",
        "rawOutput": {"exitCode": 0, "stdout": "", "stderr": ""},
    }


class Agent:
    """An agent whose every prompt makes ``kinds`` tool calls, then waits for a cancel
    (answered ``cancelled``) or answers ``end_turn``; what it received is kept."""

    def __init__(self, *kinds: str, wait_for_cancel: bool = False) -> None:
        self.kinds = kinds
        self.wait_for_cancel = wait_for_cancel
        self.prompts = 0
        self.cancels = 0

    async def __call__(self, a: ScriptedAgent) -> None:
        await a.handshake()
        await a.reply(await a.expect("session/new"), {"sessionId": SID})
        while True:
            try:
                message = await a.receive()
            except anyio.EndOfStream:
                return
            if message.get("method") == "session/cancel":
                self.cancels += 1
                continue
            if message.get("method") != "session/prompt":
                continue
            self.prompts += 1
            for n, kind in enumerate(self.kinds, 1):
                await a.update(SID, call(n, kind))
                await a.update(SID, done(n))
            if self.wait_for_cancel:
                while (await a.receive()).get("method") != "session/cancel":
                    pass
                self.cancels += 1
                await a.reply(message, {"stopReason": "cancelled"})
            else:
                await a.reply(message, {"stopReason": "end_turn"})


def live(agent: Agent, **limits: Any) -> LiveAgent:
    options = AgentOptions(budget=Budget(**limits))
    return LiveAgent(options, transport=MemoryAcpTransport(agent))


async def test_the_tool_call_that_goes_over_is_delivered_then_the_turn_is_cancelled() -> None:
    agent = Agent("execute", "read", "edit", wait_for_cancel=True)
    seen: list[Any] = []
    with anyio.fail_after(LIMIT):
        async with live(agent, tool_calls=2) as client:
            session = await client.new_session(cwd="/")
            with pytest.raises(AgentBudgetError) as caught:
                async for event in session.run("go"):
                    seen.append(event)
    starts = [e.call_id for e in seen if isinstance(e, ToolCallStarted)]
    assert starts == ["call-1\nfc_1", "call-2\nfc_2", "call-3\nfc_3"]
    assert isinstance(seen[-1], ToolCallStarted)
    assert agent.cancels == 1
    error = caught.value
    assert (error.limit, error.used, error.allowed) == ("tool_calls", 3, 2)
    assert error.scope == "live session"
    assert error.session_id == SID
    assert isinstance(error.events[-1], ToolCallStarted)


async def test_a_kind_limit_counts_the_live_kinds_in_words() -> None:
    agent = Agent("read", "execute", "execute", wait_for_cancel=True)
    with anyio.fail_after(LIMIT):
        async with live(agent, tool_calls_by_kind={"shell": 1}) as client:
            session = await client.new_session(cwd="/")
            with pytest.raises(AgentBudgetError) as caught:
                await session.send("go")
    assert (caught.value.kind, caught.value.used, caught.value.allowed) == ("shell", 2, 1)


async def test_a_spent_live_session_sends_no_more_prompts() -> None:
    agent = Agent("execute", "execute", wait_for_cancel=True)
    with anyio.fail_after(LIMIT):
        async with live(agent, tool_calls_by_kind={"shell": 1}) as client:
            session = await client.new_session(cwd="/")
            with pytest.raises(AgentBudgetError):
                await session.send("go")
            with pytest.raises(AgentBudgetError):
                await session.send("again")
    assert agent.prompts == 1


async def test_a_live_sessions_prompts_are_limited_by_its_turns() -> None:
    agent = Agent()
    with anyio.fail_after(LIMIT):
        async with live(agent, turns=2) as client:
            session = await client.new_session(cwd="/")
            await session.send("one")
            await session.send("two")
            with pytest.raises(AgentBudgetError) as caught:
                await session.send("three")
    assert (caught.value.limit, caught.value.used, caught.value.allowed) == ("turns", 3, 2)
    assert agent.prompts == 2


async def test_a_turn_within_its_budget_ends_as_usual() -> None:
    agent = Agent("execute")
    with anyio.fail_after(LIMIT):
        async with live(agent, tool_calls=1, turns=1) as client:
            session = await client.new_session(cwd="/")
            result = await session.send("go")
    assert result.stop_reason == "end_turn"
    assert len(result.tool_calls) == 1


def test_a_live_agent_refuses_a_token_budget() -> None:
    with pytest.raises(AgentConfigError, match="no token usage"):
        LiveAgent(AgentOptions(budget=Budget(tokens=1000)))
