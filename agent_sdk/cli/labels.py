"""Short words for tool calls on screen: ``read src/cart.py``, ``$ pytest -q``, ``+3 -1``."""

from __future__ import annotations

from .._wire.hook_messages import context_texts
from .._wire.tool_labels import command_failure, shorten, tool_label
from ..tool_calls import ToolCall
from ..tools import (
    EditSuccess,
    GlobSuccess,
    ReadSuccess,
    Rejection,
    ShellSuccess,
    TaskSuccess,
    ToolFailure,
    ToolResult,
    WriteSuccess,
)

__all__ = [
    "call_notes",
    "command_failure",
    "failure_detail",
    "hook_block",
    "interaction_label",
    "plural",
    "result_detail",
    "shorten",
    "tool_label",
]

# What an interaction query is about, for the ones with a better word than their name.
_INTERACTIONS = {
    "createPlanRequestQuery": "plan",
    "webSearchRequestQuery": "web search",
    "webFetchRequestQuery": "web fetch",
    "askQuestionInteractionQuery": "question",
}


def interaction_label(query_type: str) -> str:
    """What an ``interaction_query`` is about: ``plan``, ``shell``, ... (its query type
    without ``RequestQuery``, for one this module has no word for)."""
    known = _INTERACTIONS.get(query_type)
    if known is not None:
        return known
    name = query_type.removesuffix("Query").removesuffix("Request")
    return shorten(name or "interaction")


def call_notes(call: ToolCall) -> list[tuple[str, str]]:
    """What is worth saying of a call beyond its line, as ``(what, text)`` pairs: what a
    subagent was asked and answered (docs/protocol.md §3.4b), and each text hooks added
    to the agent's context about the call (§6.4). Texts are whole: cut them to show."""
    notes = []
    subagent = call.subagent
    if subagent is not None and subagent.prompt:
        notes.append(("asked", subagent.prompt))
    if subagent is not None and subagent.answer:
        notes.append(("answered", subagent.answer))
    elif subagent is not None and subagent.is_background:
        notes.append(("runs in the background", "its answer comes when it finishes"))
    notes += [("hook context", text) for text in context_texts(call.hook_additional_contexts)]
    return notes


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def result_detail(result: ToolResult | None) -> str:
    """What a successful outcome is worth a glance: lines read, exit code, ..."""
    if isinstance(result, ReadSuccess) and result.total_lines is not None:
        return plural(result.total_lines, "line")
    if isinstance(result, WriteSuccess) and result.lines_created is not None:
        return plural(result.lines_created, "line")
    if isinstance(result, EditSuccess) and result.lines_added is not None:
        return f"+{result.lines_added} -{result.lines_removed or 0}"
    if isinstance(result, ShellSuccess) and result.exit_code:
        return f"exit {result.exit_code}"
    if isinstance(result, GlobSuccess) and result.total_files is not None:
        return plural(result.total_files, "file")
    if isinstance(result, TaskSuccess) and result.is_background:
        return "in the background"
    return ""


def hook_block(result: ToolResult | None) -> str:
    """``blocked by a hook: <the hook's words>`` for a call a hook blocked (``blocked by
    a hook`` when the CLI showed no words, docs/protocol.md §6.4); ``""`` otherwise."""
    if not isinstance(result, Rejection) or not result.by_hook:
        return ""
    words = result.hook_message
    return f"blocked by a hook: {words}" if words else "blocked by a hook"


def failure_detail(result: ToolResult | None) -> str:
    if isinstance(result, Rejection):
        return hook_block(result) or result.reason
    if isinstance(result, ToolFailure):
        return result.message
    if isinstance(result, dict):
        message = result.get("message")
        return message if isinstance(message, str) else ""
    return ""
