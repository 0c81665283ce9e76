"""The checks of the fleet's numbers (``Fleet(limit=..., stagger=...)``, ``RetryPolicy``),
made when the value is built, as ``AgentOptions``' are: a value that would fail later
(``nan`` attempts retry for ever, an ``inf`` backoff waits nothing) is an
:class:`~agent_sdk.AgentConfigError` naming the argument, the value and the fix. Also the
check of checkpointed tasks that would share a working tree.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeGuard

from .._options.checks import a_value
from ..errors import AgentConfigError

if TYPE_CHECKING:
    from ._types import Task

__all__ = ["check_count", "check_fraction", "check_seconds", "check_shared_trees"]


def check_count(owner: str, name: str, value: object, *, example: int) -> None:
    """``value`` is a whole number >= 1 (an int, not a bool)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and int(value) >= 1:
        return
    raise _refused(owner, name, value, "a whole number >= 1 (an int)", f"{example}", int)


def check_seconds(owner: str, name: str, value: object, *, example: float) -> None:
    """``value`` is a finite number of seconds >= 0 (an int or a float, not a bool)."""
    if _real(value) and math.isfinite(value) and value >= 0:
        return
    expected = "a number of seconds >= 0 (an int or a float, finite)"
    raise _refused(owner, name, value, expected, f"{example}", float)


def check_fraction(owner: str, name: str, value: object, *, example: float) -> None:
    """``value`` is a number from 0 to 1 (an int or a float, not a bool)."""
    if _real(value) and 0 <= value <= 1:
        return
    raise _refused(owner, name, value, "a number from 0 to 1", f"{example}", float)


def _real(value: object) -> TypeGuard[float]:
    # An int, a float, numpy's numbers, a Fraction; not a bool (True is no count).
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _refused(
    owner: str, name: str, value: object, expected: str, example: str, kind: type
) -> AgentConfigError:
    if _real(value):
        problem = f"{name} must be {expected}, got {value!r}"  # out of range, nan, inf
    else:
        problem = f"{name} must be {expected}, not {a_value(value)}"
    if isinstance(value, str):
        hint = f"convert it first, e.g. {owner}({name}={kind.__name__}({value!r}))"
    else:
        hint = f"e.g. {owner}({name}={example})"
    shown = repr(value)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return AgentConfigError(f"{owner}({name}={shown}): {problem}", hint=hint)


def check_shared_trees(tasks: Sequence[Task], limit: int, *, worktrees: bool) -> None:
    """Checkpointed tasks that may run at once in one working tree are refused: each
    checkpoint would count the other's changes as its own, and a rewind of one would undo
    both (docs/sessions.md, "Checkpointed runs").

    The tree of a task is the nearest directory holding ``.git`` above where it runs
    (its ``repo``, else its options' ``workspace`` or ``cwd``, else the current
    directory), as git finds it.

    Raises:
        AgentConfigError: two such tasks, ``limit`` over 1 and no worktree isolation.
    """
    if worktrees or limit < 2:
        return
    seen: dict[Path, str] = {}
    for task in tasks:
        if task.options is None or not task.options.checkpoint:
            continue
        from .._run.checkpointed import tree_of  # only a fleet of checkpointed tasks pays it

        root = _tree_root(task.repo if task.repo is not None else tree_of(task.options))
        other = seen.setdefault(root, task.id)
        if other != task.id:
            raise AgentConfigError(
                f"tasks {other!r} and {task.id!r} are checkpointed in one working tree "
                f"({str(root)!r}) and may run at once (limit={limit}): each checkpoint would "
                "count the other's changes as its own, and a rewind would undo both",
                hint="run them one at a time (Fleet(limit=1)), each in a worktree of its own "
                "(isolation=['worktree']), or in different repositories",
            )


def _tree_root(directory: str) -> Path:
    """The nearest directory at or above ``directory`` that holds ``.git`` (``directory``
    itself when none does: its checkpoint will fail, saying why)."""
    start = Path(os.path.expanduser(directory)).resolve()
    for place in (start, *start.parents):
        if os.path.lexists(place / ".git"):
            return place
    return start
