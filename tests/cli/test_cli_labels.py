"""Every tool kind has words on screen: agent_sdk.cli.labels.tool_label."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

import pytest

from agent_sdk._wire.tool_payloads import _KINDS
from agent_sdk.cli.labels import tool_label
from agent_sdk.tools import (
    CreatePlanArgs,
    CustomSubagent,
    GetMcpToolsArgs,
    SubagentType,
    TaskArgs,
    ToolArgs,
)

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
# Every kind the contract names (typed, or "reported but unseen"), and those typed here.
CONTRACT_KINDS = set(re.findall(r"`(\w+ToolCall)`", PROTOCOL.read_text(encoding="utf-8")))
KINDS = sorted(CONTRACT_KINDS | set(_KINDS))


def test_the_contract_names_the_kinds_this_test_expects() -> None:
    # A few of them, so that a change of the document's format cannot empty the list.
    assert {"readToolCall", "webSearchToolCall", "createPlanToolCall"} <= CONTRACT_KINDS
    assert len(CONTRACT_KINDS) >= 15


def test_every_typed_argument_class_belongs_to_a_kind() -> None:
    typed = {args for args, _ in _KINDS.values()}
    assert {t for t in get_args(ToolArgs) if isinstance(t, type)} <= typed


def _args_of(kind: str) -> list[ToolArgs | None]:
    """Arguments a call of ``kind`` may come with: none, the typed ones (defaults), and
    an untyped dict (what an unknown kind, or one that does not fit its type, has)."""
    shapes: list[ToolArgs | None] = [None, {}, {"toolCallId": "c1", "somethingNew": "x y"}]
    if kind in _KINDS:
        shapes.append(_KINDS[kind][0]())
    return shapes


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_has_a_label_in_words_never_its_wire_name(kind: str) -> None:
    for args in _args_of(kind):
        label = tool_label(kind, args)
        assert label.strip(), (kind, args)
        assert "ToolCall" not in label, (kind, args, label)
        assert kind == "function" or kind not in label, (kind, args, label)


SEARCH = {"searchTerm": "python decimal", "toolCallId": "c"}
FETCH = {"url": "https://docs.python.org", "toolCallId": "c"}


@pytest.mark.parametrize(
    ("kind", "args", "label"),
    [
        ("webSearchToolCall", SEARCH, "web search python decimal"),
        ("webFetchToolCall", FETCH, "fetch https://docs.python.org"),
        ("readLintsToolCall", {"paths": ["src/cart.py", "a.py"]}, "lints src/cart.py, a.py"),
        ("semSearchToolCall", {"query": "where are totals"}, "search where are totals"),
        ("readTodosToolCall", {}, "todos"),
        ("askQuestionToolCall", {"question": "Which database?"}, "ask Which database?"),
        ("taskToolCall", {"description": "Explore the repo"}, "subagent Explore the repo"),
        ("taskToolCall", TaskArgs(description="Explore the repo"), "subagent Explore the repo"),
        ("taskToolCall", TaskArgs(prompt="List the modules"), "subagent List the modules"),
        (
            "taskToolCall",
            TaskArgs(
                description="Review",
                subagent_type=SubagentType(custom=CustomSubagent(name="reviewer")),
            ),
            "subagent (reviewer) Review",
        ),
        ("createPlanToolCall", CreatePlanArgs(name="Cart totals"), "plan Cart totals"),
        ("createPlanToolCall", CreatePlanArgs(), "plan"),
        (
            "getMcpToolsToolCall",
            GetMcpToolsArgs(server="linear", pattern="x"),
            "mcp tools linear x",
        ),
        # Unknown kinds: the name in words, then the first string argument.
        ("fooBarToolCall", {"toolCallId": "c", "target": "src/"}, "foo bar src/"),
        ("readMCPResourceToolCall", {"uri": "mem://x"}, "read mcp resource mem://x"),
        ("someTool", None, "some tool"),
        ("", None, "tool call"),
    ],
)
def test_labels_say_what_the_call_is_about(kind: str, args: Any, label: str) -> None:
    assert tool_label(kind, args) == label
