"""A fleet on Ray cancelled, or its worker killed (docs/fleet.md, "On a Ray cluster";
docs/lifecycle.md, "Everything the CLI starts"): a cancelled fleet ends its CLIs and their
children, and what they started outside their groups, gracefully (the workers live on); a
worker killed outright fails its task, and its watchdog takes its CLI, the CLI's children
and what it started outside its group along. On a local Ray instance, started once for
the module, running the bundled fake agent.
"""

from __future__ import annotations

import contextlib
import os
import signal
import uuid
from pathlib import Path

import anyio
import pytest
from needs import need
from pid_log import PidLog
from proctable import _table, is_running, processes_with_env, settles
from ray_fleet import (
    backend_fixture,  # noqa: F401  (the fixture ``backend``)
    fake,
)

from agent_sdk import AgentOptions, AgentProcessError
from agent_sdk.fleet import Fleet, Progress, Task, TaskEvent, TaskFailed

need("ray", "a local Ray instance")

from agent_sdk.fleet import RayBackend  # noqa: E402

pytestmark = pytest.mark.anyio

MARK = "AGENT_SDK_RAY_TEST_MARK"  # in each CLI's environment, inherited by its children
HANG_WITH_CHILD = "\n".join(
    (
        '{"type":"system","subtype":"init","session_id":"s"}',
        '{"type":"assistant","message":{"role":"assistant","content":'
        '[{"type":"text","text":"working"}]},"session_id":"s"}',
        '{"fake":"hang","linger_child":true}',
    )
)


def marked(mark: str) -> list[int]:
    """Live processes whose environment holds ``MARK=mark``: the CLIs of a test and
    whatever they started."""
    return processes_with_env(MARK, mark)


def parent_of(pid: int) -> int:
    return next(ppid for row, _, ppid, _ in _table() if row == pid)


