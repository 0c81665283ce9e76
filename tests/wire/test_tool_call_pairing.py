"""ToolCallTracker and ToolCall: a ``started`` paired with its ``completed`` by ``call_id``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent_sdk._wire.decode import LineDecoder
from agent_sdk.events import ToolCallCompleted, ToolCallStarted
from agent_sdk.tool_calls import RunningToolCalls, ToolCall, ToolCallTracker
from agent_sdk.tools import ReadArgs, ReadSuccess

PARALLEL = Path(__file__).parents[1] / "data" / "parallel_tool_calls.ndjson"
# The two parallel reads: their ids differ only after the newline.
CART = "call_Rd01\nfc_0b21"
README = "call_Rd01\nfc_0b22"


def decode(line: bytes) -> ToolCallStarted | ToolCallCompleted:
    event = LineDecoder(partial=False).decode(line)
    assert isinstance(event, ToolCallStarted | ToolCallCompleted)
    return event


def parallel_events() -> list[ToolCallStarted | ToolCallCompleted]:
    """Two reads started cart then README, completed README then cart."""
    return [decode(line) for line in PARALLEL.read_bytes().splitlines()]


def event(
    subtype: str,
    call_id: str = "call_1\nfc_1",
    *,
    args: dict[str, Any] | None = None,
    result: dict[str, Any] | None = None,
    timestamp_ms: int | None = None,
    **siblings: str,
) -> ToolCallStarted | ToolCallCompleted:
    body: dict[str, Any] = {}
    if args is not None:
        body["args"] = args
    if result is not None:
        body["result"] = result
    wire: dict[str, Any] = {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": call_id,
        "tool_call": {"readToolCall": body, **siblings},
        "session_id": "s1",
    }
    if timestamp_ms is not None:
        wire["timestamp_ms"] = timestamp_ms
    return decode(json.dumps(wire).encode())


def parallel_call(call_id: str) -> ToolCall:
    call = track(parallel_events()).get(call_id)
    assert call is not None
    return call


def track(events: list[ToolCallStarted | ToolCallCompleted]) -> ToolCallTracker:
    tracker = ToolCallTracker()
    for e in events:
        tracker.add(e)
    return tracker


SUCCESS = {"success": {"content": "x"}}


# --- pairing ------------------------------------------------------------------------
def test_a_started_and_its_completed_pair_into_one_call() -> None:
    started = event("started", args={"path": "a.py"})
    completed = event("completed", args={"path": "a.py"}, result=SUCCESS)
    tracker = track([started, completed])
    assert tracker.calls == [ToolCall("call_1\nfc_1", started, completed)]


def test_add_returns_the_call_as_known_so_far() -> None:
    tracker = ToolCallTracker()
    started = event("started", args={"path": "a.py"})
    assert tracker.add(started) == ToolCall("call_1\nfc_1", started, None)


def test_completions_in_the_opposite_order_of_starts_pair_with_their_own_start() -> None:
    events = parallel_events()
    cart, readme = parallel_call(CART), parallel_call(README)
    assert (cart.started, cart.completed) == (events[0], events[3])
    assert (readme.started, readme.completed) == (events[1], events[2])


def test_each_parallel_call_gets_its_own_result() -> None:
    tracker = track(parallel_events())
    results = {call.call_id: call.result for call in tracker.calls}
    assert isinstance(results[CART], ReadSuccess)
    assert isinstance(results[README], ReadSuccess)
    assert (results[CART].total_lines, results[README].total_lines) == (2, 1)


def test_call_ids_that_differ_only_after_the_newline_stay_distinct() -> None:
    tracker = track(parallel_events())
    assert [call.call_id for call in tracker.calls] == [CART, README]


def test_a_completed_arriving_before_its_started_pairs() -> None:
    completed = event("completed", args={"path": "a.py"}, result=SUCCESS)
    started = event("started", args={"path": "a.py"})
    tracker = track([completed, started])
    assert tracker.calls == [ToolCall("call_1\nfc_1", started, completed)]


def test_get_of_an_unknown_call_id_is_none() -> None:
    assert track(parallel_events()).get("call_Rd01") is None


# --- RunningToolCalls: only running calls are held (a streamed run, flat memory) -------
def running(events: list[ToolCallStarted | ToolCallCompleted]) -> RunningToolCalls:
    calls = RunningToolCalls()
    for e in events:
        calls.add(e)
    return calls


def test_running_calls_hold_only_the_calls_not_yet_completed() -> None:
    events = parallel_events()  # cart and README start, README completes, cart runs on
    calls = running(events[:3])
    assert calls.calls == [ToolCall(CART, events[0], None)]
    calls.add(events[3])
    assert calls.calls == []


def test_running_calls_still_pair_a_completed_event_with_its_start() -> None:
    events = parallel_events()
    calls = running(events)
    assert calls.call_of(events[2]) == ToolCall(README, events[1], events[2])
    assert calls.call_of(events[3]) == ToolCall(CART, events[0], events[3])


def test_running_calls_give_a_started_event_its_running_call() -> None:
    events = parallel_events()
    assert running(events[:1]).call_of(events[0]) == ToolCall(CART, events[0], None)


def test_running_calls_give_a_completed_without_its_start_a_call_of_its_own() -> None:
    completed = event("completed", args={"path": "a.py"}, result=SUCCESS)
    calls = running([completed])
    assert calls.call_of(completed) == ToolCall("call_1\nfc_1", None, completed)
    assert calls.calls == []


def test_call_of_is_the_paired_call_when_every_call_is_kept() -> None:
    events = parallel_events()
    assert track(events).call_of(events[0]) == ToolCall(CART, events[0], events[3])


def test_call_of_an_event_the_tracker_never_saw_is_that_event_alone() -> None:
    completed = event("completed", result=SUCCESS)
    assert ToolCallTracker().call_of(completed) == ToolCall("call_1\nfc_1", None, completed)


def test_calls_are_listed_in_first_seen_order() -> None:
    events = [
        event("started", "b", args={"path": "b"}),
        event("completed", "c", result=SUCCESS),
        event("started", "a", args={"path": "a"}),
        event("completed", "b", result=SUCCESS),
        event("started", "c", args={"path": "c"}),
    ]
    assert [call.call_id for call in track(events).calls] == ["b", "c", "a"]


# --- what a call exposes ------------------------------------------------------------
def test_kind_comes_from_the_events() -> None:
    assert track(parallel_events()).calls[0].kind == "readToolCall"


def test_args_come_from_the_started_event() -> None:
    started = event("started", args={"path": "from-start.py"})
    completed = event("completed", args={"path": "from-completed.py"}, result=SUCCESS)
    call = track([started, completed]).calls[0]
    assert call.args == ReadArgs(path="from-start.py")


def test_args_fall_back_to_the_completed_event_when_started_has_none() -> None:
    started = event("started")
    completed = event("completed", args={"path": "a.py"}, result=SUCCESS)
    call = track([started, completed]).calls[0]
    assert call.args == ReadArgs(path="a.py")


def test_args_come_from_completed_when_no_started_was_seen() -> None:
    call = track([event("completed", args={"path": "a.py"}, result=SUCCESS)]).calls[0]
    assert call.args == ReadArgs(path="a.py")


def test_a_running_call_has_no_outcome() -> None:
    call = track([event("started", args={"path": "a.py"})]).calls[0]
    assert (call.is_finished, call.outcome, call.result, call.duration_ms) == (
        False,
        None,
        None,
        None,
    )


def test_a_completed_call_has_its_outcome_and_result() -> None:
    call = track([event("started"), event("completed", result=SUCCESS)]).calls[0]
    assert (call.is_finished, call.outcome, call.result) == (
        True,
        "success",
        ReadSuccess(content="x"),
    )


# --- duration -----------------------------------------------------------------------
def test_duration_comes_from_the_started_at_and_completed_at_siblings() -> None:
    # siblings: 1785515200572 - 1785515200361 = 211; timestamps would give 214
    assert parallel_call(CART).duration_ms == 211


def test_duration_falls_back_to_the_events_timestamps() -> None:
    # no siblings on the README read: 1785515200513 - 1785515200363
    assert parallel_call(README).duration_ms == 150


def test_duration_uses_started_at_from_the_started_event_when_completed_lacks_it() -> None:
    started = event("started", timestamp_ms=1000, startedAtMs="1010")
    completed = event("completed", result=SUCCESS, timestamp_ms=2000, completedAtMs="1500")
    assert track([started, completed]).calls[0].duration_ms == 490


def test_duration_is_none_without_a_started_time() -> None:
    completed = event("completed", result=SUCCESS, timestamp_ms=2000)
    assert track([completed]).calls[0].duration_ms is None


def test_a_call_without_events_has_no_kind_args_or_outcome() -> None:
    call = ToolCall("c1")
    assert (call.kind, call.args, call.outcome) == ("", None, None)
