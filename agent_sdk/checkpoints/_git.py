"""The git side of checkpoints (docs/sessions.md, "Checkpoints"): snapshots of a working
tree made with a temporary index, commits and refs under ``refs/agent-sdk/checkpoints/``,
tree diffs, and files put back from a snapshot.

Nothing here writes the user's index, branches, stash or working files, but
:func:`restore` (a rewind's files): every index git reads or writes here is a temporary
one, in a private directory outside the tree (``GIT_INDEX_FILE``), and every commit is
made with ``commit-tree``, which moves no branch.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from .._transport.git import run_git, said
from .._transport.owner import MARKER, PREFIXES, mark, sweep
from ..changes import REF_PREFIX
from ..errors import AgentCheckpointError

__all__ = [
    "REF_PREFIX",
    "Entry",
    "Repo",
    "commit",
    "delete_ref",
    "diff_entries",
    "git",
    "list_refs",
    "open_repo",
    "patch",
    "restore",
    "scratch",
    "set_ref",
    "snapshot",
]

SCRATCH_PREFIX = PREFIXES[6]
NO_SHA = "0" * 40
GITLINK = "160000"
"""A submodule's mode in a tree: its commit, not its files."""

# The user's git configuration must not change what a snapshot is or does: no hook runs
# (update-ref fires reference-transaction), no commit is signed (a gpg prompt or agent),
# the temporary index is written whole (a split index would add sharedindex.* files to
# the git dir), a line-ending check never fails a snapshot, nothing is collected or
# logged by the way (no reflog for our refs: deleting one frees its objects).
_CONFIG = (
    *("-c", "core.hooksPath=/dev/null", "-c", "commit.gpgSign=false"),
    *("-c", "core.splitIndex=false", "-c", "core.safecrlf=false"),
    *("-c", "gc.auto=0", "-c", "maintenance.auto=false", "-c", "core.logAllRefUpdates=false"),
    *("-c", "advice.addEmbeddedRepo=false", "-c", "add.ignoreErrors=false"),
)
# An identity of our own (a repository without user.email still checkpoints); English
# messages (an unreadable file is found in what git said); no optional lock taken.
_ENV = {
    **dict.fromkeys(("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"), "agent-sdk"),
    **dict.fromkeys(("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"), "agent-sdk@localhost"),
    "GIT_OPTIONAL_LOCKS": "0",
    "LC_ALL": "C",
    "LANGUAGE": "C",
}
_UNREADABLE = re.compile(rb"^error: unable to index file '(.*)'$", re.MULTILINE)
_NO_COMMIT = re.compile(rb"^error: '(.*)/' does not have a commit checked out$", re.MULTILINE)


class Repo(NamedTuple):
    """A working tree: its root, its own git dir (a linked worktree's is under the main
    one's ``worktrees/``), its HEAD commit (``None`` before the first commit), and the
    directory asked for (absolute, symlinks resolved)."""

    root: Path
    git_dir: Path
    head: str | None
    cwd: Path


class Entry(NamedTuple):
    """One path of a tree diff, as ``git diff-tree --raw`` gives it (modes as octal
    text, ``000000`` where the path is absent)."""

    path: str
    old_mode: str
    new_mode: str
    old_sha: str


