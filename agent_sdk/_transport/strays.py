"""The processes a run started that its process group does not hold, and their end
(docs/lifecycle.md, "Everything the CLI starts").

The real CLI runs each shell command in a pty session of its own, keeps helpers in its
group, and some helpers double-fork out of its tree (docs/protocol.md §5): killing the
CLI's group ends none of the first or the last. Three nets catch them:

- **the mark**: every CLI starts with ``AGENT_SDK_RUN=<program>.<run>`` in its
  environment, which everything it starts inherits, whatever session, group or parent it
  ends up with. :func:`sweep` reads ``/proc/<pid>/environ`` and kills every process that
  carries the run's mark, in rounds, until a round finds none (one that forked during a
  round is found by the next: its child carries the mark too);
- **the tree**: :class:`Tree` holds the CLI's descendants while it is alive (through
  ``/proc/<pid>/task/<tid>/children``, as pidfds where the OS has them), so one that
  scrubbed its environment but is still below the CLI is ended too;
- **the group**: ``killpg``, by the caller.

Left out, and documented: a process that scrubs its environment **and** leaves the
CLI's tree (or is orphaned by the CLI's exit). Without ``/proc`` (macOS) only the group
is reached.

A sweep lists ``/proc`` and reads the environment of each process: about 13 µs a
process. A run short enough that the pid counter cannot have wrapped around since the
CLI started (at most :data:`PIDS_PER_CPU_SECOND` new pids a second per CPU) reads only
those allocated since (``/proc/loadavg`` gives the last one): the processes started
after the CLI, usually a handful. Given a :class:`Memory`, a process read by an earlier
sweep is not read again while its pid cannot have gone to another process: runs ending
together (a crowd, a fleet's stop) read each other process about once.

This module imports nothing but ``os``, ``time`` and ``contextlib`` at load, and nothing of
agent_sdk: the watchdog runs its source as its own program (``groups.py``).
"""

from __future__ import annotations

import contextlib
import os
import time

TYPE_CHECKING = False  # typing is not loaded: this is also the watchdog's program
if TYPE_CHECKING:
    from typing import Protocol
else:
    Protocol = object  # the watchdog's program loads no typing

VARIABLE = "AGENT_SDK_RUN"
"""The environment variable that marks every process a run started."""

ROUNDS = 16  # sweeps of /proc at most: each catches what forked during the one before
REREADS = 3  # reads of an environment that read empty (an exec under way?) at most
EXEC_WAIT = 0.002  # between two rounds that found only such processes
PIDS_PER_CPU_SECOND = 250_000  # far above a core's rate of fork or clone (~10 µs each)
_CPUS = os.cpu_count() or 1  # read once: slow in some containers (a /sys walk)
_RESERVED_PIDS = 300  # where the kernel's pid counter starts again after pid_max
_ENVIRON_CHUNK = 65536
SIGKILL = 9


def run_mark(value: str) -> bytes:
    """What a run's processes carry, as found in ``/proc/<pid>/environ``."""
    return b"\0%s=%s\0" % (VARIABLE.encode(), value.encode())


def program_mark(program: str) -> bytes:
    """What every run of one program carries (its runs' values start ``<program>.``)."""
    return b"\0%s=%s." % (VARIABLE.encode(), program.encode())


def carries(pid: int, mark: bytes) -> bool:
    """Whether process ``pid``'s environment holds ``mark`` (``False`` if it is gone, is
    a zombie, or is not ours to read)."""
    environ = _environ(pid)
    return environ is not None and mark in environ


