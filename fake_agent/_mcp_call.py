"""The ``mcp_call`` directive: the agent calling a tool of an MCP server, for real
(docs/protocol.md §3.4, §7, §8.4).

``{"fake":"mcp_call","server":"agent_sdk","tool":"t","args":{...}}`` emits an
``mcpToolCall`` ``started`` event (args ``name`` ``<server>-<tool>``, ``args``, ``toolName``,
``providerIdentifier`` = the server's name: the real meaning of that key is unknown), then
decides, in this order:

1. a server of that name not configured (or in a project file without ``--approve-mcps``):
   an ``error`` outcome;
1b. the run's ``preToolUse`` hooks (tool name ``MCP:<tool>``, docs/protocol.md §6), then its
   ``beforeMCPExecution`` hooks (the bare name, the input as a JSON string, the server): a block
   is ``rejected`` with the hooks' reason; an ``updated_input`` replaces the arguments;
2. the permission rule (:func:`._mcp_config.permission`) refuses: ``rejected`` with an
   empty reason (the shape of a rejected MCP call is unseen; this is the shell's);
3. the server was started at the start of the run (:meth:`McpServers.open_all`, before
   the first event: print runs wait for their stdio servers, docs/protocol.md §7), with
   ``initialize``, ``notifications/initialized``, ``tools/list``; one that failed then:
   an ``error`` outcome with the message (it counts as failed for the whole run);
4. a tool the server did not list: an ``error`` outcome;
5. ``tools/call``: ``success`` ``{content: [{text: {text}}], isError}``; an error answer:
   an ``error`` outcome ``MCP error <code>: <message>``.

A call that ran fires ``postToolUse`` (its ``additional_context`` in
``hookAdditionalContexts``). The run goes on in every case. Servers end with the run
(:meth:`McpServers.end`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Protocol

from ._files import complete, hooked_input, tool_events
from ._hooks import Hooks
from ._mcp_client import McpConnection, McpError, answer_timeout, error_text
from ._mcp_config import ServerEntry, find_servers, permission


class McpServers:
    """The MCP servers of one run (or one ACP session): found once, all started at its
    start (:meth:`open_all`), or one at its first need (:meth:`connection`)."""

    def __init__(
        self,
        workspace: str,
        approve: bool,
        environ: Mapping[str, str],
        entries: dict[str, ServerEntry] | None = None,
    ) -> None:
        self.workspace = workspace
        self.environ = environ
        self.timeout = answer_timeout(environ)
        self._approve = approve
        self._entries = entries
        self._running: dict[str, McpConnection] = {}
        self._failed: dict[str, str] = {}

    @property
    def entries(self) -> dict[str, ServerEntry]:
        """The configured servers by name (the files are read at the first need)."""
        if self._entries is None:
            self._entries = find_servers(self.workspace, self._approve, self.environ)
        return self._entries

    def _spawn(self, name: str) -> McpConnection:
        """Start the server ``name`` (not yet spoken to); a failure is remembered."""
        entry = self.entries.get(name)
        if entry is None:
            raise McpError(f'MCP server "{name}" is not configured')
        try:
            if entry.command is None:
                raise McpError(f'MCP server "{name}" has no command (the fake runs stdio only)')
            env = entry.environment(self.environ)
            connection = McpConnection(name, [entry.command, *entry.args], env, self.workspace)
        except McpError as exc:
            self._failed[name] = str(exc)
            raise
        self._running[name] = connection
        return connection

    def _open(self, connection: McpConnection) -> None:
        """``initialize`` ... ``tools/list``; a failure ends the server and is remembered."""
        try:
            connection.open(self.timeout)
        except McpError as exc:
            self._failed[connection.name] = str(exc)
            self._end(connection.name)
            raise

    def connection(self, name: str) -> McpConnection:
        """The running server ``name``, started and opened at the first need.

        Raises:
            McpError: not configured, not startable, or it did not answer.
        """
        if name in self._failed:
            raise McpError(self._failed[name])
        running = self._running.get(name)
        if running is not None:
            return running
        connection = self._spawn(name)
        self._open(connection)
        return connection

    def open_all(self) -> None:
        """Start and open every configured server now (a print run's start, ACP's
        ``session/new``): all are started first, so that slow ones start side by side,
        then each is spoken to in turn. One that fails is remembered as failed (its calls
        get its error), the others go on."""
        started = []
        for name in self.entries:
            if name in self._running or name in self._failed:
                continue
            try:
                started.append(self._spawn(name))
            except McpError:
                continue
        for connection in started:
            try:
                self._open(connection)
            except McpError:
                continue

    def permitted(self, server: str, tool: str, force: bool) -> bool:
        return permission(server, tool, force, self.environ)

    def call(self, server: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Call a tool (the server started if needed): the ``success`` or ``error`` outcome."""
        try:
            connection = self.connection(server)
            if not connection.has_tool(tool):
                message = f'MCP tool "{tool}" not found on server "{server}"'
                return {"error": {"message": message}}
            answer = connection.call(tool, arguments, self.timeout)
        except McpError as exc:
            return {"error": {"message": str(exc)}}
        result = answer.get("result")
        if not isinstance(result, dict):
            return {"error": {"message": error_text(answer)}}
        success = {"content": wire_content(result), "isError": bool(result.get("isError"))}
        return {"success": success}

    def _end(self, name: str) -> None:
        connection = self._running.pop(name, None)
        if connection is not None:
            connection.end()

    def end(self) -> None:
        """End every server this run started."""
        for name in list(self._running):
            self._end(name)


