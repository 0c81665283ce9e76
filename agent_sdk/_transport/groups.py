"""The process groups this program started and has not yet killed, and who ends them
when the program cannot (docs/lifecycle.md, "When the program dies").

Every group is tracked from its start (:func:`track`) until its SIGKILL
(:func:`untrack`, sent by the teardown, before the leader is reaped: a pgid is never
freed for reuse while it is tracked). Two things end the groups still tracked:

- the program's own exit (:func:`kill_all`, an ``atexit`` hook of the transport);
- **the watchdog**, when the program dies without running it (SIGKILL, a signal it has
  no handler for): one small process per program, started at the first start, blocked
  on the read end of a pipe whose write end only this program holds. At end of file
  (the program died, or exited: the kernel closes the write end either way) it reads
  the table of groups and sends SIGKILL to each, then exits. It is not this program's
  child (``sh`` starts it in the background and exits), so nothing has to reap it.

The table is a file with no name (a memfd; elsewhere a temporary file unlinked at once)
shared with the watchdog as its stdout: one 12-byte record per slot, ``+pgid`` while
the group is tracked, ``-`` once it is not. Writing it wakes nobody: a start costs one
``pwrite``, an end one more.

A forked child starts with no group and no watchdog (``os.register_at_fork``): its
parent's groups are its parent's, and the inherited descriptors are closed, so that the
parent's death is still an end of file and the child never writes the parent's table.

A group is not all a run starts (``strays.py``): each CLI carries a mark of its run in
its environment (:func:`new_mark`), and :func:`end` kills, with the group, the CLI's tree
and every process that carries the mark. The watchdog does the same for every run of the
program (their marks share the program's part, given to it at its start).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time

from . import strays
from .sweep_memory import MEMORY

__all__ = ["end", "end_conversation", "kill_all", "mark_of", "new_mark", "track"]

SIGKILL = 9
RECORD = 12  # b"+%10d\n": a pid fits in 10 digits on every system

#: The watchdog's own part (``python -I -S``: no site, no ``PYTHON*`` variables; a few
#: milliseconds, once), run after the source of ``strays.py``, with the program's part of
#: the runs' marks as its argument. It ignores the terminal's signals: it must outlive
#: the program, and ends by itself at end of file.
PROGRAM = """
import _signal, sys
for sig in (_signal.SIGINT, _signal.SIGHUP, _signal.SIGQUIT, _signal.SIGTSTP):
    _signal.signal(sig, _signal.SIG_IGN)
while os.read(0, 512):
    pass
os.lseek(1, 0, 0)
table = b""
while chunk := os.read(1, 65536):
    table += chunk
live = False
for i in range(0, len(table), 12):
    if table[i : i + 1] == b"+":
        live = True
        try:
            os.killpg(int(table[i + 1 : i + 12]), 9)
        except (OSError, ValueError):
            pass
if live and len(sys.argv) > 1:
    sweep(program_mark(sys.argv[1]))
"""

#: ``sh`` starts the watchdog in the background, on the pipe (a background job's stdin
#: would be /dev/null), and exits: the watchdog is re-parented to init. The argv is a
#: list; nothing of the user's goes through this shell.
_DETACH = 'exec 3<&0; "$@" <&3 3<&- &'


class _Watchdog:
    """This program's side: the pipe's write end, the table, its slots."""

    __slots__ = ("life", "slots", "spare", "table")

    def __init__(self, life: int, table: int) -> None:
        self.life = life
        self.table = table
        self.slots: dict[int, int] = {}  # pgid -> record index
        self.spare: list[int] = []

    def write(self, pgid: int) -> None:
        slot = self.spare.pop() if self.spare else len(self.slots)
        os.pwrite(self.table, b"+%10d\n" % pgid, slot * RECORD)
        self.slots[pgid] = slot

    def erase(self, pgid: int) -> None:
        slot = self.slots.pop(pgid, None)
        if slot is not None:
            os.pwrite(self.table, b"-", slot * RECORD)
            self.spare.append(slot)

    def alive(self) -> bool:
        """Whether the watchdog still holds the pipe (someone may have killed it)."""
        import select

        poller = select.poll()
        poller.register(self.life, 0)
        return not poller.poll(0)  # POLLERR: no reader left

    def close(self) -> None:
        os.close(self.life)
        os.close(self.table)


_groups: dict[int, tuple[str, float]] = {}  # pgid -> (its run's mark, monotonic start)
_lock = threading.Lock()
_watchdog: _Watchdog | None = None
_UNKNOWN = ""
_python: str | None = _UNKNOWN
_program = ""  # this program's part of its runs' marks, made at its first run
_runs = 0


def new_mark() -> str:
    """The value of a new run's mark (``strays.VARIABLE``): ``<program>.<run>``."""
    global _program, _runs
    with _lock:
        if not _program:
            _program = os.urandom(8).hex()
        _runs += 1
        return f"{_program}.{_runs}"


def mark_of(pgid: int) -> str | None:
    """The mark of the tracked group ``pgid``'s run, or ``None``."""
    tracked = _groups.get(pgid)
    return tracked[0] if tracked is not None else None