def kill_left(pids: list[int]) -> None:
    """Kill what a test that failed may have left (processes it started, by pid)."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


# --- cancellation and dying workers ------------------------------------------------------------
async def test_a_cancelled_fleet_ends_its_clis_and_their_children(
    backend: RayBackend, fake_binary: str, tmp_path: Path
) -> None:
    scenario = tmp_path / "hang.ndjson"
    scenario.write_text(HANG_WITH_CHILD)
    mark = uuid.uuid4().hex
    streaming: set[str] = set()
    both = anyio.Event()

    def follow(progress: Progress) -> None:
        if isinstance(progress, TaskEvent):  # progress while the task runs: it never ends
            streaming.add(progress.task_id)
            if len(streaming) == 2:
                both.set()

    options = fake(fake_binary, scenario, **{MARK: mark})
    tasks = [Task(prompt=f"hang-{mark}", options=options) for _ in range(2)]
    workers: set[int] = set()
    try:
        async with Fleet(tasks, limit=2, stagger=0, backend=backend, on_progress=follow):
            with anyio.fail_after(60):  # a hang guard
                await both.wait()
            # Each CLI and the child it leaves in its process group, which only a kill
            # of the whole group ends.
            assert settles(lambda: len(marked(mark)) == 4, within=10)
            workers = {parent_of(pid) for pid in marked(mark)} - set(marked(mark))
            assert len(workers) == 2
        # Left before any outcome: the Ray tasks were cancelled.
        assert settles(lambda: marked(mark) == [], within=10)
        # Gracefully: the workers ended the process groups and live on (a forced cancel
        # would have killed them).
        assert all(is_running(worker) for worker in workers)
    finally:
        kill_left(marked(mark))


async def test_a_worker_that_dies_fails_its_task_and_takes_its_cli_along(
    backend: RayBackend, fake_binary: str
) -> None:
    word = f"stall-{uuid.uuid4()}"
    streaming = anyio.Event()

    def follow(progress: Progress) -> None:
        if isinstance(progress, TaskEvent):
            streaming.set()

    task = Task(prompt=word, options=fake(fake_binary, "stall", **{MARK: word}))
    try:
        with anyio.fail_after(60):
            async with Fleet([task], backend=backend, on_progress=follow) as fleet:
                await streaming.wait()
                (cli,) = marked(word)
                os.kill(parent_of(cli), signal.SIGKILL)  # the Ray worker, killed outright
                outcomes = [outcome async for outcome in fleet]
        (outcome,) = outcomes
        assert isinstance(outcome, TaskFailed)
        assert type(outcome.error) is AgentProcessError
        assert "Ray task ended without an outcome" in str(outcome.error)
        # Its watchdog: nothing was left to end its process group.
        assert settles(lambda: not is_running(cli), within=10)
    finally:
        kill_left(marked(word))


async def test_a_worker_that_dies_takes_the_children_of_its_cli_along(
    backend: RayBackend, fake_binary: str, tmp_path: Path
) -> None:
    scenario = tmp_path / "hang.ndjson"
    scenario.write_text(HANG_WITH_CHILD)
    mark = uuid.uuid4().hex
    streaming = anyio.Event()

    def follow(progress: Progress) -> None:
        if isinstance(progress, TaskEvent):
            streaming.set()

    task = Task(prompt=f"hang-{mark}", options=fake(fake_binary, scenario, **{MARK: mark}))
    try:
        with anyio.fail_after(60):
            async with Fleet([task], backend=backend, on_progress=follow) as fleet:
                await streaming.wait()
                # The CLI and the child it leaves in its process group.
                assert settles(lambda: len(marked(mark)) == 2, within=10)
                (worker,) = {parent_of(pid) for pid in marked(mark)} - set(marked(mark))
                os.kill(worker, signal.SIGKILL)  # the Ray worker, killed outright
                _ = [outcome async for outcome in fleet]
        # Its watchdog ended the whole group: nothing of the CLI's is left.
        assert settles(lambda: marked(mark) == [], within=10)
    finally:
        kill_left(marked(mark))


# --- what the CLI starts outside its group (docs/lifecycle.md, "Everything the CLI starts")
def left_behind(fake_binary: str, log: PidLog) -> AgentOptions:
    """The fake's ``left_behind``: a helper in its group, a daemon out of its tree, two
    background commands in sessions of their own, a foreground one holding the run."""
    env = {"FAKE_AGENT_SCENARIO": "left_behind", **log.env()}
    return AgentOptions(binary=fake_binary, force=True, env=env)


async def until_held(log: PidLog) -> list[int]:
    """Every pid the run logged, once its foreground command runs (the last it starts)."""
    await anyio.to_thread.run_sync(log.wait_for, "shell")
    return [pid for _, pid in log.read()]


async def test_a_cancelled_fleet_on_ray_ends_what_its_cli_started_outside_its_group(
    backend: RayBackend, fake_binary: str, tmp_path: Path
) -> None:
    log = PidLog(tmp_path / "pids")
    task = Task(prompt="go", options=left_behind(fake_binary, log))
    try:
        with anyio.fail_after(60):  # a hang guard
            async with Fleet([task], stagger=0, backend=backend):
                started = await until_held(log)
        assert settles(lambda: not any(is_running(pid) for pid in started), within=10)
    finally:
        log.end()


async def test_a_dead_worker_takes_what_its_cli_started_outside_its_group(
    backend: RayBackend, fake_binary: str, tmp_path: Path
) -> None:
    log = PidLog(tmp_path / "pids")
    task = Task(prompt="go", options=left_behind(fake_binary, log))
    try:
        with anyio.fail_after(60):  # a hang guard
            async with Fleet([task], stagger=0, backend=backend) as fleet:
                started = await until_held(log)
                (helper,) = log.pids("worker-server")
                cli = parent_of(helper)
                os.kill(parent_of(cli), signal.SIGKILL)  # the Ray worker, killed outright
                _ = [outcome async for outcome in fleet]
        # Its watchdog ended the group, and by the run's mark the rest.
        assert settles(lambda: not any(is_running(pid) for pid in started), within=10)
    finally:
        log.end()
