"""What a tool call is, in a person's words (docs/protocol.md §3.4): its one-line label
(``read src/cart.py``, ``$ pytest -q``), and whether it did what was asked (a command that
ran but exited non-zero did not, though the contract counts it a ``success``).

Below the public types: :class:`~agent_sdk.ToolCall` and the tool-call events use it, and
so do the command line and the web page.
"""

from __future__ import annotations

import re
import shlex

from ..tools import (
    CreatePlanArgs,
    DeleteArgs,
    EditArgs,
    FunctionArgs,
    GetMcpToolsArgs,
    GlobArgs,
    GrepArgs,
    LsArgs,
    McpArgs,
    ReadArgs,
    ShellArgs,
    ShellSuccess,
    TaskArgs,
    ToolArgs,
    ToolResult,
    UpdateTodosArgs,
    WriteArgs,
)

__all__ = [
    "MAX_LABEL",
    "OWN_SERVER",
    "command_failure",
    "did_what_was_asked",
    "exit_code",
    "mcp_label",
    "shorten",
    "tool_label",
]

# A label longer than this is cut: one tool call is one line on an ordinary terminal.
MAX_LABEL = 72

#: The MCP server of a run's own tools (``extend/_host.py``'s ``SERVER_NAME`` is this):
#: the CLI names a call of one ``agent_sdk-<tool>`` (docs/protocol.md §3.4).
OWN_SERVER = "agent_sdk"
_OWN_PREFIX = f"{OWN_SERVER}-"


def mcp_label(server: str | None, tool: str) -> str:
    """The label of an MCP call, the same wherever it is shown (a call's events, an
    :class:`~agent_sdk.extend.Approval`): ``tool lookup_issue`` for a tool of the run's
    own (docs/extend.md: the user's code), ``mcp github create_issue`` for another
    server's, ``mcp create_issue`` when the server is not said."""
    if server == OWN_SERVER:
        return f"tool {tool}"
    return f"mcp {server} {tool}" if server else f"mcp {tool}"


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
        server = args.provider_identifier
        if server is None and args.name.startswith(_OWN_PREFIX):  # a 2026.06 shape, ours
            return mcp_label(OWN_SERVER, args.tool_name or args.name[len(_OWN_PREFIX) :])
        return mcp_label(server, args.tool_name or args.name)
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


def command_failure(result: ToolResult | None) -> str:
    """How a shell command that ran went wrong: ``exit 1``, ``signal SIGKILL``; ``""``
    if it exited 0, or the result is no command's. The contract counts such a call a
    ``success`` (it ran: docs/protocol.md §3.4); its ``exitCode`` says how it went."""
    if not isinstance(result, ShellSuccess):
        return ""
    if result.exit_code:
        return f"exit {result.exit_code}"
    return f"signal {result.signal}" if result.signal else ""


def exit_code(result: ToolResult | None) -> int | None:
    """A command's exit code, from its result; ``None`` for a result that is no
    command's (or a command the CLI gave no code for)."""
    return result.exit_code if isinstance(result, ShellSuccess) else None


def did_what_was_asked(status: str | None, result: ToolResult | None) -> bool:
    """Whether a finished call did what was asked: it succeeded (docs/protocol.md §3.4),
    and, for a command, exited 0 with no signal. ``False`` while it runs (no status)."""
    return status == "succeeded" and not command_failure(result)
