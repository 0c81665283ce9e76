"""What changed in a working tree: :class:`Changes`, the one value both a fleet task's
worktree (docs/fleet.md, Isolation) and a checkpoint (docs/sessions.md, Checkpoints)
return for it.
"""

from __future__ import annotations

import msgspec

__all__ = ["Changes"]


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
