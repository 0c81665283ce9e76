"""The exceptions agent_sdk raises. Every one is an :class:`AgentError`.

A failed run never loses what it received: each error carries the events that
arrived before the failure, the session id (so the chat can be resumed), the
exit code, the tail of stderr and the stdout lines that were not JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .events import Event, ResultEvent

__all__ = [
    "AgentError",
    "AgentNotFoundError",
    "AgentProcessError",
    "AgentProtocolError",
    "AgentResultError",
    "AgentTimeoutError",
]


class AgentError(Exception):
    """Base class of every agent_sdk error.

    Attributes:
        events: the events received before the failure, in order.
        session_id: the chat id the CLI reported, if any; pass it as
            ``AgentOptions(resume=...)`` to continue the chat.
        exit_code: the CLI's exit code (negative: killed by that signal), or
            ``None`` if it was not known.
        stderr: the last part of what the CLI wrote to stderr.
        stdout_lines: the lines of stdout that were not JSON events.
    """

    def __init__(
        self,
        message: str,
        *,
        events: Sequence[Event] = (),
        session_id: str | None = None,
        exit_code: int | None = None,
        stderr: str = "",
        stdout_lines: Sequence[str] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.events: list[Event] = list(events)
        self.session_id = session_id
        self.exit_code = exit_code
        self.stderr = stderr
        self.stdout_lines: list[str] = list(stdout_lines)

    def __str__(self) -> str:
        return self.message


class AgentNotFoundError(AgentError):
    """The ``cursor-agent`` binary could not be found.

    Install the CLI (``curl https://cursor.com/install -fsS | bash``), or point
    agent_sdk at it with ``AgentOptions(binary=...)`` or the environment variable
    ``CURSOR_AGENT_BIN``.
    """


class AgentProcessError(AgentError):
    """The CLI exited with a non-zero code or was killed by a signal.

    The message quotes what the CLI said (stderr and non-JSON stdout);
    ``exit_code``, ``stderr`` and ``stdout_lines`` hold it in full.
    """


class AgentResultError(AgentError):
    """The run ended with a ``result`` event whose ``is_error`` is true.

    Attributes:
        event: the ``result`` event.
    """

    def __init__(
        self,
        message: str,
        *,
        event: ResultEvent,
        events: Sequence[Event] = (),
        exit_code: int | None = None,
        stderr: str = "",
        stdout_lines: Sequence[str] = (),
    ) -> None:
        super().__init__(
            message,
            events=events,
            session_id=event.session_id,
            exit_code=exit_code,
            stderr=stderr,
            stdout_lines=stdout_lines,
        )
        self.event = event


class AgentProtocolError(AgentError):
    """The CLI broke its output contract: e.g. it exited 0 without a ``result`` event."""


class AgentTimeoutError(AgentError, TimeoutError):
    """The run took longer than ``AgentOptions.timeout`` (reserved: not raised yet)."""
