"""The fleet's rules against in-memory CLIs: limit, staggered starts, every outcome,
retries only where retriable, a resumed chat where work was done, cancellation."""

from __future__ import annotations

import itertools
import math
from typing import Any

import anyio
import pytest
from fleet_scripts import Scripts

from agent_sdk import (
    AgentConfigError,
    AgentConfigRaceError,
    AgentError,
    AgentOutputError,
    AgentRefusedError,
    AgentUsageError,
    AgentUsageLimitError,
)
from agent_sdk.fleet import (
    Fleet,
    LocalBackend,
    Progress,
    RetryPolicy,
    Task,
    TaskFailed,
    TaskFinished,
    TaskRetrying,
    TaskStarted,
    TaskSucceeded,
)
from agent_sdk.testing import Exit, Output, Pause, Stderr

pytestmark = pytest.mark.anyio

RACE = (
    "Error: ENOENT: no such file or directory, rename '/h/.cursor/cli-config.json.tmp' -> "
    "'/h/.cursor/cli-config.json'"
)
RETRIABLE = "RetriableError: [unavailable] Error: the service did not answer"
REFUSED = "RetriableError: [invalid_argument] unknown option '--team-prompt'"
USAGE_LIMIT = "Error: You've hit your usage limit for this billing cycle"
NO_WAIT = RetryPolicy(attempts=3, backoff=0.0, jitter=0.0)


def wire(session: str, *events: dict[str, Any]) -> Output:
    return Output.event(*({**event, "session_id": session} for event in events))


def success(session: str = "s", *, pause: float = 0.0, usage: int = 10) -> list[Any]:
    return [
        wire(session, {"type": "system", "subtype": "init"}),
        Pause(pause),
        wire(
            session,
            {
                "type": "result",
                "subtype": "success",
                "is_error": False,
                "result": "done",
                "usage": {"inputTokens": usage, "outputTokens": 1},
            },
        ),
        Exit(0),
    ]


def tool_call(session: str) -> Output:
    call = {"readToolCall": {"args": {"path": "a.py"}}}
    started = {"type": "tool_call", "subtype": "started", "call_id": "c1", "tool_call": call}
    return wire(session, started)


async def run_all(fleet: Fleet) -> list[Any]:
    async with fleet:
        return [outcome async for outcome in fleet]


async def test_every_task_outcome_is_delivered_with_its_result() -> None:
    scripts = Scripts(lambda task, attempt: success(task.id))
    fleet = Fleet([f"prompt {n}" for n in range(6)], backend=LocalBackend(scripts))
    outcomes = await run_all(fleet)
    assert sorted(o.task.id for o in outcomes) == [f"task-{n}" for n in range(1, 7)]
    assert all(isinstance(o, TaskSucceeded) for o in outcomes)
    assert {o.result.session_id for o in outcomes} == {o.task.id for o in outcomes}
    assert scripts.prompt("task-3", 1) == "prompt 2"


async def test_no_more_tasks_run_at_once_than_the_limit() -> None:
    running, most = 0, 0

    def follow(progress: Progress) -> None:
        nonlocal running, most
        if isinstance(progress, TaskStarted):
            running += 1
            most = max(most, running)
        elif isinstance(progress, TaskFinished):
            running -= 1

    scripts = Scripts(lambda task, attempt: success(pause=0.05))
    fleet = Fleet(["p"] * 9, limit=3, stagger=0, on_progress=follow, backend=LocalBackend(scripts))
    await run_all(fleet)
    assert most == 3


async def test_runs_start_at_least_the_stagger_apart() -> None:
    scripts = Scripts(lambda task, attempt: success())
    fleet = Fleet(["p"] * 5, limit=5, stagger=0.05, backend=LocalBackend(scripts))
    # When the fleet let each run start (read under its start lock, not when a progress
    # callback happened to run: that came late or early on a loaded machine)
    starts: list[float] = []
    let_start = fleet._before_start

    async def recorded() -> None:
        await let_start()
        starts.append(fleet._last_start)

    fleet._before_start = recorded  # type: ignore[method-assign]
    await run_all(fleet)
    gaps = [later - earlier for earlier, later in itertools.pairwise(starts)]
    assert len(gaps) == 4
    assert min(gaps) >= 0.05 - 0.002  # the clock's resolution


