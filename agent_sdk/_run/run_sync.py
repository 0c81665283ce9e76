"""``run_sync()``: a whole run from code that is not async, even inside a running loop.

From a plain script it runs no event loop at all: the same :class:`Run` over a transport
that blocks (docs/lifecycle.md, "run_sync without an event loop"), so a short script does
not import one. Inside a running loop (a notebook, a sync helper called from async code)
the run cannot use that loop without blocking on itself, so it gets a loop of its own in
a worker thread, and the caller's thread waits. The wait is what a user interrupts: Ctrl-C (a
``KeyboardInterrupt``) or the cancellation ``asyncio.run`` delivers on the first Ctrl-C
must end the run and its CLI at once, not leave it editing files in the worker until it
is done (docs/lifecycle.md, "run_sync in a running loop").
"""

from __future__ import annotations

import sys
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar, overload

import anyio

from .._options.agent_options import AgentOptions, given_options
from ..result import PlainResult, RunResult

T = TypeVar("T")

if TYPE_CHECKING:
    import asyncio

    from .thread import RunThread

__all__ = ["run_sync"]

# How often the waiting thread wakes: to look whether asyncio asked its task to stop
# (asyncio.run answers the first Ctrl-C with a cancellation, which a blocked thread cannot
# receive), and to run the signal handlers. The kernel may hand a Ctrl-C to any thread of
# the process, the run's worker included; Python then runs the handler (trio's raises
# KeyboardInterrupt) in the main thread only when that thread runs again, which a wait
# with no timeout never does (docs/lifecycle.md, "run_sync in a running loop").
_POLL_SECONDS = 0.05


@overload
def run_sync(prompt: str, *, options: AgentOptions | None = None) -> PlainResult: ...
@overload
def run_sync(
    prompt: str, *, output_type: type[T], options: AgentOptions | None = None
) -> RunResult[T]: ...
def run_sync(
    prompt: str, *, output_type: type[Any] | None = None, options: AgentOptions | None = None
) -> RunResult[Any]:
    """Run the agent to completion and return its :class:`RunResult` (blocking).

    Same arguments and errors as :func:`run_async` (``output_type=``: a validated value
    of that type in ``result.output``, docs/output.md). From a plain script it runs
    without an event loop (with ``output_type``, a loop of its own). Called inside a
    running event loop (a notebook cell, a sync helper of async code) it still works, but
    it **blocks that loop** for the whole run: the run happens on a private loop in a
    worker thread while the caller waits. In async code use ``await run_async(...)``
    instead. Interrupting the wait (Ctrl-C, or the cancellation ``asyncio.run`` sends)
    ends the run and its CLI before it returns.

    Raises:
        AgentError: those of :func:`run`, once the run is over: AgentConfigError,
            AgentNotFoundError and AgentStartError, AgentProcessError (and its subclasses
            with a hint), AgentResultError, AgentProtocolError, AgentTimeoutError.
        KeyboardInterrupt: the caller was interrupted; the CLI has been ended.

    Example::

        print(run_sync("What does this repo do?").result)
        plan = run_sync("Plan the refactor", output_type=Steps).output
    """
    if not _loop_running_in_this_thread():
        # Tools and hooks are served by a task of an event loop (docs/extend.md), and a
        # checkpoint's git runs in one (docs/sessions.md): such a run gets one.
        served = isinstance(options, AgentOptions) and bool(
            options.tools or options.hooks or options.checkpoint
        )
        if output_type is None and not served:
            return _run_blocking(prompt, options)
        # The main task returns nothing: asyncio formats that task (its SIGINT handler's
        # repr, at the end of the run), and a task holding the result would format
        # every kept event (docs/benchmarks.md, "run_sync").
        kept: list[RunResult[Any]] = []
        anyio.run(_run_into, kept, prompt, options, output_type)
        return kept[0]
    return _run_in_own_thread(prompt, options, output_type)


