"""Budgets on real processes (docs/budgets.md), the fake agent playing a run with many
tool calls: the run stops at the call that goes over, its process group is gone, and the
blocking run_sync and a Session keep the same rules, on asyncio and trio."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from proctable import group_is_gone

from agent_sdk import (
    AgentBudgetError,
    AgentOptions,
    Budget,
    Event,
    Session,
    ToolCallStarted,
    run,
    run_sync,
)

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]


async def test_a_run_stops_at_the_tool_call_over_its_budget(fake_options: MakeOptions) -> None:
    seen: list[Event] = []
    options = fake_options("tools", budget=Budget(tool_calls=3))
    with pytest.raises(AgentBudgetError) as caught:
        async with run("go", options=options) as events:
            async for event in events:
                seen.append(event)
    starts = [e for e in seen if isinstance(e, ToolCallStarted)]
    assert len(starts) == 4
    assert seen[-1] is starts[-1]
    assert (caught.value.used, caught.value.allowed) == (4, 3)
    assert group_is_gone(events.pid)


async def test_a_session_stops_at_its_second_shell_command(fake_options: MakeOptions) -> None:
    options = fake_options("fix_tests", budget=Budget(tool_calls_by_kind={"shell": 1}))
    session = Session(options=options)
    with pytest.raises(AgentBudgetError) as caught:
        await session.send("fix the tests")
    assert (caught.value.kind, caught.value.used) == ("shell", 2)
    kinds = [call.kind for call in caught.value.tool_calls]
    assert kinds.count("shellToolCall") == 2
    assert kinds[-1] == "shellToolCall"
    assert session.session_id is not None


def test_run_sync_without_a_loop_keeps_the_budget(fake_options: MakeOptions) -> None:
    with pytest.raises(AgentBudgetError) as caught:
        run_sync("go", options=fake_options("tools", budget=Budget(tool_calls=1)))
    assert caught.value.used == 2
    assert isinstance(caught.value.events[-1], ToolCallStarted)
