"""The fake cursor-agent played against the contract (docs/protocol.md): runs, formats,
scenarios, prompts.

Each test spawns ``python -m fake_agent`` like the SDK does. Runs that several tests
look at are cached (``play``), so the file stays fast.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest
from fake_env import ROOT, fake_env

from fake_agent import SCENARIOS_DIR, scenario_names

pytestmark = pytest.mark.anyio

SMALL_HUGE_READ = 200_000

SUCCESS = [
    "demo",
    "hello",
    "cart",
    "tools",
    "rejected",
    "thinking",
    "web_lookup",
    "reconnect",
    "unknown_events",
    "banner",
    "surrogate",
    "huge_read",
    "is_error",
    "slow_drip",
    "stderr_flood",
    "plan",
    "denied",
    "hook_rejected",
    "hook_traces",
    "custom_tools",
    "doctor",
    "issue_bot",
    "subagents",
    "windows",
    "fix_tests",
    "json_review",
    "json_corrected",
    "json_never",
    "json_bare",
]
# Scenarios whose outcome depends on the attempt (``fail_first``) are listed with their
# first attempt's: ``play`` gives every run a fresh counter. Later attempts are played in
# tests/fake/test_fake_fleet_support.py.
FAILURE = {
    "retriable_error": 1,
    "refused_argument": 1,
    "crash": 1,
    "stdout_error": 1,
    "usage_limit": 1,
    "not_logged_in": 1,
    "invalid_api_key": 1,
    "unknown_model": 1,
    "config_race": 1,
    "flaky_start": 1,
    "flaky_after_work": 1,
}
NO_RESULT_SUCCESS = ["no_result"]
ALL = SUCCESS + list(FAILURE) + NO_RESULT_SUCCESS
# Fault modes that do not fit the generic checks here (they stall, hang, get killed,
# leave a child holding stdout, or write broken lines): each is played in
# tests/fake/test_fake_agent_faults.py.
FAULTS = [
    "stall",
    "hang_after_result",
    "crash_mid_stream",
    "killed",
    "garbage",
    "truncated_last_line",
    "huge_line",
    "ignore_sigterm",
    "exit_leaving_child",
]
# Scenarios that start processes the run leaves behind (a command held, helpers): each is
# played in tests/fake/test_fake_processes.py.
PROCESSES = [
    "shell_sleep",
    "shell_ignoring_hangup",
    "background_command",
    "worker_server",
    "daemon",
    "daemon_scrubbed_env",
    "left_behind",
]
FORMATS = ["text", "json", "stream-json"]


def _env(**extra: str) -> dict[str, str]:
    return fake_env(FAKE_AGENT_HUGE_READ_BYTES=str(SMALL_HUGE_READ), **extra)


def run(
    *args: str,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Spawn the fake with ``args``; stdin is /dev/null unless bytes are given."""
    return subprocess.run(
        [sys.executable, "-m", "fake_agent", *args],
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        env=env or _env(),
        cwd=cwd or ROOT,
        timeout=30,
        check=False,
    )


