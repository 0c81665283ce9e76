"""Who may connect to a run's tools (``extend/_peers.py``, docs/extend.md "Who may
connect"), on real processes, on asyncio and trio: a stand-in for the CLI
(tests/extend/peer_launcher.py), started by this test as the SDK starts a CLI (leading a
session of its own, the host's token in its environment), starts a client of the host in
one way or another; only the relay it starts in its own group, as the CLI starts its MCP
servers and hooks, is served."""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from extend_env import LIMIT, PING, PONG, serving, short_temp_dir

from agent_sdk.extend import Hooks
from agent_sdk.extend._host import TOKEN_ENV, ToolHost
from agent_sdk.extend._peers import Peer, cli_relay

pytestmark = [
    pytest.mark.anyio,
    # macOS checks less, and a CLI there is a group this program's transport tracks.
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the checks of Linux"),
]

LAUNCHER = Path(__file__).with_name("peer_launcher.py")

# Not below the launcher: started by a process that exits at once, leading its session.
NOT_OUR_CHILD = "import subprocess, sys; subprocess.Popen(sys.argv[1:], start_new_session=True)"


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_temp_dir(monkeypatch, "peers-") as where:
        yield where


def allow(call: Any) -> str:
    return "allow"


async def launched(
    host: ToolHost, way: str, mode: str = "mcp", *, token_in_leader: bool = True, ours: bool = True
) -> dict[str, Any]:
    """What the client the launcher started in ``way`` got back (``code``, ``out``)."""
    env = {**os.environ, "TEST_PEER_TOKEN": host.token}
    env.pop(TOKEN_ENV, None)
    if token_in_leader:
        env[TOKEN_ENV] = host.token  # as the transport starts a CLI given tools
    argv = [sys.executable, str(LAUNCHER), way, mode, host.socket_path]
    with anyio.fail_after(LIMIT):
        if ours:
            done = await anyio.run_process(argv, env=env, start_new_session=True)
            return dict(json.loads(done.stdout))
        # The launcher's stdout, through the middle process that exits at once.
        done = await anyio.run_process([sys.executable, "-c", NOT_OUR_CHILD, *argv], env=env)
        return dict(json.loads(done.stdout))


@pytest.mark.parametrize("way", ["child", "shell"])
async def test_the_relay_the_cli_starts_in_its_group_is_served(temp_dir: Path, way: str) -> None:
    async with serving(peers=cli_relay) as host:
        got = await launched(host, way)
    assert got["out"].encode() == PONG


@pytest.mark.parametrize("way", ["own_group", "own_session", "orphan", "not_the_relay", "impostor"])
async def test_any_other_process_holding_the_token_is_refused(temp_dir: Path, way: str) -> None:
    async with serving(peers=cli_relay) as host:
        got = await launched(host, way)
    assert got["out"] == ""


async def test_a_hook_the_cli_runs_through_its_shell_is_answered(temp_dir: Path) -> None:
    async with serving(hooks=Hooks(before_tool=allow), peers=cli_relay) as host:
        got = await launched(host, "shell", "hook")
    assert (got["code"], json.loads(got["out"])) == (0, {"permission": "allow"})


async def test_a_hook_call_from_a_session_of_its_own_blocks_and_asks_nobody(
    temp_dir: Path,
) -> None:
    asked: list[Any] = []
    async with serving(hooks=Hooks(before_tool=asked.append), peers=cli_relay) as host:
        got = await launched(host, "own_session", "hook")
    assert (got["code"], asked) == (2, [])  # exit 2 blocks the call
    assert json.loads(got["out"])["permission"] == "deny"  # and says so in JSON


async def test_a_leader_without_the_hosts_token_is_no_cli_of_this_host(temp_dir: Path) -> None:
    async with serving(peers=cli_relay) as host:
        got = await launched(host, "child", token_in_leader=False)
    assert got["out"] == ""


async def test_a_leader_this_process_did_not_start_is_no_cli_of_this_host(
    temp_dir: Path,
) -> None:
    async with serving(peers=cli_relay) as host:
        got = await launched(host, "child", ours=False)
    assert got["out"] == ""


async def test_a_refusal_is_logged_in_words_without_the_token(
    temp_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="agent_sdk.extend")
    async with serving(peers=cli_relay) as host:
        await launched(host, "own_session")
    (record,) = [r for r in caplog.records if r.name == "agent_sdk.extend"]
    text = record.getMessage()
    assert "refused a connection to a run's tools from pid" in text
    assert "leads a session of its own" in text
    assert host.token not in text


async def test_this_process_itself_is_refused_by_default(temp_dir: Path) -> None:
    async with serving(peers=cli_relay) as host:
        stream = await anyio.connect_unix(host.socket_path)
        async with stream:
            await stream.send(host.token.encode() + b"\n" + PING)
            with anyio.fail_after(LIMIT), pytest.raises(anyio.EndOfStream):
                await stream.receive()


def test_another_user_is_refused() -> None:
    refused = cli_relay(Peer(os.getpid(), os.geteuid() + 1), b"", "t")
    assert refused == f"it runs as another user (uid {os.geteuid() + 1})"


def test_a_peer_the_system_does_not_name_is_refused() -> None:
    assert cli_relay(None, b"", "t") == "this system does not say which process connected"
    assert cli_relay(Peer(0, os.geteuid()), b"", "t") is not None  # another pid namespace


def test_a_mode_the_host_does_not_serve_is_refused() -> None:
    # This test's process is no relay: the mode is judged with its program.
    from agent_sdk.extend._peers import _runs_relay

    assert _runs_relay(os.getpid(), b"other") == "its first line names no mode the host serves"
    assert _runs_relay(os.getpid(), b"") == "it is not the run's relay in mcp mode"
