"""A task's git worktree made and removed (docs/fleet.md, "Isolation"): removed unless
kept (after an exception or a cancellation too), at a path made safe from the task's id,
eight of one repository at once (git's worktree list changed by one at a time); and a
worktree that cannot be made (no repository, no base, no git) refused with what to do.

Real git, on a repository made for each test (worktree_repo.py).
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import anyio
import pytest
from gitrepo import git
from worktree_repo import (
    agent_works,
    listed,
    nothing_in,
    repo_fixture,  # noqa: F401  (the fixture ``repo``)
    trees_fixture,  # noqa: F401  (the fixture ``trees``)
)

from agent_sdk import AgentConfigError, AgentStartError
from agent_sdk.fleet import _worktree
from agent_sdk.fleet._worktree import Worktree, worktree

pytestmark = pytest.mark.anyio


async def test_the_worktree_is_removed_unless_kept(repo: Path, trees: Path) -> None:
    async with worktree(repo, "HEAD", "gone", keep=False, parent=trees) as tree:
        assert listed(repo) == [str(repo), str(tree.path)]
    assert listed(repo) == [str(repo)]
    assert nothing_in(trees)
    async with worktree(repo, "HEAD", "kept", keep=True, parent=trees) as tree:
        (tree.path / "new.txt").write_text("new\n")
        changes = await tree.changes()
    assert changes.worktree == str(tree.path)
    assert listed(repo) == [str(repo), str(tree.path)]
    assert (tree.path / "new.txt").read_text() == "new\n"
    git(repo, "worktree", "remove", "--force", str(tree.path))


async def test_the_worktree_is_removed_after_an_exception_unless_kept(
    repo: Path, trees: Path
) -> None:
    # keep=True keeps a worktree the task worked in, whatever happened to it there.
    with pytest.raises(RuntimeError, match="boom"):
        async with worktree(repo, "HEAD", "t", keep=True, parent=trees) as tree:
            raise RuntimeError("boom")
    assert listed(repo) == [str(repo), str(tree.path)]
    git(repo, "worktree", "remove", "--force", str(tree.path))
    with pytest.raises(RuntimeError, match="boom"):
        async with worktree(repo, "HEAD", "t", keep=False, parent=trees):
            raise RuntimeError("boom")
    assert listed(repo) == [str(repo)]


async def test_the_worktree_is_removed_after_a_cancellation(repo: Path, trees: Path) -> None:
    with anyio.CancelScope() as scope:
        async with worktree(repo, "HEAD", "t", keep=False, parent=trees) as tree:
            agent_works(tree.path)
            scope.cancel()
            await anyio.sleep_forever()
    assert scope.cancelled_caught
    assert listed(repo) == [str(repo)]
    assert nothing_in(trees)


async def test_a_task_id_is_made_safe_for_the_path(repo: Path, trees: Path) -> None:
    async with worktree(repo, "HEAD", "../../x y/ü*\n", keep=False, parent=trees) as tree:
        assert tree.path.parent.parent == trees
        assert tree.path.name == "x-y"
    async with worktree(repo, "HEAD", "..", keep=False, parent=trees) as tree:
        assert tree.path.name == "task"


async def test_eight_worktrees_of_one_repo_at_once(
    repo: Path, trees: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # git run concurrently on one repository's worktree list fails ("failed to read
    # .git/worktrees/<name>/commondir"): the commands that change it take turns.
    running = {"now": 0, "most": 0}
    real_git = _worktree._git

    async def counted_git(
        cwd: Path, args: Sequence[str], env: Mapping[str, str] | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        if args[0] != "worktree":
            return await real_git(cwd, args, env)
        running["now"] += 1
        running["most"] = max(running["most"], running["now"])
        try:
            return await real_git(cwd, args, env)
        finally:
            running["now"] -= 1

    monkeypatch.setattr(_worktree, "_git", counted_git)
    found: dict[int, Worktree] = {}
    changes: dict[int, tuple[str, ...]] = {}
    all_made = anyio.Event()

    async def task(i: int) -> None:
        async with worktree(repo, "main", f"task {i}", keep=False, parent=trees) as tree:
            found[i] = tree
            if len(found) == 8:
                all_made.set()
            await all_made.wait()  # all eight exist together
            (tree.path / f"{i}.txt").write_text(f"{i}\n")
            changes[i] = (await tree.changes()).added

    async with anyio.create_task_group() as tg:
        for i in range(8):
            tg.start_soon(task, i)
    assert changes == {i: (f"{i}.txt",) for i in range(8)}
    assert len({tree.path for tree in found.values()}) == 8
    assert running["most"] == 1
    assert listed(repo) == [str(repo)]
    assert nothing_in(trees)


# --- errors ----------------------------------------------------------------------------
async def test_not_a_repository_is_a_config_error_quoting_git(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(AgentConfigError, match="not a git repository") as caught:
        async with worktree(tmp_path / "plain", "HEAD", "t", keep=False):
            pass
    assert caught.value.hint


async def test_a_missing_repo_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(AgentConfigError, match="is not a directory"):
        async with worktree(tmp_path / "nowhere", "HEAD", "t", keep=False):
            pass


@pytest.mark.parametrize("base", ["no-such-branch", "--output=x", "HEAD~5"])
async def test_an_unknown_base_is_a_config_error(repo: Path, trees: Path, base: str) -> None:
    with pytest.raises(AgentConfigError, match="base") as caught:
        async with worktree(repo, base, "t", keep=False, parent=trees):
            pass
    assert base in str(caught.value)
    assert listed(repo) == [str(repo)]
    assert nothing_in(trees)


async def test_git_missing_is_a_start_error(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(AgentStartError, match="git was not found") as caught:
        async with worktree(repo, "HEAD", "t", keep=False):
            pass
    assert "install git" in str(caught.value)
