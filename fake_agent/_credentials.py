"""The credentials the fake was given, and the fault modes that print them.

The real CLI is not known to print its key (docs/protocol.md §5: an invalid key is
reported by where it came from, not by its value). A CLI that does (a debug log, an
echoed request, a model repeating what it was shown) is what a wrapper's redaction is
for, and these modes play one:

- the ``leak_credentials`` directive, in a run: the credentials on stderr, as a non-JSON
  stdout line, in an assistant event and in the ``result`` that follows it; with
  ``variables``, also those variables of its environment (a CLI that logs what it passes
  on, e.g. the ``${env:...}`` of an MCP server's entry, docs/protocol.md §7);
- ``$FAKE_AGENT_LEAK_CREDENTIALS`` (any non-empty value): every command line (a run, a
  subcommand, ``--version``) fails at once, printing them on stdout and stderr, exit 1.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ._wire import write_stderr, write_stdout

#: The environment variables the real CLI reads its credentials from.
CREDENTIAL_VARIABLES = ("CURSOR_API_KEY", "CURSOR_AUTH_TOKEN")

#: Env var: fail every command line, printing the credentials.
LEAK_ENV = "FAKE_AGENT_LEAK_CREDENTIALS"


class LeakContext(Protocol):
    """What ``leak_credentials`` acts on (a subset of the run's context)."""

    #: What :func:`credentials` found for this run.
    credentials: list[str]

    def emit(self, event: dict[str, Any]) -> None: ...

    def stdout_line(self, text: str) -> None: ...

    def stderr_text(self, text: str) -> None: ...


def credentials(
    api_key: str | None, headers: Sequence[str], environ: Mapping[str, str]
) -> list[str]:
    """Each credential the command line and the environment gave, as it was given:
    ``NAME=value`` for the variables, ``--api-key value``, ``--header Name: Value``."""
    found = [f"{name}={environ[name]}" for name in CREDENTIAL_VARIABLES if environ.get(name)]
    if api_key:
        found.append(f"--api-key {api_key}")
    found += [f"--header {header}" for header in headers]
    return found


def leak_text(found: Sequence[str]) -> str:
    """The one line the fault modes print."""
    return "fake_agent: credentials: " + ("; ".join(found) if found else "none")


def fail_leaking(found: Sequence[str]) -> int:
    """``$FAKE_AGENT_LEAK_CREDENTIALS``: print the credentials on stdout and stderr; exit 1."""
    text = leak_text(found) + "\n"
    write_stdout(text)
    write_stderr(text)
    return 1


def check_leak(spec: dict[str, Any]) -> str | None:
    """``variables`` is a list of names."""
    names = spec.get("variables", [])
    if not all(isinstance(name, str) and name for name in names):
        return "directive 'leak_credentials': 'variables' must be a list of variable names"
    return None


def run_leak(spec: dict[str, Any], ctx: LeakContext) -> None:
    """The ``leak_credentials`` directive (see the module)."""
    found = list(ctx.credentials)
    found += [f"{name}={os.environ.get(name, '')}" for name in spec.get("variables", [])]
    text = leak_text(found)
    ctx.stderr_text(text + "\n")
    ctx.stdout_line(text)
    ctx.emit(
        {
            "type": "assistant",
            "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
            "session_id": "leak-session",
        }
    )
    is_error = bool(spec.get("is_error", True))
    ctx.emit(
        {
            "type": "result",
            "subtype": "error" if is_error else "success",
            "is_error": is_error,
            "result": text,
            "session_id": "leak-session",
            "request_id": "6b8d0f2a-4c6e-4b8d-9f1a-3d5f7b9d1f3b",
        }
    )
