"""An MCP call in the fake's print mode as the contract says the CLI makes it
(docs/protocol.md §3.4, §7; fake_agent/scenarios/README.md "MCP servers"): the ``mcp_call``
directive's ``mcpToolCall`` events and outcomes (a tool's error, a JSON-RPC error, an
unknown tool or server), the real MCP conversation with the server (as Cursor, one server
for every call, in the workspace, noise from the server survived), and the
``custom_tools`` scenario against agent_sdk's own tools.
"""

from __future__ import annotations

import json
import subprocess
import sys

from mcp_place import (
    WAIT,
    Place,
    call,
    echoed,
    events,
    outcome,
    place_fixture,  # noqa: F401  (the fixture ``place``)
    tools_entry,
)

# ----------------------------------------------------------------------------- the stream


def test_mcp_call_starts_an_mcp_tool_call_with_the_contracts_args(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    proc = place.run(call(q="cart"))
    started = next(e for e in events(proc) if e.get("subtype") == "started")
    args = {"name": "echo-echo", "args": {"q": "cart"}, "toolName": "echo"}
    assert started["tool_call"]["mcpToolCall"] == {"args": {**args, "providerIdentifier": "echo"}}
    assert started["call_id"] == started["tool_call"]["toolCallId"] == "m1"


def test_mcp_call_completes_with_the_servers_text_as_content_text_text(place: Place) -> None:
    place.servers(place.home, tools=tools_entry())
    proc = place.run(call("add", "tools", a=2, b=5))
    assert outcome(proc) == {"success": {"content": [{"text": {"text": "7"}}], "isError": False}}


def test_a_tool_error_completes_as_success_with_is_error(place: Place) -> None:
    place.servers(place.home, tools=tools_entry())
    proc = place.run(call("fail", "tools", reason="no tracker"))
    success = outcome(proc)["success"]
    assert success["isError"] is True
    assert "no tracker" in success["content"][0]["text"]["text"]


def test_a_json_rpc_error_answer_is_an_error_outcome_with_the_clis_words(place: Place) -> None:
    place.servers(place.home, echo=place.echo("error"))
    proc = place.run(call())
    assert outcome(proc) == {"error": {"message": "MCP error -32000: echo is broken"}}


def test_a_tool_the_server_does_not_list_is_an_error_outcome(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    proc = place.run(call("missing"))
    assert outcome(proc) == {"error": {"message": 'MCP tool "missing" not found on server "echo"'}}


def test_a_server_nobody_configured_is_an_error_outcome_and_the_run_goes_on(place: Place) -> None:
    proc = place.run(call(server="nowhere"))
    assert outcome(proc) == {"error": {"message": 'MCP server "nowhere" is not configured'}}
    assert events(proc)[-1]["type"] == "result"
    assert proc.returncode == 0


# ----------------------------------------------------------------------------- the conversation


def test_the_fake_initializes_as_cursor_with_mcp_2025_11_25(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    said = echoed(place.run(call()))
    assert said["initialize"]["protocolVersion"] == "2025-11-25"
    assert said["initialize"]["clientInfo"] == {"name": "Cursor", "version": "1.0.0"}


def test_the_fake_sends_initialized_then_lists_then_calls(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    said = echoed(place.run(call()))
    assert said["seen"] == ["initialize", "notifications/initialized", "tools/list", "tools/call"]


def test_the_tool_gets_the_scenarios_arguments(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    said = echoed(place.run(call(number=26, labels=["a", "é"])))
    assert said["arguments"] == {"number": 26, "labels": ["a", "é"]}


def test_one_server_serves_every_call_of_the_run(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    proc = place.run(call(n=1), call(n=2))
    done = [e for e in events(proc) if e.get("subtype") == "completed"]
    blocks = [e["tool_call"]["mcpToolCall"]["result"]["success"]["content"] for e in done]
    texts = [json.loads(block[0]["text"]["text"]) for block in blocks]
    assert [t["seen"].count("initialize") for t in texts] == [1, 1]
    assert texts[1]["seen"][-2:] == ["tools/call", "tools/call"]


def test_the_server_runs_in_the_workspace(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    assert echoed(place.run(call()))["cwd"] == str(place.workspace)


# ----------------------------------------------------------------------------- hostile input


def test_garbage_notifications_and_pings_from_the_server_do_not_stop_the_call(
    place: Place,
) -> None:
    place.servers(place.home, echo=place.echo("noisy"))
    said = echoed(place.run(call()))
    assert said["seen"][-2:] == ["answer", "tools/call"]  # the ping was answered


def test_custom_tools_calls_two_tools_of_agent_sdk_one_failing(place: Place) -> None:
    place.servers(place.home, agent_sdk=tools_entry())
    argv = ["-p", "--force", "--output-format", "stream-json", "--workspace", str(place.workspace)]
    proc = subprocess.run(
        [sys.executable, "-m", "fake_agent", *argv, "go"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=place.env("custom_tools"),
        timeout=WAIT,
        check=False,
    )
    done = [e for e in events(proc) if e.get("subtype") == "completed"]
    results = [e["tool_call"]["mcpToolCall"]["result"]["success"] for e in done]
    assert [r["isError"] for r in results] == [False, True]
    assert json.loads(results[0]["content"][0]["text"]["text"])["number"] == 26
    assert events(proc)[-1]["subtype"] == "success"
