"""keep_events: a streamed run keeps nothing (flat memory); a run that returns a RunResult
keeps every event for it; either can be overridden."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from replies import reply_of

from agent_sdk import (
    AgentOptions,
    AgentProcessError,
    AgentTimeoutError,
    Event,
    Session,
    ToolCallCompleted,
    ToolCallStarted,
    run,
    run_async,
    run_sync,
)

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]


async def test_a_streamed_run_keeps_no_events_by_default(fake_options: MakeOptions) -> None:
    received: list[Event] = []
    async with run("go", options=fake_options("tools")) as events:
        async for event in events:
            received.append(event)
    assert any(isinstance(e, ToolCallCompleted) for e in received)
    assert events.events == []
    assert events.tool_calls == []
    assert events.result.events == []
    assert events.result.tool_calls == []


async def test_a_streamed_run_that_keeps_nothing_has_the_result_text_as_text(
    fake_options: MakeOptions,
) -> None:
    kept = await run_async("go", options=fake_options("tools"))
    async with run("go", options=fake_options("tools")) as events:
        async for _ in events:
            pass
    assert events.result.text == reply_of(kept.events) != ""


async def test_keep_events_true_keeps_every_event_of_a_streamed_run(
    fake_options: MakeOptions,
) -> None:
    received: list[Event] = []
    async with run("go", options=fake_options("tools", keep_events=True)) as events:
        async for event in events:
            received.append(event)
    assert events.events == received
    assert events.result.events == received
    starts = [e for e in received if isinstance(e, ToolCallStarted)]
    assert [call.started for call in events.result.tool_calls] == starts != []


async def test_run_async_keeps_every_event_by_default(fake_options: MakeOptions) -> None:
    kept = await run_async("go", options=fake_options("tools"))
    received = [e async for e in run("go", options=fake_options("tools"))]  # each chat id new
    assert [type(e) for e in kept.events] == [type(e) for e in received]
    assert len(kept.tool_calls) == sum(isinstance(e, ToolCallStarted) for e in received) > 0


def test_run_sync_keeps_every_event_by_default(fake_options: MakeOptions) -> None:
    result = run_sync("go", options=fake_options("tools"))
    assert result.events[-1].type == "result"
    assert result.tool_calls != []


async def test_session_send_keeps_every_event_by_default(fake_options: MakeOptions) -> None:
    result = await Session(options=fake_options("tools")).send("go")
    assert result.events[-1].type == "result"
    assert result.tool_calls != []


async def test_keep_events_false_keeps_nothing_even_for_run_async(
    fake_options: MakeOptions,
) -> None:
    kept = await run_async("go", options=fake_options("tools"))
    result = await run_async("go", options=fake_options("tools", keep_events=False))
    assert result.events == []
    assert result.tool_calls == []
    assert result.text == reply_of(kept.events) != ""


async def test_a_streamed_run_delivers_its_events_then_raises_what_the_cli_said(
    fake_options: MakeOptions,
) -> None:
    received: list[Event] = []
    with pytest.raises(AgentProcessError) as info:
        async for event in run("go", options=fake_options("crash_mid_stream")):
            received.append(event)
    assert received != []
    assert info.value.events == []  # the consumer has them: nothing was kept twice
    assert info.value.stderr.strip()


async def test_run_async_failure_carries_every_event_received(fake_options: MakeOptions) -> None:
    received: list[Event] = []
    with pytest.raises(AgentProcessError):
        async for event in run("go", options=fake_options("crash_mid_stream")):
            received.append(event)
    with pytest.raises(AgentProcessError) as info:
        await run_async("go", options=fake_options("crash_mid_stream"))
    kept = info.value.events
    assert [type(e) for e in kept] == [type(e) for e in received] != []


async def test_a_timeout_says_how_many_events_arrived_even_when_none_were_kept(
    fake_options: MakeOptions,
) -> None:
    received: list[Event] = []
    with pytest.raises(AgentTimeoutError) as info:
        async for event in run("go", options=fake_options("stall", timeout=1)):
            received.append(event)
    match = re.search(r"ended after (\d+) events", str(info.value))
    assert match is not None
    assert int(match.group(1)) == len(received) > 0
