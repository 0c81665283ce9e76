"""A run's budget over its own tools (docs/budgets.md, "Your own tools"): the run's host
asks :meth:`OwnToolCalls.admit` before it runs a call, so a call over a limit is answered
with a tool error and never runs in Python.

Why the host counts them, not the stream: the CLI writes a call's ``started`` line and
then calls the tool; the program may read that line long after (a consumer that takes its
time, a pipe full of lines), too late to keep the tool from running. So each call of ours
is counted once, when it reaches the host, as an ``mcp`` call; the stream leaves the
``started`` events of our server's calls (docs/protocol.md §3.4: ``providerIdentifier``,
``name`` ``agent_sdk-<tool>``) uncounted, and stops the run at the one the host refused:
the k-th of ours it reads for the k-th call the host saw, or, when that one was read
before the refusal, at the next completion or the ``result``.
"""

from __future__ import annotations

from ..errors import ErrorContext
from ..events import ToolCallStarted
from ..extend._host import SERVER_NAME
from ..tools import McpArgs
from .spending import Hit, Spending, budget_error

__all__ = ["OwnToolCalls"]

_PREFIX = f"{SERVER_NAME}-"


class OwnToolCalls:
    """The calls of a run's own tools against ``spending`` (the run's, or the session's
    or fleet's it shares)."""

    def __init__(self, spending: Spending) -> None:
        self._spending = spending
        self.admitted = 0  # calls that reached the host (run or refused)
        self.seen = 0  # their ``started`` events the stream read
        self.hit: Hit | None = None  # the limit the first refused call went over
        self._refused_at = 0  # the number of that call among the host's

    def admit(self, tool: str) -> str | None:
        """The host's question before it runs a call of ``tool``: ``None`` runs it; else
        the tool error's text (the limit, and how to raise it)."""
        self.admitted += 1
        hit = self._spending.own_call()
        if hit is None:
            return None
        if self.hit is None:
            self.hit, self._refused_at = hit, self.admitted
        error = budget_error(hit, ErrorContext(), then=f"the program did not run {tool}")
        return f"agent_sdk: {error.message}; {error.hint}"

    def is_own(self, event: ToolCallStarted) -> bool:
        """Whether ``event`` starts a call of our server (so its host counts it)."""
        if event.kind != "mcpToolCall":
            return False
        args = event.args
        if not isinstance(args, McpArgs):
            return False
        if args.provider_identifier is not None:
            return args.provider_identifier == SERVER_NAME
        return args.name.startswith(_PREFIX)

    def started(self) -> Hit | None:
        """The stream read the ``started`` event of one of ours: the limit, when it is
        the call the host refused or a later one."""
        self.seen += 1
        return self.overdue()

    def overdue(self, ended: bool = False) -> Hit | None:
        """The limit of a refused call whose ``started`` event was read already (the
        run stops at the next completion), or, ``ended`` (the ``result``), of any."""
        if self.hit is not None and (ended or self.seen >= self._refused_at):
            return self.hit
        return None
