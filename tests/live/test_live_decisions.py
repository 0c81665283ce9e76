"""Decisions made in Python, against the fake: a slow, failing or misshapen callback never
runs a tool and never stalls a turn (docs/acp.md §3.11, §4; docs/live.md "Approvals").
"""

from __future__ import annotations

import anyio
import anyio.lowlevel
import msgspec
import pytest

from agent_sdk import AgentOptions
from agent_sdk.live import (
    AskQuestionParams,
    AskQuestionResult,
    CancelledOutcome,
    CreatePlanParams,
    CreatePlanResult,
    LiveAgent,
    LiveResult,
    RequestPermissionParams,
)
from agent_sdk.live._jsonrpc import Request

pytestmark = pytest.mark.anyio

LIMIT = 30.0  # only a broken client or fake waits this long


async def send(agent: LiveAgent, prompt: str) -> LiveResult:
    session = await agent.new_session()
    with anyio.fail_after(LIMIT):
        return await session.send(prompt)


async def test_an_async_permission_callback_decides(options: AgentOptions) -> None:
    async def allow(params: RequestPermissionParams) -> str:
        await anyio.lowlevel.checkpoint()
        return "allow_once"

    async with LiveAgent(options, permission=allow) as agent:
        result = await send(agent, "scenario:permission")
    assert result.tool_calls[0].status == "succeeded"
    assert "all 12 pass" in result.text


async def test_a_permission_past_its_decision_timeout_is_a_rejection(
    options: AgentOptions,
) -> None:
    async def never(params: RequestPermissionParams) -> str:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    async with LiveAgent(options, permission=never, decision_timeout=0.2) as agent:
        result = await send(agent, "scenario:permission")
    assert result.stop_reason == "end_turn"
    assert result.tool_calls[0].status == "blocked"


async def test_a_failing_permission_callback_is_a_rejection_and_kept(
    options: AgentOptions,
) -> None:
    def broken(params: RequestPermissionParams) -> str:
        raise KeyError("the callback's bug")

    async with LiveAgent(options, permission=broken) as agent:
        result = await send(agent, "scenario:permission")
    assert result.tool_calls[0].status == "blocked"
    assert [type(e) for e in agent.callback_errors] == [KeyError]


async def test_an_unknown_decision_is_a_rejection(options: AgentOptions) -> None:
    async with LiveAgent(options, permission=lambda params: "yes please") as agent:
        result = await send(agent, "scenario:permission")
    assert result.tool_calls[0].status == "blocked"


async def test_an_ask_question_callback_past_its_timeout_answers_cancelled(
    options: AgentOptions,
) -> None:
    async def never(params: AskQuestionParams) -> AskQuestionResult:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    async with LiveAgent(options, ask_question=never, decision_timeout=0.2) as agent:
        result = await send(agent, "scenario:ask_question")
    assert result.text == "User cancelled."  # nested `cancelled` (§4)


async def test_a_misshapen_create_plan_answer_is_sent_as_cancelled(
    options: AgentOptions,
) -> None:
    def flat(params: CreatePlanParams) -> object:
        return {"outcome": "accepted"}  # flat: would read as cancel (§4); we say so plainly

    agent = LiveAgent(options, create_plan=flat)  # type: ignore[arg-type]
    request = Request(0, "cursor/create_plan", msgspec.Raw(b'{"toolCallId":"c","plan":"# P"}'))
    with anyio.fail_after(LIMIT):
        answer = await agent._router.on_request(request)
    assert answer == CreatePlanResult(outcome=CancelledOutcome())
