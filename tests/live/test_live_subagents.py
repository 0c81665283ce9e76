"""Subagents in live turns (docs/acp.md §3.13, §4; docs/live.md "Subagents"): asked for
only with ``LiveAgent(subagents=True)``; a subagent's words are its own, never the
parent's reply; ``cursor/task`` told to the ``task`` callback and answered ``{}``; a
prompt waits for its background subagents, and ``turn_timeout`` and cancel cover them.
Against the fake's ``subagent*`` scenarios, and an agent played in memory for what the
fake does not send.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from proctable import children, group_members, settles

from agent_sdk import AgentOptions
from agent_sdk.errors import AgentTimeoutError
from agent_sdk.events import AssistantEvent, ToolCallStarted
from agent_sdk.live import (
    LiveAgent,
    LiveResult,
    RequestPermissionParams,
    SubagentEvent,
    SubagentSpawned,
    SubagentUpdate,
    TaskParams,
)
from agent_sdk.testing.memory_acp import MemoryAcpTransport, ScriptedAgent

pytestmark = pytest.mark.anyio

LIMIT = 30.0  # a hang guard, not a timing claim
SID = "4c1f9e2a-7b3d-4e8a-9f10-2d6b8c0a5e71"
CHILD = "9d2e0c4b-1a7f-4e3d-8b6a-5f0e2c9d1a33"
OTHER = "7b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d"


def spawned(child: str, call: str = "call-task-1") -> dict[str, Any]:
    meta = {"cursor": {"toolCallId": call, "agentId": child, "model": "gpt-5.4-mini-medium"}}
    return {
        "sessionUpdate": "subagent_spawned",
        "subagentSessionId": child,
        "name": "generalPurpose",
        "task": "Explore",
        "capabilities": {},
        "_meta": meta,
    }


def said(text: str) -> dict[str, Any]:
    return {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}


async def played(script: Any, **kwargs: Any) -> tuple[LiveResult, LiveAgent]:
    """One turn against an agent that plays ``script(a, prompt)`` then ends the turn."""

    async def agent(a: ScriptedAgent) -> None:
        await a.handshake()
        await a.reply(await a.expect("session/new"), {"sessionId": SID})
        prompt = await a.expect("session/prompt")
        await script(a, prompt)
        await a.reply(prompt, {"stopReason": "end_turn"})
        while True:
            await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(agent), **kwargs) as live:
        session = await live.new_session(cwd="/")
        with anyio.fail_after(LIMIT):
            return await session.send("go"), live


# --- turning it on (§3.1) ---------------------------------------------------------------
async def test_subagent_sessions_are_asked_for_only_when_wanted(options: AgentOptions) -> None:
    async with LiveAgent(options) as plain, LiveAgent(options, subagents=True) as asking:
        assert plain.initialize_result is not None
        assert asking.initialize_result is not None
        offered = asking.initialize_result.agent_capabilities.session_capabilities or {}
        not_offered = plain.initialize_result.agent_capabilities.session_capabilities or {}
    assert "subagents" in offered  # the agent read `_meta.subagents` (§3.1)
    assert "subagents" not in not_offered


async def test_the_capability_is_sent_in_meta_and_nothing_is_sent_by_default() -> None:
    sent: list[dict[str, Any]] = []

    async def agent(a: ScriptedAgent) -> None:
        sent.append((await a.handshake())["clientCapabilities"])
        await a.receive()

    for wanted in (False, True):
        async with LiveAgent(transport=MemoryAcpTransport(agent), subagents=wanted):
            pass
    assert "_meta" not in sent[0]
    assert sent[1]["_meta"] == {"subagents": True}
    assert "subagents" not in sent[1]  # the top-level placement does nothing (§3.1)


# --- which subagent said what (§3.13) -----------------------------------------------------
async def test_a_subagents_words_are_its_own_not_the_parents_reply(options: AgentOptions) -> None:
    async with LiveAgent(options, subagents=True) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:subagent")
    assert result.text == "Delegating. The repository has three files."
    [child] = result.subagents
    assert child.name == "generalPurpose"
    assert child.task == "List the files of the repository and say what each one does."
    assert child.state == "completed"
    assert child.text == "Three files: cart.py, test_cart.py, README.md."
    assert [call.kind for call in child.tool_calls] == ["search"]
    [task_call] = result.tool_calls  # the parent's: only the Task call
    assert child.tool_call_id == task_call.call_id
    assert task_call.started is not None
    assert task_call.started.extras["title"] == "Task: Explore the repository"
    marked = [e for e in result.events if isinstance(e, SubagentEvent)]
    assert marked
    assert {e.subagent_id for e in marked} == {child.session_id}
    assert [e.event for e in marked] == child.events
    assert all(
        e.session_id == child.session_id for e in child.events if isinstance(e, AssistantEvent)
    )


async def test_the_protocol_level_turn_marks_each_subagent_update(options: AgentOptions) -> None:
    async with LiveAgent(options, subagents=True) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            items = [item async for item in session.prompt("scenario:subagent")]
    [spawn] = [i for i in items if isinstance(i, SubagentSpawned)]
    theirs = [i for i in items if isinstance(i, SubagentUpdate)]
    assert theirs
    assert all(i.subagent_id == spawn.subagent_session_id for i in theirs)


async def test_without_the_capability_a_turn_shows_only_the_task_call(
    options: AgentOptions,
) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:subagent")
    assert result.subagents == []
    assert not any(isinstance(e, SubagentEvent) for e in result.events)
    assert [c.started.extras["title"] for c in result.tool_calls if c.started] == [
        "Task: Explore the repository"
    ]


async def test_a_subagents_updates_before_its_spawn_are_kept_for_it() -> None:
    async def script(a: ScriptedAgent, prompt: Any) -> None:
        await a.update(CHILD, said("early"))  # overtook the spawn
        await a.update(SID, spawned(CHILD))
        await a.update(CHILD, said(" then more"))
        await a.update(SID, {"sessionUpdate": "subagent_state_update", "state": "completed"})

    result, _ = await played(script, subagents=True)
    [child] = result.subagents
    assert (child.text, child.state) == ("early then more", "completed")
    assert result.text == ""


async def test_an_end_names_its_subagent_or_is_not_guessed_among_several() -> None:
    async def script(a: ScriptedAgent, prompt: Any) -> None:
        await a.update(SID, spawned(CHILD, "call-1"))
        await a.update(SID, spawned(OTHER, "call-2"))
        ended = {"sessionUpdate": "subagent_state_update", "state": "completed"}
        await a.update(SID, ended)  # which one? no guess
        await a.update(SID, {**ended, "subagentSessionId": OTHER, "state": "cancelled"})

    result, _ = await played(script, subagents=True)
    assert {c.session_id: c.state for c in result.subagents} == {CHILD: None, OTHER: "cancelled"}


async def test_a_subagents_permission_request_goes_to_the_permission_callback() -> None:
    asked: list[str] = []
    answers: list[dict[str, Any]] = []

    def permission(params: RequestPermissionParams) -> str:
        asked.append(params.session_id)
        return "allow_once"

    async def script(a: ScriptedAgent, prompt: Any) -> None:
        await a.update(SID, spawned(CHILD))
        tool_call = {"toolCallId": "c1", "title": "`ls`", "kind": "execute", "status": "pending"}
        options = [
            {"optionId": "allow-once", "name": "Allow once", "kind": "allow_once"},
            {"optionId": "reject-once", "name": "Reject", "kind": "reject_once"},
        ]
        params = {"sessionId": CHILD, "toolCall": tool_call, "options": options}
        answers.append(await a.answer(await a.request("session/request_permission", params)))

    await played(script, subagents=True, permission=permission)
    assert asked == [CHILD]
    assert answers[0]["result"]["outcome"] == {"outcome": "selected", "optionId": "allow-once"}


# --- cursor/task (§4) -----------------------------------------------------------------------
async def test_cursor_task_is_told_to_the_task_callback(options: AgentOptions) -> None:
    told: list[TaskParams] = []
    heard = anyio.Event()

    async def task(params: TaskParams) -> None:
        told.append(params)
        heard.set()

    async with LiveAgent(options, subagents=True, task=task) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:subagent")
            await heard.wait()  # answered in a task of its own: may come after the turn
    [params] = told
    assert params.tool_call_id == result.subagents[0].tool_call_id
    assert params.description == "Explore the repository"
    assert params.subagent_type == {"custom": {"unspecified": {}}}
    assert params.model == "gpt-5.4-mini-medium"
    assert params.agent_id != result.subagents[0].session_id


@pytest.mark.parametrize("behaviour", ["absent", "raises", "hangs"])
async def test_cursor_task_is_answered_empty_whatever_the_callback_does(behaviour: str) -> None:
    answers: list[dict[str, Any]] = []

    async def raises(params: TaskParams) -> None:
        raise LookupError("the callback's own bug")

    async def hangs(params: TaskParams) -> None:
        await anyio.sleep_forever()

    async def script(a: ScriptedAgent, prompt: Any) -> None:
        params = {"toolCallId": "call-task-1", "description": "d", "durationMs": 130}
        answers.append(await a.answer(await a.request("cursor/task", params)))

    callbacks = {"absent": None, "raises": raises, "hangs": hangs}
    _, agent = await played(script, task=callbacks[behaviour], decision_timeout=0.2)
    assert answers[0]["result"] == {}
    errors = [type(e) for e in agent.callback_errors]
    assert errors == ([LookupError] if behaviour == "raises" else [])


# --- background subagents hold the prompt (§3.6, §3.13) ------------------------------------
async def test_a_prompt_waits_for_its_background_subagent(options: AgentOptions) -> None:
    async with LiveAgent(options, subagents=True) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:subagent_background")
    [child] = result.subagents
    assert (child.state, child.text) == ("completed", "All 12 tests pass.")
    assert result.text.endswith(" The background check says all 12 pass.")


async def test_cancel_ends_a_turn_whose_background_subagent_never_finishes(
    options: AgentOptions,
) -> None:
    before = set(children())
    async with LiveAgent(options, subagents=True) as agent:
        session = await agent.new_session()
        turn = session.run("scenario:subagent_stuck")
        waiting = {"Watching.", " It runs in the background."}
        with anyio.fail_after(LIMIT):
            async for event in turn:
                inner = event.event if isinstance(event, SubagentEvent) else event
                if isinstance(inner, AssistantEvent):
                    waiting.discard(inner.new_text)
                    if not waiting:  # the subagent is stalled now
                        await turn.cancel()
        pid = agent.pid
    assert turn.result.cancelled
    assert [c.state for c in turn.result.subagents] == ["cancelled"]
    assert pid is not None
    assert settles(lambda: not group_members(pid))
    assert set(children()) <= before


async def test_turn_timeout_ends_a_turn_whose_background_subagent_never_finishes(
    options: AgentOptions,
) -> None:
    before = set(children())
    async with LiveAgent(options, subagents=True, turn_timeout=1.0) as agent:
        session = await agent.new_session()
        with pytest.raises(AgentTimeoutError, match="was cancelled"), anyio.fail_after(LIMIT):
            await session.send("scenario:subagent_stuck")
        with anyio.fail_after(LIMIT):
            assert (await session.send("hello")).stop_reason == "end_turn"  # still usable
        pid = agent.pid
    assert pid is not None
    assert settles(lambda: not group_members(pid))
    assert set(children()) <= before


async def test_a_spawn_is_an_event_of_the_parent_turn(options: AgentOptions) -> None:
    async with LiveAgent(options, subagents=True) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:subagent")
    kinds = [type(e) for e in result.events if not isinstance(e, SubagentEvent)]
    assert kinds.index(ToolCallStarted) < kinds.index(SubagentSpawned)