@functools.cache
def play(
    scenario: str, fmt: str = "stream-json", partial: bool = False, extra: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[bytes]:
    """A trusted ``--print`` run of ``scenario`` (cached: runs are deterministic enough)."""
    args = ["-p", "--trust", f"--output-format={fmt}", *extra]
    if partial:
        args.append("--stream-partial-output")
    scratch = Path(tempfile.mkdtemp(prefix="fake-play-"))
    try:
        # A fresh counter: a first attempt. A scenario changing files plays in a
        # scratch directory, never in the checkout.
        env = _env(FAKE_AGENT_SCENARIO=scenario, FAKE_AGENT_COUNTER=str(scratch / "count"))
        cwd = scratch if changes_files(scenario) else None
        return run(*args, "--", "hi there", env=env, cwd=cwd)
    finally:
        shutil.rmtree(scratch)


def events(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    """The JSON objects among stdout's lines (non-JSON lines skipped)."""
    found = []
    for line in proc.stdout.split(b"\n"):
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            found.append(obj)
    return found


def text_of(event: dict[str, Any]) -> str:
    return "".join(block["text"] for block in event["message"]["content"])


def scenario_steps(name: str) -> list[dict[str, Any]]:
    lines = (SCENARIOS_DIR / f"{name}.ndjson").read_text(encoding="utf-8").split("\n")
    return [json.loads(line) for line in lines if line.strip()]


def changes_files(name: str) -> bool:
    return any(step.get("fake") in ("write_file", "delete_file") for step in scenario_steps(name))


def scenario_has_result(name: str) -> bool:
    return any(step.get("type") == "result" for step in scenario_steps(name))


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


# --------------------------------------------------------------------------- session ids


def test_resume_keeps_the_session_id_on_every_event() -> None:
    proc = play("tools", extra=("--resume=chat-123",))
    with_id = [e for e in events(proc) if "session_id" in e]
    assert len(with_id) > 10
    assert {e["session_id"] for e in with_id} == {"chat-123"}


def test_resume_with_separate_value_keeps_the_session_id() -> None:
    proc = run("-p", "--trust", "--output-format", "json", "--resume", "abc-1", "--", "x")
    assert json.loads(proc.stdout)["session_id"] == "abc-1"


def test_fresh_run_uses_one_uuid4_on_all_events() -> None:
    ids = {e["session_id"] for e in events(play("tools")) if "session_id" in e}
    assert len(ids) == 1
    assert uuid.UUID(ids.pop()).version == 4


def test_fresh_runs_get_distinct_session_ids() -> None:
    first = json.loads(run("-p", "--trust", "--output-format", "json", "--", "a").stdout)
    second = json.loads(run("-p", "--trust", "--output-format", "json", "--", "a").stdout)
    assert first["session_id"] != second["session_id"]


def test_session_id_is_not_added_to_a_user_event_without_one() -> None:
    user = next(e for e in events(play("unknown_events")) if e["type"] == "user")
    assert "session_id" not in user


# --------------------------------------------------------------------------- patched events


def test_user_event_carries_the_actual_prompt() -> None:
    user = next(e for e in events(play("hello")) if e["type"] == "user")
    assert user["message"]["content"] == [{"type": "text", "text": "hi there"}]


def test_init_defaults() -> None:
    init = events(play("hello"))[0]
    assert (init["model"], init["apiKeySource"], init["permissionMode"]) == (
        "Auto",
        "login",
        "default",
    )
    assert init["cwd"] == str(ROOT)


def test_init_reflects_model_force_and_workspace(tmp_path: Path) -> None:
    proc = run(
        "-p",
        "-f",
        "--output-format=stream-json",
        "--model",
        "sonnet-4.5",
        f"--workspace={tmp_path}",
        "--",
        "x",
    )
    init = events(proc)[0]
    assert (init["model"], init["permissionMode"], init["cwd"]) == (
        "Claude 4.5 Sonnet",
        "default",
        str(tmp_path),
    )


def test_api_key_source_is_flag_with_api_key() -> None:
    proc = run("-p", "--trust", "--output-format=stream-json", "--api-key=k", "--", "x")
    assert events(proc)[0]["apiKeySource"] == "flag"


def test_api_key_source_is_env_with_cursor_api_key() -> None:
    proc = run(
        "-p", "--trust", "--output-format=stream-json", "--", "x", env=_env(CURSOR_API_KEY="k")
    )
    assert events(proc)[0]["apiKeySource"] == "env"


@pytest.mark.parametrize("flag", ["-f", "--force", "--yolo"])
def test_force_aliases_trust_and_keep_the_default_permission_mode(flag: str) -> None:
    proc = run("-p", flag, "--output-format=stream-json", "--", "x")
    assert (proc.returncode, events(proc)[0]["permissionMode"]) == (0, "default")


# --------------------------------------------------------------------------- prompts


def test_prompt_is_read_from_stdin_when_not_given() -> None:
    prompt = "line one\nline two é " + "x" * 200_000
    proc = run("-p", "--trust", "--output-format=stream-json", stdin=prompt.encode())
    user = next(e for e in events(proc) if e["type"] == "user")
    assert text_of(user) == prompt


def test_positional_prompt_never_reads_stdin() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "fake_agent", "-p", "--trust", "--output-format=json", "--", "x"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
        cwd=ROOT,
    )
    try:
        # stdin stays open and idle: the fake must still finish.
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()
        proc.communicate()


# --------------------------------------------------------------------------- slow stdin

STREAM_JSON_FLAGS = ("-p", "--trust", "--output-format=stream-json")
STREAM_JSON = [sys.executable, "-m", "fake_agent", *STREAM_JSON_FLAGS]
# Far more than a pipe holds (64 KiB on Linux): a write of it blocks until the fake reads.
BIG_PROMPT = "read slowly " * 100_000
# How long "the write is still blocked" is watched for, while the fake waits an hour.
QUIET = 0.4


async def test_stdin_delay_blocks_a_prompt_write_until_the_fake_reads() -> None:
    with anyio.fail_after(30):
        async with await anyio.open_process(
            STREAM_JSON,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_env(FAKE_AGENT_STDIN_DELAY="3600"),
            cwd=ROOT,
            start_new_session=True,
        ) as proc:
            try:
                assert proc.stdin is not None
                with anyio.move_on_after(QUIET) as waited:
                    await proc.stdin.send(BIG_PROMPT.encode())
                assert waited.cancelled_caught  # nobody reads: the write is stuck
                assert proc.returncode is None
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)


