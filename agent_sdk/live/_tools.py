"""The Python tools of a live agent's sessions (docs/extend.md, "The live agent"): a host
per session given tools, the relay's stdio entry for its ``mcpServers`` (docs/acp.md
§3.3), the permission titles of its tools (§3.11), which of a turn's tool calls were
them, and the hosts' end after the agent's process."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .._wire.tool_call_events import ToolCallCompleted, set_custom_tool
from ..extend._host import SERVER_NAME, ToolHost, open_host, relay_command
from ..extend._served import Claims
from ..extend._tool import Tool

__all__ = ["OwnTools", "SessionTools", "Tools", "acp_entry", "permission_title"]

Tools = Sequence[Tool[..., Any] | Callable[..., Any]]
"""What ``tools=`` takes: tools (``agent_sdk.extend.tool``)."""


def acp_entry(host: ToolHost) -> dict[str, Any]:
    """The stdio entry of ``mcpServers`` for the relay to ``host`` (docs/acp.md §3.3:
    ``{name, command, args, env: [{name, value}]}``): the token rides in it, over the
    pipe, never in a file nor argv."""
    command, *args = relay_command()
    env = [{"name": name, "value": value} for name, value in host.env().items()]
    return {"name": SERVER_NAME, "command": command, "args": args, "env": env}


def permission_title(tool: str) -> str:
    """The title of an ACP permission request for our ``tool`` (docs/acp.md §3.11:
    ``<server>-<tool>: <tool>``)."""
    return f"{SERVER_NAME}-{tool}: {tool}"


class OwnTools:
    """The tools the user gave one session, as its turns meet them.

    A permission request titled ``agent_sdk-<tool>: <tool>`` (§3.11) for one of them is
    allowed without asking (:meth:`allows`), and its call id is remembered: that call's
    completion is given the host's first record of that tool not given yet
    (:meth:`mark`). The updates name neither the server nor the arguments of an MCP call
    (§3.10), so a call the agent asked no permission for is not known as ours.
    """

    def __init__(self, host: ToolHost) -> None:
        self._tools = {permission_title(name): name for name in host.names}
        self._claims = Claims(host.calls)
        self._asked: dict[str, str] = {}  # call id -> tool, from the permission requests

    def allows(self, call_id: str, title: str | None) -> bool:
        """Whether the permission request of ``call_id`` titled ``title`` is for one of
        the tools (and so allowed: the user handed it to the agent)."""
        tool = self._tools.get(title or "")
        if tool is None:
            return False
        self._asked[call_id] = tool
        return True

    def mark(self, events: Iterable[object]) -> None:
        """Give each completion of ``events`` that was one of the tools its record."""
        for event in events:
            if type(event) is ToolCallCompleted and event.call_id in self._asked:
                found = self._claims.claim_first(self._asked.pop(event.call_id))
                if found is not None:
                    set_custom_tool(event, found)


class SessionTools:
    """The hosts of an agent's sessions; :meth:`aclose` ends them all. They share the
    agent's ``token``, which its redaction masks (one agent process reaches them all)."""

    def __init__(self, redact: Callable[[str], str], token: str) -> None:
        self._redact = redact
        self.token = token
        """The hosts' token: in the agent's environment too, which is how they know its
        relays (``extend/_peers.py``)."""
        self.hosts: list[ToolHost] = []

    def servers(
        self, mcp_servers: Sequence[Any], tools: Tools
    ) -> tuple[list[Any], OwnTools | None]:
        """The ``mcpServers`` to send: the caller's, and the entry of a new host of
        ``tools`` (served until :meth:`aclose`); the session's :class:`OwnTools`.

        Raises:
            AgentConfigError: two tools have one name, or a function cannot be a tool.
            AgentStartError: the socket could not be made.
        """
        if not tools:
            return list(mcp_servers), None
        host = ToolHost(tools, redact=self._redact, token=self.token)
        open_host(host)
        self.hosts.append(host)
        host.start()
        return [*mcp_servers, acp_entry(host)], OwnTools(host)

    async def aclose(self) -> None:
        """End every host (after the agent's process: their relays are its children)."""
        hosts, self.hosts = self.hosts, []
        for host in hosts:
            await host.aclose()
