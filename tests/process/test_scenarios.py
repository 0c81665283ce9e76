"""Every scenario of the fake agent, in every output format, through run(), run_async()
and run_sync(), on asyncio and trio: the right result, or the right exception."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from replies import glued, reply_of

import fake_agent
from agent_sdk import (
    AgentError,
    AgentModelError,
    AgentOptions,
    AgentProcessError,
    AgentProtocolError,
    AgentResultError,
    Event,
    ResultEvent,
    TextLine,
    UnknownEvent,
    run,
    run_async,
    run_sync,
)
from agent_sdk.errors import AgentConfigRaceError

pytestmark = pytest.mark.anyio

SUCCEEDS = [
    "demo",
    "hello",
    "fix_tests",  # without --force, as here, its writes are refused: nothing changes
    "cart",
    "tools",
    "rejected",
    "thinking",
    "web_lookup",
    "reconnect",
    "unknown_events",
    "banner",
    "surrogate",
    "plan",
    "denied",
    "hook_rejected",
    "hook_traces",
    "custom_tools",
    "doctor",
    "issue_bot",
    "subagents",
    "windows",
    # Structured output (tests/fake/test_fake_json_scenarios.py): here, fresh runs only.
    "json_review",
    "json_corrected",
    "json_never",
    "json_bare",
]
# scenario -> (exception, words of what the CLI said that the message must quote)
FAILS: dict[str, tuple[type[AgentError], str]] = {
    "crash": (AgentProcessError, "Cannot read properties of undefined"),
    "retriable_error": (AgentProcessError, "RetriableError: [unavailable]"),
    "refused_argument": (AgentProcessError, "RetriableError: [invalid_argument] unknown option"),
    "stdout_error": (AgentProcessError, "You've hit your usage limit"),
    "not_logged_in": (AgentProcessError, "Not logged in"),
    "invalid_api_key": (AgentProcessError, "The provided API key is invalid"),
    "usage_limit": (AgentProcessError, "You've hit your usage limit"),
    "crash_mid_stream": (AgentProcessError, "Cannot read properties of null"),
    "killed": (AgentProcessError, "killed by signal SIGKILL"),
    "no_result": (AgentProtocolError, "no result event"),
    "truncated_last_line": (AgentProtocolError, "no result event"),
    "is_error": (AgentResultError, "context window exceeded"),
    "unknown_model": (AgentModelError, "Cannot use this model: gpt-4-turbo-preview"),
    "config_race": (AgentConfigRaceError, "ENOENT: no such file or directory, rename"),
}
# (output_format, stream_partial_output)
FORMATS = [("stream-json", False), ("stream-json", True), ("json", False), ("text", False)]
FORMAT_IDS = ["stream-json", "partial", "json", "text"]


# Fault modes whose output is not a plain run (stalls, hangs, huge lines, garbage on
# stdout): tests/test_lifecycle.py covers them.
LIFECYCLE = {
    "huge_read",
    "huge_line",
    "stall",
    "hang_after_result",
    "stderr_flood",
    "garbage",
    "slow_drip",
    "ignore_sigterm",  # tests/process/test_guarantees.py
    "exit_leaving_child",
    # Their outcome depends on the attempt (FAKE_AGENT_COUNTER): tests/fleet.
    "flaky_start",
    "flaky_after_work",
    # They hold the run in a shell command or leave processes behind
    # (tests/fake/test_fake_processes.py).
    "shell_sleep",
    "shell_ignoring_hangup",
    "background_command",
    "worker_server",
    "daemon",
    "daemon_scrubbed_env",
    "left_behind",
}


def test_every_scenario_is_covered_here() -> None:
    assert set(fake_agent.scenario_names()) == {*SUCCEEDS, *FAILS, *LIFECYCLE}


def scenario_result(name: str) -> str:
    """The `result` text the scenario file scripts: what the SDK must hand back."""
    for line in fake_agent.scenario_path(name).read_text("utf-8").splitlines():
        if line.strip():
            obj = json.loads(line)
            if obj.get("type") == "result":
                return str(obj["result"])
    raise AssertionError(f"scenario {name} has no result")


def text_output(name: str) -> str:
    """What a text-format run prints: the scripted stdout lines, then the result text."""
    lines = []
    for line in fake_agent.scenario_path(name).read_text("utf-8").splitlines():
        if line.strip():
            obj = json.loads(line)
            if obj.get("fake") == "stdout":
                lines.append(obj["text"])
    return "\n".join([*lines, scenario_result(name)])


def options_for(
    make: Callable[..., AgentOptions], scenario: str, fmt: tuple[str, bool], **kw: Any
) -> AgentOptions:
    return make(scenario, output_format=fmt[0], stream_partial_output=fmt[1], **kw)


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
@pytest.mark.parametrize("scenario", SUCCEEDS)
async def test_successful_scenario_returns_its_result(
    fake_options: Callable[..., AgentOptions], scenario: str, fmt: tuple[str, bool]
) -> None:
    result = await run_async("go", options=options_for(fake_options, scenario, fmt))
    # Text output cannot tell a banner from the answer: it is all the output.
    expected = text_output(scenario) if fmt[0] == "text" else scenario_result(scenario)
    assert result.result == expected
    assert result.exit_code == 0


@pytest.mark.parametrize("fmt", FORMATS[:2], ids=FORMAT_IDS[:2])
@pytest.mark.parametrize("scenario", SUCCEEDS)
async def test_assembled_text_is_the_reply_exactly_once(
    fake_options: Callable[..., AgentOptions], scenario: str, fmt: tuple[str, bool]
) -> None:
    result = await run_async("go", options=options_for(fake_options, scenario, fmt))
    # Every scenario's result is the concatenation of its assistant segments, so the
    # text assembled from `new_text` must equal it, with or without partial output; the
    # reply is the same text, its messages a blank line apart (docs/protocol.md §3.3).
    assert glued(result.events) == result.result
    assert result.text == reply_of(result.events)


@pytest.mark.parametrize("scenario", SUCCEEDS)
async def test_stream_json_run_yields_typed_events_ending_with_result(
    fake_options: Callable[..., AgentOptions], scenario: str
) -> None:
    events: list[Event] = [e async for e in run("go", options=fake_options(scenario))]
    assert isinstance(events[-1], ResultEvent)
    session_ids = {e.session_id for e in events if e.session_id is not None}
    assert len(session_ids) == 1
    unknown = [e for e in events if isinstance(e, UnknownEvent)]
    assert bool(unknown) == (scenario == "unknown_events")


@pytest.mark.parametrize("scenario", SUCCEEDS)
async def test_json_format_yields_only_the_result_event(
    fake_options: Callable[..., AgentOptions], scenario: str
) -> None:
    events = [e async for e in run("go", options=fake_options(scenario, output_format="json"))]
    assert len(events) == 1
    assert isinstance(events[0], ResultEvent)
    assert events[0].result == scenario_result(scenario)


async def test_text_format_yields_lines_and_result_is_the_whole_text(
    fake_options: Callable[..., AgentOptions],
) -> None:
    options = fake_options("hello", output_format="text")
    async with run("go", options=options) as events:
        lines = [e async for e in events]
    assert all(isinstance(e, TextLine) for e in lines)
    assert "\n".join(e.text for e in lines if isinstance(e, TextLine)) == events.result.result
    assert events.result.result == scenario_result("hello")


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
@pytest.mark.parametrize("scenario", sorted(FAILS))
async def test_failing_scenario_raises_what_the_cli_said_after_its_events(
    fake_options: Callable[..., AgentOptions], scenario: str, fmt: tuple[str, bool]
) -> None:
    error_type, said = FAILS[scenario]
    if fmt[0] == "text" and not issubclass(error_type, AgentProcessError):
        pytest.skip("text output has no result event: exit 0 is all a text run can check")
    received: list[Event] = []
    with pytest.raises(error_type) as info:
        options = options_for(fake_options, scenario, fmt, keep_events=True)
        async for event in run("go", options=options):
            received.append(event)
    error = info.value
    assert said in str(error)
    assert error.events == received
    if received and fmt[0] == "stream-json":
        assert error.session_id is not None
        assert error.session_id == received[-1].session_id
    if issubclass(error_type, AgentProcessError) and scenario != "killed":
        assert error.exit_code == 1
        assert said in error.stderr + "\n".join(error.stdout_lines)


@pytest.mark.parametrize("scenario", [*SUCCEEDS, *sorted(FAILS)])
async def test_run_sync_inside_a_running_loop_matches_run_async(
    fake_options: Callable[..., AgentOptions], scenario: str
) -> None:
    options = fake_options(scenario)
    if scenario in FAILS:
        with pytest.raises(FAILS[scenario][0]):
            run_sync("go", options=options)
        return
    assert run_sync("go", options=options).result == scenario_result(scenario)


@pytest.mark.parametrize("scenario", [*SUCCEEDS, *sorted(FAILS)])
def test_run_sync_from_plain_code(fake_options: Callable[..., AgentOptions], scenario: str) -> None:
    options = fake_options(scenario)
    if scenario in FAILS:
        error_type, said = FAILS[scenario]
        with pytest.raises(error_type, match=None) as info:
            run_sync("go", options=options)
        assert said in str(info.value)
        return
    result = run_sync("go", options=options)
    assert result.result == scenario_result(scenario)
    assert result.session_id is not None


async def test_huge_read_line_of_40_mb_arrives_whole(
    fake_options: Callable[..., AgentOptions],
) -> None:
    result = await run_async("go", options=fake_options("huge_read"))
    (call,) = result.tool_calls
    content = getattr(call.result, "content", "")
    assert len(content.encode("utf-8")) == 40_000_000
    assert result.result == scenario_result("huge_read")
