"""Tool-call lines for the trace tests (docs/protocol.md §3.4), written for them."""

from __future__ import annotations

from typing import Any

SESSION = "sess-1"


def shell(subtype: str, call_id: str, command: str, exit_code: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"args": {"command": command}}
    if exit_code is not None:
        body["result"] = {
            "success": {"command": command, "exitCode": exit_code, "stdout": "", "stderr": ""}
        }
    return {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": call_id,
        "tool_call": {"shellToolCall": body},
        "session_id": SESSION,
    }


def rejected_read(subtype: str, call_id: str, path: str) -> dict[str, Any]:
    body: dict[str, Any] = {"args": {"path": path}}
    if subtype == "completed":
        body["result"] = {"rejected": {"reason": "the user said no"}}
    return {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": call_id,
        "tool_call": {"readToolCall": body},
        "session_id": SESSION,
    }


def usage_result(text: str = "done") -> dict[str, Any]:
    return {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": text,
        "session_id": SESSION,
        "usage": {"inputTokens": 120, "outputTokens": 30, "cacheReadTokens": 7},
    }
