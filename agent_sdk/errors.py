"""The exceptions agent_sdk raises. Every one is an :class:`AgentError`::

    AgentError
    ├── AgentConfigError         AgentOptions got a value it cannot use (nothing started)
    ├── AgentUsageError          a run or session used out of order (also a RuntimeError)
    ├── AgentStartError          the CLI could not be started (cwd, argv, fds, format)
    │   └── AgentNotFoundError   no cursor-agent binary
    ├── AgentProcessError        the CLI exited non-zero or was killed by a signal
    │   ├── AgentAuthError         not logged in, invalid API key
    │   ├── AgentModelError        unknown model (.available_models)
    │   ├── AgentTrustError        workspace not trusted
    │   ├── AgentWorkspaceError    workspace path missing
    │   ├── AgentUsageLimitError   usage limit reached
    │   ├── AgentOptionError       an option or value the CLI refused
    │   ├── AgentSessionInUseError a new_session_id some chat already has (single use)
    │   ├── AgentRefusedError      the service refused the request as sent (never retried)
    │   └── AgentRetriableError    the CLI gave up after reconnecting
    │       └── AgentConfigRaceError   lost the config-file race to a parallel run
    ├── AgentResultError         the result event says is_error
    ├── AgentProtocolError       the output broke the contract (no result event)
    ├── AgentOutputError         the reply held no JSON value of the output type
    ├── AgentBudgetError         a Budget's limit was reached (tool calls, turns, tokens)
    ├── AgentCallbackError       a tool or hook callback raised what is no Exception
    ├── AgentChannelError        the CLI did not load the run's own tools or hooks
    ├── AgentCheckpointError     a checkpoint could not be made, compared or rewound
    └── AgentTimeoutError        timeout or idle_timeout ran out (also a TimeoutError)

A failed run never loses what it received: a streamed run has handed over every event
before it raises, and each error carries an :class:`ErrorContext`: the events the run
kept, the session id (so the chat can be resumed), the exit code, the tail of stderr and
the stdout lines that were not JSON.

No error agent_sdk raises holds a secret of its run (the API key and auth token, from the
options or the environment, and header values): its message, hint, ``repr`` and all its
context, events included, are redacted before it is raised
(``agent_sdk/_options/redaction.py``).
"""

from __future__ import annotations

from ._wire.cli_messages import cli_text, listed_models, service_error
from ._wire.error_context import AgentError, ErrorContext
from .events import ResultEvent

__all__ = [
    "AgentAuthError",
    "AgentBudgetError",
    "AgentCallbackError",
    "AgentChannelError",
    "AgentCheckpointError",
    "AgentConfigError",
    "AgentConfigRaceError",
    "AgentError",
    "AgentModelError",
    "AgentNotFoundError",
    "AgentOptionError",
    "AgentOutputError",
    "AgentProcessError",
    "AgentProtocolError",
    "AgentRefusedError",
    "AgentResultError",
    "AgentRetriableError",
    "AgentSessionInUseError",
    "AgentStartError",
    "AgentTimeoutError",
    "AgentTrustError",
    "AgentUsageError",
    "AgentUsageLimitError",
    "AgentWorkspaceError",
    "ErrorContext",
]


class AgentConfigError(AgentError, TypeError, ValueError):
    """:class:`~agent_sdk.AgentOptions` got a value it cannot use: an unknown option, a
    value of the wrong type (``force="false"``), a number out of range, a NUL byte.
    Raised when the options are built, before anything starts; the message names the
    option, the value and the fix. ``Budget``, ``Hooks``, ``Allow``, ``Deny`` and the
    fleet's ``Task`` raise it too for a keyword they do not have ("did you mean ...?").
    Also a ``TypeError`` and a ``ValueError``, as a Python constructor's errors would be."""


class AgentUsageError(AgentError, RuntimeError):
    """A run or a session used out of order: ``Run.result`` read before the run ended,
    one run iterated by two tasks, a session's turn taken from another thread while one
    runs. A mistake in the calling code, not a failure of the agent; the message says
    what to do instead. Also a ``RuntimeError``, as asyncio's own are."""


class AgentStartError(AgentError):
    """The CLI could not be started: a missing or non-directory ``cwd``, a command line too
    long for the OS, a binary of the wrong format, no file descriptors left. The message
    says which, and the hint how to fix it."""


class AgentNotFoundError(AgentStartError):
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
        return listed_models(cli_text(self.context))


class AgentTrustError(AgentProcessError):
    """The workspace is not trusted (the run had neither ``trust`` nor ``force``)."""


class AgentWorkspaceError(AgentProcessError):
    """The workspace path given to the CLI does not exist."""


class AgentUsageLimitError(AgentProcessError):
    """The account hit its usage limit."""


class AgentOptionError(AgentProcessError):
    """The CLI refused an option or its value (e.g. from ``extra_args``)."""


class AgentSessionInUseError(AgentProcessError):
    """``AgentOptions(new_session_id=...)`` named an id a chat already has: an id chosen up
    front starts one chat only (docs/protocol.md §5). Continue that chat with ``resume=``
    or ``Session(id)``, or start another with a new id (:func:`agent_sdk.new_session_id`).
    :attr:`session_id` is that id."""


class _ServiceWords:
    """The code in brackets and the words of the CLI's ``RetriableError: [<code>] <words>``
    line (docs/protocol.md §3.6), read from the error's context."""

    context: ErrorContext

    @property
    def code(self) -> str | None:
        """The code in brackets (``"invalid_argument"``, ``"unavailable"``), or ``None``
        when the CLI printed none."""
        found = service_error(cli_text(self.context))
        return None if found is None else found[0]

    @property
    def reason(self) -> str | None:
        """The service's words after the code, or ``None`` when there was no such line."""
        found = service_error(cli_text(self.context))
        return None if found is None else found[1]


