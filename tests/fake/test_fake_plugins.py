"""``--plugin-dir`` in the fake (docs/protocol.md §1, §6.1, §7, §9;
fake_agent/scenarios/README.md "Builds and plugins"): a plugin's servers and hooks beside
every other source's in print mode, what approval they need, which folders count as
plugins, and nothing of them under ACP."""

from __future__ import annotations

import json
import os
import sys

import pytest
from acp_client import INIT, Client, prompt
from fake_env import ROOT
from plugin_world import HANDSHAKE, Message, World, call, events, outcomes

TOOLS = str(ROOT / "tests" / "extend" / "tools_server.py")
WRITE = {"fake": "write_file", "path": "notes.txt", "text": "hi\n", "call_id": "w1", "real": True}


def success(result: Message) -> Message:
    assert "success" in result, result
    said: Message = json.loads(result["success"]["content"][0]["text"]["text"])
    return said


NOT_CONFIGURED = {"error": {"message": 'MCP server "plug" is not configured'}}


# ----------------------------------------------------------------------------- servers


def test_a_plugins_server_is_called_without_approve_mcps(world: World) -> None:
    plugin = world.plugin(servers={"plug": world.echo("plug")})
    proc = world.run(call("plug", q=1), flags=("--plugin-dir", str(plugin)))
    assert success(outcomes(proc)[0])["arguments"] == {"q": 1}
    assert world.asked("plug") == [*HANDSHAKE, "tools/call"]


def test_custom_tools_calls_agent_sdk_served_through_a_plugin(world: World) -> None:
    env = {"TOOLS_SERVER_SECRET": "s3cret", "PYTHONPATH": str(ROOT)}
    entry = {"command": sys.executable, "args": [TOOLS, "asyncio"], "env": env}
    plugin = world.plugin(servers={"agent_sdk": entry})
    proc = world.run(scenario="custom_tools", flags=("--plugin-dir", str(plugin)))
    results = [result["success"] for result in outcomes(proc)]
    assert [r["isError"] for r in results] == [False, True]
    assert json.loads(results[0]["content"][0]["text"]["text"])["number"] == 26
    assert events(proc)[-1]["subtype"] == "success"


def test_plugin_dir_is_repeatable_and_each_plugins_servers_start(world: World) -> None:
    one = world.plugin("one", name="one", servers={"a": world.echo("a")})
    two = world.plugin("two", name="two", servers={"b": world.echo("b")})
    proc = world.run(flags=("--plugin-dir", str(one), "--plugin-dir", str(two)))
    assert proc.returncode == 0
    assert world.asked("a") == world.asked("b") == HANDSHAKE


def test_a_relative_plugin_dir_is_found_from_the_clis_cwd(world: World) -> None:
    world.plugin("rel", servers={"plug": world.echo("plug")})
    proc = world.run(call("plug"), flags=("--plugin-dir", os.path.relpath(world.root / "rel")))
    assert "success" in outcomes(proc)[0]


def test_a_plugins_mcp_json_expands_variables(world: World) -> None:
    entry = world.echo("plug", "${workspaceFolderBasename}")
    entry["env"]["ECHO_VALUE"] = "${env:PLUGIN_TOKEN}"
    plugin = world.plugin(servers={"plug": entry})
    proc = world.run(call("plug"), flags=("--plugin-dir", str(plugin)), PLUGIN_TOKEN="t-1")
    said = success(outcomes(proc)[0])
    assert (said["argv"], said["value"]) == (["ws"], "t-1")


def test_the_user_files_server_of_the_same_name_wins_over_the_plugins(world: World) -> None:
    world.user_files(servers={"plug": world.echo("home")})
    plugin = world.plugin(servers={"plug": world.echo("plugin")})
    world.run(call("plug"), flags=("--plugin-dir", str(plugin)))
    assert world.asked("home") == [*HANDSHAKE, "tools/call"]
    assert world.asked("plugin") == []


def test_needs_approval_skips_plugin_servers_silently_without_approve_mcps(world: World) -> None:
    plugin = world.plugin(servers={"plug": world.echo("plug")})
    flags = ("--plugin-dir", str(plugin))
    proc = world.run(call("plug"), flags=flags, FAKE_AGENT_PLUGIN_SERVERS="needs-approval")
    assert outcomes(proc) == [NOT_CONFIGURED]
    assert world.asked("plug") == []
    assert proc.stderr == b""
    proc = world.run(
        call("plug"), flags=(*flags, "--approve-mcps"), FAKE_AGENT_PLUGIN_SERVERS="needs-approval"
    )
    assert "success" in outcomes(proc)[0]


# ----------------------------------------------------------------------------- hooks


def test_a_plugins_hooks_fire_in_print_mode_beside_the_users(world: World) -> None:
    world.user_files(hooks={"sessionStart": [world.hook("user")]})
    hooks = {
        "sessionStart": [world.hook("plugin")],
        "preToolUse": [world.hook("plugin", matcher="^Write$")],
        "sessionEnd": [world.hook("plugin")],
    }
    plugin = world.plugin(hooks=hooks)
    proc = world.run(WRITE, flags=("--plugin-dir", str(plugin)))
    assert proc.returncode == 0
    assert world.fired() == [
        ("sessionStart", "user"),
        ("sessionStart", "plugin"),
        ("preToolUse", "plugin"),
        ("sessionEnd", "plugin"),
    ]


