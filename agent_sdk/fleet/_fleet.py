"""Many tasks at once: a limit on live runs, staggered starts, outcomes as tasks end.

The fleet only schedules. Each task runs through :func:`._runner.run_task`, here in the
caller's event loop or, with the Ray backend, on a cluster's worker (docs/fleet.md).
"""

from __future__ import annotations

import enum
import math
import os
import time
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from types import TracebackType
from typing import Protocol

import anyio
import msgspec
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from .._options.redaction import redaction_of
from .._run.spending import Spending
from ..budget import Budget
from ..errors import AgentConfigError, AgentError, AgentUsageError
from ..options import AgentOptions
from ._checks import check_count, check_seconds, check_shared_trees
from ._retry import NO_RETRY, RetryPolicy
from ._runner import TaskSettings, TransportFactory, run_task
from ._summary import FleetSummary, summarize
from ._sweep import sweep_stale
from ._types import Isolation, Progress, Task, TaskFailed, TaskFinished, TaskOutcome

__all__ = ["Backend", "Fleet", "LocalBackend"]

_ISOLATIONS: frozenset[Isolation] = frozenset(("config", "worktree"))


class Backend(Protocol):
    """Where a fleet's tasks run: this process (:class:`LocalBackend`) or a Ray cluster
    (``agent_sdk.fleet.RayBackend``)."""

    async def run_task(
        self,
        task: Task,
        settings: TaskSettings,
        *,
        report: Callable[[Progress], object],
        before_start: Callable[[], Awaitable[None]],
    ) -> TaskOutcome:
        """Run one task to its outcome; its progress to ``report``, in order."""
        ...


class LocalBackend:
    """Runs each task in the caller's event loop, as a :func:`~agent_sdk.run` of its own.

    Args:
        transport: makes each run's transport, ``(task, attempt) -> Transport``: tests
            run a fleet on in-memory CLIs (``agent_sdk.testing.MemoryTransport``).
    """

    def __init__(self, transport: TransportFactory | None = None) -> None:
        self.transport = transport

    async def run_task(
        self,
        task: Task,
        settings: TaskSettings,
        *,
        report: Callable[[Progress], object],
        before_start: Callable[[], Awaitable[None]],
    ) -> TaskOutcome:
        """Run one task to its outcome; its progress to ``report``, in order."""
        return await run_task(
            task, settings, report=report, before_start=before_start, transport=self.transport
        )


class _State(enum.Enum):
    NEW = "new"
    RUNNING = "running"
    DONE = "done"  # every outcome was delivered
    CLOSED = "closed"


