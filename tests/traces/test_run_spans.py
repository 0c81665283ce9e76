"""A print-mode run is a span, and each of its tool calls a child span (docs/traces.md),
against the in-memory transport, with the OTel SDK's in-memory exporter."""

from __future__ import annotations

import math

import pytest
from opentelemetry import trace
from opentelemetry.trace import SpanKind, StatusCode
from trace_lines import SESSION, rejected_read, shell, usage_result
from trace_spans import Spans

from agent_sdk import (
    AgentOptions,
    AgentProcessError,
    AgentTimeoutError,
    Session,
    run,
    run_async,
    run_sync,
)
from agent_sdk.testing import Exit, MemoryTransport, Output, Pause, Stderr

pytestmark = pytest.mark.anyio


def init() -> dict[str, object]:
    return {"type": "system", "subtype": "init", "session_id": SESSION, "model": "Fake"}


async def test_a_run_is_one_invoke_agent_span_with_its_model_session_and_usage(
    spans: Spans,
) -> None:
    transport = MemoryTransport([Output.event(init(), usage_result())])
    await run_async("hi", options=AgentOptions(model="gpt-5"), transport=transport)
    span = spans.one("invoke_agent")
    assert span.name == "invoke_agent cursor-agent"
    assert span.kind is SpanKind.CLIENT
    assert span.status.status_code is StatusCode.UNSET
    attributes = dict(span.attributes or {})
    assert attributes["gen_ai.operation.name"] == "invoke_agent"
    assert attributes["gen_ai.provider.name"] == "cursor"
    assert attributes["gen_ai.request.model"] == "gpt-5"
    assert attributes["gen_ai.conversation.id"] == SESSION
    assert attributes["gen_ai.usage.input_tokens"] == 120
    assert attributes["gen_ai.usage.output_tokens"] == 30
    assert attributes["gen_ai.usage.cache_read.input_tokens"] == 7
    assert attributes["agent_sdk.outcome"] == "succeeded"
    assert attributes["agent_sdk.exit_code"] == 0
    assert attributes["agent_sdk.mode"] == "print"


async def test_the_prompt_is_not_an_attribute(spans: Spans) -> None:
    prompt = "Refactor the cart module please"
    await run_async(prompt, transport=MemoryTransport([Output.event(init(), usage_result())]))
    assert spans.named("invoke_agent")
    for span in spans.all():
        assert not [value for value in (span.attributes or {}).values() if prompt in str(value)]


async def test_each_tool_call_is_a_child_span_with_its_kind_label_and_exit_code(
    spans: Spans,
) -> None:
    transport = MemoryTransport(
        [
            Output.event(init(), shell("started", "c1", "pytest -q")),
            Output.event(shell("completed", "c1", "pytest -q", exit_code=1), usage_result()),
        ]
    )
    await run_async("hi", transport=transport)
    parent = spans.one("invoke_agent")
    (call,) = spans.children(parent, spans.all())
    assert call.name == "execute_tool shellToolCall"
    attributes = dict(call.attributes or {})
    assert attributes["gen_ai.operation.name"] == "execute_tool"
    assert attributes["gen_ai.tool.name"] == "shellToolCall"
    assert attributes["agent_sdk.tool.label"] == "$ pytest -q"
    assert attributes["agent_sdk.tool.outcome"] == "success"
    assert attributes["agent_sdk.tool.ok"] is False
    assert attributes["agent_sdk.tool.exit_code"] == 1
    assert call.status.status_code is StatusCode.ERROR
    assert attributes["error.type"] == "exit_code"
    times = (parent.start_time, call.start_time, call.end_time, parent.end_time)
    assert None not in times
    assert list(times) == sorted(times)  # type: ignore[type-var]


async def test_a_streamed_run_traces_its_tool_calls_too(spans: Spans) -> None:
    transport = MemoryTransport(
        [
            Output.event(init(), shell("started", "c1", "ls")),
            Output.event(shell("completed", "c1", "ls", exit_code=0), usage_result()),
        ]
    )
    async with run("hi", transport=transport) as events:
        kinds = [type(event).__name__ async for event in events]
    assert "ToolCallCompleted" in kinds
    call = spans.one("execute_tool")
    assert dict(call.attributes or {})["agent_sdk.tool.ok"] is True
    assert call.status.status_code is StatusCode.UNSET


async def test_a_blocked_tool_call_is_not_an_error(spans: Spans) -> None:
    transport = MemoryTransport(
        [
            Output.event(init(), rejected_read("started", "r1", "secrets.env")),
            Output.event(rejected_read("completed", "r1", "secrets.env"), usage_result()),
        ]
    )
    await run_async("hi", transport=transport)
    call = spans.one("execute_tool readToolCall")
    assert dict(call.attributes or {})["agent_sdk.tool.status"] == "blocked"
    assert call.status.status_code is StatusCode.UNSET


