"""The HOME and config dir of a print-mode run given tools on the ``"home"`` channel
(``extend/_home.py``, docs/extend.md "Print mode"): what the CLI finds there,
and what it cannot reach."""

from __future__ import annotations

import json
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import anyio
import pytest

from agent_sdk import AgentOptions
from agent_sdk.extend import tool
from agent_sdk.extend._home import ALLOW_RULE, RunTools, with_tools
from agent_sdk.options import Invocation, build_invocation

pytestmark = pytest.mark.anyio


@tool
def ping() -> str:
    """Answer pong."""
    return "pong"


@pytest.fixture
def real_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "home"
    (home / ".cursor" / "chats").mkdir(parents=True)
    (home / ".cursor" / "cli-config.json").write_text('{"version": 1, "model": "x"}')
    (home / ".cursor" / "auth.json").write_text("{}")
    (home / ".cursor" / "mcp.json").write_text('{"mcpServers": {"mine": {"command": "s"}}}')
    (home / ".cursor-server").mkdir()
    (home / ".gitconfig").write_text("[user]\n")
    with tempfile.TemporaryDirectory(prefix="th-", dir="/tmp") as where:
        monkeypatch.setattr(tempfile, "tempdir", where)
        yield home


@pytest.fixture
async def started(real_home: Path) -> AsyncIterator[tuple[RunTools, Invocation]]:
    options = AgentOptions(tools=[ping], tools_channel="home")
    environ = {"HOME": str(real_home), "PATH": "/bin"}
    invocation = build_invocation("p", options, binary="cursor-agent", environ=environ)
    tools, started_invocation = with_tools(invocation, options)
    try:
        yield tools, started_invocation
    finally:
        tools.release()


def home_of(started: tuple[RunTools, Invocation]) -> Path:
    return Path(started[1].env["HOME"])


async def test_the_runs_home_links_every_entry_of_the_users_but_cursor(
    started: tuple[RunTools, Invocation], real_home: Path
) -> None:
    home = home_of(started)
    assert sorted(p.name for p in home.iterdir()) == [".cursor", ".cursor-server", ".gitconfig"]
    assert (home / ".gitconfig").resolve() == (real_home / ".gitconfig").resolve()
    assert (home / ".cursor-server").is_symlink()
    assert not (home / ".cursor").is_symlink()


async def test_its_cursor_dir_links_the_users_but_mcp_json_and_the_config(
    started: tuple[RunTools, Invocation],
) -> None:
    cursor = home_of(started) / ".cursor"
    assert sorted(p.name for p in cursor.iterdir()) == ["auth.json", "chats", "mcp.json"]
    assert (cursor / "auth.json").is_symlink()
    assert not (cursor / "mcp.json").is_symlink()


async def test_its_mcp_json_names_only_our_relay_and_not_the_token(
    started: tuple[RunTools, Invocation],
) -> None:
    tools, invocation = started
    text = (home_of(started) / ".cursor" / "mcp.json").read_text()
    servers = json.loads(text)["mcpServers"]
    assert list(servers) == ["agent_sdk"]
    env = servers["agent_sdk"]["env"]
    assert env["AGENT_SDK_TOOLS_TOKEN"] == "${env:AGENT_SDK_TOOLS_TOKEN}"
    assert tools.host.token not in text
    assert invocation.env["AGENT_SDK_TOOLS_TOKEN"] == tools.host.token
    assert tools.host.token not in " ".join(invocation.argv)


async def test_the_private_config_allows_our_server_and_the_users_is_unchanged(
    started: tuple[RunTools, Invocation], real_home: Path
) -> None:
    config = Path(started[1].env["CURSOR_CONFIG_DIR"]) / "cli-config.json"
    assert json.loads(config.read_text()) == {
        "version": 1,
        "model": "x",
        "permissions": {"allow": [ALLOW_RULE]},
    }
    assert (real_home / ".cursor" / "cli-config.json").read_text() == (
        '{"version": 1, "model": "x"}'
    )


async def test_everything_goes_at_release(started: tuple[RunTools, Invocation]) -> None:
    tools, invocation = started
    home, config = home_of(started), Path(invocation.env["CURSOR_CONFIG_DIR"])
    tools.release()
    assert tools.host.directory is not None
    for gone in (home, config, tools.host.directory):
        assert not await anyio.Path(gone).exists()
