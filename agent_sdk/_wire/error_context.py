"""What the CLI said and did before a failure (:class:`ErrorContext`), and the base of
every error agent_sdk raises, which carries it (:class:`AgentError`); both public in
``agent_sdk.errors``, which holds the rest of the errors."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from ..events import Event
from ..tool_calls import ToolCall, calls_of
from .reprs import count, short, start

if TYPE_CHECKING:  # a run that asks for a checkpoint loads them (docs/sessions.md)
    from ..changes import Changes, Checkpoint

__all__ = ["AgentError", "ErrorContext"]


class ErrorContext(msgspec.Struct, frozen=True, kw_only=True):
    """What the CLI said and did before a failure; every :class:`AgentError` has one.

    Attributes:
        session_id: the chat id the CLI reported, if any.
        exit_code: the CLI's exit code (negative: killed by that signal), or ``None``.
        stderr: the last part of what the CLI wrote to stderr (secrets redacted).
        stdout_lines: the lines of stdout that were not JSON events (secrets redacted).
        events: the events the run kept (see ``AgentOptions.keep_events``); an event
            that held a secret is a redacted copy.
        cli_version: the CLI's whole version string (``"2026.10.01-e373342"``), as for
            :attr:`RunResult.cli_version <agent_sdk.RunResult.cli_version>`; ``None``
            when unknown.
        rejoined_events: how many events came split over several lines by raw newlines
            and were joined back (docs/protocol.md §3); 0 normally.
        checkpoint: the checkpoint taken before the run, when it asked for one
            (``AgentOptions(checkpoint=True)``, docs/sessions.md): rewind the run's
            changes with it, failed as it is; ``None`` otherwise.
        changes: what the run changed in its tree, when it was checkpointed (``None``
            otherwise, or when the snapshot after the run failed).
    """

    session_id: str | None = None
    exit_code: int | None = None
    stderr: str = ""
    stdout_lines: list[str] = msgspec.field(default_factory=list)
    events: list[Event] = msgspec.field(default_factory=list)
    cli_version: str | None = None
    rejoined_events: int = 0
    checkpoint: Checkpoint | None = None
    changes: Changes | None = None

    def __repr__(self) -> str:
        # Counts, not every event: a long run's repr would cost seconds (_wire/reprs.py).
        return short(
            type(self).__name__,
            ("session_id", repr(self.session_id)),
            ("exit_code", repr(self.exit_code)),
            ("stderr", start(self.stderr)),
            ("stdout_lines", count(self.stdout_lines)),
            ("events", count(self.events)),
        )


_NO_CONTEXT = ErrorContext()


class AgentError(Exception):
    """Base class of every agent_sdk error.

    ``str(error)`` is the whole story: the message, then ``Hint: `` and the hint on a
    line of its own (when there is one). :attr:`message` and :attr:`hint` are its two
    parts, for whoever lays them out apart: print the error, or its parts, not both
    (docs/errors.md says why the hint is in ``str()``).

    Args:
        message: what went wrong, in the terms of the interface the caller used.
        context: what the CLI said and did (:class:`ErrorContext`).
        hint: how to fix it.

    Attributes:
        message: the message alone, without the hint (also ``args[0]``).
        hint: how to fix it, or ``None``; the last line of ``str(error)``, and only there.
        events: the events received before the failure, in order, when the run kept
            them (``run_sync``, ``run_async``, ``Session.send``, or
            ``keep_events=True``); a streamed run handed them over already.
        session_id: the chat id; pass it as ``AgentOptions(resume=...)`` to continue.
        exit_code: the CLI's exit code (negative: killed by that signal), or ``None``.
        stderr: the last part of what the CLI wrote to stderr.
        stdout_lines: the lines of stdout that were not JSON events.
        checkpoint: the checkpoint of a run that asked for one, ``changes`` what it
            changed (:class:`ErrorContext`); ``None`` otherwise.
    """

    # Defined here, beside its context, to keep errors.py small; its public home is
    # agent_sdk.errors, which tracebacks and pickles name.
    __module__ = "agent_sdk.errors"

    def __init__(
        self, message: str, *, context: ErrorContext | None = None, hint: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.context = context if context is not None else _NO_CONTEXT

    def __str__(self) -> str:
        return f"{self.message}\nHint: {self.hint}" if self.hint else self.message

    def __repr__(self) -> str:
        # Short whatever the run held: the start of the message, counts (_wire/reprs.py).
        context = self.context
        return short(
            type(self).__name__,
            ("", start(self.message)),
            ("session_id", repr(context.session_id)),
            ("exit_code", repr(context.exit_code)),
            ("events", count(context.events)),
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its class, args and attributes: the default reduction calls
        # cls(*args) and loses keyword-only arguments (AgentResultError's event), and
        # errors cross processes (a fleet's outcome from a Ray worker, docs/fleet.md).
        return _rebuild, (type(self), self.args, self.__dict__)

    @property
    def events(self) -> list[Event]:
        return self.context.events

    @property
    def session_id(self) -> str | None:
        return self.context.session_id

    @property
    def exit_code(self) -> int | None:
        return self.context.exit_code

    @property
    def stderr(self) -> str:
        return self.context.stderr

    @property
    def stdout_lines(self) -> list[str]:
        return self.context.stdout_lines

    @property
    def tool_calls(self) -> list[ToolCall]:
        """The tool calls among :attr:`events`, ``started`` paired with ``completed``."""
        return calls_of(self.events)

    @property
    def checkpoint(self) -> Checkpoint | None:
        """The checkpoint of a run that asked for one: rewind what it did before it
        failed with it (docs/sessions.md)."""
        return self.context.checkpoint

    @property
    def changes(self) -> Changes | None:
        """What a checkpointed run changed before it failed."""
        return self.context.changes


def _rebuild(cls: type[AgentError], args: tuple[Any, ...], state: dict[str, Any]) -> AgentError:
    """An unpickled :class:`AgentError`: made without ``__init__``, then given its state."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error
