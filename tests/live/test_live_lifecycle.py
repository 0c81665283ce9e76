"""The live agent's lifecycle against real processes of the fake: a soak of 100 mixed
sessions that leaves no process and no file descriptor behind; a turn that outlives
``turn_timeout`` and ignores its cancel ends the agent; an agent killed from outside
fails its turns with what it left; the body's own error leaves ``async with`` as itself.
"""

from __future__ import annotations

import gc
import os
import signal
from collections import Counter

import anyio
import pytest
from proctable import children, open_fds, settles

from agent_sdk import AgentOptions, AssistantEvent
from agent_sdk.errors import AgentProtocolError, AgentRetriableError, AgentTimeoutError
from agent_sdk.live import AgentState, LiveAgent, LiveSession, RequestPermissionParams, _control

pytestmark = pytest.mark.anyio

LIMIT = 30.0  # only a broken client or fake waits this long
AGENTS = 10
SESSIONS_PER_AGENT = 10


def allow_pytest(params: RequestPermissionParams) -> str:
    return "allow_once" if "pytest" in (params.tool_call.title or "") else "reject"


async def test_100_mixed_sessions_leave_no_process_and_no_fd(options: AgentOptions) -> None:
    async with LiveAgent(options) as warm:  # the loop's own fds, once
        await (await warm.new_session()).send("hello")
    gc.collect()
    fds_before, children_before = open_fds(), set(children())
    outcomes: Counter[str] = Counter()

    async def one_session(agent: LiveAgent, kind: int) -> None:
        session = await agent.new_session()
        if kind == 0:
            outcomes[(await session.send("hello")).stop_reason] += 1
        elif kind == 1:
            result = await session.send("scenario:permission")
            outcomes[f"tool {result.tool_calls[0].status}"] += 1
        elif kind == 2:
            turn = session.run("scenario:slow")
            async for event in turn:
                if isinstance(event, AssistantEvent):  # stalled now
                    await turn.cancel()
            outcomes[turn.result.stop_reason] += 1
        elif kind == 3:
            try:
                await session.send("scenario:backend_error")
            except AgentRetriableError:
                outcomes["backend error"] += 1
        elif kind == 4:  # a consumer that leaves a stalled turn behind
            with anyio.move_on_after(0.2):
                await session.send("scenario:slow")
            outcomes["abandoned"] += 1
        else:
            await session.send("hello")
            loaded = await agent.load_session(session.session_id)
            outcomes[f"loaded {bool(loaded.history)}"] += 1

    async def one_agent(index: int) -> None:
        try:
            async with LiveAgent(options, permission=allow_pytest) as agent:
                async with anyio.create_task_group() as tg:
                    for i in range(SESSIONS_PER_AGENT):
                        tg.start_soon(one_session, agent, (index + i) % 6)
                if index % 5 == 4:  # the body fails: the agent still goes
                    raise LookupError("the body's own error")
        except LookupError:
            outcomes["body error"] += 1

    with anyio.fail_after(120):  # a hang guard, not a timing claim
        async with anyio.create_task_group() as tg:
            for index in range(AGENTS):
                tg.start_soon(one_agent, index)
    gc.collect()

    assert sum(outcomes.values()) - outcomes["body error"] == AGENTS * SESSIONS_PER_AGENT
    assert outcomes["end_turn"] + outcomes["cancelled"] + outcomes["abandoned"] >= 40
    assert outcomes["tool succeeded"]
    assert outcomes["backend error"]
    assert outcomes["loaded True"]
    assert outcomes["body error"] == 2
    assert set(children()) == children_before
    assert open_fds() == fds_before


async def test_a_turn_that_ignores_its_cancel_ends_the_agent(
    options: AgentOptions, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_control, "CANCEL_GRACE", 0.5)
    async with LiveAgent(options, turn_timeout=0.5) as agent:
        session = await agent.new_session()
        turn = session.run("scenario:slow")
        with pytest.raises(AgentTimeoutError) as caught, anyio.fail_after(LIMIT):
            async for event in turn:
                if isinstance(event, AssistantEvent):  # stalled: now it hears nothing
                    assert agent.pid is not None
                    os.kill(agent.pid, signal.SIGSTOP)
        pid = agent.pid
        assert "the agent was ended" in str(caught.value)
        assert caught.value.session_id == session.session_id
        with pytest.raises(AgentProtocolError):
            await session.send("hello")
    assert pid is not None
    assert settles(lambda: not _exists(pid))


async def test_an_agent_killed_from_outside_fails_its_turn_with_its_exit(
    options: AgentOptions,
) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with pytest.raises(AgentProtocolError) as caught, anyio.fail_after(LIMIT):
            async for event in session.run("scenario:slow"):
                if isinstance(event, AssistantEvent):
                    assert agent.pid is not None
                    os.killpg(agent.pid, signal.SIGKILL)
        assert caught.value.exit_code == -signal.SIGKILL
        assert "LiveAgent" in (caught.value.hint or "")  # how to go on: a new one, load


async def test_the_bodys_error_leaves_async_with_as_itself(options: AgentOptions) -> None:
    agent = LiveAgent(options)
    with pytest.raises(LookupError, match="mine"):
        async with agent:
            await agent.new_session()
            raise LookupError("mine")
    assert agent.state is AgentState.ENDED
    assert agent.pid is not None
    assert settles(lambda: not _exists(agent.pid or 0))


async def test_cancelling_the_scope_around_a_turn_ends_the_agent_and_its_group(
    options: AgentOptions,
) -> None:
    agent = LiveAgent(options)
    session: LiveSession | None = None
    with anyio.fail_after(LIMIT), anyio.CancelScope() as scope:
        async with agent:
            session = await agent.new_session()
            async for event in session.run("scenario:slow"):
                if isinstance(event, AssistantEvent):  # stalled from here: cancel it
                    scope.cancel()
    assert scope.cancelled_caught
    assert session is not None
    assert agent.state is AgentState.ENDED
    assert agent.pid is not None
    assert settles(lambda: not _exists(agent.pid or 0))


def _exists(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    return True
