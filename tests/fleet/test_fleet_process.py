"""The fleet's guarantees through the real process path, on the bundled fake agent, on both
backends (this process, and a local Ray instance's workers): retries that start over or
resume, a seeded config dir that keeps the login, worktrees whose diffs are right, and a
cancelled fleet that leaves no process behind."""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest
from gitrepo import git
from proctable import processes_with_arg

from agent_sdk import AgentAuthError, AgentOptions, AgentUsageLimitError
from agent_sdk.fleet import (
    Backend,
    Fleet,
    Progress,
    RetryPolicy,
    Task,
    TaskEvent,
    TaskFailed,
    TaskRetrying,
    TaskSucceeded,
)

pytestmark = pytest.mark.anyio

NO_WAIT = RetryPolicy(attempts=3, backoff=0.0, jitter=0.0)


@pytest.fixture(params=["local", pytest.param("ray", marks=pytest.mark.heavy)])
def backend(request: pytest.FixtureRequest) -> Backend | None:
    """Where the fleet's tasks run: ``None`` (this process), or Ray's workers."""
    if request.param == "local":
        return None
    request.getfixturevalue("cluster")
    from agent_sdk.fleet import RayBackend

    return RayBackend(num_cpus=0.25)


def fake(fake_binary: str, scenario: str, **env: str) -> AgentOptions:
    return AgentOptions(binary=fake_binary, env={"FAKE_AGENT_SCENARIO": scenario, **env})


async def run_all(fleet: Fleet) -> list[Any]:
    async with fleet:
        return [outcome async for outcome in fleet]


async def test_a_run_that_lost_the_config_race_is_retried_and_succeeds(
    backend: Backend | None, fake_binary: str, tmp_path: Path
) -> None:
    tasks = [
        Task(
            prompt="p",
            options=fake(fake_binary, "flaky_start", FAKE_AGENT_COUNTER=str(tmp_path / f"n{i}")),
        )
        for i in range(3)
    ]
    outcomes = await run_all(Fleet(tasks, backend=backend, retry=NO_WAIT))
    assert [o.attempts for o in outcomes] == [2, 2, 2]
    assert all(isinstance(o, TaskSucceeded) for o in outcomes)


async def test_a_retry_after_work_resumes_the_chat_it_was_in(
    backend: Backend | None, fake_binary: str, tmp_path: Path
) -> None:
    retries: list[TaskRetrying] = []

    def follow(progress: Progress) -> None:
        if isinstance(progress, TaskRetrying):
            retries.append(progress)

    options = fake(fake_binary, "flaky_after_work", FAKE_AGENT_COUNTER=str(tmp_path / "n"))
    fleet = Fleet(
        [Task(prompt="Add a test", options=options)],
        backend=backend,
        retry=NO_WAIT,
        on_progress=follow,
    )
    (outcome,) = await run_all(fleet)
    assert isinstance(outcome, TaskSucceeded)
    (retry,) = retries
    assert retry.resume is not None
    assert outcome.result.session_id == retry.resume  # the same chat went on


async def test_a_usage_limit_fails_at_once_whatever_the_policy(
    backend: Backend | None, fake_binary: str
) -> None:
    fleet = Fleet(
        [Task(prompt="p", options=fake(fake_binary, "usage_limit"))], backend=backend, retry=NO_WAIT
    )
    (outcome,) = await run_all(fleet)
    assert isinstance(outcome, TaskFailed)
    assert isinstance(outcome.error, AgentUsageLimitError)
    assert outcome.attempts == 1


async def test_config_isolation_keeps_a_seeded_login(
    backend: Backend | None, fake_binary: str, tmp_path: Path
) -> None:
    seed = tmp_path / "cursor"
    seed.mkdir()
    (seed / "auth.json").write_text('{"token": "t"}')
    env = {"FAKE_AGENT_REQUIRE_LOGIN": "1", "CURSOR_API_KEY": ""}
    tasks = [Task(prompt="p", options=fake(fake_binary, "hello", **env)) for _ in range(3)]
    outcomes = await run_all(Fleet(tasks, backend=backend, isolation=["config"], config_seed=seed))
    assert all(isinstance(o, TaskSucceeded) for o in outcomes)
    assert sorted(os.listdir(seed)) == ["auth.json"]  # the user's dir is left as it was


async def test_config_isolation_from_a_dir_without_login_is_not_logged_in(
    backend: Backend | None, fake_binary: str, tmp_path: Path
) -> None:
    env = {"FAKE_AGENT_REQUIRE_LOGIN": "1", "CURSOR_API_KEY": ""}
    tasks = [Task(prompt="p", options=fake(fake_binary, "hello", **env))]
    (outcome,) = await run_all(
        Fleet(tasks, backend=backend, isolation=["config"], config_seed=tmp_path / "none")
    )
    assert isinstance(outcome, TaskFailed)
    assert isinstance(outcome.error, AgentAuthError)


