"""The live agent and the fake against the official ACP Python SDK
(``agent-client-protocol``, a test extra): an agent written with it drives a LiveAgent
(tests/live/official_agent.py, as a process, so the LiveAgent side runs on asyncio and on
trio), and its client drives the fake. The official SDK is asyncio-only: the client test
runs it under ``asyncio.run`` in a plain test.
"""

from __future__ import annotations

import asyncio
import stat
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from fake_env import ROOT, clean_env, fake_env

from agent_sdk import AgentOptions
from agent_sdk.live import LiveAgent, RequestPermissionParams, UsageUpdate

pytestmark = pytest.mark.anyio

LIMIT = 30.0  # only a broken client or agent waits this long
AGENT = Path(__file__).with_name("official_agent.py")


@pytest.fixture
def official(tmp_path: Path) -> AgentOptions:
    """Options whose binary is the official SDK's agent."""
    binary = tmp_path / "official-agent"
    binary.write_text(f"#!{sys.executable}\n" + AGENT.read_text(encoding="utf-8"))
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    return AgentOptions(binary=str(binary), cwd=tmp_path, env=clean_env())


async def test_an_agent_of_the_official_sdk_drives_a_live_agent(official: AgentOptions) -> None:
    asked: list[RequestPermissionParams] = []

    def allow(params: RequestPermissionParams) -> str:
        asked.append(params)
        return "allow_once"

    async with LiveAgent(official, permission=allow) as agent:
        with anyio.fail_after(LIMIT):
            session = await agent.new_session()
            model, fast = session.config_options
            await session.set_config_option("fast", True)
            await session.set_model("claude-sonnet-4-6")
            result = await session.send("list the files")
            (listed,) = await agent.list_sessions()
            loaded = await agent.load_session(listed.session_id)
    assert [g.group for g in model.groups] == ["openai", "anthropic"]
    assert [c.value for c in model.options] == ["gpt-5.4", "claude-opus-4-6", "claude-sonnet-4-6"]
    assert (fast.type, fast.current_value) == ("boolean", False)
    assert [o.current_value for o in session.config_options] == ["claude-sonnet-4-6", True]
    assert result.text == "Heard: list the files. Done."
    (call,) = result.tool_calls
    assert call.status == "succeeded"
    assert [p.tool_call.tool_call_id for p in asked] == ["call-1"]
    (usage,) = [e for e in result.events if isinstance(e, UsageUpdate)]
    assert (usage.used, usage.size, usage.cost and usage.cost.currency) == (1200, 200000, "EUR")
    assert (listed.title, listed.updated_at, listed.cwd) == (None, None, "/srv/repo")
    assert loaded.cwd == "/srv/repo"


# --- the official client drives the fake ---------------------------------------------------
class _Recorder:
    """The official SDK's client side: keeps the updates, allows each permission once."""

    def __init__(self) -> None:
        self.updates: list[Any] = []
        self.asked: list[Any] = []

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.updates.append(update)

    async def request_permission(self, tool_call: Any, **kwargs: Any) -> Any:
        from acp.schema import AllowedOutcome, RequestPermissionResponse

        self.asked.append(tool_call)
        outcome = AllowedOutcome(outcome="selected", option_id="allow-once")
        return RequestPermissionResponse(outcome=outcome)

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        return {"outcome": {"outcome": "cancelled"}}

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        return None


async def _drive_the_fake(recorder: _Recorder) -> dict[str, Any]:
    from acp import spawn_agent_process, text_block
    from acp.schema import ClientCapabilities, Implementation

    seen: dict[str, Any] = {}
    env = fake_env(FAKE_AGENT_ACP_SHAPES="v1")
    async with spawn_agent_process(
        recorder, sys.executable, "-m", "fake_agent", "acp", env=env, cwd=str(ROOT)
    ) as (conn, _process):
        init = await conn.initialize(
            protocol_version=1,
            client_capabilities=ClientCapabilities(),
            client_info=Implementation(name="official", version="0"),
        )
        seen["initialize"] = init
        session = await conn.new_session(cwd=str(ROOT), mcp_servers=[])
        seen["new"] = session
        opus = "claude-opus-4-6[thinking=true,context=200k,effort=high,fast=false]"
        seen["set"] = await conn.set_config_option(
            config_id="model", session_id=session.session_id, value=opus
        )
        seen["prompt"] = await conn.prompt(
            session_id=session.session_id, prompt=[text_block("scenario:permission go")]
        )
        seen["list"] = await conn.list_sessions()
    return seen


def test_the_official_client_drives_the_fake() -> None:
    recorder = _Recorder()
    seen = asyncio.run(asyncio.wait_for(_drive_the_fake(recorder), LIMIT))
    assert seen["initialize"].protocol_version == 1
    model = next(o for o in seen["new"].config_options if o.id == "model")
    assert [g.group for g in model.options] == ["auto", "openai", "anthropic", "cursor"]
    chosen = next(o for o in seen["set"].config_options if o.id == "model")
    assert chosen.current_value.startswith("claude-opus-4-6")
    assert seen["prompt"].stop_reason == "end_turn"
    assert len(recorder.asked) == 1
    kinds = [u.session_update for u in recorder.updates]
    assert "tool_call" in kinds
    assert kinds[-1] == "agent_message_chunk"
    (listed,) = seen["list"].sessions
    assert listed.session_id == seen["new"].session_id
