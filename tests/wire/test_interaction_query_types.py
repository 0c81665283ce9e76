"""The ``interaction_query`` types of docs/protocol.md §3.6b beyond the plan: web search,
web fetch and a question for the user, typed; the answer found under the one key beside
``id`` whatever its name; an outcome that is the answer's own key (``approved``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent_sdk._wire.decode import LineDecoder
from agent_sdk.events import (
    AskQuestionRequest,
    AskQuestionResponse,
    Event,
    InteractionRequest,
    InteractionResponse,
    UnknownEvent,
    WebFetchRequest,
    WebFetchResponse,
    WebSearchRequest,
    WebSearchResponse,
    to_json,
)
from agent_sdk.tools import (
    AskQuestionArgs,
    AskQuestionItem,
    AskQuestionOption,
    WebFetchArgs,
    WebSearchArgs,
)

SKIPPED = "Questions skipped by the user, continue with the information you already have"


def decode(**event: Any) -> Event | None:
    return LineDecoder(partial=False).decode(json.dumps(event).encode())


def request(query_type: str, payload: dict[str, Any], query_id: Any = 3) -> Event | None:
    return decode(
        type="interaction_query",
        subtype="request",
        query_type=query_type,
        query={"id": query_id, query_type: payload},
        session_id="s1",
        timestamp_ms=1800000000400,
    )


def response(query_type: str, answer: dict[str, Any], query_id: Any = 3) -> Event | None:
    return decode(
        type="interaction_query",
        subtype="response",
        query_type=query_type,
        response={"id": query_id, **answer},
        session_id="s1",
        timestamp_ms=1800000000450,
    )


SEARCH = {"args": {"searchTerm": "msgspec tagged unions", "toolCallId": "tool_ws-1"}}
FETCH = {
    "args": {"url": "https://docs.example.invalid/unions", "toolCallId": "tool_wf-1"},
    "skipApproval": False,
}
QUESTION = {
    "args": {
        "title": "Rounding",
        "questions": [
            {
                "id": "mode",
                "prompt": "Round half up or half even?",
                "options": [{"id": "up", "label": "Half up"}, {"id": "even", "label": "Even"}],
                "allowMultiple": False,
            }
        ],
    },
    "toolCallId": "tool_aq-1",
}


# --- web search -----------------------------------------------------------------------
def test_a_web_search_request_has_its_search_term_typed() -> None:
    event = request("webSearchRequestQuery", SEARCH)
    assert type(event) is WebSearchRequest
    assert event.args == WebSearchArgs(
        search_term="msgspec tagged unions", tool_call_id="tool_ws-1"
    )
    assert event.tool_call_id == "tool_ws-1"


def test_an_approved_web_search_is_approved() -> None:
    event = response("webSearchRequestQuery", {"webSearchRequestResponse": {"approved": {}}})
    assert type(event) is WebSearchResponse
    assert (event.outcome, event.approved, event.reason) == ("approved", True, None)


def test_a_rejected_web_search_is_not_approved_and_says_why() -> None:
    answer = {"webSearchRequestResponse": {"rejected": {"reason": "Web search is off"}}}
    event = response("webSearchRequestQuery", answer)
    assert isinstance(event, WebSearchResponse)
    assert (event.outcome, event.approved, event.reason) == (
        "rejected",
        False,
        "Web search is off",
    )


# --- web fetch ------------------------------------------------------------------------
def test_a_web_fetch_request_has_its_url_typed_and_its_skip_approval() -> None:
    event = request("webFetchRequestQuery", FETCH)
    assert type(event) is WebFetchRequest
    assert event.args == WebFetchArgs(
        url="https://docs.example.invalid/unions", tool_call_id="tool_wf-1"
    )
    assert (event.skip_approval, event.tool_call_id) == (False, "tool_wf-1")


def test_an_approved_web_fetch_is_approved() -> None:
    event = response("webFetchRequestQuery", {"webFetchRequestResponse": {"approved": {}}})
    assert type(event) is WebFetchResponse
    assert event.approved


# --- a question -----------------------------------------------------------------------
def test_a_question_request_has_its_questions_typed() -> None:
    event = request("askQuestionInteractionQuery", QUESTION)
    assert type(event) is AskQuestionRequest
    assert event.args == AskQuestionArgs(
        title="Rounding",
        questions=[
            AskQuestionItem(
                id="mode",
                prompt="Round half up or half even?",
                options=[
                    AskQuestionOption(id="up", label="Half up"),
                    AskQuestionOption(id="even", label="Even"),
                ],
                allow_multiple=False,
            )
        ],
    )
    assert event.tool_call_id == "tool_aq-1"


def test_a_skipped_question_is_rejected_with_the_reason_the_agent_is_told() -> None:
    answer = {"askQuestionInteractionResponse": {"result": {"rejected": {"reason": SKIPPED}}}}
    event = response("askQuestionInteractionQuery", answer)
    assert type(event) is AskQuestionResponse
    assert (event.response_key, event.outcome, event.reason) == (
        "askQuestionInteractionResponse",
        "rejected",
        SKIPPED,
    )


# --- reported shapes that do not fit ----------------------------------------------------
@pytest.mark.parametrize(
    ("query_type", "payload"),
    [
        ("webSearchRequestQuery", {"args": {"searchTerm": ["not", "a", "string"]}}),
        ("webFetchRequestQuery", {"args": {"url": 42}}),
        ("askQuestionInteractionQuery", {"args": {"questions": "which?"}}),
    ],
    ids=["search", "fetch", "question"],
)
def test_a_reported_query_type_whose_args_do_not_fit_stays_generic_with_its_payload(
    query_type: str, payload: dict[str, Any]
) -> None:
    event = request(query_type, payload)
    assert type(event) is InteractionRequest
    assert event.payload == payload


def test_a_plan_whose_args_do_not_fit_is_still_an_unknown_event() -> None:
    event = request("createPlanRequestQuery", {"args": {"todos": "none"}})
    assert isinstance(event, UnknownEvent)
    assert event.error is not None


# --- finding the answer ---------------------------------------------------------------
def test_the_response_key_is_the_one_object_beside_id_not_a_name_derived_from_the_query() -> None:
    answer = {"setupVmEnvironmentResult": {"success": {"vmId": "vm-1"}}}
    event = response("setupVmEnvironmentArgs", answer)
    assert isinstance(event, InteractionResponse)
    assert event.response_key == "setupVmEnvironmentResult"
    assert event.payload == {"success": {"vmId": "vm-1"}}
    assert event.outcome == "success"


def test_a_response_with_no_answer_object_has_an_empty_key_and_payload() -> None:
    event = response("shellRequestQuery", {})
    assert isinstance(event, InteractionResponse)
    assert (event.response_key, event.payload, event.outcome) == ("", {}, None)


def test_an_outcome_that_is_the_answers_own_key_ignores_scalar_siblings() -> None:
    answer = {"webFetchRequestResponse": {"note": "cached", "approved": {}}}
    event = response("webFetchRequestQuery", answer)
    assert isinstance(event, InteractionResponse)
    assert event.outcome == "approved"


@pytest.mark.parametrize(
    "event",
    [
        request("webSearchRequestQuery", SEARCH),
        request("webFetchRequestQuery", FETCH),
        request("askQuestionInteractionQuery", QUESTION),
        response("webSearchRequestQuery", {"webSearchRequestResponse": {"approved": {}}}),
    ],
    ids=["search", "fetch", "question", "answer"],
)
def test_to_json_gives_back_the_wire_object(event: Event | None) -> None:
    assert event is not None
    assert isinstance(event, (InteractionRequest, InteractionResponse))
    if isinstance(event, InteractionRequest):
        assert json.loads(to_json(event))["query"] == event.query
    else:
        assert json.loads(to_json(event))["response"] == event.response
