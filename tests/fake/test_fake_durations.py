"""The durations the fake reports are the time that really passed, unless a scenario
pins them (fake_agent/scenarios/README.md, "Durations"; issue 35: a 0.5 s run of the
fake said "the CLI reports 9.4 s", the web page "Done in 9.4 s")."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fake_env import fake_env

import fake_agent

# docs/protocol.md's own example lines, played verbatim (tests/fake/test_fake_wire_details.py,
# PROTOCOL_EXAMPLES): their durations are part of the line.
PINNED = {"hello": [4210], "cart": [18788]}
SESSION = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"


def played(scenario: str | Path, *extra: str, **env: str) -> tuple[list[dict[str, Any]], int]:
    """The JSON lines of a trusted stream-json run of ``scenario``, and the milliseconds
    the whole process took as this test saw it (a bound: the fake's run lies inside)."""
    flags = ["-p", "--trust", "--output-format=stream-json", *extra]
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "fake_agent", *flags, "--", "hi"],
        capture_output=True,
        timeout=60,
        env=fake_env(FAKE_AGENT_SCENARIO=str(scenario), **env),
    )
    took = int((time.monotonic() - began) * 1000) + 1
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith(b"{")]
    return lines, took


def result_of(lines: list[dict[str, Any]]) -> dict[str, Any]:
    (result,) = [line for line in lines if line.get("type") == "result"]
    return result


def scenario(tmp_path: Path, result: dict[str, Any]) -> Path:
    path = tmp_path / "mine.ndjson"
    init = {"type": "system", "subtype": "init", "session_id": SESSION}
    path.write_text(json.dumps(init) + "\n" + json.dumps(result) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("name", [fake_agent.DEFAULT_SCENARIO, "tools", "thinking"])
def test_a_bundled_scenario_reports_the_time_that_passed(name: str) -> None:
    lines, took = played(name)
    result = result_of(lines)
    # No figure of its own: what the fake measured, within what this test measured.
    assert 0 <= result["duration_ms"] <= took
    assert result["duration_api_ms"] == result["duration_ms"]


def test_a_scenario_that_sleeps_reports_at_least_its_sleeps(tmp_path: Path) -> None:
    path = tmp_path / "slept.ndjson"
    steps = [
        {"type": "system", "subtype": "init", "session_id": SESSION},
        {"fake": "sleep", "seconds": 0.3},
        {"type": "result", "subtype": "success", "is_error": False, "result": "ok"},
    ]
    path.write_text("".join(json.dumps(step) + "\n" for step in steps), encoding="utf-8")
    lines, took = played(path)
    assert 300 <= result_of(lines)["duration_ms"] <= took


def test_measured_durations_go_where_the_real_cli_writes_them(tmp_path: Path) -> None:
    line = {"type": "result", "subtype": "success", "is_error": False, "result": "ok"}
    lines, _ = played(scenario(tmp_path, line))
    assert list(result_of(lines)) == [
        "type",
        "subtype",
        "duration_ms",
        "duration_api_ms",
        "is_error",
        "result",
    ]


def test_a_duration_in_the_result_line_is_pinned(tmp_path: Path) -> None:
    line = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "duration_ms": 9421,
        "duration_api_ms": 9000,
        "result": "ok",
    }
    lines, _ = played(scenario(tmp_path, line))
    result = result_of(lines)
    assert (result["duration_ms"], result["duration_api_ms"]) == (9421, 9000)
    assert list(result) == list(line)


def test_only_the_protocol_example_scenarios_pin_their_durations() -> None:
    pinned = {}
    for name in fake_agent.scenario_names():
        text = fake_agent.scenario_path(name).read_text(encoding="utf-8")
        steps = [json.loads(line) for line in text.split("\n") if line.strip()]
        said = [s["duration_ms"] for s in steps if s.get("type") == "result" and "duration_ms" in s]
        if said:
            pinned[name] = said
    assert pinned == PINNED


def test_a_huge_line_result_reports_the_time_that_passed() -> None:
    lines, took = played("huge_line", FAKE_AGENT_HUGE_LINE_BYTES="1000")
    assert 0 <= result_of(lines)["duration_ms"] <= took


def test_a_leaked_credentials_result_reports_the_time_that_passed(tmp_path: Path) -> None:
    path = tmp_path / "leak.ndjson"
    steps = [
        {"type": "system", "subtype": "init", "session_id": SESSION},
        {"fake": "leak_credentials", "is_error": False},
    ]
    path.write_text("".join(json.dumps(step) + "\n" for step in steps), encoding="utf-8")
    lines, took = played(path)
    assert 0 <= result_of(lines)["duration_ms"] <= took
