"""The fake plays subagents (docs/protocol.md §3.4b) and hooks' traces (§6.4) as the CLI
prints them: the ``subagents`` and ``hook_traces`` scenarios, checked on what the fake
writes (stream-json, with and without partial output), not on the scenario files."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from typing import Any

import pytest
from fake_env import ROOT, fake_env

NOTE = "Agent note: Do not suggest workarounds to the blocked tool."


@functools.cache
def played(scenario: str, partial: bool = False) -> list[dict[str, Any]]:
    """The JSON lines of a trusted stream-json run of ``scenario``."""
    args = ["-p", "--trust", "--output-format=stream-json"]
    args += ["--stream-partial-output"] if partial else []
    done = subprocess.run(
        [sys.executable, "-m", "fake_agent", *args, "--", "go"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=fake_env(FAKE_AGENT_SCENARIO=scenario),
        cwd=ROOT,
        timeout=30,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def calls(scenario: str, kind: str, subtype: str, partial: bool = False) -> list[dict[str, Any]]:
    return [
        e["tool_call"]
        for e in played(scenario, partial)
        if e["type"] == "tool_call" and e["subtype"] == subtype and kind in e["tool_call"]
    ]


PARTIAL = pytest.mark.parametrize("partial", [False, True], ids=["whole", "partial"])


# --- subagents ------------------------------------------------------------------------------
@PARTIAL
def test_subagents_starts_two_task_calls_with_the_contracts_arguments(partial: bool) -> None:
    started = calls("subagents", "taskToolCall", "started", partial)
    assert len(started) == 2
    keys = {"description", "prompt", "subagentType", "model", "agentId", "mode", "environment"}
    assert all(keys <= set(call["taskToolCall"]["args"]) for call in started)
    kinds = [next(iter(call["taskToolCall"]["args"]["subagentType"])) for call in started]
    assert sorted(kinds) == ["custom", "unspecified"]


@PARTIAL
def test_subagents_completes_a_foreground_child_with_its_answer_and_a_string_duration(
    partial: bool,
) -> None:
    (done,) = [
        call["taskToolCall"]["result"]["success"]
        for call in calls("subagents", "taskToolCall", "completed", partial)
        if not call["taskToolCall"]["result"]["success"]["isBackground"]
    ]
    assert isinstance(done["durationMs"], str)
    assert done["durationMs"].isdigit()
    assert done["conversationSteps"][0]["assistantMessage"]["text"]


@PARTIAL
def test_subagents_launches_a_background_child_with_a_number_duration(partial: bool) -> None:
    (done,) = [
        call["taskToolCall"]["result"]["success"]
        for call in calls("subagents", "taskToolCall", "completed", partial)
        if call["taskToolCall"]["result"]["success"]["isBackground"]
    ]
    assert isinstance(done["durationMs"], int)
    assert done["conversationSteps"] == []


@PARTIAL
def test_subagents_notifies_the_background_childs_end_before_the_result(partial: bool) -> None:
    lines = played("subagents", partial)
    (note,) = [e for e in lines if e["type"] == "system" and e["subtype"] == "task_notification"]
    background = next(
        call["taskToolCall"]["result"]["success"]
        for call in calls("subagents", "taskToolCall", "completed", partial)
        if call["taskToolCall"]["result"]["success"]["isBackground"]
    )
    assert note["task_id"] == background["agentId"]
    assert {"status", "title", "detail", "session_id"} <= set(note)
    assert lines.index(note) < len(lines) - 1
    assert lines[-1]["type"] == "result"


# --- hooks' traces --------------------------------------------------------------------------
def rejected_reasons(partial: bool = False) -> list[str]:
    return [
        next(iter(call.values()))["result"]["rejected"]["reason"]
        for e in played("hook_traces", partial)
        if e["type"] == "tool_call" and e["subtype"] == "completed"
        for call in [{k: v for k, v in e["tool_call"].items() if k.endswith("ToolCall")}]
        if "rejected" in next(iter(call.values()))["result"]
    ]


@PARTIAL
def test_hook_traces_carries_hook_additional_contexts_a_string_and_an_object(
    partial: bool,
) -> None:
    contexts = [
        entry
        for e in played("hook_traces", partial)
        if e["type"] == "tool_call"
        for entry in e["tool_call"]["hookAdditionalContexts"]
    ]
    assert [type(entry) for entry in contexts] == [str, dict]


@PARTIAL
def test_hook_traces_blocks_three_calls_one_per_spelling_of_the_reason(partial: bool) -> None:
    reasons = rejected_reasons(partial)
    assert len(reasons) == 3
    assert all(reason.endswith(NOTE) for reason in reasons)
    assert reasons[0].startswith("Hook blocked with message: ")
    assert reasons[2].startswith("Command execution was blocked by a hook.\n\n")
    assert not reasons[1].startswith(("Hook blocked", "Command execution"))


def test_hook_rejected_uses_the_clis_words_for_a_before_shell_execution_deny() -> None:
    lines = played("hook_rejected")
    reasons = [
        e["tool_call"]["shellToolCall"]["result"]["rejected"]["reason"]
        for e in lines
        if e["type"] == "tool_call"
        and e["subtype"] == "completed"
        and "shellToolCall" in e["tool_call"]
    ]
    assert reasons == [
        "Command execution was blocked by a hook.\n\nTo view or modify configured hooks, go to"
        f" Cursor Settings > Hooks.\n\n{NOTE}"
    ]
