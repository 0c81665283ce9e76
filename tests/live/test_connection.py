"""The JSON-RPC connection over an in-memory byte stream pair (agent_sdk/live/_connection.py).

The test plays the agent: it reads the lines the connection sends and writes lines back.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.abc
import pytest
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from agent_sdk._wire.framing import LineBuffer
from agent_sdk.errors import AgentProtocolError, AgentTimeoutError
from agent_sdk.live._connection import Connection
from agent_sdk.live._jsonrpc import JsonRpcError, Notification, Request
from agent_sdk.testing.memory_acp import ByteReceive, ByteSend

pytestmark = pytest.mark.anyio


class Peer:
    """The agent's side: ``read()`` a message we sent, ``write()`` bytes to us."""

    def __init__(
        self, incoming: MemoryObjectReceiveStream[bytes], outgoing: MemoryObjectSendStream[bytes]
    ) -> None:
        self.incoming, self.outgoing = incoming, outgoing
        self.lines = LineBuffer()
        self.ready: list[bytes] = []

    async def read(self) -> dict[str, Any]:
        with anyio.fail_after(5):
            while not self.ready:
                self.ready += self.lines.feed(await self.incoming.receive())
        line = self.ready.pop(0)
        return dict(json.loads(line))

    async def write(self, data: bytes | dict[str, Any]) -> None:
        if isinstance(data, dict):
            data = json.dumps({"jsonrpc": "2.0", **data}).encode() + b"\n"
        await self.outgoing.send(data)


@asynccontextmanager
async def connected(**kwargs: Any) -> AsyncIterator[tuple[Connection, Peer]]:
    to_agent_send, to_agent_receive = anyio.create_memory_object_stream[bytes](100)
    to_client_send, to_client_receive = anyio.create_memory_object_stream[bytes](100)
    conn = Connection(ByteSend(to_agent_send), ByteReceive(to_client_receive), **kwargs)
    async with conn, to_agent_receive, to_client_send:
        yield conn, Peer(to_agent_receive, to_client_send)


async def test_responses_reach_their_requests_out_of_order() -> None:
    results: dict[str, Any] = {}
    async with connected() as (conn, peer), anyio.create_task_group() as tg:

        async def ask(name: str) -> None:
            results[name] = json.loads(bytes(await conn.request(name, {"n": name})))

        tg.start_soon(ask, "first")
        first = await peer.read()
        tg.start_soon(ask, "second")
        second = await peer.read()
        assert (first["method"], second["method"]) == ("first", "second")
        assert first["params"] == {"n": "first"}
        assert first["id"] != second["id"]
        await peer.write({"id": second["id"], "result": {"r": 2}})
        await peer.write({"id": first["id"], "result": {"r": 1}})
    assert results == {"first": {"r": 1}, "second": {"r": 2}}


async def test_an_error_answer_raises_json_rpc_error() -> None:
    async with connected() as (conn, peer), anyio.create_task_group() as tg:

        async def answer() -> None:
            sent = await peer.read()
            error = {"code": -32602, "message": "Invalid params", "data": {"message": "why"}}
            await peer.write({"id": sent["id"], "error": error})

        tg.start_soon(answer)
        with pytest.raises(JsonRpcError) as caught:
            await conn.request("session/load", {})
    assert caught.value.code == -32602
    assert caught.value.data == {"message": "why"}


async def test_notifications_arrive_in_order_and_malformed_lines_are_kept() -> None:
    seen: list[Notification] = []
    two = anyio.Event()

    def note(message: Notification) -> None:
        seen.append(message)
        if len(seen) == 2:
            two.set()

    async with connected(on_notification=note) as (conn, peer):
        await peer.write(b"not json\n")
        await peer.write({"method": "session/update", "params": {"i": 1}})
        await peer.write(b'{"jsonrpc":"2.0","method":"session/up')  # split across writes
        await peer.write(b'date","params":{"i":2}}\n')
        with anyio.fail_after(5):
            await two.wait()
        assert [json.loads(bytes(n.params or b"")) for n in seen] == [{"i": 1}, {"i": 2}]
        assert [d.line for d in conn.diagnostics] == [b"not json"]


async def test_agent_requests_are_answered_by_the_handler() -> None:
    async def handle(request: Request) -> Any:
        if request.method == "cursor/create_plan":
            raise JsonRpcError(-32601, '"Method not found": cursor/create_plan')
        return {"outcome": {"outcome": "selected", "optionId": "reject-once"}}

    async with connected(on_request=handle) as (_conn, peer):
        await peer.write({"id": 0, "method": "session/request_permission", "params": {}})
        assert await peer.read() == {
            "jsonrpc": "2.0",
            "id": 0,
            "result": {"outcome": {"outcome": "selected", "optionId": "reject-once"}},
        }
        await peer.write({"id": 1, "method": "cursor/create_plan", "params": {}})
        answer = await peer.read()
        assert answer["id"] == 1
        assert answer["error"]["code"] == -32601


async def test_without_a_handler_requests_get_method_not_found() -> None:
    async with connected() as (_conn, peer):
        await peer.write({"id": 5, "method": "fs/read_text_file", "params": {}})
        answer = await peer.read()
        assert answer["id"] == 5
        assert answer["error"]["code"] == -32601


async def test_a_handler_bug_is_an_internal_error_answer() -> None:
    async def broken(request: Request) -> Any:
        raise ValueError("bug")

    async with connected(on_request=broken) as (_conn, peer):
        await peer.write({"id": 9, "method": "session/request_permission"})
        answer = await peer.read()
        assert answer["id"] == 9
        assert answer["error"]["code"] == -32603


async def test_a_request_times_out_and_a_late_answer_is_dropped() -> None:
    marker = anyio.Event()
    async with connected(request_timeout=0.05, on_notification=lambda n: marker.set()) as (
        conn,
        peer,
    ):
        with pytest.raises(AgentTimeoutError):
            await conn.request("session/new", {})
        sent = await peer.read()
        await peer.write({"id": sent["id"], "result": {}})
        await peer.write({"method": "marker"})  # read in order: the answer came before it
        with anyio.fail_after(5):
            await marker.wait()
        assert b'"result"' in conn.diagnostics[0].line


async def test_end_of_stream_fails_waiting_requests() -> None:
    async with connected() as (conn, peer), anyio.create_task_group() as tg:

        async def hang_up() -> None:
            await peer.read()
            await peer.outgoing.aclose()

        tg.start_soon(hang_up)
        with pytest.raises(AgentProtocolError):
            await conn.request("session/prompt", {}, timeout=None)
        assert conn.closed.is_set()
        with pytest.raises(AgentProtocolError):
            await conn.request("initialize", {})
