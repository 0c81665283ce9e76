"""The MCP server core (agent_sdk/extend/_mcp.py), a line at a time: the lifecycle, the
tools methods, JSON-RPC's errors, notifications and cancellation."""

from __future__ import annotations

import json
from typing import Any

import anyio
import msgspec
import pytest

from agent_sdk._options.redaction import Redaction
from agent_sdk.extend import tool
from agent_sdk.extend._mcp import PROTOCOL_VERSIONS, McpServer, Pending

pytestmark = pytest.mark.anyio

SECRET = "sk-live-7c1e5a3f9b2d4e6a8c0f"


class Issue(msgspec.Struct):
    number: int
    title: str


@tool
def lookup_issue(number: int) -> Issue:
    """Look up an issue."""
    return Issue(number, "Tools")


@tool
def add(a: int, b: int = 2) -> int:
    """Add."""
    return a + b


def server(*more: Any) -> McpServer:
    return McpServer([lookup_issue, add, *more], redact=Redaction([SECRET]).text)


def line(message: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **message}).encode()


def request(request_id: Any, method: str, params: Any = None) -> bytes:
    message = {"id": request_id, "method": method}
    return line(message if params is None else {**message, "params": params})


def initialize(version: str = "2025-11-25") -> bytes:
    return request(0, "initialize", {"protocolVersion": version, "capabilities": {}})


async def answer(mcp: McpServer, data: bytes) -> Any:
    """The answer to ``data``, decoded (``None``: no answer)."""
    reply = await mcp.handle(data)
    if reply is None:
        return None
    assert reply.endswith(b"\n")
    assert reply.count(b"\n") == 1  # one line: MCP's stdio framing
    return json.loads(reply)


def error(request_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


# --- lifecycle -----------------------------------------------------------------------------
@pytest.mark.parametrize("version", PROTOCOL_VERSIONS)
async def test_initialize_answers_the_version_asked_for_when_it_is_spoken(version: str) -> None:
    mcp = server()
    assert await answer(mcp, initialize(version)) == {
        "jsonrpc": "2.0",
        "id": 0,
        "result": {
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "agent_sdk", "version": "0.1.0"},
        },
    }
    assert mcp.protocol_version == version


@pytest.mark.parametrize("version", ["2026-07-28", "1.0.0", "2024-01-01"])
async def test_initialize_answers_the_latest_version_to_any_other(version: str) -> None:
    reply = await answer(server(), initialize(version))
    assert reply["result"]["protocolVersion"] == "2025-11-25"


async def test_initialize_without_a_protocol_version_is_invalid_params() -> None:
    reply = await answer(server(), request(3, "initialize", {"capabilities": {}}))
    assert reply == error(
        3, -32602, "Invalid params: Object missing required field `protocolVersion`"
    )


async def test_a_second_initialize_is_answered_and_agrees_again() -> None:
    mcp = server()
    await answer(mcp, initialize("2025-03-26"))
    reply = await answer(mcp, initialize("2025-06-18"))
    assert reply["result"]["protocolVersion"] == mcp.protocol_version == "2025-06-18"


async def test_the_initialized_notification_is_not_answered() -> None:
    mcp = server()
    assert await answer(mcp, line({"method": "notifications/initialized"})) is None
    assert mcp.initialized


async def test_ping_is_answered_with_an_empty_result() -> None:
    assert await answer(server(), request("p", "ping")) == {
        "jsonrpc": "2.0",
        "id": "p",
        "result": {},
    }


# --- tools/list ----------------------------------------------------------------------------
async def test_tools_list_gives_each_tools_name_description_and_schemas() -> None:
    reply = await answer(server(), request(1, "tools/list"))
    listed = reply["result"]["tools"]
    assert [t["name"] for t in listed] == ["lookup_issue", "add"]
    assert listed[0]["description"] == "Look up an issue."
    assert listed[0]["inputSchema"] == lookup_issue.input_schema
    assert listed[0]["outputSchema"] == lookup_issue.output_schema
    assert "outputSchema" not in listed[1]  # none: not written as a null
    assert "nextCursor" not in reply["result"]  # one page


async def test_tools_list_with_a_cursor_is_invalid_params() -> None:
    # The server never gives a cursor, so any cursor is an invalid one (MCP, "Pagination").
    reply = await answer(server(), request(1, "tools/list", {"cursor": "2"}))
    assert reply == error(1, -32602, "Invalid params: unknown cursor")


