"""Linux: the CLI dies with the program that started it (docs/lifecycle.md, "When the
program dies").

The kernel signals a child when its parent dies if the child asked for it with
``prctl(PR_SET_PDEATHSIG)``, which only the child can do, between fork and exec. Nothing
runs there for us (the event loops' subprocess support has no ``preexec_fn``), so the
child first runs :data:`SHIM`, a few lines of Python (``python -I -S``: no site, no
``PYTHON*`` variables): it asks for SIGKILL at its parent's death, exits if the parent
died before it asked, and execs the CLI with the same argv, environment and signal
dispositions as a direct start. The pid is then the CLI's, and its process group and
session the new ones it was started in.

A failed exec reads exactly as before: as ``subprocess.Popen`` does for its own child,
the shim writes the errno to a pipe that closes by itself on a successful exec, and the
parent reads it to EOF.

The kernel ties the signal to the *thread* that forked the child, not to the process.
trio forks from worker threads that end after ten idle seconds, and would kill the CLI
with them; so the child is forked here, by ``subprocess.Popen`` in the thread that runs
the event loop (asyncio does that too), and its exit is watched through a pidfd.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    import subprocess

__all__ = ["SHIM", "LinkedChild", "linked_python", "spawn_linked"]

#: argv: the report pipe's write end, the parent's pid, then the CLI's argv. What Python
#: changed at its own start is undone, so that the CLI starts as it would directly: it
#: ignores SIGPIPE and SIGXFSZ (``Popen`` restores them too), and adds LC_CTYPE to the
#: environment when the locale is C (PEP 538): the CLI gets the one this process was
#: started with, from /proc.
SHIM = """\
import _signal, os, sys
report, parent = int(sys.argv[1]), int(sys.argv[2])
os.set_inheritable(report, False)
_signal.signal(_signal.SIGPIPE, _signal.SIG_DFL)
_signal.signal(_signal.SIGXFSZ, _signal.SIG_DFL)
try:
    import ctypes
    ctypes.CDLL(None, use_errno=True).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
except Exception:
    pass
if os.getppid() != parent:
    os._exit(1)
try:
    with open("/proc/self/environ", "rb") as f:
        env = dict(v.split(b"=", 1) for v in f.read().split(b"\\0") if b"=" in v)
except OSError:
    env = os.environ
try:
    os.execvpe(sys.argv[3], sys.argv[3:], env)
except OSError as exc:
    os.write(report, str(exc.errno).encode())
os._exit(127)
"""

SIGKILL = 9
REAP_WAIT = 2.0  # after SIGKILL, how long to wait for the kernel to report the exit
POLL_INTERVAL = 0.05  # how often to look for the exit when no pidfd can be opened

_UNKNOWN = ""
_python: str | None = _UNKNOWN


def linked_python() -> str | None:
    """The interpreter that runs the shim; ``None`` where the CLI is started directly:
    not Linux, not CPython, no interpreter to run, or no pidfds (Linux < 5.3, or a
    sandbox that forbids them)."""
    global _python
    if _python == _UNKNOWN:
        _python = _find_python()
    return _python


def _find_python() -> str | None:
    if sys.platform != "linux" or sys.implementation.name != "cpython" or not sys.executable:
        return None
    # The binary itself: a wrapper that execs it (a venv's link, not a shell script) only
    # adds to every start.
    python = os.path.realpath(sys.executable)
    if not os.path.basename(python).startswith("python") or not os.access(python, os.X_OK):
        return None  # an embedding program (uwsgi, a frozen app): it would not run -c
    try:
        os.close(os.pidfd_open(os.getpid()))
    except AttributeError:
        return None
    except OSError as exc:
        import errno

        if exc.errno in (errno.ENOSYS, errno.EPERM):
            return None
    return python


class LinkedChild:
    """A child forked by :func:`spawn_linked`: what a transport needs of a process."""

    __slots__ = ("_popen",)

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        self._popen = popen

    @property
    def pid(self) -> int:
        return self._popen.pid

    @property
    def returncode(self) -> int | None:
        """The exit status (negative: the signal that killed it), or ``None``; reaps it
        if it has exited, and never waits."""
        return self._popen.poll()

    async def wait(self) -> int:
        while (code := self._popen.poll()) is None:
            await _until_exit(self._popen.pid)
        return code

    def __del__(self) -> None:
        # Dropped before it was reaped (a run garbage-collected: killed, not awaited):
        # reap it in the background, or it stays a zombie and Popen warns of it.
        popen = self._popen
        if popen.poll() is None:
            import threading

            with contextlib.suppress(RuntimeError):  # interpreter shutdown: no threads
                threading.Thread(target=popen.wait, daemon=True).start()


async def _until_exit(pid: int) -> None:
    """Until the (unreaped) child ``pid`` has exited, or a moment has passed.

    One pidfd per waiter: several tasks may wait (a run's exit watch and ``aclose()``),
    and an event loop lets only one task wait on a descriptor."""
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:  # no descriptor left: look again in a moment
        await anyio.sleep(POLL_INTERVAL)
        return
    try:
        await anyio.wait_readable(pidfd)
    finally:
        os.close(pidfd)


async def spawn_linked(
    python: str,
    argv: list[str],
    *,
    stdin: int,
    stdout: int,
    stderr: int,
    cwd: str | os.PathLike[str] | None,
    env: dict[str, str] | None,
) -> LinkedChild:
    """Start ``argv`` through the shim, leader of a new session and process group.

    Raises:
        OSError: what the OS said, from starting the shim or from its exec of the CLI
            (then as ``subprocess.Popen`` says it: the errno, with ``argv[0]``).
    """
    report, report_w = os.pipe()
    try:
        popen = _fork(
            [python, "-I", "-S", "-c", SHIM, str(report_w), str(os.getpid()), *argv],
            report_w,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            cwd=cwd,
            env=env,
        )
    except BaseException:
        os.close(report)
        raise
    finally:
        os.close(report_w)
    child = LinkedChild(popen)
    try:
        os.set_blocking(report, False)
        said = await _read_to_eof(report)  # EOF alone: the CLI runs
    except BaseException:
        await _end(child)
        raise
    finally:
        os.close(report)
    if said:
        await _end(child)  # the shim exits 127 by itself: reap it
        code = int(said)
        raise OSError(code, os.strerror(code), argv[0])
    return child


def _fork(
    argv: list[str],
    report_w: int,
    *,
    stdin: int,
    stdout: int,
    stderr: int,
    cwd: str | os.PathLike[str] | None,
    env: dict[str, str] | None,
) -> subprocess.Popen[bytes]:
    """Fork and exec the shim from this thread, which runs the event loop (see the
    module: the thread is what the kernel ties the child's fate to). It blocks for as
    long as asyncio's own start does: ``Popen`` returns once the shim is exec'd."""
    import subprocess

    return subprocess.Popen(
        argv,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        cwd=cwd,
        env=env,
        start_new_session=True,
        pass_fds=(report_w,),
    )


async def _read_to_eof(fd: int) -> bytes:
    data = b""
    while True:
        try:
            chunk = os.read(fd, 64)
        except BlockingIOError:
            await anyio.wait_readable(fd)
            continue
        if not chunk:
            return data
        data += chunk


async def _end(child: LinkedChild) -> None:
    """Kill a child that will not be handed over, and reap it, whatever interrupts us."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, SIGKILL)
    with anyio.CancelScope(shield=True), anyio.move_on_after(REAP_WAIT):
        await child.wait()
