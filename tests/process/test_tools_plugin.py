"""The plugin folder of a print-mode run given tools or hooks (the default channel,
``extend/_plugin.py``, docs/extend.md "Which channel"): its layout, the flag that
names it, and what it leaves alone (HOME, the user's files, approvals)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from agent_sdk import AgentOptions
from agent_sdk.extend import Hooks, tool
from agent_sdk.extend._home import RunTools, with_tools
from agent_sdk.extend._plugin import PLUGIN_NAME
from agent_sdk.options import Invocation, build_invocation

pytestmark = pytest.mark.anyio

MINE = '{"mcpServers": {"mine": {"command": "s"}}}'


@tool
def ping() -> str:
    """Answer pong."""
    return "pong"


@pytest.fixture
def real_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "home"
    (home / ".cursor").mkdir(parents=True)
    (home / ".cursor" / "mcp.json").write_text(MINE)
    with tempfile.TemporaryDirectory(prefix="tp-", dir="/tmp") as where:
        monkeypatch.setattr(tempfile, "tempdir", where)
        yield home


@pytest.fixture
async def started(real_home: Path) -> AsyncIterator[tuple[RunTools, Invocation]]:
    options = AgentOptions(tools=[ping], hooks=Hooks(before_shell=lambda call: "allow"))
    environ = {"HOME": str(real_home), "PATH": "/bin"}
    invocation = build_invocation("p", options, binary="cursor-agent", environ=environ)
    tools, started_invocation = with_tools(invocation, options)
    try:
        yield tools, started_invocation
    finally:
        tools.release()


def plugin_of(started: tuple[RunTools, Invocation]) -> Path:
    (flag,) = [arg for arg in started[1].argv if arg.startswith("--plugin-dir=")]
    return Path(flag.partition("=")[2])


async def test_the_run_names_its_plugin_folder_before_any_flag_of_the_users(
    started: tuple[RunTools, Invocation],
) -> None:
    argv = started[1].argv
    assert argv[3].startswith("--plugin-dir=")
    assert argv.index("--") > 3


async def test_the_plugin_folder_has_the_documented_layout(
    started: tuple[RunTools, Invocation],
) -> None:
    folder = plugin_of(started)
    manifest = json.loads((folder / ".cursor-plugin" / "plugin.json").read_text())
    assert manifest["name"] == PLUGIN_NAME
    servers = json.loads((folder / "mcp.json").read_text())["mcpServers"]
    assert list(servers) == ["agent_sdk"]
    hooks = json.loads((folder / "hooks" / "hooks.json").read_text())
    assert hooks["version"] == 1
    assert {"beforeShellExecution", "sessionStart"} <= set(hooks["hooks"])


async def test_home_is_left_as_it_is(started: tuple[RunTools, Invocation], real_home: Path) -> None:
    assert started[1].env["HOME"] == str(real_home)


async def test_nothing_is_approved(started: tuple[RunTools, Invocation]) -> None:
    assert not [arg for arg in started[1].argv if arg.startswith("--approve-mcps")]


async def test_the_folder_is_private_and_written_whole(
    started: tuple[RunTools, Invocation],
) -> None:
    folder = plugin_of(started)
    assert (folder.parent.stat().st_mode & 0o777) == 0o700
    assert not list(folder.rglob(".*.partial"))


async def test_the_users_own_files_are_untouched(
    started: tuple[RunTools, Invocation], real_home: Path
) -> None:
    # chats/ is made empty so the CLI's first chat lands there (docs/protocol.md §1)
    assert sorted(p.name for p in (real_home / ".cursor").iterdir()) == ["chats", "mcp.json"]
    assert (real_home / ".cursor" / "mcp.json").read_text() == MINE
    assert list((real_home / ".cursor" / "chats").iterdir()) == []


async def test_the_folder_is_gone_once_released(real_home: Path) -> None:
    options = AgentOptions(tools=[ping])
    environ = {"HOME": str(real_home), "PATH": "/bin"}
    invocation = build_invocation("p", options, binary="cursor-agent", environ=environ)
    tools, ready = with_tools(invocation, options)
    folder = plugin_of((tools, ready))
    tools.release()
    assert not folder.exists()
    assert not folder.parent.exists()
