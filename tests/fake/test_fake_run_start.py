"""What a print run does before its first event (docs/protocol.md §6.2, §7;
fake_agent/scenarios/README.md "MCP servers", "Hooks"): every loaded stdio server is
started and listed, and ``sessionStart`` has fired, before the init line; a server that
fails to start does not stop the run; a signed-out CLI does neither."""

from __future__ import annotations

import json
import subprocess

from plugin_world import HANDSHAKE, WAIT, World, call, events, outcomes


def at_first_line(world: World, *flags: str, labels: tuple[str, ...]) -> tuple[str, list[object]]:
    """Start a run of hello; at its first stdout line: that line's subtype, and what had
    happened by then (each server's log, then the hooks that had fired). Then the run is
    read to its end."""
    proc = subprocess.Popen(
        world.argv(*flags),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        env=world.env("hello"),
    )
    assert proc.stdout is not None
    first = json.loads(proc.stdout.readline())
    seen: list[object] = [world.asked(label) for label in labels]
    seen.append(world.fired())
    proc.stdout.read()
    proc.stdout.close()
    assert proc.wait(WAIT) == 0
    return str(first["subtype"]), seen


def test_every_loaded_server_is_listed_before_the_init_line(world: World) -> None:
    world.user_files(servers={"user": world.echo("user")})
    (world.workspace / ".cursor").mkdir()
    project = {"mcpServers": {"project": world.echo("project")}}
    (world.workspace / ".cursor" / "mcp.json").write_text(json.dumps(project))
    plugin = world.plugin(servers={"plug": world.echo("plug")})
    flags = ("--approve-mcps", "--plugin-dir", str(plugin))
    first, seen = at_first_line(world, *flags, labels=("user", "project", "plug"))
    assert (first, seen) == ("init", [HANDSHAKE, HANDSHAKE, HANDSHAKE, []])


def test_session_start_hooks_have_fired_before_the_init_line(world: World) -> None:
    world.user_files(hooks={"sessionStart": [world.hook("user")]})
    plugin = world.plugin(hooks={"sessionStart": [world.hook("plugin")]})
    first, seen = at_first_line(world, "--plugin-dir", str(plugin), labels=())
    assert first == "init"
    assert seen == [[("sessionStart", "user"), ("sessionStart", "plugin")]]


def test_a_server_that_fails_to_start_leaves_the_run_going(world: World) -> None:
    world.user_files(
        servers={"broken": {"command": str(world.root / "no-such-binary")}, "ok": world.echo("ok")}
    )
    proc = world.run(call("broken"), call("ok"))
    broken, ok = outcomes(proc)
    assert broken["error"]["message"].startswith('MCP server "broken" failed to start: ')
    assert "success" in ok
    assert (events(proc)[0]["subtype"], events(proc)[-1]["subtype"]) == ("init", "success")


def test_a_server_that_exits_at_the_start_fails_its_calls_only(world: World) -> None:
    world.user_files(servers={"gone": world.echo("gone", "exit")})
    proc = world.run(call("gone"))
    assert outcomes(proc) == [{"error": {"message": 'MCP server "gone" closed the connection'}}]
    assert proc.returncode == 0


def test_a_signed_out_cli_starts_no_server_and_runs_no_hook(world: World) -> None:
    """No hook runs before sign-in (docs/protocol.md §6.1); the fake's signed-out run
    only says so, and starts no server either."""
    world.user_files(
        servers={"user": world.echo("user")}, hooks={"sessionStart": [world.hook("user")]}
    )
    proc = world.run(FAKE_AGENT_REQUIRE_LOGIN="1")
    assert proc.returncode == 1
    assert b"Not logged in" in proc.stdout
    assert (world.asked("user"), world.fired()) == ([], [])
