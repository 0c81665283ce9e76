"""``cursor-agent acp`` as a child process with a stdin that stays open (docs/acp.md §1, §2).

Started by the SDK's own spawner (``_transport.spawn``: argv list, its own process group,
tracked for the exit-time kill and the watchdog: docs/lifecycle.md, "When the program
dies"). The
pipes are exposed as anyio byte streams for :class:`~agent_sdk.live._connection.Connection`.
Teardown follows §2 step 7: close stdin (the agent usually exits 0, not always: §1), then
after a grace end the process group whether or not it exited: SIGTERM, a grace, SIGKILL,
reap.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping

import anyio
import anyio.abc

from .._transport.child import StderrTail, grow_pipe
from .._transport.fds import FdReceiveStream, FdSendStream, close_fd
from .._transport.groups import end
from .._transport.log import DEBUG, log
from .._transport.spawn import SIGKILL, SIGTERM, Child, open_pipes, spawn
from .._transport.strays import Tree
from ..options import AgentOptions, Invocation

__all__ = ["AcpProcess", "acp_invocation"]

EXIT_GRACE = 2.0  # after stdin closes, how long the agent gets to exit by itself (§2 step 7)
TERM_GRACE = 0.5  # after SIGTERM, before SIGKILL
REAP_WAIT = 2.0  # after SIGKILL, for the kernel to report the exit


class AcpProcess:
    """The running ``cursor-agent acp``: :attr:`stdin`, :attr:`stdout`, a stderr tail."""

    def __init__(self, process: Child, stdin: int, stdout: int, stderr: int) -> None:
        self.process = process
        self.stdin = FdSendStream(stdin)
        self.stdout = FdReceiveStream(stdout)
        self._stderr: int | None = stderr
        self._tail = StderrTail()
        self._closed = False

    @classmethod
    async def start(cls, invocation: Invocation, options: AgentOptions) -> AcpProcess:
        """Spawn ``invocation`` in ``options.cwd`` (the agent finds MCP config from its cwd,
        §1).

        Raises:
            AgentStartError: it could not be started (``AgentNotFoundError``: no binary).
        """
        pipes = open_pipes(stdin=True)
        process = await spawn(invocation, options.cwd, pipes)  # closes pipes if it fails
        stdout, stderr, stdin = pipes.ours()
        assert stdin is not None
        grow_pipe(stdout)
        return cls(process, stdin, stdout, stderr)

    @property
    def pid(self) -> int:
        """The agent's pid, also its process group's id."""
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once it exited (negative: a signal), else ``None``."""
        return self.process.returncode

    def stderr_tail(self) -> str:
        """The last part of stderr (silent on real runs except startup failures, §1)."""
        return self._tail.text()

    async def wait(self) -> int:
        """Wait for the exit; the status (negative: a signal)."""
        return await self.process.wait()

    async def serve(self) -> None:
        """For the agent's life: drain stderr (:meth:`drain_stderr`)."""
        await self.drain_stderr()

    async def drain_stderr(self) -> None:
        """Read stderr until it closes: a full stderr pipe must never block the agent."""
        while (fd := self._stderr) is not None:
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                try:
                    await anyio.wait_readable(fd)
                except anyio.ClosedResourceError:
                    return
                continue
            if not data:
                self._stderr = None
                close_fd(fd)
                return
            self._tail.write(data)

    async def aclose(self, exit_grace: float = EXIT_GRACE) -> None:
        """End it: stdin closed, ``exit_grace`` to exit, then the group is ended (§2 step 7).
        Bounded, idempotent, and finished even when cancelled (then re-raised)."""
        if self._closed:
            return
        self._closed = True
        # Its descendants, taken while it lives: once it exits they are orphans, no longer
        # below it (docs/lifecycle.md, "Everything the CLI starts").
        tree = Tree(self.pid) if self.process.returncode is None else None
        with anyio.CancelScope(shield=True):
            await self.stdin.aclose()
            if self.process.returncode is None:
                with anyio.move_on_after(exit_grace):
                    await self.process.wait()
            # The group goes in every case: tool subprocesses may outlive the leader.
            if self.process.returncode is None:
                self._signal(SIGTERM)
                if tree is not None:
                    tree.signal(SIGTERM)
                with anyio.move_on_after(TERM_GRACE):
                    await self.process.wait()
            log(
                "live",
                DEBUG,
                "sending signal %d to the agent's process group %d and its processes",
                SIGKILL,
                self.pid,
            )
            end(self.pid, tree)  # the group, its tree and what carries its mark
            with anyio.move_on_after(REAP_WAIT):
                await self.process.wait()
            await self.stdout.aclose()
            if self._stderr is not None:
                fd, self._stderr = self._stderr, None
                close_fd(fd)

    def _signal(self, signum: int) -> None:
        log("live", DEBUG, "sending signal %d to the agent's process group %d", signum, self.pid)
        with contextlib.suppress(ProcessLookupError, PermissionError):  # gone already
            os.killpg(self.pid, signum)


def acp_invocation(options: AgentOptions, binary: str, environ: Mapping[str, str]) -> Invocation:
    """The argv and environment of ``cursor-agent [global options] acp``. Pure.

    Global options go **before** ``acp`` (§1). ``NO_OPEN_BROWSER=1`` and a no-op
    ``BROWSER``: a login must never open a browser on the host (§1, §3.2).
    """
    from .._options.invocation import child_environment

    argv = [binary]
    if options.force:  # auto-approves instead of asking (§1)
        argv.append("--force")
    if options.model is not None:
        argv.append(f"--model={options.model}")
    if options.workspace is not None:
        argv.append(f"--workspace={os.fspath(options.workspace)}")
    if options.endpoint is not None:
        argv.append(f"--endpoint={options.endpoint}")
    argv += [f"--add-dir={os.fspath(d)}" for d in options.add_dirs]
    argv += [*options.extra_args, "acp"]
    env = child_environment(options, environ)
    env["BROWSER"] = "true"
    return Invocation(argv=argv, stdin=None, env=env)
