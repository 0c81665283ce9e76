"""A run's lifecycle rules (docs/lifecycle.md), against the in-memory transport: deadlines,
the exit watch, the known hang, closing from another task, cancellation, what is kept."""

from __future__ import annotations

import math

import anyio
import pytest
from scripts import SESSION, init, lines, result, say

from agent_sdk import (
    AgentModelError,
    AgentOptions,
    AgentProcessError,
    AgentProtocolError,
    AgentTimeoutError,
    AgentUsageError,
    Event,
    ResultEvent,
    run,
    run_async,
)
from agent_sdk.testing import Exit, MemoryTransport, Pause, Stderr

pytestmark = pytest.mark.anyio

GUARD = 10  # a regression fails instead of hanging; not a timing claim


async def collect(events: object, received: list[Event] | None = None) -> list[Event]:
    """Every event of ``events`` (into ``received``, which keeps them if it raises)."""
    received = [] if received is None else received
    with anyio.fail_after(GUARD):
        async for event in events:  # type: ignore[attr-defined]
            received.append(event)
    return received


# --- deadlines --------------------------------------------------------------------------
async def test_timeout_ends_a_stalled_cli_after_delivering_its_events() -> None:
    transport = MemoryTransport([lines(init(), say("hi")), Pause(math.inf)])
    events = run("go", options=AgentOptions(timeout=0.2, keep_events=True), transport=transport)
    received: list[Event] = []
    with pytest.raises(AgentTimeoutError, match=r"AgentOptions\.timeout") as info:
        await collect(events, received)
    assert len(received) == 2
    assert info.value.events == received
    assert info.value.session_id == SESSION
    assert transport.signals == ["SIGTERM"]


async def test_idle_timeout_ends_a_silent_cli() -> None:
    transport = MemoryTransport([lines(init()), Pause(math.inf)])
    with pytest.raises(AgentTimeoutError, match="idle_timeout"):
        await collect(run("go", options=AgentOptions(idle_timeout=0.1), transport=transport))
    assert transport.signals == ["SIGTERM"]


async def test_idle_timeout_counts_from_the_last_output() -> None:
    script = [lines(init())]
    for _ in range(6):
        script += [Pause(0.05), lines(say("."))]
    transport = MemoryTransport([*script, lines(result()), Exit(0)])
    result_ = await run_async("go", options=AgentOptions(idle_timeout=0.2), transport=transport)
    assert result_.text == "......"


async def test_a_cli_that_finished_in_time_succeeds_however_slowly_it_is_consumed() -> None:
    transport = MemoryTransport([lines(init()), Pause(0.05), lines(result("all")), Exit(0)])
    events = run("go", options=AgentOptions(timeout=0.2), transport=transport)
    received: list[Event] = []
    with anyio.fail_after(GUARD):
        async for event in events:
            received.append(event)
            if len(received) == 1:
                await anyio.sleep(0.4)  # the consumer, not the CLI, is slow
    assert isinstance(received[-1], ResultEvent)
    assert events.result.result == "all"
    assert transport.signals == []


async def test_a_timeout_delivers_what_the_cli_printed_before_it() -> None:
    script = [lines(init()), Pause(0.05), lines(say("late")), Pause(math.inf)]
    transport = MemoryTransport(script)
    events = run("go", options=AgentOptions(timeout=0.2), transport=transport)
    received: list[Event] = []
    with pytest.raises(AgentTimeoutError), anyio.fail_after(GUARD):
        async for event in events:
            received.append(event)
            if len(received) == 1:
                await anyio.sleep(0.4)
    assert [type(e).__name__ for e in received] == ["SystemInit", "AssistantEvent"]


async def test_writing_the_prompt_is_bounded_by_the_timeout() -> None:
    transport = MemoryTransport([lines(result()), Exit(0)], start_delay=math.inf)
    with pytest.raises(AgentTimeoutError):
        await collect(run("x" * 200_000, options=AgentOptions(timeout=0.1), transport=transport))
    assert transport.signals == ["SIGTERM"]


