"""The shapes the ACP v1 schema allows in what the CLI sends, though Cursor was not seen to
send them (docs/acp.md §3.1, §3.5, §3.8, §3.9): each decodes; a shape the schema does not
allow fails its call with an ``AgentProtocolError``, never a raw ``msgspec`` error. Played
by an agent in memory (``agent_sdk.testing.memory_acp``), then end to end by the fake in
its v1 shapes (``FAKE_AGENT_ACP_SHAPES=v1``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from fake_env import clean_env

from agent_sdk import AgentOptions
from agent_sdk.errors import AgentProtocolError
from agent_sdk.live import LiveAgent, LiveSession, SessionInfoUpdate, UsageUpdate
from agent_sdk.live._jsonrpc import decode
from agent_sdk.live._messages import ListSessionsResult
from agent_sdk.testing.memory_acp import MemoryAcpTransport, ScriptedAgent

pytestmark = pytest.mark.anyio

LIMIT = 10.0
SID = "4c1f9e2a-7b3d-4e8a-9f10-2d6b8c0a5e71"
OLD = "0b9c6e1d-2a4f-4b8e-8c3d-5e7f9a1b2c4d"

GROUPED_MODEL = {
    "id": "model",
    "name": "Model",
    "category": "model",
    "type": "select",
    "currentValue": "gpt-5.4",
    "options": [
        {
            "group": "openai",
            "name": "OpenAI",
            "options": [{"value": "gpt-5.4", "name": "GPT-5.4"}],
        },
        {
            "group": "anthropic",
            "name": "Anthropic",
            "options": [
                {"value": "claude-opus-4-6", "name": "Opus 4.6", "description": "deep"},
                {"value": "claude-sonnet-4-6", "name": "Sonnet 4.6"},
            ],
        },
    ],
}
BOOLEAN_FAST = {
    "id": "fast",
    "name": "Fast",
    "description": None,
    "category": None,
    "type": "boolean",
    "currentValue": False,
}


async def played(script: Any) -> MemoryAcpTransport:
    """A transport whose agent plays ``script``, then reads until the client goes."""

    async def agent(a: ScriptedAgent) -> None:
        await script(a)
        while True:
            await a.receive()

    return MemoryAcpTransport(agent)


def opened(options: list[dict[str, Any]]) -> Any:
    """An agent whose ``session/new`` answers these ``configOptions``."""

    async def script(a: ScriptedAgent) -> None:
        await a.handshake()
        result = {"sessionId": SID, "configOptions": options}
        await a.reply(await a.expect("session/new"), result)

    return script


def sent_config_options(transport: MemoryAcpTransport) -> list[dict[str, Any]]:
    received = transport.agent.received
    return [m for m in received if m.get("method") == "session/set_config_option"]


async def new_session(agent: LiveAgent) -> LiveSession:
    with anyio.fail_after(LIMIT):
        return await agent.new_session(cwd="/")


# --- §3.8 grouped select options, boolean options --------------------------------------
async def test_grouped_select_options_decode_with_their_groups() -> None:
    async with LiveAgent(transport=await played(opened([GROUPED_MODEL]))) as agent:
        session = await new_session(agent)
    (option,) = session.config_options
    assert [group.group for group in option.groups] == ["openai", "anthropic"]
    assert [group.name for group in option.groups] == ["OpenAI", "Anthropic"]
    assert [choice.value for choice in option.options] == [
        "gpt-5.4",
        "claude-opus-4-6",
        "claude-sonnet-4-6",
    ]
    assert [choice.group for choice in option.options] == ["openai", "anthropic", "anthropic"]
    assert option.options[1].description == "deep"
    assert session.current_model_id == "gpt-5.4"


async def test_flat_select_options_have_no_groups() -> None:
    flat = {**GROUPED_MODEL, "options": [{"value": "gpt-5.4", "name": "GPT-5.4"}]}
    async with LiveAgent(transport=await played(opened([flat]))) as agent:
        session = await new_session(agent)
    (option,) = session.config_options
    assert option.groups == []
    assert [(c.value, c.group) for c in option.options] == [("gpt-5.4", None)]


async def test_a_boolean_option_with_null_description_and_category_decodes() -> None:
    async with LiveAgent(transport=await played(opened([BOOLEAN_FAST]))) as agent:
        session = await new_session(agent)
    (option,) = session.config_options
    assert (option.id, option.type, option.current_value) == ("fast", "boolean", False)
    assert (option.description, option.category, option.options) == (None, None, [])


async def test_set_config_option_sends_a_boolean_as_the_schema_says() -> None:
    turned_on = {**BOOLEAN_FAST, "currentValue": True}

    async def script(a: ScriptedAgent) -> None:
        await opened([BOOLEAN_FAST])(a)
        request = await a.expect("session/set_config_option")
        await a.reply(request, {"configOptions": [turned_on]})

    transport = await played(script)
    async with LiveAgent(transport=transport) as agent:
        session = await new_session(agent)
        with anyio.fail_after(LIMIT):
            options = await session.set_config_option("fast", True)
    (sent,) = sent_config_options(transport)
    assert sent["params"] == {
        "sessionId": SID,
        "configId": "fast",
        "type": "boolean",
        "value": True,
    }
    assert options[0].current_value is True


async def test_set_config_option_sends_a_select_value_without_a_type() -> None:
    async def script(a: ScriptedAgent) -> None:
        await opened([GROUPED_MODEL])(a)
        request = await a.expect("session/set_config_option")
        chosen = {**GROUPED_MODEL, "currentValue": "claude-opus-4-6"}
        await a.reply(request, {"configOptions": [chosen]})

    transport = await played(script)
    async with LiveAgent(transport=transport) as agent:
        session = await new_session(agent)
        with anyio.fail_after(LIMIT):
            await session.set_model("claude-opus-4-6")
    (sent,) = sent_config_options(transport)
    assert sent["params"] == {"sessionId": SID, "configId": "model", "value": "claude-opus-4-6"}
    assert session.current_model_id == "claude-opus-4-6"


async def test_an_option_of_a_type_the_schema_does_not_have_yet_is_kept() -> None:
    future = {"id": "effort", "name": "Effort", "type": "slider", "currentValue": 3}
    async with LiveAgent(transport=await played(opened([future]))) as agent:
        session = await new_session(agent)
    (option,) = session.config_options
    assert (option.type, option.current_value, option.options) == ("slider", 3, [])


@pytest.mark.parametrize(
    "bad",
    [
        {**GROUPED_MODEL, "options": "gpt-5.4"},
        {**GROUPED_MODEL, "options": [{"group": "openai", "name": "OpenAI", "options": 7}]},
        {**GROUPED_MODEL, "options": [{"name": "no value"}]},
        {**GROUPED_MODEL, "options": [{"group": "openai", "name": "OpenAI", "options": [{}]}]},
        {**BOOLEAN_FAST, "name": 5},
    ],
    ids=[
        "options-not-a-list",
        "group-options-not-a-list",
        "choice-without-value",
        "grouped-choice-without-value",
        "name-not-a-string",
    ],
)
async def test_a_config_option_the_schema_does_not_allow_is_a_protocol_error(
    bad: dict[str, Any],
) -> None:
    async with LiveAgent(transport=await played(opened([bad]))) as agent:
        with pytest.raises(AgentProtocolError) as caught, anyio.fail_after(LIMIT):
            await agent.new_session(cwd="/")
    assert "session/new" in str(caught.value)
    assert caught.value.hint is not None


# --- §3.5 session/list ------------------------------------------------------------------
LISTED = [
    {"sessionId": SID, "cwd": "/repo", "title": None, "updatedAt": None},
    {
        "sessionId": OLD,
        "cwd": "/repo",
        "additionalDirectories": ["/lib"],
        "_meta": {"pinned": True},
    },
]


def listing(result: dict[str, Any]) -> Any:
    async def script(a: ScriptedAgent) -> None:
        await a.handshake()
        await a.reply(await a.expect("session/list"), result)

    return script


async def test_session_list_entries_may_have_null_or_missing_titles_and_times() -> None:
    result = {"sessions": LISTED, "nextCursor": None, "_meta": {}}
    async with LiveAgent(transport=await played(listing(result))) as agent:
        with anyio.fail_after(LIMIT):
            sessions = await agent.list_sessions()
    assert [(s.session_id, s.title, s.updated_at) for s in sessions] == [
        (SID, None, None),
        (OLD, None, None),
    ]
    assert sessions[1].additional_directories == ["/lib"]
    assert sessions[1].meta == {"pinned": True}


def test_a_session_list_result_keeps_its_next_cursor() -> None:
    raw = json.dumps({"sessions": LISTED, "nextCursor": "page-2"}).encode()
    result = decode(raw, ListSessionsResult)
    assert result.next_cursor == "page-2"
    assert [s.session_id for s in result.sessions] == [SID, OLD]


async def test_load_session_finds_its_cwd_in_a_list_with_null_titles() -> None:
    async def script(a: ScriptedAgent) -> None:
        await a.handshake()
        await a.reply(await a.expect("session/list"), {"sessions": LISTED})
        load = await a.expect("session/load")
        assert load["params"]["cwd"] == "/repo"
        await a.reply(load, {})

    async with LiveAgent(transport=await played(script)) as agent:
        with anyio.fail_after(LIMIT):
            session = await agent.load_session(SID)
    assert session.cwd == "/repo"


async def test_a_session_list_entry_without_a_session_id_is_a_protocol_error() -> None:
    result = {"sessions": [{"cwd": "/repo", "title": "no id"}]}
    async with LiveAgent(transport=await played(listing(result))) as agent:
        with pytest.raises(AgentProtocolError) as caught, anyio.fail_after(LIMIT):
            await agent.list_sessions()
    assert "session/list" in str(caught.value)


# --- §3.1 initialize --------------------------------------------------------------------
async def test_initialize_accepts_the_v1_capabilities_and_auth_methods_cursor_lacks() -> None:
    result = {
        "protocolVersion": 1,
        "agentCapabilities": {
            "loadSession": True,
            "sessionCapabilities": {
                "list": {},
                "resume": {},
                "close": {},
                "delete": {},
                "additionalDirectories": {},
            },
            "auth": {"logout": {}},
            "_meta": {"x": 1},
        },
        "authMethods": [
            {"id": "cursor_login", "name": "Cursor Login", "description": None},
            {"type": "terminal", "id": "tty", "name": "In a terminal", "args": ["login"]},
            {"type": "env_var", "id": "key", "name": "API key", "varName": "CURSOR_API_KEY"},
        ],
        "agentInfo": {"name": "cursor-agent", "version": "2026.10.01"},
        "_meta": None,
    }

    async def script(a: ScriptedAgent) -> None:
        await a.reply(await a.expect("initialize"), result)

    async with LiveAgent(transport=await played(script)) as agent:
        decoded = agent.initialize_result
    assert decoded is not None
    assert [(m.id, m.type) for m in decoded.auth_methods] == [
        ("cursor_login", None),
        ("tty", "terminal"),
        ("key", "env_var"),
    ]
    assert decoded.agent_capabilities.auth == {"logout": {}}


# --- §3.9 session_info_update, usage_update ---------------------------------------------
def during_a_turn(*updates: dict[str, Any]) -> Any:
    async def script(a: ScriptedAgent) -> None:
        await opened([])(a)
        prompt = await a.expect("session/prompt")
        for update in updates:
            await a.update(SID, update)
        await a.reply(prompt, {"stopReason": "end_turn"})

    return script


async def test_a_null_session_title_clears_it_and_a_missing_one_keeps_it() -> None:
    script = during_a_turn(
        {"sessionUpdate": "session_info_update", "title": "Run Tests"},
        {"sessionUpdate": "session_info_update", "updatedAt": "2026-11-25T10:00:00Z"},
    )
    async with LiveAgent(transport=await played(script)) as agent:
        session = await new_session(agent)
        with anyio.fail_after(LIMIT):
            await session.send("go")
    assert session.title == "Run Tests"

    script = during_a_turn(
        {"sessionUpdate": "session_info_update", "title": "Run Tests"},
        {"sessionUpdate": "session_info_update", "title": None},
    )
    async with LiveAgent(transport=await played(script)) as agent:
        session = await new_session(agent)
        with anyio.fail_after(LIMIT):
            updates = [u async for u in session.prompt("go")]
    assert session.title is None
    infos = [u for u in updates if isinstance(u, SessionInfoUpdate)]
    assert [u.title for u in infos] == ["Run Tests", None]


async def test_a_usage_update_decodes_with_its_cost() -> None:
    script = during_a_turn(
        {"sessionUpdate": "usage_update", "used": 1200, "size": 200000},
        {
            "sessionUpdate": "usage_update",
            "used": 5400,
            "size": 200000,
            "cost": {"amount": 0.042, "currency": "USD"},
        },
    )
    async with LiveAgent(transport=await played(script)) as agent:
        session = await new_session(agent)
        with anyio.fail_after(LIMIT):
            updates = [u async for u in session.prompt("go")]
    usage = [u for u in updates if isinstance(u, UsageUpdate)]
    assert [(u.used, u.size) for u in usage] == [(1200, 200000), (5400, 200000)]
    assert usage[0].cost is None
    assert usage[1].cost is not None
    assert (usage[1].cost.amount, usage[1].cost.currency) == (0.042, "USD")


# --- against the fake in the v1 schema's shapes (FAKE_AGENT_ACP_SHAPES=v1) --------------
@pytest.fixture
def v1_fake(fake_binary: str, tmp_path: Path) -> AgentOptions:
    env = clean_env(FAKE_AGENT_ACP_SHAPES="v1")
    return AgentOptions(binary=fake_binary, cwd=tmp_path, env=env)


async def test_the_fakes_v1_shapes_decode_end_to_end(v1_fake: AgentOptions) -> None:
    async with LiveAgent(v1_fake) as agent:
        with anyio.fail_after(30.0):
            session = await agent.new_session()
            model = next(o for o in session.config_options if o.id == "model")
            await session.set_model(model.options[-1].value)
            result = await session.send("scenario:v1_shapes")
            (listed,) = await agent.list_sessions()
            loaded = await agent.load_session(session.session_id)
    assert [g.group for g in model.groups] == ["auto", "openai", "anthropic", "cursor"]
    assert model.options[-1].group == "cursor"
    assert session.current_model_id == model.options[-1].value
    usage = [e for e in result.events if isinstance(e, UsageUpdate)]
    assert [u.used for u in usage] == [1200, 5400]
    assert session.title is None  # the scenario cleared it
    assert (listed.session_id, listed.title) == (session.session_id, None)
    assert loaded.cwd == listed.cwd
