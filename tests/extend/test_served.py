"""How a run pairs its stream's ``mcpToolCall`` events with the calls its host recorded
(``extend/_served.py``): by tool name and arguments, in order, each recorded call once."""

from __future__ import annotations

from agent_sdk.extend import CustomToolCall
from agent_sdk.extend._served import Claims

FIRST = CustomToolCall("add", {"a": 1}, "2", False)
SECOND = CustomToolCall("add", {"a": 1}, "2", False)
OTHER = CustomToolCall("add", {"a": 5}, "6", False)


def test_a_call_is_paired_with_the_recorded_call_of_its_name_and_arguments() -> None:
    claims = Claims([OTHER, FIRST])
    assert claims.claim("add", {"a": 1}) is FIRST


def test_two_alike_calls_take_the_recorded_ones_in_order() -> None:
    claims = Claims([FIRST, SECOND])
    assert claims.claim("add", {"a": 1}) is FIRST
    assert claims.claim("add", {"a": 1}) is SECOND
    assert claims.claim("add", {"a": 1}) is None


def test_another_tool_of_the_same_arguments_is_not_paired() -> None:
    assert Claims([FIRST]).claim("sub", {"a": 1}) is None


def test_a_call_without_arguments_pairs_with_empty_ones() -> None:
    bare = CustomToolCall("now", None, "12:00", False)
    assert Claims([bare]).claim("now", {}) is bare


def test_calls_recorded_after_the_claims_were_made_are_seen() -> None:
    recorded: list[CustomToolCall] = []
    claims = Claims(recorded)
    recorded.append(FIRST)  # the host answers while the run reads its stream
    assert claims.claim("add", {"a": 1}) is FIRST
