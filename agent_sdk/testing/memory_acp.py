"""``MemoryAcpTransport``: an ACP agent played in-process by a script, for a
:class:`~agent_sdk.live.LiveAgent` (``LiveAgent(transport=...)``), so code built on the
live agent, and the live agent's own lifecycle rules, are tested without a process.

The script is an async function given a :class:`ScriptedAgent`: it reads what the client
sends and writes what the agent would (docs/acp.md)::

    async def agent(a: ScriptedAgent) -> None:
        await a.handshake()  # answers `initialize`
        new = await a.expect("session/new")
        await a.reply(new, {"sessionId": "s1"})
        prompt = await a.expect("session/prompt")
        await a.update("s1", {"sessionUpdate": "agent_message_chunk",
                              "content": {"type": "text", "text": "Hi"}})
        await a.reply(prompt, {"stopReason": "end_turn"})

    async with LiveAgent(transport=MemoryAcpTransport(agent)) as live:
        ...

When the script returns, the agent has exited (status 0; a script that raises exits 1,
its exception as stderr). Closing the client's side ends :meth:`ScriptedAgent.receive`
with ``anyio.EndOfStream``, as stdin's EOF ends the CLI (§1).

The client reads the agent's output as it reads a pipe: bytes already written come back at
once, without giving other tasks a turn. :meth:`ScriptedAgent.flood` plays an agent that
writes faster than the client reads (a pipe that is never empty), for flood tests.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import anyio.abc
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

__all__ = ["AgentScript", "MemoryAcpTransport", "ScriptedAgent"]

#: How many flood lines one read of the client returns.
FLOOD_BATCH = 100

AgentScript = Callable[["ScriptedAgent"], Awaitable[None]]
"""What the agent does: reads the client's messages and answers (docs/acp.md)."""


class ByteSend(anyio.abc.ByteSendStream):
    """A memory object stream as a byte stream (the client's side of a pipe)."""

    def __init__(self, stream: MemoryObjectSendStream[bytes]) -> None:
        self._stream = stream
        self.deaf = False
        """Whether the agent stopped reading: a send then waits forever, as on a full pipe."""

    async def send(self, item: bytes) -> None:
        if self.deaf:
            await anyio.sleep_forever()
        await self._stream.send(item)

    async def aclose(self) -> None:
        await self._stream.aclose()


class Flood:
    """Lines written as fast as the client reads them, up to a limit (see
    :meth:`ScriptedAgent.flood`)."""

    def __init__(self) -> None:
        self._line = b""
        self._left = 0
        self.sent = 0
        """How many flood lines the client has read so far."""
        self.over: anyio.Event | None = None

    def start(self, line: bytes, limit: int) -> None:
        self._line, self._left = line, limit
        self.over = anyio.Event()

    def stop(self) -> int:
        self._left = 0
        if self.over is not None:
            self.over.set()
        return self.sent

    def take(self) -> bytes:
        """The next lines, or ``b""`` once the flood is over."""
        count = min(FLOOD_BATCH, self._left)
        self._left -= count
        self.sent += count
        if not self._left and self.over is not None:
            self.over.set()
        return self._line * count


class ByteReceive(anyio.abc.ByteReceiveStream):
    """A memory object stream as a byte stream (the client's side of a pipe): what is
    written already comes back at once, as from a pipe (no checkpoint); a ``flood``
    fills it whenever it is empty."""

    def __init__(
        self, stream: MemoryObjectReceiveStream[bytes], flood: Flood | None = None
    ) -> None:
        self._stream = stream
        self._flood = flood

    async def receive(self, max_bytes: int = 65536) -> bytes:
        try:
            return self._stream.receive_nowait()
        except anyio.WouldBlock:
            pass
        if self._flood is not None and (lines := self._flood.take()):
            return lines
        return await self._stream.receive()

    async def aclose(self) -> None:
        await self._stream.aclose()


