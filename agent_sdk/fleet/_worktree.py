"""A git worktree of its own for each task of a fleet (docs/fleet.md, Isolation):
:func:`worktree` makes one of the task's repository at a fixed commit, so no two agents
write in one checkout; :meth:`Worktree.changes` says what the agent left there.

git runs as the SDK runs every process: an argv list, never a shell.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path

import anyio
from anyio.lowlevel import RunVar

from .._transport.git import run_git
from .._transport.git import said as _said
from .._transport.owner import MARKER
from ..errors import AgentConfigError, AgentError, AgentStartError
from ._isolation import remove_tree, temp_dir
from ._types import Changes

__all__ = ["Worktree", "worktree"]

_GIT_LIMIT = 60.0
"""Seconds a shielded git command (making or removing a worktree) may take: past it, git is
killed and what is left of its work is cleaned up as far as it can be."""


# One lock per repository (by its real common git dir) and per event loop: git commands
# run together on one repository's worktree list fail (`worktree add` run 32 at once:
# "failed to read .git/worktrees/<name>/commondir", and worktrees missing). An anyio.Lock
# belongs to one event loop, hence a RunVar: one dict per running loop. Other processes
# using the same repository (another fleet, the user's git) are not covered by it.
_LOCKS: RunVar[dict[str, anyio.Lock]] = RunVar("agent_sdk_worktree_locks")


def _repo_lock(key: str) -> anyio.Lock:
    try:
        locks = _LOCKS.get()
    except LookupError:
        locks = {}
        _LOCKS.set(locks)
    return locks.setdefault(key, anyio.Lock())


async def _git(
    cwd: Path, args: Sequence[str], env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git -C cwd args`` and return what it did, whatever its exit code.

    Raises:
        AgentStartError: git is not installed or could not be started.
    """
    try:
        return await run_git(cwd, args, env)
    except FileNotFoundError as exc:
        raise AgentStartError(
            "git was not found: worktree isolation runs git",
            hint="install git and put it on PATH, or run the fleet without isolation='worktree'",
        ) from exc
    except OSError as exc:
        raise AgentStartError(f"could not run git: {exc}") from exc


