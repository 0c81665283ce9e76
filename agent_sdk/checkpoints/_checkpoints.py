"""The checkpoints' functions (docs/sessions.md, "Checkpoints"): make one, finish it, what
changed since, rewind, list, remove, prune; public in ``agent_sdk.checkpoints``."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import AsyncIterator
from datetime import datetime, timezone

import anyio
import msgspec

from ..changes import REF_PREFIX, Changes, Checkpoint
from ..errors import AgentCheckpointError, AgentConfigError
from ._git import (
    Repo,
    commit,
    delete_ref,
    diff_entries,
    list_refs,
    open_repo,
    patch,
    scratch,
    set_ref,
    snapshot,
)
from ._lock import Hold, hold
from ._rewind import RewindResult, rewind_tree

__all__ = [
    "changes",
    "checkpoint",
    "finish",
    "list_checkpoints",
    "prune",
    "remove_checkpoint",
    "rewind",
    "running",
]

_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z._-]{0,99}")


class _Meta(msgspec.Struct, frozen=True, kw_only=True):
    """What a checkpoint's commits say of it, in their message (one JSON line)."""

    id: str
    root: str
    cwd: str
    created: datetime
    head: str | None = None
    label: str | None = None
    finished: datetime | None = None


def _message(meta: _Meta) -> str:
    kind = "after the run" if meta.finished else "before the run"
    return f"agent-sdk checkpoint {meta.id} ({kind})\n\n{msgspec.json.encode(meta).decode()}\n"


def _of(meta: _Meta, before: str, after: str | None) -> Checkpoint:
    return Checkpoint(
        id=meta.id,
        root=meta.root,
        cwd=meta.cwd,
        before=before,
        after=after,
        head=meta.head,
        created=meta.created,
        finished=meta.finished,
        label=meta.label,
    )


def _parsed(sha: str, parent: str, body: str) -> Checkpoint | None:
    try:
        meta = msgspec.json.decode(body.strip(), type=_Meta)
    except (msgspec.DecodeError, RecursionError):  # nested too deep: a RecursionError
        return None  # not one of ours
    return _of(meta, parent, sha) if meta.finished is not None else _of(meta, sha, None)


async def _load(repo: Repo, cp: Checkpoint) -> Checkpoint:
    """``cp`` as its ref says it is now (another process may have finished it)."""
    if not _ID.fullmatch(cp.id):
        raise AgentCheckpointError(f"{cp.id!r} is not a checkpoint id", reason="not_found")
    for sha, parent, body in await list_refs(repo, cp.ref):
        found = _parsed(sha, parent, body)
        if found is not None and found.id == cp.id:
            return found
    raise AgentCheckpointError(
        f"checkpoint {cp.id} is not in {str(repo.root)!r}: it was removed, or belongs to "
        "another repository",
        reason="not_found",
        hint="list_checkpoints(cwd) lists the checkpoints of a working tree",
    )


async def _tree_now(repo: Repo) -> str:
    with hold(repo.git_dir, Hold.CHECKPOINT), scratch() as where:
        return await snapshot(repo, where)


async def checkpoint(cwd: str | os.PathLike[str], *, label: str | None = None) -> Checkpoint:
    """Snapshot the working tree ``cwd`` is in, as it is, before a run.

    Tracked changes and untracked files are kept (``.gitignore`` honoured; a submodule
    as its commit), in a commit under ``refs/agent-sdk/checkpoints/<id>``: the user's
    index, branches, stash and files are not touched. If this process dies before it
    returns, the repository holds nothing of it but objects no ref reaches, which
    ``git gc`` removes. Two checkpoints of one tree are two, with their own ids.

    Raises:
        AgentCheckpointError: ``cwd`` is not in a git working tree (``not_a_repository``),
            git is missing, some files cannot be read (``unreadable``, ``paths``), or a
            rewind is in progress there.

    Example::

        cp = await checkpoint("~/src/shop", label="fix the cart")
    """
    repo = await open_repo(cwd)
    tree = await _tree_now(repo)
    now = datetime.now(timezone.utc)
    meta = _Meta(
        id=f"{now:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}",
        root=str(repo.root),
        cwd=str(repo.cwd),
        created=now,
        head=repo.head,
        label=label,
    )
    with anyio.CancelScope(shield=True):  # git killed holding the ref's lock would leave it
        sha = await commit(repo, tree, repo.head, _message(meta))
        refused = await set_ref(repo, REF_PREFIX + meta.id, sha)
    if refused is not None:
        raise AgentCheckpointError(
            f"git could not write the checkpoint's ref in {str(repo.root)!r}: {refused}",
            hint="see what git said: the repository may be damaged (git fsck) or its disk full",
        )
    return _of(meta, sha, None)


async def finish(cp: Checkpoint) -> Checkpoint:
    """Snapshot the tree after the run: :func:`changes` and :func:`rewind` then know
    the run's changes from what the user does after it. Returns the checkpoint with
    ``after`` set.

    Raises:
        AgentCheckpointError: it was finished already (``already_finished``: make a new
            checkpoint for a new run), removed (``not_found``), or the snapshot failed.
    """
    repo = await open_repo(cp.root)
    current = await _load(repo, cp)
    if current.after is None:
        tree = await _tree_now(repo)
        meta = _Meta(
            id=current.id,
            root=current.root,
            cwd=current.cwd,
            created=current.created,
            head=current.head,
            label=current.label,
            finished=datetime.now(timezone.utc),
        )
        with anyio.CancelScope(shield=True):  # as in checkpoint(): no lock file left
            sha = await commit(repo, tree, current.before, _message(meta))
            refused = await set_ref(repo, current.ref, sha, current.before)
        if refused is None:
            return _of(meta, current.before, sha)
        current = await _load(repo, cp)  # finished by another meanwhile, or removed
        if current.after is None:
            raise AgentCheckpointError(
                f"git could not write the checkpoint's ref in {str(repo.root)!r}: {refused}",
                hint="see what git said: the repository may be damaged (git fsck)",
            )
    raise AgentCheckpointError(
        f"checkpoint {cp.id} was finished already, at {current.finished}",
        reason="already_finished",
        hint="make a new checkpoint for a new run",
    )


