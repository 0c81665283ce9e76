"""Failures reported by 2026.10 CLIs in ACP mode (docs/protocol.md §5), known by their
words whatever their JSON-RPC code: a keychain failure is a LiveAuthError, a named
model on a free plan a LiveModelError."""

from __future__ import annotations

import pytest

from agent_sdk.errors import AgentAuthError, AgentModelError
from agent_sdk.live import JsonRpcError, LiveAuthError, LiveModelError
from agent_sdk.live._errors import live_error


@pytest.mark.parametrize("code", [-32603, -32000, 1])  # the codes are unknown
def test_the_keychain_failure_of_authenticate_is_a_live_auth_error(code: int) -> None:
    said = JsonRpcError(code, 'Failed to save the "cursor-access-token" credential')
    error = live_error(said, "authenticate", session_id=None, stderr="")
    assert isinstance(error, LiveAuthError)
    assert isinstance(error, AgentAuthError)
    assert error.hint is not None
    assert "HOME" in error.hint
    assert "AGENT_CLI_CREDENTIAL_STORE=file" in error.hint


@pytest.mark.parametrize("code", [-32602, -32603])
def test_a_named_model_on_a_free_plan_is_a_live_model_error(code: int) -> None:
    said = JsonRpcError(code, "Named models unavailable Free plans can only use Auto")
    error = live_error(said, "session/set_model", session_id="s", stderr="")
    assert isinstance(error, LiveModelError)
    assert isinstance(error, AgentModelError)
    assert error.hint is not None
    assert "Auto" in error.hint
