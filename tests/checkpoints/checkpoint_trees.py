"""What the checkpoints' tests share: a repository with a user's work in progress in it,
what a run does there, what of the user's state must never move, the files of a tree, and
a child process (one that checkpoints: ``CHECKPOINT``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gitrepo import git

BINARY = bytes(range(256)) * 4  # has NUL bytes: git calls it binary

CHECKPOINT = """
import sys, anyio
from agent_sdk import AgentCheckpointError, checkpoints
try:
    cp = anyio.run(checkpoints.checkpoint, sys.argv[1], backend=sys.argv[2])
    print("made", cp.before, sep="\\n")
except AgentCheckpointError as exc:
    print(exc.reason, "|".join(exc.paths), str(exc), sep="\\n")
"""


def make_repo(path: Path) -> Path:
    """One commit on ``main`` (text, an executable, binary, a symlink, a sub-directory,
    an ignore rule), another branch, a stash; then work in progress: a staged change, an
    unstaged one, an untracked file and an ignored one."""
    path.mkdir()
    git(path, "init", "-q")
    git(path, "checkout", "-q", "-b", "main")
    (path / "a.txt").write_text("one\n")
    (path / "b.txt").write_text("two\n")
    (path / "run.sh").write_text("#!/bin/sh\necho hi\n")
    (path / "run.sh").chmod(0o755)
    (path / "data.bin").write_bytes(BINARY)
    (path / ".gitignore").write_text("*.log\n")
    (path / "sub").mkdir()
    (path / "sub" / "c.txt").write_text("three\n")
    (path / "link").symlink_to("a.txt")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "base")
    git(path, "branch", "feature")
    (path / "b.txt").write_text("stashed\n")
    git(path, "stash", "-q")
    (path / "a.txt").write_text("one\nstaged\n")
    git(path, "add", "a.txt")
    (path / "a.txt").write_text("one\nstaged\nunstaged\n")
    (path / "notes.txt").write_text("the user's untracked notes\n")
    (path / "debug.log").write_text("ignored\n")
    return path


def user_state(repo: Path) -> dict[str, object]:
    """What the user's git holds: none of it may change, whatever checkpoints do."""
    git_dir = Path(git(repo, "rev-parse", "--absolute-git-dir").strip())
    return {
        "HEAD": git(repo, "rev-parse", "HEAD"),
        "branch": git(repo, "symbolic-ref", "-q", "HEAD"),
        "index": git(repo, "ls-files", "-s", "--debug"),
        "index bytes": (git_dir / "index").read_bytes() if (git_dir / "index").exists() else b"",
        "refs": git(repo, "for-each-ref", "refs/heads", "refs/tags", "refs/stash"),
        "stash": git(repo, "stash", "list"),
        "config": (git_dir / "config").read_bytes() if (git_dir / "config").exists() else b"",
        "merge": sorted(p.name for p in git_dir.glob("MERGE_*")),
    }


def files(root: Path) -> dict[str, object]:
    """Every file of a tree but ``.git``: content (a link: its target), mode."""
    found: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            rel = str(path.relative_to(root))
            info = path.lstat()
            if path.is_symlink():
                found[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                found[rel] = ("dir", oct(info.st_mode & 0o777))
            else:
                found[rel] = (path.read_bytes(), oct(info.st_mode & 0o777))
    return found


def in_tree(repo: Path, commit: str) -> dict[str, str]:
    """path -> ``mode type sha`` of every entry of a commit's tree."""
    out = git(repo, "ls-tree", "-r", "-z", commit)
    entries = (line.split("\t", 1) for line in out.split("\0") if line)
    return {path: meta for meta, path in entries}


def blob(repo: Path, commit: str, path: str) -> bytes:
    return subprocess.run(
        ["git", "-C", str(repo), "cat-file", "blob", f"{commit}:{path}"],
        check=True,
        capture_output=True,
    ).stdout


def child(code: str, *args: str, unreadable: bool = False) -> subprocess.CompletedProcess[str]:
    """``python -c code args`` in a new process (the environment of this test). With
    ``unreadable``, the process cannot read files it lacks the read permission of, even
    as root: it has no CAP_DAC_OVERRIDE nor CAP_DAC_READ_SEARCH (CI runs as root)."""
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_drop_read_override if unreadable and os.geteuid() == 0 else None,
    )


def _drop_read_override() -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0):  # PR_CAPBSET_DROP: gone after exec
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def left_in(temp_dir: Path) -> list[str]:
    """The checkpoints' scratch directories still in the temp dir."""
    return sorted(p.name for p in temp_dir.iterdir() if p.name.startswith("agent-sdk-"))


def agent_works(repo: Path) -> None:
    """What a run might do: every kind of change."""
    (repo / "a.txt").write_text("the agent's a\n")
    (repo / "b.txt").unlink()
    (repo / "run.sh").chmod(0o644)
    (repo / "data.bin").write_bytes(BINARY[::-1])
    (repo / "link").unlink()
    (repo / "link").symlink_to("b.txt")
    (repo / "new" / "deep").mkdir(parents=True)
    (repo / "new" / "deep" / "made.py").write_text("print('new')\n")
    (repo / "sub" / "d.txt").write_text("added next to c\n")
    (repo / "build.log").write_text("ignored, so not the checkpoint's\n")
