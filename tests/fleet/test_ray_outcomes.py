"""The fleet on Ray as on the local backend (docs/fleet.md, "On a Ray cluster";
docs/budgets.md): each task a Ray task on a local Ray instance's workers (started once
for the module), running the bundled fake agent. Outcomes and errors come back typed, a
task's own budget holds, progress arrives in order while tasks run, the limit and retries
hold, and a task whose isolation fails fails with its error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest
from needs import need
from ray_fleet import (
    backend_fixture,  # noqa: F401  (the fixture ``backend``)
    fake,
)

from agent_sdk import AgentBudgetError, AgentConfigRaceError, AgentUsageLimitError, Budget
from agent_sdk.fleet import (
    Fleet,
    LocalBackend,
    Progress,
    RetryPolicy,
    Task,
    TaskEvent,
    TaskFailed,
    TaskFinished,
    TaskRetrying,
    TaskStarted,
    TaskSucceeded,
)

need("ray", "a local Ray instance")

from agent_sdk.fleet import RayBackend  # noqa: E402

pytestmark = pytest.mark.anyio


SLOW_HELLO = "\n".join(
    (
        '{"type":"system","subtype":"init","session_id":"s"}',
        '{"fake":"sleep","seconds":0.3}',
        '{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s"}',
    )
)


async def run_all(fleet: Fleet) -> list[Any]:
    with anyio.fail_after(120):  # a hang guard, not a measure
        async with fleet:
            return [outcome async for outcome in fleet]


def shape(progress: list[Progress]) -> list[tuple[Any, ...]]:
    """Progress without what differs between two runs (times, the outcome's figures)."""
    out: list[tuple[Any, ...]] = []
    for item in progress:
        if isinstance(item, TaskFinished):
            out.append(("finished", item.outcome.task.id, item.outcome.ok))
        elif isinstance(item, TaskRetrying):
            out.append(("retrying", item.task_id, item.attempt, type(item.error)))
        elif isinstance(item, TaskEvent):
            out.append(("TaskEvent", item.task_id, without_timing(without_session(item.event))))
        else:
            out.append(("TaskStarted", item.task_id, item.attempt))
    return out


def without_session(value: Any) -> Any:
    """``value`` (an event, a RunResult) without its chat id: the fake makes a new one
    for each run."""
    if "session_id" in value.__struct_fields__:
        return msgspec.structs.replace(value, session_id=None)
    return value


def without_timing(event: Any) -> Any:
    """``event`` without the durations the fake measures (the run's real time, which two
    runs of one scenario do not share: fake_agent/scenarios/README.md, "Durations")."""
    fields = event.__struct_fields__
    if "duration_ms" in fields and "duration_api_ms" in fields:
        return msgspec.structs.replace(event, duration_ms=0, duration_api_ms=0)
    return event


# --- outcomes and progress -------------------------------------------------------------------
async def test_outcomes_come_back_typed_as_from_the_local_backend(
    backend: RayBackend, fake_binary: str
) -> None:
    tasks = [
        Task(prompt="Add a test", id="ok", options=fake(fake_binary, "hello")),
        Task(prompt="Add a test", id="limit", options=fake(fake_binary, "usage_limit")),
    ]
    on_ray = {o.task.id: o for o in await run_all(Fleet(tasks, backend=backend))}
    here = {o.task.id: o for o in await run_all(Fleet(tasks, backend=LocalBackend()))}

    ok, failed = on_ray["ok"], on_ray["limit"]
    assert isinstance(ok, TaskSucceeded)
    assert isinstance(here["ok"], TaskSucceeded)
    assert ok.result.text == "Done. I added the test."
    # The whole RunResult but its chat id (the fake makes a new one for each run).
    assert without_session(ok.result) == without_session(here["ok"].result)
    assert ok.usage == here["ok"].usage

    assert isinstance(failed, TaskFailed)
    assert isinstance(here["limit"], TaskFailed)
    assert type(failed.error) is AgentUsageLimitError
    expected = here["limit"].error
    assert (str(failed.error), failed.error.hint) == (str(expected), expected.hint)
    assert failed.error.stderr == expected.stderr
    assert "usage limit" in failed.error.stderr
    assert failed.error.exit_code == 1
    assert failed.attempts == 1


async def test_a_tasks_own_budget_holds_on_ray_as_on_the_local_backend(
    backend: RayBackend, fake_binary: str
) -> None:
    # The worker counts the task's own Budget as the events arrive (docs/budgets.md):
    # the same error, figures and events as here.
    options = msgspec.structs.replace(fake(fake_binary, "tools"), budget=Budget(tool_calls=1))
    tasks = [Task(prompt="p", id="capped", options=options)]
    (on_ray,) = await run_all(Fleet(tasks, backend=backend))
    (here,) = await run_all(Fleet(tasks, backend=LocalBackend()))
    assert isinstance(on_ray, TaskFailed)
    assert isinstance(here, TaskFailed)
    error, expected = on_ray.error, here.error
    assert type(error) is AgentBudgetError
    assert type(expected) is AgentBudgetError
    figures = (error.limit, error.kind, error.used, error.allowed, error.scope)
    assert figures == ("tool_calls", None, 2, 1, "run")
    assert figures == (
        expected.limit,
        expected.kind,
        expected.used,
        expected.allowed,
        expected.scope,
    )
    assert error.session_id is not None
    assert expected.session_id is not None
    said = str(error).replace(error.session_id, "S")
    assert said == str(expected).replace(expected.session_id, "S")
    assert [without_session(e) for e in error.events] == [
        without_session(e) for e in expected.events
    ]
    assert on_ray.attempts == 1  # never retried


async def test_progress_arrives_in_order_as_with_the_local_backend(
    backend: RayBackend, fake_binary: str
) -> None:
    tasks = [Task(prompt="p", options=fake(fake_binary, s)) for s in ("hello", "tools", "cart")]
    on_ray: list[Progress] = []
    here: list[Progress] = []
    await run_all(Fleet(tasks, limit=3, backend=backend, on_progress=on_ray.append))
    await run_all(Fleet(tasks, limit=3, backend=LocalBackend(), on_progress=here.append))
    for task in ("task-1", "task-2", "task-3"):
        mine = [p for p in shape(on_ray) if p[1] == task]
        assert mine == [p for p in shape(here) if p[1] == task]
        assert mine[0] == ("TaskStarted", task, 1)
        assert mine[-1] == ("finished", task, True)
        assert {p[0] for p in mine[1:-1]} == {"TaskEvent"}
        assert len(mine) > 4


async def test_the_limit_holds_on_ray(
    backend: RayBackend, fake_binary: str, tmp_path: Path
) -> None:
    scenario = tmp_path / "slow.ndjson"
    scenario.write_text(SLOW_HELLO)
    live, most = set(), 0

    def follow(progress: Progress) -> None:
        nonlocal most
        if isinstance(progress, TaskStarted):
            live.add(progress.task_id)
            most = max(most, len(live))
        elif isinstance(progress, TaskFinished):
            live.discard(progress.outcome.task.id)

    tasks = [Task(prompt="p", options=fake(fake_binary, scenario)) for _ in range(5)]
    outcomes = await run_all(Fleet(tasks, limit=2, backend=backend, on_progress=follow))
    assert all(isinstance(o, TaskSucceeded) for o in outcomes)
    assert 1 <= most <= 2


async def test_a_retriable_failure_is_retried_on_the_worker(
    backend: RayBackend, fake_binary: str, tmp_path: Path
) -> None:
    tasks = [
        Task(
            prompt="p",
            options=fake(fake_binary, "flaky_start", FAKE_AGENT_COUNTER=str(tmp_path / f"n{i}")),
        )
        for i in range(2)
    ]
    progress: list[Progress] = []
    policy = RetryPolicy(attempts=2, backoff=0.0, jitter=0.0)
    fleet = Fleet(tasks, retry=policy, backend=backend, on_progress=progress.append)
    outcomes = await run_all(fleet)
    assert all(isinstance(o, TaskSucceeded) and o.attempts == 2 for o in outcomes)
    for task in ("task-1", "task-2"):
        mine = [p for p in shape(progress) if p[1] == task]
        assert mine[:3] == [
            ("TaskStarted", task, 1),
            ("retrying", task, 1, AgentConfigRaceError),
            ("TaskStarted", task, 2),
        ]
        assert mine[-1] == ("finished", task, True)


async def test_a_task_whose_isolation_fails_fails_with_its_error(
    backend: RayBackend, fake_binary: str, tmp_path: Path
) -> None:
    task = Task(prompt="p", repo=str(tmp_path), options=fake(fake_binary, "hello"))
    (outcome,) = await run_all(Fleet([task], isolation=["worktree"], backend=backend))
    (expected,) = await run_all(Fleet([task], isolation=["worktree"]))
    assert isinstance(outcome, TaskFailed)
    assert type(outcome.error) is type(expected.error)
    assert str(outcome.error) == str(expected.error)
    assert outcome.attempts == 0  # no run started
