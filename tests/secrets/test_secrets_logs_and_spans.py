"""The planted key is in no log record and no span (docs/traces.md): a run given the key
every way a run gets one, whose tool call's command and whose CLI's every channel hold it,
logged at DEBUG and traced; the same for a fleet task retried after such a failure."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from secrets_plant import KEY, MakeOptions
from trace_spans import Spans, spans

from agent_sdk import AgentError, run_async
from agent_sdk.fleet import Fleet, LocalBackend, RetryPolicy, Task, TaskFailed

pytestmark = pytest.mark.anyio

__all__ = ["spans"]  # the fixture

Leaky = Callable[..., Path]


def shell(subtype: str) -> dict[str, Any]:
    command = f"curl -H 'Authorization: Bearer {KEY}' https://api.example.com"
    body: dict[str, Any] = {"args": {"command": command}}
    if subtype == "completed":
        body["result"] = {"failure": {"command": command, "exitCode": 22, "stderr": KEY}}
    return {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": "c1",
        "tool_call": {"shellToolCall": body},
        "session_id": "s-1",
    }


def everything_traced(spans: Spans) -> list[str]:
    """Every text of every span: names, attributes, events, statuses."""
    texts: list[str] = []
    for span in spans.all():
        texts += [span.name, span.status.description or ""]
        texts += [str(value) for value in (span.attributes or {}).values()]
        for event in span.events:
            texts += [event.name, *(str(v) for v in (event.attributes or {}).values())]
    return texts


def everything_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records]


@pytest.fixture
def key_in_tool_call(tmp_path: Path) -> Path:
    """A scenario: a shell call whose command and output hold the key, then the
    credentials on every channel (``leak_credentials``) and an error result."""
    steps = [
        {"type": "system", "subtype": "init", "session_id": "s-1", "model": "Auto"},
        shell("started"),
        shell("completed"),
        {"fake": "leak_credentials", "is_error": True},
    ]
    path = tmp_path / "key_in_tool_call.ndjson"
    path.write_text("".join(json.dumps(step) + "\n" for step in steps))
    return path


async def test_a_failed_runs_logs_and_spans_show_the_key_nowhere(
    planted: MakeOptions,
    key_in_tool_call: Path,
    spans: Spans,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    with pytest.raises(AgentError):
        await run_async(f"use the key {KEY}", options=planted(key_in_tool_call, model="gpt-5"))
    traced = everything_traced(spans)
    assert spans.named("execute_tool shellToolCall")  # the premise: the call was traced
    assert any("started" in text for text in everything_logged(caplog))
    assert [text for text in traced if KEY in text] == []
    assert [text for text in everything_logged(caplog) if KEY in text] == []


async def test_a_retried_fleet_tasks_logs_and_spans_show_the_key_nowhere(
    planted: MakeOptions,
    key_in_tool_call: Path,
    spans: Spans,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    options = planted(key_in_tool_call)
    policy = RetryPolicy(attempts=2, backoff=0.0, jitter=0.0, retry_on=(AgentError,))
    task = Task(prompt="go", options=options)
    async with Fleet([task], retry=policy, backend=LocalBackend()) as fleet:
        (outcome,) = [outcome async for outcome in fleet]
    assert isinstance(outcome, TaskFailed)
    assert spans.named("invoke_workflow")  # the premise
    assert [text for text in everything_traced(spans) if KEY in text] == []
    assert [text for text in everything_logged(caplog) if KEY in text] == []
