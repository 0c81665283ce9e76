"""Many runs at once: a fleet that isolates, retries and reports (docs/fleet.md).

Example::

    from agent_sdk.fleet import Fleet, RetryPolicy, Task

    async with Fleet(tasks, limit=8, isolation=["config"], retry=RetryPolicy()) as fleet:
        async for outcome in fleet:
            print(outcome.task.id, outcome.ok)
"""

from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from ._ray import RayBackend
else:
    # Loaded on first use: the Ray backend is an optional extra (agent-sdk[ray]), and
    # Ray itself is imported only when a RayBackend is made.
    def __getattr__(name: str) -> object:
        if name != "RayBackend":
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from ._ray import RayBackend

        globals()[name] = RayBackend
        return RayBackend

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})


__all__ = [
    "NEVER_RETRIED",
    "Backend",
    "Changes",
    "Fleet",
    "FleetSummary",
    "Isolation",
    "LocalBackend",
    "Progress",
    "RayBackend",
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
