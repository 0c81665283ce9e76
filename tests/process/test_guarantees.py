"""The lifecycle guarantees of docs/lifecycle.md against real subprocesses (the fake
agent): what the in-memory tests cannot show, the process group and the descriptors."""

from __future__ import annotations

import gc
import random
import re
from collections.abc import Callable

import anyio
import anyio.lowlevel
import pytest
from proctable import children, group_members, is_running, open_fds, settles

from agent_sdk import (
    AgentOptions,
    AgentProcessError,
    AgentTimeoutError,
    Event,
    ResultEvent,
    run,
    run_async,
)

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]
GUARD = 60  # a regression fails instead of hanging; not a timing claim
LONG_PROMPT = "Refactor this:\n" + "x = 1\n" * 40_000  # 240 kB: written to stdin


@pytest.fixture
async def nothing_left() -> object:
    """Asserts after the test that no child process and no descriptor was left."""
    await anyio.lowlevel.checkpoint()
    gc.collect()
    before = open_fds(), set(children())
    yield
    gc.collect()
    assert set(children()) == before[1]
    assert open_fds() == before[0]


async def warm_up(fake_options: MakeOptions) -> None:
    # The event loop opens descriptors of its own on its first subprocess.
    await run_async("warm-up", options=fake_options("hello"))


# --- teardown that cannot be interrupted -------------------------------------------------
async def test_a_second_cancellation_still_kills_a_cli_that_ignores_sigterm(
    anyio_backend: str, fake_options: MakeOptions
) -> None:
    await warm_up(fake_options)
    gc.collect()
    fds = open_fds()
    events = run("go", options=fake_options("ignore_sigterm"))
    first_event = anyio.Event()

    async def consume() -> None:
        async for _ in events:
            first_event.set()

    with anyio.fail_after(GUARD):
        if anyio_backend == "asyncio":
            import asyncio

            task = asyncio.get_running_loop().create_task(consume())
            await first_event.wait()
            await anyio.sleep(0.2)  # it has ignored SIGTERM by now
            task.cancel()
            await anyio.sleep(0.2)  # inside the teardown, waiting after SIGTERM
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        else:
            async with anyio.create_task_group() as tg:
                with anyio.CancelScope() as outer:
                    tg.start_soon(consume)
                    await first_event.wait()
                    await anyio.sleep(0.2)
                    tg.cancel_scope.cancel()
                    await anyio.sleep(0.2)
                    outer.cancel()
    assert events.pid is not None
    assert group_members(events.pid) == []
    gc.collect()
    assert open_fds() == fds


# --- the stdin prompt --------------------------------------------------------------------
async def test_cancelling_while_a_long_prompt_is_written_leaves_nothing(
    fake_options: MakeOptions, nothing_left: object
) -> None:
    options = fake_options("hello", env={"FAKE_AGENT_STDIN_DELAY": "30"})
    events = run(LONG_PROMPT, options=options)
    with anyio.fail_after(GUARD), anyio.move_on_after(0.5) as scope:
        async for _ in events:
            pass
    assert scope.cancelled_caught
    assert events.pid is not None
    assert group_members(events.pid) == []


async def test_a_timeout_while_a_long_prompt_is_written_ends_the_cli(
    fake_options: MakeOptions, nothing_left: object
) -> None:
    options = fake_options("hello", env={"FAKE_AGENT_STDIN_DELAY": "30"}, timeout=0.5)
    events = run(LONG_PROMPT, options=options)
    with anyio.fail_after(GUARD), pytest.raises(AgentTimeoutError, match="timeout"):
        async for _ in events:
            pass
    assert events.pid is not None
    assert group_members(events.pid) == []


async def test_an_idle_timeout_while_a_long_prompt_is_written_ends_the_cli(
    fake_options: MakeOptions, nothing_left: object
) -> None:
    options = fake_options("hello", env={"FAKE_AGENT_STDIN_DELAY": "30"}, idle_timeout=0.5)
    with anyio.fail_after(GUARD), pytest.raises(AgentTimeoutError, match="idle_timeout"):
        await run_async(LONG_PROMPT, options=options)


async def test_a_long_prompt_read_slowly_still_arrives_whole(fake_options: MakeOptions) -> None:
    options = fake_options("hello", env={"FAKE_AGENT_STDIN_DELAY": "0.3"}, keep_events=True)
    result = await run_async(LONG_PROMPT, options=options)
    echoed = [e for e in result.events if e.type == "user"]
    assert echoed[0].text == LONG_PROMPT  # type: ignore[union-attr]


# --- the exit is watched as well as stdout -----------------------------------------------
async def test_a_cli_exiting_while_its_child_holds_stdout_fails_with_its_exit_status(
    fake_options: MakeOptions,
) -> None:
    options = fake_options("exit_leaving_child", result_grace=0.5, idle_timeout=30)
    events = run("go", options=options)
    with anyio.fail_after(GUARD), pytest.raises(AgentProcessError) as info:
        async for _ in events:
            pass
    assert not isinstance(info.value, AgentTimeoutError)
    assert info.value.exit_code == 1
    match = re.search(r"left child (\d+)", info.value.stderr)
    assert match is not None
    child, pid = int(match[1]), events.pid
    assert pid is not None
    assert settles(lambda: not is_running(child))
    assert settles(lambda: group_members(pid) == [])


# --- a timeout measures the CLI ----------------------------------------------------------
async def test_a_slow_consumer_does_not_make_a_fast_cli_time_out(
    fake_options: MakeOptions,
) -> None:
    events = run("go", options=fake_options("tools", timeout=1))
    received: list[Event] = []
    with anyio.fail_after(GUARD):
        async with events:
            async for event in events:
                received.append(event)
                if len(received) == 1:
                    await anyio.sleep(1.5)  # the consumer is slow, not the CLI
    assert isinstance(received[-1], ResultEvent)
    assert events.result.result


# --- aclose() from another task ----------------------------------------------------------
@pytest.mark.parametrize("delay", [0.0, 0.01, 0.05, 0.2])
async def test_aclose_from_another_task_ends_the_iteration_cleanly(
    fake_options: MakeOptions, delay: float, nothing_left: object
) -> None:
    for scenario in ("stall", "slow_drip", "hello"):
        events = run("go", options=fake_options(scenario))

        async def consume(events: object = events) -> None:
            async for _ in events:  # type: ignore[attr-defined]
                pass

        with anyio.fail_after(GUARD):
            async with anyio.create_task_group() as tg:
                tg.start_soon(consume)
                await anyio.sleep(delay)
                await events.aclose()
        if events.pid is not None:
            assert group_members(events.pid) == []


# --- a soak of random interruptions -------------------------------------------------------
async def test_random_cancels_with_long_prompts_leave_nothing_behind(
    fake_options: MakeOptions, nothing_left: object
) -> None:
    rng = random.Random(7)

    async def one(i: int) -> None:
        prompt = LONG_PROMPT if i % 2 else "short"
        env = {"FAKE_AGENT_STDIN_DELAY": str(rng.choice([0, 0.05, 0.2]))}
        with anyio.move_on_after(rng.uniform(0, 0.4)):
            async with run(prompt, options=fake_options("slow_drip", env=env)) as events:
                async for _ in events:
                    pass

    with anyio.fail_after(GUARD * 2):
        async with anyio.create_task_group() as tg:
            for i in range(60):
                tg.start_soon(one, i)
