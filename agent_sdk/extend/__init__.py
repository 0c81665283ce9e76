"""Extend the agent from Python: tools that run in your process (docs/extend.md).

Define a tool with :func:`tool` (or :class:`Tool`): a plain function, sync or async, with
type hints and a docstring. Its JSON Schema comes from its signature, the arguments the
agent sends are checked against it, and what it returns (text, or anything msgspec can
encode) or raises (a tool error the agent sees) is sent back over MCP.

:class:`Hooks` holds callbacks that decide on the agent's tool calls in print mode (allow,
deny with a reason, run with other arguments) and observe what it did; a callback that fails
denies (docs/extend.md, "Hooks that decide").

Today the tools are served by an MCP server that is proven against the official MCP
client, and the hooks' answers are built; passing them to a run, a session, a fleet or a
live agent is still to come (docs/extend.md, "Not wired yet").
"""

from ._hook_payloads import (
    Edit,
    FileEdited,
    HookPayload,
    SessionEnded,
    SessionStarted,
    ShellCommand,
    ToolUse,
    ToolUsed,
)
from ._hooks import Allow, Decision, Deny, Hooks
from ._tool import Tool, tool

__all__ = [
    "Allow",
    "Decision",
    "Deny",
    "Edit",
    "FileEdited",
    "HookPayload",
    "Hooks",
    "SessionEnded",
    "SessionStarted",
    "ShellCommand",
    "Tool",
    "ToolUse",
    "ToolUsed",
    "tool",
]
