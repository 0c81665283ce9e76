"""A fleet task is a span, parent of the spans of its runs, one per attempt; each retry is
an event on it (docs/traces.md). In-memory CLIs, the OTel SDK's in-memory exporter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from opentelemetry.trace import StatusCode
from trace_spans import Spans

from agent_sdk import AgentError
from agent_sdk.fleet import Fleet, LocalBackend, RetryPolicy, Task
from agent_sdk.testing import Exit, MemoryTransport, Output, Stderr

pytestmark = pytest.mark.anyio

RETRIABLE = "RetriableError: [unavailable] Error: the service did not answer"
NO_WAIT = RetryPolicy(attempts=3, backoff=0.0, jitter=0.0)


def success(session: str) -> list[Any]:
    result = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": "done",
        "session_id": session,
        "usage": {"inputTokens": 10, "outputTokens": 1},
    }
    return [Output.event({"type": "system", "subtype": "init", "session_id": session}, result)]


def flaky(task: Task, attempt: int) -> MemoryTransport:
    if attempt == 1:
        return MemoryTransport([Stderr(RETRIABLE + "\n"), Exit(1)])
    return MemoryTransport(success(task.id))


async def run_all(fleet: Fleet) -> list[Any]:
    async with fleet:
        return [outcome async for outcome in fleet]


async def test_a_task_span_parents_the_span_of_each_attempt_and_counts_its_retry(
    spans: Spans,
) -> None:
    await run_all(Fleet(["go"], retry=NO_WAIT, backend=LocalBackend(flaky)))
    task = spans.one("invoke_workflow")
    attributes = dict(task.attributes or {})
    assert attributes["agent_sdk.task.id"] == "task-1"
    assert attributes["agent_sdk.outcome"] == "succeeded"
    assert attributes["agent_sdk.attempts"] == 2
    assert attributes["agent_sdk.retries"] == 1
    assert attributes["gen_ai.usage.input_tokens"] == 10
    runs = spans.children(task, spans.named("invoke_agent"))
    assert [dict(run.attributes or {})["agent_sdk.outcome"] for run in runs] == [
        "failed",
        "succeeded",
    ]
    (retry,) = [event for event in task.events if event.name == "retry"]
    assert dict(retry.attributes or {})["error.type"] == "AgentRetriableError"
    assert dict(retry.attributes or {})["agent_sdk.attempt"] == 1


async def test_a_failed_task_is_an_error_span_with_its_error_class(spans: Spans) -> None:
    def failing(task: Task, attempt: int) -> MemoryTransport:
        return MemoryTransport([Stderr(RETRIABLE + "\n"), Exit(1)])

    await run_all(Fleet(["go"], retry=NO_WAIT, backend=LocalBackend(failing)))
    task = spans.one("invoke_workflow")
    assert task.status.status_code is StatusCode.ERROR
    attributes = dict(task.attributes or {})
    assert attributes["error.type"] == "AgentRetriableError"
    assert attributes["agent_sdk.retries"] == 2
    assert len(spans.children(task, spans.named("invoke_agent"))) == 3


async def test_the_tasks_of_a_fleet_are_spans_of_their_own(spans: Spans) -> None:
    await run_all(
        Fleet(["a", "b"], backend=LocalBackend(lambda t, n: MemoryTransport(success(t.id))))
    )
    tasks = spans.named("invoke_workflow")
    assert sorted(dict(t.attributes or {})["agent_sdk.task.id"] for t in tasks) == [
        "task-1",
        "task-2",
    ]
    for task in tasks:
        (run,) = spans.children(task, spans.named("invoke_agent"))
        task_id = dict(task.attributes or {})["agent_sdk.task.id"]
        assert dict(run.attributes or {})["gen_ai.conversation.id"] == task_id


async def test_a_task_whose_worktree_cannot_be_made_is_an_error_span(
    spans: Spans, tmp_path: Path
) -> None:
    task = Task(prompt="go", repo=str(tmp_path))  # not a git repository
    fleet = Fleet([task], isolation=["worktree"], backend=LocalBackend(flaky))
    (outcome,) = await run_all(fleet)
    assert isinstance(outcome.error, AgentError)
    span = spans.one("invoke_workflow")
    assert span.status.status_code is StatusCode.ERROR
    assert dict(span.attributes or {})["agent_sdk.outcome"] == "failed"