def _run_blocking(prompt: str, options: AgentOptions | None) -> PlainResult:
    """A whole run with no event loop (docs/lifecycle.md, "run_sync without an event
    loop"): :class:`Run` over a transport whose waits block, so its coroutine finishes
    in one step."""
    from .._transport.blocking import BlockingTransport
    from .run import Run
    from .run_async import to_result

    transport = BlockingTransport()
    run = Run(prompt, given_options(options), transport=transport, clock=transport.clock)
    step = to_result(run)
    try:
        step.send(None)
    except StopIteration as done:
        result: PlainResult = done.value
        return result
    step.close()
    raise RuntimeError("internal error: a blocking run waited on an event loop")


def _run_in_own_thread(
    prompt: str, options: AgentOptions | None, output_type: type[Any] | None
) -> RunResult[Any]:
    """The run on a loop of its own in a worker thread, while this thread waits
    (docs/lifecycle.md, "run_sync in a running loop").

    An interruption of the wait (a ``KeyboardInterrupt``, or asyncio's cancellation of
    the caller's task) cancels the run, and the wait goes on until its teardown has ended
    the CLI; further interruptions meanwhile (Ctrl-C held down) are absorbed, and the
    first one goes on once the run has ended. A wait an interruption cut short would
    return with the CLI still running, or never return (a teardown never asked for).
    """
    from .thread import RunThread  # threads only for a run in a running loop

    thread: RunThread[RunResult[Any]] = RunThread(
        partial(_run_async_positional, prompt, options, output_type)
    )
    try:
        thread.start()
    except KeyboardInterrupt:
        thread.cancel()  # should it have started, it ends before its run begins
        raise
    task = _current_asyncio_task()
    interruption: BaseException | None = None
    while True:
        try:
            if interruption is not None:
                thread.cancel()  # again each time: an interrupted ask may not have gone
            if thread.wait(_POLL_SECONDS):
                break
            if interruption is None and task is not None and _cancel_requested(task):
                # asyncio.run then raises KeyboardInterrupt.
                interruption = _cancelled_error()
        except KeyboardInterrupt as error:
            # No call here: Python checks for signals only at calls and loops, so a
            # further Ctrl-C cannot land between catching this one and keeping it.
            if interruption is None:
                interruption = error
    if interruption is not None:
        raise interruption
    return thread.outcome()


def _cancelled_error() -> BaseException:
    import asyncio

    return asyncio.CancelledError()


async def _run_async_positional(
    prompt: str, options: AgentOptions | None, output_type: type[Any] | None
) -> RunResult[Any]:
    from .run_async import run_async

    if output_type is None:
        return await run_async(prompt, options=options)
    return await run_async(prompt, options=options, output_type=output_type)


async def _run_into(
    kept: list[RunResult[Any]],
    prompt: str,
    options: AgentOptions | None,
    output_type: type[Any] | None,
) -> None:
    kept.append(await _run_async_positional(prompt, options, output_type))


def _loop_running_in_this_thread() -> bool:
    asyncio = sys.modules.get("asyncio")  # no loop can run before it is imported
    try:
        if asyncio is None:
            raise RuntimeError
        asyncio.get_running_loop()
    except RuntimeError:
        trio = sys.modules.get("trio")  # only look if the program uses trio at all
        return trio is not None and bool(trio.lowlevel.in_trio_run())
    return True


def _current_asyncio_task() -> asyncio.Task[object] | None:
    import asyncio

    try:
        task: asyncio.Task[object] | None = asyncio.current_task()
    except RuntimeError:  # no asyncio loop here: trio's
        return None
    return task


def _cancel_requested(task: asyncio.Task[object]) -> bool:
    cancelling = getattr(task, "cancelling", None)  # Python 3.11+
    if cancelling is not None:
        return bool(cancelling())
    return bool(getattr(task, "_must_cancel", False))  # 3.10: the flag cancel() sets
