"""The fleet's public values: a task, what it changed, how it ended, and its progress.

All are msgspec Structs (or exceptions that pickle), so they cross a process boundary as
they are: a Ray worker sends them back to the caller unchanged (docs/fleet.md).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from .._options.keywords import KeywordsMeta
from ..changes import Changes
from ..errors import AgentError
from ..events import Event, Usage
from ..options import AgentOptions
from ..result import RunResult

__all__ = [
    "Changes",
    "Isolation",
    "Progress",
    "Task",
    "TaskEvent",
    "TaskFailed",
    "TaskFinished",
    "TaskOutcome",
    "TaskRetrying",
    "TaskStarted",
    "TaskSucceeded",
]

Isolation = Literal["config", "worktree"]
"""What each task of a fleet gets of its own: ``"config"``, a ``CURSOR_CONFIG_DIR`` seeded
from the user's (no race on the CLI's config file); ``"worktree"``, a git worktree of its
repository (no two agents writing in one checkout)."""


class Task(msgspec.Struct, frozen=True, kw_only=True, metaclass=KeywordsMeta):
    """One job of a fleet: a prompt, its options, optionally a repository to work in.

    Attributes:
        prompt: what to ask the agent.
        id: a name for the task, unique in its fleet (``"task-1"``, ... when not given).
        options: the options of its runs (the fleet's defaults when ``None``).
        repo: a git repository to work in: with ``"worktree"`` isolation the task runs
            in a new worktree of it, made from ``base``; without, in ``repo`` itself.
        base: the ref the worktree is made from.
        output_type: a type for the reply's JSON value, as ``run_async(output_type=...)``
            takes (docs/output.md): the outcome's ``result.output`` is that value.

    Example::

        Task(prompt="Fix the failing test in tests/test_cart.py", repo="~/src/shop")
    """

    prompt: str
    id: str = ""
    options: AgentOptions | None = None
    repo: str | None = None
    base: str = "HEAD"
    output_type: Any = None


class _Ended(msgspec.Struct, frozen=True, kw_only=True):
    task: Task
    attempts: int = 1
    """How many runs it took (1 without a retry)."""
    elapsed: float = 0.0
    """Seconds from the task's first start to its end, retries and backoff included."""
    tool_calls: int = 0
    """Tool calls over every attempt."""
    usage: Usage | None = None
    """Tokens over every attempt, when the CLI reported them."""
    changes: Changes | None = None
    """What it changed: with ``"worktree"`` isolation, in its worktree; else, with
    ``AgentOptions(checkpoint=True)``, since its checkpoint (``result.checkpoint``, or
    its error's: docs/sessions.md)."""


class TaskSucceeded(_Ended, frozen=True, kw_only=True):
    """A task whose last run succeeded: its :class:`~agent_sdk.RunResult`."""

    result: RunResult[Any]

    @property
    def ok(self) -> Literal[True]:
        return True


class TaskFailed(_Ended, frozen=True, kw_only=True):
    """A task that failed for good: the :class:`~agent_sdk.AgentError` of its last run
    (every retry was spent, or the failure was not one to retry). A task that raised
    anything else (a bug) fails too, with ``attempts=0`` and an ``AgentError`` whose
    ``__cause__`` is what it raised: the fleet's other tasks go on (docs/fleet.md)."""

    error: AgentError

    @property
    def ok(self) -> Literal[False]:
        return False


TaskOutcome = TaskSucceeded | TaskFailed
"""How a task ended; ``outcome.ok`` tells which."""


# --- progress: what a display follows while the fleet runs ---------------------------
class TaskStarted(msgspec.Struct, frozen=True):
    """A run of a task started (``attempt`` 1, or a retry)."""

    task_id: str
    attempt: int


class TaskEvent(msgspec.Struct, frozen=True):
    """An event of a task's run, as it streamed."""

    task_id: str
    event: Event


class TaskRetrying(msgspec.Struct, frozen=True):
    """A run failed in a way worth retrying: the next starts in ``delay`` seconds, in a
    new chat or resuming ``resume`` (the chat where work was already done)."""

    task_id: str
    attempt: int
    error: AgentError
    delay: float
    resume: str | None = None


class TaskFinished(msgspec.Struct, frozen=True):
    """A task ended: its outcome."""

    outcome: TaskOutcome


Progress = TaskStarted | TaskEvent | TaskRetrying | TaskFinished
"""What ``on_progress`` receives, in order for each task."""
