"""What a run's own tools were asked and answered (:class:`CustomToolCall`), and how a
run tells which ``mcpToolCall`` of its stream was one of them (:class:`Claims`;
docs/extend.md, "Which calls were ours").

The host records each call it answered. The stream's ``mcpToolCall`` names the tool
(``toolName``) and the arguments (``args``): a completed call is paired with the first
recorded call of that name and those arguments not paired yet, in order. Never by
``providerIdentifier``, whose meaning is unknown (docs/protocol.md §3.4).
"""

from __future__ import annotations

from typing import Any

from .._wire.tool_call import CustomToolCall

__all__ = ["Claims", "CustomToolCall"]  # CustomToolCall: made with ToolCall, which holds it


class Claims:
    """Pairs a run's completed ``mcpToolCall`` events with the calls its host recorded
    (``recorded`` is the host's own list, which grows as the host answers)."""

    def __init__(self, recorded: list[CustomToolCall]) -> None:
        self._recorded = recorded
        self._claimed: set[int] = set()
        self.started: dict[str, Any] = {}
        """The arguments of each started ``mcpToolCall`` not completed yet, by call id."""

    def claim_first(self, tool: str) -> CustomToolCall | None:
        """The first recorded call of ``tool`` not claimed yet, whatever its arguments:
        for the live agent, whose updates carry none for an MCP call (docs/acp.md §3.10)."""
        for index, call in enumerate(self._recorded):
            if index not in self._claimed and call.tool == tool:
                self._claimed.add(index)
                return call
        return None

    def claim(self, tool: str | None, arguments: Any) -> CustomToolCall | None:
        """The first recorded call of ``tool`` with ``arguments`` not claimed yet."""
        if tool is None:
            return None
        for index, call in enumerate(self._recorded):
            if index in self._claimed or call.tool != tool:
                continue
            if (call.arguments if call.arguments is not None else {}) == arguments:
                self._claimed.add(index)
                return call
        return None