def test_a_plugins_hooks_run_in_the_plugins_folder(world: World) -> None:
    world.user_files(hooks={"sessionStart": [world.hook("user")]})
    plugin = world.plugin(hooks={"sessionStart": [world.hook("plugin")]})
    world.run(flags=("--plugin-dir", str(plugin)))
    assert world.hook_cwds() == {"plugin": str(plugin), "user": str(world.home / ".cursor")}


def test_a_plugin_hooks_deny_blocks_the_call(world: World) -> None:
    deny = {"permission": "deny", "user_message": "not by the plugin's leave"}
    plugin = world.plugin(hooks={"preToolUse": [world.hook("plugin", deny)]})
    proc = world.run(WRITE, flags=("--plugin-dir", str(plugin)))
    reason = outcomes(proc)[0]["rejected"]["reason"]
    assert reason.startswith("not by the plugin's leave\n\n")
    assert not (world.workspace / "notes.txt").exists()


def test_a_plugins_hooks_gate_its_own_servers_calls_as_mcp_tool(world: World) -> None:
    deny = {"permission": "deny", "user_message": "no echo"}
    hooks = {"preToolUse": [world.hook("plugin", deny, matcher="^MCP:echo$")]}
    plugin = world.plugin(servers={"plug": world.echo("plug")}, hooks=hooks)
    proc = world.run(call("plug"), flags=("--plugin-dir", str(plugin)))
    assert outcomes(proc)[0]["rejected"]["reason"].startswith("no echo\n\n")
    assert world.asked("plug") == HANDSHAKE


# ----------------------------------------------------------------------------- not a plugin


NOT_PLUGINS = {
    "no manifest": {"name": None},
    "manifest not JSON": {"manifest": '{"name": "agent-sdk-run"'},
    "manifest not an object": {"manifest": '["agent-sdk-run"]'},
    "no name": {"manifest": '{"version": "1.0.0"}'},
    "name not a string": {"manifest": '{"name": 7}'},
    "name with an underscore": {"name": "agent_sdk"},
    "name in capitals": {"name": "Agent-SDK"},
    "name ending in a hyphen": {"name": "agent-"},
}


@pytest.mark.parametrize("broken", NOT_PLUGINS.values(), ids=NOT_PLUGINS.keys())
def test_a_folder_without_a_valid_manifest_is_ignored_silently(
    world: World, broken: dict[str, str | None]
) -> None:
    plugin = world.plugin(
        servers={"plug": world.echo("plug")},
        hooks={"sessionStart": [world.hook("plugin")]},
        **broken,  # type: ignore[arg-type]
    )
    proc = world.run(call("plug"), flags=("--plugin-dir", str(plugin)))
    assert outcomes(proc) == [NOT_CONFIGURED]
    assert (world.asked("plug"), world.fired()) == ([], [])
    assert (proc.returncode, proc.stderr) == (0, b"")


def test_a_manifest_that_is_a_folder_or_a_missing_plugin_dir_is_ignored(world: World) -> None:
    plugin = world.plugin(name=None, servers={"plug": world.echo("plug")})
    (plugin / ".cursor-plugin" / "plugin.json").mkdir()
    missing = str(world.root / "nowhere")
    proc = world.run(call("plug"), flags=("--plugin-dir", str(plugin), "--plugin-dir", missing))
    assert outcomes(proc) == [NOT_CONFIGURED]
    assert (proc.returncode, proc.stderr) == (0, b"")


def test_the_first_plugin_of_a_name_wins(world: World) -> None:
    first = world.plugin("first", servers={"a": world.echo("a")})
    second = world.plugin("second", servers={"b": world.echo("b")})
    world.run(flags=("--plugin-dir", str(first), "--plugin-dir", str(second)))
    assert (world.asked("a"), world.asked("b")) == (HANDSHAKE, [])


def test_a_plugin_with_a_manifest_alone_loads_and_adds_nothing(world: World) -> None:
    plugin = world.plugin()
    proc = world.run(flags=("--plugin-dir", str(plugin)))
    assert (proc.returncode, proc.stderr) == (0, b"")


# ----------------------------------------------------------------------------- under ACP


def test_under_acp_nothing_of_a_plugin_is_loaded(world: World) -> None:
    """Plugin hooks are not loaded under ACP (docs/acp.md §3.14, reported); whether its
    servers are is unknown, and the fake loads none."""
    world.user_files(hooks={"sessionStart": [world.hook("user")]})
    plugin = world.plugin(
        servers={"plug": world.echo("plug")},
        hooks={"sessionStart": [world.hook("plugin")], "preToolUse": [world.hook("plugin")]},
    )
    turn = world.root / "turn.ndjson"
    step = {"fake": "mcp_call", "server": "plug", "tool": "echo", "toolCallId": "t1"}
    turn.write_text(json.dumps(step) + "\n", "utf-8")
    client = Client(
        "--plugin-dir",
        str(plugin),
        HOME=str(world.home),
        CURSOR_CONFIG_DIR=str(world.config),
        FAKE_AGENT_ACP_SCENARIO=str(turn),
    )
    try:
        assert "result" in client.call("initialize", INIT)
        response = client.call("session/new", {"cwd": str(world.workspace), "mcpServers": []})
        session_id = response["result"]["sessionId"]
        request_id = prompt(client, session_id, "go")
        seen = []
        while (message := client.read()).get("id") != request_id:
            seen.append(message)
    finally:
        client.kill()
    errors = [
        m["params"]["update"]["rawOutput"]["error"]
        for m in seen
        if m.get("method") == "session/update" and "rawOutput" in m["params"]["update"]
    ]
    assert errors == ['MCP server "plug" is not configured']
    assert (world.asked("plug"), world.fired()) == ([], [])