async def test_a_failed_run_records_its_error_class_and_message(spans: Spans) -> None:
    transport = MemoryTransport([Output.event(init()), Stderr("boom\n"), Exit(3)])
    with pytest.raises(AgentProcessError) as info:
        await run_async("hi", transport=transport)
    span = spans.one("invoke_agent")
    attributes = dict(span.attributes or {})
    assert attributes["agent_sdk.outcome"] == "failed"
    assert attributes["error.type"] == "AgentProcessError"
    assert span.status.status_code is StatusCode.ERROR
    (event,) = [event for event in span.events if event.name == "exception"]
    assert dict(event.attributes or {})["exception.message"] == str(info.value)[:1000]


async def test_a_timed_out_run_is_an_error_span_and_its_open_call_ends_unfinished(
    spans: Spans,
) -> None:
    transport = MemoryTransport(
        [Output.event(init(), shell("started", "c1", "sleep 99")), Pause(math.inf)]
    )
    with pytest.raises(AgentTimeoutError):
        await run_async("hi", options=AgentOptions(timeout=0.2), transport=transport)
    parent = spans.one("invoke_agent")
    assert dict(parent.attributes or {})["error.type"] == "AgentTimeoutError"
    (call,) = spans.children(parent, spans.all())
    assert dict(call.attributes or {})["agent_sdk.tool.outcome"] == "unfinished"


async def test_a_run_ending_with_a_call_still_open_keeps_its_own_attributes(
    spans: Spans,
) -> None:
    # A loop variable named as the run's attributes gave the run the open call's
    # attributes, and lost its conversation id, exit code and event count (issue 34).
    transport = MemoryTransport(
        [Output.event(init(), shell("started", "c1", "ls"), usage_result())]
    )
    await run_async("hi", transport=transport)
    parent = spans.one("invoke_agent")
    attributes = dict(parent.attributes or {})
    assert attributes["gen_ai.conversation.id"] == SESSION
    assert attributes["agent_sdk.exit_code"] == 0
    assert attributes["agent_sdk.events"] == 3
    assert attributes["agent_sdk.outcome"] == "succeeded"
    assert not [name for name in attributes if name.startswith(("agent_sdk.tool.", "gen_ai.tool."))]
    (call,) = spans.children(parent, spans.all())
    assert dict(call.attributes or {})["agent_sdk.tool.outcome"] == "unfinished"


async def test_a_run_closed_early_ends_its_span_as_closed(spans: Spans) -> None:
    transport = MemoryTransport([Output.event(init(), shell("started", "c1", "ls")), Pause(5)])
    async with run("hi", transport=transport) as events:
        async for _ in events:
            break
    span = spans.one("invoke_agent")
    assert dict(span.attributes or {})["agent_sdk.outcome"] == "closed"
    assert span.status.status_code is StatusCode.UNSET


async def test_a_run_span_is_a_child_of_the_programs_current_span(spans: Spans) -> None:
    tracer = trace.get_tracer("the-program")
    with tracer.start_as_current_span("handle request") as outer:
        await run_async("hi", transport=MemoryTransport([Output.event(init(), usage_result())]))
    span = spans.one("invoke_agent")
    assert span.parent is not None
    assert span.parent.span_id == outer.get_span_context().span_id


@pytest.mark.usefixtures("not_recorded")
async def test_a_run_not_recorded_makes_no_span_and_still_succeeds() -> None:
    transport = MemoryTransport(
        [
            Output.event(init(), shell("started", "c1", "ls")),
            Output.event(shell("completed", "c1", "ls", exit_code=0), usage_result()),
        ]
    )
    result = await run_async("hi", transport=transport)
    assert [call.kind for call in result.tool_calls] == ["shellToolCall"]


def test_run_sync_without_an_event_loop_is_traced_too(spans: Spans, fake_binary: str) -> None:
    options = AgentOptions(binary=fake_binary, env={"FAKE_AGENT_SCENARIO": "fix_tests"})
    result = run_sync("hi", options=options)
    run_span = spans.one("invoke_agent")
    calls = spans.children(run_span, spans.all())
    assert len(calls) == len(result.tool_calls) > 0
    assert dict(run_span.attributes or {})["gen_ai.conversation.id"] == result.session_id


async def test_the_turns_of_a_session_are_spans_of_one_conversation(spans: Spans) -> None:
    session = Session(transport=lambda: MemoryTransport([Output.event(init(), usage_result())]))
    await session.send("first")
    await session.send("second")
    turns = spans.named("invoke_agent")
    assert len(turns) == 2
    assert {dict(turn.attributes or {})["gen_ai.conversation.id"] for turn in turns} == {SESSION}
    assert dict(turns[1].attributes or {})["gen_ai.conversation.id"] == SESSION
