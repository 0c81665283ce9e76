"""Which key of a wire ``tool_call`` object is its kind (docs/protocol.md §3.4), read from
its keys alone: the parse of a payload (``_wire/tool_payloads.py``) and a budget's count of a
kind (``_run/spending.py``) both ask, and the count must not parse the arguments."""

from __future__ import annotations

import msgspec

__all__ = ["CALL_KEYS", "kind_in"]

# Keys of a `tool_call` object beside its kind.
CALL_KEYS = frozenset(("toolCallId", "startedAtMs", "completedAtMs", "hookAdditionalContexts"))


def kind_in(tool_call: dict[str, msgspec.Raw]) -> str:
    """The kind among a ``tool_call`` object's keys (its values undecoded); ``""`` if none."""
    kind = next((k for k in tool_call if k.endswith("ToolCall") or k == "function"), "")
    if not kind:
        # A lone object of another name is a kind too: the live agent's calls keep ACP's
        # kind names (`edit`, `search`, docs/live.md "Events").
        named = [k for k in tool_call if k not in CALL_KEYS]
        if len(named) == 1 and bytes(memoryview(tool_call[named[0]])[:1]) == b"{":
            kind = named[0]
    return kind
