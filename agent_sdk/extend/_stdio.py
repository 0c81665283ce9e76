"""Serve tools over MCP's stdio transport: newline-delimited JSON-RPC on stdin and
stdout (MCP 2025-11-25, "Transports"), so that a process is an MCP server an MCP client
starts (docs/extend.md, "The MCP server").

:func:`serve` runs an :class:`~agent_sdk.extend._mcp.McpServer` over any pair of anyio
byte streams: each line in is answered at once, except a ``tools/call``, which runs in
its own task (a slow tool holds up neither a ``ping`` nor another call; answers may come
out of order, as JSON-RPC allows). It ends when its input ends: calls still under way are
cancelled (their client is gone). This is the seam of a run's host (``_host.py``): it
serves the same server over a Unix socket's stream instead of stdio.

:func:`serve_stdio` is that over the process's own stdin and stdout. While it serves,
file descriptor 1 points to stderr: a tool that ``print()``\\ s cannot break the stream
(MCP: the server MUST NOT write anything but messages to stdout); the messages go to a
private duplicate of the real stdout.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import anyio
import anyio.abc

from .._transport.fds import FdReceiveStream, FdSendStream
from .._wire.framing import LineBuffer
from ._mcp import McpServer, Pending, unchanged
from ._tool import Tool

__all__ = ["serve", "serve_stdio"]


async def serve(
    server: McpServer, receive: anyio.abc.ByteReceiveStream, send: anyio.abc.ByteSendStream
) -> None:
    """Answer every message of ``receive`` on ``send`` until ``receive`` ends or breaks,
    or until ``send`` breaks (the client stopped reading)."""
    lock = anyio.Lock()  # one line at a time: answers of parallel calls never interleave
    gone = (anyio.BrokenResourceError, anyio.ClosedResourceError)
    async with anyio.create_task_group() as group:

        async def write(line: bytes) -> None:
            async with lock:
                try:
                    await send.send(line)
                except gone:
                    group.cancel_scope.cancel()  # nobody reads the answers: stop

        async def finish(pending: Pending) -> None:
            line = await pending()
            if line is not None:
                await write(line)

        async def answer(line: bytes) -> None:
            reply = server.receive(line)
            if isinstance(reply, Pending):
                group.start_soon(finish, reply)
            elif reply is not None:
                await write(reply)

        buffer = LineBuffer()
        with contextlib.suppress(*gone):
            async for data in receive:
                for line in buffer.feed(data):
                    await answer(line)
        if buffer.rest().strip():
            await answer(buffer.rest())  # a last line without its newline
        group.cancel_scope.cancel()  # the client is gone: calls under way end


@contextlib.contextmanager
def _stdio() -> Iterator[tuple[int, int]]:
    """Duplicates of stdin and stdout for the messages (the streams close them), with fd 1
    pointing to stderr meanwhile (stray prints go there); fd 1 is put back after."""
    sys.stdout.flush()
    saved = os.dup(1)
    stdin, stdout = os.dup(0), os.dup(1)
    os.dup2(2, 1)
    try:
        yield stdin, stdout
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


async def serve_stdio(
    tools: Iterable[Tool[..., Any] | Callable[..., Any]],
    *,
    redact: Callable[[str], str] | None = None,
    name: str = "agent_sdk",
) -> None:
    """Serve ``tools`` over this process's stdin and stdout until stdin ends.

    Raises:
        AgentConfigError: two tools have one name, or a function cannot be a tool.
    """
    server = McpServer(tools, redact=redact or unchanged, name=name)
    with _stdio() as (stdin, stdout):
        receive, send = FdReceiveStream(stdin), FdSendStream(stdout)
        try:
            await serve(server, receive, send)
        finally:
            await receive.aclose()
            await send.aclose()