async def test_a_config_race_is_retried_and_the_retry_succeeds() -> None:
    def script(task: Task, attempt: int) -> list[Any]:
        return [Stderr(RACE), Exit(1)] if attempt == 1 else success()

    retries: list[TaskRetrying] = []
    fleet = Fleet(
        ["p"],
        retry=NO_WAIT,
        on_progress=lambda p: retries.append(p) if isinstance(p, TaskRetrying) else None,
        backend=LocalBackend(Scripts(script)),
    )
    (outcome,) = await run_all(fleet)
    assert isinstance(outcome, TaskSucceeded)
    assert outcome.attempts == 2
    (retry,) = retries
    assert isinstance(retry.error, AgentConfigRaceError)
    assert retry.resume is None  # it did nothing: it starts over


async def test_a_retry_after_work_resumes_the_same_chat() -> None:
    def script(task: Task, attempt: int) -> list[Any]:
        if attempt == 1:
            return [
                wire("chat-1", {"type": "system", "subtype": "init"}),
                tool_call("chat-1"),
                Stderr(RETRIABLE),
                Exit(1),
            ]
        return success("chat-1")

    scripts = Scripts(script)
    fleet = Fleet(["Add a test"], retry=NO_WAIT, backend=LocalBackend(scripts))
    (outcome,) = await run_all(fleet)
    assert isinstance(outcome, TaskSucceeded)
    assert scripts.resume("task-1", 2) == "chat-1"
    assert scripts.prompt("task-1", 2) == NO_WAIT.resume_prompt
    assert outcome.tool_calls == 1  # counted over both attempts


async def test_a_usage_limit_is_never_retried_even_when_the_policy_names_it() -> None:
    scripts = Scripts(lambda task, attempt: [Stderr(USAGE_LIMIT), Exit(1)])
    policy = RetryPolicy(attempts=5, backoff=0.0, retry_on=(AgentError,))
    (outcome,) = await run_all(Fleet(["p"], retry=policy, backend=LocalBackend(scripts)))
    assert isinstance(outcome, TaskFailed)
    assert isinstance(outcome.error, AgentUsageLimitError)
    assert outcome.attempts == 1


async def test_a_request_the_service_refused_is_never_retried() -> None:
    scripts = Scripts(lambda task, attempt: [Stderr(REFUSED), Exit(1)])
    (outcome,) = await run_all(Fleet(["p"], retry=NO_WAIT, backend=LocalBackend(scripts)))
    assert isinstance(outcome, TaskFailed)
    assert isinstance(outcome.error, AgentRefusedError)
    assert outcome.attempts == 1


async def test_a_refused_request_is_never_retried_even_when_the_policy_names_it() -> None:
    scripts = Scripts(lambda task, attempt: [Stderr(REFUSED), Exit(1)])
    policy = RetryPolicy(attempts=5, backoff=0.0, retry_on=(AgentError,))
    (outcome,) = await run_all(Fleet(["p"], retry=policy, backend=LocalBackend(scripts)))
    assert isinstance(outcome, TaskFailed)
    assert outcome.attempts == 1


async def test_a_retriable_failure_fails_once_the_attempts_are_spent() -> None:
    scripts = Scripts(lambda task, attempt: [Stderr(RETRIABLE), Exit(1)])
    (outcome,) = await run_all(Fleet(["p"], retry=NO_WAIT, backend=LocalBackend(scripts)))
    assert isinstance(outcome, TaskFailed)
    assert outcome.attempts == 3
    assert len(scripts.transports) == 3


async def test_without_a_policy_nothing_is_retried() -> None:
    scripts = Scripts(lambda task, attempt: [Stderr(RACE), Exit(1)])
    (outcome,) = await run_all(Fleet(["p"], backend=LocalBackend(scripts)))
    assert isinstance(outcome, TaskFailed)
    assert outcome.attempts == 1


async def test_leaving_the_fleet_early_ends_every_run_still_going() -> None:
    def script(task: Task, attempt: int) -> list[Any]:
        return success() if task.id == "task-1" else [Pause(math.inf)]

    scripts = Scripts(script)
    async with Fleet(["p"] * 4, limit=4, stagger=0, backend=LocalBackend(scripts)) as fleet:
        async for outcome in fleet:
            assert outcome.task.id == "task-1"
            break
    stalled = [t for (task_id, _), t in scripts.transports.items() if task_id != "task-1"]
    assert len(stalled) == 3
    assert all(t.signals for t in stalled)  # each was ended, not left behind


