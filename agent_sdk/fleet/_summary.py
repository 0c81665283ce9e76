"""A fleet at a glance: counts, durations, tokens, tool calls, failures by class."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import msgspec

from ..events import Usage
from ._types import TaskFailed, TaskOutcome

__all__ = ["FleetSummary", "summarize", "total_usage"]


class FleetSummary(msgspec.Struct, frozen=True, kw_only=True):
    """What a fleet did, once it ended (or so far).

    Attributes:
        outcomes: every task's outcome, in the order they ended.
        tasks: how many tasks the fleet had.
        succeeded: tasks that succeeded.
        failed: tasks that failed for good.
        failures: failed tasks by error class name (``{"AgentUsageLimitError": 2}``).
        retries: runs beyond each task's first, over the fleet.
        wall_time: seconds from the fleet's start to its end.
        task_time: seconds of every task added up (retries and backoff included).
        longest: the longest task, in seconds.
        tool_calls: tool calls over every run.
        usage: tokens over every run that reported them.

    Example::

        summary = await fleet.wait()
        print(f"{summary.succeeded}/{summary.tasks} in {summary.wall_time:.0f} s")
    """

    outcomes: list[TaskOutcome]
    tasks: int
    succeeded: int = 0
    failed: int = 0
    failures: dict[str, int] = msgspec.field(default_factory=dict)
    retries: int = 0
    wall_time: float = 0.0
    task_time: float = 0.0
    longest: float = 0.0
    tool_calls: int = 0
    usage: Usage = msgspec.field(default_factory=Usage)


def summarize(outcomes: list[TaskOutcome], *, tasks: int, wall_time: float) -> FleetSummary:
    """The summary of ``outcomes`` of a fleet of ``tasks`` that ran ``wall_time`` s."""
    failures = Counter(type(o.error).__name__ for o in outcomes if isinstance(o, TaskFailed))
    return FleetSummary(
        outcomes=list(outcomes),
        tasks=tasks,
        succeeded=sum(1 for o in outcomes if o.ok),
        failed=sum(failures.values()),
        failures=dict(failures.most_common()),
        retries=sum(o.attempts - 1 for o in outcomes),
        wall_time=wall_time,
        task_time=sum(o.elapsed for o in outcomes),
        longest=max((o.elapsed for o in outcomes), default=0.0),
        tool_calls=sum(o.tool_calls for o in outcomes),
        usage=total_usage(o.usage for o in outcomes),
    )


def total_usage(usages: Iterable[Usage | None]) -> Usage:
    """The tokens of ``usages`` added up (``None``: a run that reported none)."""
    return sum((usage for usage in usages if usage is not None), Usage())
