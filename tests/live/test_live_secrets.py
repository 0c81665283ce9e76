"""A key planted four ways never leaves the live agent through its errors or its
diagnostics (docs/live.md "Errors"): ``api_key=``, ``env=``, ``os.environ``, a header.
"""

from __future__ import annotations

import pickle
from typing import Any

import anyio
import pytest

from agent_sdk import AgentOptions
from agent_sdk.live import JsonRpcError, LiveAgent
from agent_sdk.testing.memory_acp import MemoryAcpTransport, ScriptedAgent

pytestmark = pytest.mark.anyio

LIMIT = 10.0
KEY = "sk-live-7f3a9c2e1b4d"
WAYS = ["api_key", "env", "environ", "header"]


@pytest.fixture(params=WAYS)
def options(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> AgentOptions:
    monkeypatch.delenv("CURSOR_API_KEY", raising=False)
    if request.param == "api_key":
        return AgentOptions(api_key=KEY)
    if request.param == "env":
        return AgentOptions(env={"CURSOR_API_KEY": KEY})
    if request.param == "header":
        return AgentOptions(headers={"Authorization": f"Bearer {KEY}"})
    monkeypatch.setenv("CURSOR_API_KEY", KEY)
    return AgentOptions()


def shown(value: Any) -> str:
    """Everything a value shows: str, repr, every attribute (deep) and its pickle."""
    parts = [str(value), repr(value), repr(pickle.dumps(value))]
    parts += [repr(getattr(value, name, None)) for name in dir(value) if not name.startswith("__")]
    return "\n".join(parts)


async def refused(a: ScriptedAgent, method: str) -> None:
    request = await a.expect(method)
    data = {"message": f"key {KEY} refused", "details": [KEY, {"key": KEY}]}
    await a.fail(request, -32603, f"Internal error: bad key {KEY}", data)


async def test_an_error_answer_never_keeps_the_key(options: AgentOptions) -> None:
    async def script(a: ScriptedAgent) -> None:
        await a.handshake()
        await refused(a, "session/new")
        await a.receive()

    async with LiveAgent(options, transport=MemoryAcpTransport(script)) as agent:
        with pytest.raises(JsonRpcError) as raised, anyio.fail_after(LIMIT):
            await agent.new_session(cwd="/")
    assert KEY not in shown(raised.value)
    assert KEY not in shown(pickle.loads(pickle.dumps(raised.value)))
    assert "***" in raised.value.rpc_message


async def test_an_error_answer_to_initialize_never_keeps_the_key(options: AgentOptions) -> None:
    async def script(a: ScriptedAgent) -> None:
        await refused(a, "initialize")
        await a.receive()

    with pytest.raises(JsonRpcError) as raised, anyio.fail_after(LIMIT):
        async with LiveAgent(options, transport=MemoryAcpTransport(script)):
            pass
    assert KEY not in shown(raised.value)


async def test_diagnostics_never_keep_the_key(options: AgentOptions) -> None:
    async def script(a: ScriptedAgent) -> None:
        await a.handshake()
        await a.send_line(f"Using API key {KEY}".encode())  # a banner on stdout
        bad = '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":5,"k":"%s"}}'
        await a.send_line((bad % KEY).encode())
        await a.send_line(b'{"jsonrpc":"2.0","id":99,"result":{"key":"%s"}}' % KEY.encode())
        await a.reply(await a.expect("session/new"), {"sessionId": "s1"})
        await a.receive()

    async with LiveAgent(options, transport=MemoryAcpTransport(script)) as agent:
        with anyio.fail_after(LIMIT):
            await agent.new_session(cwd="/")
        kept = list(agent.diagnostics)
    assert len(kept) == 3
    assert KEY not in shown(kept)
    assert all(KEY.encode() not in d.line and KEY not in d.reason for d in kept)


async def test_a_subagents_broken_lines_and_a_refused_cursor_task_never_keep_the_key(
    options: AgentOptions,
) -> None:
    answers: list[Any] = []
    child = "9d2e0c4b-1a7f-4e3d-8b6a-5f0e2c9d1a33"

    async def script(a: ScriptedAgent) -> None:
        await a.handshake()
        await a.reply(await a.expect("session/new"), {"sessionId": "s1"})
        prompt = await a.expect("session/prompt")
        spawned = {"sessionUpdate": "subagent_spawned", "subagentSessionId": child}
        await a.update("s1", spawned)
        bad = '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"%s","k":"%s"}}'
        await a.send_line((bad % (child, KEY)).encode())  # the subagent's broken line
        task = {"toolCallId": 5, "description": KEY, "model": {"key": KEY}}  # does not decode
        answers.append(await a.answer(await a.request("cursor/task", task)))
        await a.reply(prompt, {"stopReason": "end_turn"})
        await a.receive()

    transport = MemoryAcpTransport(script)
    async with LiveAgent(
        options, transport=transport, subagents=True, task=lambda p: None
    ) as agent:
        session = await agent.new_session(cwd="/")
        with anyio.fail_after(LIMIT):
            await session.send("go")
        kept = list(agent.diagnostics)
    assert answers[0]["error"]["code"] == -32602  # the premise: refused, with words
    assert KEY not in repr(answers)  # the answer went back to the agent
    assert kept
    assert KEY not in shown(kept)
