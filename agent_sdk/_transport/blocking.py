"""The CLI as a child process, for a run with no event loop: ``run_sync`` from a plain
script (docs/lifecycle.md, "run_sync without an event loop").

A short script's wait is mostly imports, and an event loop is the biggest of them
(``asyncio`` loads ``ssl``, ``concurrent.futures``, ``logging``...: docs/benchmarks.md,
"The cold start"). This transport keeps :class:`~agent_sdk.Run`'s one implementation of
the rules: its ``async`` methods never suspend, they block in ``poll``, so a run over it
is driven to its end by sending into the coroutine once (``_run/run_sync.py``), with no loop. The
CLI's exit is waited on in the same ``poll`` as its pipes (Linux: a pidfd), never on a
timer where a pidfd can be had (docs/lifecycle.md, "run_sync without an event loop").

Its :class:`BlockingClock` stands in for the event loop's clock and cancel scopes: the
run's deadlines are pushed as scopes, and a wait that outlasts the nearest one raises
that scope's :class:`_Expired`, which only that scope catches (as ``anyio.move_on_after``
would). Ctrl-C is Python's ``KeyboardInterrupt``, raised wherever the run is; the run's
own guard then ends the group, and the teardown finishes even if a second one comes.
"""

from __future__ import annotations

import contextlib
import enum
import math
import os
import select
import time
from collections.abc import Iterator
from types import TracebackType
from typing import TYPE_CHECKING

from ..options import AgentOptions, build_invocation
from ._pidfd import pidfds
from .child import PIPE_BYTES, REAP_WAIT, STDERR_GRACE, TERM_GRACE, ChildPipes, grow_pipe
from .discovery import binary_for, installed_version
from .spawn import open_pipes, spawn_blocking

if TYPE_CHECKING:
    import subprocess

__all__ = ["BlockingClock", "BlockingTransport"]

# Where no pidfd can tell the CLI's exit (another OS than Linux, or none could be opened),
# how often a wait for its output looks whether it has exited: that matters only when
# something it started still holds stdout (the result grace).
EXIT_POLL = 0.05
# ...and how a wait for its exit, after its output ended, looks: from 1 ms, twice as long
# each time up to EXIT_POLL, as the CLI exits right after its output (a tiny run must not
# wait 50 ms for it: docs/benchmarks.md, "run_sync's wait for the exit").
EXIT_BACKOFF_FIRST = 0.001


class _Expired(BaseException):
    """A :class:`_Scope`'s deadline passed during a wait (a cancellation: nothing but
    that scope may catch it)."""

    def __init__(self, scope: _Scope) -> None:
        super().__init__()
        self.scope = scope


class _Scope:
    """``anyio.move_on_after`` for a run with no loop: a deadline while it is entered."""

    __slots__ = ("_clock", "cancelled_caught", "deadline")

    def __init__(self, clock: BlockingClock, deadline: float) -> None:
        self._clock = clock
        self.deadline = deadline
        self.cancelled_caught = False

    def __enter__(self) -> _Scope:
        self._clock.scopes.append(self)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        self._clock.scopes.remove(self)
        if isinstance(exc, _Expired) and exc.scope is self:
            self.cancelled_caught = True
            return True
        return False


class BlockingClock:
    """The monotonic clock and the deadlines of the waits in progress."""

    __slots__ = ("scopes",)

    def __init__(self) -> None:
        self.scopes: list[_Scope] = []

    @staticmethod
    def current_time() -> float:
        return time.monotonic()

    def move_on_after(self, delay: float | None) -> _Scope:
        return _Scope(self, math.inf if delay is None else time.monotonic() + delay)

    def left(self) -> float:
        """Seconds until the nearest deadline (``inf``: none)."""
        if not self.scopes:
            return math.inf
        return min(scope.deadline for scope in self.scopes) - time.monotonic()

    def check(self) -> None:
        """Raise the outermost scope whose deadline has passed (it ends all within)."""
        now = time.monotonic()
        for scope in self.scopes:
            if now >= scope.deadline:
                raise _Expired(scope)


class _Phase(enum.Enum):
    NEW = "new"
    RUNNING = "running"
    CLOSED = "closed"


