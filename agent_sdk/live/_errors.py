"""The live agent's failures as agent_sdk errors (docs/acp.md §5.1; docs/live.md "Errors").

A JSON-RPC error answer becomes a :class:`JsonRpcError` that names the method, carries
the session id and the agent's stderr tail, and says how to fix it; the two the contract
pins down are also the SDK's own classes, so ``except AgentAuthError`` works the same in
print mode and live: ``-32000`` (not logged in) and ``-32602`` "Invalid model value".
Every error is redacted: an API key never reaches a message.
"""

from __future__ import annotations

import re

from .._wire.cli_messages import FREE_PLAN, KEYCHAIN, KEYCHAIN_HINT
from ..errors import AgentAuthError, AgentModelError, ErrorContext
from ._jsonrpc import INVALID_PARAMS, METHOD_NOT_FOUND, JsonRpcError, detail_of

__all__ = ["LiveAuthError", "LiveModelError", "live_error"]

NOT_LOGGED_IN = -32000


class LiveAuthError(JsonRpcError, AgentAuthError):
    """``-32000``: the agent is not logged in (docs/acp.md §3.2, §5.1); or, whatever the
    code, its login could not be saved in the macOS keychain (docs/protocol.md §1)."""


class LiveModelError(JsonRpcError, AgentModelError):
    """``-32602`` "Invalid model value": the id is not in this session's list (§3.8); or,
    whatever the code, a named model refused on a Free plan (docs/protocol.md §5)."""

    @property
    def available_models(self) -> list[str]:
        """Not listed by the error: see ``LiveSession.models``."""
        return []


def _hint(code: int, method: str, text: str) -> str | None:
    if re.search(KEYCHAIN, text, re.IGNORECASE):
        return f"{KEYCHAIN_HINT}; then start the LiveAgent again"
    if re.search(FREE_PLAN, text, re.IGNORECASE):
        return (
            "a Cursor Free plan runs only Auto: leave AgentOptions(model=...) unset, or "
            "choose Auto among LiveSession.models; or upgrade the Cursor plan to use "
            "named models"
        )
    if code == NOT_LOGGED_IN:
        return (
            "log in once with `cursor-agent login`, or pass a key as "
            "AgentOptions(api_key=...), then start the LiveAgent again"
        )
    if code == METHOD_NOT_FOUND:
        return f"this build of cursor-agent has no {method}: update the CLI"
    if "Invalid model value" in text:
        return "choose one of LiveSession.models (ids differ between builds, §3.8)"
    if "Invalid mode" in text:
        return "choose one of LiveSession.modes: agent, plan or ask"
    if "not found" in text and method in ("session/load", "session/prompt"):
        return (
            "a session can be loaded only after it got a prompt; list them with "
            "LiveAgent.list_sessions()"
        )
    if "Failed to open browser" in text or "Login failed" in text:
        return "log in once with `cursor-agent login` in a terminal, then try again"
    return None


def live_error(
    exc: JsonRpcError, method: str, *, session_id: str | None, stderr: str
) -> JsonRpcError:
    """``exc`` (an error answer to ``method``) with the method, context and hint."""
    text = f"{exc.rpc_message} {detail_of(exc.data)}"
    cls: type[JsonRpcError] = JsonRpcError
    # The two failures of docs/protocol.md §5 known by their words (their codes: unknown).
    if exc.code == NOT_LOGGED_IN or re.search(KEYCHAIN, text, re.IGNORECASE):
        cls = LiveAuthError
    elif (exc.code == INVALID_PARAMS and "Invalid model value" in text) or re.search(
        FREE_PLAN, text, re.IGNORECASE
    ):
        cls = LiveModelError
    context = ErrorContext(session_id=session_id, stderr=stderr)
    hint = _hint(exc.code, method, text)
    return cls(exc.code, exc.rpc_message, exc.data, context=context, hint=hint, method=method)
