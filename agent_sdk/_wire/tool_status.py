"""What a tool call's outcome means, whatever its wire key (docs/protocol.md §3.4).

A leaf: the payload parser (``_wire/tool_payloads.py``), the events and :class:`~agent_sdk.ToolCall`
all use it; :data:`ToolCallStatus` is re-exported by :mod:`agent_sdk.tool_calls`.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["ToolCallStatus", "status_of"]

ToolCallStatus = Literal["succeeded", "blocked", "failed", "other"]
"""What a finished tool call's outcome means, whatever its wire key (docs/protocol.md §3.4):

- ``"succeeded"``: the call ran (``success``). A shell command that exited non-zero
  succeeded too: its ``exit_code`` says how the command went.
- ``"blocked"``: it was stopped before it ran, by a hook, the user or the permission
  rules (``rejected``, ``permissionDenied``, ``writePermissionDenied``). Not a failed run.
- ``"failed"``: it did not work (``error``; also ``failure``, ``timeout``,
  ``fileNotFound``, ``spawnError``, reported by users but never seen).
- ``"other"``: an outcome key this SDK does not know (the key is ``outcome``, its payload
  ``result``), or a ``completed`` event with no outcome at all.
"""

# What each outcome key means (docs/protocol.md §3.4): the call ran; it was stopped before
# it ran, by a hook, the user or the permission rules; it ran or tried to and did not
# work. The four failure keys after `error` are reported by users, never seen.
_STATUS: dict[str, ToolCallStatus] = {
    "success": "succeeded",
    "rejected": "blocked",
    "permissionDenied": "blocked",
    "writePermissionDenied": "blocked",
    "error": "failed",
    "failure": "failed",
    "timeout": "failed",
    "fileNotFound": "failed",
    "spawnError": "failed",
}


def status_of(outcome: str | None) -> ToolCallStatus:
    """What an outcome key means: ``succeeded``, ``blocked``, ``failed`` or ``other``."""
    return _STATUS.get(outcome, "other") if outcome is not None else "other"