async def test_stdin_delay_then_reads_the_whole_prompt() -> None:
    with anyio.fail_after(30):
        proc = await anyio.run_process(
            STREAM_JSON,
            input=BIG_PROMPT.encode(),
            env=_env(FAKE_AGENT_STDIN_DELAY="0.2"),
            cwd=ROOT,
            check=False,
        )
    user = next(e for e in events(proc) if e["type"] == "user")
    assert (proc.returncode, text_of(user)) == (0, BIG_PROMPT)


def test_stdin_delay_does_not_apply_to_a_positional_prompt() -> None:
    # With the delay applied, this run would sleep an hour: run() gives up after 30 s.
    proc = run(*STREAM_JSON_FLAGS, "--", "x", env=_env(FAKE_AGENT_STDIN_DELAY="3600"))
    assert proc.returncode == 0
    assert events(proc)[-1]["type"] == "result"


@pytest.mark.parametrize("value", ["soon", "-1", "nan", "inf", "1e999", " "])
def test_bad_stdin_delay_exits_2_before_any_output(value: str) -> None:
    proc = run(*STREAM_JSON_FLAGS, "--", "x", env=_env(FAKE_AGENT_STDIN_DELAY=value))
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr.decode() == (
        f"fake_agent: FAKE_AGENT_STDIN_DELAY must be a number of seconds >= 0, not {value!r}\n"
    )


def test_prompt_starting_with_dash_after_double_dash() -> None:
    proc = run("-p", "--trust", "--output-format=stream-json", "--", "--force", "-p", "me")
    user = next(e for e in events(proc) if e["type"] == "user")
    assert text_of(user) == "--force -p me"


def test_positional_words_are_joined_by_one_space() -> None:
    proc = run("-p", "--trust", "--output-format=stream-json", "add", "a", "test")
    user = next(e for e in events(proc) if e["type"] == "user")
    assert text_of(user) == "add a test"


def test_words_after_double_dash_are_not_subcommands() -> None:
    proc = run("-p", "--trust", "--output-format=json", "--", "models")
    assert json.loads(proc.stdout)["type"] == "result"


# --------------------------------------------------------------------------- scenario choice


def test_default_scenario_is_demo() -> None:
    proc = run("-p", "--trust", "--output-format=text", "--", "anything")
    assert proc.stdout.endswith(b"Both tests pass.\n")


def test_scenario_from_prompt_token() -> None:
    proc = run("-p", "--trust", "--output-format=json", "--", "please scenario:is_error now")
    assert json.loads(proc.stdout)["is_error"] is True


def test_scenario_from_prompt_token_on_stdin() -> None:
    proc = run("-p", "--trust", "--output-format=json", stdin=b"go\nscenario:is_error\n")
    assert json.loads(proc.stdout)["is_error"] is True


def test_scenario_env_wins_over_prompt_token() -> None:
    proc = run(
        "-p",
        "--trust",
        "--output-format=json",
        "--",
        "scenario:is_error",
        env=_env(FAKE_AGENT_SCENARIO="hello"),
    )
    assert json.loads(proc.stdout)["is_error"] is False


def test_scenario_from_env_path(tmp_path: Path) -> None:
    custom = tmp_path / "mine.ndjson"
    custom.write_text(
        '{"type":"result","subtype":"success","is_error":false,"result":"custom!",'
        '"session_id":"s"}\n{"fake":"stderr","text":"bye"}\n{"fake":"exit","code":3}\n',
        encoding="utf-8",
    )
    proc = run(
        "-p",
        "--trust",
        "--output-format=json",
        "--",
        "x",
        env=_env(FAKE_AGENT_SCENARIO=str(custom)),
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, b"", b"bye\n")


def test_unknown_scenario_exits_2_listing_known_ones() -> None:
    proc = run("-p", "--trust", "--", "x", env=_env(FAKE_AGENT_SCENARIO="nope"))
    assert proc.returncode == 2
    assert proc.stderr.startswith(
        b"fake_agent: no scenario named 'nope' (known: background_command, banner, cart"
    )
    assert proc.stdout == b""


