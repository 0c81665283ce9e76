"""The ``system`` events after ``init`` (docs/protocol.md §3.1): any subtype, kept whole,
and the one this SDK types, ``task_notification`` (a background subagent finished).

Split from :mod:`agent_sdk.events`, which re-exports both: import them from there.
These events are rare: they are built from their line's plain object, off the decode
path every other event takes (``_wire/decode.py``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from .event_base import _Event

__all__ = ["SystemEvent", "TaskNotification"]


class SystemEvent(_Event, tag="system", frozen=True):
    """A ``system`` event of a subtype other than ``init`` (``background_shell_timeout``,
    ...); ``raw`` is all of it. A ``task_notification`` is a :class:`TaskNotification`."""

    type: ClassVar[str] = "system"
    subtype: str = ""
    raw: dict[str, Any] = msgspec.field(default_factory=dict)


class TaskNotification(SystemEvent, tag="system", frozen=True):
    """``system``/``task_notification``: a subagent started in the background has finished
    (docs/protocol.md §3.4b). The run waits for it, then the agent takes a further turn.

    Attributes:
        task_id: the child's agent id (the ``agentId`` of its ``taskToolCall`` result).
        status: how it ended: ``"success"``; other values are not known yet.
        title: the task's short title.
        detail: the child's final text.

    A field the line lacks, or holds as something other than a string, is ``None``;
    ``raw`` keeps the whole line.
    """

    subtype: str = "task_notification"
    task_id: str | None = None
    status: str | None = None
    title: str | None = None
    detail: str | None = None

    @classmethod
    def of(
        cls, raw: dict[str, Any], session_id: str | None, timestamp_ms: int | None
    ) -> TaskNotification:
        """The notification a ``task_notification`` line's object holds."""

        def text(key: str) -> str | None:
            value = raw.get(key)
            return value if isinstance(value, str) else None

        return cls(
            raw=raw,
            session_id=session_id,
            timestamp_ms=timestamp_ms,
            task_id=text("task_id"),
            status=text("status"),
            title=text("title"),
            detail=text("detail"),
        )
