"""Short words for tool calls on screen: ``read src/cart.py``, ``$ pytest -q``, ``+3 -1``."""

from __future__ import annotations

import shlex

from ..tools import (
    DeleteArgs,
    EditArgs,
    EditSuccess,
    FunctionArgs,
    GlobArgs,
    GlobSuccess,
    GrepArgs,
    LsArgs,
    McpArgs,
    ReadArgs,
    ReadSuccess,
    Rejection,
    ShellArgs,
    ShellSuccess,
    ToolArgs,
    ToolFailure,
    ToolResult,
    UpdateTodosArgs,
    WriteArgs,
    WriteSuccess,
)

__all__ = [
    "failure_detail",
    "interaction_label",
    "plural",
    "result_detail",
    "shorten",
    "tool_label",
]

# A label longer than this is cut: one tool call is one line on an ordinary terminal.
MAX_LABEL = 72


def shorten(text: str, limit: int = MAX_LABEL) -> str:
    lines = text.strip().splitlines() or [""]
    first = lines[0]
    if len(lines) > 1 or len(first) > limit:
        return first[: limit - 1] + "…"
    return first


def tool_label(kind: str, args: ToolArgs | None) -> str:
    """A short description of a tool call: ``read src/cart.py``, ``$ pytest -q``, ..."""
    label: str
    if isinstance(args, ReadArgs):
        label = f"read {args.path}"
    elif isinstance(args, WriteArgs):
        label = f"write {args.path}"
    elif isinstance(args, EditArgs):
        label = f"edit {args.path}"
    elif isinstance(args, ShellArgs):
        label = f"$ {args.command}"
    elif isinstance(args, GrepArgs):
        label = f"grep {shlex.quote(args.pattern)}" + (f" in {args.path}" if args.path else "")
    elif isinstance(args, GlobArgs):
        label = f"glob {args.globPattern}"
    elif isinstance(args, LsArgs):
        label = f"ls {args.path}"
    elif isinstance(args, DeleteArgs):
        label = f"delete {args.path}"
    elif isinstance(args, UpdateTodosArgs):
        label = f"todos ({len(args.todos)})"
    elif isinstance(args, McpArgs):
        tool = args.toolName or args.name
        label = (
            f"mcp {args.providerIdentifier} {tool}" if args.providerIdentifier else f"mcp {tool}"
        )
    elif isinstance(args, FunctionArgs):
        label = f"function {args.name}"
    else:
        # Unknown kind (or known kind without args): its name, plus a first string
        # argument when there is one, which is usually what it is about.
        label = kind.removesuffix("ToolCall") if args is None else kind
        if isinstance(args, dict):
            hint = next(
                (v for k, v in args.items() if isinstance(v, str) and k != "toolCallId"), None
            )
            if hint:
                label += f" {hint}"
    return shorten(label)


# What an interaction query is about, for the ones with a better word than their name.
_INTERACTIONS = {"createPlanRequestQuery": "plan"}


def interaction_label(query_type: str) -> str:
    """What an ``interaction_query`` is about: ``plan``, ``shell``, ... (its query type
    without ``RequestQuery``, for one this module has no word for)."""
    known = _INTERACTIONS.get(query_type)
    if known is not None:
        return known
    name = query_type.removesuffix("Query").removesuffix("Request")
    return shorten(name or "interaction")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def result_detail(result: ToolResult | None) -> str:
    """What a successful outcome is worth a glance: lines read, exit code, ..."""
    if isinstance(result, ReadSuccess) and result.totalLines is not None:
        return plural(result.totalLines, "line")
    if isinstance(result, WriteSuccess) and result.linesCreated is not None:
        return plural(result.linesCreated, "line")
    if isinstance(result, EditSuccess) and result.linesAdded is not None:
        return f"+{result.linesAdded} -{result.linesRemoved or 0}"
    if isinstance(result, ShellSuccess) and result.exitCode:
        return f"exit {result.exitCode}"
    if isinstance(result, GlobSuccess) and result.totalFiles is not None:
        return plural(result.totalFiles, "file")
    return ""


def failure_detail(result: ToolResult | None) -> str:
    if isinstance(result, Rejection):
        return result.reason
    if isinstance(result, ToolFailure):
        return result.message
    if isinstance(result, dict):
        message = result.get("message")
        return message if isinstance(message, str) else ""
    return ""
