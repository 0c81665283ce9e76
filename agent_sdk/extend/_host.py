"""The host: the tools of one run, served in the user's process over a Unix socket that
the relay (``_relay.py``, the command the CLI starts) connects to (docs/extend.md, "How the
tools reach the CLI").

- :meth:`ToolHost.open` makes a private 0700 directory in the temp dir (with the owner
  marker of ``_transport/owner.py``: one left by a process that died is swept by the next host, run
  or fleet), binds the socket in it and listens, synchronously: from then on the CLI can
  connect, and a connection waits in the backlog until it is served.
- :meth:`ToolHost.start` serves in a task of the caller's event loop that outlives the
  call (a run is awaited from ``__anext__`` in any task, so no task group of ours can
  hold it): a system task on trio, a task on asyncio. Tools run in that loop, as the user's
  own code does.
- Each connection must first send the run's token as one line (compared with
  ``hmac.compare_digest``); a wrong or missing one is closed, nothing served. Its peer
  must then be the relay a CLI started for this host (``_peers.py``: the token alone is
  also in the environment of every shell command the agent runs); any other is closed,
  nothing served, and the refusal logged in words (``agent_sdk.extend``, WARNING). Then
  it is one MCP session (one :class:`~agent_sdk.extend._mcp.McpServer`): the CLI may
  connect more than once. A first line ``<token> hook`` is one hook call instead (the
  relay's ``hook`` mode), answered with the run's :class:`Hooks` (``_hook_calls.py``).
- :meth:`ToolHost.close` (synchronous, idempotent) stops serving and removes the directory.

Each call answered is recorded (:attr:`ToolHost.calls`), for the run to tell which
``mcpToolCall`` events were ours (docs/extend.md, "Which calls were ours").
"""

from __future__ import annotations

import _thread  # the low-level lock: `threading` costs a run's import time
import contextlib
import enum
import functools
import hmac
import os
import secrets
import shutil
import socket
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
import msgspec

from .._transport.fds import FdReceiveStream, FdSendStream, close_fd
from .._transport.owner import PREFIXES, mark, sweep
from .._transport.served_tools import RELEASE_AT_EXIT
from .._wire.tool_labels import OWN_SERVER
from ..errors import AgentStartError
from ._first_line import Prefixed, split_token
from ._hook_calls import hook_call
from ._hooks import Hooks
from ._mcp import Admit, McpServer, unchanged
from ._mcp_answers import McpAnswers
from ._mcp_messages import CallResult
from ._peers import Peer, PeerCheck, admits, cli_relay, peer_of
from ._relay import HOOK_MODE, HOOKS_TOKEN_ENV, SOCKET_ENV, TOKEN_ENV
from ._served import CustomToolCall
from ._stdio import serve
from ._tool import Tool, tools_by_name

__all__ = [
    "HOOKS_TOKEN_ENV",
    "PREFIX",
    "SERVER_NAME",
    "SOCKET_ENV",
    "TOKEN_ENV",
    "HostState",
    "ToolHost",
    "close_all",
    "new_token",
    "open_host",
    "relay_command",
    "split_token",
]

SERVER_NAME = OWN_SERVER
"""The MCP server's name for the CLI: ``Mcp(agent_sdk:*)`` allows its tools (§8.4), and
the ACP permission title of one of them is ``agent_sdk-<tool>: <tool>`` (docs/acp.md
§3.11)."""
PREFIX = PREFIXES[3]
"""How the names of the hosts' directories begin (in the system's temp dir)."""
TOKEN_WAIT = 10.0  # seconds a connection gets to send it
ACCEPT_PAUSE = 0.1  # seconds before accepting again after accept() failed
CLOSE_WAIT = 5.0  # seconds aclose() waits for the serving task (a tool ignoring cancellation)

# Open and not yet closed: closed at interpreter exit (``_transport/subprocess.py``). A
# forked child starts with none: they are its parent's (docs/lifecycle.md, "When the
# program forks").
_live: set[ToolHost] = set()
if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_live.clear)


def new_token() -> str:
    """A run's secret for its relay's connections (43 URL-safe characters)."""
    return secrets.token_urlsafe(32)


def relay_command(*mode: str) -> list[str]:
    """The relay as a command: this Python, isolated (``-I``: no user site, no
    ``PYTHON*`` variables, no cwd on the path; ``-S``: no ``site``), the script's
    absolute path, the mode (``mcp`` unless given: ``"hook", <socket path>``)."""
    script = str(Path(__file__).with_name("_relay.py"))
    return [sys.executable, "-I", "-S", script, *(mode or ("mcp",))]


class HostState(enum.Enum):
    NEW = "new"
    OPEN = "open"  # the socket listens
    SERVING = "serving"  # a task accepts connections
    CLOSED = "closed"


