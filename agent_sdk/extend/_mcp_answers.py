"""One question per MCP call, and which tools are the run's own, for the run's gates
(``_wire/hook_messages.py``, :func:`~agent_sdk.extend._hooks.answer`; docs/extend.md, "MCP
calls")."""

from __future__ import annotations

from collections.abc import Iterable
from contextvars import ContextVar
from typing import Any

import msgspec

from ._hook_payloads import HookReply, ToolUse

__all__ = ["OWN_TOOLS", "McpAnswers"]

#: The names of the run's own tools while its gates are asked (:func:`answer`):
#: ``preToolUse`` names an MCP call ``MCP:<tool>``, with no server (docs/protocol.md
#: §6.3), and an approval labels a call of ours as its events do (``_approval.py``).
OWN_TOOLS: ContextVar[frozenset[str]] = ContextVar("agent_sdk_own_tools", default=frozenset())


class McpAnswers:
    """The answers a run's ``before_tool`` gave to ``preToolUse`` of ``MCP:<tool>`` calls,
    until the same call's ``beforeMCPExecution`` takes them: one call, one question.
    ``own``: the names of the run's own tools (:data:`OWN_TOOLS`)."""

    __slots__ = ("_kept", "own")

    def __init__(self, own: Iterable[str] = ()) -> None:
        self._kept: dict[tuple[str, bytes], list[HookReply]] = {}
        self.own = frozenset(own)

    @staticmethod
    def key(payload: Any) -> tuple[str, bytes] | None:
        if not isinstance(payload, ToolUse) or not payload.tool_name.startswith("MCP:"):
            return None
        try:
            return payload.tool_name, msgspec.json.encode(payload.tool_input, order="sorted")
        except (TypeError, ValueError):
            return None

    def keep(self, key: tuple[str, bytes], reply: HookReply) -> None:
        kept = self._kept.setdefault(key, [])
        if len(kept) < _MCP_KEPT:
            kept.append(reply)

    def take(self, key: tuple[str, bytes]) -> HookReply | None:
        kept = self._kept.get(key)
        return kept.pop(0) if kept else None


_MCP_KEPT = 64  # answers kept per tool and input (calls the CLI never completed)
