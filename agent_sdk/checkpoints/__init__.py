"""Checkpoints of a git working tree (docs/sessions.md, "Checkpoints"): a snapshot before a
run, what the run changed, and a rewind that puts those files back.

A snapshot is a commit of the tree as it is (tracked changes and untracked files,
``.gitignore`` honoured) under a private ref, ``refs/agent-sdk/checkpoints/<id>``, made with
a temporary index: the user's index, branches, stash and working files are not touched.
Nothing here loads with ``import agent_sdk``, and nothing is done unless asked.

Example::

    from agent_sdk import checkpoints

    cp = await checkpoints.checkpoint("~/src/shop", label="fix the cart")
    async with checkpoints.running(cp.root):
        ...  # the run, in that tree
    cp = await checkpoints.finish(cp)
    print((await checkpoints.changes(cp)).files)
    await checkpoints.rewind(cp)  # the tree as it was before the run
    await checkpoints.remove_checkpoint(cp)
"""

from ..changes import Changes, Checkpoint
from ._checkpoints import (
    changes,
    checkpoint,
    finish,
    list_checkpoints,
    prune,
    remove_checkpoint,
    rewind,
    running,
)
from ._rewind import RewindResult

__all__ = [
    "Changes",
    "Checkpoint",
    "RewindResult",
    "changes",
    "checkpoint",
    "finish",
    "list_checkpoints",
    "prune",
    "remove_checkpoint",
    "rewind",
    "running",
]
