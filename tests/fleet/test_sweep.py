"""The sweep of what a dead fleet left (docs/fleet.md, "What can remain, and when it
goes"): each directory names its owner (pid, start time, host); a dead owner's go, with
their worktrees' entries; a live owner's never. Real git and real processes; the killed
batch itself is tested in tests/cli/test_cli_batch_worktrees.py."""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import msgspec
import pytest
from gitrepo import git

from agent_sdk._transport.owner import MARKER, Owner, is_gone, me
from agent_sdk.fleet._isolation import isolated_config
from agent_sdk.fleet._sweep import sweep_stale
from agent_sdk.fleet._worktree import worktree

pytestmark = pytest.mark.anyio


def _dead_pid() -> int:
    """The pid of a process that has ended and been reaped."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_this_process_is_not_gone() -> None:
    assert not is_gone(me())


def test_an_ended_process_is_gone() -> None:
    assert is_gone(Owner(pid=_dead_pid(), started=None, host=socket.gethostname()))


@pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="needs /proc (Linux) to read when a process started",
)
def test_a_pid_reused_by_another_process_is_gone() -> None:
    mine = me()
    assert mine.started is not None
    reused = msgspec.structs.replace(mine, started=str(int(mine.started) + 1))
    assert is_gone(reused)


def test_an_owner_on_another_host_is_never_judged() -> None:
    assert not is_gone(Owner(pid=_dead_pid(), started=None, host=socket.gethostname() + "-x"))


def _owned_by(directory: Path, owner: Owner) -> None:
    (directory / MARKER).write_bytes(msgspec.json.encode(owner))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q")
    (path / "a.txt").write_text("one\n")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "base")
    return path


def _listed(repo: Path) -> int:
    return git(repo, "worktree", "list", "--porcelain").count("\nworktree ") + 1


async def test_a_dead_owners_worktree_goes_with_its_entry_and_the_owners_exit_still_works(
    repo: Path, tmp_path: Path
) -> None:
    trees = tmp_path / "trees"
    trees.mkdir()
    async with worktree(repo, parent=trees) as tree:
        assert _listed(repo) == 2
        dead = msgspec.structs.replace(me(), pid=_dead_pid())
        _owned_by(tree.path.parent, msgspec.structs.replace(dead, repo=str(tree.repo)))
        assert await sweep_stale(trees) == [tree.path.parent]
        assert list(trees.iterdir()) == []
        assert _listed(repo) == 1
    assert list(trees.iterdir()) == []  # the owner's own removal found nothing, and said nothing


async def test_a_live_owners_dirs_are_never_swept(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))  # where isolated_config makes it
    async with worktree(repo) as tree, isolated_config(tmp_path) as config:
        assert sorted(temp.iterdir()) == sorted([tree.path.parent, config.parent])
        assert await sweep_stale() == []
        assert (tree.path / "a.txt").exists()
        assert config.is_dir()
        assert _listed(repo) == 2


async def test_a_dir_without_a_marker_or_of_another_name_is_left_alone(tmp_path: Path) -> None:
    dead = msgspec.structs.replace(me(), pid=_dead_pid())
    unmarked = tmp_path / "agent-sdk-config-unmarked"
    other = tmp_path / "mine-config-x"
    for directory in (unmarked, other):
        directory.mkdir()
        (directory / "auth.json").write_text("{}")
    _owned_by(other, dead)
    assert await sweep_stale(tmp_path) == []
    assert (unmarked / "auth.json").exists()
    assert (other / "auth.json").exists()


async def test_a_kept_worktree_is_the_users_and_is_never_swept(repo: Path, tmp_path: Path) -> None:
    trees = tmp_path / "trees"
    trees.mkdir()
    async with worktree(repo, parent=trees, keep=True) as tree:
        pass
    assert not (tree.path.parent / MARKER).exists()
    assert await sweep_stale(trees) == []
    assert tree.path.is_dir()
