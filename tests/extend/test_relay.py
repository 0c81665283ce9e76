"""The relay and the host (docs/extend.md, "How the tools reach the CLI"), on real
processes: the official MCP client (``mcp``, a test extra) starts the relay as the CLI
would, with the socket and the token in its environment, and talks MCP to the tools the
host serves in this test's process, on asyncio and trio.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from extend_env import LIMIT, PING, PONG, mcp_session, raw_ping, serving, short_temp_dir
from needs import need

from agent_sdk._transport.owner import MARKER
from agent_sdk.extend import tool
from agent_sdk.extend._host import PREFIX, SOCKET_ENV, TOKEN_ENV, HostState, ToolHost, relay_command

mcp = need("mcp", "the official MCP Python SDK")
from mcp.client.stdio import StdioServerParameters  # noqa: E402
from mcp_types import TextContent  # noqa: E402

pytestmark = pytest.mark.anyio


@tool
def add(a: int, b: int = 2) -> int:
    """Add two numbers."""
    return a + b


@tool
async def fail(why: str) -> str:
    """Fail with a reason."""
    raise ValueError(why)


TOOLS = [add, fail]


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A short private temp dir for the hosts' directories (a socket's path has a limit
    of about 100 bytes), set as the system's temp dir."""
    with short_temp_dir(monkeypatch, "relay-") as where:
        yield where


def relay_env(host: ToolHost, token: str | None = None) -> dict[str, str]:
    return {SOCKET_ENV: host.socket_path, TOKEN_ENV: host.token if token is None else token}


def client(
    env: dict[str, str], stderr: Path
) -> contextlib.AbstractAsyncContextManager[mcp.ClientSession]:
    """The official client's session with a relay started as the CLI starts it."""
    command, *args = relay_command()
    params = StdioServerParameters(command=command, args=args, env=env, cwd=stderr.parent)
    return mcp_session(params, stderr)


def texts(result: Any) -> list[str]:
    return [block.text for block in result.content if isinstance(block, TextContent)]


async def test_the_client_lists_the_hosts_tools_through_the_relay(temp_dir: Path) -> None:
    async with serving(TOOLS) as host, client(relay_env(host), temp_dir / "stderr") as session:
        await session.initialize()
        listed = sorted(t.name for t in (await session.list_tools()).tools)
    assert listed == ["add", "fail"]


async def test_the_client_calls_a_tool_in_this_process_through_the_relay(temp_dir: Path) -> None:
    async with serving(TOOLS) as host, client(relay_env(host), temp_dir / "stderr") as session:
        await session.initialize()
        result = await session.call_tool("add", {"a": 40})
    assert texts(result) == ["42"]
    assert not result.is_error


async def test_the_host_records_each_call_it_served(temp_dir: Path) -> None:
    async with serving(TOOLS) as host, client(relay_env(host), temp_dir / "stderr") as session:
        await session.initialize()
        await session.call_tool("add", {"a": 1, "b": 1})
        await session.call_tool("fail", {"why": "no issue 7"})
    first, second = host.calls
    assert (first.tool, first.arguments, first.result, first.is_error) == (
        "add",
        {"a": 1, "b": 1},
        "2",
        False,
    )
    assert (second.tool, second.result, second.is_error) == (
        "fail",
        "ValueError: no issue 7",
        True,
    )


async def test_a_wrong_token_is_refused_and_nothing_is_served(temp_dir: Path) -> None:
    async with serving(TOOLS) as host:
        with pytest.raises(anyio.EndOfStream):
            await raw_ping(host, "not-the-token")  # closed, never answered


async def test_the_right_token_is_served_on_a_raw_socket(temp_dir: Path) -> None:
    # The counterpart of the test above: the same bytes after the right token are answered.
    async with serving(TOOLS) as host:
        assert await raw_ping(host, host.token) == PONG


async def start_relay(env: dict[str, str]) -> anyio.abc.Process:
    return await anyio.open_process(relay_command(), env=env)