class Fleet:
    """Runs many tasks at once and hands over each outcome as its task ends.

    Args:
        tasks: the tasks; a plain string is a :class:`Task` with that prompt.
        options: the options of tasks that have none of their own.
        limit: live tasks at most (a retrying task keeps its place while it waits).
        stagger: seconds between two starts of a run, the fleet over: the service
            refuses bursts of starts (docs/fleet.md).
        isolation: what each task gets of its own: ``"config"`` (a ``CURSOR_CONFIG_DIR``
            seeded from the user's), ``"worktree"`` (a git worktree of its ``repo``).
        retry: which failures run again, and when (default: none).
        keep_events: keep every event in each ``RunResult`` (memory grows with them).
        keep_worktrees: leave each worktree in place (``Changes.worktree`` says where).
        config_seed: the config dir isolated ones are seeded from (default:
            ``$CURSOR_CONFIG_DIR`` or ``~/.cursor``).
        on_progress: called with every task's progress (starts, events, retries,
            outcomes), in the fleet's task: it must not block.
        backend: where tasks run (default: this process).
        budget: limits over all the tasks together (:class:`~agent_sdk.Budget`; a
            task's own ``AgentOptions(budget=...)`` limits each of its runs). The run
            that goes over it fails with :class:`~agent_sdk.AgentBudgetError`, the
            running ones stop at their next tool call, and the ones not started fail
            without starting (docs/budgets.md). Counted in this process: not with the
            Ray backend.

    Raises:
        AgentConfigError: an argument is wrong (a duplicate task id or ``new_session_id``,
            ``"worktree"`` for a task without ``repo``, a ``limit`` that is not a whole
            number >= 1, a ``stagger`` that is not a finite number >= 0, a ``budget``
            with the Ray backend, checkpointed tasks that may run at once in one tree).

    Leaving the ``async with`` block before every outcome was delivered cancels the tasks
    still running, and their CLIs' process groups end with them. An exception raised in
    the block, or by ``on_progress``, comes out of it as itself.

    Example::

        tasks = [Task(prompt=f"Fix {test}", repo=".") for test in failing]
        async with Fleet(tasks, limit=8, isolation=["worktree"]) as fleet:
            async for outcome in fleet:
                print(outcome.task.id, "ok" if outcome.ok else outcome.error)
        print(fleet.summary())
    """

    def __init__(
        self,
        tasks: Iterable[Task | str],
        *,
        options: AgentOptions | None = None,
        limit: int = 4,
        stagger: float = 0.075,
        isolation: Iterable[Isolation] = (),
        retry: RetryPolicy | None = None,
        keep_events: bool = False,
        keep_worktrees: bool = False,
        config_seed: str | Path | None = None,
        on_progress: Callable[[Progress], object] | None = None,
        backend: Backend | None = None,
        budget: Budget | None = None,
    ) -> None:
        isolation = frozenset(isolation)
        if not isolation <= _ISOLATIONS:
            unknown = ", ".join(sorted(map(repr, isolation - _ISOLATIONS)))
            raise AgentConfigError(f"unknown isolation {unknown}: use 'config' and/or 'worktree'")
        check_count("Fleet", "limit", limit, example=4)
        check_seconds("Fleet", "stagger", stagger, example=0.075)
        self.tasks = _named(tasks, options, worktrees="worktree" in isolation)
        self.limit = int(limit)  # numpy.int64 too: anyio takes only an int
        check_shared_trees(self.tasks, self.limit, worktrees="worktree" in isolation)
        self.stagger = stagger
        self.settings = TaskSettings(
            isolation=isolation,
            retry=retry or NO_RETRY,
            keep_events=keep_events,
            keep_worktrees=keep_worktrees,
            config_seed=str(config_seed) if config_seed is not None else None,
        )
        self.on_progress = on_progress
        self.backend: Backend = backend or LocalBackend()
        self.budget = budget
        self._spending = _fleet_spending(budget, self.backend)
        self.outcomes: list[TaskOutcome] = []
        """The outcomes so far, in the order the tasks ended."""
        self._state = _State.NEW
        self._started_at = 0.0
        self._ended_at: float | None = None
        self._last_start = -math.inf
        self._start_lock: anyio.Lock | None = None
        self._group: TaskGroup | None = None
        self._send: MemoryObjectSendStream[TaskOutcome] | None = None
        self._receive: MemoryObjectReceiveStream[TaskOutcome] | None = None
        self._callback_error: Exception | None = None  # what on_progress raised

    # --- lifetime -------------------------------------------------------------------
    async def __aenter__(self) -> Fleet:
        if self._state is not _State.NEW:
            raise AgentUsageError("a Fleet runs once: make a new one to run its tasks again")
        # What fleets killed before their cleanup left: credentials, worktrees (docs/fleet.md).
        await sweep_stale()
        # Unbounded: a task's outcome is never held up by a consumer that reads slowly.
        self._send, self._receive = anyio.create_memory_object_stream[TaskOutcome](math.inf)
        self._start_lock = anyio.Lock()
        self._group = anyio.create_task_group()
        await self._group.__aenter__()
        self._state = _State.RUNNING
        self._started_at = time.monotonic()
        self._group.start_soon(self._run_all)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        assert self._group is not None
        assert self._receive is not None
        if self._state is not _State.DONE:
            self._group.cancel_scope.cancel()  # left early: the rest is not wanted
        try:
            # Not given the block's exception: a task group would wrap it in an exception
            # group, and the caller's own error must come out as itself. No task raises:
            # each ends in an outcome (_run_one).
            await self._group.__aexit__(None, None, None)
        finally:
            self._receive.close()
            self._state = _State.CLOSED
            if self._ended_at is None:
                self._ended_at = time.monotonic()
        cancelled = exc is not None and isinstance(exc, anyio.get_cancelled_exc_class())
        if self._callback_error is not None and (exc is None or cancelled):
            # The cancellation, if any, was the fleet's own, to end it (_report).
            raise self._callback_error from None
        return None

    def __aiter__(self) -> Fleet:
        return self

    async def __anext__(self) -> TaskOutcome:
        """The next outcome, as its task ends."""
        if self._receive is None or self._state is _State.CLOSED:
            raise AgentUsageError("iterate a Fleet inside `async with Fleet(...) as fleet`")
        try:
            return await self._receive.receive()
        except anyio.EndOfStream:
            self._state = _State.DONE
            raise StopAsyncIteration from None

    async def wait(self) -> FleetSummary:
        """Wait for every task to end; the fleet's summary."""
        async for _ in self:
            pass
        return self.summary()

    def summary(self) -> FleetSummary:
        """The summary of the outcomes so far (all of them once the fleet ended)."""
        end = self._ended_at if self._ended_at is not None else time.monotonic()
        wall = end - self._started_at if self._started_at else 0.0
        return summarize(self.outcomes, tasks=len(self.tasks), wall_time=wall)

    # --- scheduling -----------------------------------------------------------------
    async def _run_all(self) -> None:
        assert self._send is not None
        limiter = anyio.CapacityLimiter(self.limit)
        async with self._send, anyio.create_task_group() as group:
            for task in self.tasks:
                group.start_soon(self._run_one, task, limiter)
        self._ended_at = time.monotonic()

    async def _run_one(self, task: Task, limiter: anyio.CapacityLimiter) -> None:
        assert self._send is not None
        async with limiter:
            try:
                outcome: TaskOutcome
                if self._spending is not None:
                    # The fleet's budget is counted here, by the local backend's runner.
                    assert isinstance(self.backend, LocalBackend)  # _fleet_spending
                    outcome = await run_task(
                        task,
                        self.settings,
                        report=self._report,
                        before_start=self._before_start,
                        transport=self.backend.transport,
                        spending=self._spending,
                    )
                else:
                    outcome = await self.backend.run_task(
                        task, self.settings, report=self._report, before_start=self._before_start
                    )
            except AgentError as error:  # its isolation could not be made: no run started
                outcome = TaskFailed(task=task, error=error, attempts=0)
            except Exception as error:  # a bug: this task fails, the others go on
                outcome = TaskFailed(task=task, error=_unexpected(task, error), attempts=0)
        self.outcomes.append(outcome)
        self._report(TaskFinished(outcome))
        await self._send.send(outcome)

    async def _before_start(self) -> None:
        # Held through the sleep on purpose: starts are taken one at a time, each at
        # least `stagger` after the previous one really began (a slot planned ahead
        # could come closer to the next when a loaded machine wakes a sleeper late).
        assert self._start_lock is not None
        async with self._start_lock:
            wait = self._last_start + self.stagger - anyio.current_time()
            if wait > 0:
                await anyio.sleep(wait)
            self._last_start = anyio.current_time()

    def _report(self, progress: Progress) -> None:
        if self.on_progress is None or self._callback_error is not None:
            return
        try:
            self.on_progress(progress)
        except Exception as error:
            # The caller's own error, not the task's: it ends the fleet, and comes out
            # of `async with` as itself (__aexit__).
            self._callback_error = error
            assert self._group is not None
            self._group.cancel_scope.cancel()


