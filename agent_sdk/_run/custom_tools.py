"""Which ``mcpToolCall`` events of a run were calls of its own tools (docs/extend.md,
"Which calls were ours"): each completed one is given the call the run's host recorded
(``extend/_served.py`` pairs them), read back as ``ToolCall.custom_tool``. Only a run
given tools pays for it."""

from __future__ import annotations

from collections.abc import Iterable

from .._wire.tool_call_events import ToolCallCompleted, ToolCallStarted, set_custom_tool
from ..extend._served import Claims
from ..tools import McpArgs

__all__ = ["Claims", "claims_of", "mark"]


def claims_of(transport: object) -> Claims | None:
    """The pairing of a started run's calls with what its transport's host recorded
    (``custom_tool_calls``: the subprocess transport's); ``None`` without one."""
    recorded = getattr(transport, "custom_tool_calls", None)
    return Claims(recorded) if recorded is not None else None


def mark(claims: Claims, events: Iterable[object]) -> None:
    """Give each completed ``mcpToolCall`` of ``events`` its recorded call, if any. A
    completion without ``args`` (docs/protocol.md §3.4: a refused call's had none) is
    paired by the arguments of its started event."""
    for event in events:
        if type(event) is ToolCallStarted and event.kind == "mcpToolCall":
            if isinstance(event.args, McpArgs):
                claims.started[event.call_id] = event.args
            continue
        if type(event) is not ToolCallCompleted or event.kind != "mcpToolCall":
            continue
        started = claims.started.pop(event.call_id, None)
        args = event.args
        if not isinstance(args, McpArgs) or args.tool_name is None:
            args = started
        if isinstance(args, McpArgs):
            found = claims.claim(args.tool_name, args.args)
            if found is not None:
                set_custom_tool(event, found)
