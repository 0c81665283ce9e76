"""The CLI's process and our ends of its pipes: what both print-mode transports share.

:class:`~agent_sdk._transport.subprocess.SubprocessTransport` waits on an event loop;
:class:`~agent_sdk._transport.blocking.BlockingTransport` (``run_sync`` from a plain
script) blocks in ``poll``. What does not wait is here, once: reading what the pipes hold
now, the tail of stderr, the private config dir of a run given a model, and the kill that
ends the group (docs/lifecycle.md).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._options.invocation import passes_model
from ..errors import AgentConfigError
from ..options import Invocation
from .groups import end
from .log import DEBUG, log
from .served_tools import SERVE_TOOLS, ServedTools
from .spawn import SIGKILL, SIGTERM
from .strays import Tree

if TYPE_CHECKING:
    from ..options import AgentOptions
    from .config_dir import PrivateConfig

__all__ = ["CHUNK_BYTES", "ChildPipes", "StderrTail", "grow_pipe"]

CHUNK_BYTES = 256 * 1024  # a quarter megabyte decodes fastest: a chunk's events stay in cache
PIPE_BYTES = 1 << 20
STDERR_TAIL_BYTES = 64 * 1024
TERM_GRACE = 0.5  # after SIGTERM, how long the group gets before SIGKILL
REAP_WAIT = 2.0  # after SIGKILL, how long to wait for the kernel to report the exit
STDERR_GRACE = 0.25  # after the exit, how long a grandchild may hold stderr open


def grow_pipe(fd: int) -> None:
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
        return bytes(self._buf[-self._limit :]).decode("utf-8", "replace")


class ChildPipes:
    """The CLI's pid and our ends of its pipes, read without waiting.

    A subclass says what time it is (``clock``: the event loop's, or the monotonic clock)
    and may be told when a descriptor closes (``_closing``: an event loop wakes the tasks
    waiting on it).
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._pid: int | None = None
        self._stdout: int | None = None
        self._stderr: int | None = None
        self._stdin: int | None = None
        self._stderr_tail = StderrTail()
        self._linger = 0.0  # options.result_grace
        self._exited_at: float | None = None  # on the clock, once the exit was seen
        self._config: PrivateConfig | None = None
        self._tools: ServedTools | None = None
        self._tree: Tree | None = None  # the CLI's descendants, taken at SIGTERM
        self.hook_errors: list[BaseException] = []
        """What the run's hooks' callbacks raised (``AgentOptions(hooks=...)``), kept after
        the host is released."""
        self.escaped: list[BaseException] = []
        """What the run's tools raised that is no ``Exception`` (``extend/_guard.py``)."""
        self.custom_tool_calls: list[Any] | None = None
        """The calls the run's own tools answered (``extend/_served.py``), kept after the
        host is released."""
        self.cli_version: str | None = None
        """The CLI's version string, read from its install at the start
        (``discovery.installed_version``); ``None`` when unknown."""

    @property
    def pid(self) -> int | None:
        return self._pid

    def stderr_tail(self) -> str:
        return self._stderr_tail.text()

    def channel_missing(self) -> tuple[str, ...] | None:
        """What of the run's own tools and hooks the CLI has not reached yet (``"tools"``,
        ``"hooks"``; ``()``: all reached); ``None`` for a run without any."""
        if self._tools is None:
            return None
        host = self._tools.host
        wanted: tuple[str, ...] = ("tools",) if host.names else ()
        wanted += ("hooks",) if host.hooks is not None else ()
        return tuple(name for name in wanted if name not in host.reached)

    def _with_tools(self, invocation: Invocation, options: AgentOptions) -> Invocation:
        """``invocation`` as it runs with ``options.tools`` served (``extend/_home.py``: its
        own HOME or plugin folder and config dir, the host in this loop), released with
        the group (or by :meth:`_release_config` if nothing starts).

        Raises:
            AgentConfigError: the run has tools or hooks but nobody serves them (a
                transport started outside a run: ``served_tools.py``).
        """
        if not options.tools and options.hooks is None:
            return invocation
        serve = SERVE_TOOLS.get()
        if serve is None:
            raise AgentConfigError(
                "AgentOptions(tools=..., hooks=...): this transport was started outside a "
                "run, and a run's own tools and hooks are served by the run",
                hint="start it with run(), run_async(), run_sync() or a Session",
            )
        self._tools, invocation = serve(invocation, options)
        self.hook_errors = self._tools.host.hook_errors
        self.escaped = self._tools.host.escaped
        if options.tools:
            self.custom_tool_calls = self._tools.host.calls
        return invocation

    def _in_private_config(self, invocation: Invocation) -> Invocation:
        """``invocation`` as it runs: one that passes ``--model`` in a private config dir
        (:func:`passes_model`), released with the group (or by :meth:`_release_config`
        if nothing starts). A run with tools has one already (:meth:`_with_tools`)."""
        if self._tools is not None or not passes_model(invocation.argv):
            return invocation
        # --model is sticky (docs/protocol.md §1): stored in a private config, not in the
        # user's, so no later run without a model gets this one.
        from .config_dir import in_private_config

        self._config, invocation = in_private_config(invocation)
        return invocation

    def _release_config(self) -> None:
        config, self._config = self._config, None
        if config is not None:
            config.release()
        tools, self._tools = self._tools, None
        if tools is not None:
            tools.release()

    def receive_ready(self) -> bytes | None:
        fd = self._stdout
        if fd is None:
            return None
        try:
            data = os.read(fd, CHUNK_BYTES)
        except BlockingIOError:
            self._read_stderr()
            if self._exited_at is not None and self._clock() >= self._exited_at + self._linger:
                return None  # it exited, and what holds stdout open is not the CLI
            return b""
        self._read_stderr()  # along the way: a full stderr pipe must never block the CLI
        if not data:
            self._close_fd("_stdout")
            return None
        return data

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
                return False
            self._stderr_tail.write(data)
        return False

    def _terminate(self) -> None:
        """SIGTERM to the group and to the CLI's descendants, taken now: a shell command
        leads a session of its own (docs/protocol.md §5), and once the CLI is gone its
        children are orphans, no longer below it."""
        assert self._pid is not None
        self._tree = Tree(self._pid)
        self._signal_group(SIGTERM)
        self._tree.signal(SIGTERM)

    def _kill_and_release(self) -> None:
        # Synchronous: nothing can interrupt it. Stragglers of the group (tool
        # subprocesses), the CLI's tree and every process that carries the run's mark are
        # killed even when the leader exited on its own (docs/lifecycle.md).
        self._read_stderr()  # what it said last is kept
        if self._pid is not None:
            log(
                "transport",
                DEBUG,
                "sending signal %d to process group %d and its run's processes",
                SIGKILL,
                self._pid,
            )
            tree, self._tree = self._tree, None
            end(self._pid, tree)  # SIGKILL cannot be ignored: they are dead
        for name in ("_stdout", "_stderr", "_stdin"):
            self._close_fd(name)
        self._release_config()  # the group is dead: nothing writes in it any more

    def _signal_group(self, signum: int) -> None:
        assert self._pid is not None
        log("transport", DEBUG, "sending signal %d to process group %d", signum, self._pid)
        with contextlib.suppress(ProcessLookupError, PermissionError):  # gone already
            os.killpg(self._pid, signum)

    def _close_fd(self, name: str) -> None:
        fd = getattr(self, name)
        if fd is not None:
            setattr(self, name, None)
            self._closing(name, fd)
            os.close(fd)

    def _closing(self, name: str, fd: int) -> None:
        """``fd``, the attribute ``name``, is about to be closed."""
