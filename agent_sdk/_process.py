"""The CLI as a child process: spawn, stdout in chunks with stderr drained alongside,
and teardown of its whole process group.

No task group or cancel scope here outlives one call, so a caller may await these
methods from an async iterator's ``__anext__`` in any task (lessons.md: "cancel scope in
a different task").
"""

from __future__ import annotations

import atexit
import contextlib
import os
import time
from typing import TYPE_CHECKING

import anyio

from .errors import AgentError, AgentNotFoundError
from .options import AgentOptions, Invocation

if TYPE_CHECKING:
    import anyio.abc

# POSIX numbers, as constants: the `signal` module costs a millisecond of import time.
SIGTERM, SIGKILL = 15, 9
# Large reads: one wake-up per chunk, framing and decoding whole batches of lines. A
# quarter megabyte decodes faster than more: the events of a chunk stay in the caches.
CHUNK_BYTES = 256 * 1024
PIPE_BYTES = 1 << 20
STDERR_TAIL_BYTES = 64 * 1024
# Longest stretch of reading without a checkpoint, in seconds.
CHECKPOINT_EVERY = 0.005
# How long to wait for stdout alone before also watching stderr.
STDOUT_GLANCE = 0.01
# After SIGTERM, how long the group gets to exit before SIGKILL.
TERM_GRACE = 0.5
# After the leader exits, how long a grandchild may hold stderr open before we stop reading.
STDERR_GRACE = 0.25


# Process groups started and not yet ended: killed at interpreter exit, so that no CLI
# (or tool subprocess of one) outlives a program that never closed its runs.
_live_groups: set[int] = set()


@atexit.register
def _kill_live_groups() -> None:
    for pgid in list(_live_groups):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, SIGKILL)
    _live_groups.clear()


async def locate_binary(options: AgentOptions) -> str:
    """The CLI to run for these options, searched (blocking I/O) in a worker thread."""
    from ._discovery import find_binary  # late: only a run needs it, not the import

    environ = {**os.environ, **(options.env or {})}
    return await anyio.to_thread.run_sync(find_binary, options.binary, environ)


def _grow_pipe(fd: int) -> None:
    """Ask Linux for a 1 MiB pipe (the default is 64 KiB): 16 times fewer wake-ups."""
    try:
        import fcntl

        fcntl.fcntl(fd, 1031, PIPE_BYTES)  # F_SETPIPE_SZ
    except (ImportError, OSError):
        pass  # another OS, or above /proc/sys/fs/pipe-max-size: the default works too


class StderrTail:
    """The last ``limit`` bytes written to stderr (a chatty run must not grow memory)."""

    __slots__ = ("_buf", "_limit")

    def __init__(self, limit: int = STDERR_TAIL_BYTES) -> None:
        self._buf = bytearray()
        self._limit = limit

    def write(self, data: bytes) -> None:
        self._buf += data
        if len(self._buf) > 2 * self._limit:
            del self._buf[: -self._limit]

    def text(self) -> str:
        data = bytes(self._buf[-self._limit :])
        return data.decode("utf-8", "replace")


