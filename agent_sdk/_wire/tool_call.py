"""One tool call of a run (:class:`ToolCall`: a ``started`` event paired with its
``completed``), and the subagent a ``taskToolCall`` ran (:class:`Subagent`, docs/protocol.md
§3.4b), which refers back to its call: both in one module, so neither imports the other.

Public from :mod:`agent_sdk.tool_calls` and :mod:`agent_sdk.subagents`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from ..events import ToolCallCompleted, ToolCallStarted
from .tool_call_events import custom_tool_of
from .tool_status import ToolCallStatus

if TYPE_CHECKING:
    from ..tools import ToolArgs, ToolResult

__all__ = ["CustomToolCall", "Subagent", "ToolCall"]


class CustomToolCall(msgspec.Struct, frozen=True):
    """One call of one of your own tools (``AgentOptions(tools=...)``), as your tool saw
    it: :attr:`agent_sdk.tool_calls.ToolCall.custom_tool` of the run's matching call.

    Attributes:
        tool: the tool's name.
        arguments: the arguments as the agent sent them (``None`` when it sent none).
        result: the text the agent got back: what the tool returned, or its error.
        is_error: whether it was an error (the tool raised, or the arguments did not fit).

    Example::

        for call in run_sync("Look up issue 26", options=options).tool_calls:
            if call.custom_tool is not None:
                print(call.custom_tool.tool, call.custom_tool.result)
    """

    tool: str
    arguments: Any
    result: str
    is_error: bool


class ToolCall(msgspec.Struct, frozen=True):
    """One tool call of a run: what the agent asked for and how it ended.

    Attributes:
        call_id: the opaque id pairing the two events (real ids contain a newline).
        started: the ``started`` event, if it was seen.
        completed: the ``completed`` event, or ``None`` while the call runs.

    Example::

        for call in run_sync("Fix the bug").tool_calls:
            print("✓" if call.ok else "✗", call.label, call.exit_code, call.duration_ms)
    """

    call_id: str
    started: ToolCallStarted | None = None
    completed: ToolCallCompleted | None = None

    @property
    def kind(self) -> str:
        """The wire kind: ``"readToolCall"``, ``"shellToolCall"``, ..., or an unknown one."""
        event = self.started or self.completed
        return event.kind if event is not None else ""

    @property
    def args(self) -> ToolArgs | None:
        """Typed arguments (from ``started``; from ``completed`` if ``started`` had none)."""
        if self.started is not None and self.started.args is not None:
            return self.started.args
        return self.completed.args if self.completed is not None else None

    @property
    def label(self) -> str:
        """The call in a few words: ``read src/cart.py``, ``$ pytest -q``
        (:attr:`ToolCallStarted.label`)."""
        from .tool_labels import tool_label  # with the payload types: only when asked

        return tool_label(self.kind, self.args)

    @property
    def exit_code(self) -> int | None:
        """A command's exit code; ``None`` for other calls and while it runs."""
        from .tool_labels import exit_code

        return exit_code(self.result)

    @property
    def ok(self) -> bool:
        """Whether the call did what was asked: it finished, succeeded and, for a
        command, exited 0 (:attr:`ToolCallCompleted.ok`). ``False`` while it runs."""
        from .tool_labels import did_what_was_asked

        return did_what_was_asked(self.status, self.result)

    @property
    def outcome(self) -> str | None:
        """``"success"``, ``"rejected"``, ``"error"``, another wire key, or ``None`` (running)."""
        return self.completed.outcome if self.completed is not None else None

    @property
    def status(self) -> ToolCallStatus | None:
        """What the outcome means: ``"succeeded"``, ``"blocked"``, ``"failed"`` or
        ``"other"`` (see :data:`ToolCallStatus`); ``None`` while the call runs."""
        return self.completed.status if self.completed is not None else None

    @property
    def description(self) -> str | None:
        """The agent's own words for the call, when the CLI sends them (shell calls)."""
        if self.started is not None and self.started.description is not None:
            return self.started.description
        return self.completed.description if self.completed is not None else None

    @property
    def result(self) -> ToolResult | None:
        """The typed payload of the outcome (see :attr:`ToolCallCompleted.result`)."""
        return self.completed.result if self.completed is not None else None

    @property
    def custom_tool(self) -> CustomToolCall | None:
        """When this call was one of your own tools (``AgentOptions(tools=...)``, a live
        session's ``tools=``), what your tool got and answered
        (:class:`~agent_sdk.extend.CustomToolCall`); ``None`` for the CLI's tools, other
        MCP servers' and while it runs; on the live agent, also for a call it asked no
        permission for (docs/extend.md, "Which calls were ours")."""
        if self.completed is None:
            return None
        found: CustomToolCall | None = custom_tool_of(self.completed)
        return found

    @property
    def subagent(self) -> Subagent | None:
        """For a subagent call (``taskToolCall``), what it was asked and what it
        answered (:class:`~agent_sdk.subagents.Subagent`); ``None`` for other calls."""
        return Subagent.of(self)

    @property
    def hook_additional_contexts(self) -> list[Any]:
        """What hooks added about this call (``hookAdditionalContexts``, docs/protocol.md
        §6.4): the ``completed`` event's, else the ``started`` event's."""
        for event in (self.completed, self.started):
            if event is not None and event.hook_additional_contexts:
                return event.hook_additional_contexts
        return []

    @property
    def is_finished(self) -> bool:
        return self.completed is not None

    @property
    def duration_ms(self) -> int | None:
        """Milliseconds from start to completion: the CLI's own ``startedAtMs`` and
        ``completedAtMs`` when present, else the events' ``timestamp_ms``."""
        if self.completed is None:
            return None
        if self.completed.duration_ms is not None:
            return self.completed.duration_ms
        end = self.completed.completed_at_ms
        start = self.completed.started_at_ms
        if start is None and self.started is not None:
            start = self.started.started_at_ms
        if start is None or end is None:
            end = self.completed.timestamp_ms
            start = self.started.timestamp_ms if self.started is not None else None
        return end - start if start is not None and end is not None else None


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
        from ..tools import TaskArgs, TaskSuccess  # on first use: import agent_sdk stays cheap

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
