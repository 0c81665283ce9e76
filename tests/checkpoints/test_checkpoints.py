"""Checkpoints of a working tree (docs/sessions.md, "Checkpoints"): a snapshot before a
run, what the run changed, a rewind, listing and removal; the user's index, branches,
stash and files never disturbed. Real git; file work lives in sync helpers (no blocking
I/O in the async tests' own bodies)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import msgspec
import pytest
from checkpoint_trees import agent_works, blob, files, in_tree, left_in, make_repo, user_state
from gitrepo import git

from agent_sdk import AgentCheckpointError, checkpoints
from agent_sdk.checkpoints import Checkpoint, RewindResult
from agent_sdk.fleet import Changes

pytestmark = pytest.mark.anyio


# --- a checkpoint -------------------------------------------------------------------------
async def test_a_checkpoint_is_the_tree_as_it_is_under_a_private_ref(repo: Path) -> None:
    cp = await checkpoints.checkpoint(repo / "sub", label="fix the cart")
    tree = in_tree(repo, cp.before)
    # Tracked changes as in the files (not as staged), untracked files, no ignored one.
    assert blob(repo, cp.before, "a.txt") == b"one\nstaged\nunstaged\n"
    assert blob(repo, cp.before, "notes.txt") == b"the user's untracked notes\n"
    assert "debug.log" not in tree
    assert tree["link"].startswith("120000 ")  # a link, as a link
    assert tree["run.sh"].startswith("100755 ")
    head = git(repo, "rev-parse", "HEAD").strip()
    assert git(repo, "rev-parse", f"{cp.before}^").strip() == head == cp.head
    assert git(repo, "rev-parse", cp.ref).strip() == cp.before
    assert cp.ref == f"refs/agent-sdk/checkpoints/{cp.id}"
    assert (cp.root, cp.cwd) == (str(repo), str(repo / "sub"))
    assert (cp.after, cp.finished, cp.label) == (None, None, "fix the cart")
    assert cp.created.tzinfo is not None


async def test_nothing_of_the_users_is_touched(repo: Path, temp_dir: Path) -> None:
    state, tree = user_state(repo), files(repo)
    cp = await checkpoints.checkpoint(repo)
    assert (user_state(repo), files(repo)) == (state, tree)
    agent_works(repo)
    state, tree = user_state(repo), files(repo)
    cp = await checkpoints.finish(cp)
    await checkpoints.changes(cp)
    await checkpoints.list_checkpoints(repo)
    async with checkpoints.running(repo):
        pass
    await checkpoints.remove_checkpoint(cp)
    assert (user_state(repo), files(repo)) == (state, tree)
    # The rewind changes the run's files, and nothing else of the user's.
    cp = await checkpoints.checkpoint(repo)
    (repo / "a.txt").write_text("again\n")
    await checkpoints.rewind(await checkpoints.finish(cp))
    assert user_state(repo) == state
    assert left_in(temp_dir) == []  # every temporary index went with its directory
    assert git(repo, "status", "--porcelain", "--ignored", "--", ".git") == ""


async def test_a_repository_without_commits_nor_identity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in ("GIT_AUTHOR", "GIT_COMMITTER"):
        monkeypatch.delenv(f"{var}_NAME")
        monkeypatch.delenv(f"{var}_EMAIL")
    repo = tmp_path / "empty"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "first.txt").write_text("first\n")
    cp = await checkpoints.checkpoint(repo)
    assert cp.head is None
    assert in_tree(repo, cp.before).keys() == {"first.txt"}
    assert git(repo, "log", "-1", "--format=%an <%ae>", cp.before) == (
        "agent-sdk <agent-sdk@localhost>\n"
    )
    (repo / "second.txt").write_text("second\n")
    result = await checkpoints.rewind(await checkpoints.finish(cp))
    assert result == RewindResult(removed=("second.txt",))
    assert sorted(os.listdir(repo)) == [".git", "first.txt"]


async def test_no_hook_signing_or_user_setting_applies(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    ran = repo.parent / "hook-ran"
    for name in ("reference-transaction", "post-commit", "pre-commit"):
        (hooks / name).write_text(f"#!/bin/sh\necho {name} >> {ran}\nexit 1\n")
        (hooks / name).chmod(0o755)
    git(repo, "config", "commit.gpgSign", "true")
    git(repo, "config", "gpg.program", "false")
    git(repo, "config", "core.safecrlf", "true")
    git(repo, "config", "core.autocrlf", "true")
    git(repo, "config", "diff.noprefix", "true")
    git(repo, "config", "core.logAllRefUpdates", "always")
    cp = await checkpoints.checkpoint(repo)
    (repo / "a.txt").write_text("x\n")
    cp = await checkpoints.finish(cp)
    assert "--- a/a.txt\n+++ b/a.txt\n" in (await checkpoints.changes(cp)).diff
    await checkpoints.remove_checkpoint(cp)
    assert not ran.exists()
    assert not (repo / ".git" / "logs" / "refs" / "agent-sdk").exists()


# --- what changed -----------------------------------------------------------------------
async def test_changes_against_the_tree_now_then_against_after(repo: Path) -> None:
    cp = await checkpoints.checkpoint(repo)
    assert await checkpoints.changes(cp) == Changes(diff="", base=cp.before)
    agent_works(repo)
    now = await checkpoints.changes(cp)
    assert isinstance(now, Changes)
    assert now.added == ("new/deep/made.py", "sub/d.txt")
    assert now.modified == ("a.txt", "data.bin", "link", "run.sh")
    assert now.deleted == ("b.txt",)
    assert (now.base, now.worktree) == (cp.before, None)
    assert "Binary files a/data.bin and b/data.bin differ" in now.diff
    assert "-one\n-staged\n-unstaged\n+the agent's a\n" in now.diff
    assert "old mode 100755\nnew mode 100644" in now.diff
    assert "build.log" not in now.diff
    cp = await checkpoints.finish(cp)
    (repo / "notes.txt").write_text("the user, after the run\n")
    assert await checkpoints.changes(cp) == now  # the run's, not the user's after it


async def test_a_checkpoint_round_trips_as_json(repo: Path) -> None:
    cp = await checkpoints.finish(await checkpoints.checkpoint(repo, label="x"))
    assert msgspec.json.decode(msgspec.json.encode(cp), type=Checkpoint) == cp


# --- rewind -----------------------------------------------------------------------------
async def test_rewind_puts_back_the_runs_files_and_nothing_else(repo: Path) -> None:
    before = files(repo)
    cp = await checkpoints.checkpoint(repo)
    agent_works(repo)
    cp = await checkpoints.finish(cp)
    (repo / "notes.txt").write_text("the user's notes, after the run\n")
    result = await checkpoints.rewind(cp)
    assert result == RewindResult(
        restored=("a.txt", "b.txt", "data.bin", "link", "run.sh"),
        removed=("new/deep/made.py", "sub/d.txt"),
    )
    after = files(repo)
    assert after.pop("notes.txt") == (b"the user's notes, after the run\n", "0o644")
    assert after.pop("build.log")[0] == b"ignored, so not the checkpoint's\n"  # not covered
    before.pop("notes.txt")
    assert after == before  # modes, the link as a link, new/ gone with its sub-dir
    assert stat.S_IMODE((repo / "run.sh").stat().st_mode) == 0o755


async def test_a_second_rewind_does_nothing(repo: Path) -> None:
    cp = await checkpoints.checkpoint(repo)
    agent_works(repo)
    cp = await checkpoints.finish(cp)
    await checkpoints.rewind(cp)
    tree = files(repo)
    assert await checkpoints.rewind(cp) == RewindResult()
    assert files(repo) == tree


async def test_rewind_is_refused_when_the_user_changed_the_runs_files(repo: Path) -> None:
    cp = await checkpoints.checkpoint(repo)
    agent_works(repo)
    cp = await checkpoints.finish(cp)
    (repo / "a.txt").write_text("the user fixed the agent's a\n")
    (repo / "new" / "deep" / "mine.txt").write_text("the user's, in the run's dir\n")
    (repo / "b.txt").mkdir()
    (repo / "b.txt" / "inside").write_text("where the run deleted a file\n")
    tree = files(repo)
    with pytest.raises(AgentCheckpointError, match="changed since the run ended") as caught:
        await checkpoints.rewind(cp)
    assert caught.value.reason == "changed_since"
    assert caught.value.paths == ("a.txt", "b.txt/inside")
    assert "force=True" in str(caught.value.hint)
    assert files(repo) == tree  # refused: nothing was touched
    result = await checkpoints.rewind(cp, force=True)
    assert (repo / "a.txt").read_text() == "one\nstaged\nunstaged\n"
    assert "new/deep/made.py" in result.removed
    assert (repo / "new" / "deep" / "mine.txt").exists()  # never the run's: kept
    assert result.skipped == ("b.txt",)  # a directory with files stands there: kept
    assert (repo / "b.txt" / "inside").exists()


async def test_rewind_without_after_is_refused_unless_forced(repo: Path) -> None:
    cp = await checkpoints.checkpoint(repo)
    agent_works(repo)
    tree = files(repo)
    with pytest.raises(AgentCheckpointError, match="no snapshot of the tree after") as caught:
        await checkpoints.rewind(cp)
    assert caught.value.reason == "not_finished"
    assert files(repo) == tree
    result = await checkpoints.rewind(cp, force=True)
    assert result.removed == ("new/deep/made.py", "sub/d.txt")
    assert (repo / "b.txt").read_text() == "two\n"


async def test_a_run_in_progress_refuses_a_rewind_and_a_rewind_refuses_a_run(
    repo: Path,
) -> None:
    cp = await checkpoints.checkpoint(repo)
    (repo / "a.txt").write_text("x\n")
    cp = await checkpoints.finish(cp)
    async with checkpoints.running(repo / "sub", label="the run"):
        with pytest.raises(AgentCheckpointError, match="a run is in progress") as caught:
            await checkpoints.rewind(cp)
        assert caught.value.reason == "run_in_progress"
        assert f"run by pid {os.getpid()} (the run)" in str(caught.value)
    assert (repo / "a.txt").read_text() == "x\n"
    from agent_sdk.checkpoints._lock import Hold, hold

    with hold(repo / ".git", Hold.REWIND):
        with pytest.raises(AgentCheckpointError, match="a rewind is in progress") as caught:
            async with checkpoints.running(repo):
                pass
        assert caught.value.reason == "rewind_in_progress"
        with pytest.raises(AgentCheckpointError, match="rewind is in progress"):
            await checkpoints.checkpoint(repo)
    assert (await checkpoints.rewind(cp)).restored == ("a.txt",)


# --- listing, removal, finishing --------------------------------------------------------
async def test_list_and_remove(repo: Path) -> None:
    assert await checkpoints.list_checkpoints(repo) == []
    first = await checkpoints.checkpoint(repo, label="1")
    second = await checkpoints.finish(await checkpoints.checkpoint(repo, label="2"))
    assert await checkpoints.list_checkpoints(repo / "sub") == [first, second]
    await checkpoints.remove_checkpoint(first)
    await checkpoints.remove_checkpoint(first)  # gone already: nothing to do
    assert await checkpoints.list_checkpoints(repo) == [second]
    with pytest.raises(AgentCheckpointError, match="is not in") as caught:
        await checkpoints.changes(first)
    assert caught.value.reason == "not_found"
    await checkpoints.remove_checkpoint(second)
    assert git(repo, "for-each-ref", "refs/agent-sdk") == ""


async def test_finish_twice_is_refused(repo: Path) -> None:
    cp = await checkpoints.checkpoint(repo)
    done = await checkpoints.finish(cp)
    assert done.before == cp.before
    assert done.after is not None
    assert done.finished is not None
    assert git(repo, "rev-parse", f"{done.after}^").strip() == cp.before
    for again in (cp, done):
        with pytest.raises(AgentCheckpointError, match="finished already") as caught:
            await checkpoints.finish(again)
        assert caught.value.reason == "already_finished"
    assert await checkpoints.list_checkpoints(repo) == [done]


async def test_an_unfinished_copy_of_a_finished_checkpoint_acts_as_finished(
    repo: Path,
) -> None:
    cp = await checkpoints.checkpoint(repo)
    (repo / "a.txt").write_text("the run's\n")
    await checkpoints.finish(cp)  # by another holder of the value
    (repo / "notes.txt").write_text("the user's, after\n")
    assert (await checkpoints.changes(cp)).files == ("a.txt",)
    assert (await checkpoints.rewind(cp)).restored == ("a.txt",)


async def test_each_worktree_has_its_own_checkpoints(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", str(other), "feature")
    mine = await checkpoints.checkpoint(repo)
    theirs = await checkpoints.checkpoint(other)
    assert theirs.root == str(other)
    assert await checkpoints.list_checkpoints(repo) == [mine]
    assert await checkpoints.list_checkpoints(other) == [theirs]
    (other / "a.txt").write_text("in the other worktree\n")
    assert (await checkpoints.changes(theirs)).files == ("a.txt",)
    assert (await checkpoints.changes(mine)).files == ()


# --- errors -----------------------------------------------------------------------------
async def test_outside_git_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    for where in (tmp_path / "plain", tmp_path / "nowhere"):
        with pytest.raises(AgentCheckpointError, match="not in a git working tree") as caught:
            await checkpoints.checkpoint(where)
        assert caught.value.reason == "not_a_repository"
        assert "git init" in str(caught.value.hint)
    with pytest.raises(AgentCheckpointError, match="not a git repository"):
        await checkpoints.list_checkpoints(tmp_path / "plain")
    with pytest.raises(AgentCheckpointError, match="not in a git working tree"):
        async with checkpoints.running(tmp_path / "plain"):
            pass


async def test_a_bare_repository_is_no_working_tree(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "--bare", "bare.git")
    with pytest.raises(AgentCheckpointError, match="must be run in a work tree") as caught:
        await checkpoints.checkpoint(tmp_path / "bare.git")
    assert caught.value.reason == "not_a_repository"


async def test_git_missing_is_a_clear_error(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(AgentCheckpointError, match="git was not found") as caught:
        await checkpoints.checkpoint(repo)
    assert caught.value.reason == "git_missing"
    assert "install git" in str(caught.value.hint)


async def test_a_made_up_checkpoint_is_not_found(repo: Path) -> None:
    real = await checkpoints.checkpoint(repo)
    for made_up in ("../../heads/main", "-d", "nope"):
        fake = msgspec.structs.replace(real, id=made_up)
        with pytest.raises(AgentCheckpointError) as caught:
            await checkpoints.rewind(fake, force=True)
        assert caught.value.reason == "not_found"
    assert git(repo, "rev-parse", "main").strip() == real.head


def test_a_fresh_repo_helper_is_what_the_tests_think(tmp_path: Path) -> None:
    # The tests above count on this state: a staged and an unstaged change, a stash, an
    # untracked and an ignored file.
    repo = make_repo(tmp_path / "r")
    assert git(repo, "status", "--porcelain", "--ignored") == (
        "MM a.txt\n?? notes.txt\n!! debug.log\n"
    )
    assert git(repo, "stash", "list").count("\n") == 1
