"""The live agent's handshake, authentication, sessions, modes and models against the fake
(``fake-cursor-agent acp``), section by section of docs/acp.md (§1-§3.8, §5.1).

Wire-level quirks the SDK never sends (a protocol version of 99, a wrong auth method, a
missing ``cwd``, ``session/cancel`` as a request) are the fake's, tested in
tests/fake/test_fake_acp_connection.py. Every wait is bounded by ``fail_after``; the tests
run on asyncio and on trio.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import anyio
import msgspec
import pytest
from fake_env import clean_env, install_fake

from agent_sdk import AgentOptions
from agent_sdk.errors import AgentAuthError, AgentModelError
from agent_sdk.live import (
    AgentMessageChunk,
    AgentThoughtChunk,
    JsonRpcError,
    LiveAgent,
    LiveAuthError,
    LiveModelError,
    UserMessageChunk,
)
from agent_sdk.live._errors import live_error
from agent_sdk.live._process import acp_invocation

pytestmark = pytest.mark.anyio

LIMIT = 30.0  # only a broken client or fake waits this long


@pytest.fixture
def logged_out(fake_binary: str, tmp_path: Path) -> AgentOptions:
    """A fake with no stored login: an empty config dir (§3.2)."""
    config = tmp_path / "config"
    config.mkdir()
    env = clean_env(FAKE_AGENT_REQUIRE_LOGIN="1", CURSOR_CONFIG_DIR=str(config))
    return AgentOptions(binary=fake_binary, cwd=tmp_path, env=env)


# --- §1 invocation --------------------------------------------------------------------
def test_global_options_go_before_acp_and_no_browser_opens() -> None:
    options = AgentOptions(force=True, model="gpt-5.4[]", api_key="sk-test-0123456789")
    invocation = acp_invocation(options, "/bin/agent", {})
    assert invocation.argv[0] == "/bin/agent"
    assert invocation.argv[-1] == "acp"  # global options before the subcommand (§1)
    assert "--force" in invocation.argv[1:-1]
    assert "--model=gpt-5.4[]" in invocation.argv[1:-1]
    assert not any("sk-test" in arg for arg in invocation.argv)  # the key goes in the env
    assert invocation.env is not None
    assert invocation.env["CURSOR_API_KEY"] == "sk-test-0123456789"
    assert invocation.env["NO_OPEN_BROWSER"] == "1"
    assert invocation.env["BROWSER"] == "true"


def test_the_agent_gets_no_inherited_node_options() -> None:
    # The same rule as print mode (docs/protocol.md §1, "Environment").
    inherited = {"PATH": "/usr/bin", "NODE_OPTIONS": "--no-experimental-fetch"}
    invocation = acp_invocation(AgentOptions(), "/bin/agent", inherited)
    assert invocation.env is not None
    assert "NODE_OPTIONS" not in invocation.env
    given = AgentOptions(env={"NODE_OPTIONS": "--max-old-space-size=8192"})
    kept = acp_invocation(given, "/bin/agent", inherited).env
    assert kept is not None
    assert kept["NODE_OPTIONS"] == "--max-old-space-size=8192"


async def test_the_agent_its_sessions_and_turns_carry_the_cli_version(
    fake_binary: str, tmp_path: Path
) -> None:
    # initialize says nothing of the version (§3.1): it is read from the install.
    agent_link = install_fake(tmp_path / "home", "2026.10.01-14929f9", fake_binary)
    options = AgentOptions(binary=str(agent_link), cwd=tmp_path, env=clean_env())
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("hello")
    assert agent.cli_version == "2026.10.01-14929f9"
    assert (session.cli_version, result.cli_version) == (agent.cli_version,) * 2


async def test_an_agent_outside_an_install_has_an_unknown_version(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("hello")
    assert (agent.cli_version, result.cli_version) == (None, None)


async def test_one_process_holds_many_sessions(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        first = await agent.new_session()
        second = await agent.new_session()
        with anyio.fail_after(LIMIT):
            one = await first.send("hello")
            two = await second.send("scenario:plan_updates")
        assert first.session_id != second.session_id
        assert agent.sessions == [first, second]
    assert (one.session_id, one.text) == (first.session_id, "Hello! How can I help?")
    assert (two.session_id, two.text) == (second.session_id, "Both steps are done.")


# --- §2 lifecycle, §3.1 initialize ----------------------------------------------------
async def test_initialize_result_is_decoded(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        result = agent.initialize_result
    assert result is not None
    caps = result.agent_capabilities
    assert caps.load_session is True
    assert caps.mcp_capabilities == {"http": True, "sse": True}
    assert caps.prompt_capabilities == {"audio": False, "embeddedContext": False, "image": True}
    assert caps.session_capabilities == {"list": {}}
    assert [m.id for m in result.auth_methods] == ["cursor_login"]
    assert "agent login" in (result.auth_methods[0].description or "")


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


# --- §3.8 modes and models ------------------------------------------------------------
async def test_set_mode_is_followed_by_the_session(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            await session.set_mode("plan")
            plan = session.current_mode_id
            options_after = await session.set_config_option("mode", "ask")
    assert plan == "plan"
    assert session.current_mode_id == "ask"
    assert [o.current_value for o in options_after if o.id == "mode"] == ["ask"]


async def test_a_bad_mode_is_an_internal_error_with_a_hint(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with pytest.raises(JsonRpcError) as caught, anyio.fail_after(LIMIT):
            await session.set_mode("yolo")
    assert caught.value.code == -32603
    assert "Invalid mode ID: yolo" in str(caught.value)
    assert caught.value.hint is not None
    assert "LiveSession.modes" in caught.value.hint
    assert session.current_mode_id == "agent"


async def test_set_config_option_returns_the_full_list(options: AgentOptions) -> None:
    model = "gpt-5.4[reasoning=medium,context=272k,fast=false]"
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            refreshed = await session.set_config_option("model", model)
    assert [o.id for o in refreshed] == ["mode", "model"]
    assert refreshed[1].current_value == model
    assert session.current_model_id == model
    assert session.config_options == refreshed


async def test_set_model_keeps_the_current_model(options: AgentOptions) -> None:
    model = "composer-1.5[]"
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            await session.set_model(model)
    assert session.current_model_id == model


@pytest.mark.parametrize("model", ["default", "gpt-5.4", "no-such-model[]"])
async def test_a_model_of_the_other_space_is_a_live_model_error(
    options: AgentOptions, model: str
) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with pytest.raises(LiveModelError) as caught, anyio.fail_after(LIMIT):
            await session.set_model(model)  # bare ids against a bracketed list (§3.8)
    error = caught.value
    assert isinstance(error, AgentModelError)
    assert error.code == -32602
    assert f"Invalid model value: {model}" in str(error)
    assert error.hint is not None
    assert session.current_model_id == "default[]"


async def test_an_unknown_config_option_is_not_a_model_error(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with pytest.raises(JsonRpcError) as caught, anyio.fail_after(LIMIT):
            await session.set_config_option("effort", "high")
    assert caught.value.code == -32602
    assert not isinstance(caught.value, LiveModelError)


async def test_an_unusable_model_at_spawn_is_an_agent_model_error(
    options: AgentOptions,
) -> None:
    bad = msgspec.structs.replace(options, model="gpt-99")
    with pytest.raises(AgentModelError) as caught, anyio.fail_after(LIMIT):
        async with LiveAgent(bad):
            pass
    assert caught.value.exit_code == 1  # exits 1 at spawn (§1, §5.2 item 8)
    assert "gpt-99" in str(caught.value)


# --- failures reported in 2026.10 (docs/protocol.md §5), known by their words -----------
@pytest.mark.parametrize("code", [-32603, -32000, 1])  # the codes are unknown
def test_the_keychain_failure_of_authenticate_is_a_live_auth_error(code: int) -> None:
    said = JsonRpcError(code, 'Failed to save the "cursor-access-token" credential')
    error = live_error(said, "authenticate", session_id=None, stderr="")
    assert isinstance(error, LiveAuthError)
    assert isinstance(error, AgentAuthError)
    assert error.hint is not None
    assert "HOME" in error.hint
    assert "AGENT_CLI_CREDENTIAL_STORE=file" in error.hint


@pytest.mark.parametrize("code", [-32602, -32603])
def test_a_named_model_on_a_free_plan_is_a_live_model_error(code: int) -> None:
    said = JsonRpcError(code, "Named models unavailable Free plans can only use Auto")
    error = live_error(said, "session/set_model", session_id="s", stderr="")
    assert isinstance(error, LiveModelError)
    assert isinstance(error, AgentModelError)
    assert error.hint is not None
    assert "Auto" in error.hint
