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
    │   └── AgentRetriableError    the CLI gave up after reconnecting
    │       └── AgentConfigRaceError   lost the config-file race to a parallel run
    ├── AgentResultError         the result event says is_error
    ├── AgentProtocolError       the output broke the contract (no result event)
    └── AgentTimeoutError        timeout or idle_timeout ran out (also a TimeoutError)

A failed run never loses what it received: a streamed run has handed over every event
before it raises, and each error carries an :class:`ErrorContext`: the events the run
kept, the session id (so the chat can be resumed), the exit code, the tail of stderr and
the stdout lines that were not JSON.

No error agent_sdk raises holds a secret of its run (the API key and auth token, from the
options or the environment, and header values): its message, hint, ``repr`` and all its
context, events included, are redacted before it is raised
(``agent_sdk/_protocol/redaction.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import msgspec

from .events import Event, ResultEvent
from .tool_calls import ToolCall, calls_of

__all__ = [
    "AgentAuthError",
    "AgentConfigError",
    "AgentConfigRaceError",
    "AgentError",
    "AgentModelError",
    "AgentNotFoundError",
    "AgentOptionError",
    "AgentProcessError",
    "AgentProtocolError",
    "AgentResultError",
    "AgentRetriableError",
    "AgentStartError",
    "AgentTimeoutError",
    "AgentTrustError",
    "AgentUsageError",
    "AgentUsageLimitError",
    "AgentWorkspaceError",
    "ErrorContext",
]


class ErrorContext(msgspec.Struct, frozen=True, kw_only=True):
    """What the CLI said and did before a failure; every :class:`AgentError` has one.

    Attributes:
        session_id: the chat id the CLI reported, if any.
        exit_code: the CLI's exit code (negative: killed by that signal), or ``None``.
        stderr: the last part of what the CLI wrote to stderr (secrets redacted).
        stdout_lines: the lines of stdout that were not JSON events (secrets redacted).
        events: the events the run kept (see ``AgentOptions.keep_events``); an event
            that held a secret is a redacted copy.
    """

    session_id: str | None = None
    exit_code: int | None = None
    stderr: str = ""
    stdout_lines: list[str] = msgspec.field(default_factory=list)
    events: list[Event] = msgspec.field(default_factory=list)


_NO_CONTEXT = ErrorContext()


class AgentError(Exception):
    """Base class of every agent_sdk error.

    Args:
        message: what went wrong, in the terms of the interface the caller used.
        context: what the CLI said and did (:class:`ErrorContext`).
        hint: how to fix it; also the last line of ``str(error)``.

    Attributes:
        events: the events received before the failure, in order, when the run kept
            them (``run_sync``, ``run_async``, ``Session.send``, or
            ``keep_events=True``); a streamed run handed them over already.
        session_id: the chat id; pass it as ``AgentOptions(resume=...)`` to continue.
        exit_code: the CLI's exit code (negative: killed by that signal), or ``None``.
        stderr: the last part of what the CLI wrote to stderr.
        stdout_lines: the lines of stdout that were not JSON events.
    """

    def __init__(
        self, message: str, *, context: ErrorContext | None = None, hint: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.context = context if context is not None else _NO_CONTEXT

    def __str__(self) -> str:
        return f"{self.message}\nHint: {self.hint}" if self.hint else self.message

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


class AgentConfigError(AgentError, TypeError, ValueError):
    """:class:`~agent_sdk.AgentOptions` got a value it cannot use: an unknown option, a
    value of the wrong type (``force="false"``), a number out of range, a NUL byte.
    Raised when the options are built, before anything starts; the message names the
    option, the value and the fix. Also a ``TypeError`` and a ``ValueError``, as a
    Python constructor's errors would be."""


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


class AgentRetriableError(AgentProcessError):
    """The CLI gave up after reconnecting and retrying (``RetriableError``)."""


class AgentConfigRaceError(AgentRetriableError):
    """Runs started together raced on the CLI's config file and this one lost
    (``ENOENT`` renaming ``cli-config.json.tmp``, docs/protocol.md §1): it exited before
    doing anything, so running it again is safe. A separate ``CURSOR_CONFIG_DIR`` per
    concurrent run avoids the race."""


MODEL_ERROR = r"Cannot use this model: (?P<model>\S*?)\.? Available models: (?P<models>.*)"
CONFIG_RACE = r"ENOENT\b.*cli-config\.json\.tmp"


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


class AgentTimeoutError(AgentError, TimeoutError):
    """The run exceeded ``AgentOptions.timeout``, or was silent for ``idle_timeout``.

    Raised after the CLI's process group is gone; ``events`` and ``session_id`` say how
    far it got (resume from there with ``AgentOptions(resume=...)``).
    """


# --- what the CLI said, whole and quoted ---------------------------------------------------
#: How much of what the CLI said an exception's message quotes; all of it stays on the
#: exception's context (``stderr``, ``stdout_lines``).
MESSAGE_CHARS = 2000
#: An unknown-model message listing more than ``MODELS_WHOLE`` models (the 2026.10 CLI
#: lists ~250) quotes its first ``MODELS_QUOTED``, then a count; a shorter list is quoted
#: whole. ``.available_models`` always has them all.
MODELS_WHOLE = 10
MODELS_QUOTED = 3


def cli_text(context: ErrorContext) -> str:
    """All the CLI said: its non-JSON stdout lines, then its stderr, blank lines left out."""
    lines = [line for line in context.stdout_lines if line.strip()]
    lines += [line for line in context.stderr.splitlines() if line.strip()]
    return "\n".join(lines)


def _boundary(text: str, start: int, end: int, *, last: bool) -> int | None:
    """The last (or first) line break, else space, in ``text[start:end]``: its index."""
    for sep in ("\n", " "):
        at = text.rfind(sep, start, end) if last else text.find(sep, start, end)
        if at != -1:
            return at
    return None


def shorten(text: str, limit: int = MESSAGE_CHARS) -> str:
    """``text`` if it has at most ``limit`` characters; otherwise its start (a quarter of
    ``limit``) and its end (the rest), the middle cut out and counted.

    The start names the failure (the CLI's messages are known by their first words,
    docs/protocol.md §5); the end holds the latest lines (a crash's last words, an error
    after a flood of logs). Each part ends (or begins) at a line break, else a space, in
    its half next to the cut, when it has one: a word is split only inside a very long one.
    """
    if len(text) <= limit:
        return text
    head = limit // 4
    tail_start = len(text) - (limit - head)
    cut = _boundary(text, head // 2, head + 1, last=True)
    head_end = cut if cut is not None else head
    cut = _boundary(text, tail_start - 1, tail_start + (limit - head) // 2, last=False)
    tail_from = cut + 1 if cut is not None else tail_start
    left_out = tail_from - head_end
    return (
        f"{text[:head_end].rstrip()} [... {left_out} characters cut ...] "
        + text[tail_from:].lstrip()
    )


def listed_models(text: str) -> list[str]:
    """The model ids of an unknown-model message in ``text``, in the CLI's order."""
    match = re.search(MODEL_ERROR, text, re.IGNORECASE)
    if match is None:
        return []
    return [m.strip().rstrip(".") for m in match["models"].split(",") if m.strip()]


def _models_quoted(text: str) -> str:
    """``text`` with the list of an unknown-model message cut to its first models and a
    count (the 2026.10 CLI lists ~250 ids on one ~6 KB line)."""
    models = listed_models(text)
    match = re.search(MODEL_ERROR, text, re.IGNORECASE)
    if match is None or len(models) <= MODELS_WHOLE:
        return text
    shown = ", ".join(models[:MODELS_QUOTED])
    more = f"{shown}, ... and {len(models) - MODELS_QUOTED} more; see .available_models"
    return text[: match.start("models")] + more + text[match.end("models") :]


# --- recognising the CLI's own failure messages (docs/protocol.md §5) ---------------------
def _model_hint(text: str) -> str:
    models = listed_models(text)
    if len(models) > MODELS_WHOLE:
        which = f"one of the models the CLI listed (all {len(models)} in .available_models)"
    elif models:
        which = f"one of the models the CLI listed ({', '.join(models)})"
    else:
        which = "a model the CLI knows (`cursor-agent models`)"
    return f"pass {which} as AgentOptions(model=...), or leave model unset for the CLI's default"


def _fixed(hint: str) -> Callable[[str], str]:
    return lambda _: hint


# First match wins: auth before the others, because a logged-out CLI may say more.
_RULES: list[tuple[str, type[AgentProcessError], Callable[[str], str]]] = [
    (
        r"Not logged in|Press any key to sign in|API key is invalid",
        AgentAuthError,
        _fixed(
            "log in once with `cursor-agent login`, or pass a valid key as "
            "AgentOptions(api_key=...) (sent as CURSOR_API_KEY)"
        ),
    ),
    (MODEL_ERROR, AgentModelError, _model_hint),
    (
        r"Workspace Trust Required",
        AgentTrustError,
        _fixed(
            "keep AgentOptions(trust=True) (the default) or pass force=True; "
            "do not remove --trust through extra_args"
        ),
    ),
    (
        r"Workspace path does not exist",
        AgentWorkspaceError,
        _fixed("create the directory or fix AgentOptions(workspace=...)"),
    ),
    (
        r"hit your usage limit",
        AgentUsageLimitError,
        _fixed(
            "wait until the limit resets or raise it in your Cursor plan; the "
            "session can be resumed afterwards with AgentOptions(resume=session_id)"
        ),
    ),
    (
        r"unknown option|error: option '.*' argument .* is invalid",
        AgentOptionError,
        _fixed(
            "check extra_args and the values of AgentOptions against "
            "`cursor-agent --help`; an older CLI may lack the flag: update it"
        ),
    ),
    (
        CONFIG_RACE,
        AgentConfigRaceError,
        _fixed(
            "nothing was done, so a retry is safe: the run lost a race over the CLI's "
            "config file (cli-config.json) with a run started at the same time; a separate "
            "CURSOR_CONFIG_DIR per concurrent run (AgentOptions(env=...); copy your login "
            "into it unless you use an API key) avoids the race"
        ),
    ),
    (
        r"RetriableError",
        AgentRetriableError,
        _fixed(
            "the server or the network failed after several retries: try again "
            "later, with AgentOptions(resume=session_id) to keep the chat"
        ),
    ),
]


def classify(said: str) -> tuple[type[AgentProcessError], str | None]:
    """The error class for what a failed CLI printed, and the hint that goes with it.
    Give it the whole text: a message is known by its start (docs/protocol.md §5)."""
    for pattern, error_type, hint in _RULES:
        if re.search(pattern, said, re.IGNORECASE):
            return error_type, hint(said)
    return AgentProcessError, None


def process_error(
    said: str, context: ErrorContext, *, whole: str | None = None
) -> AgentProcessError:
    """The error for a CLI that exited non-zero or was killed, quoting what it said.

    Args:
        said: the quote for the message (perhaps shortened, or a "printed nothing" text).
        context: the run's context; the class and hint are recognised from all the CLI
            said, ``whole`` if given, else :func:`cli_text` of ``context`` (never from a
            shortened ``said`` when the context has the text).
        whole: all the CLI said (it must not be cut).

    An unknown-model message is quoted from the whole text, its model list cut to a few
    ids and a count (all of them are on ``.available_models``).
    """
    code = context.exit_code
    if code is not None and code < 0:
        import signal  # only failures need it

        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return AgentProcessError(
            f"cursor-agent was killed by signal {name}: {said}", context=context
        )
    if whole is None:
        whole = cli_text(context) or said
    error_type, hint = classify(whole)
    if error_type is AgentModelError:
        said = shorten(_models_quoted(whole))
    return error_type(f"cursor-agent exited with code {code}: {said}", context=context, hint=hint)
