"""Live turns against the fake (``fake-cursor-agent acp``): session updates bridged onto
agent_sdk events (docs/acp.md §3.9), tool calls among them (§3.10, §6).
Every wait is bounded by ``fail_after``; asyncio and trio both run.
"""

from __future__ import annotations

import anyio
import pytest
from fake_live import LIMIT

from agent_sdk import AgentOptions
from agent_sdk.events import ToolCallCompleted, ToolCallStarted
from agent_sdk.live import (
    AcpPlan,
    ConfigOptionUpdate,
    LiveAgent,
    UnknownUpdate,
    UsageUpdate,
)
from agent_sdk.tool_results import ShellSuccess
from agent_sdk.tools import ShellArgs

pytestmark = pytest.mark.anyio


# --- §3.9 updates ---------------------------------------------------------------------
async def test_plan_updates_replace_the_whole_plan(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:plan_updates")
    plans = [e for e in result.events if isinstance(e, AcpPlan)]
    assert len(plans) == 3
    assert result.plan == plans[-1]
    assert [e.status for e in plans[-1].entries] == ["completed", "completed"]


async def test_unknown_updates_pass_through_and_a_broken_line_is_recorded(
    options: AgentOptions,
) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:unknown_updates")
        diagnostics = [d.line for d in agent.diagnostics]
    unknown = [e for e in result.events if isinstance(e, UnknownUpdate)]
    assert [u.kind for u in unknown] == [
        "future_kind",
        "current_mode_update",  # a known kind in an unrecorded shape
    ]
    assert unknown[0].data == {"sessionUpdate": "future_kind", "payload": {"n": 1}}
    # Never seen from Cursor, typed in the v1 schema's shapes (§3.9).
    usage = [e for e in result.events if isinstance(e, UsageUpdate)]
    assert [(e.used, e.size, e.cost) for e in usage] == [(1200, 200000, None)]
    assert [e for e in result.events if isinstance(e, ConfigOptionUpdate)] == [
        ConfigOptionUpdate(config_options=[])
    ]
    assert diagnostics == [b'{"jsonrpc":"2.0","method":"session/upd']  # dropped (§1)
    assert session.current_mode_id == "agent"
    assert (result.text, result.stop_reason) == ("Still here.", "end_turn")


# --- §3.10 tool calls -----------------------------------------------------------------
async def test_an_execute_call_is_a_shell_tool_call(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:tools")
    calls = result.tool_calls
    assert len(calls) == 4
    assert all("\nfc_" in call.call_id for call in calls)  # ids keep their newline
    shell = calls[3]
    assert shell.kind == "shellToolCall"
    assert isinstance(shell.args, ShellArgs)
    assert shell.args.command == "ls tests"
    assert isinstance(shell.result, ShellSuccess)
    assert (shell.result.exit_code, shell.result.stdout) == (0, "test_cart.py\n")
    assert shell.status == "succeeded"
    assert shell.started is not None
    assert shell.started.extras["title"] == "`ls tests`"


async def test_other_kinds_keep_their_acp_name_and_title(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:tools")
    read, search, edit = result.tool_calls[:3]
    assert [c.kind for c in (read, search, edit)] == ["read", "search", "edit"]
    assert [c.status for c in (read, search, edit)] == ["succeeded"] * 3
    assert read.started is not None
    assert read.started.extras["title"] == "Read File"
    assert search.result == {"totalFiles": 3, "truncated": False}


async def test_a_resent_tool_call_is_one_tool_call(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:upsert")
    started = [e for e in result.events if isinstance(e, ToolCallStarted)]
    completed = [e for e in result.events if isinstance(e, ToolCallCompleted)]
    # Started again when re-sent, so its args are the real ones; one call all the same.
    assert (len(result.tool_calls), len(started), len(completed)) == (1, 2, 1)
    call = result.tool_calls[0]
    assert isinstance(call.result, ShellSuccess)
    assert (call.result.command, call.result.exit_code) == ("make test", 2)  # merged (§3.10)
    assert call.completed is not None
    assert call.completed.extras["title"] == "`make test`"


async def test_a_resent_tool_call_shows_its_real_arguments(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:upsert")
    args = result.tool_calls[0].args
    assert isinstance(args, ShellArgs)
    assert args.command == "make test"