def _fleet_spending(budget: object, backend: Backend) -> Spending | None:
    """The counts of a fleet's budget, shared by its runs in this process."""
    if budget is None:
        return None
    if not isinstance(budget, Budget):
        raise AgentConfigError(
            f"Fleet(budget=...) must be a Budget, not {type(budget).__name__}",
            hint="e.g. Fleet(tasks, budget=Budget(tool_calls=100))",
        )
    if not isinstance(backend, LocalBackend):
        raise AgentConfigError(
            "Fleet(budget=...) is counted in this process, as the events arrive: it needs "
            f"the local backend, not {type(backend).__name__}",
            hint="give each task its own AgentOptions(budget=...), which its worker counts",
        )
    return Spending(budget, "fleet")


def _unexpected(task: Task, error: Exception) -> AgentError:
    """The failure of a task that raised what no run raises (a bug, here or in a
    backend): an :class:`AgentError` caused by it, cleared of the task's secrets."""
    redaction = redaction_of(task.options or AgentOptions(), os.environ)
    failure = AgentError(
        f"task {task.id!r} failed: {type(error).__name__}: {error}",
        hint="a bug in agent_sdk or in the fleet's backend: please report it with the "
        "traceback of outcome.error.__cause__",
    )
    failure.__cause__ = error
    return redaction.error(failure)


def _named(
    tasks: Iterable[Task | str], options: AgentOptions | None, *, worktrees: bool
) -> list[Task]:
    """The tasks, each with an id and options, checked."""
    named: list[Task] = []
    seen: set[str] = set()
    chats: dict[str, str] = {}  # the new_session_id of each task that has one
    for index, task in enumerate(tasks, 1):
        if isinstance(task, str):
            task = Task(prompt=task)
        elif not isinstance(task, Task):
            raise AgentConfigError(f"task {index} is a {type(task).__name__}: give a Task or a str")
        if not task.id or task.options is None:
            task = msgspec.structs.replace(
                task, id=task.id or f"task-{index}", options=task.options or options
            )
        if task.id in seen:
            raise AgentConfigError(f"two tasks have the id {task.id!r}: task ids must be unique")
        if worktrees and task.repo is None:
            raise AgentConfigError(
                f"task {task.id!r} has no repo: isolation 'worktree' needs Task(repo=...)"
            )
        chosen = task.options.new_session_id if task.options is not None else None
        if chosen is not None and chats.setdefault(chosen, task.id) != task.id:
            raise AgentConfigError(
                f"tasks {chats[chosen]!r} and {task.id!r} have the same new_session_id "
                f"{chosen!r}: an id chosen up front is single use",
                hint="give each task its own, in its Task(options=...) "
                "(agent_sdk.new_session_id()), or none in the fleet's options",
            )
        seen.add(task.id)
        named.append(task)
    return named
