"""A fleet's isolations (docs/fleet.md, Isolation): a seeded private config dir, and a git
worktree whose changes are reported without touching the user's checkout. Real git, on a
repository made for each test; file work lives in sync helpers (no blocking I/O in the
async tests' own bodies)."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import anyio
import pytest
from gitrepo import git

from agent_sdk import AgentConfigError, AgentStartError
from agent_sdk.fleet import _worktree
from agent_sdk.fleet._isolation import isolated_config
from agent_sdk.fleet._worktree import Worktree, worktree

pytestmark = pytest.mark.anyio

BINARY = bytes(range(256)) * 4  # has NUL bytes: git calls it binary


@pytest.fixture
def repo(tmp_path: Path) -> Path:
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


@pytest.fixture
def trees(tmp_path: Path) -> Path:
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


# --- config isolation ------------------------------------------------------------------
def make_seed(tmp_path: Path) -> Path:
    seed = tmp_path / "cursor"
    seed.mkdir()
    (seed / "auth.json").write_text('{"token": "t0k"}')
    (seed / "auth.json").chmod(0o600)
    (seed / "cli-config.json").write_text('{"model": "m"}')
    (seed / "cli-config.json").chmod(0o644)
    (seed / "chats").mkdir()
    (seed / "chats" / "store.db").write_text("big")
    outside = tmp_path / "elsewhere.json"
    outside.write_text("linked content")
    (seed / "linked.json").symlink_to(outside)
    (seed / "dangling.json").symlink_to(tmp_path / "missing")
    (seed / "dirlink").symlink_to(seed / "chats")
    os.mkfifo(seed / "fifo")  # opening it blocking would hang the copy
    return seed


def check_seeded(config: Path, tmp_path: Path) -> None:
    assert stat.S_IMODE(config.stat().st_mode) == 0o700
    assert sorted(p.name for p in config.iterdir()) == [
        "auth.json",
        "cli-config.json",
        "linked.json",
    ]
    assert (config / "auth.json").read_text() == '{"token": "t0k"}'
    assert stat.S_IMODE((config / "auth.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((config / "cli-config.json").stat().st_mode) == 0o644
    linked = config / "linked.json"
    assert not linked.is_symlink()
    assert linked.read_text() == "linked content"
    linked.write_text("the CLI rewrites it")  # must not reach the user's file
    assert (tmp_path / "elsewhere.json").read_text() == "linked content"


async def test_seeding_copies_top_level_files_with_modes_and_no_subdirs(tmp_path: Path) -> None:
    seed = make_seed(tmp_path)
    async with isolated_config(seed) as config:
        check_seeded(config, tmp_path)
        assert config.parent != seed
    assert not config.exists()
    assert (seed / "chats" / "store.db").exists()  # the user's dir is left as it was


async def test_the_default_seed_is_cursor_config_dir_then_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = make_seed(tmp_path)
    monkeypatch.setenv("CURSOR_CONFIG_DIR", str(seed))
    async with isolated_config() as config:
        check_seeded(config, tmp_path)
    home = tmp_path / "home"
    (home / ".cursor").mkdir(parents=True)
    (home / ".cursor" / "cli-config.json").write_text("{}")
    monkeypatch.delenv("CURSOR_CONFIG_DIR")
    monkeypatch.setenv("HOME", str(home))
    async with isolated_config() as config:
        assert [p.name for p in config.iterdir()] == ["cli-config.json"]


async def test_a_missing_seed_gives_an_empty_private_dir(tmp_path: Path) -> None:
    async with isolated_config(tmp_path / "nothing") as config:
        assert list(config.iterdir()) == []
        assert stat.S_IMODE(config.stat().st_mode) == 0o700
    assert not config.exists()


async def test_a_seed_that_is_a_file_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(AgentConfigError, match="not a directory"):
        async with isolated_config(tmp_path / "file"):
            pass


def leave_read_only_dir(config: Path) -> None:
    (config / "chats").mkdir()
    (config / "chats" / "c.db").write_text("x")
    (config / "chats").chmod(0o500)


async def test_the_config_dir_is_removed_after_an_exception(tmp_path: Path) -> None:
    made: list[Path] = []
    with pytest.raises(RuntimeError, match="boom"):
        async with isolated_config(make_seed(tmp_path)) as config:
            made.append(config)
            leave_read_only_dir(config)  # what a run may leave must not stop the removal
            raise RuntimeError("boom")
    assert made
    assert not made[0].exists()


async def test_the_config_dir_is_removed_after_a_cancellation(tmp_path: Path) -> None:
    made: list[Path] = []
    with anyio.CancelScope() as scope:
        async with isolated_config(make_seed(tmp_path)) as config:
            made.append(config)
            scope.cancel()
            await anyio.sleep_forever()
    assert scope.cancelled_caught
    assert made
    assert not made[0].exists()


# --- worktree isolation ----------------------------------------------------------------
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
