"""Tool-call completions: each outcome of docs/protocol.md §3.4 (success, rejected,
error, permission denied, one without a type) and the scalars beside it."""

from __future__ import annotations

from typing import Any

import pytest
from tool_payload_events import completed, tool_call

from agent_sdk.tools import (
    PermissionDenied,
    Rejection,
    ShellSuccess,
    ToolFailure,
    WritePermissionDenied,
)


def test_a_rejected_outcome_is_a_rejection() -> None:
    event = completed("call_rejected\nfc_19")
    assert event.outcome == "rejected"
    assert isinstance(event.result, Rejection)
    assert event.result.reason == "not allowed without --force"


def test_an_error_outcome_is_a_tool_failure_with_its_message() -> None:
    event = completed("call_error\nfc_20")
    assert (event.outcome, event.result) == (
        "error",
        ToolFailure(message="File not found: tests/fixtures/missing.json"),
    )


@pytest.mark.parametrize(
    ("call_id", "outcome", "payload"),
    [
        (
            "call_timeout\nfc_21",
            "timeout",
            {"timeoutMs": 30000, "message": "grep timed out after 30000 ms"},
        ),
        ("call_quarantined\nfc_28", "quarantined", {"why": "policy", "until": "tomorrow"}),
    ],
    ids=["timeout", "quarantined"],
)
def test_an_outcome_without_a_type_keeps_its_key_and_payload(
    call_id: str, outcome: str, payload: dict[str, Any]
) -> None:
    event = completed(call_id)
    assert (event.outcome, event.result) == (outcome, payload)


def test_a_permission_denied_outcome_is_typed_with_the_command_and_error() -> None:
    event = completed("call_denied\nfc_22")
    assert (event.outcome, event.result) == (
        "permissionDenied",
        PermissionDenied(
            error="Command blocked by permissions configuration",
            command="rm -rf dist",
            working_directory="/home/dev/shop",
            is_readonly=False,
        ),
    )


def test_a_write_permission_denied_outcome_is_typed_with_the_path_and_error() -> None:
    event = completed("call_write_denied\nfc_27")
    assert (event.outcome, event.result) == (
        "writePermissionDenied",
        WritePermissionDenied(
            error="Write permission denied: /home/dev/shop/.env",
            path="/home/dev/shop/.env",
            is_readonly=False,
        ),
    )


def test_a_scalar_beside_a_denial_is_a_result_extra_not_the_outcome() -> None:
    event = completed("call_denied\nfc_22")
    assert (event.outcome, event.result_extras) == ("permissionDenied", {"isBackground": False})


def test_is_background_beside_success_does_not_change_the_outcome() -> None:
    event = completed("call_background\nfc_23")
    assert event.outcome == "success"
    assert isinstance(event.result, ShellSuccess)
    assert event.result.command == "npm run dev"


def test_a_shell_command_with_a_non_zero_exit_code_is_a_success_outcome() -> None:
    event = completed("call_shell_fail\nfc_08")
    assert event.outcome == "success"
    assert isinstance(event.result, ShellSuccess)
    assert event.result.exit_code == 1


def test_args_with_a_wrong_typed_field_fall_back_to_a_dict() -> None:
    event = completed("call_badargs\nfc_24")
    assert event.args == {"path": 5, "limit": "all"}


def test_a_started_event_has_no_outcome_attribute() -> None:
    event = tool_call("call_function_start\nfc_26")
    assert not hasattr(event, "outcome")
