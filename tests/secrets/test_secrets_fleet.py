"""The key and a fleet (docs/fleet.md): failed tasks' outcomes and the fleet's summary
show it nowhere, on this process's backend and on Ray's workers (whose outcomes come
back pickled)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from secrets_plant import KEY, MakeOptions, Spy, where_shown

from agent_sdk.fleet import Backend, Fleet, FleetSummary, Task, TaskFailed

pytestmark = pytest.mark.anyio

Leaky = Callable[..., Path]


async def failed_fleet(
    planted: MakeOptions,
    leaky: Leaky,
    backend: Backend | None = None,
    isolation: tuple[str, ...] = (),
    **more: object,
) -> FleetSummary:
    options = planted(leaky({"fake": "exit", "code": 1}), **more)
    tasks = [Task(prompt="go", id=f"t{n}", options=options) for n in range(2)]
    async with Fleet(tasks, limit=2, backend=backend, isolation=list(isolation)) as fleet:
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


async def test_isolated_config_dirs_hold_the_key_only_in_the_login_the_cli_needs(
    planted: MakeOptions,
    leaky: Leaky,
    spy: Spy,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed = tmp_path / "config"
    seed.mkdir()
    (seed / "auth.json").write_text(json.dumps({"accessToken": KEY}))  # the user's login
    (seed / "cli-config.json").write_text("{}")
    monkeypatch.setenv("CURSOR_CONFIG_DIR", str(seed))
    await failed_fleet(planted, leaky, isolation=("config",), binary=str(spy.binary))
    files = spy.config_files()  # each task's dir as its CLI left it
    assert len([name for name in files if name.endswith("/auth.json")]) == 2  # the premise
    holding = [name for name, data in files.items() if KEY.encode() in data]
    assert [name for name in holding if not name.endswith("/auth.json")] == []
