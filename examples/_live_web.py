"""Live mode of ``sse_server.py``: one ``cursor-agent acp`` for the server's whole life, a
session per page, and the agent's permission requests answered by the person on the page.

The live agent asks before it runs a command off its allowlist
(``session/request_permission``, docs/acp.md §3.11). The run's event stream then carries

* ``permission`` ``{"request": N, "tool_call_id", "title", "title_parts", "kind",
  "command", "reason", "options": [{"id", "name", "kind"}, ...]}`` (``title`` without
  the Markdown backticks the CLI puts around a command, ``title_parts`` marking its code
  spans, as a tool row's ``label_parts``): the page shows an approval card, and the
  turn waits for ``POST /permission?run=ID&request=N&decision=D``, ``D`` one of
  ``allow_once``, ``reject``, ``allow_always``;
* ``permission_done`` ``{"request", "decision"}``: whatever decided it, the person or,
  as a rejection, the Stop button, the page going away, or no answer within
  :data:`DECISION_WAIT` seconds.

Only the server's own page (or the user's own tools) can answer or stop: another site's
request is refused before it reaches this module (``_web_guard.py``, for every route).
``allow_always`` is never chosen for the person: the CLI at once writes a rule into the
user's **global** ``~/.cursor/cli-config.json`` (§3.11), so the page sets its button apart
and says so. Stop cancels the turn (``session/cancel``, §3.7): the session stays, and the
page's next prompt goes to it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import uuid
from collections.abc import AsyncIterator
from typing import Any, Literal, Protocol, cast

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

import fake_agent
from agent_sdk import AgentError, AgentOptions, AgentUsageError
from agent_sdk.live import LiveAgent, LiveSession, RequestPermissionParams

if __package__:  # uvicorn examples.sse_server:app
    from ._web_words import code_spans
else:  # python examples/sse_server.py
    from _web_words import code_spans

__all__ = ["LiveRun", "LiveWeb", "model_name", "permission_for_page"]

Decision = Literal["allow_once", "allow_always", "reject"]
DECISIONS = ("allow_once", "allow_always", "reject")
DECISION_WAIT = 300.0  # seconds a question waits for the person; then it is a rejection
CANCEL_WAIT = 5.0  # seconds a `session/cancel` may take to send when the page is gone
STOPPED = "Stopped: the turn was cancelled; the session stays open for your next prompt."


class Page(Protocol):
    """What a run sends its page (``sse_server.PageStream``)."""

    async def send(self, event: str, data: Any) -> None: ...

    async def init(
        self, session_id: str | None, model: str | None, cwd: str | None, **more: Any
    ) -> None: ...

    async def draw(self, event: object) -> None: ...

    async def error(self, exc: AgentError) -> None: ...


def model_name(session: LiveSession) -> str | None:
    """The session's model as the person picked it: its name in the ``model`` config
    option, else in the model list (``Auto``, not the id ``default[]``, docs/acp.md
    §3.8); the id when neither names it."""
    current = session.current_model_id
    for option in session.config_options:
        if option.id == "model":
            for choice in option.options:
                if choice.value == current and choice.name:
                    return choice.name
    for model in session.models:
        if model.model_id == current and model.name:
            return model.name
    return current


def permission_for_page(number: int, params: RequestPermissionParams) -> dict[str, Any]:
    """What the approval card shows of one ``session/request_permission`` (§3.11): the
    title as text, its code spans in ``title_parts`` ("`pytest -q`" is code)."""
    call = params.tool_call
    raw = call.raw_input if isinstance(call.raw_input, dict) else {}
    command = raw.get("command")
    if not isinstance(command, str) and call.kind == "execute" and call.title:
        # The request's toolCall carries no rawInput (§3.11); a shell call's title is its
        # command in backticks (§3.10).
        command = call.title.strip("`")
    reason = ""
    with contextlib.suppress(TypeError, LookupError):
        # content[0].content.text: "Not in allowlist: pytest", or an MCP tool's arguments.
        text = (call.content or [])[0]["content"]["text"]
        reason = text if isinstance(text, str) else ""
    parts = code_spans(call.title or "")
    return {
        "request": number,
        "tool_call_id": call.tool_call_id,
        "title": "".join(text for text, _ in parts),
        "title_parts": parts,
        "kind": call.kind or "",
        "command": command if isinstance(command, str) else None,
        "reason": reason,
        "options": [{"id": o.option_id, "name": o.name, "kind": o.kind} for o in params.options],
    }


class Question:
    """One permission request waiting for the person: the first answer counts."""

    def __init__(self) -> None:
        self.answered = anyio.Event()
        self.decision: Decision = "reject"

    def answer(self, decision: Decision) -> bool:
        """Decide, unless decided already; whether this answer counted."""
        if self.answered.is_set():
            return False
        self.decision = decision
        self.answered.set()
        return True


class LiveRun:
    """One prompt of a page, a turn of its live session (``sse_server.ActiveRun``)."""

    def __init__(self, live: LiveWeb, prompt: str, session_id: str | None) -> None:
        self.id = uuid.uuid4().hex
        self.live = live
        self.prompt = prompt
        self.session_id = session_id  # the page's session, once it has one
        self.session: LiveSession | None = None
        self.turn_started = False
        self.scope = anyio.CancelScope()
        self.ended = anyio.Event()
        self.stop_requested = False
        self.stopped_message: str | None = STOPPED
        self.page: Page | None = None
        self.questions: dict[int, Question] = {}
        self._asked = 0

    async def stream(self, page: Page) -> None:
        """Run the prompt on the page's session and send what the page draws, then
        ``done``, ``stopped`` (the turn was cancelled) or ``error``."""
        self.page = page
        try:
            session = self.session = await self.live.session(self.session_id)
            self.live.asking[session.session_id] = self
            model, model_id = model_name(session), session.current_model_id
            await page.init(session.session_id, model, session.cwd, model_id=model_id, live=True)
            turn = session.run(self.prompt)
            self.turn_started = True
            async for event in turn:
                await page.draw(event)
            result = turn.result
        except AgentError as exc:
            await page.error(exc)
            return
        finally:
            self.reject_all("the run ended")
            if self.session and self.live.asking.get(self.session.session_id) is self:
                del self.live.asking[self.session.session_id]
        if result.cancelled:
            await page.send("stopped", {"message": self.stopped_message})
            return
        done = {
            "session_id": result.session_id,
            "result": result.text,
            "text": result.text,  # as in print mode (a tool call here may split a sentence)
            "duration_ms": result.duration_ms,
            "usage": None,  # ACP reports no usage (§3.9)
            "tool_calls": len(result.tool_calls),
            "stop_reason": result.stop_reason,
            "fake_agent": self.live.fake,
        }
        await page.send("done", done)

    async def stop(self) -> None:
        """Cancel the turn (§3.7); it ends ``cancelled`` and the session stays usable.
        Before the turn has started, the run is simply cancelled."""
        self.stop_requested = True
        self.reject_all("stopped")
        if self.turn_started and self.session is not None:
            with contextlib.suppress(AgentError):  # the agent is gone: end the run here
                await self.session.cancel()
                return
        self.scope.cancel()

    async def abandon(self) -> None:
        """The page went away: its questions are rejected and the turn cancelled."""
        self.reject_all("the page went away")
        if self.turn_started and self.session is not None:
            # Shielded: this may run in the run's own, cancelled scope.
            shielded = anyio.CancelScope(shield=True)
            with shielded, anyio.move_on_after(CANCEL_WAIT), contextlib.suppress(AgentError):
                await self.session.cancel()
        self.scope.cancel()

    async def ask(self, params: RequestPermissionParams) -> Decision:
        """Show the page an approval card and wait for the person's answer (a cancel or
        the decision timeout ends the wait: a rejection, §3.11)."""
        self._asked += 1
        number, question = self._asked, Question()
        self.questions[number] = question
        try:
            if self.page is not None:
                await self.page.send("permission", permission_for_page(number, params))
            await question.answered.wait()
        finally:
            del self.questions[number]
            question.answer("reject")  # unanswered (cancelled, timed out): a rejection
            with anyio.CancelScope(shield=True), anyio.move_on_after(CANCEL_WAIT):
                if self.page is not None:
                    done = {"request": number, "decision": question.decision}
                    await self.page.send("permission_done", done)
        return question.decision

    def reject_all(self, why: str) -> None:
        """Reject every question still waiting, saying so on the server's stderr."""
        for number, question in list(self.questions.items()):
            if question.answer("reject"):
                print(f"[run {self.id}] permission {number} rejected: {why}", file=sys.stderr)


