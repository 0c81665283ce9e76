"""``LiveAgent``: one long-lived ``cursor-agent acp`` process and its sessions (docs/acp.md §2).

::

    async with LiveAgent(AgentOptions(cwd="/repo"), permission=decide) as agent:
        session = await agent.new_session()
        async for update in session.prompt("Run the tests"):
            ...  # typed updates (``_messages``), then the ``PromptResult`` (stop reason)

Agent→client requests are answered in Python: ``session/request_permission`` by the
``permission`` callback (default: reject once; allow-always is never chosen implicitly,
it edits the user's global config, §3.11), ``cursor/ask_question`` and
``cursor/create_plan`` by optional callbacks (else ``-32601``, which is safe, §4).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar

import anyio
import msgspec

from ..errors import AgentProcessError, AgentProtocolError, AgentUsageError, ErrorContext
from ..options import AgentOptions, Invocation
from ._connection import DEFAULT_REQUEST_TIMEOUT, Connection
from ._jsonrpc import INVALID_PARAMS, METHOD_NOT_FOUND, JsonRpcError, Malformed, Notification
from ._jsonrpc import Request as RpcRequest
from ._messages import (
    Implementation,
    InitializeParams,
    InitializeResult,
    NewSessionParams,
    NewSessionResult,
    SessionNotification,
    SessionUpdate,
    decode_update,
)
from ._process import AcpProcess
from ._requests import (
    AskQuestionParams,
    AskQuestionResult,
    CancelledOutcome,
    CreatePlanParams,
    CreatePlanResult,
    RequestPermissionParams,
    RequestPermissionResult,
)
from ._session import (
    AskQuestionCallback,
    CreatePlanCallback,
    LiveSession,
    PermissionCallback,
    _call,
    _permission_outcome,
)

__all__ = ["LiveAgent", "acp_invocation"]

T = TypeVar("T")


#: How long a callback may take to decide before the answer is reject (or cancelled).
DEFAULT_DECISION_TIMEOUT = 300.0
MAX_EARLY_UPDATES = 16
_NOT_AWAITED = frozenset({"cursor/update_todos", "cursor/task", "cursor/generate_image"})


def acp_invocation(options: AgentOptions, binary: str, environ: Mapping[str, str]) -> Invocation:
    """The argv and environment of ``cursor-agent [global options] acp``. Pure.

    Global options go **before** ``acp`` (§1). ``NO_OPEN_BROWSER=1`` and a no-op
    ``BROWSER``: a login must never open a browser on the host (§1, §3.2).
    """
    from .._invocation import child_environment

    argv = [binary]
    if options.force:  # auto-approves instead of asking (§1)
        argv.append("--force")
    if options.model is not None:
        argv.append(f"--model={options.model}")
    if options.workspace is not None:
        argv.append(f"--workspace={os.fspath(options.workspace)}")
    if options.endpoint is not None:
        argv.append(f"--endpoint={options.endpoint}")
    argv += [f"--add-dir={os.fspath(d)}" for d in options.add_dirs]
    argv += [*options.extra_args, "acp"]
    env = child_environment(options, environ)
    env["BROWSER"] = "true"
    return Invocation(argv=argv, stdin=None, env=env)


class LiveAgent:
    """``cursor-agent acp``, started on entering and ended on leaving (an async context
    manager); sessions come from :meth:`new_session`.

    Args:
        options: the binary (else discovery: ``CURSOR_AGENT_BIN``, PATH...), ``cwd``, ``env``,
            credentials and the global options ``force``, ``model``, ``workspace``,
            ``endpoint``, ``add_dirs``, ``extra_args``; print-mode options are ignored.
        permission: decides ``session/request_permission`` (sync or async); returns
            ``"allow_once"``, ``"allow_always"`` or ``"reject"``. Default: reject once.
        ask_question: answers ``cursor/ask_question``; default ``-32601`` (§4).
        create_plan: answers ``cursor/create_plan``; default ``-32601`` (§4).
        decision_timeout: seconds a callback may take; then the answer is reject
            (permissions) or ``cancelled`` (extensions).
        request_timeout: seconds every control request waits for its answer (§1).
        turn_timeout: seconds a whole prompt may take (``None``: no limit).
    """

    def __init__(
        self,
        options: AgentOptions | None = None,
        *,
        permission: PermissionCallback | None = None,
        ask_question: AskQuestionCallback | None = None,
        create_plan: CreatePlanCallback | None = None,
        decision_timeout: float = DEFAULT_DECISION_TIMEOUT,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
        turn_timeout: float | None = None,
    ) -> None:
        self.options = options if options is not None else AgentOptions()
        self.permission = permission
        self.ask_question = ask_question
        self.create_plan = create_plan
        self.decision_timeout = decision_timeout
        self.request_timeout = request_timeout
        self.turn_timeout = turn_timeout
        self.initialize_result: InitializeResult | None = None
        self.callback_errors: list[Exception] = []
        """Exceptions raised by the callbacks (each answered as a rejection)."""
        self._sessions: dict[str, LiveSession] = {}
        self._early: dict[str, list[SessionUpdate]] = {}
        self._process: AcpProcess | None = None
        self._conn: Connection | None = None
        self._diagnostics: list[Malformed] = []
        self._stack = contextlib.AsyncExitStack()

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
    def diagnostics(self) -> list[Malformed]:
        """Lines from the agent that were no JSON-RPC message (dropped, §1)."""
        return self._diagnostics

    def stderr_tail(self) -> str:
        """The last part of the agent's stderr."""
        return self._process.stderr_tail() if self._process else ""

    async def __aenter__(self) -> LiveAgent:
        from .. import __version__
        from .._transport.discovery import locate_binary

        binary = await locate_binary(self.options)
        invocation = acp_invocation(self.options, binary, os.environ)
        await self._stack.__aenter__()
        try:
            self._process = process = await AcpProcess.start(invocation, self.options)
            self._stack.push_async_callback(process.aclose)
            conn = Connection(
                process.stdin,
                process.stdout,
                on_notification=self._on_notification,
                on_request=self._on_request,
                request_timeout=self.request_timeout,
            )
            self._diagnostics = conn.diagnostics  # kept after closing
            self._conn = await self._stack.enter_async_context(conn)
            conn.start_soon(process.drain_stderr)
            params = InitializeParams(
                client_info=Implementation(name="agent_sdk", version=__version__)
            )
            try:
                raw = await conn.request("initialize", params)
            except AgentProtocolError as exc:
                raise await self._exit_error(exc) from exc
            self.initialize_result = msgspec.json.decode(raw, type=InitializeResult)
        except BaseException:
            # Not under a new cancel scope: the stack holds a task group opened before it.
            # Each step shields what must finish (the connection's close, the process's).
            await self._stack.aclose()
            raise
        return self

    async def _exit_error(self, exc: Exception) -> Exception:
        """The agent ended before answering: a start failure (e.g. an unusable ``--model``
        exits 1 with a message on stderr, §1); its exit status and stderr say why."""
        assert self._process is not None
        with anyio.move_on_after(2.0):
            await self._process.process.wait()
        code = self._process.returncode
        stderr = self._process.stderr_tail()
        context = ErrorContext(exit_code=code, stderr=stderr)
        why = stderr.strip().splitlines()[-1] if stderr.strip() else str(exc)
        return AgentProcessError(
            f"cursor-agent acp ended at start (exit {code}): {why}", context=context
        )

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close stdin, give the agent a grace to exit, then end its process group (§2 step 7)."""
        await self._stack.__aexit__(exc_type, exc, tb)
        self._conn = None

    async def new_session(
        self, cwd: str | os.PathLike[str] | None = None, mcp_servers: Sequence[Any] = ()
    ) -> LiveSession:
        """A new session (``session/new``, §3.3) in ``cwd`` (absolute; default
        ``options.cwd``, else the current directory).

        Raises:
            JsonRpcError: the agent refused it (``-32000``: not logged in, §3.2).
        """
        where = str(
            await anyio.Path(cwd if cwd is not None else self.options.cwd or ".").absolute()
        )
        params = NewSessionParams(cwd=where, mcp_servers=list(mcp_servers))
        raw = await self._connection.request("session/new", params)
        session = LiveSession(self, msgspec.json.decode(raw, type=NewSessionResult))
        self._sessions[session.session_id] = session
        for update in self._early.pop(session.session_id, []):
            session._deliver(update)
        return session

    # --- from the agent ---------------------------------------------------------------
    def _on_notification(self, message: Notification) -> None:
        if message.method != "session/update" or message.params is None:
            return  # nothing else is recorded as a notification to the client (§3.9)
        try:
            note = msgspec.json.decode(message.params, type=SessionNotification)
        except msgspec.DecodeError as exc:
            self._diagnostics.append(Malformed(bytes(message.params), str(exc)))
            return
        update = decode_update(note.update)
        session = self._sessions.get(note.session_id)
        if session is not None:
            session._deliver(update)
        else:
            # The command list can overtake our reading of the session/new result (§2 step 3):
            # kept for the session about to exist, a few at most.
            early = self._early.setdefault(note.session_id, [])
            early.append(update)
            del early[:-MAX_EARLY_UPDATES]

    async def _on_request(self, request: RpcRequest) -> Any:
        method = request.method
        if method == "session/request_permission":
            params = _params(request, RequestPermissionParams)
            session = self._sessions.get(params.session_id)
            status, decision = ("failed", None)
            if session is not None:
                status, decision = await session._decide(self._permission, params)
            if status == "cancelled":  # answer pending requests `cancelled` (§3.7)
                return RequestPermissionResult(outcome=CancelledOutcome())
            # A timeout or a failing callback rejects: only an explicit allow runs a tool.
            outcome = _permission_outcome(decision if status == "ok" else "reject", params.options)
            return RequestPermissionResult(outcome=outcome)
        if method in ("cursor/ask_question", "cursor/create_plan"):
            ask = method == "cursor/ask_question"
            callback: Callable[[Any], Any] | None = self.ask_question if ask else self.create_plan
            if callback is None:
                raise JsonRpcError(
                    METHOD_NOT_FOUND, f'"Method not found": {method}', {"method": method}
                )
            typed = _params(request, AskQuestionParams if ask else CreatePlanParams)
            # The params carry no sessionId (§4): the session with a running turn owns it.
            busy = [s for s in self._sessions.values() if s._busy]
            if busy:
                status, answer = await busy[0]._decide(callback, typed)
            else:
                status, answer = "ok", await _call(callback, typed)
            if status != "ok":
                result_type = AskQuestionResult if ask else CreatePlanResult
                return result_type(outcome=CancelledOutcome())
            return answer
        if method in _NOT_AWAITED:
            return {}  # sent as requests but not awaited (§4): answer `{}`
        raise JsonRpcError(METHOD_NOT_FOUND, f'"Method not found": {method}', {"method": method})

    def _permission(self, params: RequestPermissionParams) -> Any:
        # Default policy: reject once; allow-always is never chosen implicitly (§3.11).
        return self.permission(params) if self.permission is not None else "reject"


def _params(request: RpcRequest, kind: type[T]) -> T:
    try:
        return msgspec.json.decode(request.params or b"{}", type=kind)
    except msgspec.DecodeError as exc:
        raise JsonRpcError(INVALID_PARAMS, "Invalid params", {"message": str(exc)}) from exc
