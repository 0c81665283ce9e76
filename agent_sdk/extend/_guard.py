"""The program's own code, called by a host (a tool's function, a hook's callback), in a
task of its own, so that whatever it raises is that call's failure and never the host's
(docs/extend.md, "When your code fails").

Why a task: code that awaits something another task cancelled (an asyncio future cancelled
elsewhere, a trio ``Cancelled`` handed over) raises a cancellation that no scope of ours
asked for; caught in the host's own task it cannot be told from the host being cancelled
(Python 3.10 has no ``Task.cancelling()``), and let through it ends the host: every later
call is then answered "gone". In a task of its own the code's cancellation ends only that
task, while a cancellation of the host (its scope, or the task itself at a loop's end)
still reaches the host at the task group's exit.

What the code raised that is no ``Exception`` and no cancellation (``SystemExit``,
``KeyboardInterrupt``, a test framework's failure) fails the call too, and also ends the
run (:func:`ends_the_run`): the program meant more than this call's failure.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import anyio.lowlevel

__all__ = ["ends_the_run", "isolated"]


async def isolated(call: Callable[[], Awaitable[Any]]) -> tuple[Any, BaseException | None]:
    """``(await call(), None)``, or ``(None, what it raised)``: anything, a
    ``BaseException`` included, but the cancellation of the caller itself, which goes on.
    """
    outcome: list[tuple[Any, BaseException | None]] = []

    async def run() -> None:
        try:
            outcome.append((await call(), None))
        except BaseException as exc:  # the code's own failure, whatever it is
            outcome.append((None, exc))

    async with anyio.create_task_group() as group:
        group.start_soon(run)
    # Cancelled here: the caller is, and its cancellation goes on (the task's own was kept
    # in ``outcome`` as the code's failure, a copy of the caller's).
    await anyio.lowlevel.checkpoint_if_cancelled()
    return outcome[0]


def ends_the_run(error: BaseException) -> bool:
    """Whether ``error``, raised by a tool or a callback, ends its run besides failing the
    call: what is no ``Exception``, but a cancellation (another task's: the call's alone)."""
    if isinstance(error, Exception):
        return False
    asyncio, trio = sys.modules.get("asyncio"), sys.modules.get("trio")
    if asyncio is not None and isinstance(error, asyncio.CancelledError):
        return False
    return trio is None or not isinstance(error, trio.Cancelled)