def _environ(pid: int) -> bytes | None:
    """Process ``pid``'s environment, a NUL before each variable; ``None`` if it is gone
    or not ours to read. ``b"\\0"``: none (a zombie, a kernel thread, a process in the
    middle of an ``exec``, one that scrubbed it all)."""
    try:
        fd = os.open(f"/proc/{pid}/environ", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        data = b"\0"  # the first variable has no separator before it
        while chunk := os.read(fd, _ENVIRON_CHUNK):
            data += chunk
    except OSError:
        return None
    finally:
        os.close(fd)
    return data


def ticks_now() -> int:
    """Now, in the unit of a process's start time in ``/proc`` (clock ticks since boot);
    0 where there is no ``/proc``."""
    try:
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 0
    return int(uptime * os.sysconf("SC_CLK_TCK"))


def _started(pid: int) -> int:
    """When process ``pid`` started, in clock ticks since boot; 0 if unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
        return int(data[data.rindex(b")") + 2 :].split()[19])
    except (OSError, ValueError, IndexError):
        return 0


def _may_be_execing(pid: int) -> bool:
    """Whether a process whose environment reads empty may be in an ``exec`` (the new
    image's environment is not set up yet): alive, and not a kernel thread."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
        fields = data[data.rindex(b")") + 2 :].split()
    except (OSError, ValueError):
        return False
    return fields[0] not in (b"Z", b"X") and fields[1] != b"2" and pid != 2


def last_pid() -> int | None:
    """The last pid the kernel gave out in this pid namespace, or ``None``."""
    try:
        with open("/proc/loadavg", "rb") as f:
            return int(f.read().rsplit(b" ", 1)[1])
    except (OSError, ValueError, IndexError):
        return None


def pid_span() -> int | None:
    """How many pids the counter goes through before it wraps, or ``None``."""
    try:
        with open("/proc/sys/kernel/pid_max", "rb") as f:
            return int(f.read()) - _RESERVED_PIDS
    except (OSError, ValueError):
        return None


def since_pid(first: int, seconds: float, span: int | None) -> int | None:
    """``first`` if no pid could have been given out twice in ``seconds`` (a sweep may
    then skip every pid before it), else ``None`` (a sweep reads every process)."""
    if span is None:
        return None
    most = seconds * _CPUS * PIDS_PER_CPU_SECOND
    return first if most < span else None


def _mark_in(environ: bytes) -> bytes:
    """The ``\0AGENT_SDK_RUN=...\0`` in ``environ``, or ``b""``."""
    start = environ.find(_MARK_START)
    if start < 0:
        return b""
    return environ[start : environ.index(b"\0", start + 1) + 1]


_MARK_START = b"\0%s=" % VARIABLE.encode()


def _candidates(after: int | None, upto: int | None) -> list[int]:
    """The pids in ``/proc``; with ``after`` and ``upto`` (the last pid given out), only
    those given out since ``after``."""
    if after is not None and upto == after:
        return []  # no pid given out since: nothing new can carry the mark
    try:
        names = os.listdir("/proc")
    except OSError:
        return []  # no /proc (macOS): the group alone is reached
    pids = [int(name) for name in names if name.isdigit()]
    if after is None or upto is None:
        return pids
    if upto >= after:
        return [pid for pid in pids if after < pid <= upto]
    return [pid for pid in pids if pid > after or pid <= upto]  # the counter wrapped


Token = tuple[int, int, int, int]
"""A :class:`Memory`'s observation of the pid counter."""


class Memory(Protocol):
    """What earlier sweeps read, so that runs ending together read each process about
    once (``sweep_memory.py``; the watchdog sweeps once and has none)."""

    def observe(self) -> Token | None:
        """The pid counter now, as a token for :meth:`mark` and :meth:`keep`."""

    def mark(self, pid: int, now: Token | None) -> bytes | None:
        """The mark ``pid`` read (``b""``: none) if it is still that process, else ``None``."""

    def keep(self, pid: int, mark: bytes, now: Token | None) -> None:
        """``pid`` read ``mark`` after the counter was observed as ``now``."""


def sweep(
    mark: bytes,
    after: int | None = None,
    *,
    also: bytes = b"",
    since: int = 0,
    memory: Memory | None = None,
) -> int:
    """SIGKILL every process that carries ``mark``, until none is left; how many.

    ``also``: a second text the environment must hold too (a live session's
    ``CURSOR_CONVERSATION_ID``); ``since``: only processes started at that tick or later
    (:func:`ticks_now`: a turn's own).

    ``after``: a pid given out before any process that could carry it (the CLI's),
    when :func:`since_pid` allows it; ``None`` reads every process. A round after the
    first reads only the pids given out since the one before began (a process forked
    while a round ran has one of those), and those whose environment read empty while
    they may have been in an ``exec`` (read again, a moment later, :data:`REREADS` times).
    """
    spared = {os.getpid(), os.getppid()}
    signalled: set[int] = set()
    reread: dict[int, int] = {}  # pid -> reads left
    for _ in range(ROUNDS):
        upto = last_pid()
        candidates = set(_candidates(after, upto)).union(reread) - spared - signalled
        now = memory.observe() if memory is not None else None  # after the listing
        found = []
        for pid in candidates:
            left = reread.pop(pid, REREADS)
            seen = memory.mark(pid, now) if memory is not None else None
            if seen is not None and mark not in seen:
                continue  # read before, not this run's: it cannot have become so
            environ = _environ(pid)
            if environ is not None and mark in environ:
                if also in environ and (not since or _started(pid) >= since):
                    found.append(pid)
            elif environ == b"\0" and left > 0 and _may_be_execing(pid):
                reread[pid] = left - 1
                continue
            if memory is not None:  # unreadable: gone, or another user's (not ours to end)
                memory.keep(pid, b"" if environ is None else _mark_in(environ), now)
        if not found and not reread:
            break
        for pid in found:
            if _kill_marked(pid, mark):
                signalled.add(pid)
            else:  # it read marked, then not: an exec under way? read it again
                reread[pid] = REREADS
        if reread:
            time.sleep(EXEC_WAIT)  # some may be in an exec: let it finish
        after = upto  # a round takes milliseconds: the counter cannot come round in one
    return len(signalled)


def _kill_marked(pid: int, mark: bytes) -> bool:
    """SIGKILL ``pid`` if it still carries ``mark``: through a pidfd, the mark is read
    again after the pid is pinned, so a pid given to another process meanwhile is spared.
    ``False`` if it no longer carried it (another process, or one in an ``exec``)."""
    try:
        pidfd = os.pidfd_open(pid)
    except AttributeError:  # no pidfds (Python or OS): the window is the read's
        _kill(pid)
        return True
    except OSError:
        return True  # gone: nothing left to end
    try:
        if not carries(pid, mark):
            return False
        import signal

        signal.pidfd_send_signal(pidfd, SIGKILL)
    except OSError:
        pass  # gone meanwhile
    finally:
        os.close(pidfd)
    return True


def _kill(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, SIGKILL)


class Tree:
    """The descendants of a live process, pinned (pidfds) so that a later signal reaches
    them and no other process that got their pid."""

    __slots__ = ("_pinned",)

    def __init__(self, root: int) -> None:
        self._pinned: list[tuple[int, int | None]] = []  # (pid, pidfd or None)
        for pid in descendants(root):
            try:
                self._pinned.append((pid, os.pidfd_open(pid)))
            except AttributeError:
                self._pinned.append((pid, None))
            except OSError:
                pass  # gone already

    def signal(self, signum: int) -> None:
        """Send ``signum`` to each (gone ones are skipped)."""
        for pid, pidfd in self._pinned:
            try:
                if pidfd is None:
                    os.kill(pid, signum)
                else:
                    import signal

                    signal.pidfd_send_signal(pidfd, signum)
            except OSError:
                pass

    def close(self) -> None:
        pinned, self._pinned = self._pinned, []
        for _pid, pidfd in pinned:
            if pidfd is not None:
                os.close(pidfd)


def descendants(root: int) -> list[int]:
    """Every process below ``root`` now (Linux ``/proc``; elsewhere none)."""
    found: list[int] = []
    todo = [root]
    while todo:
        parent = todo.pop()
        try:
            threads = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in threads:
            try:
                with open(f"/proc/{parent}/task/{tid}/children", "rb") as f:
                    children = [int(pid) for pid in f.read().split()]
            except (OSError, ValueError):
                continue
            found += children
            todo += children
    return found
