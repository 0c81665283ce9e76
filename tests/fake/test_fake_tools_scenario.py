"""The fake cursor-agent's ``tools`` and ``rejected`` scenarios, as played
(docs/protocol.md §3.4): every tool kind of the table, each start with one completion,
parallel calls, the shapes of 2026 and older, and each kind's outcomes.
"""

from __future__ import annotations

import json
from typing import Any

from fake_play import events, play, text_of

# --------------------------------------------------------------------------- tools scenario


TOOL_KINDS = {
    "readToolCall",
    "writeToolCall",
    "editToolCall",
    "shellToolCall",
    "grepToolCall",
    "globToolCall",
    "lsToolCall",
    "deleteToolCall",
    "updateTodosToolCall",
    "mcpToolCall",
    "function",
    "webSearchToolCall",
}


def _kind(event: dict[str, Any]) -> str:
    return next(k for k in event["tool_call"] if k.endswith("ToolCall") or k == "function")


# The checks of the tools and rejected scenarios below look at what the fake plays
# (stream-json), not at the scenario files: they fail if the fake drops, reorders or
# reshapes an event.


def _tool_events(scenario: str = "tools") -> list[dict[str, Any]]:
    return [e for e in events(play(scenario)) if e["type"] == "tool_call"]


def test_tools_has_every_tool_kind_of_the_table() -> None:
    assert {_kind(e) for e in _tool_events()} == TOOL_KINDS


def test_tools_every_start_has_one_completion() -> None:
    calls = _tool_events()
    started = [e["call_id"] for e in calls if e["subtype"] == "started"]
    completed = [e["call_id"] for e in calls if e["subtype"] == "completed"]
    assert sorted(started) == sorted(completed)
    assert len(set(started)) == len(started)


def test_tools_call_ids_contain_newlines() -> None:
    assert all("\n" in e["call_id"] for e in _tool_events())


def test_tools_parallel_calls_share_a_model_call_and_complete_in_reverse() -> None:
    calls = _tool_events()
    starts = [e for e in calls if e["subtype"] == "started"]
    by_mcid: dict[str, list[str]] = {}
    for e in starts:
        by_mcid.setdefault(e["model_call_id"], []).append(e["call_id"])
    parallel = next(ids for ids in by_mcid.values() if len(ids) == 2)
    completions = [e["call_id"] for e in calls if e["subtype"] == "completed"]
    order = [call_id for call_id in completions if call_id in parallel]
    assert order == parallel[::-1]


def test_tools_result_is_all_segments_without_separator() -> None:
    played = events(play("tools"))
    segments = [text_of(e) for e in played if e["type"] == "assistant"]
    assert played[-1]["type"] == "result"
    assert played[-1]["result"] == "".join(segments)


def test_tools_segments_before_calls_carry_both_keys_and_the_last_neither() -> None:
    segments = [e for e in events(play("tools")) if e["type"] == "assistant"]
    assert len(segments) > 2
    assert all("model_call_id" in s and "timestamp_ms" in s for s in segments[:-1])
    assert "model_call_id" not in segments[-1]
    assert "timestamp_ms" not in segments[-1]


def test_tools_has_2026_sibling_keys_and_older_shapes() -> None:
    shapes = {tuple(sorted(e["tool_call"])) for e in _tool_events()}
    assert any({"toolCallId", "startedAtMs", "hookAdditionalContexts"} <= set(s) for s in shapes)
    assert any({"toolCallId", "startedAtMs", "completedAtMs"} <= set(s) for s in shapes)
    assert any(len(s) == 1 for s in shapes)
    stamps = [
        e["tool_call"][k]
        for e in _tool_events()
        for k in ("startedAtMs", "completedAtMs")
        if k in e["tool_call"]
    ]
    assert all(isinstance(s, str) and s.isdigit() for s in stamps)


def _successes(kind: str) -> list[dict[str, Any]]:
    return [
        e["tool_call"][kind]["result"]["success"]
        for e in _tool_events()
        if e["subtype"] == "completed" and _kind(e) == kind
    ]


def test_tools_shell_has_a_nonzero_exit_success() -> None:
    assert sorted(s["exitCode"] for s in _successes("shellToolCall")) == [0, 1]


def test_tools_grep_has_both_output_modes() -> None:
    modes = {s["outputMode"] for s in _successes("grepToolCall")}
    assert modes == {"files_with_matches", "content"}


def test_tools_edit_has_str_replace_and_stream_content() -> None:
    args = [
        e["tool_call"]["editToolCall"]["args"]
        for e in _tool_events()
        if e["subtype"] == "started" and _kind(e) == "editToolCall"
    ]
    assert {"strReplace", "streamContent"} <= {k for a in args for k in a}


def test_tools_todos_have_the_three_statuses() -> None:
    statuses = {t["status"] for s in _successes("updateTodosToolCall") for t in s["todos"]}
    assert statuses == {
        "TODO_STATUS_PENDING",
        "TODO_STATUS_IN_PROGRESS",
        "TODO_STATUS_COMPLETED",
    }


def test_tools_an_mcp_completion_has_no_args() -> None:
    completions = [
        e["tool_call"]["mcpToolCall"]
        for e in _tool_events()
        if e["subtype"] == "completed" and _kind(e) == "mcpToolCall"
    ]
    assert any("args" not in c for c in completions)


def test_tools_function_arguments_are_a_json_string() -> None:
    fn = next(e["tool_call"]["function"] for e in _tool_events() if _kind(e) == "function")
    assert isinstance(json.loads(fn["arguments"]), dict)


def test_tools_ls_tree_is_nested() -> None:
    root = _successes("lsToolCall")[0]["directoryTreeRoot"]
    assert root["childrenDirs"][1]["childrenDirs"][0]["childrenFiles"]


def test_tools_read_has_a_read_range() -> None:
    assert any("readRange" in s for s in _successes("readToolCall"))


def test_rejected_has_rejected_error_and_unknown_outcomes() -> None:
    outcomes = set()
    for e in _tool_events("rejected"):
        if e["subtype"] == "completed":
            outcomes |= set(e["tool_call"][_kind(e)]["result"])
    assert outcomes == {"rejected", "error", "timeout"}