async def test_writing_the_prompt_is_bounded_by_the_idle_timeout() -> None:
    transport = MemoryTransport([lines(result()), Exit(0)], start_delay=math.inf)
    with pytest.raises(AgentTimeoutError, match="idle_timeout"):
        await collect(run("go", options=AgentOptions(idle_timeout=0.1), transport=transport))
    assert transport.signals == ["SIGTERM"]


async def test_cancelling_while_the_prompt_is_written_ends_the_cli() -> None:
    transport = MemoryTransport([lines(result()), Exit(0)], start_delay=math.inf)
    with anyio.move_on_after(0.1) as scope:
        await collect(run("go", transport=transport))
    assert scope.cancelled_caught
    assert transport.signals == ["SIGTERM"]
    assert transport.receive_ready() is None  # closed


# --- the exit is watched as well as stdout ----------------------------------------------
async def test_an_exit_while_stdout_is_held_ends_the_run_with_its_exit_status() -> None:
    script = [lines(init(), say("hi")), Stderr("boom\n"), Exit(1, hold_stdout=True)]
    transport = MemoryTransport(script)
    options = AgentOptions(result_grace=0.1, idle_timeout=5)
    with pytest.raises(AgentProcessError, match="exited with code 1: boom") as info:
        await collect(run("go", options=options, transport=transport))
    assert info.value.exit_code == 1
    assert not isinstance(info.value, AgentTimeoutError)


async def test_an_exit_0_after_a_result_while_stdout_is_held_succeeds() -> None:
    transport = MemoryTransport([lines(init(), result("ok")), Exit(0, hold_stdout=True)])
    events = run("go", options=AgentOptions(result_grace=0.1), transport=transport)
    await collect(events)
    assert events.result.exit_code == 0


# --- the known hang (docs/protocol.md §5) ----------------------------------------------
async def test_a_cli_that_lingers_after_its_result_is_ended_and_succeeds() -> None:
    transport = MemoryTransport([lines(init(), result("ok")), Pause(math.inf)])
    events = run("go", options=AgentOptions(result_grace=0.1), transport=transport)
    await collect(events)
    assert events.result.result == "ok"
    assert events.result.exit_code == -15
    assert transport.signals == ["SIGTERM"]


# --- outcomes ---------------------------------------------------------------------------
async def test_a_failure_is_raised_after_every_event_before_it() -> None:
    script = [
        lines(init(), say("a")),
        Stderr("Cannot use this model: nope. Available models: auto, gpt-5\n"),
        Exit(1),
    ]
    received: list[Event] = []
    with pytest.raises(AgentModelError) as info:
        await collect(run("go", transport=MemoryTransport(script)), received)
    assert len(received) == 2
    assert info.value.available_models == ["auto", "gpt-5"]


async def test_exit_0_without_a_result_is_a_protocol_error() -> None:
    with pytest.raises(AgentProtocolError):
        await collect(run("go", transport=MemoryTransport([lines(init()), Exit(0)])))


# --- closing from another task ----------------------------------------------------------
async def test_aclose_from_another_task_ends_the_iteration_cleanly() -> None:
    transport = MemoryTransport([lines(init()), Pause(math.inf)])
    events = run("go", transport=transport)
    received: list[Event] = []

    async def consume() -> None:
        async for event in events:
            received.append(event)

    with anyio.fail_after(GUARD):
        async with anyio.create_task_group() as tg:
            tg.start_soon(consume)
            await anyio.sleep(0.05)
            await events.aclose()
    assert len(received) == 1
    assert transport.signals == ["SIGTERM"]
    with pytest.raises(AgentUsageError, match="not finished"):
        _ = events.result


async def test_a_closed_run_yields_nothing_more() -> None:
    events = run("go", transport=MemoryTransport([lines(init(), result()), Exit(0)]))
    await events.aclose()
    assert await collect(events) == []