def track(pgid: int, mark: str) -> None:
    """A group was started, its processes marked ``mark``: ended at exit, or by the
    watchdog if the program dies."""
    global _watchdog
    MEMORY.started(pgid)  # read between its fork and its exec, it seemed unmarked
    with _lock:
        _groups[pgid] = (mark, time.monotonic())
        if _watchdog is not None and _watchdog.alive():
            # A table that cannot grow (no memory) leaves this group to the exit-time
            # kill: closing our end would make the watchdog kill every group.
            with contextlib.suppress(OSError):
                _watchdog.write(pgid)
            return
        if _watchdog is not None:
            _watchdog.close()  # it was killed: nobody reads its pipe any more
        _watchdog = _start()  # it learns every tracked group, this one included


def end(pgid: int, tree: strays.Tree | None = None) -> None:
    """SIGKILL the group, the CLI's ``tree`` (taken now if not given: before the group
    dies, or its members' children are orphaned) and every process carrying the run's
    mark; then nothing more to end. Synchronous: nothing can interrupt it."""
    if tree is None:
        tree = strays.Tree(pgid)
    with contextlib.suppress(ProcessLookupError, PermissionError):  # gone already
        os.killpg(pgid, SIGKILL)
    tree.signal(SIGKILL)
    tree.close()
    tracked = _groups.get(pgid)
    if tracked is not None:
        mark, started = tracked
        after = strays.since_pid(pgid, time.monotonic() - started, strays.pid_span())
        strays.sweep(strays.run_mark(mark), after, memory=MEMORY)
    _untrack(pgid)


def end_conversation(pgid: int, conversation_id: str, since: int) -> None:
    """SIGKILL the processes of the tracked group ``pgid``'s run that carry the chat's
    ``CURSOR_CONVERSATION_ID`` (docs/protocol.md §1) and started at tick ``since`` or later
    (``strays.ticks_now()``): a cancelled live turn's commands, not the agent's helpers."""
    mark = mark_of(pgid)
    if mark is not None and since:
        chat = b"\0CURSOR_CONVERSATION_ID=%s\0" % conversation_id.encode()
        strays.sweep(strays.run_mark(mark), also=chat, since=since, memory=MEMORY)


def _untrack(pgid: int) -> None:
    """The group was sent SIGKILL (it cannot survive it): nothing more to end."""
    with _lock:
        _groups.pop(pgid, None)
        if _watchdog is not None:
            with contextlib.suppress(OSError):  # then the watchdog kills a dead group
                _watchdog.erase(pgid)


def kill_all() -> None:
    """End every tracked group (the program's exit), and let the watchdog go."""
    global _watchdog
    for pgid in list(_groups):
        end(pgid)
    with _lock:
        if _watchdog is not None:
            _watchdog.close()  # end of file: the watchdog exits, with nothing to kill
            _watchdog = None


def _start() -> _Watchdog | None:
    python = _interpreter()
    if python is None:
        return None
    import subprocess

    try:
        table = _table()
    except OSError:
        return None  # no descriptor left: the exit-time kill still holds
    program = _watchdog_program()
    read, write = os.pipe()
    watchdog = _Watchdog(write, table)
    try:
        for pgid in _groups:
            watchdog.write(pgid)
        subprocess.Popen(
            ["/bin/sh", "-c", _DETACH, "agent_sdk-watchdog", python, "-I", "-S", "-c", *program],
            stdin=read,
            stdout=table,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # no terminal signal of the program's group reaches it
        ).wait()  # sh only: it exits at once, leaving the watchdog running
    except OSError:
        watchdog.close()
        return None
    finally:
        os.close(read)
    return watchdog


def _watchdog_program() -> list[str]:
    """The watchdog's program and argument: ``strays.py``'s source, :data:`PROGRAM` and
    the program's part of the marks; where that source cannot be read (a zip archive),
    the groups alone."""
    try:
        with open(strays.__file__, encoding="utf-8") as f:
            return [f.read() + PROGRAM, _program]
    except (OSError, TypeError):
        return ["import os\n" + PROGRAM]


def _table() -> int:
    """A file with no name, for the watchdog's table."""
    if hasattr(os, "memfd_create"):  # Linux
        return os.memfd_create("agent_sdk-watchdog")
    import tempfile

    fd, path = tempfile.mkstemp(prefix="agent_sdk-watchdog-")
    os.unlink(path)
    return fd


def _interpreter() -> str | None:
    """The Python that runs the watchdog; ``None`` in an embedding program (uwsgi, a
    frozen app), whose ``sys.executable`` would not run ``-c``."""
    global _python
    if _python == _UNKNOWN:
        python = os.path.realpath(sys.executable) if sys.executable else ""
        usable = os.path.basename(python).startswith("python") and os.access(python, os.X_OK)
        _python = python if usable else None
    return _python


def _forget_in_child() -> None:
    global _watchdog, _lock, _program, _runs
    _lock = threading.Lock()  # another thread may have held it at the fork
    _groups.clear()
    _program, _runs = "", 0  # its runs are its own: its watchdog must not end its parent's
    watchdog, _watchdog = _watchdog, None
    if watchdog is not None:
        watchdog.close()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_forget_in_child)
