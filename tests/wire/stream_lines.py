"""Lines of a run's stdout for the Stream tests (docs/protocol.md §3): events as the CLI
writes them, and a stream fed every chunk then ended."""

from __future__ import annotations

import json
from typing import Any

from agent_sdk._wire.stream import Stream
from agent_sdk.events import Event


def wire(**event: Any) -> bytes:
    return json.dumps(event, ensure_ascii=False).encode() + b"\n"


def init(session_id: str = "s1") -> bytes:
    return wire(type="system", subtype="init", session_id=session_id)


def user(text: str = "hi") -> bytes:
    # The echoed prompt carries no session id (docs/protocol.md §3).
    return wire(type="user", message={"role": "user", "content": [{"type": "text", "text": text}]})


def say(
    text: str,
    *,
    model_call_id: str | None = None,
    timestamp_ms: int | None = None,
    session_id: str = "s1",
    **extra: Any,
) -> bytes:
    event: dict[str, Any] = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
        "session_id": session_id,
        **extra,
    }
    if model_call_id is not None:
        event["model_call_id"] = model_call_id
    if timestamp_ms is not None:
        event["timestamp_ms"] = timestamp_ms
    return json.dumps(event, ensure_ascii=False).encode() + b"\n"


def delta(text: str, at: int = 1) -> bytes:
    """A partial-output delta: a timestamp, no model_call_id (§3.3)."""
    return say(text, timestamp_ms=at)


def flush_before_tool(text: str) -> bytes:
    """A partial-output flush before a tool call: both fields (§3.3)."""
    return say(text, model_call_id="m-0", timestamp_ms=9)


def end_of_turn(text: str) -> bytes:
    """A partial-output end-of-turn flush, or a plain run's last segment: neither field."""
    return say(text)


def tool(subtype: str, call_id: str, path: str = "a.py") -> bytes:
    body: dict[str, Any] = {"args": {"path": path}}
    if subtype == "completed":
        body["result"] = {"success": {"content": path}}
    return wire(
        type="tool_call",
        subtype=subtype,
        call_id=call_id,
        tool_call={"readToolCall": body},
        session_id="s1",
    )


def result(text: str = "Done.", session_id: str = "s1", **fields: Any) -> bytes:
    return wire(type="result", subtype="success", result=text, session_id=session_id, **fields)


def feed_all(stream: Stream, *chunks: bytes) -> list[Event]:
    events: list[Event] = []
    for chunk in chunks:
        events += stream.feed(chunk)
    return events + stream.end()
