"""What a task's git worktree reports it changed (docs/fleet.md, "Isolation"): every kind
of change the agent left, committed or not, as added, modified and deleted files and a
diff, without touching the user's checkout, index or refs; nothing changed as an empty
diff; a change within the index's instant seen; the base resolved once, and a repo given
as a subdirectory.

Real git, on a repository made for each test (worktree_repo.py); file work lives in sync
helpers (no blocking I/O in the async tests' own bodies).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gitrepo import git
from worktree_repo import (
    BINARY,
    agent_works,
    repo_fixture,  # noqa: F401  (the fixture ``repo``)
    trees_fixture,  # noqa: F401  (the fixture ``trees``)
)

from agent_sdk.fleet._worktree import worktree

pytestmark = pytest.mark.anyio


def user_state(repo: Path) -> tuple[object, ...]:
    return (
        git(repo, "rev-parse", "HEAD"),
        git(repo, "symbolic-ref", "HEAD"),
        git(repo, "status", "--porcelain", "--untracked-files=all", "--ignored"),
        (repo / ".git" / "index").read_bytes(),
        git(repo, "for-each-ref"),
        git(repo, "stash", "list"),
    )


def user_works(repo: Path) -> None:
    """The user's own work in progress: a staged change and an unstaged one."""
    (repo / "a.txt").write_text("user's edit\n")
    (repo / "staged.txt").write_text("staged\n")
    git(repo, "add", "staged.txt")


async def test_changes_report_everything_the_agent_left(repo: Path, trees: Path) -> None:
    user_works(repo)
    before = user_state(repo)
    sha = git(repo, "rev-parse", "HEAD").strip()
    async with worktree(repo, "main", "task-1", keep=False, parent=trees) as tree:
        assert tree.base == sha
        assert tree.cwd == tree.path
        assert (tree.path / "a.txt").read_text() == "one\n"  # the commit, not the user's edit
        agent_works(tree.path)
        status = git(tree.path, "status", "--porcelain")
        changes = await tree.changes()
        assert git(tree.path, "status", "--porcelain") == status  # its index untouched
        assert user_state(repo) == before
    assert changes.added == ("committed.txt", "new.txt", "staged.txt", "sub/moved.txt")
    assert changes.modified == ("a.txt", "data.bin", "tracked.log")
    assert changes.deleted == ("b.txt", "sub/c.txt")
    assert changes.base == sha
    assert changes.worktree is None
    assert "Binary files a/data.bin and b/data.bin differ" in changes.diff
    assert "+changed\n" in changes.diff
    assert "+made and committed\n" in changes.diff
    assert "--- a/b.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-two\n" in changes.diff
    assert "+three\n" in changes.diff  # the renamed file, as added
    assert "debug.log" not in changes.diff
    assert user_state(repo) == before
    assert git(repo, "diff", "--cached", "--name-only") == "staged.txt\n"


async def test_nothing_changed_is_an_empty_diff(repo: Path, trees: Path) -> None:
    async with worktree(repo, "HEAD", "t", keep=False, parent=trees) as tree:
        changes = await tree.changes()
    assert (changes.diff, changes.files) == ("", ())


def edit_in_the_indexs_instant(tree: Path) -> None:
    """Change data.bin as git's "racy git" check exists for: the index written in the
    instant the file was (an agent editing within a second of a checkout); same size,
    ctime not trusted, so only the index's own mtime tells git to read the content."""
    git(tree, "config", "core.trustctime", "false")
    mtime = (tree / "data.bin").stat().st_mtime_ns - 100 * 10**9
    os.utime(tree / "data.bin", ns=(mtime, mtime))
    git(tree, "add", "data.bin")  # the entry's mtime: 100 s ago; the index's: now
    index = Path(git(tree, "rev-parse", "--git-path", "index").strip())
    os.utime(tree / index, ns=(mtime, mtime))
    (tree / "data.bin").write_bytes(BINARY[::-1])
    os.utime(tree / "data.bin", ns=(mtime, mtime))


async def test_a_change_within_the_indexs_instant_is_seen(repo: Path, trees: Path) -> None:
    # The index's copy keeps its mtime: dated now, it would hide the change from git.
    async with worktree(repo, "HEAD", "t", keep=False, parent=trees) as tree:
        edit_in_the_indexs_instant(tree.path)
        changes = await tree.changes()
    assert changes.modified == ("data.bin",)


def add_feature_branch(repo: Path) -> str:
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "feature.txt").write_text("feature\n")
    git(repo, "add", "feature.txt")
    git(repo, "commit", "-q", "-m", "feature")
    git(repo, "checkout", "-q", "main")
    return git(repo, "rev-parse", "feature").strip()


async def test_base_is_resolved_once_and_repo_may_be_a_subdirectory(
    repo: Path, trees: Path
) -> None:
    feature = add_feature_branch(repo)
    async with worktree(repo / "sub", "feature", "t", keep=False, parent=trees) as tree:
        assert tree.base == feature
        assert tree.cwd == tree.path / "sub"
        assert (tree.path / "feature.txt").exists()
        assert git(tree.path, "rev-parse", "HEAD").strip() == feature
        assert git(tree.path, "rev-parse", "--abbrev-ref", "HEAD") == "HEAD\n"  # detached
        (tree.cwd / "c.txt").write_text("three\nmore\n")
        changes = await tree.changes()
    assert changes.files == ("sub/c.txt",)  # relative to the repository's root
    assert git(repo, "symbolic-ref", "HEAD").strip() == "refs/heads/main"