def test_invalid_scenario_file_exits_2_naming_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"type":"system"}\n{"fake":"explode"}\n', encoding="utf-8")
    proc = run("-p", "--trust", "--", "x", env=_env(FAKE_AGENT_SCENARIO=str(bad)))
    assert proc.returncode == 2
    assert b"bad.ndjson:2: unknown directive 'explode'" in proc.stderr


def test_exit_directive_must_be_last(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"fake":"exit","code":0}\n{"type":"system"}\n', encoding="utf-8")
    proc = run("-p", "--trust", "--", "x", env=_env(FAKE_AGENT_SCENARIO=str(bad)))
    assert (proc.returncode, proc.stdout) == (2, b"")


# --------------------------------------------------------------------------- wire details


def test_surrogate_is_written_as_an_escape_on_the_wire() -> None:
    out = play("surrogate").stdout
    assert b'party time \\ud83d"' in out
    out.decode("utf-8")  # and the rest is valid UTF-8


def test_non_ascii_stays_raw_utf8_on_the_wire() -> None:
    assert "🎉".encode() in play("surrogate").stdout


def test_call_ids_keep_their_escaped_newline() -> None:
    assert b'"call_id":"call_Rd01\\nfc_0b21"' in play("tools").stdout


def test_huge_read_is_one_line_with_content_of_the_requested_size() -> None:
    lines = play("huge_read").stdout.split(b"\n")
    big = [line for line in lines if len(line) > SMALL_HUGE_READ]
    assert len(big) == 1
    completed = json.loads(big[0])
    content = completed["tool_call"]["readToolCall"]["result"]["success"]["content"]
    assert len(content.encode("utf-8")) == SMALL_HUGE_READ
    assert "é" in content[-40:]
    assert "🎉" in content[-40:]


def test_huge_read_pairs_started_with_completed() -> None:
    calls = [e for e in events(play("huge_read")) if e["type"] == "tool_call"]
    assert [c["subtype"] for c in calls] == ["started", "completed"]
    assert calls[0]["call_id"] == calls[1]["call_id"]


# Example lines of the protocol (docs/protocol.md §2-§3), copied verbatim: each is
# reproduced by a scenario.
PROTOCOL_EXAMPLES = [
    (
        "hello",
        "json",
        "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10",
        '{"type":"result","subtype":"success","is_error":false,"duration_ms":4210,"duration_api_ms":4210,"result":"Done. I added the test.","session_id":"0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10","request_id":"9e1f0c3a-7d2b-4c65-8a0e-2b5d6f7a8c91","usage":{"inputTokens":18211,"outputTokens":96,"cacheReadTokens":5120,"cacheWriteTokens":0}}',  # noqa: E501
    ),
    (
        "cart",
        "stream-json",
        "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10",
        '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"Add a test for cart totals"}]},"session_id":"0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"}',  # noqa: E501
    ),
    (
        "cart",
        "stream-json",
        "0b7c...",
        '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"I\'ll read the cart module first."}]},"session_id":"0b7c...","model_call_id":"9e1f0c3a-...-0-kq3z","timestamp_ms":1785515118001}',  # noqa: E501
    ),
    (
        "cart",
        "stream-json",
        "0b7c...",
        '{"type":"tool_call","subtype":"started","call_id":"call_7Qx2\\nfc_01ab","tool_call":{"readToolCall":{"args":{"path":"src/cart.py"}},"toolCallId":"call_7Qx2\\nfc_01ab","startedAtMs":"1785515118821","hookAdditionalContexts":[]},"model_call_id":"9e1f0c3a-...-0-kq3z","session_id":"0b7c...","timestamp_ms":1785515118818}',
    ),
    (
        "cart",
        "stream-json",
        "0b7c...",
        '{"type":"tool_call","subtype":"completed","call_id":"call_7Qx2\\nfc_01ab","tool_call":{"readToolCall":{"args":{"path":"src/cart.py"},"result":{"success":{"content":"def total(items):\\n    ...","isEmpty":false,"exceededLimit":false,"totalLines":54,"totalChars":1254}}},"toolCallId":"call_7Qx2\\nfc_01ab","startedAtMs":"1785515118821","completedAtMs":"1785515118990"},"session_id":"0b7c...","timestamp_ms":1785515118991}',  # noqa: E501
    ),
    (
        "cart",
        "stream-json",
        "0b7c...",
        '{"type":"result","subtype":"success","duration_ms":18788,"duration_api_ms":18788,"is_error":false,"result":"I\'ll read the cart module first.The test is added and passes.","session_id":"0b7c...","request_id":"9e1f0c3a-7d2b-4c65-8a0e-2b5d6f7a8c91","usage":{"inputTokens":115,"outputTokens":18,"cacheReadTokens":19776,"cacheWriteTokens":0}}',  # noqa: E501
    ),
    (
        "rejected",
        "stream-json",
        "0b7c...",
        '{"type":"tool_call","subtype":"completed","call_id":"call_9","tool_call":{"shellToolCall":{"args":{"command":"pytest -q"},"result":{"rejected":{"command":"pytest -q","workingDirectory":"/home/dev/shop","reason":"","isReadonly":false}}}},"session_id":"0b7c..."}',  # noqa: E501
    ),
    (
        "thinking",
        "stream-json",
        "0b7c...",
        '{"type":"thinking","subtype":"delta","text":"**Planning the change","session_id":"0b7c...","timestamp_ms":1785515117001}',  # noqa: E501
    ),
    (
        "thinking",
        "stream-json",
        "0b7c...",
        '{"type":"thinking","subtype":"completed","session_id":"0b7c...","timestamp_ms":1785515117950}',
    ),
    (
        "reconnect",
        "stream-json",
        "0b7c...",
        '{"type":"connection","subtype":"reconnecting","attempt":1,"endpoint_url":"https://api.example.invalid","session_id":"0b7c...","timestamp_ms":1785515120000}',
    ),
    (
        "reconnect",
        "stream-json",
        "0b7c...",
        '{"type":"retry","subtype":"starting","attempt":1,"is_resume":true,"session_id":"0b7c...","timestamp_ms":1785515120400}',
    ),
    (
        "reconnect",
        "stream-json",
        "0b7c...",
        '{"type":"connection","subtype":"reconnected","session_id":"0b7c...","timestamp_ms":1785515121000}',
    ),
]


