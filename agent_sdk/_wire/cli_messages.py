"""What the CLI's error messages say, read as text (docs/protocol.md §5): the few readings
both the public errors (``AgentModelError.available_models``, ``AgentRetriableError.code``)
and the classifier (``_wire/classify.py``) need, below both of them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

__all__ = [
    "FREE_PLAN",
    "FREE_PLAN_HINT",
    "KEYCHAIN",
    "KEYCHAIN_HINT",
    "MODEL_ERROR",
    "SERVICE_ERROR",
    "SESSION_IN_USE",
    "cli_text",
    "listed_models",
    "service_error",
    "session_in_use",
]

MODEL_ERROR = r"Cannot use this model: (?P<model>\S*?)\.? Available models: (?P<models>.*)"
#: A named model asked for on a Free plan (docs/protocol.md §5; reported, 2026.10.01):
#: ``Named models unavailable Free plans can only use Auto``, known by its start.
FREE_PLAN = r"Named models unavailable"
FREE_PLAN_HINT = (
    "a Cursor Free plan runs only Auto: pass AgentOptions(model='auto') or leave model "
    "unset, or upgrade the Cursor plan to use named models"
)
#: The login could not be saved in the macOS keychain, which a run-specific ``HOME`` puts
#: out of reach (docs/protocol.md §1, "Login, keychain and HOME"; reported under ACP).
KEYCHAIN = r'Failed to save the "cursor-access-token" credential'
KEYCHAIN_HINT = (
    "the CLI could not reach the macOS login keychain, which it looks for under HOME: do "
    "not give the CLI a HOME of its own (AgentOptions(env=...) setting HOME), or sign in "
    "with an API key kept in a file instead of the keychain: AgentOptions(api_key=...) "
    "with AGENT_CLI_CREDENTIAL_STORE=file in AgentOptions(env=...)"
)
#: The CLI's ``RetriableError: [<code>] <words>`` line (docs/protocol.md §3.6).
SERVICE_ERROR = r"RetriableError:[ \t]*(?:\[(?P<code>[^\]\n]*)\])?[ \t]*(?P<words>[^\n]*)"

#: A ``--new-session-id`` given an id a chat already has (docs/protocol.md §5; seen,
#: 2026.10.01): ``Error: Session ID "<uuid>" is already in use.``
SESSION_IN_USE = r'Session ID "(?P<id>[^"\n]*)" is already in use'


class Said(Protocol):
    """What the CLI said, as an error's context keeps it (``ErrorContext`` is one)."""

    @property
    def stdout_lines(self) -> Sequence[str]: ...

    @property
    def stderr(self) -> str: ...


def cli_text(context: Said) -> str:
    """All the CLI said: its non-JSON stdout lines, then its stderr, blank lines left out."""
    lines = [line for line in context.stdout_lines if line.strip()]
    lines += [line for line in context.stderr.splitlines() if line.strip()]
    return "\n".join(lines)


def listed_models(text: str) -> list[str]:
    """The model ids of an unknown-model message in ``text``, in the CLI's order."""
    match = re.search(MODEL_ERROR, text, re.IGNORECASE)
    if match is None:
        return []
    return [m.strip().rstrip(".") for m in match["models"].split(",") if m.strip()]


def service_error(text: str) -> tuple[str | None, str] | None:
    """The code in brackets (``None`` when there is none) and the service's words of the
    first ``RetriableError`` line in ``text``, or ``None`` when it has no such line."""
    match = re.search(SERVICE_ERROR, text, re.IGNORECASE)
    if match is None:
        return None
    code = match["code"]
    return (code.strip().lower() if code is not None else None), match["words"].strip()


def session_in_use(text: str) -> str | None:
    """The chat id of the CLI's "already in use" message in ``text``, or ``None``."""
    match = re.search(SESSION_IN_USE, text, re.IGNORECASE)
    return None if match is None else match["id"]
