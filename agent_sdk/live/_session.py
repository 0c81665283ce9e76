"""``LiveSession``: one ACP session's prompts, cancel and decisions (docs/acp.md §2, §3.6,
§3.7, §3.11), and the callback types of :class:`~agent_sdk.live.LiveAgent`.
"""

from __future__ import annotations

import contextlib
import inspect
import math
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

import anyio
import msgspec
from anyio.streams.memory import MemoryObjectSendStream

from ..errors import AgentProtocolError, AgentTimeoutError, AgentUsageError
from ._messages import (
    AvailableCommandsUpdate,
    ContentBlock,
    CurrentModeUpdate,
    NewSessionResult,
    PromptParams,
    PromptResult,
    SessionInfoUpdate,
    SessionUpdate,
)
from ._requests import (
    AskQuestionParams,
    AskQuestionResult,
    CancelledOutcome,
    CreatePlanParams,
    CreatePlanResult,
    PermissionOption,
    RequestPermissionParams,
    SelectedOutcome,
)

if TYPE_CHECKING:
    from ._agent import LiveAgent

__all__ = [
    "AskQuestionCallback",
    "CreatePlanCallback",
    "LiveSession",
    "PermissionCallback",
    "PermissionDecision",
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


async def _call(func: Callable[[Any], Any], arg: Any) -> Any:
    """A callback that may be sync or async. A sync one runs in the event loop: it must
    not block (an async one can wait as long as the decision timeout allows)."""
    result = func(arg)
    if inspect.isawaitable(result):
        result = await result
    return result


def _permission_outcome(
    decision: object, options: Sequence[PermissionOption]
) -> SelectedOutcome | CancelledOutcome:
    """The answer to send for a decision: the option of that ``kind`` (choose by kind, answer
    with the id, §3.11); a decision the options cannot express is a rejection."""
    if isinstance(decision, SelectedOutcome | CancelledOutcome):
        return decision
    allow = [str(decision)] if decision in ("allow_once", "allow_always") else []
    for kind in [*allow, "reject_once", "reject_always"]:
        for option in options:
            if option.kind == kind:
                return SelectedOutcome(option_id=option.option_id)
    return CancelledOutcome()  # `cancelled` is a rejection too (§3.11)


class LiveSession:
    """One ACP session of a :class:`LiveAgent`: prompts run one at a time (§2 step 5).

    Attributes:
        session_id: the CLI's id (UUIDv4).
        info: the ``session/new`` result (modes, models, config options).
        title: the latest ``session_info_update`` title.
        current_mode_id: the current mode, kept up to date by ``current_mode_update``.
        available_commands: the latest ``available_commands_update`` list.
    """

    def __init__(self, agent: LiveAgent, info: NewSessionResult) -> None:
        self._agent = agent
        self.session_id = info.session_id
        self.info = info
        self.title: str | None = None
        self.current_mode_id = info.modes.current_mode_id if info.modes else None
        self.available_commands: list[Any] = []
        self._turn: MemoryObjectSendStream[Any] | None = None
        self._busy = False
        self._decisions: set[anyio.CancelScope] = set()
        self._cancelled: weakref.WeakSet[anyio.CancelScope] = weakref.WeakSet()

    async def prompt(
        self, prompt: str | Sequence[ContentBlock]
    ) -> AsyncIterator[SessionUpdate | PromptResult]:
        """Send a prompt; yield its updates as they come, then the :class:`PromptResult`.

        Updates that arrive between turns (the command list after ``session/new``) only
        update this session's attributes. Leaving the loop early does not stop the turn:
        :meth:`cancel` does.

        Raises:
            AgentUsageError: a prompt is already running on this session.
            JsonRpcError: the agent answered the prompt with an error (§5.2 item 7).
            AgentProtocolError: the agent went away mid-turn (§5.2 item 9).
        """
        if self._busy:
            raise AgentUsageError("a prompt is already running on this session (§2 step 5)")
        blocks = [ContentBlock(type="text", text=prompt)] if isinstance(prompt, str) else prompt
        params = PromptParams(session_id=self.session_id, prompt=list(blocks))
        send, receive = anyio.create_memory_object_stream[Any](math.inf)
        self._busy = True
        self._turn = send
        self._agent._connection.start_soon(partial(self._run_prompt, params, send))
        with receive:
            async for item in receive:
                if isinstance(item, BaseException):
                    raise item
                yield item
                if isinstance(item, PromptResult):
                    return
        raise AgentProtocolError("the turn ended without a stop reason (the agent was closed)")

    async def _run_prompt(self, params: PromptParams, send: MemoryObjectSendStream[Any]) -> None:
        item: object = None
        try:
            raw = await self._agent._connection.request(
                "session/prompt", params, timeout=self._agent.turn_timeout
            )
            item = msgspec.json.decode(raw, type=PromptResult)
        except msgspec.DecodeError as exc:
            item = AgentProtocolError(f"session/prompt: an unreadable result: {exc}")
        except AgentTimeoutError as exc:  # turn_timeout: stop the turn too, best effort (§3.7)
            item = exc
            with contextlib.suppress(AgentProtocolError):
                await self.cancel()
        except Exception as exc:  # delivered to the iterating task, raised there
            item = exc
        finally:
            # Also when cancelled (the agent closing): the iterating task must not wait on.
            self._turn = None
            self._busy = False
            with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                if item is not None:
                    send.send_nowait(item)
            send.close()

    def _deliver(self, update: SessionUpdate) -> None:
        if isinstance(update, SessionInfoUpdate) and update.title is not None:
            self.title = update.title
        elif isinstance(update, CurrentModeUpdate):
            self.current_mode_id = update.current_mode_id
        elif isinstance(update, AvailableCommandsUpdate):
            self.available_commands = list(update.available_commands)
        if self._turn is not None:
            with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                self._turn.send_nowait(update)

    async def cancel(self) -> None:
        """Cancel the running prompt: a ``session/cancel`` **notification** (sent as a request
        it cancels nothing, §3.7). Pending permission and extension requests are answered
        ``cancelled`` (§3.7); the prompt then ends with stop reason ``cancelled``."""
        for scope in list(self._decisions):
            self._cancelled.add(scope)
            scope.cancel()
        await self._agent._connection.notify("session/cancel", {"sessionId": self.session_id})

    async def _decide(self, func: Callable[[Any], Any], arg: Any) -> tuple[str, Any]:
        """``("ok", answer)``; ``("cancelled", None)`` after :meth:`cancel`; ``("failed",
        None)`` when the callback timed out or raised."""
        with anyio.move_on_after(self._agent.decision_timeout) as scope:
            self._decisions.add(scope)
            try:
                return "ok", await _call(func, arg)
            except Exception as exc:  # the callback's bug: never a tool run, never a crash
                self._agent.callback_errors.append(exc)
            finally:
                self._decisions.discard(scope)
        return ("cancelled" if scope in self._cancelled else "failed"), None
