"""A small web page that runs the agent and shows the run live (Starlette, server-sent events).

    pip install -e '.[web]'                   # starlette + uvicorn
    python examples/sse_server.py [--live] [--allow-host NAME] [--max-runs N] [PORT]
    open http://127.0.0.1:8000/
    # or: uvicorn examples.sse_server:app --timeout-graceful-shutdown 5

``GET /`` is the page (``examples/web/``: plain HTML, CSS and JS, nothing to build, and a
favicon; a Content-Security-Policy lets it load nothing but them): a prompt box, the
reply as it streams, each tool call with its label, arguments in words (``_web_words.py``),
status, duration and notes (a subagent's question and answer, a hook's context), a Stop
button, and failures shown as errors.

Two modes. By default each prompt is one print-mode run (``cursor-agent -p``, its own
process group). With ``--live`` (or ``AGENT_SDK_EXAMPLES_LIVE=1``) the server keeps one
live agent (``cursor-agent acp``, docs/acp.md) for its whole life, each page gets a session
of it, and the agent *asks* before it runs a tool off the allowlist: the page shows an
approval card (``_live_web.py``).

Only the server's own page and the user's own tools are answered: a request whose
``Host``, ``Origin`` or ``Sec-Fetch-Site`` says another site sent it gets ``403`` and
starts, stops or answers nothing (``_web_guard.py`` says why and how). Nothing changes
state on a ``GET``: a run starts on ``POST /run`` with a JSON body, which no other site's
page can send without the server's leave (a CORS preflight it never grants)::

    curl -N -H 'Content-Type: application/json' -d '{"prompt": "scenario:cart"}' \
        http://127.0.0.1:8000/run

At most :data:`MAX_RUNS` runs go on at once (``--max-runs N``, or
``AGENT_SDK_EXAMPLES_MAX_RUNS``); one more is answered ``429``. A client that takes no
event for :data:`SEND_TIMEOUT` seconds (it stopped reading) is taken as gone: its run ends.
Meanwhile its run waits, and nothing piles up for it beyond the event being sent (and
the socket's buffers).

``POST /run`` ``{"prompt", "session"?}`` answers ``text/event-stream``, events made for
the page (the SDK does the work of pairing tool calls and labelling them; the page only
draws):

* ``start``  ``{"run": id}``: first, always; ``POST /stop?run=id`` stops this run.
* ``init``   ``{"session_id", "model", "cwd"}``: the CLI started the session (live mode
  adds ``"live": true`` and the model's id, ``"model_id"``, ``"model"`` being its name;
  the page sends ``"session": ID`` with its next prompts).
* ``text``   ``{"text"}``: reply text to append (each piece exactly once); after a tool
  call, a new paragraph.
* ``tool``   one tool call, sent when it starts and again when it completes:
  ``{"id", "kind", "label", "label_parts", "args": [[name, value], ...], "status",
  "outcome", "exit_code", "duration_ms", "detail"}``; ``label`` is the SDK's
  (``ToolCall.label``), or a live call's title, ``label_parts`` it as
  ``[[text, is_code], ...]`` (a title's Markdown code spans); ``args`` are the few a
  person reads, as short text (a command's timeout, never the CLI's parse of it);
  ``status`` is ``"running"``, then ``"succeeded"``, ``"blocked"``, ``"failed"`` (a
  command that exited non-zero too: ``outcome`` then says ``exit 1``) or ``"other"``;
  ``"notes"``, ``[[what, text], ...]``: what a subagent was asked and answered, what
  hooks added to the agent's context.
* ``notice`` ``{"title", "status", "detail"}``: a subagent that ran in the background
  has finished (``detail``: what it answered).
* live mode only: ``permission`` and ``permission_done``, the agent asking (see
  ``_live_web.py``); the answer is ``POST /permission?run=ID&request=N&decision=...``.
* then one of ``done`` (``{"session_id", "result", "text", "duration_ms", "usage",
  "tool_calls", "fake_agent"}``: ``text`` is ``RunResult.text``, the messages a tool call
  split a blank line apart, ``result`` the CLI's; ``fake_agent`` true when the run was the
  bundled fake agent's; live: ``usage`` null, plus ``stop_reason``),
  ``error`` (``{"error",
  "message", "hint", "exit_code"}``: an :class:`~agent_sdk.AgentError`) or ``stopped``
  (``{}``, or ``{"message"}``: ``POST /stop`` ended it).

A print-mode run ends its agent's whole process group however it ends: ``POST /stop``
cancels the run, and so does the client going away (the tab closed, the page's
request aborted, or no event taken for :data:`SEND_TIMEOUT`); either way the
cancellation leaves ``async with run(...)``, which ends the group. ``POST /stop`` answers
only once that is done. A live run is cancelled instead (``session/cancel``): the agent
and the session stay, for the next prompt.

On SIGINT or SIGTERM (``python examples/sse_server.py``) the server stops every run at once,
as ``POST /stop`` does (print mode: their process groups end; live mode: their turns are
cancelled, then the lifespan ends the agent), and exits 130 or 143. A run that takes over
``_web_main.SHUTDOWN_WAIT`` seconds to end, or any run at a second signal, is cancelled
(``_web_process.py``). If the server is killed outright (SIGKILL), each agent it started
ends with it (the SDK's parent-death signal, docs/lifecycle.md).

The command line is ``_web_main.py``: it runs before anything here is imported, so
``--help`` needs neither Starlette nor uvicorn, and their absence is said in one line.
"""

