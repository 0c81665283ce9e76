"""Subagents in a live turn: which one said what (docs/acp.md §3.13; docs/live.md
"Subagents").

With ``LiveAgent(subagents=True)`` the agent streams each subagent as a child session: a
``subagent_spawned`` update on the parent, then the child's own updates on the child's
session id, then ``subagent_state_update``. The router hands the child's updates to the
parent's turn as :class:`~agent_sdk.live.SubagentUpdate`; here they are bridged as a
turn's updates are, by a bridge of the child's own, and wrapped in
:class:`~agent_sdk.live.SubagentEvent`, so they never mix into the parent's reply or tool
calls. Each subagent of a turn gets a :class:`Subagent`: what it was asked, its events,
its text and its end.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import msgspec

from ..events import AssistantEvent, ToolCallCompleted, ToolCallStarted
from ..tool_calls import ToolCall, calls_of
from ._bridge import Bridge, LiveEvent, SubagentEvent
from ._requests import TaskParams
from ._updates import SessionUpdate, SubagentSpawned, SubagentStateUpdate, SubagentUpdate

__all__ = ["Subagent", "Subagents", "TaskCallback"]

TaskCallback = Callable[[TaskParams], Awaitable[None] | None]
"""Sync or async; told of a completed Task (subagent) call (``cursor/task``, §4). What it
returns is not sent: the answer is ``{}``."""


class Subagent(msgspec.Struct, kw_only=True):
    """One subagent of a live turn, as its updates came (docs/acp.md §3.13).

    Attributes:
        session_id: its own session id (``subagentSessionId``); its events carry it.
        name: its type (``generalPurpose``, a custom agent's name...).
        task: the whole prompt it was given.
        tool_call_id: the parent's ``Task: ...`` tool call that started it.
        model: the model its spawn named (may be the parent's, §3.13).
        state: how it ended (``completed``, ``cancelled``...); ``None`` while no end came,
            or when an end named no subagent and several were running.
        events: its events, bridged as a turn's are.
    """

    session_id: str
    name: str = ""
    task: str = ""
    tool_call_id: str | None = None
    model: str | None = None
    state: str | None = None
    events: list[LiveEvent] = msgspec.field(default_factory=list)

    @property
    def text(self) -> str:
        """Its reply: its message chunks joined with no separator."""
        return "".join(e.new_text for e in self.events if isinstance(e, AssistantEvent))

    @property
    def tool_calls(self) -> list[ToolCall]:
        """Its tool calls, ``started`` paired with ``completed``."""
        return calls_of(
            e for e in self.events if isinstance(e, ToolCallStarted | ToolCallCompleted)
        )


class Subagents:
    """The subagents of one turn, by session id, in the order they were spawned.

    Args:
        rejected: whether this client rejected a tool call (the session's memory of its
            answers, §3.10), for the children's bridges.
    """

    def __init__(self, rejected: Callable[[str], bool]) -> None:
        self._rejected = rejected
        self.views: dict[str, Subagent] = {}
        self._parents: dict[str, str | None] = {}
        self._bridges: dict[str, Bridge] = {}

    def parent(self, update: SessionUpdate) -> None:
        """Note a spawn or an end among the parent's own updates."""
        self._note(update, None)

    def child(self, item: SubagentUpdate) -> list[LiveEvent]:
        """The events of one update of a subagent, wrapped with its id."""
        child, update = item.subagent_id, item.update
        view = self._view(child)
        self._note(update, child)  # a subagent's own subagent (nested)
        bridge = self._bridges.get(child)
        if bridge is None:
            bridge = self._bridges[child] = Bridge(child, self._rejected)
        events = bridge(update)
        view.events.extend(events)
        return [SubagentEvent(subagent_id=child, event=event) for event in events]

    def _view(self, child: str, parent: str | None = None) -> Subagent:
        view = self.views.get(child)
        if view is None:  # its updates came before its spawn (or the spawn was missed)
            view = self.views[child] = Subagent(session_id=child)
            self._parents[child] = parent
        return view

    def _note(self, update: SessionUpdate, where: str | None) -> None:
        if type(update) is SubagentSpawned:
            view = self._view(update.subagent_session_id, where)
            view.name, view.task = update.name, update.task
            view.tool_call_id, view.model = update.tool_call_id, update.model
        elif type(update) is SubagentStateUpdate:
            named = update.subagent_session_id
            if named is None:
                # The line seen names no subagent (§3.13): it is the one running there,
                # if only one is; with several, no guess.
                running = [
                    v
                    for k, v in self.views.items()
                    if v.state is None and self._parents[k] == where
                ]
                ended = running[0] if len(running) == 1 else None
            else:
                ended = self._view(named, where)
            if ended is not None:
                ended.state = update.state
