"""MCP servers in ACP mode (docs/acp.md §3.3, §3.10, §3.11, §5.2 item 2).

``session/new`` and ``session/load`` connect to each stdio entry of ``mcpServers``
(``{name, command, args, env:[{name,value}]}``) during the call, as the real CLI does
(``initialize`` as ``Cursor/1.0.0`` with MCP ``2025-11-25``, then ``tools/list``); http and
sse entries are accepted and never contacted. The ``mcp_call`` step calls a tool as a
permission-gated ``other`` tool call titled ``<server>-<tool>: <tool>`` whose permission
request shows the arguments as a fenced JSON block.

``--plugin-dir`` plugins are not read under ACP: neither their hooks (reported not loaded,
docs/acp.md §3.14) nor their servers (unknown; ``session/new``'s ``mcpServers`` is ACP's
channel). A ``no-mcp`` build (``_build.py``) starts no server.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any, Protocol

from .._build import Quirk, build_of
from .._mcp_call import McpServers, result_text
from .._mcp_client import McpError
from .._mcp_config import ServerEntry, rule

Step = dict[str, Any]


def stdio_entries(servers: list[Any]) -> dict[str, ServerEntry]:
    """The stdio entries of ``mcpServers`` (already checked) by name; the first of a
    name wins."""
    found: dict[str, ServerEntry] = {}
    for entry in servers:
        if not isinstance(entry, dict) or "url" in entry:
            continue
        name = entry.get("name")
        if not isinstance(name, str) or name in found:
            continue
        env = entry.get("env", [])
        pairs = env if isinstance(env, list) else []
        entry_env = {
            str(pair["name"]): str(pair.get("value", ""))
            for pair in pairs
            if isinstance(pair, dict) and "name" in pair
        }
        config = {"command": entry.get("command"), "args": entry.get("args", []), "env": entry_env}
        found[name] = ServerEntry(name, config, "acp")
    return found


def connect(servers: list[Any], cwd: str, environ: Mapping[str, str]) -> McpServers:
    """Start and open every stdio server of a ``session/new`` / ``session/load`` now
    (none in a ``no-mcp`` build: every call then finds its server not configured)."""
    entries = {} if build_of(environ).has(Quirk.NO_MCP) else stdio_entries(servers)
    connected = McpServers(cwd, False, environ, entries)
    connected.open_all()
    return connected


def check_mcp_call(step: Step) -> str | None:
    """``server``, ``tool``: non-empty strings; ``args``: an object; ``toolCallId``: a string."""
    if not all(isinstance(step.get(key), str) and step[key] for key in ("server", "tool")):
        return "'mcp_call' needs a non-empty string 'server' and 'tool'"
    if not isinstance(step.get("args", {}), dict):
        return "'args' must be an object"
    if not isinstance(step.get("toolCallId", ""), str):
        return "'toolCallId' must be a string"
    return None


class McpTurn(Protocol):
    """What the step needs of the turn (``_turn.Turn``)."""

    force: bool

    def update(self, update: dict[str, Any], where: str | None = None) -> None:
        """Send one ``session/update``."""

    def ask_permission(self, tool_call: dict[str, Any], where: str | None) -> bool:
        """``session/request_permission``: whether the client allowed it."""


def _text(text: str) -> list[dict[str, Any]]:
    return [{"type": "content", "content": {"type": "text", "text": text}}]


def play_mcp_call(
    turn: McpTurn, step: Step, servers: McpServers | None, where: str | None = None
) -> None:
    """One MCP tool call of the turn (scenarios/acp/README.md, ``mcp_call``)."""
    server, tool = str(step["server"]), str(step["tool"])
    arguments = dict(step.get("args", {}))
    call_id = str(step.get("toolCallId") or f"call-{uuid.uuid4()}-0\nfc_{uuid.uuid4()}_0")
    title = f"{server}-{tool}: {tool}"
    turn.update(
        {
            "sessionUpdate": "tool_call",
            "toolCallId": call_id,
            "title": title,
            "kind": "other",
            "status": "pending",
            "rawInput": {},
        },
        where,
    )
    turn.update(
        {"sessionUpdate": "tool_call_update", "toolCallId": call_id, "status": "in_progress"}, where
    )
    done: dict[str, Any] = {
        "sessionUpdate": "tool_call_update",
        "toolCallId": call_id,
        "status": "completed",
    }
    try:
        if servers is None:
            raise McpError(f'MCP server "{server}" is not configured')
        connection = servers.connection(server)
        if not connection.has_tool(tool):
            raise McpError(f'MCP tool "{tool}" not found on server "{server}"')
    except McpError as exc:
        turn.update({**done, "rawOutput": {"error": str(exc)}}, where)
        return
    found = rule(server, tool, servers.environ)
    if found == "deny":
        allowed = False
    elif turn.force or found == "allow":
        allowed = True
    else:
        fenced = "```json\n" + json.dumps(arguments, indent=2, ensure_ascii=False) + "\n```"
        request = {"toolCallId": call_id, "title": title, "kind": "other", "content": _text(fenced)}
        allowed = turn.ask_permission(request, where)
    if not allowed:
        turn.update({**done, "rawOutput": {"rejected": True}}, where)
        return
    outcome = servers.call(server, tool, arguments)
    if "error" in outcome:
        turn.update({**done, "rawOutput": {"error": outcome["error"]["message"]}}, where)
    else:
        turn.update({**done, "content": _text(result_text(outcome))}, where)
