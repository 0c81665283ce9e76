"""What the agent sends unasked, routed to its session (docs/acp.md §3.9, §3.11, §4).

``session/update`` notifications go to the session they name, in arrival order; the
agent's requests are answered by the user's callbacks: ``session/request_permission`` by
the permission callback (reject once by default, on a timeout and on a callback's error:
only an explicit allow runs a tool; allow-always is never chosen implicitly, §3.11),
``cursor/ask_question`` and ``cursor/create_plan`` by theirs (defaults: skipped, and
``-32601``, §4), ``cursor/task`` with ``{}`` once its callback, if any, has seen it, the
other not-awaited ``cursor/*`` notifications with ``{}``, anything else ``-32601`` (§3.12).

A subagent's updates and requests name its own session id (§3.13): they go to the
session that spawned it (its turn shows them as the subagent's).

The router sees its agent only as a :class:`RouterAgent` (``LiveAgent`` is one, and makes
the router); it knows the sessions it routes to.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

import msgspec

from ._connection import DiagnosticLog
from ._decisions import Verdict, decide, permission_outcome
from ._jsonrpc import (
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    JsonRpcError,
    Malformed,
    Notification,
    decode,
)
from ._jsonrpc import Request as RpcRequest
from ._requests import (
    AskQuestionParams,
    AskQuestionResult,
    CancelledOutcome,
    CreatePlanParams,
    CreatePlanResult,
    QuestionSkippedOutcome,
    RequestPermissionParams,
    RequestPermissionResult,
    TaskParams,
)
from ._session import AskQuestionCallback, CreatePlanCallback, LiveSession, PermissionCallback
from ._subagents import TaskCallback
from ._updates import SessionNotification, SessionUpdate, SubagentSpawned, decode_update

__all__ = ["Router", "RouterAgent", "default_ask_question"]

T = TypeVar("T")

MAX_EARLY_UPDATES = 16
MAX_EARLY_SESSIONS = 8  # a flood for unknown session ids must not grow memory
_NOT_AWAITED = frozenset({"cursor/update_todos", "cursor/task", "cursor/generate_image"})
SKIPPED_REASON = "No one is here to answer: agent_sdk skipped the questions (no callback)."


def default_ask_question(params: AskQuestionParams) -> AskQuestionResult:
    """The answer when no ``ask_question`` callback is given: ``skipped``, nested as the
    contract requires (a flat or refused answer reads as "user cancelled", §4)."""
    return AskQuestionResult(outcome=QuestionSkippedOutcome(reason=SKIPPED_REASON))


class RouterAgent(Protocol):
    """What the router needs of its agent (:class:`~agent_sdk.live.LiveAgent` is one): the
    log of what was dropped, and the limit and the failures of the callbacks, for a
    request no running turn owns."""

    @property
    def decision_timeout(self) -> float: ...

    @property
    def callback_errors(self) -> list[BaseException]: ...

    @property
    def _log(self) -> DiagnosticLog: ...


class Router:
    """The sessions of one agent, and the answers to the agent's requests."""

    def __init__(
        self,
        agent: RouterAgent,
        *,
        permission: PermissionCallback | None,
        ask_question: AskQuestionCallback | None,
        create_plan: CreatePlanCallback | None,
        task: TaskCallback | None = None,
    ) -> None:
        self._agent = agent
        self.permission = permission
        self.ask_question = ask_question if ask_question is not None else default_ask_question
        self.create_plan = create_plan
        self.task = task
        self.sessions: dict[str, LiveSession] = {}
        self.children: dict[str, LiveSession] = {}  # a subagent's id -> the session it is of
        self._early: dict[str, list[SessionUpdate]] = {}

    def add(self, session: LiveSession) -> None:
        """Route ``session``'s updates to it from now on (also those that came early)."""
        self.sessions[session.session_id] = session
        for update in self._early.pop(session.session_id, []):
            session._deliver(update)

    def _adopt(self, child: str, session: LiveSession) -> None:
        """Route the subagent ``child``'s updates to ``session`` (also those that came
        before its spawn)."""
        self.children[child] = session
        for update in self._early.pop(child, []):
            session._deliver_child(child, update)

    def owner(self, session_id: str) -> LiveSession | None:
        """The session ``session_id`` is, or the one whose subagent it is."""
        return self.sessions.get(session_id) or self.children.get(session_id)

    # --- notifications ----------------------------------------------------------------
    def on_notification(self, message: Notification) -> Awaitable[None] | None:
        """Route a notification; the wait for a slow turn consumer, if any (``_feed``)."""
        if message.method != "session/update" or message.params is None:
            return None  # nothing else is recorded as a notification to the client (§3.9)
        try:
            note = decode(message.params, SessionNotification)
        except msgspec.DecodeError as exc:
            self._agent._log.add(Malformed(bytes(message.params), str(exc), None, message.method))
            return None
        update = decode_update(note.update)
        session = self.sessions.get(note.session_id)
        if type(update) is SubagentSpawned and (owner := self.owner(note.session_id)):
            self._adopt(update.subagent_session_id, owner)
        if session is not None:
            return session._deliver(update)
        parent = self.children.get(note.session_id)
        if parent is not None:  # a subagent's own update (§3.13)
            return parent._deliver_child(note.session_id, update)
        else:
            # The command list can overtake our reading of the session/new result (§2 step 3):
            # kept for the session about to exist, a few at most.
            early = self._early.setdefault(note.session_id, [])
            early.append(update)
            del early[:-MAX_EARLY_UPDATES]
            if len(self._early) > MAX_EARLY_SESSIONS:
                del self._early[next(iter(self._early))]  # the oldest
        return None

    # --- requests ---------------------------------------------------------------------
    async def on_request(self, request: RpcRequest) -> Any:
        method = request.method
        if method == "session/request_permission":
            return await self._permission(_params(request, RequestPermissionParams))
        if method == "cursor/ask_question":
            typed = _params(request, AskQuestionParams)
            return await self._extension(self.ask_question, typed, AskQuestionResult)
        if method == "cursor/create_plan" and self.create_plan is not None:
            typed_plan = _params(request, CreatePlanParams)
            return await self._extension(self.create_plan, typed_plan, CreatePlanResult)
        if method == "cursor/task" and self.task is not None:
            await self._decision(self.task, _params(request, TaskParams))
            return {}  # whatever the callback did: `{}` was harmless (§4)
        if method in _NOT_AWAITED:
            return {}  # sent as requests but not awaited (§4): answer `{}`
        # Refusing is safe: a refused create_plan leaves the turn unchanged (§4).
        raise JsonRpcError(METHOD_NOT_FOUND, f'"Method not found": {method}', {"method": method})

    async def _permission(self, params: RequestPermissionParams) -> RequestPermissionResult:
        session = self.owner(params.session_id)  # a subagent's: decided in its parent's turn
        verdict, decision = Verdict.FAILED, None
        own = session._own_tools if session is not None else None
        if own is not None and own.allows(params.tool_call.tool_call_id, params.tool_call.title):
            # One of the user's own tools (served by this process): the user handed it
            # to the agent, so its call is allowed once, without asking (docs/extend.md).
            verdict, decision = Verdict.DECIDED, "allow_once"
        elif session is not None:
            verdict, decision = await session._decide(self._decide_permission, params)
        if verdict is Verdict.CANCELLED:  # answer pending requests `cancelled` (§3.7)
            outcome: Any = CancelledOutcome()
        else:
            # A timeout or a failing callback rejects: only an explicit allow runs a tool.
            chosen = decision if verdict is Verdict.DECIDED else "reject"
            outcome = permission_outcome(chosen, params.options)
        if session is not None:
            session._answered(params, outcome)
        return RequestPermissionResult(outcome=outcome)

    def _decide_permission(self, params: RequestPermissionParams) -> Any:
        # Default policy: reject once; allow-always is never chosen implicitly (§3.11).
        return self.permission(params) if self.permission is not None else "reject"

    async def _decision(self, callback: Callable[[Any], Any], params: Any) -> tuple[Verdict, Any]:
        # The params carry no sessionId (§4): the session with a running turn owns it. One
        # that comes when no turn runs is decided under the same limit, alone.
        running = [s for s in self.sessions.values() if s.running]
        if running:
            return await running[0]._decide(callback, params)
        agent = self._agent
        return await decide(
            agent.decision_timeout, agent.callback_errors, callback, params, set(), set()
        )

    async def _extension(self, callback: Callable[[Any], Any], params: Any, result: Any) -> Any:
        verdict, answer = await self._decision(callback, params)
        if verdict is not Verdict.DECIDED or not isinstance(answer, result):
            # Cancelled, timed out, failed, or a wrong shape: `cancelled`, nested (§4).
            return result(outcome=CancelledOutcome())
        return answer


def _params(request: RpcRequest, kind: type[T]) -> T:
    try:
        return decode(request.params or b"{}", kind)
    except msgspec.DecodeError as exc:
        raise JsonRpcError(INVALID_PARAMS, "Invalid params", {"message": str(exc)}) from exc
