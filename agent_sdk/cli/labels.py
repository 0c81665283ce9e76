"""Short words for tool calls on screen: ``read src/cart.py``, ``$ pytest -q``, ``+3 -1``."""

from __future__ import annotations

import re
import shlex

from .._hooks import context_texts
from ..tool_calls import ToolCall
from ..tools import (
    CreatePlanArgs,
    DeleteArgs,
    EditArgs,
    EditSuccess,
    FunctionArgs,
    GetMcpToolsArgs,
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
    TaskArgs,
    TaskSuccess,
    ToolArgs,
    ToolFailure,
    ToolResult,
    UpdateTodosArgs,
    WriteArgs,
    WriteSuccess,
)

__all__ = [
    "call_notes",
    "command_failure",
    "failure_detail",
    "hook_block",
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


# The kinds the contract names without a type of their own (docs/protocol.md §3.4,
# "reported but unseen"), and the words and argument that say what such a call is about.
_UNTYPED: dict[str, tuple[str, tuple[str, ...]]] = {
    "webSearchToolCall": ("web search", ("searchTerm", "query", "search_term")),
    "webFetchToolCall": ("fetch", ("url", "uri")),
    "semSearchToolCall": ("search", ("query", "searchTerm", "targetDirectories")),
    "readLintsToolCall": ("lints", ("paths", "path")),
    "readTodosToolCall": ("todos", ()),
    "askQuestionToolCall": ("ask", ("question", "title", "questions")),
    "taskToolCall": ("subagent", ("description", "prompt")),
}
# Arguments that say nothing of what a call is about.
_NOT_ABOUT = frozenset({"toolCallId", "conversationId", "requestId"})
_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def _words(kind: str) -> str:
    """A kind's name as words: ``fooBarToolCall`` is ``foo bar``."""
    words = _WORD.findall(kind.removesuffix("ToolCall"))
    return " ".join(word.lower() for word in words) or "tool call"


def _about(args: object, keys: tuple[str, ...]) -> str:
    """What an untyped call is about: the first of ``keys`` it has (a list joined), else
    its first string argument; ``""`` if none."""
    if not isinstance(args, dict):
        return ""
    for key in keys:
        value = args.get(key)
        if isinstance(value, list):
            value = ", ".join(item for item in value if isinstance(item, str))
        if isinstance(value, str) and value:
            return value
    return next(
        (v for k, v in args.items() if isinstance(v, str) and v and k not in _NOT_ABOUT), ""
    )


def _typed_label(args: ToolArgs) -> str | None:
    """The label of a typed argument object; ``None`` for a dict (an untyped kind)."""
    if isinstance(args, ReadArgs):
        return f"read {args.path}"
    if isinstance(args, WriteArgs):
        return f"write {args.path}"
    if isinstance(args, EditArgs):
        return f"edit {args.path}"
    if isinstance(args, ShellArgs):
        return f"$ {args.command}"
    if isinstance(args, GrepArgs):
        return f"grep {shlex.quote(args.pattern)}" + (f" in {args.path}" if args.path else "")
    if isinstance(args, GlobArgs):
        return f"glob {args.glob_pattern}"
    if isinstance(args, LsArgs):
        return f"ls {args.path}"
    if isinstance(args, DeleteArgs):
        return f"delete {args.path}"
    if isinstance(args, UpdateTodosArgs):
        return f"todos ({len(args.todos)})"
    if isinstance(args, CreatePlanArgs):
        return f"plan {args.name}" if args.name else "plan"
    if isinstance(args, McpArgs):
        tool = args.tool_name or args.name
        return (
            f"mcp {args.provider_identifier} {tool}" if args.provider_identifier else f"mcp {tool}"
        )
    if isinstance(args, GetMcpToolsArgs):
        return " ".join(part for part in ("mcp tools", args.server, args.pattern) if part)
    if isinstance(args, FunctionArgs):
        return f"function {args.name}"
    if isinstance(args, TaskArgs):
        return _subagent_label(args)
    return None


def _subagent_label(args: TaskArgs) -> str:
    """``subagent (reviewer) Review the cart``: a subagent call (docs/protocol.md §3.4b),
    by its custom agent's name if any, and its title (else what it was asked)."""
    name = f" ({args.subagent_name})" if args.subagent_name else ""
    about = args.description or args.prompt
    return f"subagent{name} {about}" if about else f"subagent{name}"


def tool_label(kind: str, args: ToolArgs | None) -> str:
    """A short description of a tool call: ``read src/cart.py``, ``$ pytest -q``,
    ``web search python decimal``, ...

    Every kind gets words, never its wire name: a kind this module has no words for is
    named from its wire name (``fooBarToolCall``: ``foo bar``), followed by its first
    string argument, which is usually what it is about.
    """
    label = _typed_label(args) if args is not None else None
    if label is None:
        words, keys = _UNTYPED.get(kind, (_words(kind), ()))
        about = _about(args, keys)
        label = f"{words} {about}" if about else words
    return shorten(label)


# What an interaction query is about, for the ones with a better word than their name.
_INTERACTIONS = {
    "createPlanRequestQuery": "plan",
    "webSearchRequestQuery": "web search",
    "webFetchRequestQuery": "web fetch",
    "askQuestionInteractionQuery": "question",
}


def interaction_label(query_type: str) -> str:
    """What an ``interaction_query`` is about: ``plan``, ``shell``, ... (its query type
    without ``RequestQuery``, for one this module has no word for)."""
    known = _INTERACTIONS.get(query_type)
    if known is not None:
        return known
    name = query_type.removesuffix("Query").removesuffix("Request")
    return shorten(name or "interaction")


def call_notes(call: ToolCall) -> list[tuple[str, str]]:
    """What is worth saying of a call beyond its line, as ``(what, text)`` pairs: what a
    subagent was asked and answered (docs/protocol.md §3.4b), and each text hooks added
    to the agent's context about the call (§6.4). Texts are whole: cut them to show."""
    notes = []
    subagent = call.subagent
    if subagent is not None and subagent.prompt:
        notes.append(("asked", subagent.prompt))
    if subagent is not None and subagent.answer:
        notes.append(("answered", subagent.answer))
    elif subagent is not None and subagent.is_background:
        notes.append(("runs in the background", "its answer comes when it finishes"))
    notes += [("hook context", text) for text in context_texts(call.hook_additional_contexts)]
    return notes


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def result_detail(result: ToolResult | None) -> str:
    """What a successful outcome is worth a glance: lines read, exit code, ..."""
    if isinstance(result, ReadSuccess) and result.total_lines is not None:
        return plural(result.total_lines, "line")
    if isinstance(result, WriteSuccess) and result.lines_created is not None:
        return plural(result.lines_created, "line")
    if isinstance(result, EditSuccess) and result.lines_added is not None:
        return f"+{result.lines_added} -{result.lines_removed or 0}"
    if isinstance(result, ShellSuccess) and result.exit_code:
        return f"exit {result.exit_code}"
    if isinstance(result, GlobSuccess) and result.total_files is not None:
        return plural(result.total_files, "file")
    if isinstance(result, TaskSuccess) and result.is_background:
        return "in the background"
    return ""


def command_failure(result: ToolResult | None) -> str:
    """How a shell command that ran went wrong: ``exit 1``, ``signal SIGKILL``; ``""``
    if it exited 0, or the result is no command's. The contract counts such a call a
    ``success`` (it ran: docs/protocol.md §3.4); its ``exitCode`` says how it went."""
    if not isinstance(result, ShellSuccess):
        return ""
    if result.exit_code:
        return f"exit {result.exit_code}"
    return f"signal {result.signal}" if result.signal else ""


def hook_block(result: ToolResult | None) -> str:
    """``blocked by a hook: <the hook's words>`` for a call a hook blocked (``blocked by
    a hook`` when the CLI showed no words, docs/protocol.md §6.4); ``""`` otherwise."""
    if not isinstance(result, Rejection) or not result.by_hook:
        return ""
    words = result.hook_message
    return f"blocked by a hook: {words}" if words else "blocked by a hook"


def failure_detail(result: ToolResult | None) -> str:
    if isinstance(result, Rejection):
        return hook_block(result) or result.reason
    if isinstance(result, ToolFailure):
        return result.message
    if isinstance(result, dict):
        message = result.get("message")
        return message if isinstance(message, str) else ""
    return ""