@pytest.mark.parametrize(("scenario", "fmt", "session", "line"), PROTOCOL_EXAMPLES)
def test_protocol_example_is_reproduced_verbatim(
    scenario: str, fmt: str, session: str, line: str
) -> None:
    proc = run(
        "-p",
        "--trust",
        f"--output-format={fmt}",
        f"--resume={session}",
        "--",
        "Add a test for cart totals",
        env=_env(FAKE_AGENT_SCENARIO=scenario),
    )
    assert line.encode() in proc.stdout.split(b"\n")


def test_init_example_is_reproduced_with_its_workspace_and_env_key() -> None:
    # The example's cwd (/home/dev/shop) does not exist here: compare all but cwd.
    example = json.loads(
        '{"type":"system","subtype":"init","apiKeySource":"env","cwd":"/home/dev/shop","session_id":"0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10","model":"Claude 4.5 Sonnet","permissionMode":"default"}'  # noqa: E501
    )
    proc = run(
        "-p",
        "--trust",
        "--output-format=stream-json",
        "--model=sonnet-4.5",
        f"--resume={example['session_id']}",
        "--",
        "x",
        env=_env(CURSOR_API_KEY="k"),
    )
    init = events(proc)[0]
    assert list(init) == list(example)
    assert {**init, "cwd": None} == {**example, "cwd": None}


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


def test_leak_credentials_prints_the_variables_it_is_asked_for(tmp_path: Path) -> None:
    # A CLI logging what it passes on to an MCP server (its ${env:...}): the run's own
    # secrets, which agent_sdk must redact too (docs/extend.md).
    scenario = tmp_path / "leak.ndjson"
    step = {"fake": "leak_credentials", "variables": ["PLANTED_TOKEN", "UNSET_ONE"]}
    scenario.write_text(json.dumps(step) + "\n")
    env = _env(FAKE_AGENT_SCENARIO=str(scenario), PLANTED_TOKEN="tok-123")
    env.pop("UNSET_ONE", None)
    proc = run("-p", "--trust", "--output-format=stream-json", "--", "hi", env=env)
    assert b"PLANTED_TOKEN=tok-123; UNSET_ONE=\n" in proc.stderr


def test_leak_credentials_refuses_variables_that_are_not_names(tmp_path: Path) -> None:
    scenario = tmp_path / "leak.ndjson"
    scenario.write_text(json.dumps({"fake": "leak_credentials", "variables": [3]}) + "\n")
    proc = run("-p", "--trust", "--", "hi", env=_env(FAKE_AGENT_SCENARIO=str(scenario)))
    assert proc.returncode == 2
    assert b"'variables' must be a list of variable names" in proc.stderr
