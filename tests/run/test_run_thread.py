"""``RunThread``: the worker ``run_sync`` uses inside a running loop, waited on by a
thread a user may interrupt at any moment (docs/lifecycle.md, "run_sync in a running
loop"). Its waits and cancels are safe to interrupt and to repeat."""

from __future__ import annotations

import threading
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from agent_sdk._run.thread import RunThread


def _ended(thread: RunThread[Any]) -> bool:
    return any(thread.wait(0.05) for _ in range(200))


def test_the_value_of_the_work_is_its_outcome() -> None:
    async def work() -> int:
        await anyio.lowlevel.checkpoint()
        return 42

    thread = RunThread(work)
    thread.start()

    assert _ended(thread)
    assert thread.outcome() == 42


def test_the_error_of_the_work_is_raised_by_its_outcome() -> None:
    async def work() -> int:
        raise ValueError("the CLI said no")

    thread = RunThread(work)
    thread.start()

    assert _ended(thread)
    with pytest.raises(ValueError, match="the CLI said no"):
        thread.outcome()


def test_cancel_ends_a_run_under_way_after_its_teardown() -> None:
    began, torn_down = threading.Event(), threading.Event()

    async def work() -> None:
        began.set()
        try:
            await anyio.sleep_forever()
        finally:
            torn_down.set()

    thread = RunThread(work)
    thread.start()
    assert began.wait(10)

    thread.cancel()
    thread.cancel()  # asked again, as an interrupted caller does

    assert _ended(thread)
    assert torn_down.is_set()


def test_a_run_cancelled_before_it_began_never_begins() -> None:
    began = threading.Event()

    async def work() -> None:
        began.set()

    thread = RunThread(work)
    thread.cancel()
    thread.start()

    assert _ended(thread)
    assert not began.is_set()


def test_cancel_after_the_end_changes_nothing() -> None:
    async def work() -> str:
        return "done"

    thread = RunThread(work)
    thread.start()
    assert _ended(thread)

    thread.cancel()

    assert thread.wait(0)
    assert thread.outcome() == "done"


class _InterruptedRightAfterAcquire:
    """A lock whose successful acquire is followed by a Ctrl-C before the caller can use
    what it got: where Python may run a signal handler, just after a call returns."""

    def __init__(self, lock: Any) -> None:
        self._lock = lock

    def acquire(self, timeout: float = -1) -> bool:
        if self._lock.acquire(timeout=timeout):
            raise KeyboardInterrupt
        return False

    def release(self) -> None:
        self._lock.release()


def test_a_wait_interrupted_as_it_saw_the_end_still_sees_the_end_next_time() -> None:
    release = threading.Event()

    async def work() -> str:
        await anyio.to_thread.run_sync(release.wait)
        return "done"

    thread = RunThread(work)
    thread._running = _InterruptedRightAfterAcquire(thread._running)  # type: ignore[assignment]
    thread.start()
    release.set()

    with pytest.raises(KeyboardInterrupt):
        while not thread.wait(0.05):
            pass

    assert thread.wait(0)  # the lock stays taken by the interrupted wait: the end is seen
    assert thread.outcome() == "done"
