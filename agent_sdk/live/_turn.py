"""One prompt of a live session: ``TurnUpdates``, its ACP updates as they come;
``LiveTurn``, the same as agent_sdk events, ending in a ``LiveResult`` (``_result.py``;
docs/live.md).

A turn sees its session only as a :class:`TurnSession` (``LiveSession`` is one): the
session makes turns, a turn never imports the session.

A turn's reply is the join of its message chunks; only the stop reason ends it
(docs/acp.md §6). ACP reports no token usage, cost or duration: ``duration_ms`` is timed
here. A backend failure arrives as reply text (``\\n\\nError: T: [unavailable] ...``,
§5.2 item 7): once every event is delivered it is raised as an
:class:`~agent_sdk.errors.AgentRetriableError`.
"""

from __future__ import annotations

import re
import sys
import time
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import anyio
import anyio.lowlevel

from .._run.spending import Spending, budget_error
from ..errors import (
    AgentError,
    AgentProtocolError,
    AgentRetriableError,
    AgentUsageError,
    ErrorContext,
)
from ..events import AssistantEvent, Event, ToolCallCompleted, ToolCallStarted
from ..tool_calls import ToolCallTracker
from ._bridge import Bridge, LiveEvent
from ._connection import DEFAULT_REQUEST_TIMEOUT
from ._feed import TurnFeed
from ._messages import ContentBlock, PromptParams, PromptResult, prompt_params
from ._result import LiveResult
from ._subagents import Subagent, Subagents
from ._tools import OwnTools
from ._updates import AcpPlan, SessionUpdate, SubagentUpdate

if TYPE_CHECKING:
    from .._run.trace import AgentSpan

__all__ = ["LiveTurn", "TurnSession", "TurnUpdates"]

# The shape of a backend error in the reply (§5.2 item 7): a blank line, then "Error: T:".
BACKEND_ERROR = re.compile(r"\n\nError: T: (.+)\s*\Z", re.DOTALL)


class TurnSession(Protocol):
    """What a turn needs of its session (:class:`~agent_sdk.live.LiveSession` is one): its
    id, its prompt queue (``_start``, the protocol-level turn), its cancel, and whether it
    rejected a tool call."""

    @property
    def session_id(self) -> str: ...

    @property
    def current_model_id(self) -> str | None: ...

    @property
    def cli_version(self) -> str | None: ...

    async def cancel(self) -> None: ...

    async def _start(self, params: PromptParams, checkpoint: bool = False) -> TurnFeed: ...

    def _was_rejected(self, call_id: str) -> bool: ...

    def _redact(self, text: str) -> str: ...

    @property
    def _own_tools(self) -> OwnTools | None: ...
    @property
    def _spending(self) -> Spending | None: ...

    def _redacted(self, error: AgentError) -> AgentError: ...


class TurnUpdates:
    """The updates of one prompt, then its :class:`PromptResult` (an async iterator, from
    :meth:`LiveSession.prompt`); the prompt is sent on the first ``__anext__``
    (``checkpoint``: after a snapshot of the session's tree, docs/sessions.md)."""

    def __init__(
        self, session: TurnSession, params: PromptParams, checkpoint: bool = False
    ) -> None:
        self._session = session
        self._params = params
        self._checkpoint = checkpoint
        self._feed: TurnFeed | None = None
        self._done = False

    def __aiter__(self) -> TurnUpdates:
        return self

    async def __anext__(self) -> SessionUpdate | SubagentUpdate | PromptResult:
        if self._done:
            raise StopAsyncIteration
        try:
            if self._feed is None:
                self._feed = await self._session._start(self._params, self._checkpoint)
            item = await self._feed.get()
        except anyio.EndOfStream:
            self.close()
            # Ended by our own cancel scope (the agent closed inside it): that cancel,
            # not an error (asyncio may wake the wait before delivering it).
            await anyio.lowlevel.checkpoint_if_cancelled()
            raise AgentProtocolError(
                "the turn ended without a stop reason (the agent was closed)"
            ) from None
        except BaseException:
            self.close()  # a cancelled consumer leaves the turn (it goes on in the agent)
            raise
        if isinstance(item, BaseException):
            self.close()
            raise item
        if isinstance(item, PromptResult):
            self.close()
        return item  # type: ignore[return-value]

    def close(self) -> None:
        """Stop reading this turn (it goes on in the agent: :meth:`LiveSession.cancel`
        stops it)."""
        self._done = True
        if self._feed is not None:
            self._feed.close()

    async def aclose(self) -> None:
        """As :meth:`close`."""
        self.close()

    def __del__(self) -> None:
        # Dropped unread (a `break` out of `async for`): the reader must not wait for it.
        if self._feed is not None:
            self._feed.close()


