"""Never hang, never leak a process, never lose the error: each fault mode of the fake agent,
timeouts and cancellation, checked against the process table on asyncio and trio."""

from __future__ import annotations

import gc
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import anyio
import pytest
from proctable import group_members, is_running, settles

from agent_sdk import (
    AgentOptions,
    AgentProcessError,
    AgentProtocolError,
    AgentTimeoutError,
    AssistantEvent,
    Event,
    ResultEvent,
    run,
    run_async,
)

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]
# A guard so that a regression fails the test instead of hanging CI; not a timing claim.
HANG_GUARD = 30


@asynccontextmanager
async def guarded() -> AsyncIterator[None]:
    with anyio.fail_after(HANG_GUARD):
        yield


def assert_group_gone(pid: int | None) -> None:
    assert pid is not None
    assert group_members(pid) == []


# --- timeouts ---------------------------------------------------------------------------
async def test_timeout_ends_a_stalled_run_and_keeps_what_it_received(
    fake_options: MakeOptions,
) -> None:
    received: list[Event] = []
    events = run("go", options=fake_options("stall", timeout=1, keep_events=True))
    async with guarded():
        with pytest.raises(AgentTimeoutError) as info:
            async for event in events:
                received.append(event)
    error = info.value
    assert isinstance(error, TimeoutError)
    assert "AgentOptions.timeout" in str(error)
    assert error.events == received
    assert any(isinstance(e, AssistantEvent) for e in received)
    assert error.session_id is not None
    assert error.session_id == received[0].session_id
    assert_group_gone(events.pid)


async def test_idle_timeout_ends_a_run_that_prints_nothing(fake_options: MakeOptions) -> None:
    events = run("go", options=fake_options("stall", idle_timeout=0.5))
    async with guarded():
        with pytest.raises(AgentTimeoutError, match="idle_timeout"):
            async for _ in events:
                pass
    assert_group_gone(events.pid)


async def test_timeout_does_not_cut_a_run_that_finishes_in_time(
    fake_options: MakeOptions,
) -> None:
    result = await run_async("go", options=fake_options("tools", timeout=60, idle_timeout=30))
    assert isinstance(result.events[-1], ResultEvent)


# --- the known hang ---------------------------------------------------------------------
async def test_hang_after_result_succeeds_and_ends_the_lingering_group(
    fake_options: MakeOptions,
) -> None:
    events = run("go", options=fake_options("hang_after_result", result_grace=0.3))
    async with guarded(), events:
        async for _ in events:
            pass
    result = events.result
    assert result.result
    match = re.search(r"lingering child (\d+)", result.stderr)
    assert match is not None
    lingering = int(match[1])
    # SIGKILL is delivered asynchronously: the child may outlive killpg by a moment.
    assert settles(lambda: not is_running(lingering))
    assert_group_gone(events.pid)


# --- crashes, signals, floods -----------------------------------------------------------
async def test_killed_cli_raises_naming_the_signal_after_its_events(
    fake_options: MakeOptions,
) -> None:
    received: list[Event] = []
    events = run("go", options=fake_options("killed", keep_events=True))
    with pytest.raises(AgentProcessError, match="killed by signal SIGKILL") as info:
        async for event in events:
            received.append(event)
    assert info.value.exit_code == -signal.SIGKILL
    assert info.value.events == received != []
    assert_group_gone(events.pid)


async def test_crash_mid_stream_keeps_events_and_the_cut_line(fake_options: MakeOptions) -> None:
    received: list[Event] = []
    events = run("go", options=fake_options("crash_mid_stream", keep_events=True))
    with pytest.raises(AgentProcessError) as info:
        async for event in events:
            received.append(event)
    error = info.value
    assert error.exit_code == 1
    assert error.events == received != []
    assert any(line.startswith("{") for line in error.stdout_lines)  # the cut JSON line
    assert error.stderr.strip()
    assert_group_gone(events.pid)


async def test_stderr_flood_neither_blocks_nor_grows_memory(fake_options: MakeOptions) -> None:
    async with guarded():
        result = await run_async("go", options=fake_options("stderr_flood"))
    assert isinstance(result.events[-1], ResultEvent)
    assert 0 < len(result.stderr) <= 64 * 1024


async def test_garbage_bytes_and_non_object_lines_do_not_stop_the_stream(
    fake_options: MakeOptions,
) -> None:
    result = await run_async("go", options=fake_options("garbage"))
    assert any(isinstance(e, AssistantEvent) for e in result.events)
    assert result.text == result.result


