"""A soak: 200 concurrent runs in one event loop, some succeeding, some failing, some
timing out, some cancelled midway. Afterwards nothing is left: no child process, no
open file descriptor beyond what the loop had before."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable

import anyio
import pytest
from proctable import children, open_fds

from agent_sdk import AgentOptions, AgentProcessError, AgentTimeoutError, run, run_async

pytestmark = pytest.mark.anyio

RUNS = 200


async def test_200_concurrent_runs_leave_nothing_behind(
    fake_options: Callable[..., AgentOptions],
) -> None:
    await run_async("warm-up", options=fake_options("hello"))  # the loop's own fds, once
    gc.collect()
    fds_before, children_before = open_fds(), set(children())
    outcomes: Counter[str] = Counter()

    async def succeed() -> None:
        await run_async("go", options=fake_options("hello"))
        outcomes["succeeded"] += 1

    async def fail() -> None:
        try:
            await run_async("go", options=fake_options("crash"))
        except AgentProcessError:
            outcomes["failed"] += 1

    async def time_out() -> None:
        try:
            await run_async("go", options=fake_options("stall", timeout=2))
        except AgentTimeoutError:
            outcomes["timed out"] += 1

    async def cancel_midway() -> None:
        with anyio.move_on_after(1) as scope:
            async with run("go", options=fake_options("stall")) as events:
                async for _ in events:
                    pass
        if scope.cancelled_caught:
            outcomes["cancelled"] += 1

    kinds = [succeed, fail, time_out, cancel_midway]
    with anyio.fail_after(120):  # a hang guard, not a timing claim
        async with anyio.create_task_group() as tg:
            for i in range(RUNS):
                tg.start_soon(kinds[i % len(kinds)])
    gc.collect()

    assert outcomes == Counter({"succeeded": 50, "failed": 50, "timed out": 50, "cancelled": 50})
    assert set(children()) == children_before
    assert open_fds() == fds_before
