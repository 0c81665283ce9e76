"""One task of a fleet, from its isolation to its outcome: the runs, the retries, the
resumed chat, what it changed. The same code runs in the caller's process and on a Ray
worker (docs/fleet.md): it needs nothing of the fleet but its settings and two callbacks.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import msgspec

from .._run.run import run
from .._run.spending import Spending
from .._run.structured import output_run
from .._transport.base import Transport
from .._transport.log import INFO, log
from ..errors import AgentCheckpointError, AgentError
from ..events import AssistantEvent, ResultEvent, ToolCallStarted, Usage
from ..options import AgentOptions
from ..result import RunResult
from ._isolation import isolated_config
from ._retry import NO_RETRY, RetryPolicy
from ._summary import total_usage
from ._types import (
    Changes,
    Isolation,
    Progress,
    Task,
    TaskEvent,
    TaskFailed,
    TaskOutcome,
    TaskRetrying,
    TaskStarted,
    TaskSucceeded,
)
from ._worktree import worktree

if TYPE_CHECKING:
    from .._run.checkpointed import Checkpointed
    from .._run.trace import TaskSpan

__all__ = ["TaskSettings", "TransportFactory", "run_task"]

TransportFactory = Callable[[Task, int], "Transport | None"]
"""``(task, attempt) -> transport``: tests run a fleet on in-memory CLIs."""


class TaskSettings(msgspec.Struct, frozen=True, kw_only=True):
    """What a fleet asks of each of its tasks (it crosses to Ray workers as it is)."""

    isolation: frozenset[Isolation] = frozenset()
    retry: RetryPolicy = NO_RETRY
    keep_worktrees: bool = False
    keep_events: bool = False
    config_seed: str | None = None
    """The config dir an isolated one is seeded from (``CURSOR_CONFIG_DIR`` or
    ``~/.cursor`` when ``None``)."""


class _Tally:
    """What a task's runs did, over every attempt."""

    def __init__(self) -> None:
        self.tool_calls = 0
        self.usage: Usage | None = None
        self.session_id: str | None = None
        self.worked = False  # in the current attempt: a tool call or reply text
        self.runs = 0  # every run of the task: retries, and an output's corrections
        self.span: TaskSpan | None = None  # the task's span, when the program traces

    def count(self, event: object) -> None:
        if isinstance(event, ToolCallStarted):
            self.tool_calls += 1
            self.worked = True
        elif isinstance(event, AssistantEvent):
            self.worked = self.worked or bool(event.new_text)
        elif isinstance(event, ResultEvent) and event.usage is not None:
            self.usage = total_usage((self.usage, event.usage))
        session_id = getattr(event, "session_id", None)
        if session_id:
            self.session_id = session_id


async def run_task(
    task: Task,
    settings: TaskSettings,
    *,
    report: Callable[[Progress], object],
    before_start: Callable[[], Awaitable[None]] | None = None,
    transport: TransportFactory | None = None,
    spending: Spending | None = None,
) -> TaskOutcome:
    """Run ``task`` to its outcome: isolated as ``settings`` say, retried by its policy.

    Args:
        task: the task (its ``id`` already unique).
        settings: isolation, retries, what to keep.
        report: receives the task's progress, in order.
        before_start: awaited before each run (the fleet's staggered starts).
        transport: makes each run's transport (tests); the default spawns the CLI.
        spending: the fleet's budget, which every run counts against besides its own
            (docs/budgets.md); kept in this process, so only the local backend has one.

    Returns:
        :class:`TaskSucceeded` or :class:`TaskFailed`; a failure of the runs is an
        outcome, not an exception.

    Raises:
        AgentError: the isolation could not be made (not a git repository, unknown
            ref): the fleet's setup is wrong, not the task's run.
    """
    if "opentelemetry.trace" not in sys.modules:  # the program does not trace
        return await _run_task(task, settings, report, before_start, transport, _Tally(), spending)
    from .._options.redaction import redaction_of
    from .._run.trace import task_span

    # The task's span is current while its runs go: theirs are its children (docs/traces.md).
    with task_span(task.id, redaction_of(task.options or AgentOptions(), os.environ).text) as span:
        tally = _Tally()
        tally.span = span
        return await _run_task(task, settings, report, before_start, transport, tally, spending)


