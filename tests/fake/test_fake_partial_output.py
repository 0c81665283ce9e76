"""The fake cursor-agent with ``--stream-partial-output`` (docs/protocol.md §3.3): small
deltas that add up to the result, the flushes before each tool call and at the end of the
turn, every other event as without the flag, and the flag ignored outside stream-json.
"""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from fake_play import SUCCESS, events, play, scenario_has_result, scenario_steps, text_of

# --------------------------------------------------------------------------- partial output


def _partial_events(scenario: str) -> list[dict[str, Any]]:
    return [e for e in events(play(scenario, partial=True)) if e["type"] == "assistant"]


@pytest.mark.parametrize(
    "scenario", [s for s in SUCCESS if scenario_has_result(s) and s != "is_error"]
)
def test_partial_deltas_concatenate_to_result_text(scenario: str) -> None:
    kept = []
    for event in _partial_events(scenario):
        if "timestamp_ms" in event and "model_call_id" not in event:
            kept.append(text_of(event))
    result = next(e for e in events(play(scenario, partial=True)) if e["type"] == "result")
    assert "".join(kept) == result["result"]


def test_partial_output_has_pre_tool_call_flushes_with_both_keys() -> None:
    full_segments = [
        text_of(s)
        for s in scenario_steps("tools")
        if s.get("type") == "assistant" and "model_call_id" in s
    ]
    flushes = [
        text_of(e) for e in _partial_events("tools") if "timestamp_ms" in e and "model_call_id" in e
    ]
    assert flushes == full_segments


def test_partial_output_ends_turn_with_a_flush_of_the_text_since_the_last_tool_call() -> None:
    # docs/protocol.md §3.3: the end-of-turn flush holds the last segment, not the reply.
    segments = [s for s in scenario_steps("tools") if s.get("type") == "assistant"]
    last_tool = max(i for i, s in enumerate(segments) if "model_call_id" in s)
    since = "".join(text_of(s) for s in segments[last_tool + 1 :])
    all_events = events(play("tools", partial=True))
    flush, result = all_events[-2], all_events[-1]
    assert flush["type"] == "assistant"
    assert "timestamp_ms" not in flush
    assert "model_call_id" not in flush
    assert text_of(flush) == since
    assert since != result["result"]


def test_partial_deltas_are_small() -> None:
    deltas = [
        text_of(e)
        for e in _partial_events("tools")
        if "timestamp_ms" in e and "model_call_id" not in e
    ]
    assert len(deltas) > 20
    assert max(len(d) for d in deltas) <= 30


def untimed(event: dict[str, Any]) -> dict[str, Any]:
    """``event`` without what differs from run to run: the session id, and a result's
    durations (the time that really passed: scenarios/README.md, "Durations")."""
    varying = ("session_id", "duration_ms", "duration_api_ms")
    return {**event, **{key: None for key in varying if key in event}}


def test_partial_output_passes_other_events_through_unchanged() -> None:
    def others(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
        return [untimed(e) for e in events(proc) if e["type"] != "assistant"]

    assert others(play("tools", partial=True)) == others(play("tools"))


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_partial_flag_is_ignored_outside_stream_json(fmt: str) -> None:
    resumed = ("--resume=s1",)
    partial, whole = play("tools", fmt, True, resumed), play("tools", fmt, False, resumed)
    if fmt == "json":  # the result line alone, with the run's durations
        assert [untimed(e) for e in events(partial)] == [untimed(e) for e in events(whole)]
        assert partial.stdout.count(b"\n") == whole.stdout.count(b"\n") == 1
    else:
        assert partial.stdout == whole.stdout


def test_partial_output_without_result_still_flushes_end_of_turn() -> None:
    last = events(play("no_result", partial=True))[-1]
    assert last["type"] == "assistant"
    assert "timestamp_ms" not in last
    assert text_of(last) == "The cart module sums prices."  # since the last tool call
