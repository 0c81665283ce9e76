"""Which failures a fleet retries, how long it waits, and when a retry resumes the chat.

A failure is retried only when running again can help (docs/fleet.md, "Retries"): the
CLI's config-file race and ``RetriableError`` (the connection or the service gave up). A
usage limit, a login, a model, a trust or an option problem, a budget spent, or a request
the service refused as sent (``AgentRefusedError``, ``RetriableError: [invalid_argument]``),
fails the same way every time, so those are never retried, whatever the policy names.
"""

from __future__ import annotations

import random

import msgspec

from ..errors import (
    AgentAuthError,
    AgentBudgetError,
    AgentConfigError,
    AgentError,
    AgentModelError,
    AgentOptionError,
    AgentRefusedError,
    AgentRetriableError,
    AgentSessionInUseError,
    AgentTrustError,
    AgentUsageError,
    AgentUsageLimitError,
    AgentWorkspaceError,
)
from ._checks import check_count, check_fraction, check_seconds

__all__ = ["NEVER_RETRIED", "RetryPolicy"]

NEVER_RETRIED: tuple[type[AgentError], ...] = (
    AgentUsageLimitError,  # resets with the billing cycle
    AgentAuthError,
    AgentModelError,
    AgentTrustError,
    AgentOptionError,
    AgentRefusedError,  # the CLI already retried it (docs/protocol.md §3.6)
    AgentWorkspaceError,
    AgentSessionInUseError,  # the id stays taken (docs/sessions.md)
    AgentConfigError,
    AgentUsageError,
    AgentBudgetError,  # it would spend the same budget again (docs/budgets.md)
)
"""Failures that are never retried: running again fails the same way."""

_RESUME_PROMPT = (
    "Your previous turn was interrupted by an error before it finished. Continue the task "
    "from where you left off; do not redo work that is already done."
)


class RetryPolicy(msgspec.Struct, frozen=True, kw_only=True):
    """How a fleet retries a task whose run failed in a way worth retrying.

    Attributes:
        attempts: runs per task at most, the first included (1: no retry).
        backoff: seconds before the first retry; doubled for each one after.
        max_backoff: the longest wait between two runs.
        jitter: a fraction of the wait added or taken at random (0.25: ±25 %), so tasks
            that failed together do not start again together.
        retry_on: the failures retried (subclasses included), less those in
            :data:`NEVER_RETRIED`.
        resume_prompt: the prompt of a retry that resumes the chat of a run that had
            already done work (a tool call or reply text), instead of starting over.

    Example::

        RetryPolicy(attempts=3, backoff=2.0)
    """

    attempts: int = 3
    backoff: float = 1.0
    max_backoff: float = 30.0
    jitter: float = 0.25
    retry_on: tuple[type[AgentError], ...] = (AgentRetriableError,)
    resume_prompt: str = _RESUME_PROMPT

    def __post_init__(self) -> None:
        # msgspec checks no types when a Struct is made: nan attempts would retry for
        # ever, an inf backoff wait nothing (docs/fleet.md, "Retries").
        check_count("RetryPolicy", "attempts", self.attempts, example=3)
        check_seconds("RetryPolicy", "backoff", self.backoff, example=1.0)
        check_seconds("RetryPolicy", "max_backoff", self.max_backoff, example=30.0)
        check_fraction("RetryPolicy", "jitter", self.jitter, example=0.25)

    def retries(self, error: AgentError, attempt: int) -> bool:
        """Whether a task whose run number ``attempt`` failed with ``error`` runs again."""
        if attempt >= self.attempts or isinstance(error, NEVER_RETRIED):
            return False
        return isinstance(error, self.retry_on)

    def delay(self, attempt: int, rng: random.Random | None = None) -> float:
        """Seconds to wait after the failure of run number ``attempt`` (from 1)."""
        wait = min(self.backoff * 2.0 ** (attempt - 1), self.max_backoff)
        spread = wait * self.jitter
        uniform = rng.uniform if rng is not None else random.uniform
        return max(0.0, wait + uniform(-spread, spread))


NO_RETRY = RetryPolicy(attempts=1)
"""The policy of a fleet given none: every task runs once."""
