"""The real CLI as a child process: the transport every run uses unless told otherwise.

It owns the process group, the pipes, the stdin prompt and the teardown
(:class:`~agent_sdk._transport.base.Transport` has the contract). No task group or cancel
scope here outlives one call, so a run may await these methods from ``__anext__`` in any
task (docs/lifecycle.md).

Performance note (docs/benchmarks.md): stdout and stderr are plain pipes read with
``os.read`` on non-blocking descriptors, a quarter megabyte at a time, with a 1 MiB pipe on
Linux: one wake-up per chunk, no stream layer in between, reading at the pipe's own speed.
"""

from __future__ import annotations

import atexit
import contextlib
import enum
import os
import sys
import time

import anyio

from ..options import AgentOptions, Invocation, build_invocation
from .child import (
    CHUNK_BYTES,
    PIPE_BYTES,
    REAP_WAIT,
    STDERR_GRACE,
    TERM_GRACE,
    ChildPipes,
    grow_pipe,
)
from .discovery import locate_cli
from .groups import kill_all
from .served_tools import RELEASE_AT_EXIT
from .spawn import Child, open_pipes, spawn

__all__ = ["CHUNK_BYTES", "SubprocessTransport", "grow_pipe"]

CHECKPOINT_EVERY = 0.005  # longest stretch of reading without letting other tasks run
STDOUT_GLANCE = 0.01  # wait this long for stdout alone before also watching stderr and exit


# Process groups started and not yet killed (``groups``) are killed at interpreter exit,
# so that no CLI (or tool subprocess of one) outlives a program that never closed its
# runs; a forked child starts with none (docs/lifecycle.md, "When the program forks").
@atexit.register
def _kill_live_groups() -> None:
    kill_all()
    # The private config dirs of runs given a model, now their groups are dead; loaded
    # only by such a run (a short script pays no import it does not use).
    config_dir = sys.modules.get(f"{__package__}.config_dir")
    if config_dir is not None:
        config_dir.release_all()
    # The hosts, HOMEs and plugin folders of runs given tools, likewise: what loaded of
    # them said how (served_tools.py), not named here (the extensions are a layer above).
    for release in RELEASE_AT_EXIT:
        release()


class _Phase(enum.Enum):
    NEW = "new"
    RUNNING = "running"
    CLOSING = "closing"
    CLOSED = "closed"


