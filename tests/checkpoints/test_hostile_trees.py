"""Checkpoints of hostile trees (docs/sessions.md, "Checkpoints"): symlinks pointing out of
the tree, files the user cannot read, a huge binary, submodules and nested repositories,
a repository mid-merge, a checkpoint asked for twice (also from processes at once). Two
runs in one tree and owners killed: test_owners.py. Real git, real processes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from checkpoint_trees import CHECKPOINT, blob, child, files, in_tree, user_state
from gitrepo import git

from agent_sdk import checkpoints
from agent_sdk.checkpoints import RewindResult

pytestmark = pytest.mark.anyio


# --- symlinks pointing outside the tree -------------------------------------------------
def links_out(repo: Path, outside: Path) -> None:
    outside.mkdir()
    (outside / "secret.txt").write_text("outside the tree\n")
    (repo / "to-file").symlink_to(outside / "secret.txt")
    (repo / "to-dir").symlink_to(outside)


def agent_follows_links(repo: Path, outside: Path) -> None:
    """The run retargets a link, writes through another, replaces a directory of the
    tree by a link out of it, and adds a link."""
    (repo / "to-file").unlink()
    (repo / "to-file").symlink_to("/etc/hostname")
    (outside / "written.txt").write_text("written through the link\n")
    (repo / "sub" / "c.txt").unlink()
    (repo / "sub").rmdir()
    (repo / "sub").symlink_to(outside)
    (repo / "new-link").symlink_to(outside / "secret.txt")


async def test_symlinks_out_of_the_tree_are_kept_as_links(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    links_out(repo, outside)
    cp = await checkpoints.checkpoint(repo)
    tree = in_tree(repo, cp.before)
    assert tree["to-file"].startswith("120000 ")
    assert blob(repo, cp.before, "to-file") == str(outside / "secret.txt").encode()
    assert tree["to-dir"].startswith("120000 ")
    assert not any(path.startswith("to-dir/") for path in tree)  # never followed
    before, outside_before = files(repo), files(outside)
    agent_follows_links(repo, outside)
    cp = await checkpoints.finish(cp)
    changed = await checkpoints.changes(cp)
    assert changed.added == ("new-link", "sub")
    assert changed.deleted == ("sub/c.txt",)
    assert "written.txt" not in changed.diff  # outside the tree: not the checkpoint's
    written = files(outside)
    result = await checkpoints.rewind(cp)
    assert result.restored == ("sub/c.txt", "to-file")
    assert files(repo) == before  # sub/ a directory again, the links as they were
    assert files(outside) == written  # nothing removed nor written through a link
    assert outside_before.items() <= written.items()


def test_a_file_is_never_removed_through_a_link(tmp_path: Path) -> None:
    # A rewind removes the run's files by path: never one a link leads to, should a
    # directory of the tree have become a link out of it meanwhile.
    from agent_sdk.checkpoints._rewind import _remove

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.txt").write_text("not the tree's\n")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "new").symlink_to(outside)
    assert _remove(tree, "new/x.txt")
    assert (outside / "x.txt").exists()
    (tree / "made").mkdir()
    (tree / "made" / "deep").mkdir()
    (tree / "made" / "deep" / "y.txt").write_text("the run's\n")
    assert _remove(tree, "made/deep/y.txt")
    assert sorted(os.listdir(tree)) == ["new"]  # its directories, left empty, went too


# --- files the user cannot read ----------------------------------------------------------
def unreadable(path: Path, content: str) -> None:
    path.write_text(content)
    path.chmod(0o000)


async def test_an_unreadable_file_is_an_error_naming_it(repo: Path, anyio_backend: str) -> None:
    unreadable(repo / "secret.key", "k\n")
    unreadable(repo / "sub" / "c.txt", "changed and unreadable\n")
    state = user_state(repo)
    out = child(CHECKPOINT, str(repo), anyio_backend, unreadable=True).stdout.split("\n")
    assert out[:2] == ["unreadable", "secret.key|sub/c.txt"]
    assert "git could not read 'secret.key', 'sub/c.txt'" in out[2]
    assert "Hint: make them readable" in "\n".join(out)
    assert user_state(repo) == state
    assert git(repo, "for-each-ref", "refs/agent-sdk") == ""


async def test_an_unreadable_file_unchanged_since_the_index_is_no_error(
    repo: Path, anyio_backend: str
) -> None:
    # git trusts its index for a file whose stat did not change since the user's last
    # git status, and was older than it (not "racy"): nothing to read.
    (repo / "b.txt").chmod(0o000)
    an_hour_ago = time.time() - 3600
    os.utime(repo / "b.txt", (an_hour_ago, an_hour_ago))
    git(repo, "update-index", "-q", "--refresh")
    (repo / "locked").mkdir()
    (repo / "locked" / "inside.txt").write_text("in a directory nobody can list\n")
    (repo / "locked").chmod(0o000)
    try:
        out = child(CHECKPOINT, str(repo), anyio_backend, unreadable=True).stdout.split("\n")
        assert out[0] == "made", out
        tree = in_tree(repo, out[1])
        assert "b.txt" in tree
        assert "locked/inside.txt" not in tree  # git cannot list it: it warns and goes on
    finally:
        (repo / "locked").chmod(0o755)


# --- a huge binary ----------------------------------------------------------------------
def huge_files(repo: Path) -> bytes:
    # Past core.bigFileThreshold git streams a file and never diffs it: the same path
    # as a file of gigabytes, at 4 MiB.
    git(repo, "config", "core.bigFileThreshold", "1m")
    content = os.urandom(4 << 20)
    (repo / "huge.bin").write_bytes(content)
    return content


def agent_rewrites_huge(repo: Path) -> None:
    (repo / "huge.bin").write_bytes(os.urandom(4 << 20))
    (repo / "huge2.bin").write_bytes(b"text at first, " * (300 << 10))


async def test_a_huge_binary_is_kept_named_in_the_diff_and_put_back(repo: Path) -> None:
    content = huge_files(repo)
    cp = await checkpoints.checkpoint(repo)
    agent_rewrites_huge(repo)
    cp = await checkpoints.finish(cp)
    changed = await checkpoints.changes(cp)
    assert (changed.added, changed.modified) == (("huge2.bin",), ("huge.bin",))
    assert "Binary files a/huge.bin and b/huge.bin differ" in changed.diff
    assert "Binary files /dev/null and b/huge2.bin differ" in changed.diff
    assert len(changed.diff) < 1000  # named only
    result = await checkpoints.rewind(cp)
    assert result == RewindResult(restored=("huge.bin",), removed=("huge2.bin",))
    assert (repo / "huge.bin").read_bytes() == content


# --- submodules and nested repositories -------------------------------------------------
def add_submodule(repo: Path, tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    git(lib, "init", "-q")
    (lib / "lib.txt").write_text("lib\n")
    git(lib, "add", "lib.txt")
    git(lib, "commit", "-q", "-m", "lib")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "lib")
    git(repo, "commit", "-q", "-m", "a submodule")


def agent_works_in_repositories(repo: Path) -> None:
    (repo / "lib" / "lib.txt").write_text("the agent edited the submodule's file\n")
    (repo / "lib" / "more.txt").write_text("and added one\n")
    (repo / "vendor").mkdir()
    git(repo / "vendor", "init", "-q", "cloned")  # a nested repository, with a commit
    (repo / "vendor" / "cloned" / "x.txt").write_text("x\n")
    git(repo / "vendor" / "cloned", "add", "x.txt")
    git(repo / "vendor" / "cloned", "commit", "-q", "-m", "x")
    git(repo, "init", "-q", "scratch")  # one without a commit yet: git cannot stage it
    (repo / "scratch" / "y.txt").write_text("y\n")
    (repo / "top.txt").write_text("the agent's file in the superproject\n")


async def test_submodules_and_nested_repositories_are_kept_as_commits_and_left_alone(
    repo: Path, tmp_path: Path
) -> None:
    add_submodule(repo, tmp_path)
    cp = await checkpoints.checkpoint(repo)
    assert in_tree(repo, cp.before)["lib"].startswith("160000 commit ")
    assert "lib/lib.txt" not in in_tree(repo, cp.before)
    agent_works_in_repositories(repo)
    cp = await checkpoints.finish(cp)
    changed = await checkpoints.changes(cp)
    # The submodule's work tree is not covered; the nested repository is its commit.
    assert changed.added == ("top.txt", "vendor/cloned")
    assert changed.modified == ()
    result = await checkpoints.rewind(cp)
    assert result == RewindResult(removed=("top.txt",), skipped=("vendor/cloned",))
    assert (repo / "vendor" / "cloned" / "x.txt").exists()  # never deleted
    assert (repo / "scratch" / "y.txt").exists()
    assert (repo / "lib" / "more.txt").exists()


# --- a repository mid-merge ---------------------------------------------------------------
def start_a_conflicting_merge(repo: Path) -> None:
    git(repo, "checkout", "-q", "feature")
    (repo / "b.txt").write_text("feature's b\n")
    git(repo, "commit", "-q", "-am", "feature's b")
    git(repo, "checkout", "-q", "main")
    (repo / "b.txt").write_text("main's b\n")
    git(repo, "commit", "-q", "-am", "main's b")
    done = subprocess.run(
        ["git", "-C", str(repo), "merge", "-q", "feature"], capture_output=True, text=True
    )
    assert "CONFLICT" in done.stdout, done


async def test_a_repository_mid_merge_stays_mid_merge(repo: Path) -> None:
    git(repo, "stash", "-q", "-u")  # a merge needs a clean tree
    start_a_conflicting_merge(repo)
    conflicted = (repo / "b.txt").read_text()
    state = user_state(repo)
    assert state["merge"] == ["MERGE_HEAD", "MERGE_MODE", "MERGE_MSG"]
    assert " 1\tb.txt\n" in str(state["index"])  # the conflict's stages
    cp = await checkpoints.checkpoint(repo)
    assert blob(repo, cp.before, "b.txt").decode() == conflicted
    (repo / "b.txt").write_text("the agent resolved it\n")
    cp = await checkpoints.finish(cp)
    assert (await checkpoints.changes(cp)).modified == ("b.txt",)
    assert (await checkpoints.rewind(cp)).restored == ("b.txt",)
    assert (repo / "b.txt").read_text() == conflicted
    assert user_state(repo) == state  # still mid-merge, its stages as they were


# --- a checkpoint asked for twice -------------------------------------------------------
async def test_a_checkpoint_asked_for_twice_is_two(repo: Path) -> None:
    first = await checkpoints.checkpoint(repo)
    second = await checkpoints.checkpoint(repo)
    assert first.id != second.id
    async with anyio.create_task_group() as group:
        for _ in range(3):
            group.start_soon(checkpoints.checkpoint, repo)
    listed = await checkpoints.list_checkpoints(repo)
    assert len({cp.id for cp in listed}) == 5
    assert {git(repo, "rev-parse", f"{cp.before}^{{tree}}") for cp in listed} == {
        git(repo, "rev-parse", f"{first.before}^{{tree}}")
    }


def checkpoints_at_once(repo: Path, backend: str, count: int) -> list[str]:
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHECKPOINT, str(repo), backend],
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(count)
    ]
    return [proc.communicate(timeout=120)[0] for proc in children]


async def test_checkpoints_from_processes_at_once(repo: Path, anyio_backend: str) -> None:
    state = user_state(repo)
    outs = checkpoints_at_once(repo, anyio_backend, 4)
    assert all(out.startswith("made\n") for out in outs), outs
    assert len(await checkpoints.list_checkpoints(repo)) == 4
    assert user_state(repo) == state