class LiveTurn:
    """One prompt of a :class:`LiveSession`: iterate it for events, then read
    :attr:`result`. Made by :meth:`LiveSession.run`.

    Example::

        turn = session.run("Run the tests")
        async for event in turn:
            if isinstance(event, AssistantEvent):
                print(event.new_text, end="")
        print(turn.result.stop_reason)
    """

    def __init__(
        self,
        session: TurnSession,
        prompt: str | Sequence[ContentBlock],
        *,
        checkpoint: bool = False,
    ) -> None:
        self.session = session
        """The :class:`~agent_sdk.live.LiveSession` the turn runs on."""
        self._prompt = prompt
        self._checkpoint = checkpoint
        self._bridge = Bridge(session.session_id, session._was_rejected)
        self._subagents = Subagents(session._was_rejected)
        self._events: list[LiveEvent] = []
        self._calls = ToolCallTracker()
        self._text: list[str] = []
        self._plan: AcpPlan | None = None
        self._result: LiveResult | None = None
        self._updates: TurnUpdates | None = None
        self._pending: deque[LiveEvent] = deque()
        self._started = 0.0
        self._span: AgentSpan | None = None  # when the program traces (docs/traces.md)
        self._over_budget: AgentError | None = None
        self._told_changes = False  # its checkpoint's changes are in _over_budget
        self._counted: set[str] = set()  # a call re-sent with its id is one call (§3.10)

    def __aiter__(self) -> LiveTurn:
        return self

    async def __anext__(self) -> LiveEvent:
        while not self._pending:
            if self._over_budget is not None:
                await self._say_what_changed(self._over_budget)
                raise self._over_budget
            if self._result is not None:
                raise StopAsyncIteration
            if self._updates is None:
                self._begin()
                self._started = time.monotonic()
                if "opentelemetry.trace" in sys.modules:  # the program may trace
                    self._start_span()
                params = prompt_params(self.session.session_id, self._prompt)
                self._updates = TurnUpdates(self.session, params, self._checkpoint)
            try:
                item = await self._updates.__anext__()
            except StopAsyncIteration:
                self._end_span("closed")
                raise AgentUsageError("the turn was closed before its end") from None
            except BaseException as exc:
                self._end_span("failed", exc)
                raise
            if isinstance(item, PromptResult):
                self._finish(item.stop_reason, int((time.monotonic() - self._started) * 1000))
            elif isinstance(item, SubagentUpdate):
                self._pending.extend(self._subagents.child(item))
            else:
                self._subagents.parent(item)
                events = self._bridge(item)
                if self.session._own_tools is not None:
                    self.session._own_tools.mark(events)
                if self.session._spending is not None:
                    events = await self._count(events)
                self._pending.extend(events)
        event = self._pending.popleft()
        self._record(event)
        return event

    async def _say_what_changed(self, error: AgentError) -> None:
        """A checkpointed turn stopped by its budget: ``error`` carries its checkpoint and
        changes (docs/sessions.md), once the cancelled prompt has ended and the tree's
        snapshot after it is taken; waited for at most as long as a control request."""
        feed = self._updates._feed if self._updates is not None else None
        if feed is None or feed.checkpointed is None or self._told_changes:
            return
        self._told_changes = True
        with anyio.move_on_after(DEFAULT_REQUEST_TIMEOUT):
            await feed.ended()
        feed.checkpointed.attach(error, self.session._redact)

    def _begin(self) -> None:
        """The session's budget allows one more prompt, or the error says why not."""
        spending = self.session._spending
        if spending is not None and (hit := spending.begin()) is not None:
            context = ErrorContext(session_id=self.session.session_id)
            error = budget_error(hit, context, then="the prompt was not sent")
            self._over_budget = self.session._redacted(error)
            raise self._over_budget

    async def _count(self, events: list[Event | SessionUpdate]) -> list[Event | SessionUpdate]:
        """Count the tool calls among ``events``; past a limit, those up to the one that
        went over it, the turn cancelled (``session/cancel``) and no longer read, the
        error raised once they are delivered (docs/budgets.md)."""
        spending = self.session._spending
        assert spending is not None
        for index, event in enumerate(events):
            if type(event) is not ToolCallStarted or event.call_id in self._counted:
                continue
            self._counted.add(event.call_id)
            hit = spending.tool_call(event)
            if hit is None:
                continue
            del events[index + 1 :]
            await self.session.cancel()
            assert self._updates is not None
            self._updates.close()
            delivered = [
                e for e in (*self._events, *self._pending, *events) if isinstance(e, Event)
            ]
            context = ErrorContext(session_id=self.session.session_id, events=delivered)
            then = "the turn was cancelled (session/cancel); the session is still usable"
            self._over_budget = self.session._redacted(budget_error(hit, context, then=then))
            break
        return events

    def _record(self, event: LiveEvent) -> None:
        self._events.append(event)
        if isinstance(event, AssistantEvent):
            self._text.append(event.new_text)
        elif isinstance(event, ToolCallStarted | ToolCallCompleted):
            self._calls.add(event)
            if self._span is not None:
                self._span.tool_calls((event,))
        elif isinstance(event, AcpPlan):
            self._plan = event

    def _finish(self, stop_reason: str, elapsed: int) -> None:
        text = "".join(self._text)
        feed = self._updates._feed if self._updates is not None else None
        checkpointed = feed.checkpointed if feed is not None else None
        self._result = LiveResult(
            text=text,
            stop_reason=stop_reason,
            session_id=self.session.session_id,
            duration_ms=elapsed,
            events=self._events,
            tool_calls=self._calls.calls,
            plan=self._plan,
            subagents=self.subagents,
            cli_version=self.session.cli_version,
            checkpoint=checkpointed.checkpoint if checkpointed is not None else None,
            changes=checkpointed.changes if checkpointed is not None else None,
        )
        failure = BACKEND_ERROR.search(text)
        if failure is not None:
            events = [e for e in self._events if isinstance(e, Event)]
            context = ErrorContext(session_id=self.session.session_id, events=events)
            error = AgentRetriableError(
                f"the agent's backend failed: {failure.group(1).strip()}",
                context=context,
                hint="send the prompt again: the session is still usable",
            )
            if checkpointed is not None:
                checkpointed.attach(error, self.session._redact)
            self._end_span("failed", error, stop_reason)
            raise error
        outcome = "cancelled" if stop_reason == "cancelled" else "succeeded"
        self._end_span(outcome, None, stop_reason)

    # --- traces (docs/traces.md): per turn, and per tool call -------------------------
    def _start_span(self) -> None:
        from .._run.trace import agent_span

        session = self.session
        model, session_id = session.current_model_id, session.session_id
        self._span = agent_span("live", model=model, session_id=session_id, redact=session._redact)

    def _end_span(
        self, outcome: str, error: BaseException | None = None, stop_reason: str | None = None
    ) -> None:
        if self._span is not None:
            reasons = [stop_reason] if stop_reason is not None else None
            self._span.end(outcome, error, attributes={"gen_ai.response.finish_reasons": reasons})

    @property
    def result(self) -> LiveResult:
        """The turn's :class:`LiveResult`.

        Raises:
            AgentUsageError: the turn has not ended yet.
        """
        if self._result is None:
            raise AgentUsageError("the turn has not ended: iterate it to its end first")
        return self._result

    @property
    def events(self) -> list[LiveEvent]:
        """The events so far."""
        return self._events

    @property
    def subagents(self) -> list[Subagent]:
        """The subagents spawned so far, each with its events (§3.13)."""
        return list(self._subagents.views.values())

    async def cancel(self) -> None:
        """Cancel this turn (see :meth:`LiveSession.cancel`)."""
        await self.session.cancel()

    async def aclose(self) -> None:
        """Stop reading this turn: the reader no longer keeps its events for you (it goes
        on in the agent: :meth:`cancel` stops it)."""
        if self._updates is not None:
            await self._updates.aclose()
        self._end_span("closed")
