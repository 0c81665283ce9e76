"""Linux: the CLI forked by ``subprocess.Popen`` in the event loop's thread, its exit
watched through a pidfd (docs/lifecycle.md, "When the program dies").

Started this way, the CLI exists by the time :func:`spawn_now` returns, with nothing
awaited in between: the caller registers its group with the watchdog (``groups``) in
the same synchronous step, so a program killed at any await of the start does not leave
it behind. ``Popen`` reports a failed exec as the ``OSError`` of the exec itself (the
errno, with ``argv[0]``), as the event loops' own starts do.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    import subprocess

__all__ = ["LinkedChild", "pidfds", "spawn_now", "start_session"]

POLL_INTERVAL = 0.05  # how often to look for the exit when no pidfd can be opened

_pidfds: bool | None = None


def pidfds() -> bool:
    """Whether this OS has pidfds (Linux 5.3, not forbidden by a sandbox): otherwise the
    event loop starts the CLI and watches its exit."""
    global _pidfds
    if _pidfds is None:
        _pidfds = _have_pidfds()
    return _pidfds


def _have_pidfds() -> bool:
    if sys.platform != "linux":
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))
    except AttributeError:
        return False
    except OSError as exc:
        import errno

        return exc.errno not in (errno.ENOSYS, errno.EPERM)
    return True


class LinkedChild:
    """A child forked by :func:`spawn_now`: what a transport needs of a process."""

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


def spawn_now(
    argv: list[str],
    *,
    stdin: int,
    stdout: int,
    stderr: int,
    cwd: str | os.PathLike[str] | None,
    env: dict[str, str] | None,
) -> LinkedChild:
    """:func:`start_session`, its exit watched through a pidfd."""
    return LinkedChild(
        start_session(argv, stdin=stdin, stdout=stdout, stderr=stderr, cwd=cwd, env=env)
    )


def start_session(
    argv: list[str],
    *,
    stdin: int,
    stdout: int,
    stderr: int,
    cwd: str | os.PathLike[str] | None,
    env: dict[str, str] | None,
) -> subprocess.Popen[bytes]:
    """Start ``argv`` (a list, never a shell), leader of a new session and process group.
    It blocks for as long as asyncio's own start does: ``Popen`` returns once the CLI is
    exec'd.

    Raises:
        OSError: what the OS said (a failed exec: its errno, with ``argv[0]``).
    """
    import subprocess

    return subprocess.Popen(
        argv, stdin=stdin, stdout=stdout, stderr=stderr, cwd=cwd, env=env, start_new_session=True
    )
