"""``LiveAgent``: one long-lived ``cursor-agent acp`` process and its sessions (docs/acp.md §2).

::

    async with LiveAgent(AgentOptions(cwd="/repo"), permission=decide) as agent:
        session = await agent.new_session()
        async for event in session.run("Run the tests"):
            ...  # agent_sdk events (docs/live.md "Events")

Agent→client requests are answered in Python (``_dispatch``): ``session/request_permission``
by the ``permission`` callback (default: reject once; allow-always is never chosen
implicitly, it edits the user's global config, §3.11), ``cursor/ask_question`` and
``cursor/create_plan`` by optional callbacks (defaults: ``skipped``, and ``-32601``, which
the contract saw leave the turn unchanged, §4); ``cursor/task`` with ``{}`` (§4).
"""

from __future__ import annotations

import contextlib
import enum
import os
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import msgspec

from .._protocol.redaction import Redaction, redaction_of
from ..errors import AgentConfigError, AgentUsageError
from ..options import AgentOptions
from ._connection import DEFAULT_REQUEST_TIMEOUT, Connection, DiagnosticLog
from ._control import initialize, request, result_of
from ._dispatch import Router
from ._jsonrpc import METHOD_NOT_FOUND, JsonRpcError, Malformed
from ._messages import (
    ClientCapabilities,
    Implementation,
    InitializeParams,
    InitializeResult,
    ListSessionsResult,
    LoadSessionParams,
    LoadSessionResult,
    NewSessionParams,
    NewSessionResult,
    SessionListing,
)
from ._process import AcpProcess, acp_invocation
from ._seam import LiveTransport
from ._session import AskQuestionCallback, CreatePlanCallback, LiveSession, PermissionCallback
from ._subagents import TaskCallback
from ._tools import SessionTools, Tools
from ._updates import SessionUpdate

__all__ = ["AgentState", "LiveAgent"]

#: How long a callback may take to decide before the answer is reject (or cancelled).
DEFAULT_DECISION_TIMEOUT = 300.0


class AgentState(enum.Enum):
    """Where a :class:`LiveAgent` is in its life."""

    NEW = "new"
    RUNNING = "running"
    ENDED = "ended"


def _check_live_options(options: AgentOptions) -> None:
    """What print-mode options a live agent cannot honour, refused rather than ignored.

    Raises:
        AgentConfigError: hooks (no hook fired under ACP, docs/acp.md §5.2), or a token
            budget (the live agent reports no token usage, docs/acp.md §3.9).
    """
    if options.hooks is not None:
        raise AgentConfigError(
            "AgentOptions(hooks=...) is for print-mode runs: the live agent runs no hooks",
            hint="decide on its tool calls with LiveAgent(permission=...); one callback "
            "for both modes: agent_sdk.extend.approval_permission",
        )
    budget = options.budget
    if budget is not None and budget.tokens is not None:
        raise AgentConfigError(
            "a live session cannot keep a token budget: the live agent reports no "
            "token usage (docs/acp.md §3.9)",
            hint="drop Budget(tokens=...); limit its turns and tool calls instead",
        )