async def pinged(process: anyio.abc.Process) -> bytes:
    """Send a ping through the relay; its answer."""
    assert process.stdin is not None
    assert process.stdout is not None
    await process.stdin.send(PING)
    with anyio.fail_after(LIMIT):
        return await process.stdout.receive()


async def exit_of(process: anyio.abc.Process) -> int:
    with anyio.fail_after(LIMIT):
        return await process.wait()


async def test_the_relay_ends_when_its_client_closes_stdin(temp_dir: Path) -> None:
    async with serving(TOOLS) as host, await start_relay(relay_env(host)) as process:
        assert await pinged(process) == PONG
        assert process.stdin is not None
        await process.stdin.aclose()
        assert await exit_of(process) == 0


async def test_the_relay_ends_when_the_host_goes(temp_dir: Path) -> None:
    async with serving(TOOLS) as host:
        process = await start_relay(relay_env(host))
        assert await pinged(process) == PONG
    async with process:  # stdin still open: only the host's end tells it to go
        assert await exit_of(process) == 0


async def test_a_relay_that_cannot_reach_the_host_says_so_and_exits_1(temp_dir: Path) -> None:
    env = {SOCKET_ENV: str(temp_dir / "gone.sock"), TOKEN_ENV: "t0ken-never-shown"}
    done = await anyio.run_process(relay_command(), env=env, check=False)
    assert done.returncode == 1
    assert b"cannot reach the tools of the agent_sdk run" in done.stderr
    assert b"t0ken-never-shown" not in done.stderr + done.stdout


async def test_a_relay_without_its_environment_says_what_is_missing() -> None:
    done = await anyio.run_process(relay_command(), env={}, check=False)
    assert done.returncode == 1
    assert b"AGENT_SDK_TOOLS_SOCKET is not set" in done.stderr


def test_the_relay_imports_nothing_of_agent_sdk() -> None:
    # -I -S and a script path: it must start without the package (a fresh, bare Python).
    script = Path(relay_command()[3]).read_text(encoding="utf-8")
    assert "agent_sdk" not in "".join(
        line for line in script.splitlines() if line.startswith(("import", "from"))
    )


async def test_the_hosts_dir_is_private_and_removed_at_close(temp_dir: Path) -> None:
    async with serving(TOOLS) as host:
        directory = host.directory
        assert directory is not None
        assert directory.name.startswith(PREFIX)
        assert directory.stat().st_mode & 0o777 == 0o700
        assert (directory / MARKER).is_file()
    assert host.state is HostState.CLOSED
    assert not directory.exists()


async def test_a_dead_owners_host_dir_is_swept_by_the_next_host(temp_dir: Path) -> None:
    program = (
        "import sys, tempfile; tempfile.tempdir = sys.argv[1]\n"
        "from agent_sdk.extend._host import ToolHost\n"
        "host = ToolHost([]); host.open(); print(host.directory, flush=True)\n"
        "import time; time.sleep(600)\n"
    )
    command = [sys.executable, "-c", program, str(temp_dir)]
    async with await anyio.open_process(command) as child:
        assert child.stdout is not None
        with anyio.fail_after(LIMIT):
            left = anyio.Path((await child.stdout.receive()).decode().strip())
        child.kill()  # SIGKILL: it runs no cleanup
        await child.wait()
    assert await left.is_dir()
    async with serving(TOOLS):
        assert not await left.exists()


async def test_the_token_is_in_no_argv_and_no_file(temp_dir: Path) -> None:
    async with serving(TOOLS) as host, await start_relay(relay_env(host)) as process:
        assert await pinged(process) == PONG  # connected: it has read its token
        assert host.token not in " ".join(relay_command())
        assert host.token not in repr(host)
        cmdline = await anyio.Path(f"/proc/{process.pid}/cmdline").read_bytes()
        assert host.token.encode() not in cmdline
        assert host.directory is not None
        for path in host.directory.rglob("*"):
            if path.is_file():
                assert host.token.encode() not in path.read_bytes()
        assert process.stdin is not None
        await process.stdin.aclose()
