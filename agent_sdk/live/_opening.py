"""Opening sessions on a :class:`~agent_sdk.live.LiveAgent`: ``session/new``,
``session/load`` and ``session/list`` (docs/acp.md §3.3-§3.5), with the tools a session is
given (``_tools.py``). A base of ``LiveAgent`` (``_agent.py``), which holds the attributes
these read; split from it to keep each class small.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from ..errors import AgentConfigError
from ..options import AgentOptions
from ._control import request, result_of
from ._dispatch import Router
from ._jsonrpc import METHOD_NOT_FOUND, JsonRpcError
from ._messages import (
    InitializeResult,
    ListSessionsResult,
    LoadSessionParams,
    LoadSessionResult,
    NewSessionParams,
    NewSessionResult,
    SessionListing,
)
from ._session import LiveSession, SessionAgent
from ._tools import SessionTools, Tools
from ._updates import SessionUpdate

__all__ = ["SessionOpening", "check_live_options"]


def check_live_options(options: AgentOptions) -> None:
    """What print-mode options a live agent cannot honour, refused rather than ignored.

    Raises:
        AgentConfigError: hooks (no hook fired under ACP, docs/acp.md §5.2), a token
            budget (the live agent reports no token usage, docs/acp.md §3.9), a
            ``new_session_id`` (a print-mode flag: ACP's ``session/new`` picks the id), or
            ``checkpoint`` (a live turn asks for its own).
    """
    if options.new_session_id is not None:
        raise AgentConfigError(
            "AgentOptions(new_session_id=...) is for print-mode runs: a live session's id "
            "is the one session/new gives (docs/sessions.md)",
            hint="drop new_session_id; read the id from agent.new_session()'s session, "
            "and reopen it later with agent.load_session(id)",
        )
    if options.checkpoint:
        raise AgentConfigError(
            "AgentOptions(checkpoint=True) is for print-mode runs: a live turn is "
            "checkpointed when it is asked for (docs/sessions.md)",
            hint="drop checkpoint; pass session.run(prompt, checkpoint=True) or "
            "session.send(prompt, checkpoint=True) for each turn to checkpoint",
        )
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


class SessionOpening:
    """The session-opening side of a :class:`~agent_sdk.live.LiveAgent`."""

    options: AgentOptions
    initialize_result: InitializeResult | None
    _router: Router
    _tools: SessionTools
    _loading: dict[str, list[SessionUpdate]]

    @property
    def _agent(self) -> SessionAgent:
        # Only ever a base of LiveAgent, which is a SessionAgent (and so a RequestAgent).
        return cast("SessionAgent", self)

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
        servers, own = self._tools.servers(mcp_servers, tools)
        params = NewSessionParams(cwd=where, mcp_servers=servers)
        raw = await request(self._agent, "session/new", params)
        result = result_of(self._agent, raw, NewSessionResult, "session/new")
        session = LiveSession(self._agent, result.session_id, where, self.options.budget)
        session._apply(result)
        session._own_tools = own
        self._router.add(session)
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
            else LiveSession(self._agent, session_id, where, self.options.budget)
        )
        self._router.sessions[session_id] = session
        servers, own = self._tools.servers(mcp_servers, tools)
        replay: list[SessionUpdate] = []
        self._loading[session_id] = replay
        try:
            params = LoadSessionParams(session_id=session_id, cwd=where, mcp_servers=servers)
            raw = await request(self._agent, "session/load", params, session_id=session_id)
        except BaseException:
            if known is None:  # a session open before stays as it was
                del self._router.sessions[session_id]
            raise
        finally:
            del self._loading[session_id]
        session.cwd, session.history = where, replay
        session._own_tools = own
        session._apply(result_of(self._agent, raw, LoadSessionResult, "session/load"))
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
        raw = await request(self._agent, "session/list", params)
        return result_of(self._agent, raw, ListSessionsResult, "session/list").sessions

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