async def test_before_2025_06_18_there_are_no_output_schemas_nor_structured_content() -> None:
    mcp = server()
    await answer(mcp, initialize("2025-03-26"))
    listed = (await answer(mcp, request(1, "tools/list")))["result"]["tools"]
    called = await answer(
        mcp, request(2, "tools/call", {"name": "lookup_issue", "arguments": {"number": 1}})
    )
    assert "outputSchema" not in listed[0]
    assert called["result"] == {
        "content": [{"type": "text", "text": '{"number":1,"title":"Tools"}'}],
        "isError": False,
    }


# --- tools/call ------------------------------------------------------------------------------
async def test_a_call_is_answered_with_its_result() -> None:
    reply = await answer(server(), request(5, "tools/call", {"name": "add", "arguments": {"a": 1}}))
    assert reply == {
        "jsonrpc": "2.0",
        "id": 5,
        "result": {"content": [{"type": "text", "text": "3"}], "isError": False},
    }


async def test_an_object_result_carries_structured_content() -> None:
    params = {"name": "lookup_issue", "arguments": {"number": 26}}
    reply = await answer(server(), request(5, "tools/call", params))
    assert reply["result"]["structuredContent"] == {"number": 26, "title": "Tools"}


async def test_arguments_that_do_not_fit_are_answered_at_once_as_a_tool_error() -> None:
    reply = server().receive(request(5, "tools/call", {"name": "add", "arguments": {"a": "x"}}))
    assert isinstance(reply, bytes)
    assert json.loads(reply)["result"] == {
        "content": [
            {
                "type": "text",
                "text": "Invalid arguments for tool add: Expected `int`, got `str` - at `$.a`",
            }
        ],
        "isError": True,
    }


async def test_a_call_admit_refuses_is_a_tool_error_and_the_function_never_runs() -> None:
    ran: list[int] = []
    asked: list[str] = []
    observed: list[tuple[str, bool]] = []

    @tool
    def count(n: int) -> int:
        """Count."""
        ran.append(n)
        return n

    def admit(name: str) -> str | None:
        asked.append(name)
        return None if len(asked) == 1 else f"over the budget ({SECRET})"

    mcp = McpServer(
        [count],
        redact=Redaction([SECRET]).text,
        observe=lambda name, _, result: observed.append((name, result.is_error)),
        admit=admit,
    )
    first = await answer(mcp, request(1, "tools/call", {"name": "count", "arguments": {"n": 1}}))
    second = await answer(mcp, request(2, "tools/call", {"name": "count", "arguments": {"n": 2}}))
    assert first["result"]["isError"] is False
    assert second["result"] == {
        "content": [{"type": "text", "text": "over the budget (***)"}],
        "isError": True,
    }
    assert ran == [1]
    assert asked == ["count", "count"]
    assert observed == [("count", False), ("count", True)]


async def test_an_unknown_tool_is_invalid_params() -> None:
    reply = await answer(server(), request(5, "tools/call", {"name": "rm", "arguments": {}}))
    assert reply == error(5, -32602, "Unknown tool: rm")


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"arguments": {}}, "Object missing required field `name`"),
        ({"name": 3}, "Expected `str`, got `int` - at `$.name`"),
        ({"name": "add", "arguments": [1]}, "arguments not an object"),
        ([1], "Expected `object`, got `array`"),
    ],
)
async def test_a_call_that_breaks_the_call_schema_is_invalid_params(
    params: Any, words: str
) -> None:
    reply = await answer(server(), request(5, "tools/call", params))
    assert reply == error(5, -32602, f"Invalid params: {words}")


async def test_a_call_with_the_id_of_a_call_under_way_is_an_invalid_request() -> None:
    mcp = server()
    first = mcp.receive(request(9, "tools/call", {"name": "add", "arguments": {"a": 1}}))
    second = await answer(mcp, request(9, "tools/call", {"name": "add", "arguments": {"a": 2}}))
    assert second == error(9, -32600, "Invalid Request: a call with this id is under way")
    assert isinstance(first, Pending)
    assert json.loads(await first() or b"")["result"]["content"][0]["text"] == "3"
    reused = await answer(mcp, request(9, "tools/call", {"name": "add", "arguments": {"a": 3}}))
    assert reused["result"]["content"][0]["text"] == "5"  # the id is free again


# --- cancellation ------------------------------------------------------------------------------
def cancelled(request_id: Any) -> bytes:
    return line({"method": "notifications/cancelled", "params": {"requestId": request_id}})


