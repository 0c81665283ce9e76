"""The live agent's lifecycle rules against an agent played in memory
(``agent_sdk.testing.memory_acp``): what goes on the wire, in which order, and when.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from agent_sdk import AssistantEvent
from agent_sdk.errors import AgentTimeoutError
from agent_sdk.live import LiveAgent, LiveSession, RequestPermissionParams
from agent_sdk.live import _control as control
from agent_sdk.testing.memory_acp import MemoryAcpTransport, ScriptedAgent

pytestmark = pytest.mark.anyio

LIMIT = 10.0
SID = "4c1f9e2a-7b3d-4e8a-9f10-2d6b8c0a5e71"
OPTIONS = [
    {"optionId": "allow-once", "name": "Allow once", "kind": "allow_once"},
    {"optionId": "allow-always", "name": "Allow always", "kind": "allow_always"},
    {"optionId": "reject-once", "name": "Reject", "kind": "reject_once"},
]
TOOL = {
    "toolCallId": "call-1\nfc_1",
    "title": "`pytest -q`",
    "kind": "execute",
    "status": "pending",
}


async def open_session(a: ScriptedAgent) -> None:
    await a.handshake()
    await a.reply(await a.expect("session/new"), {"sessionId": SID})


async def ask_permission(a: ScriptedAgent) -> int:
    """A ``session/request_permission`` for a shell call (§3.11); its request id."""
    params = {"sessionId": SID, "toolCall": TOOL, "options": OPTIONS}
    return await a.request("session/request_permission", params)


def text(words: str) -> dict[str, Any]:
    return {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": words}}


async def new_session(agent: LiveAgent) -> LiveSession:
    with anyio.fail_after(LIMIT):
        return await agent.new_session(cwd="/")


async def test_a_second_prompt_goes_on_the_wire_after_the_first_is_answered() -> None:
    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        first = await a.expect("session/prompt")
        with anyio.move_on_after(0.2):  # nothing else may come while the first runs
            extra = await a.receive()
            raise AssertionError(f"sent during the first turn: {extra}")
        await a.reply(first, {"stopReason": "end_turn"})
        await a.reply(await a.expect("session/prompt"), {"stopReason": "end_turn"})
        await a.receive()  # until the client closes

    transport = MemoryAcpTransport(script)
    async with LiveAgent(transport=transport) as agent:
        session = await new_session(agent)
        with anyio.fail_after(LIMIT):
            async with anyio.create_task_group() as tg:
                tg.start_soon(session.send, "one")
                await anyio.wait_all_tasks_blocked()  # "one" is on the wire
                tg.start_soon(session.send, "two")
    prompts = [m for m in transport.agent.received if m.get("method") == "session/prompt"]
    assert [p["params"]["prompt"][0]["text"] for p in prompts] == ["one", "two"]
    assert transport.returncode == 0


async def test_cancel_is_a_notification_and_answers_the_pending_permission_cancelled() -> None:
    answers: list[dict[str, Any]] = []

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        prompt = await a.expect("session/prompt")
        asked = await ask_permission(a)
        cancel = await a.expect("session/cancel")
        assert "id" not in cancel  # a notification (§3.7)
        answers.append(await a.answer(asked))
        await a.reply(prompt, {"stopReason": "cancelled"})
        await a.receive()

    async def wait_for_person(params: RequestPermissionParams) -> str:
        await session.cancel()  # the person stops the turn instead of deciding
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    async with LiveAgent(transport=MemoryAcpTransport(script), permission=wait_for_person) as agent:
        session = await new_session(agent)
        with anyio.fail_after(LIMIT):
            result = await session.send("run the tests")
    assert result.stop_reason == "cancelled"
    assert answers[0]["result"] == {"outcome": {"outcome": "cancelled"}}


async def test_a_decision_past_its_timeout_answers_reject_once() -> None:
    answers: list[dict[str, Any]] = []

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        prompt = await a.expect("session/prompt")
        asked = await ask_permission(a)
        answers.append(await a.answer(asked))
        await a.reply(prompt, {"stopReason": "end_turn"})
        await a.receive()

    async def slow(params: RequestPermissionParams) -> str:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    transport = MemoryAcpTransport(script)
    async with LiveAgent(transport=transport, permission=slow, decision_timeout=0.1) as agent:
        session = await new_session(agent)
        with anyio.fail_after(LIMIT):
            await session.send("run the tests")
    assert answers[0]["result"] == {"outcome": {"outcome": "selected", "optionId": "reject-once"}}


async def test_turn_timeout_cancels_and_a_turn_that_stops_leaves_the_session_usable() -> None:
    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        prompt = await a.expect("session/prompt")
        await a.expect("session/cancel")
        await a.reply(prompt, {"stopReason": "cancelled"})
        again = await a.expect("session/prompt")
        await a.update(SID, text("done"))
        await a.reply(again, {"stopReason": "end_turn"})
        await a.receive()

    transport = MemoryAcpTransport(script)
    async with LiveAgent(transport=transport, turn_timeout=0.1) as agent:
        session = await new_session(agent)
        with pytest.raises(AgentTimeoutError, match="still usable"), anyio.fail_after(LIMIT):
            await session.send("slow")
        agent.turn_timeout = None
        with anyio.fail_after(LIMIT):
            assert (await session.send("quick")).text == "done"
    assert transport.closed_with_grace != 0  # ended only when the agent was left


async def test_a_turn_that_ignores_its_cancel_ends_the_agent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(control, "CANCEL_GRACE", 0.1)

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        await a.expect("session/prompt")
        await a.update(SID, text("Working"))
        await anyio.sleep_forever()  # deaf to the cancel

    transport = MemoryAcpTransport(script)
    async with LiveAgent(transport=transport, turn_timeout=0.1) as agent:
        session = await new_session(agent)
        events: list[Any] = []
        with pytest.raises(AgentTimeoutError, match="the agent was ended"), anyio.fail_after(LIMIT):
            async for event in session.run("slow"):
                events.append(event)
    assert transport.closed_with_grace == 0
    assert [e.new_text for e in events if isinstance(e, AssistantEvent)] == ["Working"]


async def test_an_unknown_agent_request_is_answered_method_not_found() -> None:
    answers: list[dict[str, Any]] = []
    answered = anyio.Event()

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        answers.append(await a.answer(await a.request("fs/read_text_file", {"path": "/x"})))
        answered.set()
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(script)) as agent:
        await new_session(agent)
        with anyio.fail_after(LIMIT):
            await answered.wait()
    assert answers[0]["error"]["code"] == -32601  # fs/terminal are not offered (§3.12)


async def test_the_command_list_after_session_new_reaches_the_session() -> None:
    async def script(a: ScriptedAgent) -> None:
        await a.handshake()
        new = await a.expect("session/new")
        # Sent before the result: it overtakes our reading of it (§2 step 3).
        commands = [{"name": "create-rule", "description": "Create Cursor rules"}]
        await a.update(
            SID, {"sessionUpdate": "available_commands_update", "availableCommands": commands}
        )
        await a.reply(new, {"sessionId": SID})
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(script)) as agent:
        session = await new_session(agent)
    assert [c.name for c in session.available_commands] == ["create-rule"]


async def test_initialize_advertises_no_file_system_and_no_terminal() -> None:
    async def script(a: ScriptedAgent) -> None:
        params = await a.handshake()
        assert params["clientCapabilities"] == {
            "fs": {"readTextFile": False, "writeTextFile": False},
            "terminal": False,
        }
        assert params["protocolVersion"] == 1
        await a.receive()

    transport = MemoryAcpTransport(script)
    async with LiveAgent(transport=transport):
        pass
    assert transport.returncode == 0  # the script's assertions held, and it saw EOF
