"""Checkpoints at the edges: a change git's stat cache could hide, cancellations (a
checkpoint whole or none, a rewind that finishes its writing), odd file names. Real git;
file work lives in sync helpers."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest
from checkpoint_trees import BINARY, agent_works, files, left_in, user_state
from gitrepo import git

from agent_sdk import checkpoints
from agent_sdk.checkpoints import RewindResult
from agent_sdk.checkpoints import _git as _checkpoint_git

pytestmark = pytest.mark.anyio


# --- a change within the index's instant -------------------------------------------------
def racy(repo: Path) -> int:
    """The state git's "racy git" check exists for: a file last written in the same
    instant as the index that records it (as when an agent edits a file within a second
    of ``git add``), the index entry not smudged by git. ctime not trusted, so only the
    index's own mtime tells git to look at the content."""
    git(repo, "config", "core.trustctime", "false")
    mtime = (repo / "data.bin").stat().st_mtime_ns - 100 * 10**9
    os.utime(repo / "data.bin", ns=(mtime, mtime))
    git(repo, "add", "data.bin")  # the entry's mtime: 100 s ago; the index's: now
    os.utime(repo / ".git" / "index", ns=(mtime, mtime))
    return mtime


def edit_unseen(repo: Path, mtime: int) -> None:
    """Change data.bin, same size, same mtime: only its content tells."""
    (repo / "data.bin").write_bytes(BINARY[::-1])
    os.utime(repo / "data.bin", ns=(mtime, mtime))


async def test_a_change_within_the_indexs_instant_is_seen(repo: Path) -> None:
    mtime = racy(repo)
    cp = await checkpoints.checkpoint(repo)
    edit_unseen(repo, mtime)
    assert (await checkpoints.changes(cp)).modified == ("data.bin",)
    cp = await checkpoints.finish(cp)
    assert (await checkpoints.rewind(cp)).restored == ("data.bin",)
    assert (repo / "data.bin").read_bytes() == BINARY


# --- cancellation, odd names --------------------------------------------------------------
def cancelled_at(monkeypatch: pytest.MonkeyPatch, step: str) -> anyio.CancelScope:
    """A scope cancelled the moment the checkpoints' git is asked to run ``step``."""
    scope = anyio.CancelScope()
    real = _checkpoint_git.run_git

    async def cancelling(
        cwd: Path, args: Sequence[str], env: Mapping[str, str] | None = None, **more: Any
    ) -> subprocess.CompletedProcess[bytes]:
        if args[0] == step:
            scope.cancel()
        return await real(cwd, args, env, **more)

    monkeypatch.setattr(_checkpoint_git, "run_git", cancelling)
    return scope


@pytest.mark.parametrize("step", ["add", "write-tree", "commit-tree", "update-ref"])
async def test_a_cancelled_checkpoint_is_whole_or_none(
    repo: Path, temp_dir: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    state = user_state(repo)
    with cancelled_at(monkeypatch, step) as scope:
        await checkpoints.checkpoint(repo)
    assert scope.cancel_called
    monkeypatch.undo()
    # Cancelled while snapshotting: nothing; once writing its commit and ref: all of it.
    listed = await checkpoints.list_checkpoints(repo)
    assert len(listed) == (1 if step in ("commit-tree", "update-ref") else 0)
    assert user_state(repo) == state
    assert left_in(temp_dir) == []
    assert [p.name for p in (repo / ".git").rglob("*.lock") if p.name != "tree.lock"] == []


async def test_a_cancelled_rewind_finishes_its_writing(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = files(repo)
    cp = await checkpoints.checkpoint(repo)
    agent_works(repo)
    cp = await checkpoints.finish(cp)
    with cancelled_at(monkeypatch, "update-index") as scope:
        await checkpoints.rewind(cp)
    assert scope.cancel_called
    after = files(repo)
    assert after.pop("build.log")[0] == b"ignored, so not the checkpoint's\n"
    assert after == before


ODD = ("-rf", "ü nicode.txt", "new\nline.txt", ":(exclude)magic", "tab\tand 'quote\".txt")


def odd_names(repo: Path) -> None:
    for name in ODD:
        (repo / name).write_text(f"{name}\n")
    (repo / "-rf").write_text("changed\n")


async def test_odd_file_names(repo: Path) -> None:
    (repo / "-rf").write_text("an option's name\n")
    cp = await checkpoints.checkpoint(repo)
    odd_names(repo)
    cp = await checkpoints.finish(cp)
    changed = await checkpoints.changes(cp)
    assert changed.modified == ("-rf",)
    assert changed.added == tuple(sorted(ODD[1:]))
    result = await checkpoints.rewind(cp)
    assert result == RewindResult(restored=("-rf",), removed=tuple(sorted(ODD[1:])))
    assert (repo / "-rf").read_text() == "an option's name\n"
