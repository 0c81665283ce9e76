"""Subagents of a print-mode run (docs/protocol.md §3.4b): work the agent handed to a
child agent through its Task tool, as one ``taskToolCall``, and what the child answered.

Nothing from inside the child is streamed: the call's arguments say what it was asked,
its result what it answered. A child started in the background answers later, in a
:class:`~agent_sdk.events.TaskNotification`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from .tool_calls import ToolCall

__all__ = ["Subagent"]

_TASK_KIND = "taskToolCall"


class Subagent(msgspec.Struct, frozen=True, kw_only=True):
    """A subagent call: what it was asked and what it answered.

    Attributes:
        description: the task's short title.
        prompt: what the subagent was asked.
        name: the custom agent's name (``.cursor/agents/<name>.md``); ``None`` for the
            built-in general agent.
        model: the model asked for, if any (a custom agent naming an unknown model has
            been reported to run on the parent's).
        agent_id: the child's id: the result's when the call has finished (it can differ
            from the one asked for), else the arguments'.
        is_background: the child runs on in the background: the call ended at its launch,
            and its answer comes in a ``TaskNotification`` (``None`` while running).
        answer: the child's final text; ``None`` while the call runs, or when it did not
            succeed, or for a background child (see ``is_background``).
        duration_ms: the child's ``durationMs`` (a background child's covers its launch).
        call: the tool call it came from (its ``status`` says whether it succeeded).

    Example::

        for call in run_sync("Review the cart with a subagent").tool_calls:
            if call.subagent is not None:
                print(call.subagent.prompt, "->", call.subagent.answer)
    """

    description: str = ""
    prompt: str = ""
    name: str | None = None
    model: str | None = None
    agent_id: str | None = None
    is_background: bool | None = None
    answer: str | None = None
    duration_ms: int | None = None
    call: ToolCall | None = None

    @classmethod
    def of(cls, call: ToolCall) -> Subagent | None:
        """The subagent a ``taskToolCall`` ran; ``None`` for another call, or one whose
        arguments do not have the task's shape."""
        from .tools import TaskArgs, TaskSuccess  # on first use: import agent_sdk stays cheap

        args = call.args
        if call.kind != _TASK_KIND or not isinstance(args, TaskArgs):
            return None
        result = call.result
        done = result if isinstance(result, TaskSuccess) else None
        background = done.is_background if done is not None else None
        return cls(
            description=args.description,
            prompt=args.prompt,
            name=args.subagent_name,
            model=args.model or None,
            agent_id=(done.agent_id if done is not None else None) or args.agent_id or None,
            is_background=background,
            answer=None if done is None or background else done.text,
            duration_ms=done.duration_ms if done is not None else None,
            call=call,
        )