# --- cancellation -----------------------------------------------------------------------
async def test_teardown_completes_when_cancelled_again(anyio_backend: str) -> None:
    # A CLI slow to honour SIGTERM, and a second cancellation while the teardown waits
    # for it (docs/lifecycle.md): SIGKILL must still be sent.
    transport = MemoryTransport([lines(init()), Pause(math.inf)], ignore_sigterm=True)
    events = run("go", transport=transport)
    with anyio.fail_after(GUARD):
        await cancel_twice(anyio_backend, events)
    assert transport.signals == ["SIGTERM", "SIGKILL"]
    assert transport.returncode == -9


async def cancel_twice(backend: str, events: object) -> None:
    """Cancel a task consuming ``events`` and cancel it again during its teardown."""

    async def consume() -> None:
        async for _ in events:  # type: ignore[attr-defined]
            pass

    if backend == "asyncio":
        import asyncio

        task = asyncio.get_running_loop().create_task(consume())
        await anyio.sleep(0.05)
        task.cancel()
        await anyio.sleep(0.1)  # now inside the teardown, waiting after SIGTERM
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return
    async with anyio.create_task_group() as tg:
        with anyio.CancelScope() as outer:
            tg.start_soon(consume)
            await anyio.sleep(0.05)
            tg.cancel_scope.cancel()
            await anyio.sleep(0.1)
            outer.cancel()


# --- what is kept -----------------------------------------------------------------------
async def test_a_streamed_run_keeps_no_events_but_assembles_the_reply() -> None:
    script = [lines(init(), say("Hel"), say("lo"), result("Hello")), Exit(0)]
    events = run("go", transport=MemoryTransport(script))
    received = await collect(events)
    assert len(received) == 4
    assert events.events == []
    assert events.result.events == []
    assert events.result.text == "Hello"


async def test_run_async_keeps_every_event() -> None:
    script = [lines(init(), say("Hel"), say("lo"), result("Hello")), Exit(0)]
    result_ = await run_async("go", transport=MemoryTransport(script))
    assert len(result_.events) == 4
    assert result_.text == "Hello"


async def test_keep_events_decides_only_what_is_kept_never_what_text_means() -> None:
    script = [lines(init(), say("a"), say("b"), result("the result differs")), Exit(0)]
    kept = await run_async(
        "go", options=AgentOptions(keep_events=True), transport=MemoryTransport(script)
    )
    dropped = await run_async(
        "go", options=AgentOptions(keep_events=False), transport=MemoryTransport(script)
    )
    assert kept.text == dropped.text == "ab"
    assert dropped.events == []


async def test_partial_output_flushes_are_not_text_twice() -> None:
    script = [
        lines(
            init(),
            say("Hel", timestamp_ms=1),
            say("lo", timestamp_ms=2),
            say("Hello", timestamp_ms=3, model_call_id="m-1"),  # flush before a tool call
            say("Hello"),  # end-of-turn flush
            result("Hello"),
        ),
        Exit(0),
    ]
    options = AgentOptions(stream_partial_output=True)
    result_ = await run_async("go", options=options, transport=MemoryTransport(script))
    assert result_.text == "Hello"
    assert [e.is_flush for e in result_.events if e.type == "assistant"] == [  # type: ignore[union-attr]
        False,
        False,
        True,
        True,
    ]


async def test_is_flush_on_the_wire_is_not_obeyed() -> None:
    script = [lines(init(), say("Hi", is_flush=True), result("Hi")), Exit(0)]
    result_ = await run_async("go", transport=MemoryTransport(script))
    assert result_.text == "Hi"


async def test_two_tasks_cannot_iterate_one_run_at_once() -> None:
    events = run("go", transport=MemoryTransport([lines(init()), Pause(math.inf)]))

    async def consume() -> None:
        async for _ in events:
            pass

    with anyio.fail_after(GUARD):
        async with events, anyio.create_task_group() as tg:
            tg.start_soon(consume)
            await anyio.sleep(0.05)
            with pytest.raises(AgentUsageError, match="already being iterated"):
                await events.__anext__()
            tg.cancel_scope.cancel()