from __future__ import annotations

import contextlib
import os
import sys
import uuid
from pathlib import Path
from typing import Protocol

if __name__ == "__main__":  # python examples/sse_server.py
    # The command line first (_web_main.py, the standard library only): --help, and the
    # message for a missing Starlette, need nothing of the web extra installed.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _web_main import main

    sys.exit(main())

import anyio
import anyio.lowlevel
import msgspec
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

from agent_sdk import (
    AgentError,
    AgentOptions,
    SystemInit,
    run,
)
from agent_sdk._options.redaction import redaction_of  # the SDK's one redaction

if __package__:  # uvicorn examples.sse_server:app
    from ._agent import default_options, using_fake
    from ._live_web import LiveWeb
    from ._page_stream import PageStream, sse
    from ._web_guard import PAGE_POLICY, SameOriginOnly
    from ._web_main import ALLOW_HOSTS_ENV, LIVE_ENV, default_max_runs
else:  # python examples/sse_server.py
    from _agent import default_options, using_fake
    from _live_web import LiveWeb
    from _page_stream import PageStream, sse
    from _web_guard import PAGE_POLICY, SameOriginOnly
    from _web_main import ALLOW_HOSTS_ENV, LIVE_ENV, default_max_runs

# Partial output: the reply arrives in small deltas, as it is written.
OPTIONS: AgentOptions = default_options(stream_partial_output=True)
WEB = Path(__file__).resolve().parent / "web"
STOP_WAIT = 30.0  # seconds POST /stop waits for the run to end (SIGTERM, grace, SIGKILL)
#: Runs at once: each is an agent process working on the user's machine.
MAX_RUNS = default_max_runs()
#: Seconds a client may leave an event untaken before it is taken as gone (a client that
#: stopped reading would otherwise hold its run, and its agent, for ever).
SEND_TIMEOUT = 30.0
MAX_BODY = 1 << 20  # bytes of a POST /run body


class RunRequest(msgspec.Struct, forbid_unknown_fields=True):
    """The body of ``POST /run``."""

    prompt: str
    session: str | None = None


class ActiveRun(Protocol):
    """A run in progress, for ``POST /stop`` and the client going away: its cancel scope,
    and an event set once it has ended. :class:`PrintRun` here, ``LiveRun`` in live mode."""

    id: str
    scope: anyio.CancelScope
    ended: anyio.Event
    stop_requested: bool
    #: what ``stopped`` says, if not the page's default (the process group has ended)
    stopped_message: str | None

    async def stream(self, page: PageStream) -> None:
        """Run the prompt and send what the page draws, then ``done`` or ``error``."""

    async def stop(self) -> None:
        """``POST /stop``: end the run (the server then waits for :attr:`ended`)."""

    async def abandon(self) -> None:
        """The client went away: nobody is watching, so end the run."""