class LiveAgent:
    """``cursor-agent acp``, started on entering and ended on leaving (an async context
    manager); sessions come from :meth:`new_session`.

    Args:
        options: the binary (else discovery: ``CURSOR_AGENT_BIN``, PATH...), ``cwd``, ``env``,
            credentials and the global options ``force``, ``model``, ``workspace``,
            ``endpoint``, ``add_dirs``, ``extra_args``; ``budget``, the limits of each
            session (its prompts together; no ``tokens``: docs/budgets.md); print-mode
            options are ignored.
        permission: decides ``session/request_permission`` (sync or async); returns
            ``"allow_once"``, ``"allow_always"`` or ``"reject"``. Default: reject once.
        ask_question: answers ``cursor/ask_question``; default: ``skipped`` (§4).
        create_plan: answers ``cursor/create_plan``; default ``-32601`` (§4).
        subagents: ask for subagent sessions (§3.13): turns then show their subagents
            (``SubagentEvent``, ``LiveResult.subagents``) and wait for background ones.
        task: told of each completed Task call (``cursor/task``, §4); the answer is ``{}``.
        decision_timeout: seconds a callback may take; then the answer is reject
            (permissions) or ``cancelled`` (extensions).
        request_timeout: seconds every control request waits for its answer (§1).
        turn_timeout: seconds a whole prompt may take (``None``: no limit).
        transport: what to talk to instead of starting the CLI (tests:
            ``agent_sdk.testing.MemoryAcpTransport``).

    Raises:
        AgentConfigError: ``options.hooks`` is set: no hook runs under ACP; decide with
            ``permission`` (``agent_sdk.extend.approval_permission``).
    """

    def __init__(
        self,
        options: AgentOptions | None = None,
        *,
        permission: PermissionCallback | None = None,
        ask_question: AskQuestionCallback | None = None,
        create_plan: CreatePlanCallback | None = None,
        subagents: bool = False,
        task: TaskCallback | None = None,
        decision_timeout: float = DEFAULT_DECISION_TIMEOUT,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
        turn_timeout: float | None = None,
        transport: LiveTransport | None = None,
    ) -> None:
        self.options = options if options is not None else AgentOptions()
        _check_live_options(self.options)
        self.decision_timeout = decision_timeout
        self.request_timeout = request_timeout
        self.turn_timeout = turn_timeout
        self.subagents = subagents
        self.state = AgentState.NEW
        self.initialize_result: InitializeResult | None = None
        self.callback_errors: list[BaseException] = []
        """How the callbacks failed, as they raised it (an exception, or a cancellation
        that was not ours); each request was given the safe answer. Never sent to the
        agent."""
        self._router = Router(
            self,
            permission=permission,
            ask_question=ask_question,
            create_plan=create_plan,
            task=task,
        )
        self._redaction: Redaction = redaction_of(self.options, os.environ)
        self._log = DiagnosticLog(self._redaction)
        # Sessions being loaded, and the history replayed so far (§3.4).
        self._loading: dict[str, list[SessionUpdate]] = {}
        self._transport = transport
        self._process: LiveTransport | None = None
        self._conn: Connection | None = None
        self._stack = contextlib.AsyncExitStack()
        self._tools = SessionTools(self._redaction.text)  # hosts of sessions given tools

    def __repr__(self) -> str:
        return f"<LiveAgent {self.state.value} pid={self.pid} sessions={len(self.sessions)}>"

    @property
    def _connection(self) -> Connection:
        if self._conn is None:
            raise AgentUsageError("use the LiveAgent in `async with` first")
        return self._conn

    @property
    def pid(self) -> int | None:
        """The agent's process (group) id while it runs."""
        return self._process.pid if self._process else None

    @property
    def sessions(self) -> list[LiveSession]:
        """The sessions opened (or loaded) on this agent."""
        return list(self._router.sessions.values())

    @property
    def diagnostics(self) -> list[Malformed]:
        """What the agent sent that was dropped, and why: lines that were no JSON-RPC
        message (§1) or could not be decoded, answers to no waiting request, callbacks'
        failures to answer; the last 100, redacted, each cut at 64 KiB."""
        return self._log.items

    def stderr_tail(self) -> str:
        """The last part of the agent's stderr (secrets redacted)."""
        return self._redaction.text(self._process.stderr_tail()) if self._process else ""

    async def __aenter__(self) -> LiveAgent:
        from .. import __version__
        from .._transport.discovery import locate_binary

        if self.state is not AgentState.NEW:
            raise AgentUsageError("a LiveAgent starts once: make a new one")
        await self._stack.__aenter__()
        try:
            if self._transport is not None:
                process = self._transport
            else:
                binary = await locate_binary(self.options)
                invocation = acp_invocation(self.options, binary, os.environ)
                process = await AcpProcess.start(invocation, self.options)
            self._process = process
            self.state = AgentState.RUNNING
            # Ended however the stack unwinds: a failed start or leaving the block.
            self._stack.callback(setattr, self, "state", AgentState.ENDED)
            # The tools' hosts after the process (LIFO): their relays are its children.
            self._stack.push_async_callback(self._tools.aclose)
            self._stack.push_async_callback(process.aclose)
            conn = Connection(
                process.stdin,
                process.stdout,
                on_notification=self._router.on_notification,
                on_request=self._router.on_request,
                request_timeout=self.request_timeout,
                log=self._log,  # kept after closing
            )
            self._conn = await self._stack.enter_async_context(conn)
            conn.start_soon(process.serve)
            meta = {"subagents": True} if self.subagents else msgspec.UNSET  # (§3.1)
            caps = ClientCapabilities(meta=meta)
            info = Implementation(name="agent_sdk", version=__version__)
            params = InitializeParams(client_capabilities=caps, client_info=info)
            self.initialize_result = await initialize(self, params)
        except BaseException:
            # Not under a new cancel scope: the stack holds a task group opened before it.
            # Each step shields what must finish (the connection's close, the process's).
            await self._stack.aclose()
            self._conn = None
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close stdin, give the agent a grace to exit, then end its process group (§2 step 7)."""
        try:
            await self._stack.__aexit__(exc_type, exc, tb)
        finally:
            self._conn = None

    # --- sessions -------------------------------------------------------------------------
    async def authenticate(self) -> None:
        """``authenticate {methodId: "cursor_login"}`` (§3.2): checks the *stored* login.
        Not needed with a stored login or an API key; the agent is started with
        ``NO_OPEN_BROWSER=1``, so a missing login fails instead of opening a browser.

        Raises:
            JsonRpcError: the login failed (``-32602``).
        """
        await request(self, "authenticate", {"methodId": "cursor_login"})

    async def new_session(
        self,
        cwd: str | os.PathLike[str] | None = None,
        mcp_servers: Sequence[Any] = (),
        *,
        tools: Tools = (),
    ) -> LiveSession:
        """A new session (``session/new``, §3.3) in ``cwd`` (made absolute; default
        ``options.cwd``, else the current directory). It is persisted, and loadable, only
        once it got a prompt (§3.3).

        Args:
            cwd: the session's directory.
            mcp_servers: ``mcpServers`` entries of your own, as ACP has them.
            tools: Python tools the agent may call (``agent_sdk.extend``): served from
                this process as the MCP server ``agent_sdk`` until the agent ends. Their
                permission requests are allowed without asking ``permission``: you handed
                them over (docs/extend.md, "The live agent").

        Raises:
            LiveAuthError: not logged in (``-32000``, an ``AgentAuthError``).
            JsonRpcError: another refusal (a bad MCP server entry: ``-32603``).
            AgentConfigError: two tools have one name, or a function cannot be a tool.
            AgentStartError: the tools' socket could not be made.

        Example::

            session = await agent.new_session(tools=[lookup_issue])
        """
        where = self._cwd(cwd)
        servers, titles = self._tools.servers(mcp_servers, tools)
        params = NewSessionParams(cwd=where, mcp_servers=servers)
        raw = await request(self, "session/new", params)
        result = result_of(self, raw, NewSessionResult, "session/new")
        session = LiveSession(self, result.session_id, where, self.options.budget)
        session._apply(result)
        self._router.add(session)
        self._router.own_tools[result.session_id] = titles
        return session

    async def load_session(
        self,
        session_id: str,
        cwd: str | os.PathLike[str] | None = None,
        mcp_servers: Sequence[Any] = (),
        *,
        tools: Tools = (),
    ) -> LiveSession:
        """An earlier session by its id (``session/load``, §3.4). Its history is replayed
        into :attr:`LiveSession.history`, never as a turn. Pass the cwd it was made in:
        another one silently rebinds it there (§3.4); by default the one
        :meth:`list_sessions` reports, else ``options.cwd``. ``mcp_servers`` and
        ``tools`` as for :meth:`new_session` (a loaded session has only the servers given
        to the load).

        Raises:
            JsonRpcError: no such session, or it never got a prompt (``-32602``).
            AgentConfigError: two tools have one name, or a function cannot be a tool.
            AgentStartError: the tools' socket could not be made.
        """
        if cwd is None:
            stored = [s.cwd for s in await self._listed() if s.session_id == session_id and s.cwd]
            cwd = stored[0] if stored else None
        where = self._cwd(cwd)
        known = self._router.sessions.get(session_id)
        session = (
            known
            if known is not None
            else LiveSession(self, session_id, where, self.options.budget)
        )
        self._router.sessions[session_id] = session
        servers, titles = self._tools.servers(mcp_servers, tools)
        replay: list[SessionUpdate] = []
        self._loading[session_id] = replay
        try:
            params = LoadSessionParams(session_id=session_id, cwd=where, mcp_servers=servers)
            raw = await request(self, "session/load", params, session_id=session_id)
        except BaseException:
            if known is None:  # a session open before stays as it was
                del self._router.sessions[session_id]
            raise
        finally:
            del self._loading[session_id]
        session.cwd, session.history = where, replay
        self._router.own_tools[session_id] = titles
        session._apply(result_of(self, raw, LoadSessionResult, "session/load"))
        return session

    async def list_sessions(
        self, cwd: str | os.PathLike[str] | None = None
    ) -> list[SessionListing]:
        """The stored sessions, newest first (``session/list``, §3.5), of ``cwd`` if given.
        Sessions that never got a prompt are not stored.

        Raises:
            JsonRpcError: this build has no ``session/list`` (before 2026.06, ``-32601``).
        """
        if not self._can_list():
            raise JsonRpcError(
                METHOD_NOT_FOUND,
                "session/list is not offered by this build (no sessionCapabilities.list)",
                method="session/list",
                hint="update the CLI; load a session by its id with load_session()",
            )
        params = {} if cwd is None else {"cwd": self._cwd(cwd)}
        raw = await request(self, "session/list", params)
        return result_of(self, raw, ListSessionsResult, "session/list").sessions

    async def _listed(self) -> list[SessionListing]:
        return await self.list_sessions() if self._can_list() else []

    def _can_list(self) -> bool:
        # Gate on the capability: 2026.03 builds answer -32601 (§3.5).
        caps = self.initialize_result.agent_capabilities if self.initialize_result else None
        return bool(caps and caps.session_capabilities and "list" in caps.session_capabilities)

    def _cwd(self, cwd: str | os.PathLike[str] | None) -> str:
        # Not in a worker thread (``anyio.Path``): ``absolute`` reads no file, at most the
        # process's cwd, and a thread's start and wake-up each wait for the GIL, which a
        # busy reader holds (a flood of updates delayed a request by half a second,
        # docs/live.md "Floods and slow readers").
        return str(Path(cwd if cwd is not None else self.options.cwd or ".").absolute())
