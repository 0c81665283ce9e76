"""The fake's ACP sessions (docs/acp.md §3.4-§3.5, §3.8): a session's mode and model set
(and refused), the parameterized model picker's bare ids, ``session/load`` replaying the
history, unknown ids refused, sessions kept across processes, and ``session/list`` newest
first.
"""

from __future__ import annotations

import json
from pathlib import Path

from acp_client import INIT, Client, prompt, start, texts, updates

# --------------------------------------------------------------------------- modes, models


def test_set_mode_and_config_options(client: Client) -> None:
    session_id = start(client)
    seen, response = client.until_response(
        client.request("session/set_mode", {"sessionId": session_id, "modeId": "plan"})
    )
    assert response["result"] == {}
    assert updates(seen) == [{"sessionUpdate": "current_mode_update", "currentModeId": "plan"}]
    error = client.call("session/set_mode", {"sessionId": session_id, "modeId": "yolo"})["error"]
    assert error["code"] == -32603
    assert error["data"]["details"] == "Invalid mode ID: yolo. Valid modes: agent, plan, ask"
    model = "gpt-5.4[reasoning=medium,context=272k,fast=false]"
    params = {"sessionId": session_id, "configId": "model", "value": model}
    options = client.call("session/set_config_option", params)["result"]["configOptions"]
    assert [o["currentValue"] for o in options] == ["plan", model]
    params["value"] = "gpt-5.4"  # the other id space
    error = client.call("session/set_config_option", params)["error"]
    assert error == {
        "code": -32602,
        "message": error["message"],
        "data": {"message": "Invalid model value: gpt-5.4"},
    }
    result = client.call("session/set_model", {"sessionId": session_id, "modelId": "default[]"})
    assert result["result"] == {}


def test_parameterized_model_picker_selects_bare_ids(client: Client) -> None:
    caps = {"fs": {"readTextFile": False, "writeTextFile": False}, "terminal": False}
    caps["_meta"] = {"parameterizedModelPicker": True}
    client.call("initialize", {**INIT, "clientCapabilities": caps})
    result = client.call("session/new", {"cwd": "/tmp", "mcpServers": []})["result"]
    assert result["models"]["currentModelId"] == "default"


# --------------------------------------------------------------------------- load, list


def test_load_replays_history_before_the_result(client: Client) -> None:
    session_id = start(client, "/home/dev/shop")
    client.until_response(prompt(client, session_id, "hi there"))
    params = {"sessionId": session_id, "cwd": "/home/dev/shop", "mcpServers": []}
    seen, response = client.until_response(client.request("session/load", params))
    assert set(response["result"]) == {"modes", "models", "configOptions"}  # no sessionId
    got = updates(seen)
    assert [u["sessionUpdate"] for u in got] == [
        "user_message_chunk",
        "agent_thought_chunk",  # the turn's thought fragments, coalesced
        "agent_message_chunk",
        "agent_message_chunk",
    ]
    assert got[0]["content"]["text"] == "hi there"
    assert got[1]["content"]["text"] == "The user wants a greeting."


def test_load_of_an_unknown_or_never_prompted_id_fails(client: Client) -> None:
    session_id = start(client)
    for unknown in ("0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10", session_id):
        params = {"sessionId": unknown, "cwd": "/tmp", "mcpServers": []}
        error = client.call("session/load", params)["error"]
        assert error["code"] == -32602
        assert error["data"] == {"message": f'Session "{unknown}" not found'}
    assert client.call("session/list", {})["result"] == {"sessions": []}


def test_sessions_persist_across_processes(tmp_path: Path) -> None:
    first = Client(CURSOR_CONFIG_DIR=str(tmp_path))
    try:
        session_id = start(first, "/home/dev/shop")
        first.until_response(prompt(first, session_id, "hi"))
        assert first.close() == 0
    finally:
        first.kill()
    second = Client(CURSOR_CONFIG_DIR=str(tmp_path))
    try:
        second.call("initialize", INIT)
        listed = second.call("session/list", {"cwd": "/home/dev/shop"})["result"]["sessions"]
        assert [(s["sessionId"], s["title"]) for s in listed] == [(session_id, "Say Hello")]
        assert second.call("session/list", {"cwd": "/elsewhere"})["result"] == {"sessions": []}
        params = {"sessionId": session_id, "cwd": "/home/dev/shop", "mcpServers": []}
        seen, response = second.until_response(second.request("session/load", params))
        assert "result" in response
        assert texts(updates(seen), "agent_message_chunk") == "Hello! How can I help?"
    finally:
        second.kill()
    meta = json.loads((tmp_path / "acp-sessions" / session_id / "meta.json").read_text())
    assert meta == {"schemaVersion": 1, "cwd": "/home/dev/shop", "title": "Say Hello"}


def test_list_is_newest_first_even_within_one_second(client: Client) -> None:
    first = start(client, "/home/dev/a")
    second = start(client, "/home/dev/b")
    for session_id in (first, second):  # `second` was prompted last
        client.until_response(prompt(client, session_id, "hi"))
    listed = client.call("session/list", {})["result"]["sessions"]
    assert [s["sessionId"] for s in listed] == [second, first]
    stamps = [s["updatedAt"] for s in listed]
    assert stamps[0] > stamps[1]  # ISO 8601 with milliseconds: text order is time order
