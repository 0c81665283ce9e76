"""``run_sync()``: a whole run from code that is not async, even inside a running loop."""

from __future__ import annotations

import sys

import anyio

from ._run import run_async
from .options import AgentOptions
from .result import RunResult

__all__ = ["run_sync"]


def run_sync(prompt: str, *, options: AgentOptions | None = None) -> RunResult:
    """Run the agent to completion and return its :class:`RunResult` (blocking).

    Works from a plain script and also from a thread that already runs an event loop
    (a notebook): the run then happens on a private loop in a worker thread. Same
    arguments and errors as :func:`run`.

    Example::

        print(run_sync("What does this repo do?").result)
    """
    if not _loop_running_in_this_thread():
        return anyio.run(_run_async_positional, prompt, options)
    import threading

    box: list[RunResult] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            box.append(anyio.run(_run_async_positional, prompt, options))
        except BaseException as exc:  # re-raised in the caller's thread, type intact
            failure.append(exc)

    thread = threading.Thread(target=target, name="agent_sdk.run_sync", daemon=True)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return box[0]


async def _run_async_positional(prompt: str, options: AgentOptions | None) -> RunResult:
    return await run_async(prompt, options=options)


def _loop_running_in_this_thread() -> bool:
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        trio = sys.modules.get("trio")  # only look if the program uses trio at all
        return trio is not None and bool(trio.lowlevel.in_trio_run())
    return True
