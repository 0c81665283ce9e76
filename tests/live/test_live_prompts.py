"""Live turns against the fake (``fake-cursor-agent acp``) through the public API:
prompts and their stop reasons (docs/acp.md §3.6), and cancel (§3.7).
Every wait is bounded by ``fail_after``; asyncio and trio both run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest
from fake_live import LIMIT, message, playing

from agent_sdk import AgentOptions
from agent_sdk.events import AssistantEvent, ThinkingDelta
from agent_sdk.live import (
    ContentBlock,
    JsonRpcError,
    LiveAgent,
    LiveSession,
    SessionInfoUpdate,
    UserMessageChunk,
)

pytestmark = pytest.mark.anyio


async def events_of(session: LiveSession, prompt: str) -> list[Any]:
    with anyio.fail_after(LIMIT):
        return [event async for event in session.run(prompt)]


# --- §3.6 session/prompt --------------------------------------------------------------
async def test_hello_is_bridged_onto_agent_sdk_events(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        turn = session.run("hello")
        with anyio.fail_after(LIMIT):
            events = [event async for event in turn]
    thinking = "".join(e.text for e in events if isinstance(e, ThinkingDelta))
    assert thinking == "The user wants a greeting."  # thoughts, always (§6)
    assert [e.new_text for e in events if isinstance(e, AssistantEvent)] == [
        "Hello",
        "! How can I help?",
    ]
    assert all(e.session_id == session.session_id for e in events if isinstance(e, AssistantEvent))
    assert [e.title for e in events if isinstance(e, SessionInfoUpdate)] == ["Say Hello"]
    assert not any(isinstance(e, UserMessageChunk) for e in events)  # never echoed live
    result = turn.result
    assert (result.text, result.stop_reason) == ("Hello! How can I help?", "end_turn")
    assert result.events == events


async def test_an_empty_prompt_ends_at_once(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        await events_of(session, "hello")  # the unsolicited command list is behind us
        with anyio.fail_after(LIMIT):
            result = await session.send("")
    assert (result.text, result.stop_reason, result.events) == ("", "end_turn", [])


async def test_content_blocks_beside_text_are_accepted(options: AgentOptions) -> None:
    blocks = [
        ContentBlock(type="text", text="hello"),
        ContentBlock(type="image", data="iVBORw0KGgo=", mime_type="image/png"),
        ContentBlock(type="resource_link", uri="file:///etc/hostname", name="hostname"),
    ]
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send(blocks)
    assert result.stop_reason == "end_turn"


@pytest.mark.parametrize("reason", ["max_tokens", "max_turn_requests", "refusal"])
async def test_documented_stop_reasons_decode(
    options: AgentOptions, tmp_path: Path, reason: str
) -> None:
    stop = msgspec.json.encode({"fake": "stop", "stopReason": reason}).decode()
    async with LiveAgent(playing(options, tmp_path, message("partial"), stop)) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("go")
    assert (result.text, result.stop_reason, result.cancelled) == ("partial", reason, False)


async def test_a_prompt_to_an_unknown_session_fails_with_a_hint(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        ghost = LiveSession(agent, "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10", str(options.cwd))
        with pytest.raises(JsonRpcError) as caught, anyio.fail_after(LIMIT):
            await ghost.send("hello")
    assert caught.value.code == -32603
    assert caught.value.data == {"details": f"Session {ghost.session_id} not found"}
    assert caught.value.method == "session/prompt"
    assert caught.value.hint is not None


# --- §3.7 cancel ----------------------------------------------------------------------
async def test_cancel_without_a_running_prompt_does_nothing(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            await session.cancel()
            result = await session.send("hello")
    assert result.stop_reason == "end_turn"


async def test_run_ends_cancelled_and_result_says_so(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        turn = session.run("scenario:slow")
        with anyio.fail_after(LIMIT):
            async for event in turn:
                if isinstance(event, AssistantEvent):  # "Working": it stalls now
                    await turn.cancel()
    assert (turn.result.text, turn.result.stop_reason) == ("Working", "cancelled")
    assert turn.result.cancelled
