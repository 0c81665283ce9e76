"""The builds the fake plays with ``$FAKE_AGENT_BUILD`` (fake_agent/scenarios/README.md
"Builds and plugins"), so that a wrapper's detection of a channel the CLI does not honour
can be tested: each does what it says, and no more."""

from __future__ import annotations

import json

import pytest
from acp_client import INIT, Client, prompt
from plugin_world import HANDSHAKE, World, call, outcomes

WRITE = {"fake": "write_file", "path": "notes.txt", "text": "hi\n", "call_id": "w1", "real": True}


def everything(world: World) -> tuple[str, ...]:
    """A server and a sessionStart hook in each of the user's files, the project's files
    (approved) and a plugin; the flags that load them all."""
    world.user_files(servers={"user": world.echo("user")}, hooks=session_start(world, "user"))
    project = world.workspace / ".cursor"
    project.mkdir()
    (project / "mcp.json").write_text(json.dumps({"mcpServers": {"proj": world.echo("proj")}}))
    document = {"version": 1, "hooks": session_start(world, "proj")}
    (project / "hooks.json").write_text(json.dumps(document))
    plugin = world.plugin(servers={"plug": world.echo("plug")}, hooks=session_start(world, "plug"))
    return ("--approve-mcps", "--plugin-dir", str(plugin))


def session_start(world: World, label: str) -> dict[str, object]:
    return {"sessionStart": [world.hook(label)]}


def servers_asked(world: World) -> dict[str, list[str]]:
    return {label: world.asked(label) for label in ("user", "proj", "plug")}


def hooks_fired(world: World) -> list[str]:
    return [label for _, label in world.fired()]


ALL_STARTED = {"user": HANDSHAKE, "proj": HANDSHAKE, "plug": HANDSHAKE}
NONE_STARTED: dict[str, list[str]] = {"user": [], "proj": [], "plug": []}


def test_a_build_honouring_every_channel_loads_every_source(world: World) -> None:
    proc = world.run(flags=everything(world))
    assert proc.returncode == 0
    assert servers_asked(world) == ALL_STARTED
    assert hooks_fired(world) == ["proj", "user", "plug"]


def test_ignores_plugin_dir_loads_nothing_of_the_plugin_and_the_rest(world: World) -> None:
    proc = world.run(flags=everything(world), FAKE_AGENT_BUILD="ignores-plugin-dir")
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert servers_asked(world) == {**ALL_STARTED, "plug": []}
    assert hooks_fired(world) == ["proj", "user"]


def test_no_hooks_runs_no_hook_of_any_source_and_serves_tools(world: World) -> None:
    proc = world.run(call("plug"), WRITE, flags=everything(world), FAKE_AGENT_BUILD="no-hooks")
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert hooks_fired(world) == []
    assert "success" in outcomes(proc)[0]
    assert "success" in outcomes(proc)[1]
    assert servers_asked(world) == {**ALL_STARTED, "plug": [*HANDSHAKE, "tools/call"]}


def test_no_mcp_starts_no_server_of_any_source_and_runs_hooks(world: World) -> None:
    proc = world.run(call("plug"), flags=everything(world), FAKE_AGENT_BUILD="no-mcp")
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert servers_asked(world) == NONE_STARTED
    assert outcomes(proc) == [{"error": {"message": 'MCP server "plug" is not configured'}}]
    assert hooks_fired(world) == ["proj", "user", "plug"]


def test_quirks_combine(world: World) -> None:
    proc = world.run(flags=everything(world), FAKE_AGENT_BUILD="no-hooks, no-mcp")
    assert proc.returncode == 0
    assert (servers_asked(world), hooks_fired(world)) == (NONE_STARTED, [])


@pytest.mark.parametrize(
    ("name", "value"),
    [("FAKE_AGENT_BUILD", "no-tools"), ("FAKE_AGENT_PLUGIN_SERVERS", "sometimes")],
)
def test_an_unknown_value_is_the_fakes_setup_error(world: World, name: str, value: str) -> None:
    proc = world.run(**{name: value})
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr.startswith(f"fake_agent: {name} must be ".encode())
    assert repr(value).encode() in proc.stderr


def acp_client(world: World, **env: str) -> Client:
    turn = world.root / "turn.ndjson"
    step = {"fake": "mcp_call", "server": "echo", "tool": "echo", "toolCallId": "t1"}
    turn.write_text(json.dumps(step) + "\n", "utf-8")
    return Client(
        HOME=str(world.home),
        CURSOR_CONFIG_DIR=str(world.config),
        FAKE_AGENT_ACP_SCENARIO=str(turn),
        **env,
    )


def test_no_mcp_under_acp_connects_no_server_of_session_new(world: World) -> None:
    client = acp_client(world, FAKE_AGENT_BUILD="no-mcp")
    try:
        assert "result" in client.call("initialize", INIT)
        server = world.echo("echo")
        entry = {"name": "echo", "command": server["command"], "args": server["args"], "env": []}
        params = {"cwd": str(world.workspace), "mcpServers": [entry]}
        session_id = client.call("session/new", params)["result"]["sessionId"]
        request_id = prompt(client, session_id, "go")
        seen = []
        while (message := client.read()).get("id") != request_id:
            seen.append(message)
    finally:
        client.kill()
    outputs = [
        m["params"]["update"]["rawOutput"]
        for m in seen
        if m.get("method") == "session/update" and "rawOutput" in m["params"]["update"]
    ]
    assert outputs == [{"error": 'MCP server "echo" is not configured'}]
    assert not (world.root / "echo.pid").exists()


def test_an_unknown_build_under_acp_is_the_fakes_setup_error(world: World) -> None:
    client = acp_client(world, FAKE_AGENT_BUILD="no-tools")
    try:
        assert client.close() == 2
    finally:
        client.kill()