async def test_a_cancelled_call_stops_and_is_never_answered() -> None:
    started, stopped = anyio.Event(), anyio.Event()

    @tool
    async def wait() -> str:
        """Wait for ever."""
        started.set()
        try:
            await anyio.sleep_forever()
        finally:
            stopped.set()
        return "never"  # pragma: no cover

    mcp = server(wait)
    pending = mcp.receive(request("w", "tools/call", {"name": "wait"}))
    assert isinstance(pending, Pending)
    replies: list[bytes | None] = []

    async def run() -> None:
        replies.append(await pending())

    async with anyio.create_task_group() as group:
        group.start_soon(run)
        await started.wait()
        assert mcp.receive(cancelled("w")) is None
    assert stopped.is_set()
    assert replies == [None]


async def test_a_call_cancelled_before_it_ran_is_never_answered() -> None:
    mcp = server()
    pending = mcp.receive(request(4, "tools/call", {"name": "add", "arguments": {"a": 1}}))
    mcp.receive(cancelled(4))
    assert isinstance(pending, Pending)
    assert await pending() is None


@pytest.mark.parametrize("params", [{"requestId": 404}, {"requestId": [1]}, {}, 7])
async def test_a_cancellation_of_no_call_under_way_is_ignored(params: Any) -> None:
    mcp = server()
    notification = line({"method": "notifications/cancelled", "params": params})
    assert await answer(mcp, notification) is None
    assert await answer(mcp, request(1, "ping")) is not None


# --- JSON-RPC's errors and what is not answered ---------------------------------------
async def test_an_unknown_method_is_method_not_found() -> None:
    reply = await answer(server(), request(8, "resources/list"))
    assert reply == error(8, -32601, "Method not found: resources/list")


async def test_an_unknown_notification_and_an_answer_are_not_answered() -> None:
    mcp = server()
    assert await answer(mcp, line({"method": "notifications/roots/list_changed"})) is None
    assert await answer(mcp, line({"id": 1, "result": {}})) is None
    assert await answer(mcp, line({"id": 1, "error": {"code": 1, "message": "no"}})) is None


@pytest.mark.parametrize("data", [b"{", b"\xff", b'{"jsonrpc": "2.0", "id": 1, "method": "ping"'])
async def test_a_line_that_is_not_json_is_a_parse_error(data: bytes) -> None:
    reply = await answer(server(), data)
    assert reply["id"] is None
    assert reply["error"]["code"] == -32700


@pytest.mark.parametrize(
    ("data", "request_id", "words"),
    [
        (b"[]", None, "batches are not supported, one message a line"),
        (
            b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]',
            None,
            "batches are not supported, one message a line",
        ),
        (b"3", None, "not a JSON object"),
        (b'{"id": 1, "method": "ping"}', 1, '"jsonrpc" is not "2.0"'),
        (b'{"jsonrpc": "1.0", "id": "a", "method": "ping"}', "a", '"jsonrpc" is not "2.0"'),
        (b'{"jsonrpc": "2.0", "id": 1, "method": 7}', 1, "the method is not a string"),
        (b'{"jsonrpc": "2.0", "id": 1}', 1, "no method"),
        (
            b'{"jsonrpc": "2.0", "id": null, "method": "ping"}',
            None,
            "an id is a string or an integer",
        ),
        (
            b'{"jsonrpc": "2.0", "id": true, "method": "ping"}',
            None,
            "an id is a string or an integer",
        ),
        (
            b'{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}',
            None,
            "an id is a string or an integer",
        ),
        (
            b'{"jsonrpc": "2.0", "id": [1], "method": "ping"}',
            None,
            "an id is a string or an integer",
        ),
    ],
)
async def test_json_that_is_no_request_is_an_invalid_request(
    data: bytes, request_id: Any, words: str
) -> None:
    reply = await answer(server(), data)
    assert reply == error(request_id, -32600, f"Invalid Request: {words}")


async def test_the_words_of_protocol_errors_are_redacted() -> None:
    reply = await answer(server(), request(1, f"tools/{SECRET}"))
    assert reply == error(1, -32601, "Method not found: tools/***")


async def test_a_line_with_its_newline_and_spaces_is_read_as_well() -> None:
    assert await answer(server(), b'  {"jsonrpc":"2.0","id":1,"method":"ping"}  \n') is not None


async def test_a_plain_function_is_served_as_tool_would_make_it() -> None:
    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    mcp = McpServer([shout])
    listed = (await answer(mcp, request(1, "tools/list")))["result"]["tools"]
    called = await answer(
        mcp, request(2, "tools/call", {"name": "shout", "arguments": {"text": "a"}})
    )
    assert listed[0]["inputSchema"] == tool(shout).input_schema
    assert called["result"]["content"] == [{"type": "text", "text": "A"}]
