"""The live agent's sessions against the fake (``fake-cursor-agent acp``): created
(docs/acp.md §3.3), loaded with their history and cwd (§3.4), listed (§3.5).
Every wait is bounded by ``fail_after``; the tests run on asyncio and on trio.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import anyio
import pytest
from fake_env import clean_env
from fake_live import LIMIT

from agent_sdk import AgentOptions
from agent_sdk.live import (
    AgentMessageChunk,
    AgentThoughtChunk,
    JsonRpcError,
    LiveAgent,
    UserMessageChunk,
)

pytestmark = pytest.mark.anyio


# --- §3.3 session/new -----------------------------------------------------------------
async def test_new_session_state_is_kept_on_the_session(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
    assert uuid.UUID(session.session_id).version == 4
    assert session.cwd == str(options.cwd)
    assert session.current_model_id == "default[]"
    assert "default[]" in [m.model_id for m in session.models]
    assert [c.id for c in session.config_options] == ["mode", "model"]
    assert session.history == []


async def test_an_http_mcp_entry_without_type_is_refused(options: AgentOptions) -> None:
    server = {"name": "docs", "url": "http://127.0.0.1:9/mcp", "headers": []}
    async with LiveAgent(options) as agent:
        with pytest.raises(JsonRpcError) as caught, anyio.fail_after(LIMIT):
            await agent.new_session(mcp_servers=[server])
        assert agent.sessions == []
    assert caught.value.code == -32603
    assert caught.value.method == "session/new"
    assert caught.value.data[0]["code"] == "invalid_union"


# --- §3.4 session/load ----------------------------------------------------------------
async def test_load_replays_history_into_the_session_not_a_turn(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            await session.send("hello there")
            loaded = await agent.load_session(session.session_id)
            after = await loaded.send("hello again")
    assert loaded.session_id == session.session_id  # the result has no sessionId (§3.4)
    assert [type(u) for u in loaded.history] == [
        UserMessageChunk,
        AgentThoughtChunk,  # the turn's two thought fragments, coalesced (§3.4)
        AgentMessageChunk,
        AgentMessageChunk,
    ]
    first = loaded.history[0]
    thought = loaded.history[1]
    assert isinstance(first, UserMessageChunk)
    assert isinstance(thought, AgentThoughtChunk)
    assert first.content.text == "hello there"
    assert thought.content.text == "The user wants a greeting."
    assert [m.id for m in loaded.modes] == ["agent", "plan", "ask"]
    assert after.text == "Hello! How can I help?"  # the replay was not part of this turn
    assert len(loaded.history) == 4


@pytest.mark.parametrize("which", ["never_prompted", "unknown"])
async def test_load_of_a_never_prompted_or_unknown_id_fails(
    options: AgentOptions, which: str
) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()  # never prompted: not persisted (§3.3)
        missing = session.session_id if which == "never_prompted" else str(uuid.uuid4())
        with pytest.raises(JsonRpcError) as caught, anyio.fail_after(LIMIT):
            await agent.load_session(missing, cwd=options.cwd)
    error = caught.value
    assert error.code == -32602
    assert error.method == "session/load"
    assert error.data == {"message": f'Session "{missing}" not found'}
    assert error.hint is not None
    assert "after it got a prompt" in error.hint


async def test_a_failed_load_leaves_an_open_session_usable(
    options: AgentOptions, tmp_path: Path
) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with pytest.raises(JsonRpcError), anyio.fail_after(LIMIT):
            await agent.load_session(session.session_id, cwd=tmp_path / "elsewhere")
        with anyio.fail_after(LIMIT):
            result = await session.send("hello")
        assert agent.sessions == [session]
    assert session.cwd == str(options.cwd)
    assert result.text == "Hello! How can I help?"  # its updates still reach it


async def test_load_with_another_cwd_rebinds_the_session(
    options: AgentOptions, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            await session.send("hello")
            loaded = await agent.load_session(session.session_id, cwd=elsewhere)
            listed = await agent.list_sessions()
    assert loaded.cwd == str(elsewhere)
    assert [(s.session_id, s.cwd) for s in listed] == [(session.session_id, str(elsewhere))]


async def test_load_in_a_new_process_uses_the_listed_cwd(fake_binary: str, tmp_path: Path) -> None:
    env = clean_env(CURSOR_CONFIG_DIR=str(tmp_path / "config"))
    made_in = tmp_path / "project"
    made_in.mkdir()
    async with LiveAgent(AgentOptions(binary=fake_binary, cwd=made_in, env=env)) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            await session.send("hello")
    other = AgentOptions(binary=fake_binary, cwd=tmp_path, env=env)
    async with LiveAgent(other) as agent:
        with anyio.fail_after(LIMIT):
            loaded = await agent.load_session(session.session_id)
    assert loaded.cwd == str(made_in)  # not options.cwd: no silent rebinding (§3.4)
    assert isinstance(loaded.history[0], UserMessageChunk)


# --- §3.5 session/list ----------------------------------------------------------------
async def test_list_is_newest_first_and_leaves_out_never_prompted(
    options: AgentOptions, tmp_path: Path
) -> None:
    async with LiveAgent(options) as agent:
        older = await agent.new_session(cwd=tmp_path / "a")
        newer = await agent.new_session(cwd=tmp_path / "b")
        unused = await agent.new_session(cwd=tmp_path / "a")
        with anyio.fail_after(LIMIT):
            await older.send("hello")
            await newer.send("hello")
            listed = await agent.list_sessions()
    assert [s.session_id for s in listed] == [newer.session_id, older.session_id]
    assert unused.session_id not in [s.session_id for s in listed]
    assert listed[0].cwd == str(tmp_path / "b")
    assert listed[0].title == "Say Hello"
    assert listed[0].updated_at


async def test_list_filters_by_cwd(options: AgentOptions, tmp_path: Path) -> None:
    async with LiveAgent(options) as agent:
        here = await agent.new_session(cwd=tmp_path / "a")
        there = await agent.new_session(cwd=tmp_path / "b")
        with anyio.fail_after(LIMIT):
            await here.send("hello")
            await there.send("hello")
            listed = await agent.list_sessions(cwd=tmp_path / "a")
    assert [s.session_id for s in listed] == [here.session_id]


async def test_list_is_refused_without_the_capability(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        assert agent.initialize_result is not None
        # A 2026.03 build: no sessionCapabilities.list, and session/list is -32601 (§3.5).
        agent.initialize_result.agent_capabilities.session_capabilities = None
        with pytest.raises(JsonRpcError) as caught:
            await agent.list_sessions()
    assert caught.value.code == -32601
    assert caught.value.hint is not None
