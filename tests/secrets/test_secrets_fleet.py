"""The key and a fleet (docs/fleet.md): failed tasks' outcomes and the fleet's summary
show it nowhere, on this process's backend and on Ray's workers (whose outcomes come
back pickled)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from secrets_plant import MakeOptions, where_shown

from agent_sdk.fleet import Backend, Fleet, FleetSummary, Task, TaskFailed

pytestmark = pytest.mark.anyio

Leaky = Callable[..., Path]


async def failed_fleet(
    planted: MakeOptions, leaky: Leaky, backend: Backend | None = None
) -> FleetSummary:
    options = planted(leaky({"fake": "exit", "code": 1}))
    tasks = [Task(prompt="go", id=f"t{n}", options=options) for n in range(2)]
    async with Fleet(tasks, limit=2, backend=backend) as fleet:
        summary = await fleet.wait()
    assert [type(outcome) for outcome in summary.outcomes] == [TaskFailed, TaskFailed]
    return summary


async def test_a_fleets_failed_outcomes_show_the_key_nowhere(
    planted: MakeOptions, leaky: Leaky
) -> None:
    summary = await failed_fleet(planted, leaky)
    assert where_shown(summary.outcomes) == []


async def test_a_fleets_summary_shows_the_key_nowhere(planted: MakeOptions, leaky: Leaky) -> None:
    summary = await failed_fleet(planted, leaky)
    assert where_shown(summary) == []


@pytest.mark.parametrize("anyio_backend", ["asyncio"])  # Ray is slow: one loop, one plant
@pytest.mark.parametrize("plant", ["api_key"])
async def test_ray_outcomes_show_the_key_nowhere(
    cluster: None, planted: MakeOptions, leaky: Leaky
) -> None:
    from agent_sdk.fleet import RayBackend

    summary = await failed_fleet(planted, leaky, RayBackend(num_cpus=0.25))
    assert where_shown(summary) == []