class SubprocessTransport(ChildPipes):
    """The CLI as a child process, leader of its own process group (see the module)."""

    def __init__(self) -> None:
        super().__init__(anyio.current_time)
        self._phase = _Phase.NEW
        self._process: Child | None = None
        self._stderr_closed = anyio.Event()
        self._closed: anyio.Event | None = None
        self._last_checkpoint = time.monotonic()

    @property
    def returncode(self) -> int | None:
        return self._process.returncode if self._process is not None else None

    # --- start ----------------------------------------------------------------------
    async def start(self, prompt: str, options: AgentOptions) -> None:
        binary, self.cli_version = await locate_cli(options)
        invocation = build_invocation(prompt, options, binary=binary, environ=os.environ)
        await self.start_invocation(invocation, options)

    async def start_invocation(self, invocation: Invocation, options: AgentOptions) -> None:
        """Start exactly ``invocation``, in ``options.cwd`` (queries, the recorder); one
        that passes ``--model`` in a private config dir (:func:`passes_model`), one given
        tools with them served (``extend/_home.py``, through ``served_tools.py``)."""
        try:
            invocation = self._in_private_config(self._with_tools(invocation, options))
            await self._spawn(invocation, options)
        except BaseException:
            if self._process is None:  # nothing started: nothing else will release it
                self._release_config()
            raise

    async def _spawn(self, invocation: Invocation, options: AgentOptions) -> None:
        self._linger = options.result_grace
        pipes = open_pipes(stdin=invocation.stdin is not None)
        process = await spawn(invocation, options.cwd, pipes)  # closes the pipes it fails with
        # Ours from here on, before anything awaits (docs/lifecycle.md).
        self._process = process
        self._pid = process.pid
        self._stdout, self._stderr, self._stdin = pipes.ours()
        if self._phase is not _Phase.NEW:
            # aclose() ran in another task while we were spawning: end it now.
            self._phase = _Phase.RUNNING
            await self.aclose()
            return
        self._phase = _Phase.RUNNING
        grow_pipe(self._stdout)
        if invocation.stdin is not None:
            await self._write_stdin(invocation.stdin)

    async def _write_stdin(self, data: bytes) -> None:
        # A prompt too long for argv (docs/protocol.md §1). The run's deadlines and
        # cancellation govern this wait like any other: it is an await like the reads.
        fd = self._stdin
        view = memoryview(data)
        while view and fd is not None:
            try:
                view = view[os.write(fd, view[:PIPE_BYTES]) :]
            except BlockingIOError:
                try:
                    await anyio.wait_writable(fd)
                except anyio.ClosedResourceError:
                    return  # closed by aclose() from another task
            except BrokenPipeError:
                break  # it exited without reading: its exit status and stderr say why
            fd = self._stdin
        self._close_fd("_stdin")

    # --- output ---------------------------------------------------------------------
    async def receive(self) -> bytes | None:
        # Let other tasks run (and cancellation in) every few milliseconds of continuous
        # reading; before the read, so that a cancellation never loses a chunk.
        now = time.monotonic()
        if now - self._last_checkpoint > CHECKPOINT_EVERY:
            self._last_checkpoint = now
            await anyio.lowlevel.checkpoint()
        while True:
            chunk = self.receive_ready()
            if chunk != b"":
                return chunk
            await self._wait_for_output()

    async def _wait_for_output(self) -> None:
        """Until stdout may have something, or the output may have ended."""
        fd = self._stdout
        if fd is None:
            return
        # Usually stdout is back within moments: wait for it alone first (cheap), and only
        # then also drain stderr (a CLI blocked on a full stderr pipe needs it) and watch
        # for the exit (docs/lifecycle.md: exit is watched as well as stdout).
        with anyio.move_on_after(STDOUT_GLANCE):
            await _readable(fd)
            return
        async with anyio.create_task_group() as tg:
            with anyio.CancelScope() as waiting:
                if self._exited_at is not None:
                    waiting.deadline = self._exited_at + self._linger
                else:
                    tg.start_soon(self._watch_exit, waiting)
                tg.start_soon(self._drain_stderr)
                # Read again: aclose() in another task may have closed it (and the OS may
                # have given its number to another file) while the glance's end was due.
                if (fd := self._stdout) is not None:
                    await _readable(fd)
            tg.cancel_scope.cancel()

    async def _watch_exit(self, waiting: anyio.CancelScope) -> None:
        assert self._process is not None
        await self._process.wait()
        self._exited_at = anyio.current_time()
        waiting.deadline = self._exited_at + self._linger

    async def _drain_stderr(self) -> None:
        while (fd := self._stderr) is not None:
            await _readable(fd)
            if not self._read_stderr():
                return

    async def wait(self) -> int:
        assert self._process is not None
        if self._stderr is None:
            return await self._process.wait()
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._drain_stderr)
            code = await self._process.wait()
            # A grandchild may still hold stderr open; do not wait on it for long.
            with anyio.move_on_after(STDERR_GRACE):
                await self._stderr_closed.wait()
            tg.cancel_scope.cancel()
        return code

    # --- teardown -------------------------------------------------------------------
    async def aclose(self) -> None:
        if self._phase is _Phase.CLOSED:
            return
        if self._phase is _Phase.NEW and self._process is None:
            self._phase = _Phase.CLOSED  # nothing started (yet: start() checks this)
            return
        if self._phase is _Phase.CLOSING:
            assert self._closed is not None
            await self._closed.wait()  # another task is ending it
            return
        self._phase = _Phase.CLOSING
        self._closed = anyio.Event()
        interrupted: BaseException | None = None
        process = self._process
        try:
            if process is not None and process.returncode is None:
                self._terminate()
                with anyio.CancelScope(shield=True), anyio.move_on_after(TERM_GRACE):
                    await process.wait()
        except BaseException as exc:
            # A cancellation the shield does not stop (asyncio: Task.cancel() again while
            # we wait). Nothing below may be skipped for it: it is re-raised at the end.
            interrupted = exc
        host = self._tools.host if self._tools is not None else None
        self._kill_and_release()
        if host is not None:
            try:  # closed with the rest; its task's end is awaited here
                await host.aclose()
            except BaseException as exc:
                interrupted = interrupted or exc
        if process is not None:
            try:
                with anyio.CancelScope(shield=True), anyio.move_on_after(REAP_WAIT):
                    await process.wait()  # reap: no zombie is left behind
            except BaseException as exc:
                interrupted = interrupted or exc
        self._closed.set()
        if interrupted is not None:
            raise interrupted

    def kill_now(self) -> None:
        if self._phase is not _Phase.CLOSED:
            self._kill_and_release()

    def _kill_and_release(self) -> None:
        self._phase = _Phase.CLOSED
        super()._kill_and_release()

    def _closing(self, name: str, fd: int) -> None:
        with contextlib.suppress(RuntimeError):  # no event loop (garbage collection)
            anyio.notify_closing(fd)  # wakes a task waiting on it in receive()
        if name == "_stderr":
            with contextlib.suppress(RuntimeError):  # its loop is closed (garbage collection)
                self._stderr_closed.set()


async def _readable(fd: int) -> None:
    """Wait until ``fd`` is readable, or closed by ``aclose()`` in another task."""
    with contextlib.suppress(anyio.ClosedResourceError):
        await anyio.wait_readable(fd)
