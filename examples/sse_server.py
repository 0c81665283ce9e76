"""Stream a run's events to a browser as server-sent events (Starlette).

    pip install '.[web]'                      # starlette + uvicorn
    uvicorn examples.sse_server:app           # or: python examples/sse_server.py
    open http://127.0.0.1:8000/

``GET /run?prompt=...`` answers ``text/event-stream``: one ``event: <type>`` with
``data: <the event as JSON>`` per agent event (``system``, ``user``, ``assistant``,
``tool_call``, ``result``, ...), then ``event: done`` with a summary of the run, or
``event: error`` with the message if the run failed. ``GET /`` is a tiny page whose
``EventSource`` shows the reply as it streams.

Closing the browser tab ends the run: the server cancels the response, which leaves the
``async with run(...)`` block, which ends the agent's whole process group.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from agent_sdk import AgentError, AgentOptions, ToolCallStarted, run
from agent_sdk.events import to_json

if __package__:  # uvicorn examples.sse_server:app
    from ._agent import default_options
else:  # python examples/sse_server.py
    from _agent import default_options

# Partial output: the reply arrives in small deltas, as it is written.
OPTIONS: AgentOptions = default_options(stream_partial_output=True)


def sse(event: str, data: Any) -> bytes:
    """One server-sent event. Compact JSON never holds a raw newline, so one data line."""
    payload = data if isinstance(data, bytes) else msgspec.json.encode(data)
    return b"event: " + event.encode() + b"\ndata: " + payload + b"\n\n"


async def agent_events(prompt: str) -> AsyncIterator[bytes]:
    try:
        # If the client goes away, this generator is cancelled (or closed) wherever it
        # waits; leaving `async with` then ends the CLI's process group at once.
        calls = 0  # a streamed run keeps no events (flat memory): count as they pass
        async with run(prompt, options=OPTIONS) as events:
            async for event in events:
                calls += isinstance(event, ToolCallStarted)
                # to_json: the CLI's JSON shape, plus what agent_sdk adds
                # (AssistantEvent.new_text: the text to append).
                yield sse(event.type, to_json(event))
        result = events.result
        done = {
            "session_id": result.session_id,
            "result": result.result,
            "duration_ms": result.duration_ms,
            "usage": result.usage,
            "tool_calls": calls,
        }
        yield sse("done", done)
    except AgentError as exc:
        # Events before the failure were already sent; the message says what went wrong.
        yield sse("error", {"error": type(exc).__name__, "message": str(exc)})


class EventStreamResponse(StreamingResponse):
    """A StreamingResponse that always closes its generator, even when cancelled while
    sending (a generator left suspended at ``yield`` would otherwise wait for the GC)."""

    media_type = "text/event-stream"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            with anyio.CancelScope(shield=True):
                aclose = getattr(self.body_iterator, "aclose", None)
                if aclose is not None:
                    await aclose()


async def run_endpoint(request: Request) -> Response:
    prompt = request.query_params.get("prompt", "").strip()
    if not prompt:
        return PlainTextResponse("missing ?prompt=", status_code=400)
    return EventStreamResponse(
        agent_events(prompt),
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


PAGE = """<!doctype html>
<meta charset="utf-8">
<title>agent_sdk: server-sent events</title>
<style>body{font:15px system-ui;max-width:46em;margin:2em auto}
#reply{white-space:pre-wrap;border:1px solid #ccc;padding:1em;min-height:4em}
.tool{color:#666;font-size:90%}</style>
<form id="f"><input id="p" size="60" value="Add a test for cart totals"> <button>Run</button></form>
<p id="status"></p><div id="reply"></div>
<script>
let source = null;
const $ = (id) => document.getElementById(id);
$("f").onsubmit = (e) => {
  e.preventDefault();
  if (source) source.close();
  $("reply").textContent = ""; $("status").textContent = "running…";
  source = new EventSource("/run?prompt=" + encodeURIComponent($("p").value));
  source.addEventListener("assistant", (m) => {
    $("reply").append(JSON.parse(m.data).new_text);  // new_text: the reply, exactly once
  });
  source.addEventListener("tool_call", (m) => {
    const ev = JSON.parse(m.data), tool = document.createElement("div");
    tool.className = "tool";
    tool.textContent = "[" + ev.subtype + "] " + Object.keys(ev.tool_call)[0];
    $("reply").append(tool);
  });
  source.addEventListener("done", (m) => {
    const d = JSON.parse(m.data);
    $("status").textContent = "done: session " + d.session_id + ", " + d.tool_calls + " tool calls";
    source.close();  // else EventSource reconnects, which would run the prompt again
  });
  source.addEventListener("error", (m) => {  // our `event: error`, or a lost connection
    $("status").textContent = m.data ? "error: " + JSON.parse(m.data).message : "disconnected";
    source.close();
  });
};
</script>
"""


async def index(request: Request) -> Response:
    return HTMLResponse(PAGE)


app = Starlette(routes=[Route("/", index), Route("/run", run_endpoint)])


def main() -> int:
    import uvicorn

    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
    print(f"open http://127.0.0.1:{port}/", file=sys.stderr)
    uvicorn.run(app, host="127.0.0.1", port=port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