class ScriptedAgent:
    """The agent's side of a :class:`MemoryAcpTransport`, as a script sees it.

    Attributes:
        received: every message the client sent, decoded, in order.
    """

    def __init__(
        self,
        inbox: MemoryObjectReceiveStream[bytes],
        outbox: MemoryObjectSendStream[bytes],
        flood: Flood | None = None,
        stdin: ByteSend | None = None,
    ) -> None:
        self._stdin = stdin
        self._inbox = inbox
        self._outbox = outbox
        self._flood = flood if flood is not None else Flood()
        self._buffer = b""
        self._held: list[dict[str, Any]] = []
        self._ids = itertools.count(0)  # the agent's ids start at 0 (§1)
        self.received: list[dict[str, Any]] = []

    async def receive(self) -> dict[str, Any]:
        """The client's next message (held ones first).

        Raises:
            anyio.EndOfStream: the client closed its side (the agent should exit).
        """
        if self._held:
            return self._held.pop(0)
        while b"\n" not in self._buffer:
            self._buffer += await self._inbox.receive()
        line, self._buffer = self._buffer.split(b"\n", 1)
        message: dict[str, Any] = json.loads(line)
        self.received.append(message)
        return message

    async def expect(self, method: str) -> dict[str, Any]:
        """The client's next message with this ``method``; others before it are held."""
        return await self._next(lambda message: message.get("method") == method)

    async def _next(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        skipped: list[dict[str, Any]] = []
        try:
            while not wanted(message := await self.receive()):
                skipped.append(message)
            return message
        finally:
            self._held[:0] = skipped

    async def send(self, message: dict[str, Any]) -> None:
        """Write one JSON-RPC message (``"jsonrpc": "2.0"`` added)."""
        await self.send_line(json.dumps({"jsonrpc": "2.0", **message}).encode())

    async def send_line(self, line: bytes) -> None:
        """Write one line as is (a broken one, for robustness tests)."""
        await self._outbox.send(line + b"\n")

    async def reply(self, request: dict[str, Any], result: Any) -> None:
        """Answer ``request`` with ``result``."""
        await self.send({"id": request["id"], "result": result})

    async def fail(
        self, request: dict[str, Any], code: int, message: str, data: Any = None
    ) -> None:
        """Answer ``request`` with an error (§5.1)."""
        error = {"code": code, "message": message, **({"data": data} if data is not None else {})}
        await self.send({"id": request["id"], "error": error})

    async def update(self, session_id: str, update: dict[str, Any]) -> None:
        """A ``session/update`` notification (§3.9)."""
        await self.send(
            {"method": "session/update", "params": {"sessionId": session_id, "update": update}}
        )

    def flood(self, session_id: str, update: dict[str, Any], limit: int = 1_000_000) -> None:
        """Start a flood: ``update`` for ``session_id``, again and again, written as fast as
        the client reads (its output is never empty), at most ``limit`` times. What the
        script writes meanwhile comes first. :meth:`stop_flood` ends it."""
        params = {"sessionId": session_id, "update": update}
        line = json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": params})
        self._flood.start(line.encode() + b"\n", limit)
        self._outbox.send_nowait(self._flood.take())  # wakes a client waiting to read

    @property
    def flooded(self) -> int:
        """How many flood lines were written so far (the client has read all but the
        last few: a flood writes only when the client reads)."""
        return self._flood.sent

    async def flood_read(self) -> int:
        """Wait until the client has read the whole flood; how many lines it had."""
        if self._flood.over is not None:
            await self._flood.over.wait()
        return self._flood.sent

    def stop_reading(self) -> None:
        """Stop reading the client's input: from now on each of its writes blocks, as on a
        full pipe that nobody drains (what the client wrote before can still be received)."""
        if self._stdin is not None:
            self._stdin.deaf = True

    def stop_flood(self) -> int:
        """End the flood; how many of its lines the client has read."""
        return self._flood.stop()

    async def request(self, method: str, params: Any) -> int:
        """Send a request of the agent's (ids from 0, §1); its id, to find the answer."""
        request_id = next(self._ids)
        await self.send({"id": request_id, "method": method, "params": params})
        return request_id

    async def answer(self, request_id: int) -> dict[str, Any]:
        """The client's answer to the agent's request ``request_id``; other messages held."""
        return await self._next(lambda m: m.get("id") == request_id and "method" not in m)

    async def handshake(self) -> dict[str, Any]:
        """Answer ``initialize`` as the CLI does (§3.1); the client's params."""
        message = await self.expect("initialize")
        capabilities = {"loadSession": True, "sessionCapabilities": {"list": {}}}
        methods = [{"id": "cursor_login", "name": "Cursor Login"}]
        result = {"protocolVersion": 1, "agentCapabilities": capabilities, "authMethods": methods}
        await self.reply(message, result)
        return dict(message.get("params") or {})


class MemoryAcpTransport:
    """A :class:`~agent_sdk.live.LiveAgent`'s agent, played by ``script`` in-process.

    Attributes:
        agent: the script's side (its :attr:`ScriptedAgent.received` messages).
        closed_with_grace: the ``exit_grace`` of the client's close, once closed.
    """

    def __init__(self, script: AgentScript) -> None:
        to_agent, inbox = anyio.create_memory_object_stream[bytes](math.inf)
        outbox, from_agent = anyio.create_memory_object_stream[bytes](math.inf)
        flood = Flood()
        self._stdin = ByteSend(to_agent)
        self._stdout = ByteReceive(from_agent, flood)
        self._outbox = outbox
        self._inbox = inbox
        self._script = script
        self.agent = ScriptedAgent(inbox, outbox, flood, self._stdin)
        self._returncode: int | None = None
        self._stderr = ""
        self._ended = anyio.Event()
        self._scope: anyio.CancelScope | None = None
        self.closed_with_grace: float | None = None

    @property
    def stdin(self) -> anyio.abc.ByteSendStream:
        return self._stdin

    @property
    def stdout(self) -> anyio.abc.ByteReceiveStream:
        return self._stdout

    @property
    def pid(self) -> int | None:
        return None

    @property
    def returncode(self) -> int | None:
        return self._returncode

    def stderr_tail(self) -> str:
        return self._stderr

    async def serve(self) -> None:
        """Play the script; its end is the agent's exit (closes the agent's output). A
        script stopped with the client's connection exits 0, one that raised 1."""
        with anyio.CancelScope() as self._scope:
            try:
                await self._script(self.agent)
            except anyio.EndOfStream:
                pass  # stdin closed: the agent exits 0 (§1)
            except Exception as exc:
                self._stderr = f"{type(exc).__name__}: {exc}\n"
                self._end(1)
            finally:
                self._end(0)

    def _end(self, code: int) -> None:
        if self._returncode is None:
            self._returncode = code
            self._outbox.close()
            self._inbox.close()
            self._ended.set()

    async def wait(self) -> int:
        await self._ended.wait()
        assert self._returncode is not None
        return self._returncode

    async def aclose(self, exit_grace: float = 2.0) -> None:
        """Close the agent's input; after ``exit_grace`` stop the script ("killed")."""
        if self.closed_with_grace is None:
            self.closed_with_grace = exit_grace
        with anyio.CancelScope(shield=True):
            await self._stdin.aclose()
            with anyio.move_on_after(exit_grace):
                await self._ended.wait()
            if self._scope is not None:
                self._scope.cancel()
            self._end(-9)
