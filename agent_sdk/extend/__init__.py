"""Extend the agent from Python: tools that run in your process (docs/extend.md).

Define a tool with :func:`tool` (or :class:`Tool`): a plain function, sync or async, with
type hints and a docstring. Its JSON Schema comes from its signature, the arguments the
agent sends are checked against it, and what it returns (text, or anything msgspec can
encode) or raises (a tool error the agent sees) is sent back over MCP.

Give them to a run (``AgentOptions(tools=[...])``: ``run``, ``run_sync``, ``Session``, a
fleet's tasks) or to a live session (``LiveAgent.new_session(tools=[...])``): they run in
your process while the agent calls them; a run's ``ToolCall.custom_tool`` says which of
its calls were yours (:class:`CustomToolCall`).
"""

from ._served import CustomToolCall
from ._tool import Tool, tool

__all__ = ["CustomToolCall", "Tool", "tool"]
