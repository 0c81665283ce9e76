"""A small web page that runs the agent and shows the run live (Starlette, server-sent events).

    pip install -e '.[web]'                   # starlette + uvicorn
    uvicorn examples.sse_server:app           # or: python examples/sse_server.py [PORT]
    open http://127.0.0.1:8000/

``GET /`` is the page (``examples/web/``: plain HTML, CSS and JS, nothing to build): a
prompt box, the reply as it streams, each tool call with its label, arguments, status and
duration, a Stop button, and failures shown as errors.

``GET /run?prompt=...`` answers ``text/event-stream``, events made for the page (the SDK
does the work of pairing tool calls and labelling them; the page only draws):

* ``start``  ``{"run": id}``: first, always; ``POST /stop?run=id`` stops this run.
* ``init``   ``{"session_id", "model", "cwd"}``: the CLI started the session.
* ``text``   ``{"text"}``: reply text to append (each piece exactly once).
* ``tool``   one tool call, sent when it starts and again when it completes:
  ``{"id", "kind", "label", "args": [[name, value], ...], "status", "outcome",
  "duration_ms", "detail"}``; ``status`` is ``"running"``, then ``"succeeded"``,
  ``"blocked"``, ``"failed"`` (a command that exited non-zero too: ``outcome`` then
  says ``exit 1``) or ``"other"``.
* then one of ``done`` (``{"session_id", "result", "duration_ms", "usage",
  "tool_calls"}``), ``error`` (``{"error", "message", "hint", "exit_code"}``: an
  :class:`~agent_sdk.AgentError`) or ``stopped`` (``{}``: ``POST /stop`` ended it).

A run ends its agent's whole process group however it ends: ``POST /stop`` cancels the
run, and so does the client going away (the tab closed, the page's ``EventSource``
closed); either way the cancellation leaves ``async with run(...)``, which ends the group.
``POST /stop`` answers only once that is done.
"""

from __future__ import annotations

import contextlib
import sys
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel
import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

from agent_sdk import (
    AgentError,
    AgentOptions,
    AssistantEvent,
    SystemInit,
    ToolCall,
    ToolCallCompleted,
    ToolCallStarted,
    run,
)
from agent_sdk.cli.labels import command_failure, failure_detail, result_detail, tool_label

if __package__:  # uvicorn examples.sse_server:app
    from ._agent import default_options, using_fake
else:  # python examples/sse_server.py
    from _agent import default_options, using_fake

# Partial output: the reply arrives in small deltas, as it is written.
OPTIONS: AgentOptions = default_options(stream_partial_output=True)
WEB = Path(__file__).resolve().parent / "web"
STOP_WAIT = 30.0  # seconds POST /stop waits for the group to end (SIGTERM, grace, SIGKILL)

# Argument values are for a glance: a file's whole text or a long command stays in the
# agent's transcript, the page gets its first line.
MAX_ARGS = 6
MAX_VALUE = 80


def sse(event: str, data: Any) -> bytes:
    """One server-sent event. Compact JSON never holds a raw newline, so one data line."""
    return b"event: " + event.encode() + b"\ndata: " + msgspec.json.encode(data) + b"\n\n"


def short(value: Any) -> str:
    """A value as one short line: strings as they are, anything else as compact JSON."""
    text = value if isinstance(value, str) else msgspec.json.encode(value).decode()
    lines = text.strip().splitlines() or [""]
    if len(lines) > 1 or len(lines[0]) > MAX_VALUE:
        return lines[0][: MAX_VALUE - 1] + "…"
    return lines[0]


def args_for_page(call: ToolCall) -> list[list[str]]:
    """The arguments worth showing, as ``[name, short value]`` pairs: unset and false
    ones, and the call id (it repeats the event's), left out."""
    args = msgspec.to_builtins(call.args) if call.args is not None else {}
    if not isinstance(args, dict):
        return [["args", short(args)]]
    shown = [
        [str(name), short(value)]
        for name, value in args.items()
        if not (value is False or value in (None, "", [], {})) and name != "toolCallId"
    ]
    return shown[:MAX_ARGS]


def tool_for_page(call: ToolCall) -> dict[str, Any]:
    """What the page draws for one tool call, as it is known now."""
    status, outcome = call.status or "running", call.outcome
    if status == "succeeded":
        detail = result_detail(call.result)
        exited = command_failure(call.result)  # a command that ran but did not work
        if exited:
            status, outcome, detail = "failed", exited, ""
    elif call.status is not None:
        detail = failure_detail(call.result)
    else:
        detail = ""
    return {
        "id": call.call_id,
        "kind": call.kind,
        "label": tool_label(call.kind, call.args),
        "args": args_for_page(call),
        "status": status,
        "outcome": outcome,
        "duration_ms": call.duration_ms,
        "detail": detail,
    }


class ActiveRun:
    """A run in progress, for ``POST /stop``: its cancel scope, and an event set once
    its process group has ended."""

    def __init__(self) -> None:
        self.scope = anyio.CancelScope()
        self.ended = anyio.Event()
        self.stop_requested = False


# Runs in progress by id. One event loop serves every request, so a plain dict will do.
RUNS: dict[str, ActiveRun] = {}