async def git(
    root: Path,
    args: Sequence[str],
    env: Mapping[str, str] | None = None,
    stdin: bytes | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """``git args`` in ``root`` with the checkpoints' configuration, whatever its code."""
    try:
        return await run_git(root, args, {**_ENV, **(env or {})}, config=_CONFIG, stdin=stdin)
    except FileNotFoundError as exc:
        raise AgentCheckpointError(
            "git was not found: checkpoints are made with git",
            reason="git_missing",
            hint="install git and put it on PATH, or run without a checkpoint",
        ) from exc
    except OSError as exc:
        raise AgentCheckpointError(f"could not run git: {exc}", reason="git_missing") from exc


async def _checked(
    root: Path,
    args: Sequence[str],
    env: Mapping[str, str] | None = None,
    stdin: bytes | None = None,
) -> bytes:
    done = await git(root, args, env, stdin)
    if done.returncode:
        raise AgentCheckpointError(
            f"git {args[0]} failed in {str(root)!r}: {said(done)}",
            hint="see what git said: the repository may be damaged (git fsck) or its disk full",
        )
    return done.stdout


async def open_repo(cwd: str | os.PathLike[str]) -> Repo:
    """The working tree ``cwd`` is in.

    Raises:
        AgentCheckpointError: ``cwd`` is no directory in a git working tree, or git is
            missing.
    """
    where = _directory(cwd)
    found = None
    if where.is_dir():
        found = await git(where, ["rev-parse", "--show-toplevel", "--absolute-git-dir"])
    if found is None or found.returncode:
        why = "it is not a directory" if found is None else f"git said: {said(found)}"
        raise AgentCheckpointError(
            f"cannot checkpoint {str(where)!r}: it is not in a git working tree ({why})",
            reason="not_a_repository",
            hint="checkpoints need git: run `git init` there (and commit what is there), "
            "or run without a checkpoint",
        )
    lines = os.fsdecode(found.stdout).split("\n")
    head = await git(where, ["rev-parse", "-q", "--verify", "HEAD^{commit}"])
    sha = head.stdout.decode().strip() if not head.returncode else None
    return Repo(Path(lines[0]), Path(lines[1]), sha, where)


def _directory(cwd: str | os.PathLike[str]) -> Path:
    return Path(cwd).expanduser().resolve()


# --- the scratch directory: temporary indexes, outside the tree -----------------------
@functools.cache
def _sweep_once() -> None:
    """Scratch directories of processes that died holding one, removed once per process."""
    sweep(SCRATCH_PREFIX, _remove_scratch)


def _remove_scratch(path: Path) -> None:
    # Its marker last: a removal cut short still leaves one the next sweep finds.
    with contextlib.suppress(OSError):
        for entry in os.scandir(path):
            if entry.name != MARKER:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
    with contextlib.suppress(OSError):
        os.unlink(path / MARKER)
    with contextlib.suppress(OSError):
        os.rmdir(path)


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    """A new private directory in the system's temp dir, for temporary indexes; marked
    with its owner so that, if this process dies holding it, the next one removes it."""
    _sweep_once()
    path = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX))
    try:
        mark(path)
        yield path
    finally:
        _remove_scratch(path)


# --- snapshots, commits, refs ------------------------------------------------------------
async def snapshot(repo: Repo, where: Path) -> str:
    """The working tree as it is, as a tree object: tracked changes and untracked files
    (``.gitignore`` honoured), staged in a temporary index in ``where``.

    The index starts as a copy of the user's (its stat cache spares hashing the files
    that did not change), or HEAD's tree when there is none. The copy keeps the index's
    mtime: git re-reads a file whose mtime is not older than its index's ("racy git"),
    and a copy dated now would hide a change made within that second, size unchanged.

    Raises:
        AgentCheckpointError: git could not read some files (``reason="unreadable"``,
            ``paths``), or failed.
    """
    index = where / "index"
    env = {"GIT_INDEX_FILE": str(index)}
    try:
        shutil.copy2(repo.git_dir / "index", index)
    except FileNotFoundError:
        index.unlink(missing_ok=True)
        if repo.head is not None:
            await _checked(repo.root, ["read-tree", repo.head], env)
    added, cannot = await _add_all(repo, env)
    if cannot or added.returncode:
        unreadable = tuple(sorted(map(os.fsdecode, cannot)))
        if unreadable:
            raise AgentCheckpointError(
                f"cannot checkpoint {str(repo.root)!r}: git could not read "
                f"{', '.join(map(repr, unreadable[:5]))}"
                f"{f' and {len(unreadable) - 5} more' if len(unreadable) > 5 else ''}: "
                f"{said(added)}",
                reason="unreadable",
                paths=unreadable,
                hint="make them readable (chmod u+r), or have git ignore them (.gitignore, "
                ".git/info/exclude), then checkpoint again",
            )
        raise AgentCheckpointError(
            f"git add failed in {str(repo.root)!r}: {said(added)}",
            hint="see what git said; `git add --all --dry-run` there shows the same",
        )
    return (await _checked(repo.root, ["write-tree"], env)).decode().strip()


