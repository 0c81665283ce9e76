"""Sync tools and callbacks in threads of their own (docs/extend.md, "Sync code and its
threads"): daemon threads, at most :data:`THREADS` at once per event loop.

Why not ``anyio.to_thread``: on asyncio its worker threads are not daemons, so a sync
callback abandoned past ``Hooks.timeout`` (an ``input()`` nobody answers) or a sync tool
past the run's timeout kept the interpreter from exiting: the run ended, the program never
did. Here a cancelled wait abandons the thread as before (its result is dropped), and the
interpreter's exit does not wait for it. A thread keeps its place in the limit until its
code returns, so code that never returns cannot pile threads up: once :data:`THREADS` hang,
the next call waits for a place (a gate then denies at its timeout).

A thread holds the standard streams while the code runs: code blocked reading one (the
``input()`` above) holds its lock, and CPython aborts at exit ("could not acquire lock for
<stdin> at interpreter shutdown") if it frees that stream while the lock is held.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
import threading
from collections.abc import Callable
from typing import Any

import anyio
import anyio.lowlevel

__all__ = ["THREADS", "in_thread"]

THREADS = 32
"""Threads of sync tools and callbacks at once, per event loop (those abandoned included)."""

_LIMITER: anyio.lowlevel.RunVar[anyio.CapacityLimiter] = anyio.lowlevel.RunVar(
    "agent_sdk_callback_threads"
)


def _limiter() -> anyio.CapacityLimiter:
    try:
        return _LIMITER.get()
    except LookupError:
        limiter = anyio.CapacityLimiter(THREADS)
        _LIMITER.set(limiter)
        return limiter


def _call_soon_in_loop() -> Callable[[Callable[[], None]], None]:
    """A function that runs another in the running event loop, from any thread (raises
    ``RuntimeError`` once that loop is over)."""
    trio = sys.modules.get("trio")
    if trio is not None and trio.lowlevel.in_trio_run():
        run_sync_soon: Callable[[Callable[[], None]], None] = (
            trio.lowlevel.current_trio_token().run_sync_soon
        )
        return run_sync_soon
    import asyncio

    loop = asyncio.get_running_loop()

    def call_soon(function: Callable[[], None]) -> None:
        loop.call_soon_threadsafe(function)

    return call_soon


async def in_thread(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` in a daemon thread (see the module's docstring), in a copy of
    the caller's context; what it raises is raised here. A cancelled wait abandons it."""
    limiter = _limiter()
    borrower = object()
    await limiter.acquire_on_behalf_of(borrower)
    done = anyio.Event()
    outcome: list[tuple[Any, BaseException | None]] = []
    context = contextvars.copy_context()

    def finish() -> None:  # in the loop
        limiter.release_on_behalf_of(borrower)
        done.set()

    call_soon = _call_soon_in_loop()

    def work() -> None:
        held = (sys.stdin, sys.__stdin__)  # see the module's docstring
        try:
            outcome.append((context.run(function, *args), None))
        except BaseException as exc:  # raised in the caller's task
            outcome.append((None, exc))
        del held
        # RuntimeError: the loop is over (the program is ending), nobody waits.
        with contextlib.suppress(RuntimeError):
            call_soon(finish)

    try:
        threading.Thread(target=work, name="agent_sdk sync code", daemon=True).start()
    except BaseException:
        limiter.release_on_behalf_of(borrower)
        raise
    await done.wait()
    value, error = outcome[0]
    if error is not None:
        raise error
    return value
