"""Starting the CLI: its pipes, its own process group, and every way that can fail.

Every failure to start is an :class:`~agent_sdk.AgentStartError` that says which thing is
wrong and how to fix it (a too-long argv must never read as "not installed"), and
no descriptor is left open by a start that failed.

Every group started is tracked from that instant (``groups.track``): killed at exit, or
by the watchdog if this program dies first (docs/lifecycle.md, "When the program dies").
Its environment carries the run's mark (``strays.py``), so that what the CLI starts in
sessions of its own is ended with it (docs/lifecycle.md, "Everything the CLI starts").
On Linux the CLI is forked in the event loop's thread and watched through a pidfd
(``_pidfd``), so that nothing is awaited between its start and its tracking; elsewhere the
event loop starts it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

import anyio

from ..errors import AgentNotFoundError, AgentStartError
from ..options import Invocation
from ._pidfd import pidfds, spawn_now, start_session
from .groups import new_mark, track
from .log import DEBUG, logger, shown_argv
from .strays import VARIABLE

if TYPE_CHECKING:
    import subprocess

__all__ = ["SIGKILL", "SIGTERM", "Child", "Pipes", "open_pipes", "spawn", "spawn_blocking"]

# POSIX numbers, as constants: the `signal` module costs a millisecond of import time.
SIGTERM, SIGKILL = 15, 9


class Pipes:
    """The pipes of one child: (read, write) pairs; stdin only for a prompt on stdin.
    (A plain class: a dataclass would load `dataclasses` with `import agent_sdk`.)"""

    __slots__ = ("stderr", "stdin", "stdout")

    def __init__(
        self, stdout: tuple[int, int], stderr: tuple[int, int], stdin: tuple[int, int] | None
    ) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.stdin = stdin

    def ours(self) -> tuple[int, int, int | None]:
        """Our ends: stdout and stderr to read, stdin to write."""
        return self.stdout[0], self.stderr[0], self.stdin[1] if self.stdin else None

    def theirs(self) -> list[int]:
        return [self.stdout[1], self.stderr[1]] + ([self.stdin[0]] if self.stdin else [])


def open_pipes(*, stdin: bool) -> Pipes:
    """Non-blocking pipes for a child's stdout, stderr and (if asked) stdin.

    Raises:
        AgentStartError: no file descriptors left; nothing stays open.
    """
    opened: list[int] = []
    try:
        for _ in range(3 if stdin else 2):
            opened += os.pipe()
    except OSError as exc:
        for fd in opened:
            os.close(fd)
        raise _start_error(exc, "", None) from exc
    pairs = [(opened[i], opened[i + 1]) for i in range(0, len(opened), 2)]
    for read, _write in pairs[:2]:
        os.set_blocking(read, False)
    if stdin:
        os.set_blocking(pairs[2][1], False)
    return Pipes(pairs[0], pairs[1], pairs[2] if stdin else None)


class Child(Protocol):
    """What a transport needs of the CLI's process (``anyio.abc.Process`` is one)."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...


async def spawn(invocation: Invocation, cwd: str | os.PathLike[str] | None, pipes: Pipes) -> Child:
    """Start the CLI (argv list, never a shell) as the leader of a new process group.

    The child's ends of ``pipes`` are closed in every case, ours only if it fails.

    Raises:
        AgentNotFoundError: the binary vanished between discovery and now.
        AgentStartError: any other reason the OS gave for not starting it.
    """
    mark = new_mark()
    env = _marked(invocation.env, mark)
    with _starting(invocation, cwd, pipes) as (stdin, stdout, stderr):
        child: Child
        if pidfds():
            child = spawn_now(
                invocation.argv, stdin=stdin, stdout=stdout, stderr=stderr, cwd=cwd, env=env
            )
        else:
            child = await anyio.open_process(
                invocation.argv,
                stdin=stdin,
                stdout=stdout,
                stderr=stderr,
                cwd=cwd,
                env=env,
                start_new_session=True,
            )
        track(child.pid, mark)  # the caller's to end (groups.end), group and marked alike
        _log_start(invocation, child.pid)
        return child


