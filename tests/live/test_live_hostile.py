"""Lines the live agent cannot decode (docs/live.md "Errors"): a notification is dropped
and recorded, a response fails only its own request, an agent request is answered
``-32602``; never the whole agent. Against an agent played in memory.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from agent_sdk.errors import AgentProtocolError
from agent_sdk.live import LiveAgent, LiveSession
from agent_sdk.testing.memory_acp import MemoryAcpTransport, ScriptedAgent

pytestmark = pytest.mark.anyio

LIMIT = 10.0
SID = "4c1f9e2a-7b3d-4e8a-9f10-2d6b8c0a5e71"
DEEP = 100_000
NESTED = "[" * DEEP + "]" * DEEP


def text(words: str) -> dict[str, Any]:
    return {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": words}}


async def open_session(a: ScriptedAgent) -> None:
    await a.handshake()
    await a.reply(await a.expect("session/new"), {"sessionId": SID})


async def new_session(agent: LiveAgent) -> LiveSession:
    with anyio.fail_after(LIMIT):
        return await agent.new_session(cwd="/")


async def test_a_deeply_nested_notification_is_dropped_and_recorded() -> None:
    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        prompt = await a.expect("session/prompt")
        update = '{"sessionId":"' + SID + '","update":' + NESTED + "}"
        await a.send_line(
            b'{"jsonrpc":"2.0","method":"session/update","params":%s}' % update.encode()
        )
        await a.update(SID, text("still here"))
        await a.reply(prompt, {"stopReason": "end_turn"})
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(script)) as agent:
        session = await new_session(agent)
        with anyio.fail_after(LIMIT):
            result = await session.send("hi")
    assert result.text == "still here"
    assert ["too deep" in d.reason for d in agent.diagnostics] == [True]


async def test_a_deeply_nested_response_fails_only_its_request() -> None:
    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        prompt = await a.expect("session/prompt")
        await a.send_line(
            b'{"jsonrpc":"2.0","id":%d,"result":%s}' % (prompt["id"], NESTED.encode())
        )
        again = await a.expect("session/prompt")
        await a.update(SID, text("fine"))
        await a.reply(again, {"stopReason": "end_turn"})
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(script)) as agent:
        session = await new_session(agent)
        with (
            pytest.raises(AgentProtocolError, match="could not be decoded"),
            anyio.fail_after(LIMIT),
        ):
            await session.send("hi")
        with anyio.fail_after(LIMIT):
            assert (await session.send("again")).text == "fine"


async def test_a_response_of_a_wrong_shape_fails_its_request_at_once() -> None:
    async def script(a: ScriptedAgent) -> None:
        await a.handshake()
        new = await a.expect("session/new")
        await a.send({"id": new["id"], "error": {"code": "not a number"}})
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(script), request_timeout=10 * LIMIT) as agent:
        with pytest.raises(AgentProtocolError, match="session/new"), anyio.fail_after(LIMIT):
            await agent.new_session(cwd="/")


@pytest.mark.parametrize(
    "result",
    [{"sessionId": 5}, {"sessionId": SID, "modes": "plan"}, ["not", "an", "object"]],
    ids=["wrong-type", "wrong-field", "not-an-object"],
)
async def test_a_result_of_the_wrong_type_is_a_protocol_error(result: Any) -> None:
    async def script(a: ScriptedAgent) -> None:
        await a.handshake()
        await a.reply(await a.expect("session/new"), result)
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(script)) as agent:
        with pytest.raises(AgentProtocolError, match="session/new"), anyio.fail_after(LIMIT):
            await agent.new_session(cwd="/")


async def test_a_deeply_nested_agent_request_is_answered_invalid_params() -> None:
    answers: list[dict[str, Any]] = []

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        prompt = await a.expect("session/prompt")
        line = b'{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":%s}'
        await a.send_line(line % NESTED.encode())
        answers.append(await a.answer(7))
        await a.reply(prompt, {"stopReason": "end_turn"})
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(script)) as agent:
        session = await new_session(agent)
        with anyio.fail_after(LIMIT):
            assert (await session.send("hi")).stop_reason == "end_turn"
    assert answers[0]["error"]["code"] == -32602