async def test_the_summary_counts_outcomes_tokens_retries_and_failures_by_class() -> None:
    def script(task: Task, attempt: int) -> list[Any]:
        if task.prompt == "limit":
            return [Stderr(USAGE_LIMIT), Exit(1)]
        if task.prompt == "race" and attempt == 1:
            return [Stderr(RACE), Exit(1)]
        return success(usage=100)

    fleet = Fleet(
        ["ok", "race", "limit", "ok"], retry=NO_WAIT, backend=LocalBackend(Scripts(script))
    )
    async with fleet:
        summary = await fleet.wait()
    assert (summary.tasks, summary.succeeded, summary.failed) == (4, 3, 1)
    assert summary.failures == {"AgentUsageLimitError": 1}
    assert summary.retries == 1
    assert summary.usage.input_tokens == 300
    assert len(summary.outcomes) == 4


def test_task_ids_must_be_unique() -> None:
    with pytest.raises(AgentConfigError, match="two tasks have the id 'a'"):
        Fleet([Task(prompt="x", id="a"), Task(prompt="y", id="a")])


def test_worktree_isolation_needs_a_repository_for_every_task() -> None:
    with pytest.raises(AgentConfigError, match="isolation 'worktree' needs Task"):
        Fleet(["x"], isolation=["worktree"])


def test_an_unknown_isolation_is_refused() -> None:
    with pytest.raises(AgentConfigError, match="unknown isolation 'docker'"):
        Fleet(["x"], isolation=["docker"])  # type: ignore[list-item]


async def test_a_fleet_runs_once() -> None:
    fleet = Fleet(["p"], backend=LocalBackend(Scripts(lambda task, attempt: success())))
    await run_all(fleet)
    with pytest.raises(AgentUsageError, match="a Fleet runs once"):
        async with fleet:
            pass


# --- a failing task fails alone; the caller's own errors come out as themselves --------
DEEP = "[" * 5000 + "]" * 5000


def replying(text: str) -> list[Any]:
    result = {"type": "result", "subtype": "success", "is_error": False, "result": text}
    return [wire("s", {"type": "system", "subtype": "init"}, result), Exit(0)]


async def test_a_reply_nested_too_deep_fails_its_task_and_every_other_outcome_comes() -> None:
    tasks = [
        Task(prompt="a"),
        Task(prompt="deep", output_type=list[Any]),
        Task(prompt="b"),
    ]
    scripts = Scripts(lambda task, attempt: replying(DEEP if task.output_type else "done"))
    outcomes = {o.task.id: o for o in await run_all(Fleet(tasks, backend=LocalBackend(scripts)))}
    assert sorted(outcomes) == ["task-1", "task-2", "task-3"]
    failed = outcomes["task-2"]
    assert isinstance(failed, TaskFailed)
    assert isinstance(failed.error, AgentOutputError)
    assert all(outcomes[t].ok for t in ("task-1", "task-3"))


class Breaking(LocalBackend):
    """Raises ``exception`` for the task whose prompt is ``"break"``."""

    def __init__(self, exception: Exception) -> None:
        super().__init__(Scripts(lambda task, attempt: success()))
        self.exception = exception

    async def run_task(self, task: Task, *args: Any, **kwargs: Any) -> Any:
        if task.prompt == "break":
            raise self.exception
        return await super().run_task(task, *args, **kwargs)


async def test_an_unexpected_exception_in_a_task_is_its_failure_and_others_come() -> None:
    bug = RuntimeError("an unexpected bug")
    outcomes = await run_all(Fleet(["a", "break", "b"], backend=Breaking(bug)))
    by_id = {outcome.task.id: outcome for outcome in outcomes}
    assert sorted(by_id) == ["task-1", "task-2", "task-3"]
    failed = by_id["task-2"]
    assert isinstance(failed, TaskFailed)
    assert isinstance(failed.error, AgentError)
    assert failed.error.__cause__ is bug
    assert "RuntimeError: an unexpected bug" in str(failed.error)
    assert by_id["task-1"].ok
    assert by_id["task-3"].ok


