"""A prompt turn of the fake's ACP mode (docs/acp.md §3.6, §3.9-§3.10): the updates it
streams then the turn's end, an empty prompt, an unknown session, the tools scenario's tool
calls and their upserts, the scenario chosen by the environment, a crash mid-turn, and
updates of kinds a client does not know (a broken line among them).
"""

from __future__ import annotations

import json

from acp_client import READ_TIMEOUT, Client, prompt, start, texts, updates

# --------------------------------------------------------------------------- prompts


def test_hello_prompt_streams_then_ends_turn(client: Client) -> None:
    session_id = start(client)
    seen, response = client.until_response(prompt(client, session_id, "hi"))
    assert response["result"] == {"stopReason": "end_turn"}
    assert all(m["params"]["sessionId"] == session_id for m in seen)
    got = updates(seen)
    assert texts(got, "agent_message_chunk") == "Hello! How can I help?"
    assert texts(got, "agent_thought_chunk") == "The user wants a greeting."
    assert "user_message_chunk" not in {u["sessionUpdate"] for u in got}  # never echoed live


def test_empty_prompt_ends_at_once(client: Client) -> None:
    session_id = start(client)
    seen, response = client.until_response(prompt(client, session_id, ""))
    assert (seen, response["result"]) == ([], {"stopReason": "end_turn"})


def test_prompt_to_unknown_session(client: Client) -> None:
    start(client)
    _, response = client.until_response(prompt(client, "nope", "hi"))
    assert response["error"]["code"] == -32603
    assert response["error"]["data"] == {"details": "Session nope not found"}


def test_tools_scenario_tool_call_shapes(client: Client) -> None:
    session_id = start(client)
    seen, response = client.until_response(prompt(client, session_id, "scenario:tools go"))
    assert response["result"]["stopReason"] == "end_turn"
    got = updates(seen)
    calls = [u for u in got if u["sessionUpdate"] == "tool_call"]
    assert {c["kind"] for c in calls} == {"read", "search", "edit", "execute"}
    assert all("\nfc_" in c["toolCallId"] for c in calls)
    shell = [u for u in got if u.get("rawOutput", {}).get("exitCode") == 0]
    assert shell[0]["status"] == "completed"


def test_scenario_from_the_environment_and_unknown_names() -> None:
    fake = Client(FAKE_AGENT_ACP_SCENARIO="backend_error")
    try:
        session_id = start(fake)
        seen, response = fake.until_response(prompt(fake, session_id, "scenario:tools"))
        assert response["result"] == {"stopReason": "end_turn"}
        assert "Error: T: [unavailable]" in texts(updates(seen), "agent_message_chunk")
    finally:
        fake.kill()
    fake = Client(FAKE_AGENT_ACP_SCENARIO="no_such_one")
    try:
        session_id = start(fake)
        _, response = fake.until_response(prompt(fake, session_id, "hi"))
        assert response["error"]["code"] == -32603
        assert "no ACP scenario named 'no_such_one'" in response["error"]["data"]["details"]
    finally:
        fake.kill()


def test_upsert_scenario_resends_the_tool_call_with_its_real_input(client: Client) -> None:
    session_id = start(client)
    seen, response = client.until_response(prompt(client, session_id, "scenario:upsert"))
    assert response["result"] == {"stopReason": "end_turn"}
    calls = [u for u in updates(seen) if u["sessionUpdate"] == "tool_call"]
    assert [c["title"] for c in calls] == ["Terminal", "`make test`"]
    assert calls[0]["toolCallId"] == calls[1]["toolCallId"]  # the same id: upsert (§3.10)
    assert [c["rawInput"] for c in calls] == [{}, {"command": "make test"}]


def test_crash_scenario_dies_mid_turn_without_answering(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:crash")
    update = client.read()
    assert update["params"]["update"]["content"]["text"] == "Starting"
    assert client.proc.wait(timeout=READ_TIMEOUT) == 3
    assert client.lines.get(timeout=READ_TIMEOUT) == b""  # stdout closed: no response...
    assert request_id  # ...to this prompt, ever


def test_unknown_updates_scenario_sends_odd_kinds_and_a_broken_line(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:unknown_updates")
    kinds: list[str] = []
    while True:
        line = client.lines.get(timeout=READ_TIMEOUT)
        assert line, "the fake closed stdout"
        try:
            message = json.loads(line)
        except ValueError:
            kinds.append("<broken>")
            continue
        if message.get("id") == request_id:
            assert message["result"] == {"stopReason": "end_turn"}
            break
        kinds.append(message["params"]["update"]["sessionUpdate"])
    assert kinds == [
        "usage_update",
        "config_option_update",
        "future_kind",
        "current_mode_update",
        "<broken>",
        "agent_message_chunk",
    ]
