"""The runner (agent_sdk/extend/_stdio.py): the server over a pair of byte streams, here
pipes through the runner's own file-descriptor streams, as a client's stdio would be."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.abc
import anyio.lowlevel
import pytest

from agent_sdk._transport.fds import FdReceiveStream, FdSendStream
from agent_sdk._wire.framing import LineBuffer
from agent_sdk.extend import tool
from agent_sdk.extend._mcp import McpServer
from agent_sdk.extend._stdio import serve

pytestmark = pytest.mark.anyio

LIMIT = 30.0  # only a broken runner waits this long


class Client:
    """The other ends of the server's pipes: lines out, answers in."""

    def __init__(self, send: FdSendStream, receive: FdReceiveStream) -> None:
        self.send = send
        self.receive = receive
        self._lines = LineBuffer()
        self._ready: list[bytes] = []

    async def request(self, request_id: Any, method: str, params: Any = None) -> None:
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        await self.send.send(json.dumps(message).encode() + b"\n")

    async def answer(self) -> Any:
        while not self._ready:
            self._ready += self._lines.feed(await self.receive.receive())
        return json.loads(self._ready.pop(0))


@asynccontextmanager
async def served(server: McpServer) -> AsyncIterator[tuple[Client, anyio.Event]]:
    """The server served over two pipes in a task; the event is set when serve returned."""
    to_server, from_server = os.pipe(), os.pipe()
    client = Client(FdSendStream(to_server[1]), FdReceiveStream(from_server[0]))
    server_in, server_out = FdReceiveStream(to_server[0]), FdSendStream(from_server[1])
    ended = anyio.Event()

    async def run() -> None:
        try:
            await serve(server, server_in, server_out)
        finally:
            ended.set()

    with anyio.fail_after(LIMIT):
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(run)
                yield client, ended
                await client.send.aclose()
        finally:
            for stream in (client.send, client.receive, server_in, server_out):
                await stream.aclose()


async def test_a_slow_call_holds_up_neither_a_ping_nor_another_call() -> None:
    release = anyio.Event()

    @tool
    async def slow() -> str:
        """Slow."""
        await release.wait()
        return "slow done"

    @tool
    def fast() -> str:
        """Fast."""
        return "fast done"

    async with served(McpServer([slow, fast])) as (client, _):
        await client.request(1, "tools/call", {"name": "slow"})
        await client.request(2, "ping")
        await client.request(3, "tools/call", {"name": "fast"})
        first, second = await client.answer(), await client.answer()
        release.set()
        last = await client.answer()
    assert first == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert (second["id"], second["result"]["content"][0]["text"]) == (3, "fast done")
    assert (last["id"], last["result"]["content"][0]["text"]) == (1, "slow done")


async def test_the_end_of_input_cancels_the_calls_under_way_and_ends_serving() -> None:
    started, stopped = anyio.Event(), anyio.Event()

    @tool
    async def wait() -> str:
        """Wait."""
        started.set()
        try:
            await anyio.sleep_forever()
        finally:
            stopped.set()
        return "never"  # pragma: no cover

    async with served(McpServer([wait])) as (client, ended):
        await client.request(1, "tools/call", {"name": "wait"})
        await started.wait()
        await client.send.aclose()
        await ended.wait()
    assert stopped.is_set()


async def test_a_last_line_without_its_newline_is_answered() -> None:
    async with served(McpServer([])) as (client, ended):
        await client.send.send(b'{"jsonrpc":"2.0","id":7,"method":"ping"}')
        await client.send.aclose()
        await ended.wait()
        assert await client.answer() == {"jsonrpc": "2.0", "id": 7, "result": {}}


async def test_serving_ends_quietly_when_nobody_reads_the_answers() -> None:
    async with served(McpServer([])) as (client, ended):
        await client.receive.aclose()
        await client.request(1, "ping")
        await ended.wait()  # no BrokenResourceError out of serve


async def test_a_message_split_across_writes_is_read_whole() -> None:
    async with served(McpServer([])) as (client, _):
        await client.send.send(b'{"jsonrpc":"2.0",')
        await anyio.lowlevel.checkpoint()
        await client.send.send(b'"id":1,"method":"ping"}\n\n{"jsonrpc":"2.0","id":2,')
        await client.send.send(b'"method":"ping"}\n')
        assert [(await client.answer())["id"] for _ in range(2)] == [1, 2]


async def test_a_streams_descriptor_is_left_blocking_as_it_was_once_closed() -> None:
    read, write = os.pipe()
    try:
        stream = FdReceiveStream(os.dup(read))
        assert not os.get_blocking(read)  # one open file description, shared
        await stream.aclose()
        assert os.get_blocking(read)
    finally:
        os.close(read)
        os.close(write)
