"""Ctrl-C and SIGTERM for the command line: the first one cancels the work, the ones after
it are only noted, so the teardown it started (ending the CLIs' process groups, removing
worktrees and config dirs, writing the report) always runs to its end (docs/cli.md).

Python's own handling would break that teardown: SIGTERM's default action kills the
process at once, and a second Ctrl-C raises ``KeyboardInterrupt`` at whatever line is
running, in the middle of a cleanup. So, while a command runs, both signals get a handler
that only notes them and wakes the event loop through a socket; a task started in the
work's task group cancels that group at the first one. The exit status is then 128 plus
the first signal's number.
"""

from __future__ import annotations

import contextlib
import enum
import signal
import socket
import threading
from types import FrameType, TracebackType

import anyio
from anyio.abc import TaskGroup, TaskStatus

from .args import EXIT_INTERRUPTED, EXIT_TERMINATED

__all__ = ["SignalWatch", "Stopped"]

_STOPPING = (signal.SIGINT, signal.SIGTERM)


class Stopped(enum.Enum):
    """How a signal stopped a command; the value is the word the command prints."""

    INTERRUPTED = "interrupted"  # Ctrl-C
    TERMINATED = "terminated"  # SIGTERM

    @property
    def exit_status(self) -> int:
        """128 plus the signal's number, as a shell reports it: 130 or 143."""
        return EXIT_TERMINATED if self is Stopped.TERMINATED else EXIT_INTERRUPTED


class SignalWatch:
    """A context manager around a command's run: inside it, SIGINT and SIGTERM are noted
    (:attr:`first`, :attr:`count`) instead of acting; :meth:`start_in` makes the first one
    cancel a task group. Outside the main thread (where no signal arrives) it does nothing.
    """

    def __init__(self) -> None:
        self.first: signal.Signals | None = None
        """The first SIGINT or SIGTERM received, if any."""
        self.count = 0
        """How many were received."""
        self._previous: dict[signal.Signals, object] = {}
        self._wake: socket.socket | None = None
        self._woken: socket.socket | None = None

    def __enter__(self) -> SignalWatch:
        if threading.current_thread() is threading.main_thread():
            self._woken, self._wake = socket.socketpair()
            self._wake.setblocking(False)
            self._woken.setblocking(False)
            for signum in _STOPPING:
                self._previous[signum] = signal.signal(signum, self._note)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]
        self._previous.clear()
        for end in (self._wake, self._woken):
            if end is not None:
                end.close()
        self._wake = self._woken = None

    def _note(self, signum: int, frame: FrameType | None) -> None:
        # A signal handler: it runs between two bytecodes of the main thread, wherever it
        # is, so it only notes the signal and wakes the loop; the cancel happens there.
        self.count += 1
        if self.first is None:
            self.first = signal.Signals(signum)
        if self._wake is not None:
            with contextlib.suppress(OSError):  # full: the loop is already woken
                self._wake.send(b"\0")

    @property
    def stopped(self) -> Stopped | None:
        """How the first signal stopped the command, if one came."""
        if self.first is None:
            return None
        return Stopped.TERMINATED if self.first == signal.SIGTERM else Stopped.INTERRUPTED

    async def start_in(self, group: TaskGroup) -> None:
        """Cancel ``group`` at the first signal (at once if one came already)."""
        if self._woken is not None:
            await group.start(self._watch, group)

    async def _watch(
        self, group: TaskGroup, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED
    ) -> None:
        assert self._woken is not None
        task_status.started()
        while self.first is None:
            await anyio.wait_readable(self._woken)
            with contextlib.suppress(BlockingIOError):
                self._woken.recv(64)
        group.cancel_scope.cancel()
