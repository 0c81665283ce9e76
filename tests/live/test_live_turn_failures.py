"""Live turns against the fake (``fake-cursor-agent acp``) that fail (docs/acp.md §5.2): a
backend error after the events, an agent that dies, its session loaded again.
Every wait is bounded by ``fail_after``; asyncio and trio both run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from fake_env import clean_env
from fake_live import LIMIT

from agent_sdk import AgentOptions
from agent_sdk.errors import AgentProtocolError, AgentRetriableError
from agent_sdk.events import AssistantEvent
from agent_sdk.live import (
    AgentMessageChunk,
    LiveAgent,
)

pytestmark = pytest.mark.anyio


async def test_a_backend_error_is_raised_after_the_events(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        seen: list[Any] = []
        with pytest.raises(AgentRetriableError) as caught, anyio.fail_after(LIMIT):
            async for event in session.run("scenario:backend_error"):
                seen.append(event)
        with anyio.fail_after(LIMIT):
            again = await session.send("hello")  # the session is still usable
    assert next(e.new_text for e in seen if isinstance(e, AssistantEvent)) == "Let me check"
    assert "[unavailable] Connection stalled" in str(caught.value)
    assert caught.value.context.session_id == session.session_id
    assert again.stop_reason == "end_turn"


async def test_send_raises_a_backend_error(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with pytest.raises(AgentRetriableError), anyio.fail_after(LIMIT):
            await session.send("scenario:backend_error")


async def test_a_dead_agent_is_a_protocol_error_and_the_session_loads_again(
    fake_binary: str, tmp_path: Path
) -> None:
    env = clean_env(CURSOR_CONFIG_DIR=str(tmp_path / "config"))
    options = AgentOptions(binary=fake_binary, cwd=tmp_path, env=env)
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            await session.send("hello")
        with pytest.raises(AgentProtocolError) as caught, anyio.fail_after(LIMIT):
            await session.send("scenario:crash")
    assert caught.value.hint is not None
    assert "load the session" in caught.value.hint
    async with LiveAgent(options) as agent:  # §5.2 item 9: a new process loads it
        with anyio.fail_after(LIMIT):
            loaded = await agent.load_session(session.session_id)
            again = await loaded.send("hello")
    replayed = "".join(
        u.content.text or "" for u in loaded.history if isinstance(u, AgentMessageChunk)
    )
    assert replayed.startswith("Hello! How can I help?")  # the conversation, not the turn
    assert again.stop_reason == "end_turn"


async def test_a_dead_agent_error_says_its_exit_code(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with pytest.raises(AgentProtocolError) as caught, anyio.fail_after(LIMIT):
            await session.send("scenario:crash")
    assert caught.value.context.exit_code == 3
    assert "exit 3" in str(caught.value)
