"""``LiveSession``: one ACP session's prompts, cancel, modes and decisions (docs/acp.md §2,
§3.6–§3.8, §3.11), and the callback types of :class:`~agent_sdk.live.LiveAgent`.

A session sees its agent only as a :class:`SessionAgent` (``LiveAgent`` is one): the agent
makes sessions, a session never imports the agent. Its turns are ``_turn``'s.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, Literal, Protocol

import anyio
import msgspec

from .._run.spending import Spending
from .._transport.groups import end_conversation
from .._transport.strays import ticks_now
from ..budget import Budget
from ..errors import AgentError
from . import _control
from ._decisions import Verdict, decide
from ._feed import TurnFeed
from ._messages import ContentBlock, PromptParams, prompt_params
from ._requests import (
    AskQuestionParams,
    AskQuestionResult,
    CancelledOutcome,
    CreatePlanParams,
    CreatePlanResult,
    RequestPermissionParams,
    SelectedOutcome,
)
from ._result import LiveResult
from ._settings import SessionSettings
from ._tools import OwnTools
from ._turn import LiveTurn, TurnUpdates
from ._updates import (
    AvailableCommand,
    AvailableCommandsUpdate,
    ConfigOptionUpdate,
    CurrentModeUpdate,
    SessionInfoUpdate,
    SessionUpdate,
    SubagentUpdate,
)

__all__ = [
    "AskQuestionCallback",
    "CreatePlanCallback",
    "LiveSession",
    "PermissionCallback",
    "PermissionDecision",
    "SessionAgent",
]

PermissionDecision = Literal["allow_once", "allow_always", "reject"]
"""What a permission callback returns (or a ``SelectedOutcome``/``CancelledOutcome``)."""
_Permission = PermissionDecision | SelectedOutcome | CancelledOutcome
PermissionCallback = Callable[[RequestPermissionParams], _Permission | Awaitable[_Permission]]
"""Sync or async; gets the request, returns the decision."""
AskQuestionCallback = Callable[
    [AskQuestionParams], AskQuestionResult | Awaitable[AskQuestionResult]
]
"""Sync or async; returns the nested answer (§4)."""
CreatePlanCallback = Callable[[CreatePlanParams], CreatePlanResult | Awaitable[CreatePlanResult]]
"""Sync or async; returns the nested answer (§4)."""


class SessionAgent(_control.RequestAgent, Protocol):
    """What a session needs of its agent (:class:`~agent_sdk.live.LiveAgent` is one): what
    its requests need, the limit and the failures of its callbacks, and the replays of the
    sessions being loaded (§3.4)."""

    @property
    def decision_timeout(self) -> float: ...

    @property
    def pid(self) -> int | None: ...

    @property
    def cli_version(self) -> str | None: ...

    @property
    def callback_errors(self) -> list[BaseException]: ...

    @property
    def _loading(self) -> dict[str, list[SessionUpdate]]: ...


class LiveSession(SessionSettings):
    """One ACP session of a :class:`LiveAgent`, from :meth:`LiveAgent.new_session` or
    :meth:`LiveAgent.load_session`. Prompts run one at a time, queued in order (§2 step 5).

    Attributes:
        session_id: the CLI's id (UUIDv4; not a print-mode chat id, §6).
        cwd: where its tools run (a load rebinds it, §3.4).
        title: the latest ``session_info_update`` title.
        current_mode_id: kept up to date by ``current_mode_update`` (§3.8).
        current_model_id: the model, as the agent last said.
        modes, models, config_options: what can be chosen (§3.3, §3.8).
        available_commands: the latest ``available_commands_update`` list.
        history: the updates ``session/load`` replayed (empty for a new session); never
            part of a turn (§3.4).

    Example::

        result = await session.send("Run the tests")
        print(result.text, result.stop_reason)
    """

    _agent: SessionAgent

    def __init__(
        self, agent: SessionAgent, session_id: str, cwd: str, budget: Budget | None = None
    ) -> None:
        self._agent = agent
        self.session_id = session_id
        self.cwd = cwd
        super().__init__()
        self.title: str | None = None
        self.available_commands: list[AvailableCommand] = []
        self.history: list[SessionUpdate] = []
        self._turn: TurnFeed | None = None
        self._cancelled_turn: TurnFeed | None = None  # the running turn, once cancelled
        self._queue = anyio.Semaphore(1)  # not a Lock: the turn's task releases it
        self._decisions: set[anyio.CancelScope] = set()
        self._cancelled: weakref.WeakSet[anyio.CancelScope] = weakref.WeakSet()
        self._rejected: set[str] = set()
        self._own_tools: OwnTools | None = None  # the tools the user gave it (docs/extend.md)
        # Its prompts share one budget (docs/budgets.md); None counts nothing.
        self._spending = Spending(budget, "live session") if budget is not None else None

    def __repr__(self) -> str:
        return f"<LiveSession {self.session_id} mode={self.current_mode_id}>"

    @property
    def cli_version(self) -> str | None:
        """The whole version string of the CLI its agent runs, ``None`` when unknown
        (:attr:`LiveAgent.cli_version`)."""
        return self._agent.cli_version

    @property
    def running(self) -> bool:
        """Whether a prompt is running now."""
        return self._turn is not None

    # --- turns --------------------------------------------------------------------------
    def _redact(self, text: str) -> str:
        """``text`` with the agent's secrets masked (a turn's spans, docs/traces.md)."""
        return self._agent._redaction.text(text)

    def run(self, prompt: str | Sequence[ContentBlock], *, checkpoint: bool = False) -> LiveTurn:
        """A turn to iterate: agent_sdk events as they come (docs/live.md "Events");
        ``turn.result`` once it ended. See :class:`LiveTurn`.

        ``checkpoint=True`` snapshots the git working tree of the session's ``cwd``
        before the prompt is sent; ``result.checkpoint`` and ``result.changes`` (an
        error's too) say what the turn changed (docs/sessions.md, "Checkpointed runs").
        """
        return LiveTurn(self, prompt, checkpoint=checkpoint)

    async def send(
        self, prompt: str | Sequence[ContentBlock], *, checkpoint: bool = False
    ) -> LiveResult:
        """Run a turn to its end and return its :class:`LiveResult` (``checkpoint``: as
        :meth:`run`).

        Raises:
            AgentTimeoutError: ``turn_timeout`` passed (the turn was cancelled; if the
                agent did not stop, it was ended).
            AgentRetriableError: the agent's backend failed (its reply ends with
                ``Error: T: [...]``, §5.2 item 7); the session is still usable.
            JsonRpcError: the agent refused the prompt.
            AgentProtocolError: the agent went away mid-turn (§5.2 item 9).
            AgentBudgetError: the session's budget (the agent's ``options.budget``) was
                reached: the tool call that went over it was delivered, then the turn
                cancelled; or the prompt was not sent (docs/budgets.md).
            AgentCheckpointError: with ``checkpoint=True``, the session's ``cwd`` is not
                in a git working tree, or a rewind runs there: the prompt was not sent.
        """
        turn = self.run(prompt, checkpoint=checkpoint)
        async for _ in turn:
            pass
        return turn.result

    def prompt(self, prompt: str | Sequence[ContentBlock]) -> TurnUpdates:
        """The protocol-level turn: the ACP updates as they come (a subagent's wrapped in
        a :class:`SubagentUpdate`, §3.13), then the :class:`PromptResult`. :meth:`run`
        gives the same turn as agent_sdk events.

        The prompt is sent when iteration starts, after the prompts sent before it on this
        session. Leaving the loop early does not stop the turn: :meth:`cancel` does.

        Raises:
            as :meth:`send`, but a backend error is only text here.
        """
        return TurnUpdates(self, prompt_params(self.session_id, prompt))

    async def _start(self, params: PromptParams, checkpoint: bool = False) -> TurnFeed:
        """Send a prompt once the turns before it ended; its updates come on the feed.
        ``checkpoint``: the session's tree snapshot first, and held while the turn runs."""
        feed = TurnFeed()
        await self._queue.acquire()
        try:
            if checkpoint:
                from .._run.checkpointed import Checkpointed

                feed.checkpointed = await Checkpointed.begin(self.cwd, self.session_id)
            self._turn = feed
            feed.began = ticks_now()
            self._agent._connection.start_soon(partial(self._run_prompt, params, feed))
        except BaseException:
            self._turn = None
            if feed.checkpointed is not None:
                feed.checkpointed.release()
            self._queue.release()
            raise
        return feed

    async def _run_prompt(self, params: PromptParams, feed: TurnFeed) -> None:
        item: object = None
        try:
            item = await _control.prompt(self._agent, params, self.cancel)
        except Exception as exc:  # delivered to the iterating task, raised there
            item = exc
        finally:
            if self._cancelled_turn is feed:
                self._cancelled_turn = None
                if (pid := self._agent.pid) is not None:  # its commands end with it
                    end_conversation(pid, self.session_id, feed.began)
            # Also when cancelled (the agent closing): the iterating task must not wait on.
            self._turn = None
            if feed.checkpointed is not None:  # before the next turn's: shielded, bounded
                await feed.checkpointed.end()
                if isinstance(item, AgentError):
                    feed.checkpointed.attach(item, self._redact)
            self._queue.release()
            feed.end(item)

    def _deliver(self, update: SessionUpdate) -> Awaitable[None] | None:
        """Keep ``update`` (the session's fields, the running turn); when the turn's feed
        is full, the wait for its consumer (docs/live.md "Floods and slow readers")."""
        if isinstance(update, SessionInfoUpdate):
            if not isinstance(update.title, msgspec.UnsetType):  # None clears it (§3.9)
                self.title = update.title
        elif isinstance(update, CurrentModeUpdate):
            self.current_mode_id = update.current_mode_id
        elif isinstance(update, AvailableCommandsUpdate):
            self.available_commands = list(update.available_commands)
        elif isinstance(update, ConfigOptionUpdate):
            self._apply_options(update.config_options)
        if self._turn is not None:
            return self._turn.put(update)
        if (replay := self._agent._loading.get(self.session_id)) is not None:
            replay.append(update)  # the replay of session/load (§3.4)
        return None

    def _deliver_child(self, child: str, update: SessionUpdate) -> Awaitable[None] | None:
        """Keep a subagent's update for the running turn, marked as its (§3.13)."""
        if self._turn is not None:
            return self._turn.put(SubagentUpdate(subagent_id=child, update=update))
        return None  # no turn to show it (without the capability nothing is streamed)

    async def cancel(self) -> None:
        """Cancel the running prompt: a ``session/cancel`` **notification** (sent as a request
        it cancels nothing, §3.7). Pending permission and extension requests are answered
        ``cancelled`` (§3.7); the prompt then ends with stop reason ``cancelled`` and the
        session stays usable. Without a running prompt it does nothing."""
        try:
            # Sent first: a callback may cancel its own turn, and its scope ends below.
            await self._agent._connection.notify("session/cancel", {"sessionId": self.session_id})
        finally:
            self._cancelled_turn = self._turn  # its commands end with it (_run_prompt)
            for scope in list(self._decisions):
                self._cancelled.add(scope)
                scope.cancel()

    # --- decisions ------------------------------------------------------------------------
    async def _decide(self, func: Callable[[Any], Any], arg: Any) -> tuple[Verdict, Any]:
        """``func(arg)`` decided under ``decision_timeout``; :meth:`cancel` ends it
        ``CANCELLED`` (``_decisions``)."""
        agent = self._agent
        return await decide(
            agent.decision_timeout,
            agent.callback_errors,
            func,
            arg,
            self._decisions,
            self._cancelled,
        )

    def _answered(self, params: RequestPermissionParams, outcome: object) -> None:
        """Remember a rejection: ACP ends a rejected call ``completed`` like any (§3.10)."""
        chosen = {o.option_id: o.kind for o in params.options}
        allowed = isinstance(outcome, SelectedOutcome) and chosen.get(outcome.option_id, "") in (
            "allow_once",
            "allow_always",
        )
        if not allowed:
            self._rejected.add(params.tool_call.tool_call_id)

    def _was_rejected(self, call_id: str) -> bool:
        return call_id in self._rejected

    def _redacted(self, error: AgentError) -> AgentError:
        """``error`` cleared of the agent's secrets, as every error it raises is."""
        return self._agent._redaction.error(error)
