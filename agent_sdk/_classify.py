"""Recognising the CLI's own failure messages (cli-protocol.md §5) on stdout or stderr."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .errors import (
    MODEL_ERROR,
    AgentAuthError,
    AgentModelError,
    AgentOptionError,
    AgentProcessError,
    AgentRetriableError,
    AgentTrustError,
    AgentUsageLimitError,
    AgentWorkspaceError,
)


def _model_hint(text: str) -> str:
    match = re.search(MODEL_ERROR, text)
    models = match["models"].strip().rstrip(".") if match else ""
    listed = f" ({models})" if models else ""
    return (
        f"pass one of the models the CLI listed{listed} as AgentOptions(model=...), or "
        "leave model unset for the CLI's default"
    )


# First match wins: auth before the others, because a logged-out CLI may say more.
# Patterns are strings: `re` compiles and caches them on first use, keeping import cheap.
_RULES: list[tuple[str, type[AgentProcessError], Callable[[str], str]]] = [
    (
        r"Not logged in|Press any key to sign in|API key is invalid",
        AgentAuthError,
        lambda _: (
            "log in once with `cursor-agent login`, or pass a valid key as "
            "AgentOptions(api_key=...) (sent as CURSOR_API_KEY)"
        ),
    ),
    (MODEL_ERROR, AgentModelError, _model_hint),
    (
        r"Workspace Trust Required",
        AgentTrustError,
        lambda _: (
            "keep AgentOptions(trust=True) (the default) or pass force=True; "
            "do not remove --trust through extra_args"
        ),
    ),
    (
        r"Workspace path does not exist",
        AgentWorkspaceError,
        lambda _: "create the directory or fix AgentOptions(workspace=...)",
    ),
    (
        r"hit your usage limit",
        AgentUsageLimitError,
        lambda _: (
            "wait until the limit resets or raise it in your Cursor plan; the "
            "session can be resumed afterwards with AgentOptions(resume=session_id)"
        ),
    ),
    (
        r"unknown option|error: option '.*' argument .* is invalid",
        AgentOptionError,
        lambda _: (
            "check extra_args and the values of AgentOptions against "
            "`cursor-agent --help`; an older CLI may lack the flag: update it"
        ),
    ),
    (
        r"RetriableError",
        AgentRetriableError,
        lambda _: (
            "the server or the network failed after several retries: try again "
            "later, with AgentOptions(resume=session_id) to keep the chat"
        ),
    ),
]


def classify(said: str) -> tuple[type[AgentProcessError], str | None]:
    """The error class for what a failed CLI printed, and the hint that goes with it."""
    for pattern, error_type, hint in _RULES:
        if re.search(pattern, said, re.IGNORECASE):
            return error_type, hint(said)
    return AgentProcessError, None


def process_error(said: str, *, exit_code: int, **context: Any) -> AgentProcessError:
    """The error for a CLI that exited non-zero or was killed, quoting what it said."""
    context["exit_code"] = exit_code
    if exit_code < 0:
        import signal  # late: only for this message

        try:
            name = signal.Signals(-exit_code).name
        except ValueError:
            name = str(-exit_code)
        return AgentProcessError(f"cursor-agent was killed by signal {name}: {said}", **context)
    error_type, hint = classify(said)
    return error_type(f"cursor-agent exited with code {exit_code}: {said}", hint=hint, **context)
