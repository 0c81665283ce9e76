"""``run()``, ``run_async()`` and ``run_sync()``: a prompt in, typed events and a result out.

:class:`Run` is a thin shell: the protocol (``_protocol``) turns bytes into events and an
outcome, the transport (``_transport``) owns the process, and the run holds the state of
one iteration (one :class:`_State`) and its deadlines (``_deadlines.Deadlines``). The
rules it keeps are in docs/lifecycle.md. ``run_sync`` is in ``_sync``.
"""

from __future__ import annotations

import contextlib
import enum
import math
import os
import sys
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar

import anyio
import msgspec

from ._custom_tools import Claims, claims_of, mark
from ._deadlines import Deadlines, await_exit, receive_within
from ._log import INFO, log
from ._protocol.outcome import KILLED, Expiry, context, failure_or_result, timeout_error
from ._protocol.redaction import redaction_of
from ._protocol.stream import Stream
from ._run_facts import RunFacts
from ._spending import Hit, Spending, budget_error, first_over, joined
from ._transport.base import Clock, Transport
from .errors import AgentBudgetError, AgentError, AgentUsageError
from .events import Event
from .options import AgentOptions, given_options, given_prompt
from .result import PlainResult

if TYPE_CHECKING:
    from ._trace import AgentSpan

__all__ = ["Run", "run"]


class _State(enum.Enum):
    NEW = "new"  # nothing started yet
    STARTING = "starting"  # the transport is starting the CLI
    STREAMING = "streaming"  # reading its output
    ENDING = "ending"  # output over: the events left are delivered, then the outcome
    GRACE_OVER = "grace over"  # the CLI lingered past its result grace: ended, successfully
    OVER_BUDGET = "over budget"  # a limit reached: the CLI ended, its events up to it delivered
    DONE = "done"  # succeeded: .result is set
    FAILED = "failed"  # an error was raised
    CLOSED = "closed"  # aclose() ended it before its end


_OVER = (_State.DONE, _State.FAILED, _State.CLOSED)
_ENDING = (_State.ENDING, _State.GRACE_OVER)
_T = TypeVar("_T")