def spawn_blocking(
    invocation: Invocation, cwd: str | os.PathLike[str] | None, pipes: Pipes
) -> subprocess.Popen[bytes]:
    """:func:`spawn` for a caller with no event loop (``run_sync`` from a plain script),
    which waits for the child itself."""
    mark = new_mark()
    env = _marked(invocation.env, mark)
    with _starting(invocation, cwd, pipes) as (stdin, stdout, stderr):
        popen = start_session(
            invocation.argv, stdin=stdin, stdout=stdout, stderr=stderr, cwd=cwd, env=env
        )
        track(popen.pid, mark)  # the caller's to end (groups.end), group and marked alike
        _log_start(invocation, popen.pid)
        return popen


def _marked(env: dict[str, str], mark: str) -> dict[str, str]:
    """``env`` with the run's mark, which everything the CLI starts inherits: how the
    teardown finds what left its group (``strays.py``, docs/lifecycle.md)."""
    return {**env, VARIABLE: mark}


def _log_start(invocation: Invocation, pid: int) -> None:
    """DEBUG on ``agent_sdk.transport``: the binary and the argv, secrets and prompt
    hidden (``log.shown_argv``); worked out only for a listener."""
    found = logger("transport")
    if found is not None and found.isEnabledFor(DEBUG):
        binary, argv = invocation.argv[0], shown_argv(invocation)
        found.debug("started %s (pid %d): %s", binary, pid, argv)


@contextlib.contextmanager
def _starting(
    invocation: Invocation, cwd: str | os.PathLike[str] | None, pipes: Pipes
) -> Iterator[tuple[int, int, int]]:
    """The child's stdin, stdout and stderr for a start; on the way out, the child's ends
    closed, and ours too if the start failed, whose ``OSError`` becomes the error a user
    can act on."""
    import subprocess  # loaded by the event loop's subprocess support by now; not at import

    stdin = pipes.stdin[0] if pipes.stdin else subprocess.DEVNULL
    try:
        yield stdin, pipes.stdout[1], pipes.stderr[1]
    except BaseException as exc:
        for fd in pipes.ours():
            if fd is not None:
                os.close(fd)
        if isinstance(exc, OSError):
            raise _start_error(exc, invocation.argv[0], cwd) from exc
        raise
    finally:
        for fd in pipes.theirs():
            os.close(fd)


def _start_error(exc: OSError, binary: str, cwd: str | os.PathLike[str] | None) -> AgentStartError:
    """What the OS said, as the error a user can act on."""
    import errno

    where = os.fspath(cwd) if cwd is not None else None
    about_cwd = where is not None and exc.filename is not None and os.fspath(exc.filename) == where
    if about_cwd and isinstance(exc, FileNotFoundError):
        return AgentStartError(
            f"the working directory {where!r} does not exist",
            hint="create it, or fix AgentOptions(cwd=...)",
        )
    if about_cwd and isinstance(exc, NotADirectoryError):
        return AgentStartError(
            f"the working directory {where!r} is not a directory",
            hint="pass a directory as AgentOptions(cwd=...)",
        )
    if isinstance(exc, FileNotFoundError):
        return AgentNotFoundError(
            f"could not start {binary!r}: {exc.strerror}",
            hint="check AgentOptions(binary=...) or CURSOR_AGENT_BIN",
        )
    if exc.errno == errno.E2BIG:
        return AgentStartError(
            "the command line is too long for the OS",
            hint="shorten extra_args, add_dirs or headers (long prompts go on stdin by themselves)",
        )
    if exc.errno == errno.ENOEXEC:
        return AgentStartError(
            f"{binary!r} is not a program this machine can run (exec format error)",
            hint="point AgentOptions(binary=...) or CURSOR_AGENT_BIN at the cursor-agent "
            "built for this OS and CPU",
        )
    if exc.errno in (errno.EMFILE, errno.ENFILE):
        return AgentStartError(
            "no file descriptors left to start cursor-agent (each run needs a few)",
            hint="run fewer agents at once, or raise the limit (ulimit -n)",
        )
    if isinstance(exc, PermissionError):
        target = where if about_cwd else binary
        return AgentStartError(
            f"permission denied starting {binary!r} in {where or 'the current directory'!r}",
            hint=f"check that {target!r} is yours to use (execute permission, directory access)",
        )
    return AgentStartError(
        f"could not start {binary!r}: {exc.strerror or exc}",
        hint="check AgentOptions(binary=...) and AgentOptions(cwd=...)",
    )
