"""``LiveAgent`` end to end against the fake's ACP mode (``fake-cursor-agent acp``).

Scenarios are chosen per prompt with a ``scenario:NAME`` token
(fake_agent/scenarios/acp/README.md). Every wait is bounded by ``fail_after``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from agent_sdk import AgentOptions
from agent_sdk.errors import (
    AgentNotFoundError,
    AgentProcessError,
    AgentProtocolError,
    AgentTimeoutError,
)
from agent_sdk.live import (
    AcpPlan,
    AcpToolCall,
    AcpToolCallUpdate,
    AgentMessageChunk,
    AgentThoughtChunk,
    CreatePlanParams,
    CreatePlanResult,
    JsonRpcError,
    LiveAgent,
    LiveSession,
    PromptResult,
    RequestPermissionParams,
    SessionInfoUpdate,
    UnknownUpdate,
)
from agent_sdk.live._requests import PlanAcceptedOutcome

pytestmark = pytest.mark.anyio

LIMIT = 30.0  # only a broken client or fake waits this long


async def collect(session: LiveSession, prompt: str) -> list[Any]:
    with anyio.fail_after(LIMIT):
        return [update async for update in session.prompt(prompt)]


def text_of(updates: Sequence[Any]) -> str:
    return "".join(u.content.text or "" for u in updates if isinstance(u, AgentMessageChunk))


async def test_hello_streams_typed_updates_then_the_stop_reason(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        assert agent.initialize_result is not None
        assert agent.initialize_result.protocol_version == 1
        session = await agent.new_session()
        assert [m.id for m in session.modes] == ["agent", "plan", "ask"]
        assert session.current_mode_id == "agent"
        updates = await collect(session, "hello")
    # The command list may land inside the first turn (it is unsolicited, §2 step 3).
    titles = [u.title for u in updates if isinstance(u, SessionInfoUpdate)]
    assert titles == ["Say Hello"]
    assert session.title == "Say Hello"
    assert any(isinstance(u, AgentThoughtChunk) for u in updates)
    assert text_of(updates) == "Hello! How can I help?"
    assert updates[-1] == PromptResult(stop_reason="end_turn")
    assert session.available_commands  # arrived unsolicited after session/new (§2 step 3)
    assert agent.diagnostics == []


async def test_permission_allow_runs_the_tool(options: AgentOptions) -> None:
    asked: list[RequestPermissionParams] = []

    async def allow(request: RequestPermissionParams) -> str:
        asked.append(request)
        await anyio.lowlevel.checkpoint()
        return "allow_once"

    async with LiveAgent(options, permission=allow) as agent:  # type: ignore[arg-type]
        session = await agent.new_session()
        updates = await collect(session, "scenario:permission")
    assert [o.kind for o in asked[0].options] == ["allow_once", "allow_always", "reject_once"]
    done = [u for u in updates if isinstance(u, AcpToolCallUpdate) and u.status == "completed"]
    assert done[0].raw_output["exitCode"] == 0
    assert "all 12 pass" in text_of(updates)
    assert updates[-1] == PromptResult(stop_reason="end_turn")


@pytest.mark.parametrize("how", ["default", "callback", "timeout", "bug"])
async def test_permission_reject_changes_the_outcome(options: AgentOptions, how: str) -> None:
    async def slow(request: RequestPermissionParams) -> str:
        await anyio.sleep(LIMIT)
        return "allow_once"

    def bug(request: RequestPermissionParams) -> str:
        raise RuntimeError("a bug in the callback")

    callback: Any = {"default": None, "callback": lambda r: "reject", "timeout": slow, "bug": bug}[
        how
    ]
    async with LiveAgent(options, permission=callback, decision_timeout=0.2) as agent:
        session = await agent.new_session()
        updates = await collect(session, "scenario:permission")
    calls = [u for u in updates if isinstance(u, AcpToolCall)]
    assert calls
    assert calls[0].raw_input == {"command": "pytest -q"}
    done = [u for u in updates if isinstance(u, AcpToolCallUpdate) and u.status == "completed"]
    assert done[0].raw_output is None  # rejected tools still end `completed` (§3.10)
    assert "rejected" in text_of(updates)
    assert updates[-1] == PromptResult(stop_reason="end_turn")
    assert len(agent.callback_errors) == (1 if how == "bug" else 0)


async def test_cancel_ends_a_slow_turn_and_the_session_stays_usable(
    options: AgentOptions,
) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        updates: list[Any] = []
        with anyio.fail_after(LIMIT):
            async for update in session.prompt("scenario:slow"):
                updates.append(update)
                if isinstance(update, AgentMessageChunk):  # "Working": now it stalls
                    await session.cancel()
        assert updates[-1] == PromptResult(stop_reason="cancelled")
        assert text_of(updates) == "Working"
        again = await collect(session, "hello")
        assert again[-1] == PromptResult(stop_reason="end_turn")


async def test_a_second_prompt_waits_for_the_first_in_order(options: AgentOptions) -> None:
    order: list[str] = []

    async def second(session: LiveSession) -> None:
        updates = await collect(session, "hello")
        order.append(f"second {updates[-1].stop_reason}")

    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            async with anyio.create_task_group() as tg:
                async for update in session.prompt("scenario:slow"):
                    if isinstance(update, AgentMessageChunk):  # stalled now
                        tg.start_soon(second, session)
                        await anyio.wait_all_tasks_blocked()
                        assert order == []  # queued behind the running turn
                        await session.cancel()
                    if isinstance(update, PromptResult):
                        order.append(f"first {update.stop_reason}")
    assert order == ["first cancelled", "second end_turn"]


async def test_a_prompt_error_is_raised_after_the_updates(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with pytest.raises(JsonRpcError) as caught, anyio.fail_after(LIMIT):
            await collect(session, "scenario:no_such_scenario")
        assert caught.value.code == -32603
        assert (await collect(session, "hello"))[-1].stop_reason == "end_turn"


async def test_closing_ends_the_process(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        pid = agent.pid
        assert pid is not None
    assert agent._process is not None
    assert agent._process.returncode == 0
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)


async def test_a_missing_binary_is_agent_not_found(tmp_path: Path) -> None:
    with pytest.raises(AgentNotFoundError):
        async with LiveAgent(AgentOptions(binary=tmp_path / "nope")):
            pass


async def test_cancel_answers_a_pending_permission_and_ends_the_turn(
    options: AgentOptions,
) -> None:
    asked = anyio.Event()

    async def undecided(request: RequestPermissionParams) -> str:
        asked.set()
        await anyio.sleep(LIMIT)  # cut short by cancel(): answered `cancelled` (§3.7)
        return "allow_once"

    async with LiveAgent(options, permission=undecided) as agent:  # type: ignore[arg-type]
        session = await agent.new_session()
        with anyio.fail_after(LIMIT / 2):
            updates: list[Any] = []
            async for update in session.prompt("scenario:permission"):
                updates.append(update)
                if isinstance(update, AcpToolCallUpdate) and update.status == "in_progress":
                    await asked.wait()
                    await session.cancel()
        assert updates[-1] == PromptResult(stop_reason="cancelled")
        assert not agent.callback_errors


def scenario(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "scenario.ndjson"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


async def test_a_broken_line_is_recorded_and_the_turn_goes_on(
    options: AgentOptions, tmp_path: Path
) -> None:
    path = scenario(
        tmp_path,
        '{"fake":"raw","text":"{\\"jsonrpc\\":\\"2.0\\",\\"meth"}',
        '{"sessionUpdate":"future_kind","used":1,"size":2}',
        '{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}',
    )
    env = {**(options.env or {}), "FAKE_AGENT_ACP_SCENARIO": path}
    async with LiveAgent(AgentOptions(binary=options.binary, cwd=options.cwd, env=env)) as agent:
        session = await agent.new_session()
        updates = await collect(session, "anything")
        assert [d.line for d in agent.diagnostics] == [b'{"jsonrpc":"2.0","meth']
    unknown = [u for u in updates if isinstance(u, UnknownUpdate)]
    assert unknown[0].kind == "future_kind"
    assert text_of(updates) == "ok"
    assert updates[-1] == PromptResult(stop_reason="end_turn")


async def test_the_agent_dying_mid_turn_raises_after_the_updates(
    options: AgentOptions, tmp_path: Path
) -> None:
    path = scenario(
        tmp_path,
        '{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"half"}}',
        '{"fake":"exit","code":3}',
    )
    env = {**(options.env or {}), "FAKE_AGENT_ACP_SCENARIO": path}
    seen: list[Any] = []
    async with LiveAgent(AgentOptions(binary=options.binary, cwd=options.cwd, env=env)) as agent:
        session = await agent.new_session()
        with pytest.raises(AgentProtocolError), anyio.fail_after(LIMIT):
            async for update in session.prompt("anything"):
                seen.append(update)
    assert text_of(seen) == "half"


async def test_a_start_failure_says_why(options: AgentOptions) -> None:
    bad = AgentOptions(binary=options.binary, cwd=options.cwd, env=options.env, model="nope")
    with pytest.raises(AgentProcessError) as caught, anyio.fail_after(LIMIT):
        async with LiveAgent(bad):
            pass
    assert caught.value.exit_code == 1
    assert "Cannot use this model: nope" in str(caught.value)


async def test_create_plan_is_answered_by_its_callback(options: AgentOptions) -> None:
    got: list[CreatePlanParams] = []

    def accept(params: CreatePlanParams) -> CreatePlanResult:
        got.append(params)
        return CreatePlanResult(outcome=PlanAcceptedOutcome())

    async with LiveAgent(options, create_plan=accept) as agent:
        session = await agent.new_session()
        updates = await collect(session, "scenario:create_plan")
    assert got[0].name == "Cart totals"
    assert [t.id for t in got[0].todos] == ["t1", "t2"]
    assert "Plan accepted." in text_of(updates)
    plans = [u for u in updates if isinstance(u, AcpPlan)]
    assert [e.content for e in plans[0].entries] == ["Add total()", "Test it"]


async def test_without_a_create_plan_callback_the_turn_goes_on(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:  # answered -32601, which is safe (§4)
        session = await agent.new_session()
        updates = await collect(session, "scenario:create_plan")
    assert "Plan accepted." not in text_of(updates)
    assert any(isinstance(u, AcpPlan) for u in updates)
    assert updates[-1] == PromptResult(stop_reason="end_turn")


async def test_turn_timeout_raises_and_cancels_the_turn(options: AgentOptions) -> None:
    async with LiveAgent(options, turn_timeout=0.5) as agent:
        session = await agent.new_session()
        with pytest.raises(AgentTimeoutError), anyio.fail_after(LIMIT):
            await collect(session, "scenario:slow")
        assert (await collect(session, "hello"))[-1] == PromptResult(stop_reason="end_turn")
