"""One approval callback for both modes (docs/extend.md, "One callback, both modes"): a bot
approves or refuses what the agent is about to do with the same function, whether the run
is a print-mode run (through the hooks ``before_tool`` and ``before_shell``) or a live
session (through the live agent's ``permission`` requests, docs/live.md "Approvals").

What each mode asks about differs, and is said in the docs: print mode asks before shell
commands, writes, deletes, MCP calls and any tool call the CLI names otherwise, never
before reads and searches; the live agent asks only what the CLI asks it (shell commands
off the allowlist, MCP tools, web fetches: edits were never gated, docs/acp.md §3.10).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal, TypeAlias

import msgspec

from .._wire.tool_labels import OWN_SERVER, mcp_label
from ._hook_payloads import ShellCommand, ToolUse
from ._hooks import Allow, Decision, Deny, Hooks, call_back, check_timeout
from ._mcp_answers import OWN_TOOLS

__all__ = ["Approval", "ApprovalCallback", "approval_hooks", "approval_permission"]

ApprovalKind = Literal["shell", "edit", "delete", "mcp", "fetch", "other"]


class Approval(msgspec.Struct, frozen=True, kw_only=True):
    """What the agent is about to do, asked of the program before it runs.

    Attributes:
        kind: ``"shell"`` (a command), ``"edit"`` (a file written), ``"delete"``,
            ``"mcp"`` (an MCP tool, yours included), ``"fetch"`` (a web fetch, live
            agent only) or ``"other"``.
        label: one line in a person's words: ``$ git push``, ``write src/app.py``;
            an MCP call's as its events say it (``ToolCall.label``): ``tool lookup_issue``
            for one of the run's own tools, ``mcp github create_issue`` for another
            server's (``mcp create_issue`` in print mode, whose ``preToolUse`` names no
            server).
        command: the shell command, for ``"shell"``.
        path: the file, for ``"edit"`` and ``"delete"`` (print mode; the live agent
            does not gate edits).
        arguments: the tool's arguments as the CLI sent them.
        mode: ``"print"`` or ``"live"``.
        raw: what the CLI sent: the hook's :class:`ToolUse`/:class:`ShellCommand`, or
            the live agent's ``RequestPermissionParams``.

    Example::

        def approve(request: Approval) -> Decision:
            if request.kind != "shell":
                return "allow"
            return "allow" if input(f"{request.label}? [y/N] ") == "y" else Deny("no")
    """

    kind: ApprovalKind
    label: str
    command: str | None = None
    path: str | None = None
    arguments: Any = None
    mode: Literal["print", "live"] = "print"
    raw: Any = None


ApprovalCallback: TypeAlias = Callable[[Approval], "Decision | Awaitable[Decision]"]
"""Sync (run in a daemon thread: it may block, e.g. on ``input()``) or async; gets an
:class:`Approval`, returns ``"allow"``, ``"deny"``, :class:`Deny` or :class:`Allow`."""

# The CLI's tool names (docs/protocol.md §6.3) that print-mode approval never asks about:
# they change nothing (and the live agent was never asked about them either).
_READS = frozenset({"Read", "Grep", "Glob", "LS", "Ls"})


async def _ask(approve: ApprovalCallback, request: Approval) -> Decision:
    result: Decision = await call_back(approve, request)
    return result


def _tool_request(call: ToolUse) -> Approval | None:
    """The approval a ``preToolUse`` call needs; ``None``: it runs without asking."""
    name, args = call.tool_name, call.tool_input
    path = args.get("file_path") if isinstance(args, dict) else None
    path = path if isinstance(path, str) else None
    if name in _READS or name == "Shell":  # a shell command is asked by before_shell
        return None
    if name == "Write":
        return Approval(kind="edit", label=f"write {path}", path=path, arguments=args, raw=call)
    if name == "Delete":
        return Approval(kind="delete", label=f"delete {path}", path=path, arguments=args, raw=call)
    if name.startswith("MCP:"):
        tool = name[4:]
        # preToolUse names no server: a tool of the run's own is known by its name (the
        # host's); beforeMCPExecution says the server (docs/protocol.md §6.3).
        server = call.raw.get("mcp_server_name")
        if not isinstance(server, str) or not server:
            server = OWN_SERVER if tool in OWN_TOOLS.get() else None
        label = mcp_label(server, tool)
        return Approval(kind="mcp", label=label, arguments=args, raw=call)
    return Approval(kind="other", label=f"use {name}", arguments=args, raw=call)


def approval_hooks(approve: ApprovalCallback, *, timeout: float = 300.0) -> Hooks:
    """The :class:`Hooks` of a print-mode run that asks ``approve`` before the agent runs
    a shell command, writes or deletes a file, calls an MCP tool or another tool (not
    before a read or a search). A shell command is asked once (``beforeShellExecution``).

    Args:
        approve: the callback (:data:`ApprovalCallback`).
        timeout: seconds it may take (a person answering; a positive number, finite);
            past it the call is denied.

    Raises:
        AgentConfigError: ``timeout`` is no positive, finite number of seconds.

    Example::

        run_sync("tidy up", options=AgentOptions(hooks=approval_hooks(approve)))
    """

    check_timeout("approval_hooks", timeout, example=300)

    async def before_tool(call: ToolUse) -> Decision:
        request = _tool_request(call)
        return "allow" if request is None else await _ask(approve, request)

    async def before_shell(call: ShellCommand) -> Decision:
        command = call.command
        request = Approval(kind="shell", label=f"$ {command}", command=command, raw=call)
        return await _ask(approve, request)

    return Hooks(before_tool=before_tool, before_shell=before_shell, timeout=timeout)


def _live_request(params: Any) -> Approval:
    """The approval a live ``session/request_permission`` asks (docs/acp.md §3.10-3.11):
    ``kind`` ``execute`` is a shell command (the title is the command, in backticks),
    ``fetch`` a web fetch; an MCP tool's title is ``<server>-<tool>: <tool>``."""
    call = params.tool_call
    title = (call.title or "").strip()
    raw_input = call.raw_input
    if call.kind == "execute":
        command = title.strip("`")
        if isinstance(raw_input, dict) and isinstance(raw_input.get("command"), str):
            command = raw_input["command"]
        return Approval(kind="shell", label=f"$ {command}", command=command, arguments=raw_input)
    if call.kind == "fetch":
        return Approval(kind="fetch", label=f"fetch {title}", arguments=raw_input)
    if call.kind in ("edit", "delete"):
        return Approval(kind=call.kind, label=f"{call.kind} {title}", arguments=raw_input)
    named, _, tool = title.partition(": ")
    if tool and named.endswith(f"-{tool}") and len(named) > len(tool) + 1:
        server = named[: -len(tool) - 1]  # `<server>-<tool>: <tool>`; a server may hold "-"
        return Approval(kind="mcp", label=mcp_label(server, tool), arguments=raw_input)
    return Approval(kind="other", label=title or "use a tool", arguments=raw_input)


def approval_permission(approve: ApprovalCallback) -> Callable[[Any], Awaitable[str]]:
    """The live agent's ``permission`` callback asking ``approve``
    (``LiveAgent(permission=approval_permission(approve))``): an allow is
    ``"allow_once"`` (never ``allow_always``, which would change the user's config), a
    deny ``"reject"`` (the live agent has no channel for a reason: :class:`Deny`'s is
    dropped). A callback that fails rejects, as the live agent's own callbacks do.
    """

    async def permission(params: Any) -> str:
        request = msgspec.structs.replace(_live_request(params), mode="live", raw=params)
        decision = await _ask(approve, request)
        allowed = decision == "allow" or type(decision) is Allow
        if not allowed and decision != "deny" and type(decision) is not Deny:
            raise TypeError(f"the approval callback returned {decision!r}, not a Decision")
        return "allow_once" if allowed else "reject"

    return permission