class PrintRun:
    """One print-mode run (``cursor-agent -p``): ended by cancelling its scope, which
    leaves ``async with run(...)`` and so ends the agent's process group."""

    stopped_message: str | None = None  # the page's own: the process group has ended

    def __init__(self, prompt: str) -> None:
        self.id = uuid.uuid4().hex
        self.prompt = prompt
        self.scope = anyio.CancelScope()
        self.ended = anyio.Event()
        self.stop_requested = False

    async def stop(self) -> None:
        self.stop_requested = True
        self.scope.cancel()

    async def abandon(self) -> None:
        self.scope.cancel()

    async def stream(self, page: PageStream) -> None:
        try:
            async with run(self.prompt, options=OPTIONS) as events:
                async for event in events:
                    if isinstance(event, SystemInit):
                        await page.init(event.session_id, event.model, event.cwd)
                    else:
                        await page.draw(event)
            result = events.result
        except AgentError as exc:
            await page.error(exc)
            return
        done = {
            "session_id": result.session_id,
            "result": result.result,  # as the CLI wrote it: messages glued (§3.3)
            "text": result.text,  # messages a tool call split, a blank line apart
            "duration_ms": result.duration_ms,
            "usage": result.usage,
            "tool_calls": page.calls,
            "fake_agent": using_fake(),  # the run itself says so, not only the page's header
        }
        await page.send("done", done)


# Runs in progress by id, from the request that starts one (so the cap counts it at once)
# to its end. One event loop serves every request, so a plain dict will do.
RUNS: dict[str, ActiveRun] = {}