class ToolHost:
    """The tools of one run, for the relay to reach (see the module's docstring).

    Args:
        tools: the tools.
        hooks: the callbacks hook calls are answered with; ``None``: hook calls block.
        redact: applied to every error text sent back (the run's redaction).
        token: the run's secret, when the run made it already (:func:`new_token`, so its
            redaction masks it); else one is made here.
        peers: who may connect (``_peers.py``); by default only the relay a CLI started
            for this host (its environment holds ``token``).
        admit: asked before a call runs (the run's budget, ``_run/tool_budget.py``): a text
            refuses it, as the tool error the agent reads.

    Raises:
        AgentConfigError: two tools have one name, or a function cannot be a tool.
    """

    def __init__(
        self,
        tools: Iterable[Tool[..., Any] | Callable[..., Any]],
        *,
        hooks: Hooks | None = None,
        redact: Callable[[str], str] = unchanged,
        token: str | None = None,
        peers: PeerCheck = cli_relay,
        admit: Admit | None = None,
    ) -> None:
        self._tools = list(tools)
        self._admit = admit
        McpServer(self._tools)  # checks them now, not at the first connection
        self.hooks = hooks
        self._mcp = McpAnswers(self.names)  # one question per MCP call (_wire/hook_messages.py)
        self.hook_errors: list[BaseException] = []
        """What the hooks' callbacks raised (or answered wrongly), in order: for the
        program, never sent to the agent."""
        self.escaped: list[BaseException] = []
        """What the tools raised that is no ``Exception``: it ends the run (``_guard.py``)."""
        self._redact = redact
        self._token = token or new_token()
        self._peers = peers
        self.state = HostState.NEW
        self.calls: list[CustomToolCall] = []
        """The calls answered, in the order they were."""
        self.reached: set[str] = set()
        self._closing = _thread.allocate_lock()
        """What the CLI has reached: ``"tools"`` once it started our server (a relay
        admitted as an MCP session), ``"hooks"`` once it ran one of our hooks (docs/extend.md,
        "Never silently bypassed")."""
        self.directory: Path | None = None
        self._socket: socket.socket | None = None
        self._scope: anyio.CancelScope | None = None  # made by start(): it needs a loop
        self._done: anyio.Event | None = None  # set when the serving task has ended
        self._task: Any = None  # asyncio's task: the loop keeps only a weak reference

    def __repr__(self) -> str:
        return f"<ToolHost {self.state.value} tools={len(self._tools)}>"

    @property
    def socket_path(self) -> str:
        """Where the relay connects (once open)."""
        assert self.directory is not None
        return str(self.directory / "tools.sock")

    @property
    def token(self) -> str:
        """The run's secret: for the CLI's environment (print mode) or the ACP entry."""
        return self._token

    @property
    def names(self) -> list[str]:
        """The tools' names."""
        return [tool.name for tool in tools_by_name(self._tools).values()]

    def env(self) -> dict[str, str]:
        """The relay's environment: the socket's path and the token (secret: for the
        CLI's environment or the ACP entry, never a file nor argv)."""
        return {SOCKET_ENV: self.socket_path, TOKEN_ENV: self._token}

    def open(self) -> None:
        """Make the directory, bind and listen (see the module's docstring).

        Raises:
            OSError: the directory or the socket could not be made.
        """
        sweep(PREFIX, functools.partial(shutil.rmtree, ignore_errors=True))
        directory = Path(tempfile.mkdtemp(prefix=PREFIX)).resolve()  # mode 0700
        try:
            mark(directory)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.bind(str(directory / "tools.sock"))
                sock.listen(16)
                sock.setblocking(False)
            except BaseException:
                sock.close()
                raise
        except BaseException:
            shutil.rmtree(directory, ignore_errors=True)
            raise
        self.directory, self._socket = directory, sock
        self.state = HostState.OPEN
        _live.add(self)

    def start(self) -> None:
        """Serve in a task of the running event loop until :meth:`close`."""
        if self.state is not HostState.OPEN:
            return
        self.state = HostState.SERVING
        self._done = anyio.Event()
        self._scope = anyio.CancelScope()
        sock, self._socket = self._socket, None  # the task's from now on: it closes it
        assert sock is not None
        _detached(functools.partial(self._serve_until_closed, sock), self)

    async def aclose(self) -> None:
        """:meth:`close`, then wait (shielded, bounded) until the serving task has ended:
        its socket and connections closed, its tools' tasks cancelled."""
        self.close()
        if self._done is not None:
            with anyio.CancelScope(shield=True), anyio.move_on_after(CLOSE_WAIT):
                await self._done.wait()

    def close(self) -> None:
        """Stop serving and remove the directory (synchronous, idempotent): from a sync
        last resort (garbage collection, interpreter exit); :meth:`aclose` also waits for
        the serving task."""
        with self._closing:  # the exit's close waits for one under way in a run's teardown
            if self.state is HostState.CLOSED:
                return
            self.state = HostState.CLOSED
            if self._scope is not None:
                # From gc or the exit the loop (and its task) may be gone: the dir is left.
                with contextlib.suppress(RuntimeError):
                    self._scope.cancel()
            if self._socket is not None:
                self._socket.close()  # not served: no task holds it
                self._socket = None
            if self.directory is not None:
                shutil.rmtree(self.directory, ignore_errors=True)
            _live.discard(self)  # only once removed: a daemon thread stops at the exit

    async def _serve_until_closed(self, sock: socket.socket) -> None:
        # The socket's descriptors as the stdio runner's streams (``_transport/fds.py``):
        # waits on the descriptors themselves, alike on asyncio and trio.
        opened: list[anyio.abc.AsyncResource] = []
        assert self._scope is not None
        try:
            with self._scope:
                async with anyio.create_task_group() as group:
                    while True:
                        await anyio.wait_readable(sock)
                        try:
                            conn, _ = sock.accept()
                        except (BlockingIOError, InterruptedError):
                            continue
                        except OSError:  # out of descriptors, an aborted connection
                            await anyio.sleep(ACCEPT_PAUSE)  # then try again: never end
                            continue
                        peer = peer_of(conn)  # as the kernel saw it connect
                        fd = conn.detach()
                        # Held here, not only by the task: one cancelled before its first
                        # step never runs its own cleanup.
                        receive, send = FdReceiveStream(fd), FdSendStream(os.dup(fd))
                        opened += (receive, send)
                        group.start_soon(self._connection, receive, send, peer)
        finally:
            with anyio.CancelScope(shield=True):
                for stream in opened:
                    await stream.aclose()
            close_fd(sock.detach())
            if self._done is not None:
                self._done.set()

    async def _connection(
        self, receive: FdReceiveStream, send: FdSendStream, peer: Peer | None
    ) -> None:
        try:
            # A peer gone mid-write or mid-read (ECONNRESET), or any failure of one
            # connection, ends that connection only: never the host of the run.
            with contextlib.suppress(Exception):
                admitted = await self._admitted(receive)
                if admitted is None:
                    return
                mode, rest = admitted
                if not admits(self._peers, peer, mode, self._token):
                    return
                self.reached.add("hooks" if mode == HOOK_MODE else "tools")
                if mode == HOOK_MODE:
                    stream = Prefixed(rest, receive)
                    reply = await hook_call(self.hooks, stream, self.hook_errors, self._mcp)
                    await send.send(reply)
                elif not mode:
                    server = McpServer(
                        self._tools,
                        redact=self._redact,
                        observe=self._record,
                        admit=self._admit,
                        escaped=self.escaped,
                    )
                    await serve(server, Prefixed(rest, receive), send)
        finally:
            await receive.aclose()
            await send.aclose()

    async def _admitted(self, stream: anyio.abc.ByteReceiveStream) -> tuple[bytes, bytes] | None:
        """The mode the first line names after a right token (``b""``: MCP; ``b"hook"``)
        and what came after that line; ``None`` for a wrong or missing token."""
        data = b""
        with anyio.move_on_after(TOKEN_WAIT):
            while True:
                try:
                    found = split_token(data)
                except ValueError:
                    return None
                if found is not None:
                    line, rest = found
                    token, _, mode = line.partition(b" ")
                    right = hmac.compare_digest(token, self._token.encode())
                    return (mode, rest) if right else None
                try:
                    data += await stream.receive()
                except anyio.EndOfStream:
                    return None
        return None

    def _record(
        self, tool: str, arguments: msgspec.Raw | msgspec.UnsetType, result: CallResult
    ) -> None:
        args: Any = None
        if arguments is not msgspec.UNSET:
            # msgspec.DecodeError, and UnicodeDecodeError for invalid UTF-8 in a string
            with contextlib.suppress(ValueError, RecursionError):
                args = msgspec.json.decode(arguments)
        text = "\n".join(block.text for block in result.content)
        self.calls.append(CustomToolCall(tool, args, text, result.is_error))


