"""The engine of a :class:`~agent_sdk.Run`: one iteration's state (one :class:`State`)
and the steps that move it (start the CLI, read and decode its output, count a budget,
end it and make the outcome). ``_run/run.py`` puts the public iteration on top; the rules
both keep are in docs/lifecycle.md. Split from ``Run`` to keep each class small.
"""

from __future__ import annotations

import enum
import math
import os
import sys
from collections import deque
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, TypeVar

import anyio
import msgspec

from .._options.redaction import redaction_of
from .._transport.base import Clock, Transport
from .._transport.log import INFO, log
from .._transport.served_tools import SERVE_TOOLS
from .._wire.stream import Stream
from ..errors import AgentError, AgentUsageError
from ..events import Event
from ..options import AgentOptions, given_prompt
from ..result import PlainResult
from .checks import RunChecks
from .deadlines import Deadlines, await_exit, receive_within
from .outcome import KILLED, Expiry, context, failure_or_result, timeout_error

if TYPE_CHECKING:
    from .custom_tools import Claims
    from .spending import Spending
    from .tool_budget import OwnToolCalls
    from .trace import AgentSpan

__all__ = ["OVER", "RunEngine", "State"]


class State(enum.Enum):
    NEW = "new"  # nothing started yet
    STARTING = "starting"  # the transport is starting the CLI
    STREAMING = "streaming"  # reading its output
    ENDING = "ending"  # output over: the events left are delivered, then the outcome
    GRACE_OVER = "grace over"  # the CLI lingered past its result grace: ended, successfully
    STOPPED = (
        "stopped"  # a budget or a check stopped it: the CLI ended, its events up to it delivered
    )
    DONE = "done"  # succeeded: .result is set
    FAILED = "failed"  # an error was raised
    CLOSED = "closed"  # aclose() ended it before its end


OVER = (State.DONE, State.FAILED, State.CLOSED)
ENDING = (State.ENDING, State.GRACE_OVER)
_T = TypeVar("_T")


def _spending_of(options: AgentOptions) -> Spending | None:
    """What the run spends, when it has a budget (docs/budgets.md). Only such a run counts:
    None costs one test per read, and a plain run does not load the counting
    (docs/benchmarks.md)."""
    if options.budget is None:
        return None
    from .spending import Spending

    return Spending(options.budget, "run")


