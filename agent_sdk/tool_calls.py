"""Tool calls as objects: a ``started`` event paired with its ``completed`` by ``call_id``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import msgspec

from .events import Event, ToolCallCompleted, ToolCallStarted

if TYPE_CHECKING:
    from .tools import ToolArgs, ToolResult

__all__ = ["ToolCall"]


class ToolCall(msgspec.Struct, frozen=True):
    """One tool call of a run: what the agent asked for and how it ended.

    Attributes:
        call_id: the opaque id pairing the two events (real ids contain a newline).
        started: the ``started`` event, if it was seen.
        completed: the ``completed`` event, or ``None`` while the call runs.

    Example::

        for call in run_sync("Fix the bug").tool_calls:
            print(call.kind, call.outcome, call.duration_ms)
    """

    call_id: str
    started: ToolCallStarted | None = None
    completed: ToolCallCompleted | None = None

    @property
    def kind(self) -> str:
        """The wire kind: ``"readToolCall"``, ``"shellToolCall"``, ..., or an unknown one."""
        event = self.started or self.completed
        return event.kind if event is not None else ""

    @property
    def args(self) -> ToolArgs | None:
        """Typed arguments (from ``started``; from ``completed`` if ``started`` had none)."""
        if self.started is not None and self.started.args is not None:
            return self.started.args
        return self.completed.args if self.completed is not None else None

    @property
    def outcome(self) -> str | None:
        """``"success"``, ``"rejected"``, ``"error"``, another wire key, or ``None`` (running)."""
        return self.completed.outcome if self.completed is not None else None

    @property
    def result(self) -> ToolResult | None:
        """The typed payload of the outcome (see :attr:`ToolCallCompleted.result`)."""
        return self.completed.result if self.completed is not None else None

    @property
    def is_finished(self) -> bool:
        return self.completed is not None

    @property
    def duration_ms(self) -> int | None:
        """Milliseconds from start to completion: the CLI's own ``startedAtMs`` and
        ``completedAtMs`` when present, else the events' ``timestamp_ms``."""
        if self.completed is None:
            return None
        end = self.completed.completed_at_ms
        start = self.completed.started_at_ms
        if start is None and self.started is not None:
            start = self.started.started_at_ms
        if start is None or end is None:
            end = self.completed.timestamp_ms
            start = self.started.timestamp_ms if self.started is not None else None
        return end - start if start is not None and end is not None else None


class ToolCallTracker:
    """Pairs tool-call events as they stream, in any order (parallel calls included),
    and keeps every call."""

    __slots__ = ("_calls",)

    def __init__(self) -> None:
        self._calls: dict[str, ToolCall] = {}

    def add(self, event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
        """Record an event; return the :class:`ToolCall` it belongs to, as known now."""
        call = self._calls.get(event.call_id) or ToolCall(event.call_id)
        if isinstance(event, ToolCallStarted):
            call = ToolCall(call.call_id, event, call.completed)
        else:
            call = ToolCall(call.call_id, call.started, event)
        self._calls[event.call_id] = call
        return call

    def call_of(self, event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
        """The :class:`ToolCall` an event belongs to, as known now."""
        call = self._calls.get(event.call_id)
        return call if call is not None else _alone(event)

    def get(self, call_id: str) -> ToolCall | None:
        return self._calls.get(call_id)

    @property
    def calls(self) -> list[ToolCall]:
        """All calls, in the order they were first seen."""
        return list(self._calls.values())


class RunningToolCalls:
    """Pairs tool-call events as they stream, holding only the calls still running, so
    memory stays flat however long the stream (a run that keeps no events).

    A ``completed`` event carries its ``started`` event from then on, so
    :meth:`call_of` pairs them for as long as someone holds the ``completed`` event.
    """

    __slots__ = ("_running",)

    def __init__(self) -> None:
        self._running: dict[str, ToolCallStarted] = {}

    def add(self, event: ToolCallStarted | ToolCallCompleted) -> None:
        """Record an event (this is on the hot path of every streamed run)."""
        if type(event) is ToolCallStarted:
            self._running[event.call_id] = event
            return
        started = self._running.pop(event.call_id, None)
        if started is not None:
            # Events are frozen, but have a __dict__ (for their lazily parsed payload).
            event.__dict__[_STARTED] = started

    def call_of(self, event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
        """The :class:`ToolCall` an event belongs to: a ``started`` event's call is
        running; a ``completed`` event's call has both events, if ``started`` was seen."""
        if isinstance(event, ToolCallCompleted):
            return ToolCall(event.call_id, event.__dict__.get(_STARTED), event)
        return _alone(event)

    @property
    def calls(self) -> list[ToolCall]:
        """The calls still running, in the order they started."""
        return [ToolCall(started.call_id, started) for started in self._running.values()]


_STARTED = "_agent_sdk_started"


def _alone(event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
    if isinstance(event, ToolCallStarted):
        return ToolCall(event.call_id, event)
    return ToolCall(event.call_id, None, event)


def calls_of(events: Iterable[Event]) -> list[ToolCall]:
    """The tool calls among some events, paired, in the order they were first seen."""
    tracker = ToolCallTracker()
    for event in events:
        if isinstance(event, (ToolCallStarted, ToolCallCompleted)):
            tracker.add(event)
    return tracker.calls
