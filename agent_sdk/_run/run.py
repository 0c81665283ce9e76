"""``run()``, ``run_async()`` and ``run_sync()``: a prompt in, typed events and a result out.

:class:`Run` is a thin shell: the wire (``_wire``) turns bytes into events, the transport
(``_transport``) owns the process, and the run holds the state of one iteration (one
``State``, in ``engine.py``, with the steps that move it), its deadlines
(``deadlines.Deadlines``) and its outcome (``outcome.py``). The rules it keeps are in
docs/lifecycle.md. ``run_sync`` is in ``run_sync.py``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from types import TracebackType
from typing import TYPE_CHECKING

from .._transport.base import Transport
from ..events import Event
from ..options import AgentOptions, given_options
from .engine import OVER, RunEngine, State

if TYPE_CHECKING:
    from .spending import Spending

__all__ = ["Run", "run"]


class Run(RunEngine):
    """A run of the agent: an async iterator of :data:`~agent_sdk.events.Event`.

    Returned by :func:`run`. Iterate it directly, or use it as an async context manager
    to end the process deterministically when the block exits (``async for`` alone
    does not close an iterator on ``break``; see PEP 533)::

        async with run("Fix the failing test") as events:
            async for event in events:
                ...
        print(events.result.usage)

    Events received are delivered before any failure is raised. The process starts on
    entering the block or on the first iteration. Events are handed over, not kept
    (``keep_events=True`` keeps them): ``.result`` has the session, usage and reply.
    """

    # --- iteration ------------------------------------------------------------------
    def __aiter__(self) -> Run:
        return self

    async def __aenter__(self) -> Run:
        if self._state is State.NEW:
            await self._guarded(self._start())
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """End the run now, from any task: the CLI's whole process group is terminated.
        An iteration in progress ends (``StopAsyncIteration``). Idempotent."""
        await self._end(State.CLOSED)

    async def __anext__(self) -> Event:
        # The hot path: events decoded from the last chunk wait here, ready.
        ready = self._ready
        if ready:
            return ready.popleft()
        if self._state in OVER:
            raise StopAsyncIteration
        ready.extend(await self._guarded(self._next_events()))
        return ready.popleft()

    def batches(self) -> AsyncIterator[list[Event]]:
        """The run's events a read of the CLI's output at a time: an async iterator of
        lists, each holding every event decoded and not yet handed over (never empty).

        The same events as iterating the run, in the same order, under the same rules:
        the events before a failure are delivered, then the error raises; the process
        ends as the run's does (``async with``, :meth:`aclose`). It saves the consumer
        one ``__anext__`` per event (docs/benchmarks.md). Both ways draw from the same
        events, so they can take turns; two tasks at once raise :class:`AgentUsageError`.

        Example::

            async with run("Fix the failing test") as events:
                async for batch in events.batches():
                    for event in batch:
                        ...
        """
        return Batches(self._next_batch)

    async def _next_batch(self) -> list[Event]:
        ready = self._ready
        if ready:
            batch = list(ready)
            ready.clear()
            return batch
        if self._state in OVER:
            raise StopAsyncIteration
        return await self._guarded(self._next_events())

    def __del__(self) -> None:
        # An abandoned `async for` never calls aclose(): do not leave the CLI running.
        transport = getattr(self, "_transport", None)
        if transport is not None and getattr(self, "_state", None) not in OVER:
            transport.kill_now()
            checkpointed = getattr(self, "_checkpointed", None)
            if checkpointed is not None:  # the tree let go, its checkpoint unfinished
                checkpointed.release()
            if getattr(self, "_span", None) is not None:
                with contextlib.suppress(Exception):  # an exporter torn down at exit
                    self._end_span(None)

    def _for_result(self) -> Run:
        """This run ends in a :class:`RunResult` (``run_async``, ``Session.send``): keep
        every event for it, unless the options say ``keep_events=False``."""
        if self._options.keep_events is None:
            self._stream.keep_every_event()
        return self

    def _share(self, spending: Spending | None, *, inside: bool = False) -> Run:
        """Count against ``spending`` (a session's, a fleet's): instead of the run's own
        budget, or, ``inside``, besides it (the fleet's budget over the task's)."""
        from .spending import joined  # a session's or a fleet's: loaded with them

        self._spending = joined(self._spending, spending, inside=inside)
        return self


class Batches:
    """The async iterator of :meth:`Run.batches` (and of a session's ``Turn.batches``):
    each step awaits ``next_batch``."""

    __slots__ = ("_next_batch",)

    def __init__(self, next_batch: Callable[[], Awaitable[list[Event]]]) -> None:
        self._next_batch = next_batch

    def __aiter__(self) -> Batches:
        return self

    def __anext__(self) -> Awaitable[list[Event]]:
        return self._next_batch()


def run(
    prompt: str, *, options: AgentOptions | None = None, transport: Transport | None = None
) -> Run:
    """Run the agent on a prompt and stream its events.

    Args:
        prompt: what to ask the agent.
        options: how to run it (:class:`AgentOptions`); defaults if omitted.
        transport: how to reach the CLI; the default spawns it. Tests pass an
            ``agent_sdk.testing.MemoryTransport``.

    Returns:
        A :class:`Run`: an async iterator of typed events that is also an async
        context manager. Nothing starts until it is entered or iterated.

    Raises:
        AgentConfigError: ``prompt`` is not a str, or ``options`` is not an
            :class:`AgentOptions`: raised by this call, before anything starts. (A bad
            option value is raised by ``AgentOptions(...)`` itself.)
        AgentNotFoundError: no CLI binary (an :class:`AgentStartError`). This and the
            errors below are raised while iterating, after every event received before
            the failure has been delivered, and once the CLI's process group is gone.
        AgentStartError: the CLI could not be started (the message says why).
        AgentProcessError: the CLI exited non-zero or was killed by a signal. A failure
            the CLI explained is a subclass with a ``hint``: :class:`AgentAuthError`,
            :class:`AgentModelError`, :class:`AgentTrustError`,
            :class:`AgentWorkspaceError`, :class:`AgentUsageLimitError`,
            :class:`AgentOptionError`, :class:`AgentRetriableError` (and its
            :class:`AgentConfigRaceError`).
        AgentResultError: the result event has ``is_error: true``.
        AgentProtocolError: the CLI exited 0 without a result event.
        AgentTimeoutError: ``timeout`` or ``idle_timeout`` ran out (also a builtin
            ``TimeoutError``).
        AgentBudgetError: a limit of ``options.budget`` was reached: the tool call that
            went over it was delivered, then the CLI ended (docs/budgets.md).
        AgentUsageError: the :class:`Run` used out of order: iterated by two tasks at
            once, or its ``result`` read before the run ended successfully.

    Example::

        async for event in run("Explain main.py"):
            if isinstance(event, AssistantEvent):
                print(event.new_text, end="", flush=True)
    """
    return Run(prompt, given_options(options), transport=transport)