def _safe_name(name: str) -> str:
    """A task id as a directory name: any character outside ``[A-Za-z0-9._-]`` is ``-``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")[:64] or "task"


def _copy_index(own: Path, where: Path) -> Path:
    """A copy of a worktree's index in ``where`` (next to the worktree, so never one of its
    untracked files): its stat cache spares re-hashing every unchanged file. When it has
    none, no file: git starts from an empty index. The copy keeps the index's mtime: git
    re-reads a file not older than its index ("racy git"); a copy dated now would hide a
    change made in the instant of the index, size unchanged."""
    fd, name = tempfile.mkstemp(prefix="index-", dir=where)
    os.close(fd)
    index = Path(name)
    try:
        shutil.copy2(own, index)
    except FileNotFoundError:
        index.unlink()
    return index


class Worktree:
    """A git worktree made for one task by :func:`worktree`.

    Attributes:
        path: the worktree's root directory.
        cwd: where to run the agent: ``path``, or the same sub-directory of it as the
            ``repo`` given to :func:`worktree` was of its repository.
        base: the commit it was made from (a full sha).
        repo: the repository's common git dir (``.git`` of the main checkout).
        keep: whether it stays after the ``async with`` block.
    """

    __slots__ = ("base", "cwd", "keep", "path", "repo")

    def __init__(self, path: Path, cwd: Path, base: str, repo: Path, keep: bool) -> None:
        self.path = path
        self.cwd = cwd
        self.base = base
        self.repo = repo
        self.keep = keep

    def __repr__(self) -> str:
        return f"Worktree(path={str(self.path)!r}, base={self.base!r})"

    async def changes(self) -> Changes:
        """Everything the agent left in the worktree, against :attr:`base`.

        Files modified, added (untracked too, unless ``.gitignore`` excludes them) or
        deleted, and commits the agent made: one ``git diff`` (a binary file as ``Binary
        files ... differ``) and sorted paths; a rename is a deletion plus an addition. The
        worktree is left as it is: its files are staged in a temporary copy of its index
        (``GIT_INDEX_FILE``), so a kept worktree shows what the agent staged, no more. The
        blobs that writes are left, unreferenced, in the object store (as ``git add`` does).

        Raises:
            AgentError: git failed (what it said is in the message).

        Example::

            async with worktree("~/src/shop", "main", "task-1") as tree:
                ...  # run the agent with cwd=tree.cwd
                changes = await tree.changes()
        """
        own = await self._git(["rev-parse", "--git-path", "index"])
        index = _copy_index(self.path / own.stdout.decode().rstrip("\n"), self.path.parent)
        try:
            env = {"GIT_INDEX_FILE": str(index)}
            await self._git(["add", "--all", "--", "."], env)
            diff = ["diff", "--cached", "--no-renames", "--no-ext-diff", "--no-textconv"]
            listed = await self._git([*diff, "--name-status", "-z", self.base, "--"], env)
            text = await self._git(
                [*diff, "--no-color", "--src-prefix=a/", "--dst-prefix=b/", self.base, "--"],
                env,
            )
        finally:
            for leftover in (index, index.with_name(index.name + ".lock")):
                leftover.unlink(missing_ok=True)
        found: dict[str, list[str]] = {"A": [], "M": [], "D": []}
        fields = listed.stdout.split(b"\0")
        for status, path in zip(fields[0::2], fields[1::2], strict=False):
            kind = status.decode()[:1]
            found["M" if kind not in found else kind].append(os.fsdecode(path))
        return Changes(
            diff=text.stdout.decode("utf-8", "replace"),
            added=tuple(sorted(found["A"])),
            modified=tuple(sorted(found["M"])),
            deleted=tuple(sorted(found["D"])),
            base=self.base,
            worktree=str(self.path) if self.keep else None,
        )

    async def _git(
        self, args: list[str], env: Mapping[str, str] | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        done = await _git(self.path, args, env)
        if done.returncode:
            raise AgentError(
                f"git {args[0]} failed in the worktree {str(self.path)!r}: {_said(done)}"
            )
        return done


def _repo_dir(repo: str | Path) -> Path:
    where = Path(repo).expanduser()
    if not where.is_dir():
        raise AgentConfigError(
            f"repo {str(where)!r} is not a directory",
            hint="give the path of a git checkout (Task(repo=...))",
        )
    return where


async def _resolve(repo: Path, base: str) -> tuple[Path, str, str]:
    """The repository's common git dir, ``repo``'s prefix in it, and ``base`` as a sha."""
    if base.startswith("-") or "\0" in base or not base:  # an option to git, or no argv
        raise AgentConfigError(
            f"base {base!r} is not a git ref",
            hint="give a branch, tag or commit sha (Task(base=...))",
        )
    found = await _git(repo, ["rev-parse", "--git-common-dir", "--show-prefix"])
    if found.returncode:
        raise AgentConfigError(
            f"repo {str(repo)!r} cannot be used as a git repository: git said: {_said(found)}",
            hint="give the path of a git checkout (git init or git clone makes one)",
        )
    common, prefix = [*found.stdout.decode().split("\n"), ""][:2]
    sha = await _git(repo, ["rev-parse", "--verify", "--quiet", f"{base}^{{commit}}"])
    if sha.returncode:
        raise AgentConfigError(
            f"base {base!r} is not a commit in {str(repo)!r}: git rev-parse --verify "
            f"found {_said(sha) if sha.stderr else 'no such commit'}",
            hint="give a branch, tag or sha that exists there (git branch -a, git log)",
        )
    return (repo / common).resolve(), prefix, sha.stdout.decode().strip()


@contextlib.asynccontextmanager
async def worktree(
    repo: str | Path,
    base: str = "HEAD",
    name: str = "task",
    *,
    keep: bool = False,
    parent: str | Path | None = None,
) -> AsyncIterator[Worktree]:
    """A new git worktree of ``repo`` at ``base``, detached, for one task.

    Made in a new private temporary directory, named after ``name`` (characters unsafe in
    a path become ``-``). The user's checkout, index, branches and HEAD are not touched
    and no branch is made: the agent's commits are in :meth:`Worktree.changes`, or the
    kept worktree. On exit, also on an error or a cancellation, it is removed (``git
    worktree remove --force``), unless ``keep``: then it stays, in ``git worktree list``,
    for the user (``git worktree remove <path>`` when done). Git commands that change the
    worktree list take turns per repository, so a fleet makes many worktrees of one.

    Args:
        repo: a git checkout (or a directory inside one, then :attr:`Worktree.cwd` is the
            same directory in the worktree).
        base: the ref to check out: branch, tag, sha, ``HEAD``...; resolved once, to a sha.
        name: what to call the worktree's directory (the task id).
        keep: leave the worktree in place on exit (``keep_worktrees=True``).
        parent: where to make its temporary directory (default: the system's, ``TMPDIR``).

    Raises:
        AgentConfigError: ``repo`` is not a git repository, or ``base`` not a commit of it.
        AgentStartError: git is missing, or could not make the worktree (what it said).

    Example::

        async with worktree("~/src/shop", "main", "task-1") as tree:
            await run_async(prompt, AgentOptions(cwd=tree.cwd, force=True))
            changes = await tree.changes()
    """
    where = _repo_dir(repo)
    common, prefix, sha = await _resolve(where, base)
    lock = _repo_lock(str(common))
    # Resolved: the path git records. Its marker names the repository, so that a sweep
    # can drop the worktree's entry there too (docs/fleet.md).
    tmp = temp_dir("agent-sdk-worktree-", parent, repo=str(common))
    path = tmp / _safe_name(name)
    made = handed = False
    try:
        async with lock:
            # Shielded (with a limit) so a cancellation never leaves git's half-made entry;
            # --no-checkout keeps this short, and the repository's lock with it.
            add = ["worktree", "add", "--detach", "--no-checkout", str(path), sha]
            with anyio.CancelScope(shield=True) as scope:
                scope.deadline = anyio.current_time() + _GIT_LIMIT
                added = await _git(where, add)
            # Timed out: git was killed, maybe after it registered the worktree.
            made = scope.cancelled_caught or not added.returncode
        if scope.cancelled_caught or added.returncode:
            said = "no answer in time" if scope.cancelled_caught else _said(added)
            raise AgentStartError(
                f"git could not make a worktree of {str(where)!r} at {path}: {said}",
                hint="see what git said; 'git worktree prune' clears the entries of "
                "worktrees deleted by hand",
            )
        # The checkout runs outside the lock: it only touches the worktree's own files.
        filled = await _git(path, ["reset", "--hard", "--quiet", sha])
        if filled.returncode:
            raise AgentStartError(
                f"git could not check out {sha} in the worktree {path}: {_said(filled)}"
            )
        handed = True
        yield Worktree(path, path / prefix, sha, common, keep)
    finally:
        # Kept only once handed over: a worktree that failed to fill is of no use.
        if keep and handed:
            # The user's now: no longer this process's to sweep if it dies (docs/fleet.md).
            (tmp / MARKER).unlink(missing_ok=True)
        else:
            with anyio.CancelScope(shield=True) as scope:
                scope.deadline = anyio.current_time() + _GIT_LIMIT
                await _remove_worktree(where, path, lock, made)
            remove_tree(tmp)


async def _remove_worktree(repo: Path, path: Path, lock: anyio.Lock, made: bool) -> None:
    """Remove the worktree and its entry in the repository; never raises for git (an error
    raised from a ``finally`` would hide the one that ended the task)."""
    async with lock:
        if not made:
            return
        with contextlib.suppress(AgentStartError):
            # Twice forced: also when the agent locked it. Refused when it holds submodules.
            done = await _git(repo, ["worktree", "remove", "--force", "--force", str(path)])
            if not done.returncode:
                return
            remove_tree(path)
            # Drops the entries of worktrees whose directory is gone: ours now. (Also any
            # other whose directory is gone; `git gc` would drop those too.)
            await _git(repo, ["worktree", "prune"])