class RunStream(Response):
    """The event stream of one run.

    An ASGI response written by hand rather than a StreamingResponse over an async
    generator: the run lives in this one task, inside one cancel scope that ``POST
    /stop`` and a client disconnect can cancel. (Cancelling a generator suspended at
    ``yield``, from another task, is what trio and anyio's cancel scopes forbid.)
    """

    media_type = "text/event-stream"

    def __init__(self, prompt: str) -> None:
        # Not Response.__init__: it would declare a Content-Length (of no body).
        self.status_code = 200
        self.background = None
        self.init_headers({"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        self.prompt = prompt

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        run_id = uuid.uuid4().hex
        active = RUNS[run_id] = ActiveRun()
        disconnected = False

        async def body(chunk: bytes) -> None:
            nonlocal disconnected
            try:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            except OSError:  # how servers of ASGI spec 2.4 may say the client is gone
                disconnected = True
                active.scope.cancel()
                await anyio.lowlevel.checkpoint()  # the cancellation, at once

        async def watch_disconnect() -> None:
            # The client went away (tab closed, EventSource closed): nobody is watching,
            # so stop the agent rather than let it run on.
            nonlocal disconnected
            message: Message = {"type": ""}
            while message["type"] != "http.disconnect":
                message = await receive()
            disconnected = True
            active.scope.cancel()

        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            with active.scope:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(watch_disconnect)
                    await body(sse("start", {"run": run_id}))
                    await self.stream(body)
                    tg.cancel_scope.cancel()  # the run is over: stop watching
            # Here `async with run(...)` has been left: the agent's process group is gone.
            if not disconnected:
                if active.scope.cancelled_caught and active.stop_requested:
                    await body(sse("stopped", {}))
                with contextlib.suppress(OSError):  # gone meanwhile: nothing left to say
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            del RUNS[run_id]
            active.ended.set()

    async def stream(self, body: Callable[[bytes], Awaitable[None]]) -> None:
        """Run the prompt and send what the page draws, then ``done`` or ``error``."""
        # A streamed run keeps no events (flat memory): calls are paired as they pass,
        # and only the running ones are held.
        running: dict[str, ToolCallStarted] = {}
        calls = 0
        try:
            async with run(self.prompt, options=OPTIONS) as events:
                async for event in events:
                    if isinstance(event, AssistantEvent):
                        if event.new_text:  # the CLI repeats text in flushes: new text only
                            await body(sse("text", {"text": event.new_text}))
                    elif isinstance(event, ToolCallStarted):
                        calls += 1
                        running[event.call_id] = event
                        await body(sse("tool", tool_for_page(ToolCall(event.call_id, event))))
                    elif isinstance(event, ToolCallCompleted):
                        started = running.pop(event.call_id, None)
                        call = ToolCall(event.call_id, started, event)
                        await body(sse("tool", tool_for_page(call)))
                    elif isinstance(event, SystemInit):
                        init = {"session_id": event.session_id, "model": event.model}
                        await body(sse("init", {**init, "cwd": event.cwd}))
            result = events.result
        except AgentError as exc:
            # What came before the failure was already sent; this says what went wrong
            # and, for the failures the SDK recognises, how to fix it.
            error = {"error": type(exc).__name__, "message": exc.message, "hint": exc.hint}
            await body(sse("error", {**error, "exit_code": exc.exit_code}))
            return
        done = {
            "session_id": result.session_id,
            "result": result.result,
            "duration_ms": result.duration_ms,
            "usage": result.usage,
            "tool_calls": calls,
        }
        await body(sse("done", done))


async def run_endpoint(request: Request) -> Response:
    prompt = request.query_params.get("prompt", "").strip()
    if not prompt:
        return PlainTextResponse("missing ?prompt=", status_code=400)
    return RunStream(prompt)


async def stop_endpoint(request: Request) -> Response:
    """``POST /stop?run=ID``: cancel that run, answer once its process group has ended.

    ``{"stopped": true}``: it was running and is now gone; ``{"stopped": false}``: no such
    run is running (it had ended already, or its client went away first)."""
    active = RUNS.get(request.query_params.get("run", ""))
    if active is None:
        return JSONResponse({"stopped": False})
    active.stop_requested = True
    active.scope.cancel()
    with anyio.move_on_after(STOP_WAIT):
        await active.ended.wait()
    if not active.ended.is_set():
        return JSONResponse({"stopped": False, "error": "the run did not end"}, status_code=500)
    return JSONResponse({"stopped": True})


def page() -> str:
    """The page, saying which agent this server drives (with the fake, how to pick a run)."""
    if using_fake():
        agent = "the bundled fake agent: put <code>scenario:NAME</code> in a prompt to pick a run"
    else:
        agent = "<code>cursor-agent</code>"
    return (WEB / "index.html").read_text(encoding="utf-8").replace("<!--AGENT-->", agent)


async def index(request: Request) -> Response:
    return HTMLResponse(page())


app = Starlette(
    routes=[
        Route("/", index),
        Route("/run", run_endpoint),
        Route("/stop", stop_endpoint, methods=["POST"]),
        Mount("/web", StaticFiles(directory=WEB), name="web"),
    ]
)


def main() -> int:
    import uvicorn

    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
    print(f"open http://127.0.0.1:{port}/", file=sys.stderr)
    uvicorn.run(app, host="127.0.0.1", port=port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
