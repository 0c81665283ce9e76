"""The tools' MCP server against the official MCP Python SDK's client (``mcp`` on PyPI,
a test extra): ``mcp.ClientSession`` over ``mcp.client.stdio.stdio_client`` starts
tests/extend/tools_server.py as a process and talks to it as an MCP host would. The client
is anyio-based, so the client and the server both run on asyncio and on trio.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from extend_env import mcp_session
from needs import need

mcp = need("mcp", "the official MCP Python SDK")
from mcp.client.stdio import StdioServerParameters  # noqa: E402
from mcp_types import TextContent  # noqa: E402

pytestmark = pytest.mark.anyio

SERVER = Path(__file__).with_name("tools_server.py")
SECRET = "sk-live-3f9b2d4e6a8c0f7c1e5a"


def connected(
    backend: str, stderr: Path
) -> contextlib.AbstractAsyncContextManager[mcp.ClientSession]:
    """A client session (not initialized) with a server process run on ``backend``,
    whose stderr goes to the file ``stderr``."""
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(SERVER), backend],
        env={"TOOLS_SERVER_SECRET": SECRET, "PYTHONPATH": os.environ.get("PYTHONPATH", "")},
        cwd=stderr.parent,
    )
    return mcp_session(params, stderr)


def texts(result: Any) -> list[str]:
    return [block.text for block in result.content if isinstance(block, TextContent)]


async def test_initialize_agrees_on_the_clients_version_and_names_the_server(
    anyio_backend: str, tmp_path: Path
) -> None:
    async with connected(anyio_backend, tmp_path / "stderr") as session:
        result = await session.initialize()
    assert result.protocol_version == "2025-11-25"  # the official client's latest
    assert result.server_info.name == "agent_sdk"
    assert result.capabilities.tools is not None


async def test_ping_is_answered(anyio_backend: str, tmp_path: Path) -> None:
    async with connected(anyio_backend, tmp_path / "stderr") as session:
        await session.initialize()
        await session.send_ping()


async def test_the_tools_are_listed_with_their_schemas(anyio_backend: str, tmp_path: Path) -> None:
    async with connected(anyio_backend, tmp_path / "stderr") as session:
        await session.initialize()
        listed = {t.name: t for t in (await session.list_tools()).tools}
    assert sorted(listed) == ["add", "fail", "greet", "lookup_issue", "shout"]
    add = listed["add"]
    assert add.description == "Add two numbers."
    assert add.input_schema == {
        "type": "object",
        "properties": {
            "a": {"type": "integer", "description": "the first number."},
            "b": {"type": "integer", "description": "the second one.", "default": 2},
        },
        "required": ["a"],
        "additionalProperties": False,
    }
    assert add.output_schema is None  # an int is no JSON object
    assert listed["greet"].description == "Say hello to someone."
    assert listed["lookup_issue"].output_schema == {
        "title": "Issue",
        "description": "An issue of the project.",
        "type": "object",
        "properties": {
            "number": {"type": "integer"},
            "title": {"type": "string"},
            "labels": {"type": "array", "items": {"type": "string"}, "default": []},
        },
        "required": ["number", "title"],
    }


async def test_a_tool_that_returns_text_gives_one_text_content(
    anyio_backend: str, tmp_path: Path
) -> None:
    async with connected(anyio_backend, tmp_path / "stderr") as session:
        await session.initialize()
        result = await session.call_tool("greet", {"who": "Ada"})
    assert not result.is_error
    assert texts(result) == ["Hello, Ada!"]
    assert result.structured_content is None


async def test_a_tool_that_returns_a_number_gives_its_json_text(
    anyio_backend: str, tmp_path: Path
) -> None:
    async with connected(anyio_backend, tmp_path / "stderr") as session:
        await session.initialize()
        result = await session.call_tool("add", {"a": 40})  # b left to its default
    assert not result.is_error
    assert texts(result) == ["42"]


async def test_a_tool_that_returns_a_struct_gives_json_and_structured_content(
    anyio_backend: str, tmp_path: Path
) -> None:
    # call_tool also checks the structured content against the listed outputSchema.
    async with connected(anyio_backend, tmp_path / "stderr") as session:
        await session.initialize()
        result = await session.call_tool("lookup_issue", {"number": 26})
    issue = {"number": 26, "title": "Issue 26", "labels": ["tools"]}
    assert not result.is_error
    assert result.structured_content == issue
    assert texts(result) == ['{"number":26,"title":"Issue 26","labels":["tools"]}']


async def test_a_tool_that_raises_gives_a_tool_error_naming_it_redacted(
    anyio_backend: str, tmp_path: Path
) -> None:
    async with connected(anyio_backend, tmp_path / "stderr") as session:
        await session.initialize()
        result = await session.call_tool("fail", {"reason": "no such issue"})
    assert result.is_error
    assert texts(result) == ["ValueError: no such issue (key ***)"]


async def test_arguments_that_do_not_fit_give_a_tool_error_in_msgspecs_words(
    anyio_backend: str, tmp_path: Path
) -> None:
    async with connected(anyio_backend, tmp_path / "stderr") as session:
        await session.initialize()
        wrong_type = await session.call_tool("add", {"a": "forty"})
        missing = await session.call_tool("add", {"b": 1})
    assert wrong_type.is_error
    assert texts(wrong_type) == [
        "Invalid arguments for tool add: Expected `int`, got `str` - at `$.a`"
    ]
    assert texts(missing) == ["Invalid arguments for tool add: Object missing required field `a`"]


async def test_an_unknown_tool_is_a_protocol_error(anyio_backend: str, tmp_path: Path) -> None:
    async with connected(anyio_backend, tmp_path / "stderr") as session:
        await session.initialize()
        with pytest.raises(mcp.MCPError) as caught:
            await session.call_tool("delete_everything", {})
    assert caught.value.error.code == -32602
    assert caught.value.error.message == "Unknown tool: delete_everything"


async def test_a_tool_that_prints_does_not_break_the_stream(
    anyio_backend: str, tmp_path: Path
) -> None:
    async with connected(anyio_backend, tmp_path / "stderr") as session:
        await session.initialize()
        shouted = await session.call_tool("shout", {"text": "hey"})
        added = await session.call_tool("add", {"a": 1})
    assert texts(shouted) == ["HEY"]
    assert texts(added) == ["3"]
    assert "shouting hey" in (tmp_path / "stderr").read_text("utf-8")


async def test_the_server_ends_by_itself_when_the_client_closes(
    anyio_backend: str, tmp_path: Path
) -> None:
    # The client closes the server's stdin, waits, and only then kills it: a server that
    # wrote "served" ended by itself, before any signal.
    async with connected(anyio_backend, tmp_path / "stderr") as session:
        await session.initialize()
        await session.call_tool("add", {"a": 1})
    lines = (tmp_path / "stderr").read_text("utf-8").splitlines()
    assert lines[-1] == "served"
    pid = int(lines[0].removeprefix("pid "))
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # gone, and reaped by the client
