"""The process groups this program started and has not yet killed, and who ends them
when the program cannot (docs/lifecycle.md, "When the program dies").

Every group is tracked from its start (:func:`track`) until its SIGKILL
(:func:`untrack`, sent by the teardown, before the leader is reaped: a pgid is never
freed for reuse while it is tracked). Two things end the groups still tracked:

- the program's own exit (:func:`kill_all`, an ``atexit`` hook of the transport);
- **the watchdog**, when the program dies without running it (SIGKILL, a signal it has
  no handler for): one small process per program, started at the first start, that
  holds the read end of a pipe only this program writes to. It learns each group as
  ``+pgid`` and ``-pgid`` lines; at end of file (the program has died, or exited: the
  kernel closes the write end either way) it sends SIGKILL to every group it holds, and
  exits. It is not this program's child (``sh`` starts it in the background and
  exits), so nothing has to reap it and it is never among the program's children.

A forked child starts with no group and no watchdog (``os.register_at_fork``): its
parent's groups are its parent's, and the inherited write end is closed so that the
parent's death is still an end of file.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading

__all__ = ["kill_all", "track", "untrack"]

SIGKILL = 9

#: The watchdog (``python -I -S``: no site, no ``PYTHON*`` variables; a few
#: milliseconds, once). It ignores the terminal's signals: it must outlive the program,
#: and ends by itself at end of file.
PROGRAM = """\
import _signal, os
for sig in (_signal.SIGINT, _signal.SIGHUP, _signal.SIGQUIT, _signal.SIGTSTP):
    _signal.signal(sig, _signal.SIG_IGN)
groups, rest = set(), b""
while True:
    data = os.read(0, 65536)
    if not data:
        break
    *lines, rest = (rest + data).split(b"\\n")
    for line in lines:
        if line[:1] == b"+":
            groups.add(int(line[1:]))
        elif line[:1] == b"-":
            groups.discard(int(line[1:]))
for pgid in groups:
    try:
        os.killpg(pgid, 9)
    except OSError:
        pass
"""

#: ``sh`` starts the watchdog in the background, on the pipe (a background job's stdin
#: would be /dev/null), and exits: the watchdog is re-parented to init. The argv is a
#: list; nothing of the user's goes through this shell.
_DETACH = 'exec 3<&0; "$@" <&3 3<&- &'

_groups: set[int] = set()
_lock = threading.Lock()
_pipe: int | None = None  # our end: the write end of the watchdog's pipe
_UNKNOWN = ""
_python: str | None = _UNKNOWN


def track(pgid: int) -> None:
    """A group was started: ended at exit, or by the watchdog if the program dies."""
    _groups.add(pgid)
    _tell(b"+%d\n" % pgid)


def untrack(pgid: int) -> None:
    """A group was sent SIGKILL (it cannot survive it): nothing more to end."""
    _groups.discard(pgid)
    _tell(b"-%d\n" % pgid)


def kill_all() -> None:
    """Kill every tracked group (the program's exit), and let the watchdog go."""
    for pgid in list(_groups):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, SIGKILL)
    _groups.clear()
    _close()  # end of file: the watchdog exits, holding no group


def _tell(line: bytes) -> None:
    with _lock:
        if _pipe is not None:
            try:
                os.write(_pipe, line)
                return
            except OSError:  # the watchdog was killed: start another
                _close_locked()
        if line[:1] == b"+":
            _start_locked()  # it learns every tracked group, this one included


def _start_locked() -> None:
    global _pipe
    python = _interpreter()
    if python is None:
        return
    import subprocess

    read, write = os.pipe()
    try:
        subprocess.Popen(
            ["/bin/sh", "-c", _DETACH, "agent_sdk-watchdog", python, "-I", "-S", "-c", PROGRAM],
            stdin=read,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # no terminal signal of the program's group reaches it
        ).wait()  # sh only: it exits at once, leaving the watchdog running
        os.write(write, b"".join(b"+%d\n" % pgid for pgid in _groups))
    except OSError:
        os.close(write)  # no watchdog (no fd, no sh): the exit-time kill still holds
        return
    finally:
        os.close(read)
    _pipe = write


def _close() -> None:
    with _lock:
        _close_locked()


def _close_locked() -> None:
    global _pipe
    fd, _pipe = _pipe, None
    if fd is not None:
        os.close(fd)


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
    global _pipe, _lock
    _lock = threading.Lock()  # another thread may have held it at the fork
    _groups.clear()
    fd, _pipe = _pipe, None
    if fd is not None:
        os.close(fd)


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_forget_in_child)
