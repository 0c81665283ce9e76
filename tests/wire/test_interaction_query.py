"""``interaction_query`` lines (docs/protocol.md §3.6b): typed request and response events,
a plan's typed arguments, other query types kept generic, pairing by id, the fast path."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from recorded_runs import CAPTURES, require_recorded_runs

from agent_sdk._wire.decode import LineDecoder
from agent_sdk._wire.stream import Stream
from agent_sdk.events import (
    AssistantEvent,
    CreatePlanRequest,
    CreatePlanResponse,
    Event,
    InteractionRequest,
    InteractionResponse,
    ResultEvent,
    UnknownEvent,
    to_json,
)
from agent_sdk.tools import CreatePlanArgs, PlanTodo

TODO = {
    "id": "list-rules",
    "content": "List the rounding rules",
    "status": "TODO_STATUS_PENDING",
    "createdAt": "1800000000100",
    "updatedAt": "1800000000100",
    "dependencies": [],
}
PLAN_ARGS = {
    "plan": "# Totals\n\n1. List the rules.\n",
    "todos": [TODO],
    "overview": "List the rounding rules, then test them.",
    "name": "Cart totals",
    "isProject": False,
    "phases": [],
}


def line(**event: Any) -> bytes:
    return json.dumps(event).encode()


def plan_request(*, query_id: Any = 7, args: Any = None, **extra: Any) -> bytes:
    return line(
        type="interaction_query",
        subtype="request",
        query_type="createPlanRequestQuery",
        query={
            "id": query_id,
            "createPlanRequestQuery": {
                "args": PLAN_ARGS if args is None else args,
                "toolCallId": "tool_plan-1",
            },
        },
        session_id="s1",
        timestamp_ms=1800000000200,
        **extra,
    )


def plan_response(*, query_id: Any = 7) -> bytes:
    return line(
        type="interaction_query",
        subtype="response",
        query_type="createPlanRequestQuery",
        response={
            "id": query_id,
            "createPlanRequestResponse": {"result": {"success": {}, "planUri": ""}},
        },
        session_id="s1",
        timestamp_ms=1800000000260,
    )


def shell_request(*, query_id: Any = 2) -> bytes:
    return line(
        type="interaction_query",
        subtype="request",
        query_type="shellRequestQuery",
        query={"id": query_id, "shellRequestQuery": {"command": "rm -rf build", "cwd": "/w"}},
        session_id="s1",
        timestamp_ms=1800000000300,
    )


def shell_response(*, query_id: Any = 2) -> bytes:
    return line(
        type="interaction_query",
        subtype="response",
        query_type="shellRequestQuery",
        response={
            "id": query_id,
            "shellRequestResponse": {"result": {"rejected": {"reason": "User Rejected"}}},
        },
        session_id="s1",
        timestamp_ms=1800000000310,
    )


def say(text: str) -> bytes:
    return line(
        type="assistant",
        message={"role": "assistant", "content": [{"type": "text", "text": text}]},
        session_id="s1",
    )


def block(*lines: bytes) -> bytes:
    return b"".join(item + b"\n" for item in lines)


def decode(data: bytes) -> Event | None:
    return LineDecoder(partial=False).decode(data)


def streamed(*chunks: bytes) -> list[Event]:
    stream = Stream()
    events: list[Event] = []
    for chunk in chunks:
        events += stream.feed(chunk)
    return events + stream.end()


# --- decoding each shape ------------------------------------------------------------
def test_a_plan_request_decodes_to_create_plan_request_with_its_wire_names() -> None:
    event = decode(plan_request())
    assert type(event) is CreatePlanRequest
    assert (event.type, event.subtype, event.query_type, event.id) == (
        "interaction_query",
        "request",
        "createPlanRequestQuery",
        7,
    )


def test_a_plan_requests_args_are_typed() -> None:
    event = decode(plan_request())
    assert isinstance(event, CreatePlanRequest)
    assert event.args == CreatePlanArgs(
        plan="# Totals\n\n1. List the rules.\n",
        todos=[msgspec.convert(TODO, PlanTodo)],  # the wire's names
        overview="List the rounding rules, then test them.",
        name="Cart totals",
    )


def test_a_plan_request_names_the_tool_call_it_came_from() -> None:
    event = decode(plan_request())
    assert isinstance(event, CreatePlanRequest)
    assert event.tool_call_id == "tool_plan-1"


def test_a_plan_request_keeps_session_and_timestamp() -> None:
    event = decode(plan_request())
    assert isinstance(event, InteractionRequest)
    assert (event.session_id, event.timestamp_ms) == ("s1", 1800000000200)


def test_a_plan_response_decodes_to_create_plan_response_with_its_outcome() -> None:
    event = decode(plan_response())
    assert type(event) is CreatePlanResponse
    assert (event.subtype, event.id, event.outcome, event.plan_uri) == (
        "response",
        7,
        "success",
        "",
    )


def test_another_query_type_stays_a_generic_request_with_its_payload() -> None:
    event = decode(shell_request())
    assert type(event) is InteractionRequest
    assert (event.query_type, event.payload) == (
        "shellRequestQuery",
        {"command": "rm -rf build", "cwd": "/w"},
    )


def test_another_query_types_response_is_generic_with_outcome_and_reason() -> None:
    event = decode(shell_response())
    assert type(event) is InteractionResponse
    assert (event.outcome, event.reason) == ("rejected", "User Rejected")


def test_a_response_whose_key_is_named_otherwise_finds_the_one_object_beside_id() -> None:
    event = decode(
        line(
            type="interaction_query",
            subtype="response",
            query_type="askRequestQuery",
            response={"id": 1, "askAnswer": {"result": {"success": {"choice": "a"}}}},
        )
    )
    assert isinstance(event, InteractionResponse)
    assert event.payload == {"result": {"success": {"choice": "a"}}}


def test_a_string_id_is_kept() -> None:
    event = decode(shell_request(query_id="q-1"))
    assert isinstance(event, InteractionRequest)
    assert event.id == "q-1"


def test_unknown_fields_are_ignored() -> None:
    event = decode(plan_request(brand_new={"x": 1}))
    assert type(event) is CreatePlanRequest


# --- what does not fit: UnknownEvent with a reason ----------------------------------
@pytest.mark.parametrize(
    "wire",
    [
        line(type="interaction_query", subtype="paused", query_type="shellRequestQuery"),
        line(type="interaction_query", subtype="request", query={"id": 1, "x": {}}),
        line(type="interaction_query", subtype="request", query_type="shellRequestQuery"),
        line(type="interaction_query", subtype="response", query_type="shellRequestQuery"),
        line(type="interaction_query", subtype="request", query_type="q", query="text"),
        line(type="interaction_query", subtype="request", query_type="q", query={"id": 1}),
        shell_request(query_id=[1]),
        plan_request(args={"plan": 42}),
        plan_request(args=["not", "an", "object"]),
    ],
    ids=[
        "unknown-subtype",
        "no-query-type",
        "no-query",
        "no-response",
        "query-not-an-object",
        "no-payload-object",
        "id-a-list",
        "plan-field-of-wrong-type",
        "plan-args-not-an-object",
    ],
)
def test_a_line_that_does_not_fit_becomes_unknown_event_with_a_reason(wire: bytes) -> None:
    event = decode(wire)
    assert isinstance(event, UnknownEvent)
    assert (event.type, event.raw) == ("interaction_query", json.loads(wire))
    assert event.error


def test_a_block_with_a_line_that_does_not_fit_still_decodes_the_others() -> None:
    bad = line(type="interaction_query", subtype="paused", query_type="q")
    events, _, _, _ = LineDecoder(partial=False).decode_block(block(say("hi"), bad), [])
    assert [type(e) for e in events] == [AssistantEvent, UnknownEvent]


# --- pairing --------------------------------------------------------------------------
def test_a_streamed_response_carries_the_request_it_answers() -> None:
    request, response = streamed(block(plan_request(), plan_response()))
    assert isinstance(response, InteractionResponse)
    assert response.request is request


def test_pairing_holds_across_chunks() -> None:
    request, response = streamed(block(shell_request()), block(shell_response()))
    assert isinstance(response, InteractionResponse)
    assert response.request is request


def test_a_response_is_paired_with_the_request_of_its_own_id() -> None:
    events = streamed(
        block(
            shell_request(query_id=1),
            shell_request(query_id=2),
            shell_response(query_id=2),
            shell_response(query_id=1),
        )
    )
    assert [e.request for e in events[2:] if isinstance(e, InteractionResponse)] == [
        events[1],
        events[0],
    ]


def test_a_response_whose_request_was_not_seen_has_no_request() -> None:
    (response,) = streamed(block(plan_response(query_id=9)))
    assert isinstance(response, InteractionResponse)
    assert response.request is None


def test_a_response_decoded_outside_a_stream_has_no_request() -> None:
    event = decode(plan_response())
    assert isinstance(event, InteractionResponse)
    assert event.request is None


def test_the_stream_holds_only_the_requests_not_yet_answered() -> None:
    stream = Stream()
    request, _ = stream.feed(block(shell_request(query_id=1), shell_request(query_id=2)))
    stream.feed(block(shell_response(query_id=2)))
    assert stream.interactions.waiting == [request]


def test_the_trackers_request_of_is_the_paired_request() -> None:
    stream = Stream()
    request, response = stream.feed(block(plan_request(), plan_response()))
    assert isinstance(response, InteractionResponse)
    assert stream.interactions.request_of(response) is request


def test_a_block_reports_interaction_events_as_notable() -> None:
    events, _, notable, _ = LineDecoder(partial=False).decode_block(
        block(say("a"), plan_request(), plan_response()), []
    )
    assert notable == events[1:]


# --- the fast path --------------------------------------------------------------------
@pytest.mark.parametrize("partial", [False, True])
def test_a_block_holding_interaction_lines_is_decoded_in_one_call(
    partial: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_fallback(*_: object) -> None:
        raise AssertionError("the block was decoded line by line")

    monkeypatch.setattr(LineDecoder, "_decode_lines_one_by_one", no_fallback)
    data = block(say("a"), plan_request(), plan_response(), shell_request(), shell_response())
    events, _, _, _ = LineDecoder(partial=partial).decode_block(data, [])
    assert [type(e) for e in events[1:]] == [
        CreatePlanRequest,
        CreatePlanResponse,
        InteractionRequest,
        InteractionResponse,
    ]


def test_the_reply_text_around_interaction_lines_is_kept() -> None:
    text: list[str] = []
    LineDecoder(partial=False).decode_block(
        block(say("Plan "), plan_request(), plan_response(), say("made.")), text
    )
    assert "".join(text) == "Plan made."


# --- to_json --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "wire",
    [plan_request(), plan_response(), shell_request(), shell_response()],
    ids=["plan-request", "plan-response", "shell-request", "shell-response"],
)
def test_to_json_gives_back_the_wire_object(wire: bytes) -> None:
    event = decode(wire)
    assert event is not None
    assert msgspec.json.decode(to_json(event)) == json.loads(wire)


def test_to_json_leaves_out_the_paired_request() -> None:
    _, response = streamed(block(plan_request(), plan_response()))
    assert msgspec.json.decode(to_json(response)) == json.loads(plan_response())


# --- a real capture (read in place, never copied) -------------------------------------
def test_the_plan_capture_decodes_to_a_paired_plan_request_and_response() -> None:
    require_recorded_runs()
    path = CAPTURES / "satelle-16-plan.ndjson"
    events = streamed(path.read_bytes())
    queries = [e for e in events if e.type == "interaction_query"]
    assert [type(e) for e in queries] == [CreatePlanRequest, CreatePlanResponse]
    request, response = queries
    assert isinstance(request, CreatePlanRequest)
    assert isinstance(response, CreatePlanResponse)
    assert response.request is request
    assert request.args.todos
    assert response.outcome == "success"
    assert not [e for e in events if isinstance(e, UnknownEvent)]
    assert isinstance(events[-1], ResultEvent)