class RunEngine(RunChecks):
    """The state and steps of one run (see the module's docstring); :class:`~agent_sdk.Run`
    is its public face."""

    def __init__(
        self,
        prompt: str,
        options: AgentOptions,
        *,
        transport: Transport | None = None,
        clock: Clock = anyio,
    ) -> None:
        self._prompt = given_prompt(prompt)
        if options.tools or options.hooks is not None:
            # The run's token, made now: the redaction below masks it (docs/extend.md).
            from ..extend._home import with_run_token

            options = with_run_token(options)
        self._options = options
        self._transport = transport
        self._clock = clock  # the event loop's; a blocking transport's own (run_sync)
        self._state = State.NEW
        self._iterating = False  # a guard against two tasks iterating one run
        self._deadlines = Deadlines(options, clock.current_time)
        self._redaction = redaction_of(options, os.environ)  # kept lines, errors
        self._stream = Stream(
            output_format=options.output_format,
            partial=options.stream_partial_output
            or "--stream-partial-output" in options.extra_args,
            keep_events=options.keep_events is True,
            redact=self._redaction.text,
            session_id=options.new_session_id,  # known before the run (docs/sessions.md)
        )
        self._ready: deque[Event] = deque()
        self._result: PlainResult | None = None
        self._span: AgentSpan | None = None  # when the program traces (docs/traces.md)
        self._claims: Claims | None = None  # a run given tools (docs/extend.md)
        self._spending = _spending_of(options)
        self._stopped_by: AgentError | None = None  # the error of a STOPPED run
        self._checkpointed = None  # a run asked for a checkpoint (docs/sessions.md)
        # A run given tools or hooks: what the CLI has not reached, asked once the agent
        # acts (_run/channel_check.py); None once answered, or without any.
        self._channel: Callable[[], tuple[str, ...] | None] | None = None
        self._own_calls: OwnToolCalls | None = None  # a run given tools and a budget
        self._calls_back = bool(options.tools) or options.hooks is not None

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
            await self._end(State.FAILED)
            await self._checkpoint_end(exc)
            if self._span is not None:
                self._end_span(exc)
            raise
        finally:
            self._iterating = False

    async def _start(self) -> None:
        self._state = State.STARTING
        if "opentelemetry.trace" in sys.modules:  # the program may trace (docs/traces.md)
            from .trace import run_span

            self._span = run_span(self._options, self._redaction, self._stream)
        if self._spending is not None and (hit := self._spending.begin()) is not None:
            from .spending import budget_error

            ctx = context(self._stream, exit_code=None, stderr="", redaction=self._redaction)
            error = budget_error(hit, ctx, then="the run was not started")
            raise self._redaction.error(error)
        if self._options.checkpoint:  # before the CLI starts, not part of its timeout
            await self._checkpoint_begin()
        if self._transport is None:
            from .._transport.subprocess import SubprocessTransport

            self._transport = SubprocessTransport()
        self._deadlines.started()
        # Writing a long prompt to stdin is waiting on the CLI like any read.
        delay, limit = self._deadlines.next_wait(idle=True)
        serving = self._serving()
        try:
            with self._clock.move_on_after(delay) as scope:
                await self._transport.start(self._prompt, self._options)
        finally:
            if serving is not None:
                SERVE_TOOLS.reset(serving)
        if scope.cancelled_caught:
            assert limit != "grace"  # no result yet: no grace either
            await self._expired(limit)
        # Tools of its own: which mcpToolCall was one of them. Its host loads
        # agent_sdk.extend._served first; a plain run loads nothing of
        # agent_sdk.extend (docs/benchmarks.md, "A short script: the cold figure").
        if "agent_sdk.extend._served" in sys.modules:
            from .custom_tools import claims_of

            self._claims = claims_of(self._transport)
        if self._options.tools or self._options.hooks is not None:
            self._channel = getattr(self._transport, "channel_missing", None)
        if self._state is State.STARTING:  # not closed meanwhile by another task
            self._state = State.STREAMING

    async def _next_events(self) -> list[Event]:
        """The events of the next reads, at least one; StopAsyncIteration or the
        run's error once they are over."""
        if self._state is State.NEW:
            await self._start()
        while True:
            if self._state is State.STREAMING:
                chunk = await self._read()
                if self._calls_back:
                    self._check_callbacks()
                if chunk is not None:
                    events = self._stream.feed(chunk)
                    if self._claims is not None:
                        from .custom_tools import mark

                        mark(self._claims, events)
                    if self._stream.result_event is not None:
                        self._deadlines.result_seen()
                    if self._channel is not None and events:
                        events = await self._check_channel(events)
                    if self._spending is not None and events:
                        from .spending import first_over

                        seen = self._stream.result_event is not None
                        over = first_over(self._spending, events, seen, self._own_calls)
                        if over is not None and self._state is State.STREAMING:
                            events = await self._spent(events, *over)
                    if events:
                        return events
                    continue
                if self._state is State.STREAMING:
                    self._state = State.ENDING
                if self._state in ENDING and (events := self._stream.end()):
                    return events
            elif self._state in ENDING:
                await self._finish()
            elif self._state is State.STOPPED:
                assert self._stopped_by is not None
                self._state = State.FAILED
                raise self._stopped_by
            else:  # closed by another task
                raise StopAsyncIteration

    def _stopped(self) -> None:
        if self._state is State.STREAMING:  # not closed meanwhile by another task
            self._state = State.STOPPED

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
            self._state = State.GRACE_OVER
            return None
        return chunk

    async def _expired(self, limit: Expiry) -> None:
        transport = self._transport
        log("run", INFO, "the run ran out of time (%s): ending the CLI", limit)
        await self._end(State.FAILED)
        raise timeout_error(
            self._stream,
            limit,
            exit_code=transport.returncode if transport is not None else None,
            stderr=transport.stderr_tail() if transport is not None else "",
            options=self._options,
            redaction=self._redaction,
            cli_version=self.cli_version,
        )

    async def _finish(self) -> None:
        """The output is over and delivered: wait for the exit, then the outcome."""
        transport = self._transport
        assert transport is not None
        ended_by_us = False
        if self._state is State.ENDING:
            ran_out = await await_exit(transport, self._deadlines, self._clock)
            if ran_out is not None:
                if ran_out != "grace":
                    await self._expired(ran_out)
                log("run", INFO, "the CLI lingered past its output: ended after result_grace")
                ended_by_us = True
        else:
            ended_by_us = transport.returncode is None
        await transport.aclose()  # stragglers of its group go too
        if self._state not in ENDING:
            raise StopAsyncIteration  # closed by another task meanwhile
        await self._checkpoint_end()  # the CLI is gone: the tree as the run left it
        if self._calls_back:
            self._check_callbacks()
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
            cli_version=self.cli_version,
        )
        if isinstance(outcome, AgentError):
            self._state = State.FAILED
            raise outcome
        if self.hook_errors:  # the hooks' callbacks' own failures (docs/extend.md)
            outcome = msgspec.structs.replace(outcome, hook_errors=self.hook_errors)
        if self._checkpointed is not None:
            outcome = self._checkpointed.given_to(outcome)
        self._result = outcome
        self._state = State.DONE
        if self._span is not None:
            self._end_span(None)
        raise StopAsyncIteration

    async def _end(self, state: State) -> None:
        """Over, as ``state`` says (unless it was over already); the transport closed."""
        if self._state not in OVER:
            self._state = state
            self._ready.clear()  # ended: nothing more is delivered
        if self._transport is not None:
            await self._transport.aclose()
        await self._checkpoint_end()
        if self._span is not None and state is State.CLOSED:
            self._end_span(None)

    # --- traces (docs/traces.md): per run, never per event ----------------------------
    def _end_span(self, error: BaseException | None) -> None:
        assert self._span is not None
        self._span.end_run(self._state.value, error, self._stream, self._transport, self._result)
