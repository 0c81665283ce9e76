"""The caller's side of RayBackend without Ray: how it reads a task's stream and when it
cancels the task (a fake of the three calls it makes, ``wait``, ``get`` and ``cancel``).

A ``ray.cancel`` that races a task's own end crashes the caller's whole process (a Ray
bug: a RAY_CHECK "Tried to complete task that was not pending" in the driver), so a task
that has sent its last item is never cancelled, whatever that item says.
"""

from __future__ import annotations

from typing import Any

import pytest

from agent_sdk import AgentConfigError
from agent_sdk.fleet import RayBackend, Task
from agent_sdk.fleet._ray import _Final

pytestmark = pytest.mark.anyio


class TaskStream:
    """A Ray task's stream: its batches, then it is still running (no end yet) until it
    is cancelled: as a task is between sending its last item and ending."""

    def __init__(self, batches: list[list[Any]]) -> None:
        self.batches = list(batches)
        self.ended = False

    def __next__(self) -> list[Any]:
        if self.batches:
            return self.batches.pop(0)
        raise StopIteration


class FakeRay:
    """What RayBackend's caller side uses of Ray: ``wait``, ``get`` and ``cancel``."""

    class exceptions:
        GetTimeoutError = TimeoutError
        RayError = RuntimeError

    def __init__(self) -> None:
        self.cancels: list[bool] = []  # force=, one per ray.cancel

    def wait(self, refs: list[TaskStream], timeout: float) -> tuple[list[Any], list[Any]]:
        (stream,) = refs
        return (refs, []) if stream.batches or stream.ended else ([], refs)

    def get(self, ref: Any, timeout: float) -> Any:
        return ref  # a batch stands for its own ref

    def cancel(self, stream: TaskStream, force: bool) -> None:
        self.cancels.append(force)
        stream.ended = True


class FakeRemote:
    def __init__(self, batches: list[list[Any]]) -> None:
        self.batches = batches

    def remote(self, task: Task, settings: Any) -> TaskStream:
        return TaskStream(self.batches)


def backend(ray: FakeRay, batches: list[list[Any]]) -> RayBackend:
    made = RayBackend.__new__(RayBackend)  # without Ray: only the caller's side is tested
    made._ray = ray
    made._remote = FakeRemote(batches)
    made.cancel_grace = 1.0
    return made


async def nothing() -> None:
    pass


async def test_a_task_that_ended_with_an_error_is_not_cancelled() -> None:
    ray = FakeRay()
    failed = _Final(error=AgentConfigError("the task's repo is not a git repository"))
    with pytest.raises(AgentConfigError, match="not a git repository"):
        await backend(ray, [[failed]]).run_task(
            Task(prompt="p"), None, report=lambda _: None, before_start=nothing
        )
    assert ray.cancels == []


async def test_a_task_whose_progress_the_caller_refused_is_cancelled() -> None:
    ray = FakeRay()

    def refuse(progress: object) -> None:
        raise RuntimeError("on_progress failed")

    with pytest.raises(RuntimeError, match="on_progress failed"):
        await backend(ray, [["progress"], [_Final(error=RuntimeError("unseen"))]]).run_task(
            Task(prompt="p"), None, report=refuse, before_start=nothing
        )
    assert ray.cancels == [False]  # gracefully: the worker ends its CLI
