"""The live agent's JSON entry points (docs/acp.md), fed hostile bytes by an agent played
in memory (``agent_sdk.testing.memory_acp``): a line, a notification's params, an update,
an agent request's params, and the result of each of our requests.

A hostile line or notification is dropped (kept as a diagnostic) and the turn goes on; a
hostile request gets an answer; a hostile result fails its call with an ``AgentError``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from agent_sdk.live import LiveAgent, LiveSession
from agent_sdk.testing.memory_acp import MemoryAcpTransport, ScriptedAgent

SID = "4c1f9e2a-7b3d-4e8a-9f10-2d6b8c0a5e71"
END_TURN = {"stopReason": "end_turn"}
PERMISSION = {
    "sessionId": SID,
    "toolCall": {"toolCallId": "c1", "title": "`ls`", "kind": "execute", "status": "pending"},
    "options": [{"optionId": "reject-once", "name": "Reject", "kind": "reject_once"}],
}

Script = Callable[[ScriptedAgent], Awaitable[None]]
Use = Callable[[LiveAgent], Awaitable[None]]


async def played(script: Script, use: Use, **options: Any) -> None:
    """``use`` a live agent whose agent plays ``script`` then waits for the client to go
    (``options``: the LiveAgent's)."""

    async def agent(a: ScriptedAgent) -> None:
        await script(a)
        while True:
            await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(agent), **options) as live:
        await use(live)


async def open_session(a: ScriptedAgent) -> None:
    await a.handshake()
    await a.reply(await a.expect("session/new"), {"sessionId": SID})


async def one_turn(live: LiveAgent) -> None:
    """A turn that must end as the agent said, whatever came during it."""
    session = await live.new_session(cwd="/")
    result = await session.send("go")
    assert result.stop_reason == "end_turn"


def during_a_turn(*lines: bytes) -> Script:
    """The agent sends ``lines`` while the turn runs, then ends it."""

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        prompt = await a.expect("session/prompt")
        for line in lines:
            await a.send_line(line)
        await a.reply(prompt, END_TURN)

    return script


def rpc(message: bytes) -> bytes:
    """A JSON-RPC line around ``message``'s members (given as bytes, hostile or not)."""
    return b'{"jsonrpc":"2.0",' + message + b"}"


async def line(value: bytes) -> None:
    await played(during_a_turn(value), one_turn)


async def notification_params(value: bytes) -> None:
    await played(during_a_turn(rpc(b'"method":"session/update","params":' + value)), one_turn)


async def session_update(value: bytes) -> None:
    params = b'{"sessionId":"' + SID.encode() + b'","update":' + value + b"}"
    await played(during_a_turn(rpc(b'"method":"session/update","params":' + params)), one_turn)


async def request_params(value: bytes) -> None:
    """An agent request with hostile params, then a good one: the good one is answered,
    the hostile one at most once (if it was a request at all), and the turn ends."""
    answers: list[dict[str, Any]] = []

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        prompt = await a.expect("session/prompt")
        await a.send_line(rpc(b'"id":100,"method":"session/request_permission","params":' + value))
        await a.send_line(rpc(b'"id":101,"method":"session/request_permission","params":'
                              + json.dumps(PERMISSION).encode()))  # fmt: skip
        answers.append(await a.answer(101))
        await a.reply(prompt, END_TURN)

    async def use(live: LiveAgent) -> None:
        await one_turn(live)
        hostile = [m for m in live_agent_received(live) if m.get("id") == 100]
        assert len(hostile) <= 1

    await played(script, use)
    assert answers[0]["result"]["outcome"]["optionId"] == "reject-once"


CHILD = "9d2e0c4b-1a7f-4e3d-8b6a-5f0e2c9d1a33"
SPAWNED = {"sessionUpdate": "subagent_spawned", "subagentSessionId": CHILD, "name": "explore"}