class BlockingTransport(ChildPipes):
    """:class:`~agent_sdk._transport.subprocess.SubprocessTransport`'s contract, waiting
    in ``poll`` instead of on an event loop (see the module)."""

    def __init__(self) -> None:
        self.clock = BlockingClock()
        super().__init__(self.clock.current_time)
        self._phase = _Phase.NEW
        self._popen: subprocess.Popen[bytes] | None = None
        # Readable once the CLI has exited, in the same poll as its pipes (Linux: a
        # pidfd); closed once the exit is seen. None: looked for in a backoff instead.
        self._exit_fd: int | None = None

    @property
    def returncode(self) -> int | None:
        return self._popen.poll() if self._popen is not None else None

    # --- start ----------------------------------------------------------------------
    async def start(self, prompt: str, options: AgentOptions) -> None:
        binary = binary_for(options)
        self.cli_version = installed_version(binary, options.cwd)
        invocation = build_invocation(prompt, options, binary=binary, environ=os.environ)
        invocation = self._in_private_config(invocation)
        try:
            # No Ctrl-C between its start and its tracking, nor before this transport
            # holds all of it: a Ctrl-C held back is raised at the end of the block, and
            # the teardown it starts needs the pid and the pipes.
            with _interrupt_deferred():
                pipes = open_pipes(stdin=invocation.stdin is not None)
                self._popen = spawn_blocking(invocation, options.cwd, pipes)
                self._pid = self._popen.pid
                self._exit_fd = _open_exit_fd(self._pid)
                self._stdout, self._stderr, self._stdin = pipes.ours()
                self._linger = options.result_grace
                self._phase = _Phase.RUNNING
        except BaseException:
            if self._popen is None:  # nothing started: nothing else will release it
                self._release_config()
            raise
        grow_pipe(self._stdout)
        if invocation.stdin is not None:
            self._write_stdin(invocation.stdin)

    def _write_stdin(self, data: bytes) -> None:
        # A prompt too long for argv (docs/protocol.md §1), under the run's deadlines.
        fd = self._stdin
        view = memoryview(data)
        while view and fd is not None:
            try:
                view = view[os.write(fd, view[:PIPE_BYTES]) :]
            except BlockingIOError:
                self._poll([fd], select.POLLOUT, self.clock.left())
            except BrokenPipeError:
                break  # it exited without reading: its exit status and stderr say why
        self._close_fd("_stdin")

    # --- output ---------------------------------------------------------------------
    async def receive(self) -> bytes | None:
        while True:
            chunk = self.receive_ready()
            if chunk != b"":
                return chunk
            self._wait_for_output()

    def _wait_for_output(self) -> None:
        """Until stdout or stderr may have something, the CLI may have exited, or the
        nearest deadline has passed (then raises it)."""
        if self._stdout is None:
            return
        left = self.clock.left()
        fds = [self._stdout] if self._stderr is None else [self._stdout, self._stderr]
        if self._exited_at is not None:
            left = min(left, self._exited_at + self._linger - time.monotonic())
        elif self._exit_fd is not None:
            fds.append(self._exit_fd)
        else:
            left = min(left, EXIT_POLL)
        ready = self._poll(fds, select.POLLIN, left)
        if self._exited_at is None and self._exited(ready) is not None:
            self._exited_at = time.monotonic()

    async def wait(self) -> int:
        ready: list[int] = []
        backoff = EXIT_BACKOFF_FIRST
        while (code := self._exited(ready)) is None:
            fds = [] if self._stderr is None else [self._stderr]
            seconds = self.clock.left()
            if self._exit_fd is not None:
                fds.append(self._exit_fd)
            else:
                seconds, backoff = min(seconds, backoff), min(backoff * 2, EXIT_POLL)
            ready = self._poll(fds, select.POLLIN, seconds)
            self._read_stderr()  # a full stderr pipe must never block the CLI
        # A grandchild may still hold stderr open; do not wait on it for long.
        until = time.monotonic() + STDERR_GRACE
        while self._stderr is not None and (left := until - time.monotonic()) > 0:
            self._poll([self._stderr], select.POLLIN, min(left, self.clock.left()))
            self._read_stderr()
        return code

    def _exited(self, ready: list[int]) -> int | None:
        """The CLI's exit status, reaped, if it has exited (``ready``: what the last poll
        found ready). Its pidfd is closed then: a pidfd stays readable."""
        code = self.returncode
        exit_fd = self._exit_fd
        if exit_fd is not None and (code is not None or exit_fd in ready):
            # Exited; or readable yet not reaped (Popen.poll() gives up while another
            # thread waits on it): look for the exit in a backoff from now on.
            self._close_fd("_exit_fd")
        return code

    def _poll(self, fds: list[int], events: int, seconds: float) -> list[int]:
        """Block until one of ``fds`` is ready for ``events`` or ``seconds`` have passed;
        then raise the deadline that passed, if one did. Returns the fds ready."""
        poller = select.poll()
        for fd in fds:
            poller.register(fd, events)
        timeout = None if seconds == math.inf else max(math.ceil(seconds * 1000), 0)
        ready = [fd for fd, _ in poller.poll(timeout)]
        self.clock.check()
        return ready

    # --- teardown -------------------------------------------------------------------
    async def aclose(self) -> None:
        if self._phase is _Phase.CLOSED:
            return
        popen = self._popen
        if popen is None:
            self._phase = _Phase.CLOSED
            return
        # Bounded, and finished whatever interrupts it (a second Ctrl-C): the kill and
        # the release always happen; the interruption is raised once they have.
        interrupted: BaseException | None = None
        try:
            if popen.poll() is None:
                self._terminate()
                _wait_exit(popen, TERM_GRACE)
        except BaseException as exc:
            interrupted = exc
        self._kill_and_release()
        try:
            _wait_exit(popen, REAP_WAIT)  # reap: no zombie is left behind
        except BaseException as exc:
            interrupted = interrupted or exc
        if interrupted is not None:
            raise interrupted

    def kill_now(self) -> None:
        if self._phase is not _Phase.CLOSED:
            self._kill_and_release()

    def _kill_and_release(self) -> None:
        self._phase = _Phase.CLOSED
        self._close_fd("_exit_fd")
        super()._kill_and_release()


def _open_exit_fd(pid: int) -> int | None:
    """A pidfd of the (unreaped) child ``pid``, readable once it has exited; ``None``
    where there is none (not Linux 5.3, a sandbox, no descriptor left)."""
    if not pidfds():
        return None
    try:
        return os.pidfd_open(pid)
    except OSError:
        return None


def _wait_exit(popen: subprocess.Popen[bytes], seconds: float) -> None:
    import subprocess

    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(seconds)


@contextlib.contextmanager
def _interrupt_deferred() -> Iterator[None]:
    """Ctrl-C held back until the block is over (in the main thread, where Python
    delivers it): a CLI started must be tracked before anything can interrupt."""
    import signal
    import threading

    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield  # no handler of ours can be set here, or Ctrl-C raises nothing
        return
    caught: list[object] = []
    signal.signal(signal.SIGINT, lambda signum, frame: caught.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            previous(signal.SIGINT, None)