async def test_truncated_last_line_is_a_protocol_error_that_quotes_it(
    fake_options: MakeOptions,
) -> None:
    with pytest.raises(AgentProtocolError, match="no result event") as info:
        await run_async("go", options=fake_options("truncated_last_line"))
    assert any('"type":"result"' in line for line in info.value.stdout_lines)


async def test_one_byte_at_a_time_drip_gives_the_same_run(fake_options: MakeOptions) -> None:
    async with guarded():
        dripped = await run_async("go", options=fake_options("slow_drip"))
    plain = await run_async("go", options=fake_options("hello"))
    assert dripped.result == plain.result
    assert [type(e) for e in dripped.events] == [type(e) for e in plain.events]


async def test_a_100_mb_line_arrives_whole(fake_options: MakeOptions) -> None:
    result = await run_async("go", options=fake_options("huge_line"))
    texts = [e.text for e in result.events if isinstance(e, AssistantEvent)]
    assert [len(t.encode()) for t in texts] == [100_000_000]
    assert result.result == texts[0]


# --- cancellation -----------------------------------------------------------------------
async def test_cancel_scope_ends_the_process_group(fake_options: MakeOptions) -> None:
    events = run("go", options=fake_options("stall"))
    async with guarded():
        with anyio.CancelScope() as scope:
            async for event in events:
                if isinstance(event, AssistantEvent):
                    scope.cancel()
    assert scope.cancelled_caught
    assert_group_gone(events.pid)


async def test_timeout_of_the_caller_ends_the_process_group(fake_options: MakeOptions) -> None:
    events = run("go", options=fake_options("stall"))
    async with guarded():
        with anyio.move_on_after(0.5):
            async for _ in events:
                pass
    assert_group_gone(events.pid)


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_asyncio_task_cancel_ends_the_process_group(fake_options: MakeOptions) -> None:
    import asyncio

    events = run("go", options=fake_options("stall"))
    started = asyncio.Event()

    async def consume() -> None:
        async for _ in events:
            started.set()

    task = asyncio.ensure_future(consume())
    await asyncio.wait_for(started.wait(), HANG_GUARD)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert_group_gone(events.pid)


# Python rightly warns that an abandoned run's pipes were never closed (that is what
# `async with` or `aclose()` are for); what matters here is that the CLI is gone.
@pytest.mark.filterwarnings("ignore::ResourceWarning")
async def test_break_then_garbage_collection_ends_the_process_group(
    fake_options: MakeOptions,
) -> None:
    events = run("go", options=fake_options("stall"))
    async for _ in events:
        break
    pid = events.pid
    del events
    gc.collect()
    assert pid is not None
    with anyio.fail_after(HANG_GUARD):
        while [p for p in group_members(pid) if p != pid]:  # noqa: ASYNC110 (no event to wait on)
            await anyio.sleep(0.05)  # SIGKILL is asynchronous: wait until it has landed


async def test_many_runs_breaking_early_in_a_task_group_raise_nothing(
    fake_options: MakeOptions,
) -> None:
    pids: list[int | None] = []

    async def first_event_only() -> None:
        async with run("go", options=fake_options("tools")) as events:
            async for _ in events:
                break
        pids.append(events.pid)

    async with guarded(), anyio.create_task_group() as tg:
        for _ in range(10):
            tg.start_soon(first_event_only)
    assert len(pids) == 10
    for pid in pids:
        assert_group_gone(pid)


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_bare_async_for_break_under_gather_raises_nothing(
    fake_options: MakeOptions,
) -> None:
    import asyncio

    async def first_event_only() -> int | None:
        events = run("go", options=fake_options("tools"))
        async for _ in events:
            break
        await events.aclose()
        return events.pid

    pids = await asyncio.wait_for(
        asyncio.gather(*(first_event_only() for _ in range(10))), HANG_GUARD
    )
    for pid in pids:
        assert_group_gone(pid)


def test_interpreter_exit_ends_runs_left_open(fake_binary: str) -> None:
    program = f"""
import anyio, sys
from agent_sdk import AgentOptions, run
events = run("go", options=AgentOptions(binary={fake_binary!r},
                                         env={{"FAKE_AGENT_SCENARIO": "stall"}}))
async def main():
    async for _ in events:
        break
    print(events.pid, flush=True)
anyio.run(main)
# exit with the run still open: atexit must end its group
"""
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert out.returncode == 0, out.stderr
    pgid = int(out.stdout)
    # SIGKILL is delivered asynchronously: the group may outlive the killpg by a moment.
    assert settles(lambda: group_members(pgid) == []), group_members(pgid)
