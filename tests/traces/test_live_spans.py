"""A live turn is a span, each of its tool calls a child span (docs/traces.md), against the
fake's ACP mode, with the OTel SDK's in-memory exporter."""

from __future__ import annotations

import anyio
import pytest
from opentelemetry.trace import StatusCode
from trace_spans import Spans

from agent_sdk import AgentOptions
from agent_sdk.errors import AgentRetriableError
from agent_sdk.live import LiveAgent

pytestmark = pytest.mark.anyio

LIMIT = 30.0  # only a broken client or fake waits this long


async def test_a_live_turn_is_an_invoke_agent_span_with_its_session_and_stop_reason(
    options: AgentOptions, spans: Spans
) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            await session.send("hello")
    span = spans.one("invoke_agent")
    attributes = dict(span.attributes or {})
    assert attributes["agent_sdk.mode"] == "live"
    assert attributes["gen_ai.conversation.id"] == session.session_id
    assert attributes["gen_ai.response.finish_reasons"] == ("end_turn",)
    assert attributes["agent_sdk.outcome"] == "succeeded"
    assert span.status.status_code is StatusCode.UNSET


async def test_each_live_tool_call_is_a_child_span(options: AgentOptions, spans: Spans) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            await session.send("scenario:tools")
    turn = spans.one("invoke_agent")
    calls = spans.children(turn, spans.all())
    assert [dict(c.attributes or {})["gen_ai.tool.name"] for c in calls] == [
        "read",
        "search",
        "edit",
        "shellToolCall",
    ]
    shell = calls[3]
    assert dict(shell.attributes or {})["agent_sdk.tool.label"] == "$ ls tests"
    assert dict(shell.attributes or {})["agent_sdk.tool.exit_code"] == 0


async def test_a_call_started_again_is_one_span_with_its_real_arguments(
    options: AgentOptions, spans: Spans
) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            await session.send("scenario:upsert")
    (call,) = spans.named("execute_tool")
    attributes = dict(call.attributes or {})
    assert attributes["agent_sdk.tool.label"] == "$ make test"
    assert attributes["agent_sdk.tool.exit_code"] == 2


async def test_a_backend_error_makes_the_turn_an_error_span(
    options: AgentOptions, spans: Spans
) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT), pytest.raises(AgentRetriableError):
            await session.send("scenario:backend_error")
    span = spans.one("invoke_agent")
    assert span.status.status_code is StatusCode.ERROR
    assert dict(span.attributes or {})["error.type"] == "AgentRetriableError"
