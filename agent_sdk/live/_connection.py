"""A JSON-RPC connection over a pair of anyio byte streams (docs/acp.md §1).

Both sides send requests, responses and notifications (§1). A reader task splits the
incoming bytes into lines and routes them: a response wakes the request waiting on its id,
a notification goes to a callback (synchronously, in arrival order), and a request from
the agent runs its handler in a task of its own, so a permission can be decided in Python
while updates keep flowing. Any stream pair works: the CLI's pipes, or an in-memory pair
in tests.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Awaitable, Callable, Coroutine
from types import TracebackType
from typing import Any

import anyio
import anyio.abc
import anyio.lowlevel
import msgspec

from .._options.redaction import NO_SECRETS, Redaction
from .._wire.framing import LineBuffer
from ..errors import AgentProtocolError, AgentTimeoutError
from ._jsonrpc import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    IdAllocator,
    JsonRpcError,
    Malformed,
    Notification,
    Request,
    Response,
    decode_line,
    encode_error,
    encode_notification,
    encode_request,
    encode_result,
)

__all__ = [
    "DEFAULT_REQUEST_TIMEOUT",
    "Call",
    "Connection",
    "DiagnosticLog",
    "NotificationHandler",
    "RequestHandler",
]

#: How long a request waits for its answer unless told otherwise: the agent drops
#: malformed input without a word, so only a timeout notices (§1: "Time out every request").
DEFAULT_REQUEST_TIMEOUT = 60.0
#: How many malformed lines are kept for diagnosis; the oldest go first.
MAX_DIAGNOSTICS = 100
#: How much of each is kept (a flood of huge broken lines must not grow memory).
MAX_KEPT_BYTES = 64 * 1024
RECEIVE_BYTES = 256 * 1024
#: Within one read, the reader gives the loop a turn after this many lines (a flood keeps
#: the pipe full, so a read never waits: without it timeouts and other sessions starve).
YIELD_EVERY = 256

NotificationHandler = Callable[[Notification], Awaitable[None] | None]
"""Called in the reader task, in arrival order; must not block. It may return a wait
(a turn's consumer is behind, ``_feed``): the reader awaits it before the next line."""
RequestHandler = Callable[[Request], Awaitable[Any]]
"""Answers an agent→client request: returns the result (a Struct, a dict, ``None``) or
raises :class:`JsonRpcError` for an error answer."""


class DiagnosticLog:
    """What the agent sent that was dropped, and why: the last :data:`MAX_DIAGNOSTICS`,
    each redacted (a banner may carry the API key) and cut at :data:`MAX_KEPT_BYTES`."""

    def __init__(self, redaction: Redaction = NO_SECRETS) -> None:
        self._redaction = redaction
        self.items: list[Malformed] = []

    def add(self, item: Malformed) -> None:
        """Keep ``item`` (redacted before it is cut: a cut never leaves half a secret)."""
        line = self._redaction.data(item.line)[:MAX_KEPT_BYTES]
        reason = self._redaction.text(item.reason)
        if line != item.line or reason != item.reason:
            item = msgspec.structs.replace(item, line=line, reason=reason)
        self.items.append(item)
        del self.items[:-MAX_DIAGNOSTICS]


class _Pending:
    """One request waiting for its response (or for why it cannot have one)."""

    __slots__ = ("done", "failure", "response")

    def __init__(self) -> None:
        self.done = anyio.Event()
        self.response: Response | None = None
        self.failure: str | None = None


class Call:
    """A request sent and not yet answered; :meth:`result` may be awaited more than once
    (after a timeout, a turn waits again for its answer to a cancel, §3.7)."""

    def __init__(self, connection: Connection, request_id: int, method: str) -> None:
        self._connection = connection
        self.id = request_id
        self.method = method
        self._pending = connection._pending[request_id] = _Pending()

    async def result(self, timeout: float | None) -> msgspec.Raw:  # noqa: ASYNC109
        """The answer's result, waiting at most ``timeout`` seconds (``None``: no limit).

        Raises:
            JsonRpcError: the agent answered with an error.
            AgentTimeoutError: no answer yet (the call still waits for one).
            AgentProtocolError: the connection ended first.
        """
        with anyio.move_on_after(math.inf if timeout is None else timeout):
            await self._pending.done.wait()
        response = self._pending.response
        if response is None and self._pending.failure is not None:
            raise AgentProtocolError(
                f"{self.method}: the agent's answer could not be decoded "
                f"({self._pending.failure}); it was dropped",
                hint="the connection goes on; report the agent's answer if it persists",
            )
        if response is None:
            reason = self._connection._closed_reason
            if reason is not None:
                raise AgentProtocolError(f"{self.method}: {reason}")
            raise AgentTimeoutError(f"{self.method}: no answer from the agent within {timeout} s")
        if response.error is not None:
            raise response.error
        assert response.result is not None
        return response.result

    def close(self) -> None:
        """Stop waiting: an answer that comes later is dropped (and noted)."""
        self._connection._pending.pop(self.id, None)


class Connection:
    """JSON-RPC over ``send``/``receive`` byte streams; an async context manager that owns a
    reader task. Closing it fails every waiting request and closes both streams.

    Args:
        send: where our lines go (the agent's stdin).
        receive: where the agent's lines come from (its stdout).
        on_notification: gets every notification.
        on_request: answers every agent→client request; without one, ``-32601`` (§3.12).
        request_timeout: the default timeout of :meth:`request`, in seconds.
        log: where dropped lines are recorded (redacted there).
    """

    def __init__(
        self,
        send: anyio.abc.ByteSendStream,
        receive: anyio.abc.ByteReceiveStream,
        *,
        on_notification: NotificationHandler | None = None,
        on_request: RequestHandler | None = None,
        request_timeout: float | None = DEFAULT_REQUEST_TIMEOUT,
        log: DiagnosticLog | None = None,
    ) -> None:
        self._send_stream = send
        self._receive_stream = receive
        self._on_notification = on_notification
        self._on_request = on_request
        self.request_timeout = request_timeout
        self._ids = IdAllocator()
        self._pending: dict[int, _Pending] = {}
        self._send_lock = anyio.Lock()
        self._tg: anyio.abc.TaskGroup | None = None
        self._closed_reason: str | None = None
        self.closed = anyio.Event()
        """Set once the incoming stream has ended (or the connection was closed)."""
        self._log = log if log is not None else DiagnosticLog()
        self.diagnostics: list[Malformed] = self._log.items
        """Malformed incoming lines (and unmatched responses), the last ``MAX_DIAGNOSTICS``."""

    async def __aenter__(self) -> Connection:
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        self._tg.start_soon(self._read)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        assert self._tg is not None
        self._tg.cancel_scope.cancel()
        try:
            # Not given the body's exception: a task group would wrap it in an exception
            # group, and the user's own error must come out as itself.
            return await self._tg.__aexit__(None, None, None)
        finally:
            self._end("the connection was closed")
            with anyio.CancelScope(shield=True):  # the connection owns both streams
                await self._send_stream.aclose()
                await self._receive_stream.aclose()

    def start_soon(self, func: Callable[[], Coroutine[Any, Any, Any]]) -> None:
        """Run ``func`` in the connection's task group (ended when the connection closes)."""
        if self._tg is None:
            raise RuntimeError("the connection is not open")
        self._tg.start_soon(func)

    # --- sending ----------------------------------------------------------------------
    async def call(self, method: str, params: Any = None) -> Call:
        """Send a request; the :class:`Call` waits for its answer (close it when done).

        Raises:
            AgentProtocolError: the connection has ended.
        """
        if self._closed_reason is not None:
            raise AgentProtocolError(f"{method}: {self._closed_reason}")
        request_id = self._ids()
        call = Call(self, request_id, method)
        try:
            await self._send(encode_request(request_id, method, params))
        except BaseException:
            call.close()
            raise
        return call

    async def request(
        self,
        method: str,
        params: Any = None,
        *,
        timeout: float | None = -1.0,  # noqa: ASYNC109 (every request has its own limit, §1)
    ) -> msgspec.Raw:
        """Send a request and wait for its result (raw JSON).

        ``timeout``: seconds, ``None`` for none; by default :attr:`request_timeout`.

        Raises:
            JsonRpcError: the agent answered with an error.
            AgentTimeoutError: no answer in time (the answer, if it comes, is dropped).
            AgentProtocolError: the connection ended first.
        """
        call = await self.call(method, params)
        try:
            return await call.result(self.request_timeout if timeout == -1.0 else timeout)
        finally:
            call.close()

    async def notify(self, method: str, params: Any = None) -> None:
        """Send a notification (no answer comes)."""
        await self._send(encode_notification(method, params))

    async def _send(self, line: bytes) -> None:
        # One writer at a time: a line must never interleave with another.
        async with self._send_lock:
            if self._closed_reason is not None:
                raise AgentProtocolError(self._closed_reason)
            # An agent that stops reading fills its input pipe and a write waits forever:
            # bounded by the request timeout, past which the connection ends, since a line
            # cut mid-write cannot be taken back (docs/live.md "Floods and slow readers").
            limit = math.inf if self.request_timeout is None else self.request_timeout
            with anyio.move_on_after(limit) as writing:
                try:
                    await self._send_stream.send(line)
                except (anyio.BrokenResourceError, anyio.ClosedResourceError) as exc:
                    self._end("the agent's input is closed")
                    raise AgentProtocolError("the agent's input is closed") from exc
            if writing.cancelled_caught:
                reason = f"the agent did not read its input for {limit} s"
                self._end(reason)
                raise AgentTimeoutError(
                    f"{reason}: the connection was ended",
                    hint="the agent is stuck: start a new LiveAgent and load the session "
                    "by its id to continue; raise LiveAgent(request_timeout=...) if it is slow",
                )

    # --- receiving --------------------------------------------------------------------
    async def _read(self) -> None:
        lines = LineBuffer()
        try:
            while True:
                try:
                    chunk = await self._receive_stream.receive(RECEIVE_BYTES)
                except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError):
                    break
                for count, line in enumerate(lines.feed(chunk), 1):
                    waiting = self._route(line)
                    if waiting is not None:
                        await waiting
                    elif count % YIELD_EVERY == 0:
                        await anyio.lowlevel.checkpoint()
                await anyio.lowlevel.checkpoint()  # a full pipe returns at once: yield
            if lines.rest().strip():  # a truncated last line (§1: dropped by the agent too)
                self._diagnose(Malformed(lines.rest(), "truncated at the end of the stream"))
        finally:
            self._end("the agent closed its output")

    def _route(self, line: bytes) -> Awaitable[None] | None:
        message = decode_line(line)
        if isinstance(message, Response):
            pending = self._pending.get(message.id) if isinstance(message.id, int) else None
            if pending is None:  # late (timed out) or not ours
                self._diagnose(Malformed(line, "a response to no waiting request"))
                return None
            if pending.done.is_set():  # the first answer is the answer (docs/live.md)
                self._diagnose(Malformed(line, "a second response to one request"))
                return None
            pending.response = message
            pending.done.set()
        elif isinstance(message, Notification):
            if self._on_notification is not None:
                return self._on_notification(message)
        elif isinstance(message, Request):
            assert self._tg is not None
            self._tg.start_soon(self._answer, message)
        else:
            self._diagnose(message)
            if message.id is not None:
                self._unreadable(message)
        return None

    def _unreadable(self, message: Malformed) -> None:
        """A line we cannot read that still shows its id: an answer fails its own request
        (not the connection); a request of the agent's is refused (§5.1 ``-32602``)."""
        assert message.id is not None
        if message.method is not None:
            assert self._tg is not None
            line = encode_error(message.id, INVALID_PARAMS, "Invalid params: unreadable request")
            self._tg.start_soon(self._send_quietly, line)
            return
        pending = self._pending.get(message.id) if isinstance(message.id, int) else None
        if pending is not None:
            pending.failure = message.reason
            pending.done.set()

    async def _answer(self, request: Request) -> None:
        try:
            if self._on_request is None:
                raise JsonRpcError(METHOD_NOT_FOUND, f'"Method not found": {request.method}')
            line = encode_result(request.id, await self._on_request(request))
        except JsonRpcError as exc:
            line = encode_error(request.id, exc.code, exc.rpc_message, exc.data)
        except Exception as exc:  # a handler's bug must not end the connection
            # Recorded here, never sent: its words are ours, not the agent's to read.
            said = f"{request.method}: answering it failed: {type(exc).__name__}"
            self._diagnose(Malformed(b"", said, request.id, request.method))
            line = encode_error(request.id, INTERNAL_ERROR, "Internal error")
        await self._send_quietly(line)

    async def _send_quietly(self, line: bytes) -> None:
        with contextlib.suppress(AgentProtocolError):  # the agent is gone: nobody to answer
            await self._send(line)

    def _diagnose(self, item: Malformed) -> None:
        self._log.add(item)

    def _end(self, reason: str) -> None:
        if self._closed_reason is None:
            self._closed_reason = reason
        for pending in self._pending.values():
            pending.done.set()  # no response: the waiter raises
        self.closed.set()
