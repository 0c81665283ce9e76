"""What the CLI said and did before a failure (:class:`ErrorContext`), which every
:class:`~agent_sdk.errors.AgentError` carries; public as ``agent_sdk.errors.ErrorContext``."""

from __future__ import annotations

import msgspec

from ._short_repr import count, short, start
from .events import Event

__all__ = ["ErrorContext"]


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
    """

    session_id: str | None = None
    exit_code: int | None = None
    stderr: str = ""
    stdout_lines: list[str] = msgspec.field(default_factory=list)
    events: list[Event] = msgspec.field(default_factory=list)
    cli_version: str | None = None
    rejoined_events: int = 0

    def __repr__(self) -> str:
        # Counts, not every event: a long run's repr would cost seconds (_short_repr.py).
        return short(
            type(self).__name__,
            ("session_id", repr(self.session_id)),
            ("exit_code", repr(self.exit_code)),
            ("stderr", start(self.stderr)),
            ("stdout_lines", count(self.stdout_lines)),
            ("events", count(self.events)),
        )
