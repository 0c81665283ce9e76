"""The fake cursor-agent's events beyond a plain turn (docs/protocol.md §3.5-§3.6b): the
rounds of reconnects before a retriable error, the refused request, and the scenarios of
optional and unknown events (thinking, reconnects, unknown types and subtypes, an old
result without usage).
"""

from __future__ import annotations

import json

import pytest
from fake_play import events, play

ROUND_2026_10 = [
    ("connection", "reconnecting"),
    ("retry", "starting"),
    ("connection", "reconnected"),
]


@pytest.mark.parametrize("name", ["retriable_error", "refused_argument"])
def test_a_retriable_error_follows_three_rounds_of_reconnects(name: str) -> None:
    # docs/protocol.md §3.6: reconnecting -> starting -> reconnected, three times, no result.
    found = events(play(name))
    rounds = [(e["type"], e["subtype"]) for e in found if e["type"] in ("connection", "retry")]
    assert rounds == ROUND_2026_10 * 3
    assert found[-1]["type"] == "connection"


@pytest.mark.parametrize("name", ["retriable_error", "refused_argument"])
def test_the_2026_10_retry_lines_put_session_and_time_right_after_the_subtype(name: str) -> None:
    lines = play(name).stdout.decode("utf-8").splitlines()
    retry = [json.loads(line) for line in lines if '"subtype":"starting"' in line]
    assert [list(e)[:4] for e in retry] == [["type", "subtype", "session_id", "timestamp_ms"]] * 3
    assert [e["is_resume"] for e in retry] == [False] * 3


def test_the_refused_request_has_no_reply_before_it_fails() -> None:
    # The seen 2026.10 refusal: init and user, the rounds, no assistant (§3.6).
    proc = play("refused_argument")
    assert "assistant" not in [e["type"] for e in events(proc)]
    assert proc.stderr.startswith(b"RetriableError: [invalid_argument] ")
    assert proc.returncode == 1


@pytest.mark.parametrize("name", ["thinking", "reconnect", "unknown_events"])
def test_optional_event_scenarios_succeed(name: str) -> None:
    proc = play(name)
    assert proc.returncode == 0
    assert events(proc)[-1]["type"] == "result"


def test_unknown_events_has_unknown_types_and_subtypes() -> None:
    seen = {(e["type"], e.get("subtype")) for e in events(play("unknown_events"))}
    assert {
        ("interaction_query", "request"),
        ("interaction_query", "response"),
        ("system", "task_notification"),
        ("system", "background_shell_timeout"),
    } <= seen


def test_unknown_events_result_is_an_old_one_without_usage() -> None:
    result = events(play("unknown_events"))[-1]
    assert "usage" not in result
    assert "request_id" not in result