async def _add_all(
    repo: Repo, env: Mapping[str, str]
) -> tuple[subprocess.CompletedProcess[bytes], list[bytes]]:
    """``git add --all`` of the whole tree, and the files git could not read.

    git stops at the first kind of failure (tracked files, then untracked ones): each
    unreadable file is left out and the add run again, so that the error names them
    all. A nested repository is staged as its commit; one without a commit yet (an
    agent's ``git init``) fails the whole add: it is left out too, having nothing to
    record (docs/sessions.md, "Checkpoints")."""
    left_out: list[bytes] = []
    unreadable: list[bytes] = []
    first = None
    while True:
        spec = [os.fsdecode(b":(exclude,literal)" + path) for path in left_out]
        added = await git(repo.root, ["add", "--all", "--", ".", *spec], env)
        cannot = [p for p in _UNREADABLE.findall(added.stderr) if p not in unreadable]
        more = [p for p in _NO_COMMIT.findall(added.stderr) if p not in left_out]
        if not added.returncode or not (cannot or more):
            return (first or added), unreadable
        if cannot and not unreadable:
            first = added  # what git said of them, for the error
        unreadable += cannot
        left_out += cannot + more


async def commit(repo: Repo, tree: str, parent: str | None, message: str) -> str:
    """A commit of ``tree`` (its message on stdin, never in argv); no branch moves."""
    args = ["commit-tree", "--no-gpg-sign", tree, *(["-p", parent] if parent else []), "-F", "-"]
    return (await _checked(repo.root, args, stdin=message.encode())).decode().strip()


async def set_ref(repo: Repo, name: str, new: str, old: str = NO_SHA) -> str | None:
    """Point ``name`` at ``new`` if it points at ``old`` now (``NO_SHA``: if it does not
    exist); atomic, as every ref update of git's. ``None`` when done, else what git said."""
    done = await git(repo.root, ["update-ref", "--no-deref", name, new, old])
    return said(done) if done.returncode else None


async def delete_ref(repo: Repo, name: str) -> None:
    """Remove the ref ``name`` (nothing when it is gone already)."""
    exists = await git(repo.root, ["show-ref", "--verify", "--quiet", name])
    if not exists.returncode:
        await _checked(repo.root, ["update-ref", "--no-deref", "-d", name])


async def list_refs(repo: Repo, pattern: str) -> list[tuple[str, str, str]]:
    """(commit, its first parent or ``""``, its message's body) of each ref matching
    ``pattern``, by ref name."""
    fmt = "%(objectname)%00%(parent)%00%(contents:body)%00"
    out = await _checked(repo.root, ["for-each-ref", f"--format={fmt}", pattern])
    fields = out.split(b"\0")
    return [
        (sha.strip().decode(), parent.decode().split(" ")[0], body.decode("utf-8", "replace"))
        for sha, parent, body in zip(fields[0::3], fields[1::3], fields[2::3], strict=False)
        if sha.strip()
    ]


# --- diffs and restores --------------------------------------------------------------------
async def diff_entries(repo: Repo, old: str, new: str) -> dict[str, Entry]:
    """Every path that differs between two trees (or commits), by path; a rename is a
    deletion and an addition."""
    args = ["diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", old, new]
    fields = (await _checked(repo.root, args)).split(b"\0")
    found: dict[str, Entry] = {}
    for meta, path in zip(fields[0::2], fields[1::2], strict=False):
        old_mode, new_mode, old_sha = meta.decode()[1:].split(" ")[:3]
        name = os.fsdecode(path)
        found[name] = Entry(name, old_mode, new_mode, old_sha)
    return found


async def patch(repo: Repo, old: str, new: str) -> str:
    """The unified diff between two trees; binary files named only."""
    args = ["diff-tree", "-r", "-p", "--no-renames", "--no-ext-diff", "--no-textconv"]
    args += ["--no-color", "--src-prefix=a/", "--dst-prefix=b/", old, new]
    return (await _checked(repo.root, args)).decode("utf-8", "replace")


async def restore(repo: Repo, entries: Sequence[Entry], where: Path) -> None:
    """Write the old side of ``entries`` into the working tree (content, mode, symlinks
    as links, leading directories made), through a temporary index holding only them:
    git's own checkout, with its guards (no write through a symlinked directory)."""
    if not entries:
        return
    env = {"GIT_INDEX_FILE": str(where / "restore-index")}
    listed = b"".join(
        f"{e.old_mode} {e.old_sha}\t".encode() + os.fsencode(e.path) + b"\0" for e in entries
    )
    await _checked(repo.root, ["update-index", "-z", "--index-info"], env, listed)
    await _checked(repo.root, ["checkout-index", "--all", "--force"], env)
