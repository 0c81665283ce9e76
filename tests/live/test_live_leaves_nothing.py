"""Nothing the agent started outlives the live agent (docs/lifecycle.md, "Everything the
CLI starts"), on the ACP fake's ``left_behind`` turn: a helper in its process group, a
daemon out of its tree, two background commands leading sessions of their own, and a
foreground command that holds the turn (fake_agent/scenarios/acp/README.md).
"""

from __future__ import annotations

from pathlib import Path

import anyio
import msgspec
import pytest
from pid_log import PidLog
from proctable import is_running, settles

from agent_sdk import AgentOptions
from agent_sdk.live import LiveAgent

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc"),
]

WITHIN = 10.0  # a bound on the kernel's delivery of SIGKILL, not a claim of speed
HELD = {"worker-server": 1, "daemon": 1, "background": 2, "shell": 1}


@pytest.fixture
def logged(options: AgentOptions, pid_log: PidLog) -> AgentOptions:
    return msgspec.structs.replace(options, env={**(options.env or {}), **pid_log.env()})


async def until_logged(log: PidLog) -> None:
    # A file another process writes: nothing to wait on but the next look.
    while not all(len(log.pids(role)) >= n for role, n in HELD.items()):  # noqa: ASYNC110
        await anyio.sleep(0.01)


def all_gone(log: PidLog) -> bool:
    pids = [pid for _, pid in log.read()]
    return settles(lambda: not any(is_running(pid) for pid in pids), within=WITHIN)


async def test_closing_the_agent_ends_what_its_turns_started(
    logged: AgentOptions, pid_log: PidLog
) -> None:
    async with LiveAgent(logged) as agent:
        session = await agent.new_session()
        async with anyio.create_task_group() as tg:
            tg.start_soon(session.send, "scenario:left_behind")
            await until_logged(pid_log)
            tg.cancel_scope.cancel()
    assert all_gone(pid_log)


async def test_cancelling_the_scope_around_the_agent_ends_what_it_started(
    logged: AgentOptions, pid_log: PidLog
) -> None:
    with anyio.CancelScope() as scope:
        async with LiveAgent(logged) as agent:
            session = await agent.new_session()
            async with anyio.create_task_group() as tg:
                tg.start_soon(session.send, "scenario:left_behind")
                await until_logged(pid_log)
                scope.cancel()
    assert all_gone(pid_log)


async def test_a_turns_cancel_ends_the_commands_it_started_and_spares_the_agents_helpers(
    logged: AgentOptions, pid_log: PidLog
) -> None:
    async with LiveAgent(logged) as agent:
        session = await agent.new_session()
        async with anyio.create_task_group() as tg:
            tg.start_soon(session.send, "scenario:left_behind")
            await until_logged(pid_log)
            await session.cancel()
        commands = pid_log.pids("shell") + pid_log.pids("background")
        assert settles(lambda: not any(is_running(pid) for pid in commands), within=WITHIN)
        helpers = pid_log.pids("worker-server") + pid_log.pids("daemon")
        assert all(is_running(pid) for pid in helpers)  # the agent's, not the turn's
        await session.send("scenario:hello")  # the session goes on
    assert all_gone(pid_log)
