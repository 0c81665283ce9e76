"""What a live turn came to: :class:`LiveResult` (docs/live.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from .._wire.reprs import count, short, start
from ..tool_calls import ToolCall
from ._bridge import LiveEvent
from ._subagents import Subagent
from ._updates import AcpPlan

if TYPE_CHECKING:
    from ..changes import Changes, Checkpoint

__all__ = ["LiveResult"]


class LiveResult(msgspec.Struct, frozen=True, kw_only=True):
    """What a live turn came to.

    Attributes:
        text: the reply, its message chunks joined with no separator (§3.9).
        stop_reason: ``end_turn``, ``cancelled``, or another ACP reason (§3.6).
        session_id: the session's id.
        duration_ms: from sending the prompt to its stop reason, timed by agent_sdk.
        events: every event of the turn, in order.
        tool_calls: the turn's tool calls, ``started`` paired with ``completed``.
        plan: the last ``plan`` update of the turn, if any.
        subagents: the subagents the turn spawned, in order (§3.13; with
            ``LiveAgent(subagents=True)``): which one said what.
        cli_version: the whole version string of the CLI that ran the turn
            (:attr:`LiveAgent.cli_version`); ``None`` when unknown.
        checkpoint: with ``session.run(prompt, checkpoint=True)``, the checkpoint of the
            session's tree taken before the prompt, finished after the turn
            (docs/sessions.md, "Checkpointed runs"); ``None`` otherwise.
        changes: what that turn changed in the tree; ``None`` without a checkpoint, or
            when the snapshot after the turn failed.
    """

    text: str
    stop_reason: str
    session_id: str
    duration_ms: int
    events: list[LiveEvent] = msgspec.field(default_factory=list)
    tool_calls: list[ToolCall] = msgspec.field(default_factory=list)
    plan: AcpPlan | None = None
    subagents: list[Subagent] = msgspec.field(default_factory=list)
    cli_version: str | None = None
    checkpoint: Checkpoint | None = None
    changes: Changes | None = None

    def __repr__(self) -> str:
        # Counts, not every event: a long turn's repr would cost seconds (_wire/reprs.py).
        return short(
            type(self).__name__,
            ("text", start(self.text)),
            ("stop_reason", repr(self.stop_reason)),
            ("session_id", repr(self.session_id)),
            ("events", count(self.events)),
            ("tool_calls", count(self.tool_calls)),
            ("subagents", count(self.subagents)),
        )

    @property
    def cancelled(self) -> bool:
        """Whether the turn was cancelled (``session/cancel`` or ``turn_timeout``)."""
        return self.stop_reason == "cancelled"