async def changes(cp: Checkpoint) -> Changes:
    """What changed since the checkpoint: against its snapshot after the run, once
    :func:`finish` made it, else against the tree as it is now.

    Files added, modified and deleted (paths relative to the repository's root) and the
    unified diff of each, binary files named only; a rename is a deletion and an
    addition; ``base`` is ``cp.before``.

    Raises:
        AgentCheckpointError: it was removed, or git failed.
    """
    repo = await open_repo(cp.root)
    current = await _load(repo, cp)
    new = current.after if current.after is not None else await _tree_now(repo)
    entries = await diff_entries(repo, current.before, new)
    found: dict[str, list[str]] = {"added": [], "modified": [], "deleted": []}
    for path, entry in sorted(entries.items()):
        kind = "added" if entry.old_mode == "000000" else "modified"
        found["deleted" if entry.new_mode == "000000" else kind].append(path)
    return Changes(
        diff=await patch(repo, current.before, new),
        added=tuple(found["added"]),
        modified=tuple(found["modified"]),
        deleted=tuple(found["deleted"]),
        base=current.before,
    )


async def rewind(cp: Checkpoint, *, force: bool = False) -> RewindResult:
    """Put the working tree back as it was at the checkpoint: the files the run modified
    or deleted written back (content, mode, symlinks as links), the files it added
    removed, with the directories they leave empty; no other file, nor the index, is
    touched. Files already as they were are left alone (a second rewind does nothing).

    Refused while a run holds the tree (:func:`running`, any process), and when the
    user changed some of the run's files since :func:`finish` (unless ``force``).
    Without ``finish``, refused unless ``force``: then every file that differs from the
    checkpoint is put back, the user's changes too. Not cancelled half-way: once it
    writes, it finishes.

    Raises:
        AgentCheckpointError: ``run_in_progress``, ``changed_since`` (``paths``),
            ``not_finished``, ``not_found``, or git failed.

    Example::

        result = await rewind(cp)
        print(result.restored, result.removed)
    """
    repo = await open_repo(cp.root)
    current = await _load(repo, cp)
    return await rewind_tree(repo, current.before, current.after, force)


async def list_checkpoints(cwd: str | os.PathLike[str]) -> list[Checkpoint]:
    """The checkpoints of the working tree ``cwd`` is in, oldest first (those of the
    repository's other worktrees are not listed).

    Raises:
        AgentCheckpointError: ``cwd`` is not in a git working tree, or git failed.
    """
    repo = await open_repo(cwd)
    found = [_parsed(*ref) for ref in await list_refs(repo, REF_PREFIX)]
    mine = [cp for cp in found if cp is not None and cp.root == str(repo.root)]
    return sorted(mine, key=lambda cp: (cp.created, cp.id))


async def remove_checkpoint(cp: Checkpoint) -> None:
    """Remove the checkpoint's ref (nothing when it is gone already). Its objects are
    then unreachable: ``git gc`` removes them (after ``gc.pruneExpire``, two weeks by
    default; ``git gc --prune=now`` at once)."""
    if not _ID.fullmatch(cp.id):
        raise AgentCheckpointError(f"{cp.id!r} is not a checkpoint id", reason="not_found")
    repo = await open_repo(cp.root)
    with anyio.CancelScope(shield=True):  # as in checkpoint(): no lock file left
        await delete_ref(repo, cp.ref)


async def prune(cwd: str | os.PathLike[str], *, keep: int = 10) -> list[Checkpoint]:
    """Remove the checkpoints of the working tree ``cwd`` is in but the newest ``keep``
    (one is made per checkpointed run, and none goes by itself); returns those removed,
    oldest first. Their objects go with ``git gc``, as :func:`remove_checkpoint` says.

    Raises:
        AgentConfigError: ``keep`` is not a whole number >= 0.
        AgentCheckpointError: ``cwd`` is not in a git working tree, or git failed.

    Example::

        await prune("~/src/shop", keep=5)
    """
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
        raise AgentConfigError(
            f"prune(keep={keep!r}): keep must be a whole number >= 0",
            hint="e.g. prune(cwd, keep=10); keep=0 removes every checkpoint of the tree",
        )
    found = await list_checkpoints(cwd)
    gone = found[: max(len(found) - keep, 0)]
    for cp in gone:
        await remove_checkpoint(cp)
    return gone


@contextlib.asynccontextmanager
async def running(cwd: str | os.PathLike[str], *, label: str | None = None) -> AsyncIterator[None]:
    """Mark a run in progress in the working tree ``cwd`` is in, for as long as the block
    runs: :func:`rewind` of that tree is refused meanwhile, in any process. Runs may
    hold it together; a holder that dies releases it.

    Raises:
        AgentCheckpointError: a rewind is in progress there (``rewind_in_progress``), or
            ``cwd`` is not in a git working tree.
    """
    repo = await open_repo(cwd)
    with hold(repo.git_dir, Hold.RUN, label):
        yield
