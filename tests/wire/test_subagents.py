"""Subagents in print mode (docs/protocol.md §3.4b): a ``taskToolCall`` decodes into typed
arguments and result, its ToolCall says what the child was asked and what it answered,
and ``system``/``task_notification`` is an event of its own."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from agent_sdk import Subagent, SystemEvent, TaskNotification, ToolCall
from agent_sdk._wire.decode import LineDecoder
from agent_sdk._wire.stream import Stream
from agent_sdk.events import Event, ToolCallCompleted, ToolCallStarted, to_json
from agent_sdk.tools import TaskArgs, TaskSuccess

SESSION = "9d4b7e21-3c5a-4f80-b6e2-1a7c9e3d5f08"
ASKED = {
    "description": "Review the cart module",
    "prompt": "Read src/cart.py and list every rounding bug you find.",
    "subagentType": {"custom": {"name": "reviewer"}},
    "model": "composer-2",
    "agentId": "agent-asked-01",
    "mode": "TASK_MODE_UNSPECIFIED",
    "environment": "SUBAGENT_EXECUTION_ENVIRONMENT_UNSPECIFIED",
}


def answered(duration: Any = "5857", *, background: bool = False) -> dict[str, Any]:
    steps = [{"assistantMessage": {"text": "Two bugs: "}}, {"assistantMessage": {"text": "a, b."}}]
    return {
        "conversationSteps": steps,
        "agentId": "agent-real-02",
        "isBackground": background,
        "durationMs": duration,
    }


def line(subtype: str, body: dict[str, Any], call_id: str = "call_T1\nfc_01") -> bytes:
    event = {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": call_id,
        "tool_call": {"taskToolCall": body, "toolCallId": call_id, "startedAtMs": "1000"},
        "session_id": SESSION,
    }
    return json.dumps(event).encode()


def decode(data: bytes) -> Event | None:
    return LineDecoder(partial=False).decode(data)


def task_call(result: dict[str, Any] | None = None) -> ToolCall:
    started = decode(line("started", {"args": ASKED}))
    assert isinstance(started, ToolCallStarted)
    if result is None:
        return ToolCall(started.call_id, started)
    completed = decode(line("completed", {"args": ASKED, "result": result}))
    assert isinstance(completed, ToolCallCompleted)
    return ToolCall(started.call_id, started, completed)


# --- taskToolCall ----------------------------------------------------------------------
def test_task_arguments_decode_typed() -> None:
    args = task_call().args
    assert isinstance(args, TaskArgs)
    assert (args.description, args.prompt, args.model, args.agent_id) == (
        ASKED["description"],
        ASKED["prompt"],
        "composer-2",
        "agent-asked-01",
    )
    assert (args.mode, args.environment) == (ASKED["mode"], ASKED["environment"])


def test_a_custom_subagent_is_named_and_the_general_one_is_not() -> None:
    custom = msgspec.convert({"subagentType": {"custom": {"name": "reviewer"}}}, TaskArgs)
    general = msgspec.convert({"subagentType": {"unspecified": {}}}, TaskArgs)
    assert (custom.subagent_name, general.subagent_name, TaskArgs().subagent_name) == (
        "reviewer",
        None,
        None,
    )


@pytest.mark.parametrize("duration", ["5857", 5857], ids=["string", "number"])
def test_a_task_success_decodes_its_duration_as_a_number_either_way(duration: Any) -> None:
    result = task_call({"success": answered(duration)}).result
    assert isinstance(result, TaskSuccess)
    assert result.duration_ms == 5857


def test_a_duration_that_is_not_digits_is_none() -> None:
    assert TaskSuccess(_duration_ms="soon").duration_ms is None


def test_a_task_success_holds_the_childs_steps_id_and_text() -> None:
    result = task_call({"success": answered()}).result
    assert isinstance(result, TaskSuccess)
    assert len(result.conversation_steps) == 2
    assert (result.agent_id, result.is_background, result.text) == (
        "agent-real-02",
        False,
        "Two bugs: a, b.",
    )


def test_a_step_of_another_kind_decodes_without_a_message() -> None:
    result = task_call({"success": {"conversationSteps": [{"toolCall": {}}]}}).result
    assert isinstance(result, TaskSuccess)
    assert result.conversation_steps[0].assistant_message is None
    assert result.text == ""


# --- the ToolCall of a subagent ----------------------------------------------------------
def test_a_finished_subagent_says_what_it_was_asked_and_what_it_answered() -> None:
    subagent = task_call({"success": answered()}).subagent
    assert subagent is not None
    assert (subagent.description, subagent.prompt, subagent.answer) == (
        ASKED["description"],
        ASKED["prompt"],
        "Two bugs: a, b.",
    )
    assert (subagent.name, subagent.model, subagent.duration_ms) == ("reviewer", "composer-2", 5857)


def test_a_finished_subagent_has_the_childs_real_id() -> None:
    subagent = task_call({"success": answered()}).subagent
    assert subagent is not None
    assert subagent.agent_id == "agent-real-02"


def test_a_running_subagent_has_the_asked_id_and_no_answer_yet() -> None:
    subagent = task_call().subagent
    assert subagent is not None
    assert (subagent.agent_id, subagent.answer, subagent.is_background) == (
        "agent-asked-01",
        None,
        None,
    )


def test_a_background_subagent_has_no_answer_on_its_call() -> None:
    subagent = task_call({"success": answered(130, background=True)}).subagent
    assert subagent is not None
    assert (subagent.is_background, subagent.answer, subagent.duration_ms) == (True, None, 130)


def test_a_subagent_that_did_not_succeed_has_no_answer() -> None:
    call = task_call({"error": {"message": "subagent crashed"}})
    assert call.status == "failed"
    assert call.subagent is not None
    assert call.subagent.answer is None


def test_another_kind_of_call_is_no_subagent() -> None:
    started = decode(
        json.dumps(
            {
                "type": "tool_call",
                "subtype": "started",
                "call_id": "c2",
                "tool_call": {"readToolCall": {"args": {"path": "a.py"}}},
            }
        ).encode()
    )
    assert isinstance(started, ToolCallStarted)
    assert ToolCall("c2", started).subagent is None


def test_a_subagent_is_its_calls() -> None:
    call = task_call({"success": answered()})
    assert Subagent.of(call) == call.subagent
    assert call.subagent is not None
    assert call.subagent.call == call


# --- system/task_notification ---------------------------------------------------------------
NOTIFICATION = {
    "type": "system",
    "subtype": "task_notification",
    "task_id": "agent-real-02",
    "status": "success",
    "title": "Review the cart module",
    "detail": "Two bugs: a, b.",
    "session_id": SESSION,
    "timestamp_ms": 1791720000500,
}


def test_a_task_notification_is_an_event_of_its_own() -> None:
    event = decode(json.dumps(NOTIFICATION).encode())
    assert isinstance(event, TaskNotification)
    assert (event.task_id, event.status, event.title, event.detail) == (
        "agent-real-02",
        "success",
        "Review the cart module",
        "Two bugs: a, b.",
    )
    assert (event.session_id, event.timestamp_ms) == (SESSION, 1791720000500)


def test_a_task_notification_is_still_a_system_event_keeping_its_line() -> None:
    event = decode(json.dumps({**NOTIFICATION, "x_new": 1}).encode())
    assert isinstance(event, SystemEvent)
    assert (event.subtype, event.raw["x_new"]) == ("task_notification", 1)


def test_a_task_notification_field_that_is_not_a_string_is_none() -> None:
    event = decode(json.dumps({**NOTIFICATION, "status": 3, "detail": None}).encode())
    assert isinstance(event, TaskNotification)
    assert (event.status, event.detail, event.title) == (None, None, "Review the cart module")


def test_another_system_subtype_stays_a_plain_system_event() -> None:
    event = decode(json.dumps({**NOTIFICATION, "subtype": "background_shell_timeout"}).encode())
    assert type(event) is SystemEvent


def test_a_task_notification_among_other_events_of_a_block_decodes() -> None:
    say = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
    }
    data = b"\n".join(json.dumps(e).encode() for e in (say, NOTIFICATION, say)) + b"\n"
    events = Stream(keep_events=True).feed(data)
    assert [type(e).__name__ for e in events] == [
        "AssistantEvent",
        "TaskNotification",
        "AssistantEvent",
    ]


def test_a_task_notification_encodes_its_fields() -> None:
    event = decode(json.dumps(NOTIFICATION).encode())
    assert event is not None
    encoded = json.loads(to_json(event))
    assert (encoded["type"], encoded["subtype"], encoded["detail"]) == (
        "system",
        "task_notification",
        "Two bugs: a, b.",
    )
