"""In-memory CLIs for a fleet's tasks (``LocalBackend(Scripts(...))``): one per task and
attempt, each playing what ``script(task, attempt)`` gives, kept to look at afterwards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agent_sdk.fleet import Task
from agent_sdk.testing import MemoryTransport


class Scripts:
    """In-memory CLIs by task id and attempt, and what each was started with."""

    def __init__(self, script: Callable[[Task, int], list[Any]]) -> None:
        self.script = script
        self.transports: dict[tuple[str, int], MemoryTransport] = {}

    def __call__(self, task: Task, attempt: int) -> MemoryTransport:
        transport = MemoryTransport(self.script(task, attempt))
        self.transports[task.id, attempt] = transport
        return transport

    def prompt(self, task_id: str, attempt: int) -> str:
        """The prompt attempt ``attempt`` of task ``task_id`` was started with."""
        started = self.transports[task_id, attempt].started_with
        assert started is not None
        return str(started[0])

    def resume(self, task_id: str, attempt: int) -> str | None:
        """The chat that attempt resumed, if any."""
        started = self.transports[task_id, attempt].started_with
        assert started is not None
        return started[1].resume  # type: ignore[no-any-return]

    def started(self) -> list[str]:
        """The ids of the tasks whose CLI was started, sorted (an attempt each)."""
        return sorted(
            task_id for (task_id, _), t in self.transports.items() if t.started_with is not None
        )
