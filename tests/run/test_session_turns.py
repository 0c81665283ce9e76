"""Turn-taking in a Session (docs/lifecycle.md, "Sessions"), against the in-memory
transport: a session never deadlocks, and a turn's wait is not part of its timeout."""

from __future__ import annotations

import gc
import math
import threading

import anyio
import pytest
from scripts import SESSION, init, lines, result, say, scripted

from agent_sdk import AgentOptions, AgentTimeoutError, AgentUsageError, Session
from agent_sdk.testing import Exit, Pause, Step

pytestmark = pytest.mark.anyio

GUARD = 10  # a regression fails instead of hanging; not a timing claim


QUICK: list[Step] = [lines(init(), say("hi"), result("hi")), Exit(0)]


async def test_a_turn_left_with_break_frees_the_session_once_its_cli_exits() -> None:
    slow: list[Step] = [lines(init(), say("a")), Pause(0.1), lines(result()), Exit(0)]
    session = Session(transport=scripted(slow, QUICK))
    first = session.run("one")
    async for _ in first:
        break  # no aclose(), and `first` is still held
    with anyio.fail_after(GUARD):
        reply = await session.send("two")
    assert reply.result == "hi"
    assert first.session_id == SESSION


async def test_a_dropped_turn_frees_the_session() -> None:
    stalled: list[Step] = [lines(init()), Pause(math.inf)]
    make = scripted(stalled, QUICK)
    session = Session(transport=make)
    first = session.run("one")
    async for _ in first:
        break
    del first
    gc.collect()
    with anyio.fail_after(GUARD):
        reply = await session.send("two")
    assert reply.result == "hi"
    assert make.made[0].signals == ["SIGKILL"]  # type: ignore[attr-defined]


async def test_the_wait_for_the_previous_turn_is_not_part_of_the_timeout() -> None:
    # Each turn takes less than the timeout; the second's wait and run together, more.
    first: list[Step] = [lines(init()), Pause(0.2), lines(result("first")), Exit(0)]
    second: list[Step] = [lines(init()), Pause(0.1), lines(result("second")), Exit(0)]
    session = Session(options=AgentOptions(timeout=0.25), transport=scripted(first, second))
    replies: list[str] = []

    async def turn(prompt: str) -> None:
        replies.append((await session.send(prompt)).result)

    with anyio.fail_after(GUARD):
        async with anyio.create_task_group() as tg:
            tg.start_soon(turn, "one")
            await anyio.sleep(0.01)
            tg.start_soon(turn, "two")
    assert replies == ["first", "second"]


async def test_turns_run_in_the_order_they_were_started() -> None:
    session = Session(transport=scripted([lines(init()), Pause(0.2), lines(result()), Exit(0)]))
    order: list[int] = []

    async def turn(n: int) -> None:
        await session.send(f"message {n}")
        order.append(n)

    with anyio.fail_after(GUARD):
        async with anyio.create_task_group() as tg:
            for n in range(5):
                tg.start_soon(turn, n)
                # turn n waits in the queue (the first runs) before n + 1 is started:
                # an order of starts that no timing decides
                await anyio.wait_all_tasks_blocked()
    assert order == [0, 1, 2, 3, 4]


async def test_later_turns_resume_the_chat_id_of_the_first() -> None:
    make = scripted(QUICK)
    session = Session(transport=make)
    await session.send("one")
    await session.send("two")
    first, second = make.made  # type: ignore[attr-defined]
    assert first.started_with[1].resume is None
    assert second.started_with[1].resume == SESSION == session.session_id


async def test_a_timed_out_turn_frees_the_session() -> None:
    stalled: list[Step] = [lines(init()), Pause(math.inf)]
    session = Session(options=AgentOptions(timeout=0.1), transport=scripted(stalled, QUICK))
    with pytest.raises(AgentTimeoutError):
        await session.send("one")
    with anyio.fail_after(GUARD):
        assert (await session.send("two")).result == "hi"


def test_a_session_works_from_one_event_loop_after_another(anyio_backend: str) -> None:
    session = Session(transport=scripted(QUICK))
    for prompt in ("one", "two"):
        assert anyio.run(session.send, prompt, backend=anyio_backend).result == "hi"
    assert session.session_id == SESSION


def test_a_turn_left_open_by_an_ended_loop_does_not_block_the_next(anyio_backend: str) -> None:
    stalled: list[Step] = [lines(init()), Pause(math.inf)]
    make = scripted(stalled, QUICK)
    session = Session(transport=make)
    held = []

    async def leave_a_turn_open() -> None:
        turn = session.run("one")
        async for _ in turn:
            break
        held.append(turn)  # still referenced when the loop ends

    anyio.run(leave_a_turn_open, backend=anyio_backend)
    assert anyio.run(session.send, "two", backend=anyio_backend).result == "hi"
    assert make.made[0].signals == ["SIGKILL"]  # type: ignore[attr-defined]


def test_a_turn_from_another_thread_fails_at_once_while_one_runs(anyio_backend: str) -> None:
    session = Session(transport=scripted([lines(init()), Pause(math.inf)], QUICK))
    errors: list[BaseException] = []
    started = threading.Event()
    done = threading.Event()

    async def hold_a_turn() -> None:
        async with session.run("one") as turn:
            async for _ in turn:
                started.set()
                # Hold the turn until the other thread has tried (a blocking wait in a
                # worker thread: the loop stays free).
                await anyio.to_thread.run_sync(done.wait, GUARD)
                break

    def other_thread() -> None:
        started.wait(GUARD)
        try:
            anyio.run(session.send, "two", backend=anyio_backend)
        except BaseException as exc:
            errors.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=other_thread)
    thread.start()
    anyio.run(hold_a_turn, backend=anyio_backend)
    thread.join(GUARD)
    assert len(errors) == 1
    assert isinstance(errors[0], AgentUsageError)
    assert "another thread" in str(errors[0])


async def test_a_turn_consumed_in_batches_frees_the_session_at_its_end() -> None:
    session = Session(transport=scripted(QUICK))
    with anyio.fail_after(GUARD):
        turn = session.run("one")
        batches = [batch async for batch in turn.batches()]
        learned = session.session_id  # the turn ended: the session resumes its chat
        reply = await session.send("two")
    assert [len(batch) for batch in batches] == [3]
    assert learned == SESSION
    assert turn.result.result == reply.result == "hi"
