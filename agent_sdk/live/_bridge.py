"""ACP updates as agent_sdk events, where the meaning is the same (docs/live.md "Events").

- ``agent_message_chunk`` → :class:`~agent_sdk.events.AssistantEvent` (each one new text);
- ``agent_thought_chunk`` → :class:`~agent_sdk.events.ThinkingDelta`;
- ``tool_call``/``tool_call_update`` → :class:`~agent_sdk.events.ToolCallStarted` when a
  call is first seen, :class:`~agent_sdk.events.ToolCallCompleted` when it ends; the
  updates between pass through as the ACP structs. The fields are merged by id, never
  cleared (docs/acp.md §3.10).

A tool call's payload is written in print mode's shape so that ``ToolCall``, ``kind``,
``args``, ``status`` and ``result`` mean what they mean for a run: an ``execute`` call is
a ``shellToolCall`` with :class:`~agent_sdk.tools.ShellArgs` (``rawInput {command}``) and
a :class:`~agent_sdk.tool_results.ShellSuccess` (``rawOutput {exitCode, stdout,
stderr}``); other kinds keep ACP's name (``edit``, ``read``, ``search``, ``other``...)
with ``rawInput`` as their args and ``rawOutput`` as their result. The ACP ``title``,
``kind`` and ``content`` are extras (``event.extras``). ACP never says ``failed`` (a
rejected call ends ``completed``, §3.10): the outcome is ``rejected`` when this client
rejected the call, or the output says so (``{rejected: true}``), ``error`` when the
output holds an ``error``, else ``success``. Everything else (plans, mode, title,
commands, unknown kinds) passes through as its ACP struct. ``timestamp_ms`` is when the
update arrived here: ACP carries no times (§6).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import msgspec

from ..events import (
    AssistantEvent,
    ContentBlock,
    Event,
    Message,
    ThinkingDelta,
    ToolCallCompleted,
    ToolCallStarted,
)
from ._updates import (
    AcpToolCall,
    AcpToolCallUpdate,
    AgentMessageChunk,
    AgentThoughtChunk,
    SessionUpdate,
)

__all__ = ["Bridge", "LiveEvent", "SubagentEvent"]


class SubagentEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event of a subagent, in its parent's turn (docs/acp.md §3.13): ``subagent_id``
    is the subagent's session id, ``event`` what it did (its text, thinking, tool calls),
    bridged as the parent's are. Never part of the parent's reply or tool calls."""

    subagent_id: str
    event: Event | SessionUpdate


LiveEvent = Event | SessionUpdate | SubagentEvent
"""What a live turn yields: an agent_sdk event, an ACP update of a kind print mode lacks,
or a subagent's event."""

_FIELDS = ("title", "kind", "status", "content", "locations", "raw_input", "raw_output")
_ENDED = frozenset({"completed", "failed"})
_encode = msgspec.json.Encoder().encode


class _CallState:
    """One tool call's fields, merged from its updates (never cleared, §3.10)."""

    __slots__ = (*_FIELDS, "ended")

    def __init__(self) -> None:
        self.title: str | None = None
        self.kind: str | None = None
        self.status: str | None = None
        self.content: list[Any] | None = None
        self.locations: list[Any] | None = None
        self.raw_input: Any = None
        self.raw_output: Any = None
        self.ended = False

    def merge(self, update: AcpToolCall | AcpToolCallUpdate) -> None:
        for field in _FIELDS:
            value = getattr(update, field)
            if value is not None and value != "":
                setattr(self, field, value)


class Bridge:
    """Turns one session's ACP updates into agent_sdk events, a turn at a time.

    Args:
        session_id: put on every event.
        rejected: tells whether this client rejected a tool call (by its id): ACP's own
            status does not (§3.10: "remember your own permission answer").
    """

    def __init__(self, session_id: str, rejected: Callable[[str], bool]) -> None:
        self.session_id = session_id
        self._rejected = rejected
        self._calls: dict[str, _CallState] = {}

    def __call__(self, update: SessionUpdate) -> list[Event | SessionUpdate]:
        """The events one update stands for (one, two for a call that starts ended)."""
        now = int(time.time() * 1000)
        if isinstance(update, AgentMessageChunk) and update.content.type == "text":
            block = ContentBlock(type="text", text=update.content.text or "")
            message = Message(role="assistant", content=(block,))
            return [AssistantEvent(session_id=self.session_id, timestamp_ms=now, message=message)]
        if isinstance(update, AgentThoughtChunk) and update.content.type == "text":
            text = update.content.text or ""
            return [ThinkingDelta(session_id=self.session_id, timestamp_ms=now, text=text)]
        if isinstance(update, AcpToolCall | AcpToolCallUpdate):
            return self._tool_call(update, now)
        return [update]

    def _tool_call(
        self, update: AcpToolCall | AcpToolCallUpdate, now: int
    ) -> list[Event | SessionUpdate]:
        call_id = update.tool_call_id
        state = self._calls.get(call_id)
        out: list[Event | SessionUpdate] = []
        if state is None or (isinstance(update, AcpToolCall) and not state.ended):
            # A `tool_call` again with the same id (a build sent a generic one first, then
            # the real title and input, §3.10): started again, so the call's args are the
            # real ones.
            state = state if state is not None else _CallState()
            self._calls[call_id] = state
            state.merge(update)
            out.append(ToolCallStarted(**self._fields(call_id, state, now, ended=False)))
        else:
            state.merge(update)
            if state.ended or update.status not in _ENDED:
                return [update]  # a change on the way (in_progress, content, a re-sent call)
        if state.status in _ENDED and not state.ended:
            state.ended = True
            out.append(ToolCallCompleted(**self._fields(call_id, state, now, ended=True)))
        return out

    def _fields(self, call_id: str, state: _CallState, now: int, *, ended: bool) -> Any:
        payload = {
            _kind_key(state.kind): _kind_object(
                state, self._outcome(call_id, state) if ended else None
            )
        }
        return {
            "session_id": self.session_id,
            "timestamp_ms": now,
            "call_id": call_id,
            "tool_call": msgspec.Raw(_encode(payload)),
        }

    def _outcome(self, call_id: str, state: _CallState) -> dict[str, Any]:
        output = state.raw_output
        if self._rejected(call_id) or (isinstance(output, dict) and output.get("rejected")):
            return {"rejected": _shell_args(state) if state.kind == "execute" else {}}
        if isinstance(output, dict) and "error" in output:
            return {"error": {"message": str(output["error"])}}
        if state.kind == "execute" and isinstance(output, dict):
            return {"success": {**_shell_args(state), **output}}
        return {"success": output if output is not None else {}}


def _kind_key(kind: str | None) -> str:
    return "shellToolCall" if kind == "execute" else (kind or "other")


def _shell_args(state: _CallState) -> dict[str, Any]:
    raw = state.raw_input
    command = raw.get("command") if isinstance(raw, dict) else None
    return {"command": command} if isinstance(command, str) else {}


def _kind_object(state: _CallState, outcome: dict[str, Any] | None) -> dict[str, Any]:
    if state.kind == "execute":
        args: Any = _shell_args(state)
    else:
        args = state.raw_input if isinstance(state.raw_input, dict) else {}
    obj: dict[str, Any] = {"args": args}
    if outcome is not None:
        obj["result"] = outcome
    obj["title"] = state.title or ""
    obj["acpKind"] = state.kind
    if state.content:
        obj["content"] = state.content
    return obj
