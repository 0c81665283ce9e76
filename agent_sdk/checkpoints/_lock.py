"""Who is working in a tree (docs/sessions.md, "Checkpoints"): a run in progress, a
checkpoint being made, or a rewind. A rewind is refused while anything else is, and
everything else while a rewind is, across processes.

The lock is ``flock`` on ``<git dir>/agent-sdk/tree.lock``: shared for runs and snapshots,
exclusive for a rewind, never waited for. The kernel drops it when its holder dies, so a
dead owner never blocks the tree. Next to it, ``runs/`` holds one small file per holder
(its pid, start time, host, what it does, its label): only to say who holds the tree; a
dead holder's file is stale (``is_gone`` of ``_transport/owner.py``) and removed by the
next one who looks.
Both live in the git dir of the working tree (a linked worktree's own), never in the tree.
"""

from __future__ import annotations

import contextlib
import enum
import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import msgspec

from .._transport.owner import Owner, is_gone, me
from ..errors import AgentCheckpointError

__all__ = ["Hold", "hold", "holders"]


class Hold(enum.Enum):
    """What a holder of a tree does there."""

    RUN = "run"
    CHECKPOINT = "checkpoint"
    REWIND = "rewind"


class Holder(msgspec.Struct, frozen=True):
    """A holder's file in ``runs/``."""

    owner: Owner
    what: str
    since: float
    label: str | None = None


_MAX_HOLDER = 64 * 1024  # bytes read of a holder's file at most: it is a few dozen


def _fcntl() -> ModuleType:
    try:
        import fcntl
    except ImportError as exc:  # Windows: no flock
        raise AgentCheckpointError(
            "checkpoints cannot lock a tree on this system (no fcntl.flock)",
            reason="git_failed",
            hint="run checkpoints on Linux or macOS",
        ) from exc
    return fcntl


def _place(git_dir: Path) -> Path:
    place = git_dir / "agent-sdk"
    (place / "runs").mkdir(mode=0o700, parents=True, exist_ok=True)
    return place


def holders(git_dir: Path) -> list[Holder]:
    """The live holders' files of a tree (the files of dead ones are removed)."""
    found: list[Holder] = []
    with contextlib.suppress(OSError), os.scandir(git_dir / "agent-sdk" / "runs") as entries:
        for entry in entries:
            try:
                with open(entry.path, "rb") as file:
                    holder = msgspec.json.decode(file.read(_MAX_HOLDER), type=Holder)
            # anyone who can write the git dir can write here: JSON nested too deep is a
            # RecursionError in msgspec, and a file that is no holder's is passed over
            except (OSError, msgspec.DecodeError, RecursionError):
                continue
            if is_gone(holder.owner):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
            else:
                found.append(holder)
    return sorted(found, key=lambda holder: holder.since)


def _busy(git_dir: Path, what: Hold) -> AgentCheckpointError:
    found = holders(git_dir)
    if what is not Hold.REWIND:
        found = [h for h in found if h.what == Hold.REWIND.value]
    said = "; ".join(
        f"{h.what} by pid {h.owner.pid}"
        + (f" ({h.label})" if h.label else "")
        + f", since {time.strftime('%H:%M:%S', time.localtime(h.since))}"
        for h in found
    )
    if what is Hold.REWIND:
        return AgentCheckpointError(
            "cannot rewind: a run is in progress in this tree "
            f"({said or 'a run, a checkpoint or a rewind'})",
            reason="run_in_progress",
            hint="wait for it to end (or stop it), then rewind",
        )
    return AgentCheckpointError(
        f"cannot {what.value}: a rewind is in progress in this tree ({said or 'another'})",
        reason="rewind_in_progress",
        hint="wait for the rewind to end (a second or so), then try again",
    )


@contextlib.contextmanager
def hold(git_dir: Path, what: Hold, label: str | None = None) -> Iterator[None]:
    """Hold the tree whose git dir is ``git_dir`` for ``what``: exclusively for a rewind,
    shared otherwise; never waits.

    Raises:
        AgentCheckpointError: a rewind holds it (for a run or a checkpoint); anyone does
            (for a rewind).
    """
    fcntl = _fcntl()
    place = _place(git_dir)
    fd = os.open(place / "tree.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        kind = fcntl.LOCK_EX if what is Hold.REWIND else fcntl.LOCK_SH
        try:
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _busy(git_dir, what) from None
        if what is Hold.REWIND:
            holders(git_dir)  # the files of dead holders go (no live one but us)
        mine = place / "runs" / f"{what.value}-{os.getpid()}-{secrets.token_hex(4)}.json"
        made = os.open(mine, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        with os.fdopen(made, "wb") as file:
            file.write(msgspec.json.encode(Holder(me(), what.value, time.time(), label)))
        try:
            yield
        finally:
            mine.unlink(missing_ok=True)
    finally:
        os.close(fd)  # drops the lock
