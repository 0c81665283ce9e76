"""The exceptions agent_sdk raises. Every one is an :class:`AgentError`.

A failed run never loses what it received: a streamed run has handed over every event
before it raises, and each error carries the events the run kept, the session id (so the
chat can be resumed), the exit code, the tail of stderr and the stdout lines that were
not JSON.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .events import Event, ResultEvent
    from .tool_calls import ToolCall

__all__ = [
    "AgentAuthError",
    "AgentError",
    "AgentModelError",
    "AgentNotFoundError",
    "AgentOptionError",
    "AgentProcessError",
    "AgentProtocolError",
    "AgentResultError",
    "AgentRetriableError",
    "AgentTimeoutError",
    "AgentTrustError",
    "AgentUsageLimitError",
    "AgentWorkspaceError",
]


class AgentError(Exception):
    """Base class of every agent_sdk error.

    Attributes:
        events: the events received before the failure, in order, when the run kept
            them (``run_sync``, ``run_async``, ``Session.send``, or
            ``keep_events=True``); a streamed run handed them over already.
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
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.events: list[Event] = list(events)
        self.session_id = session_id
        self.exit_code = exit_code
        self.stderr = stderr
        self.stdout_lines: list[str] = list(stdout_lines)

    def __str__(self) -> str:
        return f"{self.message}\nHint: {self.hint}" if self.hint else self.message

    @property
    def tool_calls(self) -> list[ToolCall]:
        """The tool calls among :attr:`events`, ``started`` paired with ``completed``."""
        from .tool_calls import calls_of  # late: tool_calls imports events, events errors

        return calls_of(self.events)


class AgentNotFoundError(AgentError):
    """The ``cursor-agent`` binary could not be found.

    Install the CLI (``curl https://cursor.com/install -fsS | bash``), or point
    agent_sdk at it with ``AgentOptions(binary=...)`` or the environment variable
    ``CURSOR_AGENT_BIN``.
    """


class AgentProcessError(AgentError):
    """The CLI exited with a non-zero code or was killed by a signal.

    The message quotes what the CLI said (stderr and non-JSON stdout);
    ``exit_code``, ``stderr`` and ``stdout_lines`` hold it in full. Failures agent_sdk
    recognises raise a subclass whose ``hint`` says how to fix them.
    """


class AgentAuthError(AgentProcessError):
    """Not logged in, or the API key is invalid."""


class AgentModelError(AgentProcessError):
    """The CLI does not know the requested model; see :attr:`available_models`."""

    @property
    def available_models(self) -> list[str]:
        """The model ids the CLI listed in its error message."""
        match = re.search(MODEL_ERROR, "\n".join([*self.stdout_lines, self.stderr]))
        if match is None:
            return []
        return [m.strip().rstrip(".") for m in match["models"].split(",") if m.strip()]


class AgentTrustError(AgentProcessError):
    """The workspace is not trusted (the run had neither ``trust`` nor ``force``)."""


class AgentWorkspaceError(AgentProcessError):
    """The workspace path given to the CLI does not exist."""


class AgentUsageLimitError(AgentProcessError):
    """The account hit its usage limit."""


class AgentOptionError(AgentProcessError):
    """The CLI refused an option or its value (e.g. from ``extra_args``)."""


class AgentRetriableError(AgentProcessError):
    """The CLI gave up after reconnecting and retrying (``RetriableError``)."""


MODEL_ERROR = r"Cannot use this model: (?P<model>\S*?)\.? Available models: (?P<models>.*)"


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
    """The run exceeded ``AgentOptions.timeout``, or was silent for ``idle_timeout``.

    Raised after the CLI's process group is gone; ``events`` and ``session_id`` say how
    far it got (resume from there with ``AgentOptions(resume=...)``).
    """
