"""The sweep at a fleet's start: the directories of fleets whose process died without
removing them (killed with SIGKILL, the machine's power cut) go, with the worktrees'
entries in their repositories (docs/fleet.md, "What can remain, and when it goes").
Who owns a directory, and whether it is gone, is ``_transport/owner.py``'s.
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import anyio

from .._transport.log import INFO, log
from .._transport.owner import stale_dirs
from ..errors import AgentError
from ._isolation import remove_tree
from ._worktree import _git, _repo_lock

__all__ = ["sweep_stale"]

_GIT_LIMIT = 60.0  # seconds the sweep's git commands may take, all together


async def sweep_stale(parent: str | Path | None = None) -> list[Path]:
    """Remove the directories of dead owners in ``parent`` (default: the system's temp
    dir, where the fleet makes them); the ones removed. Never raises: what cannot be
    removed stays for the next sweep. Shielded, so a cancellation never cuts it short.
    """
    where = Path(parent) if parent is not None else Path(tempfile.gettempdir())
    with anyio.CancelScope(shield=True) as scope:
        scope.deadline = anyio.current_time() + _GIT_LIMIT
        stale = await anyio.to_thread.run_sync(stale_dirs, where)
        for directory, owner in stale:
            log("fleet", INFO, "removing %s, left by dead process %d", directory, owner.pid)
            if owner.repo is not None:
                await _drop_worktrees(Path(owner.repo), directory)
            await anyio.to_thread.run_sync(remove_tree, directory)
    return [directory for directory, _ in stale]


async def _drop_worktrees(repo: Path, directory: Path) -> None:
    """Remove the worktrees in ``directory`` and their entries in ``repo`` (a common git
    dir): ``git worktree remove``, else the files and then ``git worktree prune``."""
    lock = _repo_lock(str(repo))
    trees = await anyio.to_thread.run_sync(_worktrees_in, directory)
    async with lock:
        for tree in trees:
            with contextlib.suppress(AgentError):
                done = await _git(repo, ["worktree", "remove", "--force", "--force", str(tree)])
                if done.returncode:
                    await anyio.to_thread.run_sync(remove_tree, tree)
                    await _git(repo, ["worktree", "prune"])


def _worktrees_in(directory: Path) -> list[Path]:
    """The worktrees in ``directory`` (not the index copies, not the marker)."""
    try:
        return sorted(tree for tree in directory.iterdir() if (tree / ".git").exists())
    except OSError:  # gone already: another fleet swept it
        return []