async def test_config_isolation_keeps_runs_started_together_off_each_others_config(
    backend: Backend | None, fake_binary: str, tmp_path: Path
) -> None:
    # One shared dir and a wide window between the CLI's write and rename: together,
    # most runs would lose the race (tests/fake). Each in its own dir, none does.
    env = {"CURSOR_CONFIG_DIR": str(tmp_path / "shared"), "FAKE_AGENT_CONFIG_WRITE_DELAY": "0.5"}
    tasks = [Task(prompt="p", options=fake(fake_binary, "hello", **env)) for _ in range(6)]
    fleet = Fleet(
        tasks,
        backend=backend,
        limit=6,
        stagger=0,
        isolation=["config"],
        config_seed=tmp_path / "seed",
    )
    outcomes = await run_all(fleet)
    assert all(isinstance(o, TaskSucceeded) for o in outcomes), [
        o.error for o in outcomes if isinstance(o, TaskFailed)
    ]
    assert not (tmp_path / "shared").exists()  # the task's env was replaced, not merged


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """A repository whose tests fail: what `fix_tests` fixes."""
    path = tmp_path / "shop"
    (path / "src").mkdir(parents=True)
    (path / "src" / "cart.py").write_text("def total(items):\n    return 0\n")
    git(path, "init", "-q")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "shop")
    return path


async def test_each_task_works_in_its_own_worktree_and_its_diff_is_right(
    backend: Backend | None, fake_binary: str, shop: Path
) -> None:
    options = AgentOptions(binary=fake_binary, force=True, env={"FAKE_AGENT_SCENARIO": "fix_tests"})
    tasks = [
        Task(prompt="Fix every failing test", repo=str(shop), options=options) for _ in range(3)
    ]
    outcomes = await run_all(Fleet(tasks, backend=backend, limit=3, isolation=["worktree"]))
    for outcome in outcomes:
        assert isinstance(outcome, TaskSucceeded)
        changes = outcome.changes
        assert changes is not None
        assert changes.modified == ("src/cart.py",)
        assert changes.added == ("tests/test_cart_totals.py",)
        assert "+def test_" in changes.diff
        assert changes.worktree is None  # removed
    assert git(shop, "status", "--porcelain") == ""  # the user's checkout is untouched
    assert len(git(shop, "worktree", "list").splitlines()) == 1


async def test_kept_worktrees_stay_for_the_user(
    backend: Backend | None, fake_binary: str, shop: Path
) -> None:
    options = AgentOptions(binary=fake_binary, force=True, env={"FAKE_AGENT_SCENARIO": "fix_tests"})
    task = Task(prompt="Fix every failing test", repo=str(shop), options=options)
    (outcome,) = await run_all(
        Fleet([task], backend=backend, isolation=["worktree"], keep_worktrees=True)
    )
    assert outcome.changes.worktree is not None
    kept = Path(outcome.changes.worktree)
    assert (kept / "tests" / "test_cart_totals.py").exists()
    git(shop, "worktree", "remove", "--force", str(kept))


async def test_a_cancelled_fleet_leaves_no_process(
    backend: Backend | None, fake_binary: str
) -> None:
    word = f"fleet-{uuid.uuid4()}"  # the prompt: a word of each CLI's argv
    streaming: set[str] = set()
    all_streaming = anyio.Event()

    def follow(progress: Progress) -> None:
        if isinstance(progress, TaskEvent):  # its CLI is up, and stalls after this
            streaming.add(progress.task_id)
            if len(streaming) == 4:
                all_streaming.set()

    tasks = [Task(prompt=word, options=fake(fake_binary, "stall")) for _ in range(4)]
    with anyio.fail_after(120):  # a hang guard, the fleet's exit included (seen once on Ray)
        async with Fleet(tasks, backend=backend, limit=4, stagger=0, on_progress=follow):
            await all_streaming.wait()
            assert len(processes_with_arg(word)) == 4
    # Left before any outcome: the fleet was cancelled, and waited for its CLIs to end.
    assert processes_with_arg(word) == []


async def test_tasks_without_a_model_are_not_affected_by_tasks_with_one(
    backend: Backend | None, fake_binary: str, tmp_path: Path
) -> None:
    # --model is sticky (docs/protocol.md §1): runs sharing the user's config dir, some
    # given a model, one after the other (limit=1) so each could see the last one's.
    from agent_sdk.events import SystemInit

    env = {"FAKE_AGENT_SCENARIO": "hello", "CURSOR_CONFIG_DIR": str(tmp_path / "user-config")}
    tasks = [
        Task(
            prompt="p",
            options=AgentOptions(binary=fake_binary, env=env, model=model, keep_events=True),
        )
        for model in ("gpt-5", None, "sonnet-4", None)
    ]
    outcomes = await run_all(Fleet(tasks, backend=backend, limit=1))
    models = {
        o.task.id: next(e.model for e in o.result.events if type(e) is SystemInit) for o in outcomes
    }
    assert models == {
        "task-1": "GPT-5",
        "task-2": "Auto",
        "task-3": "Claude 4 Sonnet",
        "task-4": "Auto",
    }
