"""The live agent's authentication against the fake (docs/acp.md §3.2): a stored login,
none (a LiveAuthError with a hint), an API key, which never reaches an error.
Every wait is bounded by ``fail_after``; the tests run on asyncio and on trio.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import anyio
import msgspec
import pytest
from fake_env import clean_env
from fake_live import LIMIT

from agent_sdk import AgentOptions
from agent_sdk.errors import AgentAuthError
from agent_sdk.live import (
    JsonRpcError,
    LiveAgent,
    LiveAuthError,
)

pytestmark = pytest.mark.anyio


@pytest.fixture
def logged_out(fake_binary: str, tmp_path: Path) -> AgentOptions:
    """A fake with no stored login: an empty config dir (§3.2)."""
    config = tmp_path / "config"
    config.mkdir()
    env = clean_env(FAKE_AGENT_REQUIRE_LOGIN="1", CURSOR_CONFIG_DIR=str(config))
    return AgentOptions(binary=fake_binary, cwd=tmp_path, env=env)


# --- §3.2 authenticate ----------------------------------------------------------------
async def test_authenticate_with_a_stored_login_succeeds(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        with anyio.fail_after(LIMIT):
            await agent.authenticate()
            session = await agent.new_session()
    assert session.session_id


@pytest.mark.parametrize("operation", ["new_session", "list_sessions", "load_session"])
async def test_not_logged_in_is_a_live_auth_error(logged_out: AgentOptions, operation: str) -> None:
    async with LiveAgent(logged_out) as agent:
        with pytest.raises(LiveAuthError) as caught, anyio.fail_after(LIMIT):
            if operation == "load_session":
                await agent.load_session(str(uuid.uuid4()), cwd="/tmp")
            else:
                await getattr(agent, operation)()
    error = caught.value
    assert isinstance(error, AgentAuthError)  # `except AgentAuthError` works live too
    assert error.code == -32000
    assert "agent login" in str(error.data)
    assert error.hint is not None
    assert "login" in error.hint


async def test_authenticate_without_a_login_fails_with_a_hint(logged_out: AgentOptions) -> None:
    async with LiveAgent(logged_out) as agent:
        with pytest.raises(JsonRpcError) as caught, anyio.fail_after(LIMIT):
            await agent.authenticate()  # NO_OPEN_BROWSER: fails instead of a browser (§3.2)
    assert caught.value.code == -32602
    assert "Failed to open browser" in str(caught.value)
    assert caught.value.hint is not None
    assert "cursor-agent login" in caught.value.hint


async def test_an_api_key_authenticates_without_authenticate(logged_out: AgentOptions) -> None:
    keyed = msgspec.structs.replace(logged_out, api_key="sk-live-key-0123456789abcdef")
    async with LiveAgent(keyed) as agent:
        with anyio.fail_after(LIMIT):
            session = await agent.new_session()
            result = await session.send("hello")
    assert result.stop_reason == "end_turn"


async def test_an_api_key_never_reaches_an_error(fake_binary: str, tmp_path: Path) -> None:
    key = "sk-secret-key-0123456789abcdef"
    path = tmp_path / "leak.ndjson"
    path.write_text(
        f'{{"fake":"stderr","text":"using key {key}"}}\n'
        f'{{"fake":"error","code":-32603,"message":"Internal error",'
        f'"data":{{"details":"Failed to initialize session services for {key}"}}}}\n'
    )
    env = clean_env(FAKE_AGENT_ACP_SCENARIO=str(path))
    options = AgentOptions(binary=fake_binary, cwd=tmp_path, env=env, api_key=key)
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with pytest.raises(JsonRpcError) as caught, anyio.fail_after(LIMIT):
            await session.send("go")
        assert key not in agent.stderr_tail()
    error = caught.value
    assert "Failed to initialize session services" in str(error)
    for text in (str(error), repr(error), error.hint or "", error.context.stderr or ""):
        assert key not in text
