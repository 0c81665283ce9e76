"""Many runs at once: a fleet that isolates, retries and reports (docs/fleet.md).

Example::

    from agent_sdk.fleet import Fleet, RetryPolicy, Task

    async with Fleet(tasks, limit=8, isolation=["config"], retry=RetryPolicy()) as fleet:
        async for outcome in fleet:
            print(outcome.task.id, outcome.ok)
"""

from ._fleet import Backend, Fleet, LocalBackend
from ._retry import NEVER_RETRIED, RetryPolicy
from ._runner import TaskSettings
from ._summary import FleetSummary
from ._types import (
    Changes,
    Isolation,
    Progress,
    Task,
    TaskEvent,
    TaskFailed,
    TaskFinished,
    TaskOutcome,
    TaskRetrying,
    TaskStarted,
    TaskSucceeded,
)

__all__ = [
    "NEVER_RETRIED",
    "Backend",
    "Changes",
    "Fleet",
    "FleetSummary",
    "Isolation",
    "LocalBackend",
    "Progress",
    "RetryPolicy",
    "Task",
    "TaskEvent",
    "TaskFailed",
    "TaskFinished",
    "TaskOutcome",
    "TaskRetrying",
    "TaskSettings",
    "TaskStarted",
    "TaskSucceeded",
]
