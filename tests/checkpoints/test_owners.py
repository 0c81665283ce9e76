"""Who works in a tree (docs/sessions.md, "Checkpoints"): two runs in one tree, a run
killed while it holds the tree, an owner killed mid-snapshot (at each step, and at any
point). Real git, real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from checkpoint_trees import CHECKPOINT, child, files, in_tree, left_in, user_state
from gitrepo import git

from agent_sdk import AgentCheckpointError, checkpoints
from agent_sdk.checkpoints import _git as _checkpoint_git

pytestmark = pytest.mark.anyio


# --- two runs in one tree ----------------------------------------------------------------
HOLD = """
import sys, anyio
from agent_sdk import checkpoints
async def main():
    async with checkpoints.running(sys.argv[1], label="the other run"):
        print("holding", flush=True)
        sys.stdin.readline()
anyio.run(main, backend=sys.argv[2])
"""


def hold_in_a_child(repo: Path, backend: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(repo), backend],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == "holding\n"
    return proc


async def test_two_runs_in_one_tree(repo: Path, anyio_backend: str) -> None:
    first = await checkpoints.checkpoint(repo, label="first")
    async with checkpoints.running(repo, label="first"):
        second = await checkpoints.checkpoint(repo, label="second")
        async with checkpoints.running(repo, label="second"):
            (repo / "first.txt").write_text("the first run's\n")
            (repo / "second.txt").write_text("the second run's\n")
        with pytest.raises(AgentCheckpointError, match=r"run by pid \d+ \(first\)"):
            await checkpoints.rewind(second, force=True)
    other = hold_in_a_child(repo, anyio_backend)
    try:
        with pytest.raises(AgentCheckpointError, match="the other run") as caught:
            await checkpoints.rewind(first, force=True)
        assert f"pid {other.pid}" in str(caught.value)
    finally:
        other.communicate("\n", timeout=60)
    second = await checkpoints.finish(second)
    first = await checkpoints.finish(first)
    # One tree, one snapshot: the first run's checkpoint sees the second run's files.
    assert (await checkpoints.changes(first)).added == ("first.txt", "second.txt")
    assert (await checkpoints.changes(second)).added == ("first.txt", "second.txt")
    assert (await checkpoints.rewind(second)).removed == ("first.txt", "second.txt")


async def test_a_run_killed_in_a_tree_holds_it_no_more(repo: Path, anyio_backend: str) -> None:
    cp = await checkpoints.checkpoint(repo)
    (repo / "a.txt").write_text("x\n")
    cp = await checkpoints.finish(cp)
    other = hold_in_a_child(repo, anyio_backend)
    with pytest.raises(AgentCheckpointError, match="a run is in progress"):
        await checkpoints.rewind(cp)
    other.kill()
    other.communicate(timeout=60)
    assert (await checkpoints.rewind(cp)).restored == ("a.txt",)
    assert os.listdir(repo / ".git" / "agent-sdk" / "runs") == []  # its file went too


# --- the owner killed mid-snapshot --------------------------------------------------------
DIE_AT = """
import os, signal, sys, anyio
from agent_sdk import checkpoints
from agent_sdk.checkpoints import _git as _checkpoint_git
where, backend, step, when = sys.argv[1:5]
real = _checkpoint_git.run_git
async def dying(cwd, args, env=None, **kw):
    if args[0] == step and when == "before":
        os.kill(os.getpid(), signal.SIGKILL)
    done = await real(cwd, args, env, **kw)
    if args[0] == step:
        os.kill(os.getpid(), signal.SIGKILL)
    return done
_checkpoint_git.run_git = dying
anyio.run(checkpoints.checkpoint, where, backend=backend)
"""


def after_death(repo: Path) -> None:
    """What a dead owner may leave in the repository: objects no ref reaches."""
    assert git(repo, "for-each-ref", "refs/agent-sdk") == ""
    assert git(repo, "fsck", "--no-dangling", "--no-progress") == ""
    assert [str(p) for p in (repo / ".git").rglob("*.lock") if p.name != "tree.lock"] == []


@pytest.mark.parametrize(
    ("step", "when"),
    [("add", "before"), ("add", "after"), ("commit-tree", "after"), ("update-ref", "before")],
)
async def test_the_owner_killed_mid_snapshot_leaves_nothing_half_written(
    repo: Path, temp_dir: Path, anyio_backend: str, step: str, when: str
) -> None:
    (repo / "new.txt").write_text("a file to hash\n")
    state, tree = user_state(repo), files(repo)
    done = child(DIE_AT, str(repo), anyio_backend, step, when)
    assert done.returncode == -signal.SIGKILL, done.stderr
    after_death(repo)
    assert (user_state(repo), files(repo)) == (state, tree)
    assert await checkpoints.list_checkpoints(repo) == []
    # Killed in the snapshot: its scratch directory stays, with its temporary index.
    assert len(left_in(temp_dir)) == (1 if step == "add" else 0)
    _checkpoint_git._sweep_once.cache_clear()  # as in a new process
    await checkpoints.checkpoint(repo)
    assert left_in(temp_dir) == []  # a dead owner's scratch directory is swept


def many_files(repo: Path) -> None:
    for i in range(40):
        (repo / f"d{i}").mkdir()
        for j in range(50):
            (repo / f"d{i}" / f"{j}.txt").write_text(f"{i} {j}\n" * 20)


def kill_once_it_works(repo: Path, temp_dir: Path, backend: str) -> None:
    proc = subprocess.Popen([sys.executable, "-c", CHECKPOINT, str(repo), backend])
    while not left_in(temp_dir) and proc.poll() is None:
        time.sleep(0.001)
    proc.kill()
    proc.wait(timeout=60)


async def test_the_owner_killed_at_any_point_leaves_nothing_half_written(
    repo: Path, temp_dir: Path, anyio_backend: str
) -> None:
    # Killed once it made its scratch directory: most often while git add hashes 2,000
    # new files; wherever it was, there is a whole checkpoint or none.
    many_files(repo)
    state = user_state(repo)
    kill_once_it_works(repo, temp_dir, anyio_backend)
    listed = await checkpoints.list_checkpoints(repo)
    if listed:
        assert len(in_tree(repo, listed[0].before)) > 2000
        for cp in listed:
            await checkpoints.remove_checkpoint(cp)
    after_death(repo)
    assert user_state(repo) == state
