"""What a :class:`~agent_sdk.Run` knows, read-only: its result, events, session, process
and tool calls. The base of ``Run`` (``_run/run.py``), which holds these attributes and keeps
them up to date as it reads the CLI's output; split from it to keep each class small."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import AgentUsageError

if TYPE_CHECKING:
    from .._transport.base import Transport
    from .._wire.stream import Stream
    from ..changes import Changes, Checkpoint
    from ..events import Event, ResultEvent, ToolCallCompleted, ToolCallStarted
    from ..result import PlainResult
    from ..tool_calls import ToolCall
    from .checkpointed import Checkpointed

__all__ = ["RunAttributes"]


class RunAttributes:
    """The read-only side of a run (see :class:`~agent_sdk.Run`)."""

    _result: PlainResult | None
    _stream: Stream
    _transport: Transport | None
    _checkpointed: Checkpointed | None

    @property
    def result(self) -> PlainResult:
        """The :class:`RunResult`, once the iteration has ended without error.

        Raises:
            AgentUsageError: the run has not finished successfully (yet).
        """
        if self._result is None:
            raise AgentUsageError("the run has not finished: iterate it to the end first")
        return self._result

    @property
    def events(self) -> list[Event]:
        """Every event received so far, when the run keeps them (``keep_events``);
        a streamed run does not by default: it hands each event over as it arrives."""
        return self._stream.events

    @property
    def session_id(self) -> str | None:
        """The chat id: from the start when chosen up front (``AgentOptions(new_session_id=
        ...)``), else as soon as an event has carried it."""
        return self._stream.session_id

    @property
    def result_event(self) -> ResultEvent | None:
        """The ``result`` event, once received."""
        return self._stream.result_event

    @property
    def checkpoint(self) -> Checkpoint | None:
        """The checkpoint of a run given ``AgentOptions(checkpoint=True)``, once it
        started; finished (``after`` set) once the run is over, however it ended (a run
        left with ``break`` too): ``checkpoints.rewind`` it (docs/sessions.md)."""
        return self._checkpointed.checkpoint if self._checkpointed is not None else None

    @property
    def changes(self) -> Changes | None:
        """What a checkpointed run changed, once it is over (``None`` before, and for a
        run without a checkpoint)."""
        return self._checkpointed.changes if self._checkpointed is not None else None

    @property
    def pid(self) -> int | None:
        """The CLI's process id (also its process group id), once started."""
        return self._transport.pid if self._transport is not None else None

    @property
    def cli_version(self) -> str | None:
        """The CLI's whole version string once started (``"2026.10.01-e373342"``), from the
        install it runs; ``None`` when unknown (docs/protocol.md §1, "Finding the binary")."""
        # Optional on a transport: one that starts no CLI (a test's) knows no version.
        return getattr(self._transport, "cli_version", None)

    @property
    def rejoined_events(self) -> int:
        """How many events so far came split over several lines by raw newlines and were
        joined back (docs/protocol.md §3); 0 normally."""
        return self._stream.rejoined_events

    @property
    def tool_calls(self) -> list[ToolCall]:
        """The tool calls seen so far, ``started`` paired with ``completed``; when the run
        does not keep its events (``keep_events``), only those still running."""
        return self._stream.tool_calls.calls

    @property
    def hook_errors(self) -> list[BaseException]:
        """What the callbacks of ``AgentOptions(hooks=...)`` raised so far (each failed
        gate denied its call; docs/extend.md, "Hooks that decide"); never sent to the
        agent. Empty without hooks."""
        found = getattr(self._transport, "hook_errors", None)
        return list(found) if found is not None else []

    def tool_call(self, event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
        """The :class:`ToolCall` an event of this run belongs to, as known now: its
        ``started`` and ``completed`` events, whether or not the run keeps its events."""
        return self._stream.tool_calls.call_of(event)
