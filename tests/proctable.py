"""Reading the process table (/proc), to prove that no process of a run is left behind."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple


def _stat(pid_dir: Path) -> tuple[int, str, int, int] | None:
    """(pid, state, ppid, pgrp) of one /proc entry, or None if it vanished."""
    try:
        data = (pid_dir / "stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces: split after the last ')'.
    rest = data[data.rindex(")") + 2 :].split()
    return int(pid_dir.name), rest[0], int(rest[1]), int(rest[2])


class Stat(NamedTuple):
    """Fields of ``/proc/<pid>/stat`` (proc(5))."""

    state: str
    ppid: int
    pgrp: int
    session: int
    #: The controlling terminal's device number; 0: none.
    tty_nr: int
    #: When it started, in clock ticks after boot: tells a reused pid apart.
    start: int


def stat(pid: int) -> Stat | None:
    """The ``/proc`` facts of ``pid``, or None if there is no such process."""
    try:
        data = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # Fields 3 on, after the command name (in parentheses, may hold spaces).
    rest = data[data.rindex(")") + 2 :].split()
    return Stat(rest[0], int(rest[1]), int(rest[2]), int(rest[3]), int(rest[4]), int(rest[19]))


def ticks_since_boot() -> int:
    """Now, in the unit of :attr:`Stat.start`."""
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return int(uptime * os.sysconf("SC_CLK_TCK"))


def session_members(sid: int) -> list[int]:
    """The live processes (no zombies) of session ``sid``."""
    found = []
    for entry in Path("/proc").iterdir():
        facts = stat(int(entry.name)) if entry.name.isdigit() else None
        if facts is not None and facts.session == sid and facts.state != "Z":
            found.append(int(entry.name))
    return found


def _table() -> list[tuple[int, str, int, int]]:
    rows = (_stat(p) for p in Path("/proc").iterdir() if p.name.isdigit())
    return [row for row in rows if row is not None]


def group_members(pgid: int) -> list[int]:
    """Processes of a process group that are still there for us to worry about.

    A zombie whose parent is this test process is a leak (we failed to reap it); one
    whose parent is init is already dead and init's to reap, so it does not count.
    """
    me = os.getpid()
    return [
        pid for pid, state, ppid, pgrp in _table() if pgrp == pgid and (state != "Z" or ppid == me)
    ]


def group_is_gone(pid: int | None) -> bool:
    """Whether the process group ``pid`` leads is gone (``killpg`` finds no member)."""
    assert pid is not None
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return True
    return False


def is_running(pid: int) -> bool:
    """Whether a process exists and is not a zombie owned by someone else."""
    me = os.getpid()
    return any(
        row_pid == pid and (state != "Z" or ppid == me) for row_pid, state, ppid, _ in _table()
    )


def children() -> list[int]:
    """Direct children of this process (zombies included: unreaped children are leaks)."""
    me = os.getpid()
    return [pid for pid, _, ppid, _ in _table() if ppid == me]


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def settles(check: Callable[[], bool], within: float = 5.0) -> bool:
    """Whether ``check()`` becomes true within ``within`` seconds. A SIGKILL is delivered
    asynchronously: a process of the group may outlive ``killpg`` by a moment, and an
    orphan is reaped by init, not by us."""
    deadline = time.monotonic() + within
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _live_processes(holds: Callable[[Path], bool]) -> list[int]:
    """The live processes (no zombies) for whose /proc entry ``holds`` is true."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z" and holds(entry):
                found.append(int(entry.name))
        except (OSError, IndexError):
            continue  # it ended while we looked
    return found


def processes_with_arg(arg: str) -> list[int]:
    """The live processes one of whose argv words is ``arg``."""
    return _live_processes(
        lambda entry: arg.encode() in (entry / "cmdline").read_bytes().split(b"\0")
    )


def processes_with_env(name: str, value: str) -> list[int]:
    """The live processes whose environment holds ``name=value`` (inherited by children)."""
    wanted = f"{name}={value}".encode()
    return _live_processes(lambda entry: wanted in (entry / "environ").read_bytes().split(b"\0"))
