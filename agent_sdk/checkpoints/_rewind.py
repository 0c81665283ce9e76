"""A rewind (docs/sessions.md, "Checkpoints"): the files a run changed put back as they
were at its checkpoint, and nothing else touched.

What the run changed is the diff between the checkpoint's two snapshots, "before" and
"after" the run. Each of those files is put back unless it is as it was already (a rewind
done twice does nothing the second time), or the user changed it since the run ended
(then the rewind is refused, unless forced). Files the run added are removed, and their
directories left empty; the others are written by git from the "before" snapshot.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath

import anyio
import msgspec

from ..errors import AgentCheckpointError
from ._git import GITLINK, Entry, Repo, diff_entries, restore, scratch, snapshot
from ._lock import Hold, hold

__all__ = ["RewindResult", "rewind_tree"]

_ABSENT = "000000"


class RewindResult(msgspec.Struct, frozen=True, kw_only=True):
    """What a rewind did, paths relative to the repository's root, sorted.

    Attributes:
        restored: files written back as they were at the checkpoint (modified or deleted
            by the run).
        removed: files the run had added, removed (and their directories left empty).
        skipped: paths left as they are: submodules and nested repositories (their
            commit only is in a snapshot, never their files), and a path where a
            directory now stands that is not empty (a rewind never deletes a directory
            with files in it).
    """

    restored: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()


def _parents(path: str) -> list[str]:
    return [str(parent) for parent in PurePosixPath(path).parents][:-1]  # without "."


def _overlapping(changed: Iterable[str], theirs: Iterable[str]) -> list[str]:
    """The paths of ``theirs`` that are, contain or sit in one of ``changed``."""
    files = set(changed)
    dirs = {parent for path in files for parent in _parents(path)}
    return sorted(
        path
        for path in theirs
        if path in files or path in dirs or any(p in files for p in _parents(path))
    )


def _plain_parents(root: Path, path: str) -> bool:
    """Whether every directory leading to ``path`` is a real directory, no symlink: never
    remove a file through a link to somewhere else."""
    where = root
    for part in PurePosixPath(path).parts[:-1]:
        where = where / part
        try:
            if not stat.S_ISDIR(os.lstat(where).st_mode):
                return False
        except OSError:
            return False
    return True


def _remove(root: Path, path: str) -> bool:
    """Remove the file (or link) ``path`` and the directories it leaves empty; ``False``
    when a directory stands there (left alone)."""
    if not _plain_parents(root, path):
        return True  # not there: a link or a file replaced a directory on its way
    target = root / path
    try:
        if stat.S_ISDIR(os.lstat(target).st_mode):
            return False
        target.unlink()
    except FileNotFoundError:
        pass
    for parent in _parents(path):
        try:
            os.rmdir(root / parent)
        except OSError:
            break  # not empty (or gone): so are the ones above
    return True


def _clear_for(root: Path, path: str) -> bool:
    """Make room for a file at ``path``: an empty directory there is removed; ``False``
    when one with files stands there (git would delete all of it)."""
    target = root / path
    with contextlib.suppress(OSError):
        if _plain_parents(root, path) and stat.S_ISDIR(os.lstat(target).st_mode):
            try:
                os.rmdir(target)
            except OSError:
                return False
    return True


async def _apply(
    repo: Repo, todo: list[Entry], changed: Mapping[str, Entry], where: Path
) -> RewindResult:
    removed: list[str] = []
    back: list[Entry] = []
    skipped: list[str] = []
    for entry in todo:
        modes = (entry.old_mode, entry.new_mode, changed[entry.path].new_mode)
        if GITLINK in modes:
            skipped.append(entry.path)
        elif entry.old_mode == _ABSENT:
            (removed if _remove(repo.root, entry.path) else skipped).append(entry.path)
        elif _clear_for(repo.root, entry.path):
            back.append(entry)
        else:
            skipped.append(entry.path)
    try:
        await restore(repo, back, where)
    except AgentCheckpointError as exc:
        raise AgentCheckpointError(
            f"the rewind stopped half-way: {len(removed)} added files were removed, then "
            f"git could not write back {len(back)} files: {exc.message}",
            paths=tuple(entry.path for entry in back),
            hint="fix what git said, then rewind again with force=True to finish",
        ) from exc
    return RewindResult(
        restored=tuple(sorted(entry.path for entry in back)),
        removed=tuple(sorted(removed)),
        skipped=tuple(sorted(skipped)),
    )


async def rewind_tree(repo: Repo, before: str, after: str | None, force: bool) -> RewindResult:
    """Put back the files that differ between ``before`` and ``after`` (commits) as they
    are in ``before``; without ``after``, with ``force``, every file that differs now.

    Raises:
        AgentCheckpointError: anyone works in the tree (``run_in_progress``); no ``after``
            and no ``force`` (``not_finished``); the user changed some of those files
            since ``after``, and no ``force`` (``changed_since``, ``paths``).
    """
    with hold(repo.git_dir, Hold.REWIND), scratch() as where:
        if after is None and not force:
            raise AgentCheckpointError(
                "cannot rewind: the checkpoint has no snapshot of the tree after the run, so "
                "the run's changes cannot be told from yours",
                reason="not_finished",
                hint="call checkpoints.finish(checkpoint) when the run ends; or rewind with "
                "force=True to put back every file that differs from the checkpoint, yours too",
            )
        now = await snapshot(repo, where)
        pending = await diff_entries(repo, before, now)
        changed = pending if after is None else await diff_entries(repo, before, after)
        if not force and after is not None:
            drift = await diff_entries(repo, after, now)
            theirs = _overlapping(changed, (path for path in drift if path in pending))
            if theirs:
                shown = ", ".join(map(repr, theirs[:5]))
                more = f" and {len(theirs) - 5} more" if len(theirs) > 5 else ""
                raise AgentCheckpointError(
                    f"cannot rewind: {shown}{more} changed since the run ended, and the "
                    "rewind would undo that",
                    reason="changed_since",
                    paths=tuple(theirs),
                    hint="save what you want to keep of them, then rewind with force=True",
                )
        todo = [pending[path] for path in sorted(changed) if path in pending]
        # Shielded: a rewind cancelled half-way would leave a tree that is neither.
        with anyio.CancelScope(shield=True):
            done = await _apply(repo, todo, changed, where)
    return done
