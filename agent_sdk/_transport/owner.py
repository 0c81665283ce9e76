"""Who owns a temporary directory agent_sdk made, and whether that owner is gone
(docs/fleet.md, "What can remain, and when it goes"; docs/protocol.md §1, "Many runs at
once").

Each directory a fleet makes (a config dir, a worktree's), and the private config dir of a
run given a model, holds a marker file naming its
owner: the process's pid, its start time and the host. A process killed with SIGKILL runs
no cleanup: its directories stay, with copies of the user's login in the config dirs.
The next fleet started on the machine removes those whose owner is gone: no such pid, or
the pid now names another process (another start time). A live owner's are never touched.
"""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import msgspec

from .log import INFO, log

__all__ = ["MARKER", "PREFIXES", "Owner", "is_gone", "mark", "me", "stale_dirs", "sweep"]

MARKER = ".agent-sdk-owner"
"""The marker's file name, at the top of each directory."""

PREFIXES = (
    "agent-sdk-config-",
    "agent-sdk-worktree-",
    "agent-sdk-model-",
    "agent-sdk-tools-",
    "agent-sdk-home-",
    "agent-sdk-plugin-",
    "agent-sdk-checkpoint-",
)
"""How the names of the directories agent_sdk makes begin (the third: a run's, given a
model, ``_transport/config_dir.py``; the fourth: the socket of a run's tools,
``extend/_host.py``; the fifth: a run's own HOME for its tools, ``extend/_home.py``;
the sixth: a run's own plugin folder for them, ``extend/_plugin.py``; the last: a
checkpoint's temporary indexes, ``checkpoints/_git.py``)."""

_MAX_MARKER = 64 * 1024  # bytes read of a marker at most: it is a few dozen


class Owner(msgspec.Struct, frozen=True):
    """The process that made a directory.

    Attributes:
        pid: its process id.
        started: its start time as the OS keeps it (Linux: field 22 of
            ``/proc/<pid>/stat``, clock ticks since boot); ``None`` where unknown, and
            then a pid in use is taken as the owner.
        host: the machine's host name (a temp dir shared with another machine or
            container is judged only by the processes of its own).
        repo: for a worktree's directory, the repository's common git dir, whose
            worktree list holds its entry.
    """

    pid: int
    started: str | None
    host: str
    repo: str | None = None


def _start_time(pid: int) -> tuple[str, str] | None:
    """(state, start time) of process ``pid`` from ``/proc``; ``None`` without one."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        data = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    # The command name is in parentheses and may hold anything: split after the last ')'.
    fields = data[data.rindex(b")") + 2 :].split()
    return fields[0].decode(), fields[19].decode()  # fields 3 and 22


def me(repo: str | None = None) -> Owner:
    """This process, as the owner of a directory it makes."""
    found = _start_time(os.getpid())
    return Owner(os.getpid(), found[1] if found else None, socket.gethostname(), repo)


def mark(directory: Path, repo: str | None = None) -> None:
    """Write the marker naming this process in ``directory`` (new, and private)."""
    fd = os.open(directory / MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(msgspec.json.encode(me(repo)))


def is_gone(owner: Owner) -> bool:
    """Whether ``owner`` has ended: no process has its pid, or the one that has it
    started at another time (the pid was reused), or it is a zombie. An owner on another
    host, or one that cannot be told apart, is taken as alive."""
    if owner.host != socket.gethostname() or owner.pid <= 0:
        return False
    try:
        os.kill(owner.pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # PermissionError: another user's process has it, so it lives
        pass
    found = _start_time(owner.pid)
    if found is None:
        return False
    state, started = found
    return state == "Z" or (owner.started is not None and started != owner.started)


def _read_marker(directory: Path) -> Owner | None:
    """The owner a marker names; ``None`` when there is none, or not one we wrote."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(directory / MARKER, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as marker:
        if not stat.S_ISREG(os.fstat(marker.fileno()).st_mode):
            return None
        data = marker.read(_MAX_MARKER)
    with contextlib.suppress(msgspec.DecodeError, RecursionError):
        return msgspec.json.decode(data, type=Owner)
    return None


def stale_dirs(
    parent: Path, prefixes: str | tuple[str, ...] = PREFIXES
) -> list[tuple[Path, Owner]]:
    """The directories agent_sdk made in ``parent`` whose owner is gone, with it: only
    this user's real directories (no link) holding a marker, whose names begin with one
    of ``prefixes`` (no other marker is read: a run's sweep costs what its own kind left,
    not every fleet's worktrees)."""
    found: list[tuple[Path, Owner]] = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return found
    uid = os.getuid() if hasattr(os, "getuid") else None
    for entry in entries:
        if not entry.name.startswith(prefixes):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or (uid is not None and info.st_uid != uid):
            continue
        owner = _read_marker(Path(entry.path))
        if owner is not None and is_gone(owner):
            found.append((Path(entry.path), owner))
    return found


def sweep(prefix: str, remove: Callable[[Path], object]) -> None:
    """Remove (with ``remove``) the directories of kind ``prefix`` in the system's temp
    dir whose owner died before removing them: what a run of that kind does at its start.
    Never raises for a directory: ``remove`` is expected to ignore what it cannot do."""
    for directory, owner in stale_dirs(Path(tempfile.gettempdir()), prefix):
        log("transport", INFO, "removing %s, left by dead process %d", directory, owner.pid)
        remove(directory)
