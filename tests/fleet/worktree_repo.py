"""The repository a worktree test works on (docs/fleet.md, "Isolation"): the fixtures
``repo`` (on ``main``, with text, binary and ignored-pattern files, one commit) and
``trees`` (where the tests' worktrees are made), what ``git worktree list`` knows, and
``agent_works``: every kind of change an agent might leave.

Real git, on a repository made for each test (conftest.py isolates it from the machine's
configuration). Shared by test_worktree_changes.py and test_worktree_lifecycle.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import git

BINARY = bytes(range(256)) * 4  # has NUL bytes: git calls it binary


@pytest.fixture(name="repo")
def repo_fixture(tmp_path: Path) -> Path:
    """A repository on ``main`` with text, binary and ignored-pattern files, one commit."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q")
    git(path, "checkout", "-q", "-b", "main")
    (path / "a.txt").write_text("one\n")
    (path / "b.txt").write_text("two\n")
    (path / "data.bin").write_bytes(BINARY)
    (path / ".gitignore").write_text("*.log\n")
    (path / "tracked.log").write_text("tracked, though its pattern is ignored\n")
    (path / "sub").mkdir()
    (path / "sub" / "c.txt").write_text("three\n")
    git(path, "add", "-A")
    git(path, "add", "-f", "tracked.log")
    git(path, "commit", "-q", "-m", "base")
    return path


@pytest.fixture(name="trees")
def trees_fixture(tmp_path: Path) -> Path:
    """Where the tests' worktrees are made (``parent=``), to see that nothing stays."""
    path = tmp_path / "trees"
    path.mkdir()
    return path


def listed(repo: Path) -> list[str]:
    """The worktree paths ``git worktree list`` knows, the main checkout first."""
    out = git(repo, "worktree", "list", "--porcelain")
    return [line.split(" ", 1)[1] for line in out.splitlines() if line.startswith("worktree ")]


def nothing_in(path: Path) -> bool:
    return not any(path.iterdir())


def agent_works(tree: Path) -> None:
    """What an agent might leave: every kind of change, one of them committed."""
    (tree / "a.txt").write_text("one\nchanged\n")
    (tree / "b.txt").unlink()
    (tree / "data.bin").write_bytes(BINARY[::-1])
    (tree / "new.txt").write_text("untracked\n")
    (tree / "debug.log").write_text("ignored\n")
    (tree / "tracked.log").write_text("edited\n")
    (tree / "staged.txt").write_text("staged by the agent\n")
    git(tree, "add", "staged.txt")
    (tree / "sub" / "c.txt").rename(tree / "sub" / "moved.txt")
    (tree / "committed.txt").write_text("made and committed\n")
    git(tree, "add", "committed.txt")
    git(tree, "commit", "-q", "-m", "agent's commit")
