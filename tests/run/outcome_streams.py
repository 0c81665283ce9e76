"""What a run's output said, as a Stream, and the outcome ``failure_or_result`` makes
of it, for the tests of how a run ended (docs/protocol.md §5)."""

from __future__ import annotations

import json
from typing import Any

from agent_sdk import AgentError, AgentOptions, RunResult
from agent_sdk._run.outcome import failure_or_result
from agent_sdk._wire.stream import Stream

SESSION = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"


def wire(**event: Any) -> bytes:
    return json.dumps(event).encode() + b"\n"


def say(text: str) -> bytes:
    return wire(
        type="assistant",
        message={"role": "assistant", "content": [{"type": "text", "text": text}]},
        session_id=SESSION,
    )


def tool(subtype: str, call_id: str = "c1") -> bytes:
    body: dict[str, Any] = {"args": {"path": "a.py"}}
    if subtype == "completed":
        body["result"] = {"success": {"content": "x"}}
    return wire(
        type="tool_call", subtype=subtype, call_id=call_id, tool_call={"readToolCall": body}
    )


INIT = wire(type="system", subtype="init", session_id=SESSION)
RESULT = wire(
    type="result",
    subtype="success",
    is_error=False,
    result="The test is added.",
    session_id=SESSION,
    request_id="req-1",
    duration_ms=4210,
    duration_api_ms=4000,
    usage={"inputTokens": 10, "outputTokens": 2, "cacheReadTokens": 3, "cacheWriteTokens": 4},
)


def error_result(text: str = "The model refused.", subtype: str = "error") -> bytes:
    return wire(type="result", subtype=subtype, is_error=True, result=text, session_id=SESSION)


def stream_of(
    *lines: bytes, keep_events: bool = False, output_format: str = "stream-json"
) -> Stream:
    stream = Stream(output_format=output_format, keep_events=keep_events)
    for line in lines:
        stream.feed(line)
    stream.end()
    return stream


SUCCESSFUL = (INIT, say("I'll add "), tool("started"), tool("completed"), say("the test."), RESULT)


def outcome(
    stream: Stream,
    *,
    exit_code: int = 0,
    ended_by_us: bool = False,
    stderr: str = "",
    options: AgentOptions | None = None,
) -> RunResult | AgentError:
    return failure_or_result(
        stream,
        exit_code=exit_code,
        ended_by_us=ended_by_us,
        stderr=stderr,
        options=options if options is not None else AgentOptions(),
    )


def succeeded(stream: Stream, **kwargs: Any) -> RunResult:
    value = outcome(stream, **kwargs)
    assert isinstance(value, RunResult), value
    return value


def failed(stream: Stream, **kwargs: Any) -> AgentError:
    value = outcome(stream, **kwargs)
    assert isinstance(value, AgentError), value
    return value