class RunStream(Response):
    """The event stream of one run.

    An ASGI response written by hand rather than a StreamingResponse over an async
    generator: the run lives in this one task, inside one cancel scope that ``POST
    /stop`` and a client disconnect can cancel. (Cancelling a generator suspended at
    ``yield``, from another task, is what trio and anyio's cancel scopes forbid.)
    """

    media_type = "text/event-stream"

    def __init__(self, active: ActiveRun) -> None:
        # Not Response.__init__: it would declare a Content-Length (of no body).
        self.status_code = 200
        self.background = None
        self.init_headers({"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        self.active = active
        RUNS[active.id] = active  # until __call__ ends

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        active = self.active
        disconnected = False
        # A live run's permission questions are sent from the agent's task, not this one.
        lock = anyio.Lock()

        async def body(chunk: bytes) -> None:
            nonlocal disconnected
            async with lock:
                if disconnected:
                    return
                disconnected = not await within_send_timeout(send, chunk, more=True)
            if disconnected:
                await active.abandon()
                await anyio.lowlevel.checkpoint()  # the cancellation, at once (in the run)

        async def watch_disconnect() -> None:
            # The client went away (tab closed, EventSource closed): nobody is watching,
            # so stop the agent rather than let it run on.
            nonlocal disconnected
            message: Message = {"type": ""}
            while message["type"] != "http.disconnect":
                message = await receive()
            disconnected = True
            await active.abandon()

        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            with active.scope:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(watch_disconnect)
                    await body(sse("start", {"run": active.id}))
                    # The page shows no secret of the run (OPTIONS' or the environment's).
                    await active.stream(PageStream(body, redaction_of(OPTIONS, os.environ)))
                    tg.cancel_scope.cancel()  # the run is over: stop watching
            # Here the run has ended (print mode: its agent's process group is gone).
            if not disconnected:
                if active.scope.cancelled_caught and active.stop_requested:
                    message = active.stopped_message
                    await body(sse("stopped", {"message": message} if message else {}))
                await within_send_timeout(send, b"", more=False)
        finally:
            RUNS.pop(active.id, None)
            active.ended.set()


async def within_send_timeout(send: Send, chunk: bytes, *, more: bool) -> bool:
    """Send one piece of the body; False when the client is gone, or took nothing for
    :data:`SEND_TIMEOUT` seconds (the server's send waits while the client reads nothing:
    so at most this one piece is held for it)."""
    with anyio.move_on_after(SEND_TIMEOUT):
        try:
            await send({"type": "http.response.body", "body": chunk, "more_body": more})
        except OSError:  # how servers of ASGI spec 2.4 may say the client is gone
            return False
        return True
    return False


def refused(status: int, error: str) -> Response:
    return JSONResponse({"error": error}, status_code=status)


async def run_endpoint(request: Request) -> Response:
    """``POST /run`` ``{"prompt", "session"?}``: start a run and stream it (above)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return refused(415, 'send a JSON body: {"prompt": "..."} as application/json')
    body = b""
    async with contextlib.aclosing(request.stream()) as chunks:  # closed when cut short too
        async for chunk in chunks:
            body += chunk
            if len(body) > MAX_BODY:
                return refused(413, f"the body is over {MAX_BODY} bytes")
    try:
        asked = msgspec.json.decode(body, type=RunRequest)
    except msgspec.DecodeError as exc:  # ValidationError is one
        return refused(400, f'send {{"prompt": "..."}}: {exc}')
    except RecursionError:  # a body nested deeper than msgspec decodes
        return refused(400, 'send {"prompt": "..."}: the body is nested too deep')
    prompt = asked.prompt.strip()
    if not prompt:
        return refused(400, "the prompt is empty")
    if len(RUNS) >= MAX_RUNS:
        return refused(
            429,
            f"{len(RUNS)} runs are going on, the most this server runs at once: stop one,"
            " or start the server with --max-runs N",
        )
    if LIVE is not None:  # the page's session, if it has one already
        return RunStream(LIVE.new_run(prompt, asked.session))
    return RunStream(PrintRun(prompt))


async def stop_endpoint(request: Request) -> Response:
    """``POST /stop?run=ID``: stop that run, answer once it has ended (print mode: once
    its process group has ended; live mode: once its turn is cancelled).

    ``{"stopped": true}``: it was running and is now gone; ``{"stopped": false}``: no such
    run is running (it had ended already, or its client went away first)."""
    active = RUNS.get(request.query_params.get("run", ""))
    if active is None:
        return JSONResponse({"stopped": False})
    await active.stop()
    with anyio.move_on_after(STOP_WAIT):
        await active.ended.wait()
    if not active.ended.is_set():
        return JSONResponse({"stopped": False, "error": "the run did not end"}, status_code=500)
    message = active.stopped_message
    return JSONResponse({"stopped": True, **({"message": message} if message else {})})


async def stop_runs() -> None:
    """Stop every run (the server is stopping), as ``POST /stop`` does."""
    async with anyio.create_task_group() as tg:
        for active in list(RUNS.values()):
            tg.start_soon(active.stop)


def cancel_runs() -> None:
    """Cancel every run (a second signal: no more waiting), as a page going away does."""
    for active in list(RUNS.values()):
        active.scope.cancel()


def page() -> str:
    """The page, saying which agent this server drives (with the fake, how to pick a run)."""
    if using_fake():
        agent = "the bundled fake agent: put <code>scenario:NAME</code> in a prompt to pick a run"
    else:
        agent = "<code>cursor-agent</code>"
    if LIVE is not None:
        agent += (
            "; live mode (<code>cursor-agent acp</code>): the agent asks before it runs a"
            " command, and you approve or reject it here"
        )
    return (WEB / "index.html").read_text(encoding="utf-8").replace("<!--AGENT-->", agent)


async def index(request: Request) -> Response:
    return HTMLResponse(page(), headers={"Content-Security-Policy": PAGE_POLICY})


#: Names the server answers to besides localhost (``--allow-host``), e.g. behind a proxy.
ALLOW_HOSTS = [name for name in os.environ.get(ALLOW_HOSTS_ENV, "").split(",") if name.strip()]
#: Live mode's agent and sessions, or None in print mode.
LIVE: LiveWeb | None = LiveWeb(OPTIONS) if os.environ.get(LIVE_ENV) == "1" else None

app = Starlette(
    routes=[
        Route("/", index),
        Route("/run", run_endpoint, methods=["POST"]),
        Route("/stop", stop_endpoint, methods=["POST"]),
        *([Route("/permission", LIVE.answer_endpoint, methods=["POST"])] if LIVE else []),
        Mount("/web", StaticFiles(directory=WEB), name="web"),
    ],
    lifespan=LIVE.lifespan if LIVE else None,
    # First of all, for every request (the page and its files too), in both modes.
    middleware=[Middleware(SameOriginOnly, allow_hosts=ALLOW_HOSTS)],
)
