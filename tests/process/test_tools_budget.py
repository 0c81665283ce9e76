"""A budget over the run's own tools (docs/budgets.md, "Your own tools"), end to end on the
fake: the host consults the budget before it runs a call, so a call over the limit is
answered with a tool error and never runs in Python, however far behind the program reads
the stream; a call within it runs once and is counted once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from extend_env import CONFIG, UserHome, short_temp_dir, write_scenario

from agent_sdk import AgentBudgetError, AgentOptions, Budget, Event, run, run_async
from agent_sdk.events import ToolCallStarted
from agent_sdk.extend import tool

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]
LIMIT = 60.0  # only a broken run waits this long


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_temp_dir(monkeypatch, "budget-", tmpdir_env=True) as where:
        yield where


def calls_then_marker(calls: int, marker: Path) -> list[dict[str, Any]]:
    """``calls`` calls of ``lookup``, then a shell command that writes ``marker``."""
    steps: list[dict[str, Any]] = [
        {"type": "system", "subtype": "init", "session_id": "s-1", "model": "m"},
    ]
    for number in range(calls):
        steps.append(
            {
                "fake": "mcp_call",
                "server": "agent_sdk",
                "tool": "lookup",
                "args": {"number": number},
                "call_id": f"call_{number}",
            }
        )
    steps.append({"fake": "shell", "command": f"touch {marker}"})
    steps.append(
        {"type": "result", "subtype": "success", "is_error": False, "result": "done",
         "session_id": "s-1"}
    )  # fmt: skip
    return steps


async def until_made(marker: Path) -> None:
    """Wait until the fake wrote ``marker`` (after its last call of ours)."""
    while not await anyio.Path(marker).exists():  # noqa: ASYNC110 (another process writes it)
        await anyio.sleep(0.05)


@pytest.fixture
def ran() -> list[int]:
    return []


@pytest.fixture
def options(fake_binary: str, temp_dir: Path, ran: list[int]) -> MakeOptions:
    @tool
    def lookup(number: int) -> str:
        """Look a number up."""
        ran.append(number)
        return f"number {number}"

    def make(steps: list[dict[str, Any]], **kwargs: Any) -> AgentOptions:
        user = UserHome(temp_dir, CONFIG)
        workspace = temp_dir / "ws"
        workspace.mkdir()
        scenario = write_scenario(temp_dir / "scenario.ndjson", steps)
        return AgentOptions(
            binary=fake_binary,
            cwd=workspace,
            env=user.run_env(FAKE_AGENT_SCENARIO=str(scenario)),
            tools=[lookup],
            force=True,
            **kwargs,
        )

    return make


async def test_a_call_over_the_budget_never_runs_however_late_the_stream_is_read(
    options: MakeOptions, temp_dir: Path, ran: list[int]
) -> None:
    marker = temp_dir / "ws" / "all-calls-made"
    made = options(calls_then_marker(4, marker), budget=Budget(tool_calls_by_kind={"mcp": 1}))
    seen: list[Event] = []
    with anyio.fail_after(LIMIT), pytest.raises(AgentBudgetError) as caught:
        async with run("go", options=made) as events:
            seen.append(await events.__anext__())
            # The program reads nothing more until the agent has made every call: only
            # the host can keep the calls over the budget from running.
            await until_made(marker)
            async for event in events:
                seen.append(event)
    assert ran == [0]
    assert (caught.value.kind, caught.value.used, caught.value.allowed) == ("mcp", 2, 1)
    starts = [e for e in seen if isinstance(e, ToolCallStarted)]
    assert len(starts) == 2
    assert seen[-1] is starts[-1]  # the run stopped at the call that went over


async def test_the_limit_over_all_calls_keeps_the_tools_too(
    options: MakeOptions, temp_dir: Path, ran: list[int]
) -> None:
    marker = temp_dir / "ws" / "all-calls-made"
    made = options(calls_then_marker(4, marker), budget=Budget(tool_calls=2))
    with anyio.fail_after(LIMIT), pytest.raises(AgentBudgetError) as caught:
        async with run("go", options=made) as events:
            await events.__anext__()
            await until_made(marker)
            async for _ in events:
                pass
    assert ran == [0, 1]
    assert (caught.value.limit, caught.value.used, caught.value.allowed) == ("tool_calls", 3, 2)


async def test_calls_within_the_budget_run_and_count_once(
    options: MakeOptions, temp_dir: Path, ran: list[int]
) -> None:
    marker = temp_dir / "ws" / "all-calls-made"
    budget = Budget(tool_calls=3, tool_calls_by_kind={"mcp": 2})
    with anyio.fail_after(LIMIT):
        result = await run_async("go", options=options(calls_then_marker(2, marker), budget=budget))
    assert ran == [0, 1]
    assert [c.custom_tool.result for c in result.tool_calls if c.custom_tool] == [
        "number 0",
        "number 1",
    ]
