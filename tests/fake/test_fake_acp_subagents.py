"""Subagents in the fake's ACP mode (docs/acp.md §3.13, §4): offered only for the
``_meta`` placement, a subagent streaming on its own session between its spawn and its
end, its real (or pinned) duration, what comes without the capability, and a background
subagent waited for, or cancelled.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from acp_client import INIT, Client, Message, prompt, start, texts, updates

# ------------------------------------------------------------------ subagents (§3.13, §4)

SUBAGENTS_INIT: Message = {
    **INIT,
    "clientCapabilities": {**INIT["clientCapabilities"], "_meta": {"subagents": True}},
}


def start_with_subagents(client: Client) -> str:
    result = client.call("initialize", SUBAGENTS_INIT)["result"]
    assert result["agentCapabilities"]["sessionCapabilities"]["subagents"] == {}
    response = client.call("session/new", {"cwd": "/home/dev/shop", "mcpServers": []})
    client.read()  # the command list
    return str(response["result"]["sessionId"])


def test_subagents_are_offered_only_for_the_meta_placement(client: Client) -> None:
    plain = {**INIT, "clientCapabilities": {**INIT["clientCapabilities"], "subagents": True}}
    caps = client.call("initialize", plain)["result"]["agentCapabilities"]
    assert "subagents" not in caps["sessionCapabilities"]  # dropped by the CLI's schema
    caps = client.call("initialize", SUBAGENTS_INIT)["result"]["agentCapabilities"]
    assert caps["sessionCapabilities"]["subagents"] == {}


def on(seen: list[Message], session_id: str) -> list[Message]:
    """The updates of ``session_id`` among ``seen``."""
    notes = [m for m in seen if m.get("method") == "session/update"]
    return [m["params"]["update"] for m in notes if m["params"]["sessionId"] == session_id]


def of_kind(items: list[Message], kind: str) -> list[Message]:
    return [u for u in items if u["sessionUpdate"] == kind]


def test_a_subagent_streams_on_its_own_session_between_spawn_and_end(client: Client) -> None:
    parent = start_with_subagents(client)
    seen, response = client.until_response(prompt(client, parent, "scenario:subagent"))
    assert response["result"] == {"stopReason": "end_turn"}
    own = on(seen, parent)
    [call] = of_kind(own, "tool_call")
    assert call["title"] == "Task: Explore the repository"
    assert call["rawInput"]["_toolName"] == "task"
    [spawned] = of_kind(own, "subagent_spawned")
    child = spawned["subagentSessionId"]
    assert spawned["_meta"]["cursor"] == {
        "toolCallId": call["toolCallId"],
        "agentId": child,
        "model": "gpt-5.4-mini-medium",
    }
    said = texts(on(seen, child), "agent_message_chunk")
    assert said == "Three files: cart.py, test_cart.py, README.md."
    assert texts(own, "agent_message_chunk") == "Delegating. The repository has three files."
    assert of_kind(own, "subagent_state_update") == [
        {"sessionUpdate": "subagent_state_update", "state": "completed"}
    ]
    assert own.index(spawned) < own.index(of_kind(own, "subagent_state_update")[0])
    [task] = [m for m in seen if m.get("method") == "cursor/task"]
    assert isinstance(task["id"], int)  # a request with an id (§4)
    assert task["params"]["toolCallId"] == call["toolCallId"]
    assert task["params"]["agentId"] != child


def task_durations(seen: list[Message], parent: str) -> tuple[int, int]:
    """The ``durationMs`` of the Task call's completion and of its ``cursor/task``."""
    updates = of_kind(on(seen, parent), "tool_call_update")
    [done] = [u for u in updates if u["status"] == "completed"]
    [task] = [m for m in seen if m.get("method") == "cursor/task"]
    return done["rawOutput"]["durationMs"], task["params"]["durationMs"]


@pytest.mark.parametrize("scenario", ["subagent", "subagent_background"])
def test_a_subagents_duration_is_the_time_it_really_took(client: Client, scenario: str) -> None:
    # Issue 35: the fake said 4200 ms (130 in the background) whatever the time was.
    parent = start_with_subagents(client)
    began = time.monotonic()
    seen, _ = client.until_response(prompt(client, parent, f"scenario:{scenario}"))
    took = int((time.monotonic() - began) * 1000) + 1
    call, task = task_durations(seen, parent)
    assert 0 <= call <= took
    assert task == call


def test_a_subagents_duration_given_in_its_step_is_pinned(tmp_path: Path) -> None:
    path = tmp_path / "pinned.ndjson"
    step = {"fake": "subagent", "description": "Review", "durationMs": 5857, "steps": []}
    path.write_text(json.dumps(step) + "\n", encoding="utf-8")
    client = Client(FAKE_AGENT_ACP_SCENARIO=str(path))
    try:
        parent = start_with_subagents(client)
        seen, _ = client.until_response(prompt(client, parent, "review"))
    finally:
        client.kill()
    assert task_durations(seen, parent) == (5857, 5857)


def test_without_the_capability_only_the_task_call_and_cursor_task_come(client: Client) -> None:
    parent = start(client)
    seen, response = client.until_response(prompt(client, parent, "scenario:subagent"))
    assert response["result"] == {"stopReason": "end_turn"}
    own = on(seen, parent)
    assert len(own) == len([m for m in seen if m.get("method") == "session/update"])
    assert not of_kind(own, "subagent_spawned")
    assert not of_kind(own, "subagent_state_update")
    assert [m["method"] for m in seen if "id" in m] == ["cursor/task"]


def test_a_prompt_waits_for_its_background_subagent_then_follows_up(client: Client) -> None:
    parent = start_with_subagents(client)
    seen, response = client.until_response(prompt(client, parent, "scenario:subagent_background"))
    assert response["result"] == {"stopReason": "end_turn"}
    own = on(seen, parent)
    [done] = [u for u in of_kind(own, "tool_call_update") if u["status"] == "completed"]
    assert done["rawOutput"]["isBackground"] is True
    [spawned] = of_kind(own, "subagent_spawned")
    assert texts(on(seen, spawned["subagentSessionId"]), "agent_message_chunk") == (
        "All 12 tests pass."
    )
    [ended] = of_kind(own, "subagent_state_update")
    follow_up = of_kind(own[own.index(ended) :], "agent_message_chunk")
    assert follow_up[-1]["content"]["text"] == " The background check says all 12 pass."


def test_cancel_ends_a_background_subagent_that_never_finishes(client: Client) -> None:
    parent = start_with_subagents(client)
    request_id = prompt(client, parent, "scenario:subagent_stuck")
    waiting = {"Watching.", " It runs in the background."}  # the child stalls after its own
    while waiting:
        content = client.read().get("params", {}).get("update", {}).get("content", {})
        waiting.discard(content.get("text"))
    client.notify("session/cancel", {"sessionId": parent})
    seen, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "cancelled"}
    assert updates([m for m in seen if m.get("method") == "session/update"]) == [
        {"sessionUpdate": "subagent_state_update", "state": "cancelled"}
    ]