class AgentProcess:
    """One running CLI process, leader of its own process group.

    stdout and stderr are plain pipes read with ``os.read`` on non-blocking file
    descriptors: one system call per chunk of up to a megabyte, no stream layer in
    between (benchmarks/: reading is at the pipe's own speed).
    """

    def __init__(self, process: anyio.abc.Process, stdout: int, stderr: int) -> None:
        self._process = process
        self._stdout: int | None = stdout
        self._stderr: int | None = stderr
        self.stderr = StderrTail()
        self._stderr_done = anyio.Event()
        self._closed = False
        self._last_checkpoint = time.monotonic()

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def returncode(self) -> int | None:
        return self._process.returncode

    @classmethod
    async def spawn(
        cls, invocation: Invocation, cwd: str | os.PathLike[str] | None
    ) -> AgentProcess:
        """Start the CLI: argv list (never a shell), own process group, stdin closed or fed.

        Raises:
            AgentNotFoundError: the binary vanished between discovery and spawn.
            AgentError: the working directory does not exist, or argv is too long.
        """
        import subprocess  # late: a cheap `import agent_sdk` (benchmarks/)

        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        try:
            process = await anyio.open_process(
                invocation.argv,
                stdin=subprocess.PIPE if invocation.stdin is not None else subprocess.DEVNULL,
                stdout=out_write,
                stderr=err_write,
                cwd=cwd,
                env=invocation.env,
                start_new_session=True,
            )
        except BaseException as exc:
            for fd in (out_read, err_read):
                os.close(fd)
            if isinstance(exc, FileNotFoundError):
                if cwd is not None and not await anyio.Path(cwd).is_dir():
                    raise AgentError(
                        f"the working directory {os.fspath(cwd)!r} does not exist: "
                        "create it or fix AgentOptions(cwd=...)"
                    ) from exc
                raise AgentNotFoundError(
                    f"could not start {invocation.argv[0]!r}: {exc.strerror}. Check "
                    "AgentOptions(binary=...) or CURSOR_AGENT_BIN."
                ) from exc
            if isinstance(exc, OSError) and exc.errno == 7:  # E2BIG
                raise AgentError(
                    "the command line is too long for the OS: shorten extra_args, add_dirs "
                    "or headers (long prompts are sent on stdin automatically)"
                ) from exc
            raise
        finally:
            os.close(out_write)
            os.close(err_write)
        for fd in (out_read, err_read):
            os.set_blocking(fd, False)
        _grow_pipe(out_read)
        self = cls(process, out_read, err_read)
        _live_groups.add(process.pid)
        if invocation.stdin is not None and process.stdin is not None:
            try:
                await process.stdin.send(invocation.stdin)
                await process.stdin.aclose()
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                pass  # it exited early; its exit code and stderr will say why
        return self

    async def receive(self) -> bytes | None:
        """The next chunk of stdout, or ``None`` at end of stdout.

        stderr is read along the way, so a child that floods stderr can never block
        on a full pipe while we wait for its stdout.
        """
        fd = self._stdout
        if fd is None:
            return None
        while True:
            try:
                data = os.read(fd, CHUNK_BYTES)
            except BlockingIOError:
                await self._wait_for_stdout(fd)
                continue
            self._read_stderr()
            if not data:
                self._close_fd("_stdout")
                return None
            # Data was there at once. While it keeps coming, still let other tasks run
            # and cancellation in, every few milliseconds (not every chunk: each
            # checkpoint is a trip around the event loop).
            now = time.monotonic()
            if now - self._last_checkpoint > CHECKPOINT_EVERY:
                self._last_checkpoint = now
                from anyio.lowlevel import checkpoint  # late: costly at import time

                await checkpoint()
            return data

    async def _wait_for_stdout(self, fd: int) -> None:
        if self._stderr is None:
            await anyio.wait_readable(fd)
            return
        # Usually stdout is back within moments: wait for it alone first (cheap), and
        # only then also watch stderr, which a child blocked on a full stderr pipe needs.
        with anyio.move_on_after(STDOUT_GLANCE):
            await anyio.wait_readable(fd)
            return
        self._read_stderr()
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._drain_stderr)
            await anyio.wait_readable(fd)
            tg.cancel_scope.cancel()

    def _read_stderr(self) -> bool:
        """Read what stderr holds now, without waiting; ``False`` once it is closed."""
        fd = self._stderr
        while fd is not None:
            try:
                data = os.read(fd, CHUNK_BYTES)
            except BlockingIOError:
                return True
            if not data:
                self._close_fd("_stderr")
                self._stderr_done.set()
                return False
            self.stderr.write(data)
        return False

    async def _drain_stderr(self) -> None:
        while (fd := self._stderr) is not None:
            await anyio.wait_readable(fd)
            if not self._read_stderr():
                return

    async def wait(self) -> int:
        """Wait for the exit (stdout is closed by then) and read the rest of stderr."""
        if self._stderr is None:
            return await self._process.wait()
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._drain_stderr)
            code = await self._process.wait()
            # A grandchild may still hold stderr open; do not wait on it for long.
            with anyio.move_on_after(STDERR_GRACE):
                await self._stderr_done.wait()
            tg.cancel_scope.cancel()
        return code

    async def communicate(self, within: float) -> tuple[bytes, int | None]:
        """All of stdout and the exit code (``None`` if ``within`` seconds ran out
        first); the process is closed in every case."""
        chunks: list[bytes] = []
        code: int | None = None
        try:
            with anyio.move_on_after(within):
                while (chunk := await self.receive()) is not None:
                    chunks.append(chunk)
                code = await self.wait()
        finally:
            await self.aclose()
        return b"".join(chunks), code

    def _close_fd(self, name: str) -> None:
        fd = getattr(self, name)
        if fd is not None:
            setattr(self, name, None)
            with contextlib.suppress(RuntimeError):  # no event loop (garbage collection)
                anyio.notify_closing(fd)
            os.close(fd)

    def _signal_group(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):  # group gone already
            os.killpg(self._process.pid, signum)

    async def aclose(self) -> None:
        """End the whole process group and release the pipes. Idempotent; shielded.

        SIGTERM, a short grace, then SIGKILL; stragglers of the group (tool
        subprocesses) are killed even when the leader exited on its own.
        """
        if self._closed:
            return
        self._closed = True
        _live_groups.discard(self._process.pid)
        with anyio.CancelScope(shield=True):
            if self._process.returncode is None:
                self._signal_group(SIGTERM)
                with anyio.move_on_after(TERM_GRACE):
                    await self._process.wait()
            self._signal_group(SIGKILL)
            self._close_fd("_stdout")
            self._close_fd("_stderr")
            with anyio.move_on_after(TERM_GRACE * 4):
                await self._process.aclose()

    def kill_now(self) -> None:
        """Synchronous last resort (garbage collection, interpreter exit): SIGKILL the group."""
        if not self._closed:
            self._closed = True
            _live_groups.discard(self._process.pid)
            self._signal_group(SIGKILL)
            self._close_fd("_stdout")
            self._close_fd("_stderr")
