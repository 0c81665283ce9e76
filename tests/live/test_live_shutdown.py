"""Every way a LiveAgent ends, ends its process group, also when the agent ignores stdin
EOF (docs/acp.md §1, §2 step 7, §5.2 item 11): the fake's ``FAKE_AGENT_ACP_IGNORE_EOF=1``
stays alive after EOF and leaves a child in its group, so only the group's end ends it.
"""

from __future__ import annotations

import os
import signal

import anyio
import msgspec
import pytest
from fake_env import clean_env
from proctable import children, group_members, settles

from agent_sdk import AgentOptions, AssistantEvent
from agent_sdk.errors import AgentTimeoutError
from agent_sdk.live import LiveAgent, _control

pytestmark = pytest.mark.anyio

LIMIT = 30.0  # a hang guard, not a timing claim


@pytest.fixture
def stubborn(options: AgentOptions) -> AgentOptions:
    """The fake, ignoring stdin EOF."""
    return msgspec.structs.replace(options, env=clean_env(FAKE_AGENT_ACP_IGNORE_EOF="1"))


def left_nothing(pid: int | None, before: set[int]) -> bool:
    assert pid is not None
    return settles(lambda: not group_members(pid)) and set(children()) <= before


async def ended_soon(pid: int | None, before: set[int]) -> bool:
    """``left_nothing`` polled without blocking the loop, which may still be reaping the
    agent (its exit wait is bounded, so a loaded machine can leave that to a later turn)."""
    assert pid is not None
    with anyio.move_on_after(LIMIT):
        while group_members(pid) or not set(children()) <= before:  # noqa: ASYNC110 (polls /proc)
            await anyio.sleep(0.01)
        return True
    return False


async def test_leaving_async_with_ends_an_agent_that_ignores_eof(stubborn: AgentOptions) -> None:
    before = set(children())
    with anyio.fail_after(LIMIT):
        async with LiveAgent(stubborn) as agent:
            await (await agent.new_session()).send("hello")
    assert left_nothing(agent.pid, before)


async def test_the_bodys_error_ends_an_agent_that_ignores_eof(stubborn: AgentOptions) -> None:
    before = set(children())
    agent = LiveAgent(stubborn)
    with pytest.raises(LookupError), anyio.fail_after(LIMIT):
        async with agent:
            await agent.new_session()
            raise LookupError("the body's own error")
    assert left_nothing(agent.pid, before)


async def test_a_cancelled_scope_ends_an_agent_that_ignores_eof(stubborn: AgentOptions) -> None:
    before = set(children())
    agent = LiveAgent(stubborn)
    with anyio.move_on_after(LIMIT) as guard:
        async with agent:
            session = await agent.new_session()
            async for event in session.run("scenario:slow"):
                if isinstance(event, AssistantEvent):  # stalled now: cancel from outside
                    guard.cancel()
    assert guard.cancel_called
    assert left_nothing(agent.pid, before)


async def test_a_failed_start_ends_an_agent_that_ignores_eof(stubborn: AgentOptions) -> None:
    before = set(children())
    agent = LiveAgent(stubborn, request_timeout=0)  # initialize cannot be answered in time
    with pytest.raises(AgentTimeoutError), anyio.fail_after(LIMIT):
        async with agent:
            pass
    assert left_nothing(agent.pid, before)


async def test_a_turn_timeout_that_ends_the_agent_ends_its_group(
    stubborn: AgentOptions, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The agent is stopped once the turn streams, so it cannot answer the cancel: with a
    # zero grace, a running fake could still answer it first (seen once on trio).
    monkeypatch.setattr(_control, "CANCEL_GRACE", 0.2)
    before = set(children())
    with anyio.fail_after(LIMIT):
        async with LiveAgent(stubborn, turn_timeout=0.2) as agent:
            session = await agent.new_session()
            with pytest.raises(AgentTimeoutError, match="the agent was ended"):
                async for event in session.run("scenario:slow"):
                    if isinstance(event, AssistantEvent) and agent.pid is not None:
                        os.kill(agent.pid, signal.SIGSTOP)  # deaf to the cancel from now on
            assert await ended_soon(agent.pid, before)  # ended at once, not when leaving
