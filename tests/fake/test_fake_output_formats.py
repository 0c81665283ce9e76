"""The fake cursor-agent's three output formats (docs/protocol.md §2-§4): every bundled
scenario, in text, json and stream-json, exits with its code and prints what its format
prints (lines of JSON, the result line alone, the result's text), stderr apart, banner lines
in place, stream-json flushed line by line. And every bundled scenario is classified.

Each test spawns ``python -m fake_agent`` like the SDK does (fake_play.py).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from fake_env import ROOT
from fake_play import (
    ALL,
    FAILURE,
    FAULTS,
    FORMATS,
    NO_RESULT_SUCCESS,
    PROCESSES,
    SUCCESS,
    _env,
    events,
    play,
    scenario_has_result,
    scenario_steps,
)

from fake_agent import scenario_names

# --------------------------------------------------------------------------- catalogue


def test_every_bundled_scenario_is_classified_by_these_tests() -> None:
    assert sorted(ALL + FAULTS + PROCESSES) == scenario_names()


# --------------------------------------------------------------------------- all formats


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("scenario", ALL)
def test_exit_code_is_the_scenarios(scenario: str, fmt: str) -> None:
    assert play(scenario, fmt).returncode == FAILURE.get(scenario, 0)


@pytest.mark.parametrize("scenario", ALL)
def test_stream_json_lines_are_json_objects_ending_in_newline(scenario: str) -> None:
    out = play(scenario).stdout
    assert not out or out.endswith(b"\n")
    raw_lines = {step["text"] for step in scenario_steps(scenario) if step.get("fake") == "stdout"}
    raw = {line for text in raw_lines for line in text.split("\n")}
    for line in out.decode("utf-8").split("\n")[:-1]:
        if line in raw:
            continue
        assert isinstance(json.loads(line), dict)


@pytest.mark.parametrize(
    "scenario", [s for s in ALL if scenario_has_result(s) and s not in FAILURE]
)
def test_stream_json_last_line_is_the_result(scenario: str) -> None:
    last = json.loads(play(scenario).stdout.split(b"\n")[-2])
    assert last["type"] == "result"


@pytest.mark.parametrize("scenario", list(FAILURE) + NO_RESULT_SUCCESS)
def test_stream_json_of_failed_run_has_no_result(scenario: str) -> None:
    assert all(event["type"] != "result" for event in events(play(scenario)))


@pytest.mark.parametrize("scenario", SUCCESS)
def test_json_prints_exactly_the_result_line(scenario: str) -> None:
    proc = play(scenario, "json")
    raw = [s["text"] for s in scenario_steps(scenario) if s.get("fake") == "stdout"]
    lines = proc.stdout.decode("utf-8").split("\n")
    assert lines[-1] == ""
    json_lines = [line for line in lines[:-1] if line not in raw]
    assert len(json_lines) == 1
    assert json.loads(json_lines[0])["type"] == "result"


@pytest.mark.parametrize("scenario", list(FAILURE) + NO_RESULT_SUCCESS)
def test_json_prints_no_json_when_run_failed(scenario: str) -> None:
    assert events(play(scenario, "json")) == []


@pytest.mark.parametrize("scenario", SUCCESS)
def test_text_prints_result_text_and_newline(scenario: str) -> None:
    result = next(s for s in scenario_steps(scenario) if s.get("type") == "result")
    raw = "".join(s["text"] + "\n" for s in scenario_steps(scenario) if s.get("fake") == "stdout")
    assert play(scenario, "text").stdout.decode("utf-8") == raw + result["result"] + "\n"


@pytest.mark.parametrize("scenario", list(FAILURE) + NO_RESULT_SUCCESS)
def test_text_of_failed_run_is_only_the_scripted_stdout(scenario: str) -> None:
    raw = "".join(s["text"] + "\n" for s in scenario_steps(scenario) if s.get("fake") == "stdout")
    assert play(scenario, "text").stdout.decode("utf-8") == raw


@pytest.mark.parametrize("fmt", FORMATS)
def test_stderr_directive_goes_to_stderr_in_every_format(fmt: str) -> None:
    proc = play("retriable_error", fmt)
    assert proc.stderr.startswith(b"RetriableError: [unavailable]")
    assert b"RetriableError" not in proc.stdout


@pytest.mark.parametrize("fmt", FORMATS)
def test_banner_lines_appear_in_order_in_every_format(fmt: str) -> None:
    lines = play("banner", fmt).stdout.decode("utf-8").split("\n")
    assert lines[0].startswith("Cursor Agent ")
    assert any(line.startswith("T: ") for line in lines)


def test_banner_lines_sit_among_the_events_in_stream_json() -> None:
    lines = play("banner").stdout.decode("utf-8").split("\n")
    t_line = next(i for i, line in enumerate(lines) if line.startswith("T: "))
    assert json.loads(lines[t_line - 1])["type"] == "user"
    assert json.loads(lines[t_line + 1])["type"] == "assistant"


def test_is_error_result_is_printed_in_json_with_exit_zero() -> None:
    proc = play("is_error", "json")
    result = json.loads(proc.stdout)
    assert (proc.returncode, result["is_error"], result["subtype"]) == (0, True, "error")


def test_stdout_error_text_is_on_stdout() -> None:
    proc = play("stdout_error", "json")
    assert proc.stdout.startswith(b"Error: You've hit your usage limit")
    assert proc.stdout.count(b"\n") >= 2


def test_stream_json_is_flushed_line_by_line() -> None:
    # A reader must see the first event while the run is still going (sleeps follow).
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fake_agent",
            "-p",
            "--trust",
            "--output-format",
            "stream-json",
            "--",
            "x",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(FAKE_AGENT_SCENARIO="retriable_error"),
        cwd=ROOT,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert json.loads(first)["subtype"] == "init"
    finally:
        proc.communicate(timeout=30)