async def _run_task(
    task: Task,
    settings: TaskSettings,
    report: Callable[[Progress], object],
    before_start: Callable[[], Awaitable[None]] | None,
    transport: TransportFactory | None,
    tally: _Tally,
    spending: Spending | None,
) -> TaskOutcome:
    started = time.monotonic()
    async with contextlib.AsyncExitStack() as stack:
        options = task.options or AgentOptions()
        tree = None
        if "worktree" in settings.isolation and task.repo is not None:
            tree = await stack.enter_async_context(
                worktree(task.repo, task.base, task.id, keep=settings.keep_worktrees)
            )
            options = _in_directory(options, str(tree.path))
        elif task.repo is not None:
            options = _in_directory(options, task.repo)
        if "config" in settings.isolation:
            seed = Path(settings.config_seed) if settings.config_seed else None
            config_dir = await stack.enter_async_context(isolated_config(seed))
            env = {**(options.env or {}), "CURSOR_CONFIG_DIR": str(config_dir)}
            options = msgspec.structs.replace(options, env=env)
        if settings.keep_events:
            options = msgspec.structs.replace(options, keep_events=True)
        checkpointed = None
        if options.checkpoint:
            # One checkpoint for the task, over all its runs (retries, an output's
            # corrections); none in a worktree, whose changes are its own (docs/fleet.md).
            options = msgspec.structs.replace(options, checkpoint=False)
            if tree is None:
                from .._run.checkpointed import Checkpointed, asked_by_option, tree_of

                try:  # labelled with the task's id: `agent-sdk checkpoints` lists it by it
                    checkpointed = await Checkpointed.begin(tree_of(options), task.id)
                except AgentCheckpointError as exc:
                    raise asked_by_option(exc) from exc
                stack.push_async_callback(checkpointed.end)  # cancelled: shielded, bounded

        async def turn(prompt: str, turn_options: AgentOptions) -> RunResult[Any]:
            return await _attempts(
                task,
                prompt,
                turn_options,
                settings.retry,
                tally,
                report,
                before_start,
                transport,
                spending,
            )

        result: RunResult[Any] | None = None
        error: AgentError | None = None
        try:
            # A task's tools are served by each of its runs, as any run's (docs/extend.md,
            # "In a fleet"): nothing in its worktree, no server approved but ours.
            if task.output_type is None:
                result = await turn(task.prompt, options)
            else:  # its turns are the runs above, each retried by the policy
                result = await output_run(turn, task.prompt, options, task.output_type)
        except AgentError as failed:
            error = failed
        changes: Changes | None = await tree.changes() if tree is not None else None
        if checkpointed is not None:
            result, changes = await _checkpoint_end(checkpointed, result, error, options)
    if tally.span is not None:
        tally.span.end(
            error,
            attempts=tally.runs,
            tool_calls=tally.tool_calls,
            session_id=tally.session_id,
            usage=tally.usage,
        )
    ended: dict[str, Any] = {
        "task": task,
        "attempts": tally.runs,
        "elapsed": time.monotonic() - started,
        "tool_calls": tally.tool_calls,
        "usage": tally.usage,
        "changes": changes,
    }
    if result is not None:
        return TaskSucceeded(result=result, **ended)
    assert error is not None
    return TaskFailed(error=error, **ended)


async def _attempts(
    task: Task,
    prompt: str,
    options: AgentOptions,
    policy: RetryPolicy,
    tally: _Tally,
    report: Callable[[Progress], object],
    before_start: Callable[[], Awaitable[None]] | None,
    transport: TransportFactory | None,
    spending: Spending | None,
) -> RunResult[Any]:
    """The runs of one prompt of a task until one succeeds; the error of the last one
    when it is not to be retried."""
    attempt = 0
    while True:
        attempt += 1
        tally.runs += 1
        if before_start is not None:
            await before_start()
        report(TaskStarted(task.id, tally.runs))
        tally.worked = False
        try:
            async with run(
                prompt,
                options=options,
                transport=transport(task, tally.runs) if transport else None,
            )._share(spending, inside=True) as events:
                async for event in events:
                    tally.count(event)
                    report(TaskEvent(task.id, event))
            return events.result
        except AgentError as error:
            if not policy.retries(error, attempt):
                raise
            # Work was done in that chat: go on in it rather than start over. A chat of an
            # id chosen up front that exists cannot be started over: that id is used up.
            made = tally.session_id is not None and tally.session_id == options.new_session_id
            resume = (error.session_id or tally.session_id) if tally.worked or made else None
            delay = policy.delay(attempt)
            log(
                "fleet",
                INFO,
                "task %s: run %d failed (%s), retried in %.1f s%s",
                task.id,
                tally.runs,
                type(error).__name__,
                delay,
                ", resuming its chat" if resume is not None else "",
            )
            report(TaskRetrying(task.id, tally.runs, error, delay, resume))
            if tally.span is not None:
                tally.span.retry(tally.runs, error, delay, resume is not None)
            await anyio.sleep(delay)
            if resume is not None:
                prompt = policy.resume_prompt
                options = msgspec.structs.replace(
                    options, resume=resume, continue_session=False, new_session_id=None
                )


async def _checkpoint_end(
    checkpointed: Checkpointed,
    result: RunResult[Any] | None,
    error: AgentError | None,
    options: AgentOptions,
) -> tuple[RunResult[Any] | None, Changes | None]:
    """The task's checkpoint finished: its result, or its error, carries it."""
    await checkpointed.end()
    if result is not None:
        result = checkpointed.given_to(result)
    elif error is not None:
        from .._options.redaction import redaction_of

        checkpointed.attach(error, redaction_of(options, os.environ).text)
    return result, checkpointed.changes


def _in_directory(options: AgentOptions, directory: str) -> AgentOptions:
    """``options`` run in ``directory`` (a worktree or the task's repository)."""
    workspace = directory if options.workspace is not None else None
    return msgspec.structs.replace(options, cwd=os.fspath(directory), workspace=workspace)