class LiveWeb:
    """The server's live agent (started and ended by the app's lifespan), the pages'
    sessions, and the runs whose turns are on, by session id (for their questions)."""

    def __init__(self, options: AgentOptions) -> None:
        self.options = options
        #: Whether the agent is the bundled fake (each run's ``done`` says so).
        binary = os.path.realpath(options.binary) if options.binary is not None else None
        self.fake = binary == os.path.realpath(fake_agent.executable())
        self.agent: LiveAgent | None = None
        self.sessions: dict[str, LiveSession] = {}
        self.asking: dict[str, LiveRun] = {}

    @contextlib.asynccontextmanager
    async def lifespan(self, app: object) -> AsyncIterator[None]:
        """The agent, for the server's life; ended (its process group too) at shutdown."""
        async with LiveAgent(
            self.options, permission=self.permission, decision_timeout=DECISION_WAIT
        ) as agent:
            self.agent = agent
            print(f"[sse_server: live agent started, pid {agent.pid}]", file=sys.stderr)
            try:
                yield
            finally:
                self.agent = None
                for run in list(self.asking.values()):
                    run.reject_all("the server is stopping")

    def new_run(self, prompt: str, session_id: str | None) -> LiveRun:
        """A run of ``prompt`` on the page's session (a new one if it has none yet)."""
        return LiveRun(self, prompt, session_id)

    async def session(self, session_id: str | None) -> LiveSession:
        """The session of that id, or a new one."""
        if session_id in self.sessions:
            return self.sessions[session_id]
        if self.agent is None:
            raise AgentUsageError(
                "the live agent is not running: live mode needs the ASGI lifespan (uvicorn runs it)"
            )
        session = await self.agent.new_session()
        self.sessions[session.session_id] = session
        return session

    async def permission(self, params: RequestPermissionParams) -> Decision:
        """The agent's permission callback: the person on the session's page decides.
        No page watching that session: reject, never run a tool unasked."""
        run = self.asking.get(params.session_id)
        return "reject" if run is None else await run.ask(params)

    async def answer_endpoint(self, request: Request) -> Response:
        """``POST /permission?run=ID&request=N&decision=D``: the person's answer.

        ``{"answered": true}``; 404 when that question is not waiting (answered already,
        or its turn ended); 400 for a decision other than those three."""
        query = request.query_params
        decision = query.get("decision", "")
        if decision not in DECISIONS:
            return JSONResponse({"answered": False, "error": "bad decision"}, status_code=400)
        run = next((r for r in self.asking.values() if r.id == query.get("run")), None)
        number = query.get("request", "")
        question = run.questions.get(int(number)) if run and number.isdigit() else None
        if question is None or not question.answer(cast(Decision, decision)):
            error = {"answered": False, "error": "no such question is waiting"}
            return JSONResponse(error, status_code=404)
        return JSONResponse({"answered": True})