class AgentRefusedError(_ServiceWords, AgentProcessError):
    """The service refused the request as sent: the CLI's ``RetriableError`` with a code
    such as ``[invalid_argument]`` (docs/protocol.md §3.6, §5). The CLI had already
    retried it; running it again fails the same way, so a fleet never retries it.
    :attr:`code` is the code, :attr:`reason` the service's words."""


class AgentRetriableError(_ServiceWords, AgentProcessError):
    """The CLI gave up after reconnecting and retrying (``RetriableError`` with a code
    that does not refuse the request, or none); :attr:`code` and :attr:`reason` say
    what the service said."""


class AgentConfigRaceError(AgentRetriableError):
    """Runs started together raced on the CLI's config file and this one lost
    (``ENOENT`` renaming ``cli-config.json.tmp``, docs/protocol.md §1): it exited before
    doing anything, so running it again is safe. A separate ``CURSOR_CONFIG_DIR`` per
    concurrent run avoids the race."""


class AgentResultError(AgentError):
    """The run ended with a ``result`` event whose ``is_error`` is true.

    Attributes:
        event: the ``result`` event.
    """

    def __init__(
        self, message: str, *, event: ResultEvent, context: ErrorContext | None = None
    ) -> None:
        super().__init__(message, context=context)
        self.event = event


class AgentProtocolError(AgentError):
    """The CLI broke its output contract: e.g. it exited 0 without a ``result`` event."""


class AgentOutputError(AgentError):
    """A run asked for an ``output_type`` ended without a JSON value of that type, after
    every correction it was allowed (``AgentOptions.output_attempts``, docs/output.md).

    Attributes:
        reply: the last reply's text (the ``result``).
        json: the JSON text taken from it, or ``None`` when it held none.
        problem: what was wrong with it, in msgspec's words.
        attempts: how many replies were asked for.
    """

    def __init__(
        self,
        message: str,
        *,
        reply: str,
        json: str | None,
        problem: str,
        attempts: int,
        context: ErrorContext | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message, context=context, hint=hint)
        self.reply = reply
        self.json = json
        self.problem = problem
        self.attempts = attempts


class AgentBudgetError(AgentError):
    """A limit of a :class:`~agent_sdk.budget.Budget` was reached (docs/budgets.md).

    The event that went over it was delivered; then the run was stopped (its CLI's
    process group ended, or a live turn cancelled), or, for ``turns`` and ``tokens``, the
    next run was not started. ``events`` and ``session_id`` say how far it got. Never
    retried by a fleet: it would spend the same budget again.

    Attributes:
        limit: which limit: ``"tool_calls"``, ``"tool_calls_by_kind"``, ``"turns"`` or
            ``"tokens"``.
        kind: the kind in words (``"shell"``) for ``"tool_calls_by_kind"``, else ``None``.
        used: the figure that reached the limit (the tool call that went over included;
            for ``turns``, the turn that was refused).
        allowed: the limit.
        scope: whose budget: ``"run"``, ``"session"``, ``"fleet"`` or ``"live session"``.
    """

    def __init__(
        self,
        message: str,
        *,
        limit: str = "",
        kind: str | None = None,
        used: int = 0,
        allowed: int = 0,
        scope: str = "run",
        context: ErrorContext | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message, context=context, hint=hint)
        self.limit = limit
        self.kind = kind
        self.used = used
        self.allowed = allowed
        self.scope = scope


class AgentCallbackError(AgentError):
    """A tool (``AgentOptions(tools=...)``) or a hook's callback raised what is no
    ``Exception`` (``SystemExit``, a test framework's failure): that call failed, and the
    run was ended (docs/extend.md, "When your code fails"). ``errors`` holds what was
    raised, in order; the first is also the ``__cause__``.
    """

    def __init__(self, message: str, *, errors: list[BaseException] | None = None,
                 context: ErrorContext | None = None, hint: str | None = None) -> None:  # fmt: skip
        super().__init__(message, context=context, hint=hint)
        self.errors = list(errors or ())


class AgentChannelError(AgentError):
    """The CLI did not load the run's own tools or run its hooks (``AgentOptions(tools=...,
    hooks=...)``): the run was ended when the agent began, before it could act without
    them (docs/extend.md, "Never silently bypassed").

    Attributes:
        missing: what did not reach the CLI: ``"tools"``, ``"hooks"`` or both.
        channel: the ``tools_channel`` the run used.
    """

    def __init__(self, message: str, *, missing: tuple[str, ...] = (), channel: str = "",
                 context: ErrorContext | None = None, hint: str | None = None) -> None:  # fmt: skip
        super().__init__(message, context=context, hint=hint)
        self.missing = missing
        self.channel = channel


class AgentCheckpointError(AgentError):
    """A checkpoint of a working tree could not be made, compared or rewound (what git
    said is in the message). ``reason`` says why, ``paths`` the files concerned, if any:
    docs/sessions.md, "Checkpoints", lists the reasons (``"not_a_repository"``,
    ``"unreadable"``, ``"changed_since"``, ``"run_in_progress"``...).
    """

    def __init__(self, message: str, *, reason: str = "git_failed", paths: tuple[str, ...] = (),
                 context: ErrorContext | None = None, hint: str | None = None) -> None:  # fmt: skip
        super().__init__(message, context=context, hint=hint)
        self.reason = reason
        self.paths = paths


class AgentTimeoutError(AgentError, TimeoutError):
    """The run exceeded ``AgentOptions.timeout``, or was silent for ``idle_timeout``.

    Raised after the CLI's process group is gone; ``events`` and ``session_id`` say how
    far it got (resume from there with ``AgentOptions(resume=...)``).
    """
