"""What hooks leave in a print-mode stream (docs/protocol.md §6.4, §3.4): the
``hookAdditionalContexts`` beside a call's kind, and the reason of a call a hook blocked,
in each of the spellings the CLI uses for it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent_sdk import ToolCall
from agent_sdk._wire.decode import LineDecoder
from agent_sdk._wire.hook_messages import context_texts
from agent_sdk.events import ToolCallCompleted, ToolCallStarted
from agent_sdk.tools import Rejection

NOTE = "\n\nAgent note: Do not suggest workarounds to the blocked tool."
SETTINGS = "\n\nTo view or modify configured hooks, go to Cursor Settings > Hooks."


def event(subtype: str, contexts: Any = None, result: dict[str, Any] | None = None) -> Any:
    body: dict[str, Any] = {"args": {"command": "touch x"}}
    if result is not None:
        body["result"] = result
    tool_call: dict[str, Any] = {"shellToolCall": body, "toolCallId": "c1"}
    if contexts is not None:
        tool_call["hookAdditionalContexts"] = contexts
    line = {"type": "tool_call", "subtype": subtype, "call_id": "c1", "tool_call": tool_call}
    return LineDecoder(partial=False).decode(json.dumps(line).encode())


# --- hookAdditionalContexts -----------------------------------------------------------------
def test_hook_additional_contexts_beside_the_kind_are_kept() -> None:
    started = event("started", ["Tests live in tests/, run them with pytest -q."])
    assert isinstance(started, ToolCallStarted)
    assert started.hook_additional_contexts == ["Tests live in tests/, run them with pytest -q."]
    assert started.kind == "shellToolCall"


def test_hook_additional_contexts_of_any_shape_are_kept_as_plain_values() -> None:
    entry = {"hook": "postToolUse", "additional_context": "checked"}
    started = event("started", [entry, 7])
    assert started.hook_additional_contexts == [entry, 7]


@pytest.mark.parametrize("contexts", [None, [], "not a list", {"a": 1}])
def test_no_list_of_hook_additional_contexts_is_an_empty_list(contexts: Any) -> None:
    assert event("started", contexts).hook_additional_contexts == []


def test_a_call_has_the_completed_events_contexts_else_the_started_ones() -> None:
    started = event("started", ["before"])
    done = event("completed", ["after"], {"success": {"exitCode": 0}})
    assert ToolCall("c1", started, done).hook_additional_contexts == ["after"]
    assert ToolCall(
        "c1", started, event("completed", [], {"success": {}})
    ).hook_additional_contexts == ["before"]
    assert ToolCall("c1").hook_additional_contexts == []


def test_the_texts_of_contexts_are_strings_and_objects_text() -> None:
    contexts = [
        "plain",
        {"additional_context": "snake"},
        {"text": "text"},
        {"n": 1, "s": "first"},
        3,
        {},
    ]
    assert context_texts(contexts) == ["plain", "snake", "text", "first"]


# --- a call a hook blocked ------------------------------------------------------------------
# reason -> (by a hook, the hook's own words)
REASONS: dict[str, tuple[str, bool, str | None]] = {
    "exit 2": (
        f"Hook blocked with message: Tests must pass first{NOTE}",
        True,
        "Tests must pass first",
    ),
    "user_message": (f"Only src/ may change{NOTE}", True, "Only src/ may change"),
    "no words shown": (f"Shell blocked by preToolUse hook{NOTE}", True, None),
    "beforeShellExecution": (
        f"Command execution was blocked by a hook.{SETTINGS}{NOTE}",
        True,
        None,
    ),
    "no --force": ("", False, None),
    "the user": ("User rejected the command", False, None),
}


@pytest.mark.parametrize("case", list(REASONS))
def test_a_rejection_says_whether_a_hook_blocked_the_call_and_in_which_words(case: str) -> None:
    reason, by_hook, message = REASONS[case]
    rejection = Rejection(reason=reason)
    assert (rejection.by_hook, rejection.hook_message) == (by_hook, message)


def test_a_hooks_words_of_several_paragraphs_are_kept_whole() -> None:
    rejection = Rejection(reason=f"Hook blocked with message: No.\n\nAsk the owner first.{NOTE}")
    assert rejection.hook_message == "No.\n\nAsk the owner first."


def test_a_hook_blocked_call_decodes_with_its_reason() -> None:
    done = event(
        "completed", [], {"rejected": {"command": "touch x", "reason": REASONS["exit 2"][0]}}
    )
    assert isinstance(done, ToolCallCompleted)
    assert done.status == "blocked"
    assert isinstance(done.result, Rejection)
    assert (done.result.by_hook, done.result.hook_message) == (True, "Tests must pass first")
