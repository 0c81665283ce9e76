"""The Budget value (docs/budgets.md): its checks when it is made, its kinds in words,
and the kind read from a call's payload keys, as ``event.kind`` reads it."""

from __future__ import annotations

import pickle
from typing import Any

import msgspec
import pytest

from agent_sdk import AgentConfigError, Budget, ToolCallStarted
from agent_sdk._run.spending import _kind_of
from agent_sdk.budget import kind_word


@pytest.mark.parametrize(
    "limits",
    [{"tool_calls": -1}, {"turns": 1.5}, {"tokens": True}, {"tool_calls": "3"}],
    ids=str,
)
def test_a_limit_is_a_whole_number_at_least_zero(limits: dict[str, Any]) -> None:
    with pytest.raises(AgentConfigError, match="whole number >= 0"):
        Budget(**limits)


def test_a_kind_this_sdk_does_not_know_is_refused_with_the_kinds_it_knows() -> None:
    with pytest.raises(AgentConfigError, match="unknown kind 'shel'") as caught:
        Budget(tool_calls_by_kind={"shel": 1})
    assert caught.value.hint is not None
    assert "shell" in caught.value.hint


def test_a_kind_limit_is_checked_like_the_others() -> None:
    with pytest.raises(AgentConfigError, match="tool_calls_by_kind"):
        Budget(tool_calls_by_kind={"shell": -2})


def test_a_budget_pickles_and_compares_as_a_value() -> None:
    budget = Budget(tool_calls=3, tool_calls_by_kind={"shell": 1})
    assert pickle.loads(pickle.dumps(budget)) == budget
    assert repr(budget) == "Budget(tool_calls=3, tool_calls_by_kind={'shell': 1})"


@pytest.mark.parametrize(
    ("kind", "word"),
    [
        ("shellToolCall", "shell"),
        ("readToolCall", "read"),
        ("updateTodosToolCall", "update todos"),
        ("getMcpToolsToolCall", "get mcp tools"),
        ("mcpToolCall", "mcp"),
        ("function", "function"),
        ("edit", "edit"),  # the live agent's ACP kinds (docs/acp.md §3.10)
        ("switch_mode", "switch mode"),
    ],
)
def test_a_kind_in_words(kind: str, word: str) -> None:
    assert kind_word(kind) == word
    assert word in Budget.kinds


@pytest.mark.parametrize(
    "payload",
    [
        b'{"shellToolCall":{"args":{"command":"ls"}},"toolCallId":"c1"}',
        b'{"toolCallId":"c1","startedAtMs":"1","readToolCall":{"args":{"path":"a"}}}',
        b'{"function":{"name":"f","arguments":"{}"}}',
        b'{ "shellToolCall" : {"args":{"command":"ls"}}}',
        b'{"hookAdditionalContexts":[],"grepToolCall":{"args":{"pattern":"x"}}}',
        b'{"edit":{"args":{},"title":"Edit File","acpKind":"edit"}}',
        b"[1, 2]",
        b"{}",
    ],
)
def test_the_kind_from_the_payload_keys_is_the_events_kind(payload: bytes) -> None:
    event = ToolCallStarted(call_id="c1", tool_call=msgspec.Raw(payload))
    fresh = ToolCallStarted(call_id="c1", tool_call=msgspec.Raw(payload))
    assert _kind_of(event) == fresh.kind
