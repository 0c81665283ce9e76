"""A fleet's tasks given a chat id chosen up front (``AgentOptions(new_session_id=...)``,
docs/sessions.md): one id per task; a retry passes the id again only while its chat was
not made, and resumes it once it was; a reused id is never retried."""

from __future__ import annotations

from typing import Any

import pytest
from fleet_scripts import Scripts

from agent_sdk import AgentConfigError, AgentError, AgentOptions, AgentSessionInUseError
from agent_sdk.fleet import Fleet, LocalBackend, RetryPolicy, Task, TaskFailed, TaskSucceeded
from agent_sdk.testing import Exit, Output, Stderr

pytestmark = pytest.mark.anyio

CHOSEN = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"
OTHER = "1c8d3b0f-62e5-4a1f-8b66-2d4f9a3e8c21"
RACE = (
    "Error: ENOENT: no such file or directory, rename '/h/.cursor/cli-config.json.tmp' -> "
    "'/h/.cursor/cli-config.json'"
)
RETRIABLE = "RetriableError: [unavailable] Error: the service did not answer"
NO_WAIT = RetryPolicy(attempts=3, backoff=0.0, jitter=0.0)
OPTIONS = AgentOptions(new_session_id=CHOSEN)


def wire(*events: dict[str, Any]) -> Output:
    return Output.event(*({**event, "session_id": CHOSEN} for event in events))


INIT = {"type": "system", "subtype": "init"}
RESULT = {"type": "result", "subtype": "success", "is_error": False, "result": "done"}
SUCCESS = [wire(INIT, RESULT), Exit(0)]


def chat_of(scripts: Scripts, attempt: int) -> tuple[str | None, str | None]:
    """(new_session_id, resume) of the task's attempt ``attempt``."""
    started = scripts.transports["task-1", attempt].started_with
    assert started is not None
    return started[1].new_session_id, started[1].resume


async def only_outcome(fleet: Fleet) -> Any:
    async with fleet:
        (outcome,) = [outcome async for outcome in fleet]
    return outcome


def test_two_tasks_with_one_id_are_refused() -> None:
    with pytest.raises(AgentConfigError, match="same new_session_id") as caught:
        Fleet([Task(prompt="x", options=OPTIONS), Task(prompt="y", options=OPTIONS)])
    assert caught.value.hint is not None
    assert "its own" in caught.value.hint


def test_an_id_in_the_fleet_s_options_is_refused_for_more_than_one_task() -> None:
    with pytest.raises(AgentConfigError, match="'task-1' and 'task-2'"):
        Fleet(["x", "y"], options=OPTIONS)
    assert len(Fleet(["x"], options=OPTIONS).tasks) == 1


def test_tasks_of_their_own_ids_are_taken() -> None:
    tasks = [
        Task(prompt="x", options=OPTIONS),
        Task(prompt="y", options=AgentOptions(new_session_id=OTHER)),
        Task(prompt="z"),
    ]
    assert len(Fleet(tasks).tasks) == 3


async def test_a_retry_before_the_chat_was_made_passes_the_id_again() -> None:
    scripts = Scripts(lambda task, attempt: [Stderr(RACE), Exit(1)] if attempt == 1 else SUCCESS)
    fleet = Fleet(["p"], options=OPTIONS, retry=NO_WAIT, backend=LocalBackend(scripts))
    outcome = await only_outcome(fleet)
    assert isinstance(outcome, TaskSucceeded)
    assert chat_of(scripts, 2) == (CHOSEN, None)
    assert outcome.result.session_id == CHOSEN


async def test_a_retry_once_the_chat_was_made_resumes_it() -> None:
    # No work was done, but the chat of the chosen id exists: it cannot be started over.
    def script(task: Task, attempt: int) -> list[Any]:
        return [wire(INIT), Stderr(RETRIABLE), Exit(1)] if attempt == 1 else SUCCESS

    scripts = Scripts(script)
    fleet = Fleet(["p"], options=OPTIONS, retry=NO_WAIT, backend=LocalBackend(scripts))
    assert isinstance(await only_outcome(fleet), TaskSucceeded)
    assert chat_of(scripts, 1) == (CHOSEN, None)
    assert chat_of(scripts, 2) == (None, CHOSEN)


async def test_a_retry_after_work_resumes_without_the_id() -> None:
    call = {"readToolCall": {"args": {"path": "a.py"}}}
    started = {"type": "tool_call", "subtype": "started", "call_id": "c1", "tool_call": call}

    def script(task: Task, attempt: int) -> list[Any]:
        return [wire(INIT, started), Stderr(RETRIABLE), Exit(1)] if attempt == 1 else SUCCESS

    scripts = Scripts(script)
    fleet = Fleet(["p"], options=OPTIONS, retry=NO_WAIT, backend=LocalBackend(scripts))
    assert isinstance(await only_outcome(fleet), TaskSucceeded)
    assert chat_of(scripts, 2) == (None, CHOSEN)


async def test_a_reused_id_is_never_retried() -> None:
    in_use = f'Error: Session ID "{CHOSEN}" is already in use.'
    scripts = Scripts(lambda task, attempt: [Stderr(in_use), Exit(1)])
    policy = RetryPolicy(attempts=5, backoff=0.0, retry_on=(AgentError,))
    fleet = Fleet(["p"], options=OPTIONS, retry=policy, backend=LocalBackend(scripts))
    outcome = await only_outcome(fleet)
    assert isinstance(outcome, TaskFailed)
    assert isinstance(outcome.error, AgentSessionInUseError)
    assert outcome.attempts == 1
