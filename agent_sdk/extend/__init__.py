"""Extend the agent from Python: tools that run in your process (docs/extend.md).

Define a tool with :func:`tool` (or :class:`Tool`): a plain function, sync or async, with
type hints and a docstring. Its JSON Schema comes from its signature, the arguments the
agent sends are checked against it, and what it returns (text, or anything msgspec can
encode) or raises (a tool error the agent sees) is sent back over MCP.

Give them to a run (``AgentOptions(tools=[...])``: ``run``, ``run_sync``, ``Session``, a
fleet's tasks) or to a live session (``LiveAgent.new_session(tools=[...])``): they run in
your process while the agent calls them; a run's ``ToolCall.custom_tool`` says which of
its calls were yours (:class:`CustomToolCall`).

:class:`Hooks` holds callbacks that decide on the agent's tool calls in print mode (allow,
deny with a reason, run with other arguments) and observe what it did; a callback that fails
denies (docs/extend.md, "Hooks that decide"); give them to a run as
``AgentOptions(hooks=...)``. :func:`approval_hooks` and :func:`approval_permission` make one
:class:`Approval` callback decide in print mode and in a live session alike.
"""

from ._approval import Approval, ApprovalCallback, approval_hooks, approval_permission
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
from ._served import CustomToolCall
from ._tool import Tool, tool

__all__ = [
    "Allow",
    "Approval",
    "ApprovalCallback",
    "CustomToolCall",
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
    "approval_hooks",
    "approval_permission",
    "tool",
]
