"""The fleet on Ray: the same Fleet, each task a Ray task on a local Ray instance's workers
(started once for the module), running the bundled fake agent. Outcomes and errors come
back typed, progress arrives in order while tasks run, the limit and retries hold, and a
cancelled fleet leaves no process behind."""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest
from needs import need
from pid_log import PidLog
from proctable import _table, is_running, processes_with_env, settles

from agent_sdk import (
    AgentBudgetError,
    AgentConfigError,
    AgentConfigRaceError,
    AgentError,
    AgentOptions,
    AgentOutputError,
    AgentProcessError,
    AgentResultError,
    AgentUsageLimitError,
    Budget,
    ErrorContext,
)
from agent_sdk.events import ResultEvent
from agent_sdk.fleet import (
    Backend,
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

ray = need("ray", "a local Ray instance")

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
SLOW_HELLO = "\n".join(
    (
        '{"type":"system","subtype":"init","session_id":"s"}',
        '{"fake":"sleep","seconds":0.3}',
        '{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s"}',
    )
)


@pytest.fixture
def backend(cluster: None) -> RayBackend:
    # A quarter CPU per task: up to 8 tasks at once on 2 CPUs, so a limit below that
    # is the fleet's doing.
    return RayBackend(num_cpus=0.25)


def fake(fake_binary: str, scenario: str | Path, **env: str) -> AgentOptions:
    return AgentOptions(binary=fake_binary, env={"FAKE_AGENT_SCENARIO": str(scenario), **env})


async def run_all(fleet: Fleet) -> list[Any]:
    with anyio.fail_after(120):  # a hang guard, not a measure
        async with fleet:
            return [outcome async for outcome in fleet]


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


# --- what crosses --------------------------------------------------------------------------
def every_error_class() -> list[type[AgentError]]:
    """Every error a print-mode run can raise: those of ``agent_sdk.errors``, not the ones
    other test modules or the live agent (which never runs on a worker) define, so the
    list does not depend on which modules were collected first."""
    classes, pending = [], [AgentError]
    while pending:
        cls = pending.pop()
        if cls.__module__ == "agent_sdk.errors" and cls not in classes:
            classes.append(cls)
        pending.extend(cls.__subclasses__())
    return classes


@pytest.mark.parametrize("cls", every_error_class(), ids=lambda cls: cls.__name__)
def test_every_error_crosses_to_and_from_a_worker_as_it_was(
    cluster: None, cls: type[AgentError]
) -> None:
    context = ErrorContext(session_id="s", exit_code=1, stderr="Error: it broke\n")
    if cls is AgentResultError:
        error: AgentError = cls("bad", event=ResultEvent(is_error=True), context=context)
    elif cls is AgentOutputError:
        error = cls(
            "no JSON", reply="r", json=None, problem="p", attempts=2, context=context, hint="h"
        )
    else:
        error = cls("it broke", context=context, hint="do this")
    for back in (ray.get(ray.put(error)), pickle.loads(pickle.dumps(error))):
        assert type(back) is cls
        assert (str(back), back.stderr, back.exit_code) == (str(error), "Error: it broke\n", 1)
        assert back.hint == error.hint
        assert getattr(back, "event", None) == getattr(error, "event", None)


def test_without_ray_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    with pytest.raises(AgentConfigError, match=r"pip install 'agent-sdk\[ray\]'"):
        RayBackend()


def test_ray_client_is_refused_for_it_cannot_stream_progress(cluster: None) -> None:
    with pytest.raises(AgentConfigError, match="Ray Client"):
        RayBackend(address="ray://head:10001")


def test_importing_the_fleet_does_not_import_ray() -> None:
    code = (
        "import sys, agent_sdk.fleet; assert 'ray' not in sys.modules; agent_sdk.fleet.RayBackend"
    )
    code += "; assert 'ray' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_ray_backend_is_a_backend(backend: RayBackend) -> None:
    implements: Backend = backend  # mypy checks the protocol; this, that it is one
    assert callable(implements.run_task)


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
