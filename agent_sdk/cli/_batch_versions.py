"""Which CLI ran each attempt of ``agent-sdk batch``: the whole version string each run
carries (``RunResult.cli_version``, ``ErrorContext.cli_version``; docs/protocol.md §1,
"Finding the binary"). A batch can straddle one of the CLI's self-updates, and two builds
share the date 2026.10.01, so the report names every version it saw (docs/cli.md)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..errors import AgentError

if TYPE_CHECKING:
    from ..fleet import TaskOutcome

__all__ = ["distinct", "error_version", "outcome_version"]


def error_version(error: AgentError) -> str | None:
    """The version of the CLI a failed run ran; ``None`` when unknown."""
    return error.context.cli_version


def outcome_version(outcome: TaskOutcome) -> str | None:
    """The version of the CLI a task's last run ran; ``None`` when unknown."""
    return outcome.result.cli_version if outcome.ok else error_version(outcome.error)


def distinct(versions: Iterable[str | None]) -> list[str]:
    """The known versions among ``versions`` (of attempts), each once, in the order first
    seen."""
    return list(dict.fromkeys(v for v in versions if v is not None))