def wire_content(result: dict[str, Any]) -> list[dict[str, Any]]:
    """An MCP result's text blocks as the stream shows them: ``[{text: {text}}]`` (§3.4;
    other block kinds are left out: how the CLI shows them is unseen)."""
    content = result.get("content")
    blocks = content if isinstance(content, list) else []
    texts = [block.get("text") for block in blocks if isinstance(block, dict)]
    kinds = [block.get("type") for block in blocks if isinstance(block, dict)]
    return [
        {"text": {"text": text}}
        for text, kind in zip(texts, kinds, strict=True)
        if kind == "text" and isinstance(text, str)
    ]


def result_text(outcome: dict[str, Any]) -> str:
    """The text of a ``success`` outcome's blocks, joined (ACP's completed content)."""
    blocks = outcome.get("success", {}).get("content", [])
    return "".join(block["text"]["text"] for block in blocks)


class McpContext(Protocol):
    """What ``mcp_call`` acts on (a subset of the run's context)."""

    workspace: str
    force: bool
    mcp: McpServers
    hooks: Hooks

    def emit(self, event: dict[str, Any]) -> None:
        """Send a wire event through the run (patched, then rendered)."""


def check_mcp_call(spec: dict[str, Any]) -> str | None:
    """``server`` and ``tool`` are not empty."""
    if not spec["server"] or not spec["tool"]:
        return "directive 'mcp_call' needs a non-empty 'server' and 'tool'"
    return None


def run_mcp_call(spec: dict[str, Any], ctx: McpContext) -> None:
    """Play one MCP tool call (see the module's docstring)."""
    server, tool = spec["server"], spec["tool"]
    arguments = dict(spec.get("args", {}))
    args = {"name": f"{server}-{tool}", "args": arguments, "toolName": tool}
    args["providerIdentifier"] = server
    started, completed = tool_events("mcpToolCall", args, spec, id_in_args=False)
    ctx.emit(started)
    contexts: list[str] = []
    if server not in ctx.mcp.entries:
        outcome: dict[str, Any] = {"error": {"message": f'MCP server "{server}" is not configured'}}
        complete(ctx, started, completed, outcome)
        return
    # What a hook sees of an MCP call is unseen; the docs' matcher is MCP:<tool> (§6.1).
    verdict = ctx.hooks.pre_tool(f"MCP:{tool}", arguments, started["call_id"])
    tool_input = hooked_input(verdict, arguments)
    if verdict.reason is None:  # then beforeMCPExecution, which names the server (§6.3)
        command = ctx.mcp.entries[server].command or ""
        verdict = ctx.hooks.before_mcp(server, tool, tool_input, command)
        tool_input = hooked_input(verdict, tool_input)
    if verdict.reason is not None:
        outcome = {"rejected": {"reason": verdict.reason}}
    elif not ctx.mcp.permitted(server, tool, ctx.force):
        outcome = {"rejected": {"reason": ""}}
    else:
        began = time.monotonic()
        outcome = ctx.mcp.call(server, tool, tool_input)
        if "success" in outcome:
            duration = (time.monotonic() - began) * 1000
            output = outcome["success"]
            hooks = ctx.hooks
            contexts = hooks.post_tool(
                f"MCP:{tool}", tool_input, output, started["call_id"], duration
            )
    complete(ctx, started, completed, outcome, contexts)
