"""A live session's modes and models against the fake (docs/acp.md §3.8): set and
followed by the session, a bad one refused with a hint, a model of the other id space a
LiveModelError.
Every wait is bounded by ``fail_after``; the tests run on asyncio and on trio.
"""

from __future__ import annotations

import anyio
import msgspec
import pytest
from fake_live import LIMIT

from agent_sdk import AgentOptions
from agent_sdk.errors import AgentModelError
from agent_sdk.live import (
    JsonRpcError,
    LiveAgent,
    LiveModelError,
)

pytestmark = pytest.mark.anyio


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
