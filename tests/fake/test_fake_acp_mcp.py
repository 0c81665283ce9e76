"""MCP servers in the fake's ACP mode (docs/acp.md §3.3, §3.10, §3.11, §5.2 item 2;
fake_agent/scenarios/acp/README.md "MCP servers"): ``mcpServers`` stdio entries connected
during ``session/new`` / ``session/load``, and the ``mcp_call`` step as a permission-gated
``other`` tool call."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from acp_client import INIT, Client, Message, prompt, updates
from fake_env import ROOT
from proctable import is_running, settles

ECHO = str(Path(__file__).with_name("mcp_echo_server.py"))
TOOLS = str(ROOT / "tests" / "extend" / "tools_server.py")


class World:
    """A tmp HOME, config dir and workspace; the echo server's pid file; the fake."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.workspace = root / "ws"
        self.workspace.mkdir()
        (root / "home").mkdir()
        (root / "config").mkdir()
        self.pid_file = root / "server.pid"
        self.client: Client | None = None

    def start(self, *flags: str, scenario: str | Path = "hello") -> Client:
        self.client = Client(
            *flags,
            HOME=str(self.root / "home"),
            CURSOR_CONFIG_DIR=str(self.root / "config"),
            FAKE_AGENT_ACP_SCENARIO=str(scenario),
        )
        assert "result" in self.client.call("initialize", INIT)
        return self.client

    def echo(self, *argv: str, name: str = "echo", **env: str) -> Message:
        """A stdio ``mcpServers`` entry for the echo server."""
        pairs = [{"name": k, "value": v} for k, v in env.items()]
        return {
            "name": name,
            "command": sys.executable,
            "args": [ECHO, str(self.pid_file), *argv],
            "env": pairs,
        }

    def scenario(self, *steps: Message) -> Path:
        path = self.root / "turn.ndjson"
        path.write_text("".join(json.dumps(step) + "\n" for step in steps), "utf-8")
        return path

    def allow(self, *tokens: str) -> None:
        config = {"version": 1, "permissions": {"allow": list(tokens)}}
        (self.root / "config" / "cli-config.json").write_text(json.dumps(config), "utf-8")

    def server_pid(self) -> int:
        return int(self.pid_file.read_text().split()[0])


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    world = World(tmp_path)
    yield world
    if world.client is not None:
        world.client.kill()
    if world.pid_file.exists() and is_running(world.server_pid()):
        os.kill(world.server_pid(), signal.SIGKILL)


def new_session(client: Client, cwd: Path, *servers: Message) -> str:
    response = client.call("session/new", {"cwd": str(cwd), "mcpServers": list(servers)})
    client.read()  # the command list
    return str(response["result"]["sessionId"])


def call(tool: str = "echo", server: str = "echo", **args: Any) -> Message:
    return {"fake": "mcp_call", "server": server, "tool": tool, "args": args, "toolCallId": "t1"}


def turn(client: Client, session_id: str, answer: str | None = "allow-once") -> list[Message]:
    """Play a prompt to its end; answer each permission request with ``answer`` (None:
    expect none). Every message before the prompt's response."""
    request_id = prompt(client, session_id, "go")
    seen: list[Message] = []
    while True:
        message = client.read()
        if message.get("id") == request_id and "method" not in message:
            return seen
        seen.append(message)
        if message.get("method") == "session/request_permission":
            assert answer is not None, "a permission request was not expected"
            outcome = {"outcome": "selected", "optionId": answer}
            client.send({"id": message["id"], "result": {"outcome": outcome}})


def requests(seen: list[Message]) -> list[Message]:
    return [m for m in seen if m.get("method") == "session/request_permission"]


def finished(seen: list[Message]) -> Message:
    """The ``tool_call_update`` that completed the MCP call."""
    done = [
        u
        for u in updates([m for m in seen if m.get("method") == "session/update"])
        if u.get("status") == "completed"
    ]
    assert len(done) == 1
    return done[0]


