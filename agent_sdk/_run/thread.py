"""A run on an event loop of its own, in a worker thread: what ``run_sync`` does when a
loop already runs in the caller's thread (docs/lifecycle.md, "run_sync in a running
loop").

The caller's thread waits on it and is what a user interrupts, possibly again and again
while the run ends (Ctrl-C held down). So every call the waiting thread makes here is
safe to interrupt and to repeat: :meth:`RunThread.wait` is one acquire of a plain lock
(interrupted, it has changed nothing), and :meth:`RunThread.cancel` only asks the
worker's loop to cancel the run, which asking twice does not change.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Generic, TypeVar

import anyio

if TYPE_CHECKING:
    import asyncio

T = TypeVar("T")

__all__ = ["RunThread"]


class RunThread(Generic[T]):
    """``work()`` run to its end on a loop of its own (asyncio's), in a daemon thread."""

    def __init__(self, work: Callable[[], Awaitable[T]]) -> None:
        self._work = work
        # Held while the run goes on, so waiting for the end is one acquire, a single
        # call an interruption cannot leave half done (a Condition's wait can). The end
        # itself is the flag: an interruption may land just after an acquire succeeded,
        # before its release, and the next wait must still see the end.
        self._running = threading.Lock()
        self._running.acquire()
        self._ended = False
        self._cancelled = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._scope: anyio.CancelScope | None = None
        self._value: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._main, name="agent-sdk run_sync", daemon=True)

    def start(self) -> None:
        """Start the run in its thread."""
        self._thread.start()

    def wait(self, timeout: float) -> bool:
        """Whether the run has ended, waiting for it at most ``timeout`` seconds."""
        if self._ended:
            return True
        if self._running.acquire(timeout=timeout):
            self._running.release()
        return self._ended

    def cancel(self) -> None:
        """Ask the run to end (its teardown ends the CLI); returns at once, and may be
        called any number of times, before the run starts or after it ended."""
        self._cancelled = True
        # Read after the flag: the worker sets these before it reads the flag, so one of
        # the two sides always sees the other's write.
        loop, scope = self._loop, self._scope
        if loop is None or scope is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: the run ended
            loop.call_soon_threadsafe(scope.cancel)

    def outcome(self) -> T:
        """The run's value, or its error raised; once :meth:`wait` said it ended."""
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]  # set, since no error was

    def _main(self) -> None:
        try:
            self._value = anyio.run(self._body)
        except BaseException as error:  # handed to the waiting thread by outcome()
            self._error = error
        finally:
            self._ended = True
            self._running.release()

    async def _body(self) -> T | None:
        import asyncio

        with anyio.CancelScope() as scope:
            self._loop = asyncio.get_running_loop()
            self._scope = scope
            if self._cancelled:  # asked before the run began: it does not begin
                return None
            return await self._work()
        return None  # cancelled: the waiting thread raises its interruption instead
