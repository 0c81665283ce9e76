"""A turn of the fake's ACP mode cancelled (docs/acp.md §3.7): ``session/cancel`` ends a
stalled turn, a flood of updates, or a pending permission request, a second prompt cancels
the first, and the session stays usable; a flood with its seconds ends by itself.
"""

from __future__ import annotations

import json
from pathlib import Path

from acp_client import Client, prompt, start, texts, updates


def test_cancel_ends_a_stalled_prompt_and_the_session_stays_usable(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:slow")
    while texts(updates([client.read()]), "agent_message_chunk") != "Working":
        pass
    client.notify("session/cancel", {"sessionId": session_id})
    seen, response = client.until_response(request_id)
    assert (seen, response["result"]) == ([], {"stopReason": "cancelled"})
    _, response = client.until_response(prompt(client, session_id, "hi"))
    assert response["result"] == {"stopReason": "end_turn"}


def test_flood_repeats_its_update_until_a_cancel_ends_the_turn(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:flood")
    assert texts(updates([client.read()]), "agent_thought_chunk") == "Here it comes."
    flood = updates([client.read() for _ in range(3000)])  # three of its writes at least
    assert texts(flood, "agent_message_chunk") == "x" * 3000
    client.notify("session/cancel", {"sessionId": session_id})
    seen, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "cancelled"}
    assert {u["content"]["text"] for u in updates(seen)} <= {"x"}  # "Flood over." never came
    _, response = client.until_response(prompt(client, session_id, "hi"))
    assert response["result"] == {"stopReason": "end_turn"}


def test_a_flood_ends_after_its_seconds_and_the_turn_goes_on(tmp_path: Path) -> None:
    update = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "x"}}
    steps = [
        {"fake": "flood", "seconds": 0.05, "update": update},
        {**update, "content": {"type": "text", "text": "after"}},
    ]
    scenario = tmp_path / "short_flood.ndjson"
    scenario.write_text("".join(json.dumps(step) + "\n" for step in steps))
    client = Client(FAKE_AGENT_ACP_SCENARIO=str(scenario))
    try:
        session_id = start(client)
        seen, response = client.until_response(prompt(client, session_id, "go"))
        said = [u["content"]["text"] for u in updates(seen)]
        assert response["result"] == {"stopReason": "end_turn"}
        assert said[-1] == "after"
        assert set(said[:-1]) == {"x"}  # the flood came, then the rest of the turn
    finally:
        client.kill()


def test_cancel_while_a_permission_request_is_pending(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:permission")
    while (message := client.read()).get("method") != "session/request_permission":
        pass
    client.notify("session/cancel", {"sessionId": session_id})
    _, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "cancelled"}
    client.send({"id": message["id"], "result": {"outcome": {"outcome": "cancelled"}}})
    assert client.call("session/list", {})["result"]["sessions"][0]["sessionId"] == session_id


def test_a_second_prompt_cancels_the_first(client: Client) -> None:
    session_id = start(client)
    first = prompt(client, session_id, "scenario:slow")
    while texts(updates([client.read()]), "agent_message_chunk") != "Working":
        pass
    second = prompt(client, session_id, "hi")
    _, response = client.until_response(first)
    assert response["result"] == {"stopReason": "cancelled"}
    _, response = client.until_response(second)
    assert response["result"] == {"stopReason": "end_turn"}
