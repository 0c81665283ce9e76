"""What the agent sends unasked, routed to its session (docs/acp.md §3.9, §3.11, §4).

``session/update`` notifications go to the session they name, in arrival order; the
agent's requests are answered by the user's callbacks: ``session/request_permission`` by
the permission callback (reject once by default, on a timeout and on a callback's error:
only an explicit allow runs a tool; allow-always is never chosen implicitly, §3.11),
``cursor/ask_question`` and ``cursor/create_plan`` by theirs (defaults: skipped, and
``-32601``, §4), the not-awaited ``cursor/*`` notifications with ``{}``, anything else
``-32601`` (§3.12).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

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
)
from ._session import AskQuestionCallback, CreatePlanCallback, LiveSession, PermissionCallback
from ._updates import SessionNotification, SessionUpdate, decode_update

if TYPE_CHECKING:
    from ._agent import LiveAgent

__all__ = ["Router", "default_ask_question"]

T = TypeVar("T")

MAX_EARLY_UPDATES = 16
MAX_EARLY_SESSIONS = 8  # a flood for unknown session ids must not grow memory
_NOT_AWAITED = frozenset({"cursor/update_todos", "cursor/task", "cursor/generate_image"})
SKIPPED_REASON = "No one is here to answer: agent_sdk skipped the questions (no callback)."


def default_ask_question(params: AskQuestionParams) -> AskQuestionResult:
    """The answer when no ``ask_question`` callback is given: ``skipped``, nested as the
    contract requires (a flat or refused answer reads as "user cancelled", §4)."""
    return AskQuestionResult(outcome=QuestionSkippedOutcome(reason=SKIPPED_REASON))


class Router:
    """The sessions of one agent, and the answers to the agent's requests."""

    def __init__(
        self,
        agent: LiveAgent,
        *,
        permission: PermissionCallback | None,
        ask_question: AskQuestionCallback | None,
        create_plan: CreatePlanCallback | None,
    ) -> None:
        self._agent = agent
        self.permission = permission
        self.ask_question = ask_question if ask_question is not None else default_ask_question
        self.create_plan = create_plan
        self.sessions: dict[str, LiveSession] = {}
        self._early: dict[str, list[SessionUpdate]] = {}

    def add(self, session: LiveSession) -> None:
        """Route ``session``'s updates to it from now on (also those that came early)."""
        self.sessions[session.session_id] = session
        for update in self._early.pop(session.session_id, []):
            session._deliver(update)

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
        if session is not None:
            return session._deliver(update)
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
        if method in _NOT_AWAITED:
            return {}  # sent as requests but not awaited (§4): answer `{}`
        # Refusing is safe: a refused create_plan leaves the turn unchanged (§4).
        raise JsonRpcError(METHOD_NOT_FOUND, f'"Method not found": {method}', {"method": method})

    async def _permission(self, params: RequestPermissionParams) -> RequestPermissionResult:
        session = self.sessions.get(params.session_id)
        verdict, decision = Verdict.FAILED, None
        if session is not None:
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

    async def _extension(self, callback: Callable[[Any], Any], params: Any, result: Any) -> Any:
        # The params carry no sessionId (§4): the session with a running turn owns it. One
        # that comes when no turn runs is decided under the same limit, alone.
        running = [s for s in self.sessions.values() if s.running]
        if running:
            verdict, answer = await running[0]._decide(callback, params)
        else:
            verdict, answer = await decide(
                self._agent.decision_timeout,
                self._agent.callback_errors,
                callback,
                params,
                set(),
                set(),
            )
        if verdict is not Verdict.DECIDED or not isinstance(answer, result):
            # Cancelled, timed out, failed, or a wrong shape: `cancelled`, nested (§4).
            return result(outcome=CancelledOutcome())
        return answer


def _params(request: RpcRequest, kind: type[T]) -> T:
    try:
        return decode(request.params or b"{}", kind)
    except msgspec.DecodeError as exc:
        raise JsonRpcError(INVALID_PARAMS, "Invalid params", {"message": str(exc)}) from exc
