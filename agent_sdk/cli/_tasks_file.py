"""The tasks file of ``agent-sdk batch`` (``TASKS.jsonl``): each line a task, checked
whole before anything runs (docs/cli.md, "agent-sdk batch")."""

from __future__ import annotations

import os
from typing import Any

import msgspec

from .._wire.fallback import TOO_DEEP
from ..fleet import Task
from ..options import AgentOptions
from ._budget_arg import budget_of

__all__ = ["TasksError", "read_tasks"]


class _Line(msgspec.Struct, forbid_unknown_fields=True):
    prompt: str
    id: str = ""
    repo: str | None = None
    base: str = "HEAD"
    options: dict[str, Any] = msgspec.field(default_factory=dict)


# Options a tasks file cannot hold: functions of the program (docs/extend.md).
_PYTHON_ONLY = frozenset({"tools", "hooks"})


class TasksError(ValueError):
    """A tasks file that cannot be run; ``str()`` names the line."""


def read_tasks(
    text: str,
    defaults: dict[str, Any],
    *,
    worktrees: bool = False,
    name: str = "TASKS",
    budgets: dict[str, str] | None = None,
) -> list[Task]:
    """The tasks of a TASKS.jsonl text, their options ``defaults`` overlaid with theirs.

    ``budgets``, when given, gets where each task whose line sets ``options.budget`` has
    it, by task id (``options.budget of task 'x' (NAME line 3)``): a spent budget is
    raised there, not with ``--budget`` (:func:`~agent_sdk.cli.hints.message_and_hint`).

    Raises:
        TasksError: a line is not a task (the message names it and says why).
    """
    tasks: list[Task] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        where = f"{name} line {number}"
        try:
            line = msgspec.json.decode(raw, type=_Line)
        except msgspec.ValidationError as exc:
            raise TasksError(f"{where}: {exc}") from None
        except msgspec.DecodeError as exc:
            raise TasksError(f"{where}: not a JSON object ({exc})") from None
        except RecursionError:  # msgspec's own limit, whatever Python's is
            raise TasksError(f"{where}: {TOO_DEEP}: write its values less deeply nested") from None
        if not line.prompt.strip():
            raise TasksError(f"{where}: the prompt is empty")
        given = {**defaults, **line.options}
        if "env" in defaults and isinstance(line.options.get("env"), dict):
            given["env"] = {**defaults["env"], **line.options["env"]}
        if python := sorted(_PYTHON_ONLY.intersection(line.options)):
            raise TasksError(
                f"{where}: options: {python[0]} are Python functions, which a tasks file "
                "cannot give: run these tasks from Python (agent_sdk.Fleet, docs/extend.md)"
            )
        if "budget" in line.options and line.options["budget"] is not None:
            try:
                given["budget"] = budget_of(line.options["budget"])
            except ValueError as exc:
                raise TasksError(f"{where}: options: budget: {exc}") from None
        try:
            options = AgentOptions(**given)
        except (ValueError, TypeError) as exc:  # AgentConfigError is both
            raise TasksError(f"{where}: options: {str(exc).splitlines()[0]}") from None
        task_id = line.id or f"task-{number}"
        if task_id in seen:
            raise TasksError(f"{where}: the id {task_id!r} is already line {seen[task_id]}'s")
        seen[task_id] = number
        if budgets is not None and line.options.get("budget") is not None:
            budgets[task_id] = f"options.budget of task {task_id!r} ({where})"
        if worktrees and line.repo is None:
            raise TasksError(f'{where}: --isolate worktree needs a "repo"')
        repo = os.path.expanduser(line.repo) if line.repo is not None else None
        tasks.append(
            Task(prompt=line.prompt, id=task_id, options=options, repo=repo, base=line.base)
        )
    if not tasks:
        raise TasksError(f"{name} holds no task")
    return tasks
