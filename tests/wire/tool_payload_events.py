"""The tool-call events of tests/data/tool_call_kinds.ndjson, by call_id, for the tool
payload tests (docs/protocol.md §3.4)."""

from __future__ import annotations

from pathlib import Path

from agent_sdk._wire.decode import LineDecoder
from agent_sdk.events import Event, ToolCallCompleted, ToolCallStarted

TOOL_CALLS = Path(__file__).parents[1] / "data" / "tool_call_kinds.ndjson"


def decode(line: bytes | str) -> Event | None:
    if isinstance(line, str):
        line = line.encode()
    return LineDecoder(partial=False).decode(line)


def tool_call(call_id: str) -> ToolCallStarted | ToolCallCompleted:
    """The event of tests/data/tool_call_kinds.ndjson with this call_id."""
    for line in TOOL_CALLS.read_bytes().splitlines():
        event = decode(line)
        assert isinstance(event, ToolCallStarted | ToolCallCompleted)
        if event.call_id == call_id:
            return event
    raise LookupError(call_id)


def completed(call_id: str) -> ToolCallCompleted:
    event = tool_call(call_id)
    assert isinstance(event, ToolCallCompleted)
    return event