class Run(RunFacts):
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

    def __init__(
        self,
        prompt: str,
        options: AgentOptions,
        *,
        transport: Transport | None = None,
        clock: Clock = anyio,
    ) -> None:
        self._prompt = given_prompt(prompt)
        self._options = options
        self._transport = transport
        self._clock = clock  # the event loop's; a blocking transport's own (run_sync)
        self._state = _State.NEW
        self._iterating = False  # a guard against two tasks iterating one run
        self._deadlines = Deadlines(options, clock.current_time)
        self._redaction = redaction_of(options, os.environ)  # kept lines, errors
        self._stream = Stream(
            output_format=options.output_format,
            partial=options.stream_partial_output
            or "--stream-partial-output" in options.extra_args,
            keep_events=options.keep_events is True,
            redact=self._redaction.text,
        )
        self._ready: deque[Event] = deque()
        self._result: PlainResult | None = None
        self._span: AgentSpan | None = None  # when the program traces (docs/traces.md)
        self._claims: Claims | None = None  # a run given tools (docs/extend.md)
        # Only a run with a budget counts (docs/budgets.md); None costs one test per read.
        budget = options.budget
        self._spending = Spending(budget, "run") if budget is not None else None
        self._over_budget: AgentBudgetError | None = None

    # --- iteration ------------------------------------------------------------------
    def __aiter__(self) -> Run:
        return self

    async def __aenter__(self) -> Run:
        if self._state is _State.NEW:
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
        await self._end(_State.CLOSED)

    async def __anext__(self) -> Event:
        # The hot path: events decoded from the last chunk wait here, ready.
        ready = self._ready
        if ready:
            return ready.popleft()
        if self._state in _OVER:
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
        if self._state in _OVER:
            raise StopAsyncIteration
        return await self._guarded(self._next_events())

    def __del__(self) -> None:
        # An abandoned `async for` never calls aclose(): do not leave the CLI running.
        transport = getattr(self, "_transport", None)
        if transport is not None and getattr(self, "_state", None) not in _OVER:
            transport.kill_now()
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
        self._spending = joined(self._spending, spending, inside=inside)
        return self

    # --- machinery ------------------------------------------------------------------
    async def _guarded(self, step: Coroutine[object, object, _T]) -> _T:
        """Run one step; on any failure or cancellation, the process must not outlive us."""
        if self._iterating:
            step.close()
            raise AgentUsageError("this run is already being iterated by another task")
        self._iterating = True
        try:
            return await step
        except StopAsyncIteration:
            raise
        except BaseException as exc:
            await self._end(_State.FAILED)
            if self._span is not None:
                self._end_span(exc)
            raise
        finally:
            self._iterating = False

    async def _start(self) -> None:
        self._state = _State.STARTING
        if "opentelemetry.trace" in sys.modules:  # the program may trace (docs/traces.md)
            from ._trace import run_span

            self._span = run_span(self._options, self._redaction, self._stream)
        if self._spending is not None and (hit := self._spending.begin()) is not None:
            ctx = context(self._stream, exit_code=None, stderr="", redaction=self._redaction)
            error = budget_error(hit, ctx, then="the run was not started")
            raise self._redaction.error(error)
        if self._transport is None:
            from ._transport.subprocess import SubprocessTransport

            self._transport = SubprocessTransport()
        self._deadlines.started()
        # Writing a long prompt to stdin is waiting on the CLI like any read.
        delay, limit = self._deadlines.next_wait(idle=True)
        with self._clock.move_on_after(delay) as scope:
            await self._transport.start(self._prompt, self._options)
        if scope.cancelled_caught:
            assert limit != "grace"  # no result yet: no grace either
            await self._expired(limit)
        # Tools of its own, or of its fleet task: which mcpToolCall was one of them.
        self._claims = claims_of(self._transport)
        if self._state is _State.STARTING:  # not closed meanwhile by another task
            self._state = _State.STREAMING

    async def _next_events(self) -> list[Event]:
        """The events of the next reads, at least one; StopAsyncIteration or the
        run's error once they are over."""
        if self._state is _State.NEW:
            await self._start()
        while True:
            if self._state is _State.STREAMING:
                chunk = await self._read()
                if chunk is not None:
                    events = self._stream.feed(chunk)
                    if self._claims is not None:
                        mark(self._claims, events)
                    if self._stream.result_event is not None:
                        self._deadlines.result_seen()
                    if self._spending is not None and events:
                        seen = self._stream.result_event is not None
                        over = first_over(self._spending, events, seen)
                        if over is not None:
                            events = await self._spent(events, *over)
                    if events:
                        return events
                    continue
                if self._state is _State.STREAMING:
                    self._state = _State.ENDING
                if self._state in _ENDING and (events := self._stream.end()):
                    return events
            elif self._state in _ENDING:
                await self._finish()
            elif self._state is _State.OVER_BUDGET:
                assert self._over_budget is not None
                self._state = _State.FAILED
                raise self._over_budget
            else:  # closed by another task
                raise StopAsyncIteration

    async def _spent(self, events: list[Event], keep: int, hit: Hit) -> list[Event]:
        """A limit reached: the events up to the one that went over it (the rest of the
        read is dropped: what is delivered does not depend on how the output was cut),
        the CLI ended, the error ready for the next step (docs/budgets.md)."""
        self._stream.forget(events[keep:])
        del events[keep:]
        transport = self._transport
        assert transport is not None
        await transport.aclose()
        ctx = context(
            self._stream,
            exit_code=transport.returncode,
            stderr=transport.stderr_tail(),
            redaction=self._redaction,
        )
        said = f"{self._stream.received} events (session {self._stream.session_id})"
        then = f"its process group was ended after {said}"
        self._over_budget = self._redaction.error(budget_error(hit, ctx, then=then))
        if self._state is _State.STREAMING:  # not closed meanwhile by another task
            self._state = _State.OVER_BUDGET
        return events

    async def _read(self) -> bytes | None:
        """The next chunk of output, or ``None`` once it is over (or the grace ran out)."""
        transport = self._transport
        assert transport is not None
        delay, limit = self._deadlines.next_wait(idle=True)
        if delay == math.inf:
            return await transport.receive()
        chunk = await receive_within(transport, delay, self._clock)
        if chunk == b"":
            if limit != "grace":
                await self._expired(limit)
            log("run", INFO, "the CLI lingered past its result: ended after result_grace")
            self._state = _State.GRACE_OVER
            return None
        return chunk

    async def _expired(self, limit: Expiry) -> None:
        transport = self._transport
        log("run", INFO, "the run ran out of time (%s): ending the CLI", limit)
        await self._end(_State.FAILED)
        raise timeout_error(
            self._stream,
            limit,
            exit_code=transport.returncode if transport is not None else None,
            stderr=transport.stderr_tail() if transport is not None else "",
            options=self._options,
            redaction=self._redaction,
        )

    async def _finish(self) -> None:
        """The output is over and delivered: wait for the exit, then the outcome."""
        transport = self._transport
        assert transport is not None
        ended_by_us = False
        if self._state is _State.ENDING:
            ran_out = await await_exit(transport, self._deadlines, self._clock)
            if ran_out is not None:
                if ran_out != "grace":
                    await self._expired(ran_out)
                log("run", INFO, "the CLI lingered past its output: ended after result_grace")
                ended_by_us = True
        else:
            ended_by_us = transport.returncode is None
        await transport.aclose()  # stragglers of its group go too
        if self._state not in _ENDING:
            raise StopAsyncIteration  # closed by another task meanwhile
        code = transport.returncode
        # Ended by us only if our signal ended it: an exit of its own, seen late (a slow
        # consumer), still means what its status says.
        ended_by_us = ended_by_us and (code is None or code < 0)
        outcome = failure_or_result(
            self._stream,
            exit_code=code if code is not None else KILLED,
            ended_by_us=ended_by_us,
            stderr=transport.stderr_tail(),
            options=self._options,
            redaction=self._redaction,
        )
        if isinstance(outcome, AgentError):
            self._state = _State.FAILED
            raise outcome
        if self.hook_errors:  # the hooks' callbacks' own failures (docs/extend.md)
            outcome = msgspec.structs.replace(outcome, hook_errors=self.hook_errors)
        self._result = outcome
        self._state = _State.DONE
        if self._span is not None:
            self._end_span(None)
        raise StopAsyncIteration

    async def _end(self, state: _State) -> None:
        """Over, as ``state`` says (unless it was over already); the transport closed."""
        if self._state not in _OVER:
            self._state = state
            self._ready.clear()  # ended: nothing more is delivered
        if self._transport is not None:
            await self._transport.aclose()
        if self._span is not None and state is _State.CLOSED:
            self._end_span(None)

    # --- traces (docs/traces.md): per run, never per event ----------------------------
    def _end_span(self, error: BaseException | None) -> None:
        assert self._span is not None
        self._span.end_run(self._state.value, error, self._stream, self._transport, self._result)


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