def said(update: Message) -> dict[str, Any]:
    echoed: dict[str, Any] = json.loads(update["content"][0]["content"]["text"])
    return echoed


# ----------------------------------------------------------------------------- connecting


def test_session_new_starts_the_stdio_servers_during_the_call(world: World) -> None:
    client = world.start()
    new_session(client, world.workspace, world.echo())
    assert is_running(world.server_pid())


def test_the_server_is_initialized_as_cursor_then_listed_before_any_call(world: World) -> None:
    client = world.start(scenario=world.scenario(call()))
    session_id = new_session(client, world.workspace, world.echo())
    echoed = said(finished(turn(client, session_id)))
    assert echoed["initialize"]["clientInfo"] == {"name": "Cursor", "version": "1.0.0"}
    assert echoed["initialize"]["protocolVersion"] == "2025-11-25"
    assert echoed["seen"] == ["initialize", "notifications/initialized", "tools/list", "tools/call"]


def test_the_entrys_env_pairs_reach_the_server(world: World) -> None:
    client = world.start(scenario=world.scenario(call()))
    session_id = new_session(client, world.workspace, world.echo(ECHO_VALUE="from-acp"))
    assert said(finished(turn(client, session_id)))["value"] == "from-acp"


def test_session_load_connects_the_loads_servers(world: World) -> None:
    client = world.start(scenario=world.scenario(call()))
    session_id = new_session(client, world.workspace)
    turn(client, session_id)  # prompted: now it can be loaded
    params = {"sessionId": session_id, "cwd": str(world.workspace), "mcpServers": [world.echo()]}
    client.until_response(client.request("session/load", params))
    assert is_running(world.server_pid())
    assert "content" in finished(turn(client, session_id))


def test_session_load_ends_the_servers_of_the_earlier_call(world: World) -> None:
    client = world.start()
    session_id = new_session(client, world.workspace, world.echo())
    first = world.server_pid()
    turn(client, session_id)  # prompted (hello): now it can be loaded
    params = {"sessionId": session_id, "cwd": str(world.workspace), "mcpServers": []}
    client.until_response(client.request("session/load", params))
    assert world.pid_file.read_text().split()[1:] == ["ended"]
    assert settles(lambda: not is_running(first))


def test_the_servers_end_when_the_process_ends(world: World) -> None:
    client = world.start()
    new_session(client, world.workspace, world.echo())
    assert client.close() == 0
    assert world.pid_file.read_text().split()[1:] == ["ended"]
    assert settles(lambda: not is_running(world.server_pid()))


# ----------------------------------------------------------------------------- the tool call


def test_mcp_call_is_an_other_tool_call_titled_server_tool_colon_tool(world: World) -> None:
    client = world.start(scenario=world.scenario(call()))
    session_id = new_session(client, world.workspace, world.echo())
    first = updates([turn(client, session_id)[0]])[0]
    assert first == {
        "sessionUpdate": "tool_call",
        "toolCallId": "t1",
        "title": "echo-echo: echo",
        "kind": "other",
        "status": "pending",
        "rawInput": {},
    }


def test_the_permission_request_shows_the_arguments_as_a_fenced_json_block(world: World) -> None:
    client = world.start(scenario=world.scenario(call(number=26)))
    session_id = new_session(client, world.workspace, world.echo())
    (request,) = requests(turn(client, session_id))
    tool_call = request["params"]["toolCall"]
    assert (tool_call["title"], tool_call["kind"], tool_call["status"]) == (
        "echo-echo: echo",
        "other",
        "pending",
    )
    text = tool_call["content"][0]["content"]["text"]
    assert text == '```json\n{\n  "number": 26\n}\n```'
    assert [o["optionId"] for o in request["params"]["options"]] == [
        "allow-once",
        "allow-always",
        "reject-once",
    ]


