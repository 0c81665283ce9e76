"""The outcome of a finished run, as :func:`run_sync` and :func:`run_async` return it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

import msgspec

from ._wire.reprs import count, short, start
from .events import Event, ThinkingBlock, Usage
from .tool_calls import Plan, ToolCall

if TYPE_CHECKING:  # a run that asks for a checkpoint loads them (docs/sessions.md)
    from .changes import Changes, Checkpoint

__all__ = ["OutputT", "PlainResult", "RunResult"]

OutputT = TypeVar("OutputT")
"""The type of :attr:`RunResult.output`: the caller's ``output_type``, else ``None``."""


class RunResult(msgspec.Struct, Generic[OutputT], frozen=True, kw_only=True):
    """Everything a successful run produced.

    Attributes:
        result: the final text of the ``result`` event, as the CLI wrote it: its
            messages glued with nothing between (also :attr:`final_text`). With
            ``output_format="text"``, the whole output less its trailing newline.
        text: the reply to read: assembled as it streamed (each assistant event's
            ``new_text``), a blank line between two messages a tool call split
            (docs/protocol.md §3.3), whether or not the run kept its events; ``result``
            for ``json`` and ``text`` runs, which have no assistant events.
        session_id: the chat id; pass it as ``AgentOptions(resume=...)`` to continue.
        request_id: the id of the last request, when the CLI sends it.
        usage: token counts, when the CLI sends them (2026 versions).
        duration_ms: wall time of the run as the CLI measured it.
        duration_api_ms: time spent in API calls.
        thinking_blocks: the model's reasoning, from a json-format run given the CLI's
            hidden ``--show-thinking`` flag (``AgentOptions(output_format="json",
            extra_args=["--show-thinking"])``, docs/protocol.md §2); ``None`` when the
            CLI sent none.
        events: every event, in order. Kept by :func:`run_sync`, :func:`run_async` and
            ``Session.send``; empty for a streamed :func:`~agent_sdk.run` unless
            ``AgentOptions(keep_events=True)``, since its consumer had each event.
        tool_calls: the tool calls, ``started`` paired with ``completed``, in start order
            (from the kept events: empty when ``events`` is).
        plan: in plan mode (``AgentOptions(mode="plan")``), the plan the agent made: its
            markdown and todos, from its latest ``createPlanToolCall`` (kept whether or
            not the run kept its events); ``None`` if it made none. ``result`` then holds
            only the agent's narration.
        exit_code: the CLI's exit code (0; negative if it hung after its result and was
            ended by agent_sdk).
        stderr: the tail of what the CLI wrote to stderr.
        hook_errors: what the callbacks of ``AgentOptions(hooks=...)`` raised (or answered
            that was no answer), in order: each gate that failed denied its call
            (docs/extend.md, "Hooks that decide"). Never sent to the agent; empty
            without hooks.
        output: with ``output_type=``, the value of that type the reply ended with,
            validated (docs/output.md); ``None`` without one (a plan is in ``plan``).
            A ``RunResult[Review]`` is typed so for mypy.
        cli_version: the whole version string of the CLI that ran
            (``"2026.10.01-e373342"``: two builds share a date, and the CLI updates
            itself between runs), read from the install the binary lies in just before
            it started (docs/protocol.md §1, "Finding the binary"); ``None`` when
            unknown: a binary outside the installer's layout (a wrapper script, the fake
            agent run from its package), or a transport that starts no CLI.
        rejoined_events: how many events came split over several lines by raw newlines
            and were joined back (docs/protocol.md §3, an unverified report about
            ``result`` lines); 0 normally.
        checkpoint: with ``AgentOptions(checkpoint=True)``, the checkpoint of the tree
            taken before the run, finished after it: ``checkpoints.rewind(checkpoint)``
            undoes the run (docs/sessions.md, "Checkpointed runs"). ``None`` otherwise.
        changes: with ``checkpoint=True``, what the run changed in its tree (files
            added, modified, deleted and their diff); ``None`` otherwise, or when the
            snapshot after the run failed (logged; ``checkpoint.after`` is then unset).

    Example::

        result = run_sync("Summarise README.md")
        print(result.text, result.usage)
    """

    result: str
    text: str
    session_id: str | None = None
    request_id: str | None = None
    usage: Usage | None = None
    duration_ms: int | None = None
    duration_api_ms: int | None = None
    thinking_blocks: list[ThinkingBlock] | None = None
    events: list[Event] = msgspec.field(default_factory=list)
    tool_calls: list[ToolCall] = msgspec.field(default_factory=list)
    plan: Plan | None = None
    exit_code: int = 0
    stderr: str = ""
    hook_errors: list[BaseException] = msgspec.field(default_factory=list)
    output: OutputT
    cli_version: str | None = None
    rejoined_events: int = 0
    checkpoint: Checkpoint | None = None
    changes: Changes | None = None

    @property
    def final_text(self) -> str:
        """The CLI's final text: :attr:`result` under a name that reads well
        (``result.final_text`` rather than ``result.result``). The CLI joins the agent's
        messages with nothing between them; :attr:`text` is the same reply with the
        messages a tool call split kept apart (docs/output.md, "The reply")."""
        return self.result

    def __repr__(self) -> str:
        # Counts, not every event: a long run's repr would cost seconds (_wire/reprs.py).
        output = self.output
        return short(
            type(self).__name__,
            ("text", start(self.text)),  # what a person reads: the messages apart
            ("session_id", repr(self.session_id)),
            ("events", count(self.events)),
            ("tool_calls", count(self.tool_calls)),
            ("exit_code", repr(self.exit_code)),
            ("output", "None" if output is None else f"<{type(output).__name__}>"),
        )


PlainResult = RunResult[None]
"""The result of a run without ``output_type``: its ``output`` is ``None``."""
