"""The fake's ``mcp list`` and ``mcp list-tools <name>`` (fake_agent/_mcp_command.py): the
servers a print run would load, a plugin's included, started and asked for their tools."""

from __future__ import annotations

import subprocess
import sys

from plugin_world import WAIT, World


def mcp(world: World, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "fake_agent", *args]
    env = world.env("hello", **extra)
    return subprocess.run(
        argv, env=env, cwd=world.workspace, capture_output=True, text=True, timeout=WAIT
    )


def test_list_tools_starts_a_plugins_server_and_prints_its_tools(world: World) -> None:
    plugin = world.plugin(servers={"plug": world.echo("plug")})
    done = mcp(world, "--plugin-dir", str(plugin), "mcp", "list-tools", "plug")
    assert (done.returncode, done.stdout) == (0, "echo\n")
    assert world.asked("plug")[:1] == ["initialize"]


def test_list_names_every_loaded_server(world: World) -> None:
    world.user_files(servers={"mine": world.echo("mine")})
    plugin = world.plugin(servers={"plug": world.echo("plug")})
    done = mcp(world, "--plugin-dir", str(plugin), "mcp", "list")
    assert done.stdout.splitlines() == ["mine: ready", "plug: ready"]


def test_a_server_not_loaded_is_said_on_stderr_with_exit_1(world: World) -> None:
    plugin = world.plugin(servers={"plug": world.echo("plug")})
    done = mcp(
        world,
        "--plugin-dir",
        str(plugin),
        "mcp",
        "list-tools",
        "plug",
        FAKE_AGENT_BUILD="ignores-plugin-dir",
    )
    assert done.returncode == 1
    assert 'MCP server "plug" is not configured' in done.stderr


def test_a_wrong_use_says_how(world: World) -> None:
    done = mcp(world, "mcp", "list-tools")
    assert done.returncode == 1
    assert "Usage: cursor-agent mcp list | list-tools <name>" in done.stderr
