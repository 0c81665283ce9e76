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
from types import TracebackType

import msgspec

from .._options.redaction import Redaction, redaction_of
from ..errors import AgentUsageError
from ..extend._host import TOKEN_ENV, new_token
from ..options import AgentOptions
from ._connection import DEFAULT_REQUEST_TIMEOUT, Connection, DiagnosticLog
from ._control import initialize, request
from ._dispatch import Router
from ._jsonrpc import Malformed
from ._messages import (
    ClientCapabilities,
    Implementation,
    InitializeParams,
    InitializeResult,
)
from ._opening import SessionOpening, check_live_options
from ._process import AcpProcess, acp_invocation
from ._seam import LiveTransport
from ._session import AskQuestionCallback, CreatePlanCallback, LiveSession, PermissionCallback
from ._subagents import TaskCallback
from ._tools import SessionTools
from ._updates import SessionUpdate

__all__ = ["AgentState", "LiveAgent"]

#: How long a callback may take to decide before the answer is reject (or cancelled).
DEFAULT_DECISION_TIMEOUT = 300.0


class AgentState(enum.Enum):
    """Where a :class:`LiveAgent` is in its life."""

    NEW = "new"
    RUNNING = "running"
    ENDED = "ended"


class LiveAgent(SessionOpening):
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
        check_live_options(self.options)
        self.decision_timeout = decision_timeout
        self.request_timeout = request_timeout
        self.turn_timeout = turn_timeout
        self.subagents = subagents
        self.state = AgentState.NEW
        self.initialize_result: InitializeResult | None = None
        self.cli_version: str | None = None
        """The CLI's whole version string (``"2026.10.01-e373342"``), read from the
        install it runs as it starts (``initialize`` says nothing of it, §3.1); ``None``
        when unknown: a binary outside the installer's layout, or a ``transport``
        (docs/protocol.md §1, "Finding the binary")."""
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
        # The sessions' tools' token (docs/extend.md), made now: the redaction masks it.
        token = new_token()
        self._redaction: Redaction = redaction_of(self.options, os.environ, also=(token,))
        self._log = DiagnosticLog(self._redaction)
        # Sessions being loaded, and the history replayed so far (§3.4).
        self._loading: dict[str, list[SessionUpdate]] = {}
        self._transport = transport
        self._process: LiveTransport | None = None
        self._conn: Connection | None = None
        self._stack = contextlib.AsyncExitStack()
        self._tools = SessionTools(self._redaction.text, token)  # sessions given tools

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
        from .._transport.discovery import locate_cli
        from .._version import __version__

        if self.state is not AgentState.NEW:
            raise AgentUsageError("a LiveAgent starts once: make a new one")
        await self._stack.__aenter__()
        try:
            if self._transport is not None:
                process = self._transport
            else:
                binary, self.cli_version = await locate_cli(self.options)
                invocation = acp_invocation(self.options, binary, os.environ)
                # The sessions' tools admit the relays of the agent whose environment
                # holds their token (docs/extend.md, "Who may connect").
                env = {**invocation.env, TOKEN_ENV: self._tools.token}
                invocation = msgspec.structs.replace(invocation, env=env)
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
