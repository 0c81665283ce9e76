"""Subagents of a print-mode run (docs/protocol.md §3.4b): work the agent handed to a
child agent through its Task tool, as one ``taskToolCall``, and what the child answered.

Nothing from inside the child is streamed: the call's arguments say what it was asked,
its result what it answered. A child started in the background answers later, in a
:class:`~agent_sdk.events.TaskNotification`. :class:`Subagent` is defined beside
:class:`~agent_sdk.ToolCall`, which it refers back to (``_wire/tool_call.py``).
"""

from __future__ import annotations

from ._wire.tool_call import Subagent

__all__ = ["Subagent"]
