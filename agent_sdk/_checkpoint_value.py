"""The value of a checkpoint (docs/sessions.md, "Checkpoints"): :class:`Checkpoint`, public
as ``agent_sdk.checkpoints.Checkpoint``. Apart from the machinery that makes it, which
loads only with ``agent_sdk.checkpoints``: a run's result and an error name its type (a
checkpointed run's), and must not load the machinery to do so."""

from __future__ import annotations

from datetime import datetime

import msgspec

__all__ = ["REF_PREFIX", "Checkpoint"]

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
