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
    """Pairs tool-call events as they stream, in any order (parallel calls included).

    Args:
        keep: keep every call, for :attr:`calls`. Without it only the calls still
            running are held, so memory stays flat however long the stream; a
            ``completed`` event then carries its ``started`` event itself, for
            :meth:`call_of`, for as long as someone holds the event.
    """

    __slots__ = ("_calls", "_keep")

    def __init__(self, *, keep: bool = True) -> None:
        self._calls: dict[str, ToolCall] = {}
        self._keep = keep

    def add(self, event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
        """Record an event; return the :class:`ToolCall` it belongs to, as known now."""
        call = self._calls.get(event.call_id) or ToolCall(event.call_id)
        if isinstance(event, ToolCallStarted):
            call = ToolCall(call.call_id, event, call.completed)
        else:
            call = ToolCall(call.call_id, call.started, event)
        if self._keep or call.completed is None:
            self._calls[event.call_id] = call
        else:
            self._calls.pop(event.call_id, None)
            # The events are frozen, but have a __dict__ (for their lazily parsed payload).
            event.__dict__[_STARTED] = call.started
        return call

    def call_of(self, event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
        """The :class:`ToolCall` an event belongs to, as known now."""
        call = self._calls.get(event.call_id)
        if call is not None:
            return call
        if isinstance(event, ToolCallCompleted):
            return ToolCall(event.call_id, event.__dict__.get(_STARTED), event)
        return ToolCall(event.call_id, event)

    def get(self, call_id: str) -> ToolCall | None:
        return self._calls.get(call_id)

    @property
    def calls(self) -> list[ToolCall]:
        """All calls, in the order they were first seen (with ``keep``; else those running)."""
        return list(self._calls.values())


_STARTED = "_agent_sdk_started"


def calls_of(events: Iterable[Event]) -> list[ToolCall]:
    """The tool calls among some events, paired, in the order they were first seen."""
    tracker = ToolCallTracker()
    for event in events:
        if isinstance(event, (ToolCallStarted, ToolCallCompleted)):
            tracker.add(event)
    return tracker.calls
