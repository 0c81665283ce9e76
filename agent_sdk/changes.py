"""What changed in a working tree: :class:`Changes`, the one value both a fleet task's
worktree (docs/fleet.md, Isolation) and a checkpoint (docs/sessions.md, Checkpoints)
return for it; and :class:`Checkpoint`, the snapshot a checkpoint's changes are measured
from (public as ``agent_sdk.checkpoints.Checkpoint``).

Both are values only: a run's result and an error name their types, and must not load
the machinery that makes them (``agent_sdk.checkpoints``, loaded only when asked for).
"""

from __future__ import annotations

from datetime import datetime

import msgspec

__all__ = ["Changes", "Checkpoint"]


class Changes(msgspec.Struct, frozen=True, kw_only=True):
    """What changed in a working tree, against a commit: the one a fleet task's worktree
    was made from, or a checkpoint's snapshot of the tree before a run.

    Attributes:
        diff: the unified diff of every change (for a worktree, commits the task made and
            files changed, added or deleted but not committed), binary files named only
            (``Binary files ... differ``).
        added: paths added, relative to the repository's root.
        modified: paths modified.
        deleted: paths deleted.
        base: the commit the changes are against (a full sha).
        worktree: where a fleet task's worktree is, when it was kept
            (``keep_worktrees=True``); ``None`` once it was removed, and for a checkpoint.

    Example::

        for path in changes.files:
            print(path)
    """

    diff: str
    added: tuple[str, ...] = ()
    modified: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    base: str = ""
    worktree: str | None = None

    @property
    def files(self) -> tuple[str, ...]:
        """Every path changed, sorted."""
        return tuple(sorted((*self.added, *self.modified, *self.deleted)))


REF_PREFIX = "refs/agent-sdk/checkpoints/"
"""Where a checkpoint's ref is: ``refs/agent-sdk/checkpoints/<id>``."""


class Checkpoint(msgspec.Struct, frozen=True, kw_only=True):
    """A snapshot of a working tree before a run, and optionally after it.

    Attributes:
        id: its name, unique in the repository (``20261128-101500-3fa9c2``: UTC time,
            then random); its ref is ``refs/agent-sdk/checkpoints/<id>``.
        root: the working tree's root (a linked worktree's own).
        cwd: the directory it was asked for (``root`` or below).
        before: the commit holding the tree before the run (a full sha).
        after: the commit holding the tree after it, once :func:`finish` made it.
        head: the HEAD commit at the time (``None`` before a repository's first commit);
            ``before``'s parent.
        created: when it was made (UTC).
        finished: when :func:`finish` made ``after``.
        label: what the caller called it (the run's prompt, a session id...).
    """

    id: str
    root: str
    cwd: str
    before: str
    after: str | None = None
    head: str | None = None
    created: datetime
    finished: datetime | None = None
    label: str | None = None

    @property
    def ref(self) -> str:
        """Its ref in the repository: ``refs/agent-sdk/checkpoints/<id>``."""
        return REF_PREFIX + self.id
