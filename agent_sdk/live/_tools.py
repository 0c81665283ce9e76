"""The Python tools of a live agent's sessions (docs/extend.md, "The live agent"): a host
per session given tools, the relay's stdio entry for its ``mcpServers`` (docs/acp.md
§3.3), the permission titles of its tools (§3.11), and the hosts' end after the agent's
process."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..extend._host import ToolHost, acp_entry, open_host, permission_title
from ..extend._tool import Tool

__all__ = ["SessionTools", "Tools"]

Tools = Sequence[Tool[..., Any] | Callable[..., Any]]
"""What ``tools=`` takes: tools (``agent_sdk.extend.tool``)."""


class SessionTools:
    """The hosts of an agent's sessions; :meth:`aclose` ends them all. They share the
    agent's ``token``, which its redaction masks (one agent process reaches them all)."""

    def __init__(self, redact: Callable[[str], str], token: str) -> None:
        self._redact = redact
        self._token = token
        self.hosts: list[ToolHost] = []

    def servers(self, mcp_servers: Sequence[Any], tools: Tools) -> tuple[list[Any], frozenset[str]]:
        """The ``mcpServers`` to send: the caller's, and the entry of a new host of
        ``tools`` (served until :meth:`aclose`); the permission titles of those tools.

        Raises:
            AgentConfigError: two tools have one name, or a function cannot be a tool.
            AgentStartError: the socket could not be made.
        """
        if not tools:
            return list(mcp_servers), frozenset()
        host = ToolHost(tools, redact=self._redact, token=self._token)
        open_host(host)
        self.hosts.append(host)
        host.start()
        titles = frozenset(permission_title(name) for name in host.names)
        return [*mcp_servers, acp_entry(host)], titles

    async def aclose(self) -> None:
        """End every host (after the agent's process: their relays are its children)."""
        hosts, self.hosts = self.hosts, []
        for host in hosts:
            await host.aclose()