async def test_the_callers_exception_in_the_fleet_block_comes_out_as_itself() -> None:
    scripts = Scripts(lambda task, attempt: [Pause(math.inf)])
    with pytest.raises(KeyError, match="mine"):
        async with Fleet(["p"] * 3, stagger=0, backend=LocalBackend(scripts)):
            await anyio.sleep(0.01)
            raise KeyError("mine")
    assert all(t.signals for t in scripts.transports.values())  # the runs were ended


async def test_cancelling_the_task_around_the_fleet_ends_every_run_quietly() -> None:
    scripts = Scripts(lambda task, attempt: [Pause(math.inf)])
    started = 0
    with anyio.CancelScope() as scope:

        def follow(progress: Progress) -> None:
            nonlocal started
            started += isinstance(progress, TaskStarted)
            if started == 3:
                scope.cancel()

        fleet = Fleet(["p"] * 3, stagger=0, on_progress=follow, backend=LocalBackend(scripts))
        await run_all(fleet)
    assert scope.cancelled_caught
    assert len(scripts.transports) == 3
    assert all(t.signals for t in scripts.transports.values())


async def test_an_exception_of_on_progress_ends_the_fleet_as_itself() -> None:
    def follow(progress: Progress) -> None:
        if isinstance(progress, TaskFinished):
            raise LookupError("from the callback")

    scripts = Scripts(lambda task, attempt: success())
    with pytest.raises(LookupError, match="from the callback"):
        await run_all(Fleet(["p"] * 2, on_progress=follow, backend=LocalBackend(scripts)))


# --- numbers are checked when the fleet is made --------------------------------------
@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ({"limit": math.nan}, "Fleet(limit=nan): limit must be a whole number >= 1"),
        ({"limit": 2.5}, "Fleet(limit=2.5): limit must be a whole number >= 1"),
        ({"limit": "3"}, "Fleet(limit='3'): limit must be a whole number >= 1 (an int), not a str"),
        (
            {"limit": True},
            "Fleet(limit=True): limit must be a whole number >= 1 (an int), not a bool",
        ),
        ({"limit": 0}, "Fleet(limit=0): limit must be a whole number >= 1"),
        ({"stagger": math.inf}, "Fleet(stagger=inf): stagger must be a number of seconds >= 0"),
        ({"stagger": "0.1"}, "Fleet(stagger='0.1'): stagger must be a number of seconds >= 0"),
    ],
    ids=repr,
)
def test_a_fleets_numbers_are_checked_when_it_is_made(arguments: dict[str, Any], says: str) -> None:
    with pytest.raises(AgentConfigError) as info:
        Fleet(["p"], **arguments)
    assert str(info.value).startswith(says)
    assert info.value.hint


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ({"attempts": math.nan}, "RetryPolicy(attempts=nan): attempts must be a whole number"),
        ({"attempts": 2.5}, "RetryPolicy(attempts=2.5): attempts must be a whole number"),
        ({"attempts": "3"}, "RetryPolicy(attempts='3'): attempts must be a whole number"),
        ({"attempts": 0}, "RetryPolicy(attempts=0): attempts must be a whole number >= 1"),
        ({"backoff": math.nan}, "RetryPolicy(backoff=nan): backoff must be a number of"),
        ({"backoff": math.inf}, "RetryPolicy(backoff=inf): backoff must be a number of"),
        ({"backoff": "1"}, "RetryPolicy(backoff='1'): backoff must be a number of"),
        ({"max_backoff": math.nan}, "RetryPolicy(max_backoff=nan): max_backoff must be"),
        ({"jitter": math.nan}, "RetryPolicy(jitter=nan): jitter must be a number from 0 to 1"),
        ({"jitter": 2}, "RetryPolicy(jitter=2): jitter must be a number from 0 to 1"),
    ],
    ids=repr,
)
def test_a_retry_policys_numbers_are_checked_when_it_is_made(
    arguments: dict[str, Any], says: str
) -> None:
    with pytest.raises(AgentConfigError) as info:
        RetryPolicy(**arguments)
    assert str(info.value).startswith(says)
    assert info.value.hint
