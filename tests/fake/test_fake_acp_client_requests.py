"""What the fake's ACP mode asks the client in a turn (docs/acp.md §3.11, §4): a
permission request whose answer changes the outcome (none under ``--force``), and
Cursor's extension methods: a question and a plan awaited until answered (or refused),
a notification-style request not awaited.
"""

from __future__ import annotations

import pytest
from acp_client import INIT, Client, Message, prompt, start, texts, updates


@pytest.mark.parametrize(
    ("option", "ran"),
    [("allow-once", True), ("allow-always", True), ("reject-once", False), (None, False)],
)
def test_permission_answer_changes_the_outcome(
    client: Client, option: str | None, ran: bool
) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:permission run the tests")
    seen = []
    while (message := client.read()).get("method") != "session/request_permission":
        seen.append(message)
    assert message["id"] == 0  # the agent's own counter starts at 0
    params = message["params"]
    assert params["sessionId"] == session_id
    assert params["toolCall"]["status"] == "pending"
    assert [o["optionId"] for o in params["options"]] == [
        "allow-once",
        "allow-always",
        "reject-once",
    ]
    assert [o["kind"] for o in params["options"]] == ["allow_once", "allow_always", "reject_once"]
    assert updates(seen)[-1]["status"] == "in_progress"  # in_progress before the request
    outcome = (
        {"outcome": "cancelled"}
        if option is None
        else {
            "outcome": "selected",
            "optionId": option,
        }
    )
    client.send({"id": 0, "result": {"outcome": outcome}})
    after, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "end_turn"}
    final = [u for u in updates(after) if u["sessionUpdate"] == "tool_call_update"][-1]
    assert final["status"] == "completed"  # never "failed", even when rejected
    assert ("rawOutput" in final) is ran
    assert ("12 pass" in texts(updates(after), "agent_message_chunk")) is ran


def test_force_auto_approves_without_asking() -> None:
    fake = Client("--force")
    try:
        session_id = start(fake)
        seen, response = fake.until_response(prompt(fake, session_id, "scenario:permission"))
        assert response["result"]["stopReason"] == "end_turn"
        assert all(m.get("method") == "session/update" for m in seen)
        assert "12 pass" in texts(updates(seen), "agent_message_chunk")
    finally:
        fake.kill()


def _extension(client: Client, text: str, method: str, answer: Message) -> str:
    session_id = start(client)
    request_id = prompt(client, session_id, text)
    while (message := client.read()).get("method") != method:
        assert message["method"] == "session/update"
    assert isinstance(message["id"], int)
    assert "toolCallId" in message["params"]
    client.send({"id": message["id"], **answer})
    after, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "end_turn"}
    return texts(updates(after), "agent_message_chunk")


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ({"result": {"outcome": {"outcome": "answered", "answers": []}}}, "Thanks"),
        ({"result": {"outcome": {"outcome": "skipped"}}}, "skipped"),
        ({"result": {"outcome": "answered"}}, "User cancelled"),  # flat: read as cancel
    ],
)
def test_ask_question_waits_for_the_answer(client: Client, answer: Message, said: str) -> None:
    assert said in _extension(client, "scenario:ask_question", "cursor/ask_question", answer)


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ({"result": {"outcome": {"outcome": "accepted"}}}, "Plan accepted."),
        (
            {"result": {"outcome": {"outcome": "rejected", "reason": "no"}}},
            "Plan rejected; tell me what to change.",
        ),
        ({"error": {"code": -32601, "message": "Method not found"}}, ""),
    ],
)
def test_create_plan_waits_for_the_answer(client: Client, answer: Message, said: str) -> None:
    assert _extension(client, "scenario:create_plan", "cursor/create_plan", answer) == said


def test_refused_create_plan_leaves_the_turn_unchanged(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:create_plan")
    while (message := client.read()).get("method") != "cursor/create_plan":
        pass
    client.send({"id": message["id"], "error": {"code": -32601, "message": "Method not found"}})
    after, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "end_turn"}
    got = updates(after)
    assert got[0]["rawInput"] == {"_toolName": "createPlan"}
    assert [u["sessionUpdate"] for u in got[1:]] == ["plan", "tool_call_update"]


def test_notification_style_extension_request_is_not_awaited(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:todos")
    seen, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "end_turn"}
    assert seen[0]["method"] == "cursor/update_todos"
    assert seen[0]["id"] == 0
    client.send({"id": 0, "result": {}})  # a late answer is dropped
    assert "result" in client.call("initialize", INIT)