def test_allowed_the_call_completes_with_the_tools_text(world: World) -> None:
    client = world.start(scenario=world.scenario(call(number=26)))
    session_id = new_session(client, world.workspace, world.echo())
    assert said(finished(turn(client, session_id)))["arguments"] == {"number": 26}


def test_rejected_the_call_completes_with_raw_output_rejected(world: World) -> None:
    client = world.start(scenario=world.scenario(call()))
    session_id = new_session(client, world.workspace, world.echo())
    done = finished(turn(client, session_id, answer="reject-once"))
    assert done == {
        "sessionUpdate": "tool_call_update",
        "toolCallId": "t1",
        "status": "completed",
        "rawOutput": {"rejected": True},
    }


def test_with_force_the_call_runs_without_a_request(world: World) -> None:
    client = world.start("--force", scenario=world.scenario(call()))
    session_id = new_session(client, world.workspace, world.echo())
    assert "content" in finished(turn(client, session_id, answer=None))


def test_an_mcp_allow_rule_runs_the_call_without_a_request(world: World) -> None:
    world.allow("Mcp(echo:*)")
    client = world.start(scenario=world.scenario(call()))
    session_id = new_session(client, world.workspace, world.echo())
    assert "content" in finished(turn(client, session_id, answer=None))


def test_a_server_the_session_lacks_completes_with_an_error_and_no_request(world: World) -> None:
    client = world.start(scenario=world.scenario(call(server="nowhere")))
    session_id = new_session(client, world.workspace)
    done = finished(turn(client, session_id, answer=None))
    assert done["rawOutput"] == {"error": 'MCP server "nowhere" is not configured'}


def test_an_error_answer_completes_with_raw_output_error(world: World) -> None:
    client = world.start(scenario=world.scenario(call()))
    session_id = new_session(client, world.workspace, world.echo("error"))
    done = finished(turn(client, session_id))
    assert done["rawOutput"] == {"error": "MCP error -32000: echo is broken"}


def test_an_mcp_call_step_without_a_tool_is_refused_when_the_turn_loads(world: World) -> None:
    client = world.start(scenario=world.scenario({"fake": "mcp_call", "server": "echo"}))
    session_id = new_session(client, world.workspace)
    _, response = client.until_response(prompt(client, session_id, "go"))
    assert "needs a non-empty string 'server' and 'tool'" in response["error"]["data"]["details"]


def test_custom_tools_calls_lookup_issue_then_a_failing_tool(world: World) -> None:
    client = world.start(scenario="custom_tools")
    env = [
        {"name": "TOOLS_SERVER_SECRET", "value": "s3cret"},
        {"name": "PYTHONPATH", "value": str(ROOT)},
    ]
    entry = {"name": "agent_sdk", "command": sys.executable, "args": [TOOLS, "asyncio"], "env": env}
    session_id = new_session(client, world.workspace, entry)
    seen = turn(client, session_id)
    assert [r["params"]["toolCall"]["title"] for r in requests(seen)] == [
        "agent_sdk-lookup_issue: lookup_issue",
        "agent_sdk-fail: fail",
    ]
    done = [
        u
        for u in updates([m for m in seen if "method" in m and m["method"] == "session/update"])
        if u.get("status") == "completed"
    ]
    texts = [u["content"][0]["content"]["text"] for u in done]
    assert json.loads(texts[0])["number"] == 26
    assert "the tracker is down" in texts[1]


def test_stdio_entries_of_odd_shapes_are_connected_or_skipped_without_harm(world: World) -> None:
    odd = {**world.echo(), "env": "not a list", "args": [ECHO, str(world.pid_file), 7]}
    nameless = {"command": sys.executable, "args": [ECHO, str(world.root / "other.pid")]}
    client = world.start(scenario=world.scenario(call()))
    session_id = new_session(client, world.workspace, odd, nameless)
    assert said(finished(turn(client, session_id)))["argv"] == ["7"]
    assert not (world.root / "other.pid").exists()
