"""The threads of sync tools and callbacks (agent_sdk/extend/_threads.py; docs/extend.md,
"Sync code and its threads"): daemons, so that an abandoned one never holds the program at
its exit (tests/process/test_callback_threads.py proves that in a process), and bounded: an
abandoned thread keeps its place until its code returns. On asyncio and trio."""

from __future__ import annotations

import contextvars
import threading

import anyio
import anyio.to_thread
import pytest

from agent_sdk.extend import _threads
from agent_sdk.extend._threads import in_thread

pytestmark = pytest.mark.anyio

WHO = contextvars.ContextVar("who", default="nobody")


async def test_the_code_runs_in_a_daemon_thread_in_the_callers_context() -> None:
    WHO.set("the caller")

    def where() -> tuple[bool, bool, str]:
        thread = threading.current_thread()
        return thread.daemon, thread is threading.main_thread(), WHO.get()

    assert await in_thread(where) == (True, False, "the caller")


async def test_what_the_code_raises_is_raised_to_the_caller() -> None:
    def fail() -> None:
        raise SystemExit(3)

    with pytest.raises(SystemExit):
        await in_thread(fail)


async def test_abandoned_threads_keep_their_places_until_their_code_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_threads, "THREADS", 2)  # the limiter of this test's loop
    release = threading.Event()
    began = threading.Semaphore(0)

    def hang() -> None:
        began.release()
        release.wait()

    async with anyio.create_task_group() as group:
        for _ in range(2):
            group.start_soon(in_thread, hang)
        for _ in range(2):
            await anyio.to_thread.run_sync(began.acquire)
        group.cancel_scope.cancel()  # both abandoned, their code still running
    limiter = _threads._limiter()
    assert limiter.borrowed_tokens == 2
    ran: list[int] = []
    async with anyio.create_task_group() as group:
        group.start_soon(in_thread, ran.append, 1)
        await anyio.wait_all_tasks_blocked()
        assert ran == []  # no place: it waits, no third thread
        release.set()  # the abandoned code returns and gives its places back
    assert ran == [1]
    # Each abandoned thread gives its place back through the loop once its code returned:
    # the second may still be on its way when the new call is done.
    with anyio.fail_after(10):  # a hang guard, not a timing claim
        while limiter.borrowed_tokens:  # noqa: ASYNC110 (the loop must run to take it back)
            await anyio.sleep(0.01)
