"""How ``agent-sdk batch`` says that a task failed, and why.

Two places, two budgets (docs/cli.md, "agent-sdk batch"):

- **the row** of the live table holds a few cells of "last": :func:`reason` puts what
  the CLI said there first, not the ``cursor-agent exited with code 1:`` that every
  failed run's message begins with (the row's ``✗`` already says it failed);
- **the lines under the table** at the end (and under a failed task's line when stderr
  is no terminal): :func:`failure_lines`, the class, the message and the hint, in the
  command line's terms, folded rather than cut on a terminal. A first line alone is not
  enough: a CLI that is not logged in says ``Press any key to sign in...`` first and why
  on its second line.
"""

from __future__ import annotations

import re

from ..errors import AgentError
from .hints import message_and_hint

__all__ = ["failure_lines", "reason"]

# The start of the message of a CLI that failed (agent_sdk/_wire/classify.py,
# process_error): what follows is what the CLI said.
_CLI_FAILED = re.compile(r"cursor-agent (?:exited with code -?\d+|was killed by signal \w+): ")
# Lines of the message shown under the table; the report and --json hold them all.
_MESSAGE_LINES = 3


def reason(error: AgentError) -> str:
    """The first line of what went wrong, what the CLI said first: for a table's row."""
    first = error.message.strip().split("\n", 1)[0]
    said = _CLI_FAILED.match(first)
    return first[said.end() :] if said and first[said.end() :].strip() else first


def failure_lines(error: AgentError, budget: str | None = None) -> tuple[str, list[str]]:
    """What to say of a failed task: the first line of its message, and the lines that go
    under it (at most two more of the message, then ``Hint: ...``), each indented by
    two spaces; all in the command line's terms (``--resume ID``, not
    ``AgentOptions(resume=...)``). ``budget``: where the task's budget was written, if
    in its tasks file (:func:`~agent_sdk.cli.hints.message_and_hint`)."""
    message, hint = message_and_hint(error, budget=budget)
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()] or [""]
    under = [f"  {line}" for line in lines[1:_MESSAGE_LINES]]
    if len(lines) > _MESSAGE_LINES:
        more = len(lines) - _MESSAGE_LINES
        under.append(f"  … {more} more line{'s' if more > 1 else ''} (--json and --html have all)")
    if hint:
        under.append(f"  Hint: {hint}")
    return lines[0], under
