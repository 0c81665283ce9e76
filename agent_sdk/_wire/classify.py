"""Recognising what a failed CLI said (docs/protocol.md §5): the error class and hint for
its message, and how much of it an error's message quotes.

The exception classes live in :mod:`agent_sdk.errors`; this module builds them from the
CLI's own words: :func:`classify` (message to class and hint), :func:`process_error` (the
error of a CLI that exited non-zero or was killed), :func:`shorten` (a long quote cut in
the middle) and :func:`listed_models` (the ids of an unknown-model message).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..errors import (
    AgentAuthError,
    AgentConfigRaceError,
    AgentModelError,
    AgentOptionError,
    AgentProcessError,
    AgentRefusedError,
    AgentRetriableError,
    AgentSessionInUseError,
    AgentTrustError,
    AgentUsageLimitError,
    AgentWorkspaceError,
    ErrorContext,
)
from .cli_messages import (
    FREE_PLAN,
    FREE_PLAN_HINT,
    KEYCHAIN,
    KEYCHAIN_HINT,
    MODEL_ERROR,
    SESSION_IN_USE,
    cli_text,
    listed_models,
    service_error,
    session_in_use,
)

__all__ = [
    "CONFIG_RACE",
    "MESSAGE_CHARS",
    "MODELS_QUOTED",
    "MODELS_WHOLE",
    "MODEL_ERROR",
    "REFUSING_CODES",
    "classify",
    "cli_text",
    "listed_models",
    "process_error",
    "service_error",
    "shorten",
]

CONFIG_RACE = r"ENOENT\b.*cli-config\.json\.tmp"
#: The codes of a ``RetriableError`` that refuse the request as sent, so that another try
#: fails the same way (docs/protocol.md §3.6): ``invalid_argument`` (seen: it failed on
#: every retry of the CLI, and again with another model), and the codes that by their
#: definition in the Connect/gRPC set the CLI's codes come from also name a fault of the
#: request, not of the moment.
REFUSING_CODES = frozenset(
    {
        "invalid_argument",
        "failed_precondition",
        "out_of_range",
        "permission_denied",
        "unauthenticated",
        "not_found",
        "already_exists",
        "unimplemented",
    }
)


# --- what the CLI said, whole and quoted ---------------------------------------------------
#: How much of what the CLI said an exception's message quotes; all of it stays on the
#: exception's context (``stderr``, ``stdout_lines``).
MESSAGE_CHARS = 2000
#: An unknown-model message listing more than ``MODELS_WHOLE`` models (the 2026.10 CLI
#: lists ~250) quotes its first ``MODELS_QUOTED``, then a count; a shorter list is quoted
#: whole. ``.available_models`` always has them all.
MODELS_WHOLE = 10
MODELS_QUOTED = 3


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


def _in_use_hint(text: str) -> str:
    chat = session_in_use(text) or "<id>"
    return (
        f"an id given as new_session_id is single use, and {chat} is taken: continue its "
        f"chat with AgentOptions(resume={chat!r}) or Session({chat!r}), or start a new "
        "chat with a new id (agent_sdk.new_session_id())"
    )


def _refused_hint(text: str) -> str:
    found = service_error(text)
    code, words = found if found is not None else (None, "")
    return (
        f"the service refused the request as sent ([{code}] {words}); the CLI already "
        "retried it and another try fails the same way: change or leave out what the "
        "service names (an option in extra_args, the model, the prompt)"
    )


def _refused(text: str) -> bool:
    found = service_error(text)
    return found is not None and found[0] in REFUSING_CODES


# First match wins: auth before the others, because a logged-out CLI may say more; the
# keychain first of them, its hint being the one that helps (the CLI may also say it is
# not logged in).
_RULES: list[tuple[str | Callable[[str], bool], type[AgentProcessError], Callable[[str], str]]] = [
    (KEYCHAIN, AgentAuthError, _fixed(KEYCHAIN_HINT)),
    (
        r"Not logged in|Press any key to sign in|API key is invalid",
        AgentAuthError,
        _fixed(
            "log in once with `cursor-agent login`, or pass a valid key as "
            "AgentOptions(api_key=...) (sent as CURSOR_API_KEY)"
        ),
    ),
    (MODEL_ERROR, AgentModelError, _model_hint),
    (FREE_PLAN, AgentModelError, _fixed(FREE_PLAN_HINT)),
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
    (SESSION_IN_USE, AgentSessionInUseError, _in_use_hint),
    (
        r"hit your usage limit",
        AgentUsageLimitError,
        _fixed(
            "wait until the limit resets or raise it in your Cursor plan; the "
            "session can be resumed afterwards with AgentOptions(resume=session_id)"
        ),
    ),
    # Before the CLI's own option error: the service's words may say "unknown option"
    # about a flag the CLI itself accepted (docs/protocol.md §3.6).
    (_refused, AgentRefusedError, _refused_hint),
    (
        r"RetriableError",
        AgentRetriableError,
        _fixed(
            "the server or the network failed after several retries: try again "
            "later, with AgentOptions(resume=session_id) to keep the chat"
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
]


def classify(said: str) -> tuple[type[AgentProcessError], str | None]:
    """The error class for what a failed CLI printed, and the hint that goes with it.
    Give it the whole text: a message is known by its start (docs/protocol.md §5)."""
    for pattern, error_type, hint in _RULES:
        found = pattern(said) if callable(pattern) else re.search(pattern, said, re.IGNORECASE)
        if found:
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