def _detached(serve: Callable[[], Awaitable[None]], owner: ToolHost) -> None:
    """Run ``serve`` in a task of the running loop that no task group holds."""
    trio = sys.modules.get("trio")
    if trio is not None and trio.lowlevel.in_trio_run():

        async def quiet() -> None:
            # A system task's exception would crash the whole trio run: a host that
            # fails only stops serving (the CLI then sees its server gone).
            with contextlib.suppress(Exception):
                await serve()

        trio.lowlevel.spawn_system_task(quiet, name="agent_sdk tool host")
        return
    import asyncio

    async def quiet_asyncio() -> None:
        with contextlib.suppress(Exception):
            await serve()

    owner._task = asyncio.get_running_loop().create_task(quiet_asyncio())


def open_host(host: ToolHost) -> None:
    """:meth:`ToolHost.open`, its failure an :class:`AgentStartError` that says what to do.

    Raises:
        AgentStartError: the directory or the socket could not be made.
    """
    try:
        host.open()
    except OSError as exc:
        raise AgentStartError(
            f"could not make the socket the agent reaches the run's tools by: {exc}",
            hint="check that TMPDIR names a writable directory with free space, and that "
            "its path is short (a Unix socket's path has a limit of about 100 bytes)",
        ) from exc


def close_all() -> None:
    """Close every host not closed yet (at the exit, once the CLI groups are dead)."""
    for host in list(_live):
        host.close()


RELEASE_AT_EXIT.append(close_all)