async def subagent_update(value: bytes) -> None:
    """A subagent's own update (on its session, §3.13), hostile: the turn ends, with the
    subagent spawned in it."""

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        prompt = await a.expect("session/prompt")
        await a.update(SID, SPAWNED)
        params = b'{"sessionId":"' + CHILD.encode() + b'","update":' + value + b"}"
        await a.send_line(rpc(b'"method":"session/update","params":' + params))
        await a.reply(prompt, END_TURN)

    async def use(live: LiveAgent) -> None:
        session = await live.new_session(cwd="/")
        result = await session.send("go")
        assert [s.session_id for s in result.subagents] == [CHILD]

    await played(script, use, subagents=True)


async def task_params(value: bytes) -> None:
    """``cursor/task`` with hostile params, to a ``task`` callback (§4): answered once
    (``{}`` or ``-32602``), and the turn ends."""
    answers: list[dict[str, Any]] = []

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        prompt = await a.expect("session/prompt")
        await a.send_line(rpc(b'"id":100,"method":"cursor/task","params":' + value))
        answers.append(await a.answer(100))
        await a.reply(prompt, END_TURN)

    await played(script, one_turn, task=lambda params: None)
    assert answers[0].get("result") == {} or answers[0]["error"]["code"] == -32602


def live_agent_received(live: LiveAgent) -> list[dict[str, Any]]:
    transport = live._transport
    assert isinstance(transport, MemoryAcpTransport)
    return transport.agent.received


def answered(method: str, value: bytes, good: Any, before: Script = open_session) -> Script:
    """After ``before``, ``method`` is answered with the hostile result, then with ``good``
    (a duplicate answer, if the first one was read)."""

    async def script(a: ScriptedAgent) -> None:
        if method != "initialize":
            await before(a)
        request = await a.expect(method)
        request_id = json.dumps(request["id"]).encode()
        await a.send_line(rpc(b'"id":' + request_id + b',"result":' + value))
        await a.reply(request, good)

    return script


async def initialize_result(value: bytes) -> None:
    good = {"protocolVersion": 1, "agentCapabilities": {}, "authMethods": []}
    await result_of("initialize", value, good, lambda live: _nothing())


async def new_session_result(value: bytes) -> None:
    async def use(live: LiveAgent) -> None:
        session = await live.new_session(cwd="/")
        assert session.session_id == SID

    await result_of("session/new", value, {"sessionId": SID}, use, before=_handshake)


async def load_session_result(value: bytes) -> None:
    async def use(live: LiveAgent) -> None:
        await live.load_session(SID, cwd="/")

    await result_of("session/load", value, {}, use, before=_handshake)


async def list_sessions_result(value: bytes) -> None:
    async def use(live: LiveAgent) -> None:
        await live.list_sessions()

    await result_of("session/list", value, {"sessions": []}, use, before=_handshake)


async def prompt_result(value: bytes) -> None:
    await result_of("session/prompt", value, END_TURN, one_turn)


async def config_option_result(value: bytes) -> None:
    async def use(live: LiveAgent) -> None:
        session: LiveSession = await live.new_session(cwd="/")
        await session.set_config_option("model", "auto")

    await result_of("session/set_config_option", value, {"configOptions": []}, use)


async def result_of(
    method: str, value: bytes, good: Any, use: Use, *, before: Script = open_session
) -> None:
    """``use`` the agent while ``method`` gets a hostile result: it succeeds (the result
    was dropped, the good one taken) or fails with an ``AgentError`` (the registry's
    ``allowed``)."""
    await played(answered(method, value, good, before), use)


async def _handshake(a: ScriptedAgent) -> None:
    await a.handshake()


async def _nothing() -> None:
    return None


async def odd_ids(lines: list[str], stop_reason: str = "end_turn") -> None:
    """During a turn the agent sends ``lines`` (``{prompt}`` is the pending prompt's id),
    then answers the prompt ``end_turn``: the turn ends with ``stop_reason``, or fails
    with an ``AgentError``."""

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        prompt = await a.expect("session/prompt")
        for text in lines:
            await a.send_line(text.replace("{prompt}", json.dumps(prompt["id"])).encode())
        await a.reply(prompt, END_TURN)

    async def use(live: LiveAgent) -> None:
        session = await live.new_session(cwd="/")
        result = await session.send("go")
        assert result.stop_reason == stop_reason

    await played(script, use)
