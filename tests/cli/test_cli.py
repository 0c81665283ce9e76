"""``agent-sdk [run]`` end to end: ``python -m agent_sdk`` against the bundled fake agent."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from cli_process import ESC, Terminal, cli, cli_env, processes_with_arg
from proctable import settles

import agent_sdk
from agent_sdk import TextLine
from agent_sdk.cli import main
from agent_sdk.cli.args import use_color
from agent_sdk.events import to_json


# --- live runs against the fake --------------------------------------------------------
def stalled_command() -> tuple[subprocess.Popen[str], str]:
    """``agent-sdk --fake stall`` with its agent started and silent; the prompt, unique,
    finds the agent (its argv holds it)."""
    prompt = f"hi {uuid.uuid4()}"
    child = subprocess.Popen(
        [sys.executable, "-m", "agent_sdk", "--fake", "stall", "--", prompt],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
        # A child of a non-interactive shell may inherit SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stderr is not None
    assert child.stderr.readline().startswith("● ")  # the run has started
    assert set(processes_with_arg(prompt)) - {child.pid}  # the agent, running
    return child, prompt


def test_fake_hello_prints_the_reply_and_a_summary_and_exits_0() -> None:
    done = cli("--fake", "hello", "add a test")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Done. I added the test.\n"
    # The run's wall time, and the CLI's own figure (the fake's recorded 4.2 s) beside it.
    assert re.search(r"✓ success in \d+\.\d s \(the CLI reports 4\.2 s\)", done.stderr)
    assert "tokens   18,211 in · 96 out" in done.stderr
    assert "session  " in done.stderr


def test_run_subcommand_is_the_same_as_no_subcommand() -> None:
    done = cli("run", "--fake", "hello", "add a test")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Done. I added the test.\n"


def test_fake_tools_shows_each_tool_call_kind_as_it_starts_and_completes() -> None:
    done = cli("--fake", "tools", "add a test")
    assert done.returncode == 0, done.stderr
    for label in (
        "ls /home/dev/shop",
        "read src/cart.py",
        "read README.md",
        "grep 'total\\(' in /home/dev/shop",
        "glob tests/**/*.py",
        "write tests/test_cart.py",
        "edit src/cart.py",
        "$ pytest -q",
        "delete tests/old_test_cart.py",
        "todos (3)",
        "mcp linear get_issue",
        "function fetch_changelog",
        "web search python decimal quantize cents",
    ):
        assert f"▸ {label}\n" in done.stderr
        assert f"✓ {label}  " in done.stderr
    # `ruff check tests` ran (a success outcome) but exited 1: shown as such.
    assert "  ✗ $ ruff check tests — exit 1  " in done.stderr
    assert "tools    17: 16 ✓, 1 non-zero exit" in done.stderr
    assert "ToolCall" not in done.stderr


def test_json_prints_one_object_per_line_each_with_a_type_ending_with_the_result() -> None:
    done = cli("--fake", "tools", "--json", "add a test")
    assert done.returncode == 0, done.stderr
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(isinstance(o, dict) and isinstance(o["type"], str) for o in objects)
    assert objects[-1]["type"] == "result"
    assert {"system", "user", "assistant", "tool_call"} <= {o["type"] for o in objects}
    assert done.stderr == ""


def test_crash_exits_1_with_the_cli_text_on_stderr() -> None:
    done = cli("--fake", "crash", "add a test")
    assert done.returncode == 1
    assert "agent-sdk: error: cursor-agent exited with code 1: TypeError" in done.stderr
    assert "tools    1: 1 running" in done.stderr


def test_unknown_model_is_a_usage_error_with_the_hint_in_flag_terms() -> None:
    done = cli("--fake", "--model", "nope", "hi")
    assert done.returncode == 2
    assert "Cannot use this model: nope" in done.stderr
    assert "Hint: pass one of the models the CLI listed" in done.stderr
    assert "as --model ID, or leave --model out for the CLI's default" in done.stderr
    assert "AgentOptions" not in done.stderr


def test_a_chosen_chat_id_is_the_runs_and_reusing_it_is_a_usage_error(tmp_path: Path) -> None:
    chosen = str(uuid.uuid4())
    # The fake keeps its chat store only under CURSOR_CONFIG_DIR.
    args = ("--fake", "hello", "--env", f"CURSOR_CONFIG_DIR={tmp_path}", "--new-session-id")
    first = cli(*args, chosen, "hi")
    assert first.returncode == 0, first.stderr
    assert f"session  {chosen}" in first.stderr
    again = cli(*args, chosen, "hi")
    assert again.returncode == 2
    assert f'Session ID "{chosen}" is already in use.' in again.stderr
    assert f"continue its chat with --resume {chosen}, or start a new chat" in again.stderr
    assert "AgentOptions" not in again.stderr
    assert "Session(" not in again.stderr


def test_result_with_is_error_exits_1() -> None:
    done = cli("--fake", "is_error", "hi")
    assert done.returncode == 1
    assert "✗ error" in done.stderr


def test_timeout_exits_124() -> None:
    done = cli("--fake", "stall", "--timeout", "1", "hi")
    assert done.returncode == 124
    assert "agent-sdk: error: cursor-agent did not finish within 1 s (--timeout)" in done.stderr
    assert "✗ timed out" in done.stderr
    # The hint names the flag, and the session to resume.
    session = done.stderr.split("  session  ")[1].split()[0]
    assert f"resume the chat with --resume {session}\n" in done.stderr
    assert "AgentOptions" not in done.stderr


@pytest.mark.parametrize(
    ("signum", "status", "how"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
)
def test_a_signal_ends_the_agent_and_exits_with_its_status(
    signum: signal.Signals, status: int, how: str
) -> None:
    child, prompt = stalled_command()
    child.send_signal(signum)
    _, err = child.communicate(timeout=30)
    assert child.returncode == status
    assert f"✗ {how}" in err
    assert f"agent-sdk: error: {how}; the agent's process group was ended" in err
    assert processes_with_arg(prompt) == []


@pytest.mark.parametrize(
    ("signals", "status", "how"),
    [
        ([signal.SIGINT] * 3, 130, "interrupted"),
        ([signal.SIGTERM] * 2, 143, "terminated"),
        ([signal.SIGTERM, signal.SIGINT], 143, "terminated"),
    ],
    ids=["ctrl-c thrice", "sigterm twice", "sigterm then ctrl-c"],
)
def test_more_signals_while_the_agent_ends_change_nothing(
    tmp_path: Path, signals: list[signal.Signals], status: int, how: str
) -> None:
    # An agent that ignores SIGTERM: its teardown lasts the SDK's grace, and the next
    # signals land in it.
    stubborn = tmp_path / "stubborn.ndjson"
    lines = [
        {"type": "system", "subtype": "init", "session_id": "s"},
        {"fake": "ignore_sigterm"},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "ready"}]}},
        {"fake": "stall"},
    ]
    stubborn.write_text("".join(json.dumps(line) + "\n" for line in lines))
    prompt = f"hi {uuid.uuid4()}"  # the agent's argv holds it: the agent can be found
    child = subprocess.Popen(
        [sys.executable, "-m", "agent_sdk", "--fake", str(stubborn), "--json", "--", prompt],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert child.stdout is not None
        while '"assistant"' not in child.stdout.readline():  # SIGTERM is ignored now
            assert child.poll() is None
        for number, signum in enumerate(signals):
            if number:
                time.sleep(0.005 * number**2)  # 5 ms, then 20 ms: in the teardown
            child.send_signal(signum)
        _, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == status, err
    assert f"agent-sdk: error: {how}; the agent's process group was ended" in err
    assert "Traceback" not in err
    assert processes_with_arg(prompt) == []


def test_killing_the_command_ends_its_agent(tmp_path: Path) -> None:
    # SIGKILL: no teardown of ours runs; the agent dies of its parent's death
    # (docs/lifecycle.md, "When the program dies").
    child, prompt = stalled_command()
    try:
        child.kill()
        child.communicate(timeout=30)
        assert settles(lambda: processes_with_arg(prompt) == [], within=10)
    finally:
        for pid in processes_with_arg(prompt):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_prompt_is_read_from_stdin_when_absent() -> None:
    done = cli("--fake", "hello", "--json", input="a prompt from stdin\n")
    user = next(json.loads(line) for line in done.stdout.splitlines() if '"user"' in line)
    assert user["message"]["content"][0]["text"] == "a prompt from stdin"


def test_prompt_dash_reads_stdin() -> None:
    done = cli("--fake", "hello", "--json", "-", input="dash prompt")
    assert '"text":"dash prompt"' in done.stdout


def test_an_empty_prompt_on_stdin_exits_2() -> None:
    done = cli("--fake", "hello", input="  \n")
    assert done.returncode == 2
    assert "agent-sdk: error: the prompt read from stdin is empty" in done.stderr


def test_text_output_format_prints_the_reply() -> None:
    done = cli("--fake", "hello", "--output-format", "text", "hi")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Done. I added the test.\n"


# --- colours ---------------------------------------------------------------------------
def test_no_colours_when_not_a_tty() -> None:
    done = cli("--fake", "tools", "hi")
    assert ESC not in done.stdout + done.stderr


def test_no_colours_with_no_color_set_even_on_a_tty_with_color_auto() -> None:
    assert use_color("auto", Terminal(), {}) is True
    assert use_color("auto", Terminal(), {"NO_COLOR": "1"}) is False
    done = cli("--fake", "tools", "--color=auto", "hi", NO_COLOR="1")
    assert ESC not in done.stdout + done.stderr


def test_an_empty_no_color_leaves_colours_on_as_no_color_org_says() -> None:
    assert use_color("auto", Terminal(), {"NO_COLOR": ""}) is True


FAKE_VERSION = "cursor-agent 2026.10.01-fake0001"  # what the bundled fake says it is


def test_version_names_agent_sdk_and_the_cli_it_would_run() -> None:
    done = cli("--fake", "--version")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [f"agent-sdk {agent_sdk.__version__}", FAKE_VERSION]


def test_color_always_gives_ansi_codes() -> None:
    done = cli("--fake", "tools", "--color=always", "hi", NO_COLOR="1")
    assert f"{ESC}32m✓" in done.stderr


def test_color_never_wins_over_a_tty() -> None:
    assert use_color("never", Terminal(), {}) is False


# --- usage errors ----------------------------------------------------------------------
def test_bad_flag_exits_2() -> None:
    done = cli("--no-such-flag", "hi")
    assert done.returncode == 2
    assert "unrecognized arguments: --no-such-flag" in done.stderr


def test_bad_flag_value_exits_2_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--mode", "agent", "hi"]) == 2
    assert main(["--timeout", "0", "hi"]) == 2
    assert main(["--env", "NOEQUALS", "hi"]) == 2
    assert main(["--resume", "x", "--continue", "hi"]) == 2
    err = capsys.readouterr().err
    assert "--env wants NAME=VALUE" in err
    # The option checks' words, in flag terms.
    assert "--timeout 0.0: must be a positive number of seconds, got 0.0" in err
    assert "Hint: leave --timeout out for no limit" in err
    assert "pass either --resume ID or --continue, not both" in err
    assert "AgentOptions" not in err
    assert "None" not in err


def test_help_exits_0_and_says_the_api_key_comes_from_the_environment(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--help"]) == 0
    assert "CURSOR_API_KEY" in capsys.readouterr().out


def test_missing_binary_exits_2_suggesting_fake() -> None:
    done = cli("--binary", "/nonexistent", "hi")
    assert done.returncode == 2
    assert "agent-sdk: error: --binary is '/nonexistent'" in done.stderr
    assert "the binary with --binary PATH or the CURSOR_AGENT_BIN" in done.stderr
    assert done.stderr.count("agent-sdk --fake [SCENARIO] PROMPT") == 1
    assert "AgentOptions" not in done.stderr
    assert "fake_agent.executable()" not in done.stderr


def test_no_cursor_agent_found_exits_2_suggesting_fake(tmp_path: Path) -> None:
    done = cli("hi", PATH=str(tmp_path), HOME=str(tmp_path))
    assert done.returncode == 2
    assert "agent-sdk: error: cursor-agent was not found" in done.stderr
    assert "agent-sdk --fake [SCENARIO] PROMPT" in done.stderr
    assert "AgentOptions" not in done.stderr


@pytest.mark.parametrize(
    ("make_file", "said"), [(False, "does not exist"), (True, "is not a directory")]
)
def test_a_cwd_that_is_no_directory_is_a_usage_error_in_flag_terms(
    tmp_path: Path, make_file: bool, said: str
) -> None:
    where = tmp_path / "there"
    if make_file:
        where.write_text("")
    done = cli("--fake", "--cwd", str(where), "hi")
    assert done.returncode == 2
    assert f"agent-sdk: error: the working directory {str(where)!r} {said}" in done.stderr
    assert "--cwd DIR" in done.stderr
    assert "AgentOptions" not in done.stderr


def test_an_unknown_fake_scenario_followed_by_a_prompt_exits_2_and_runs_nothing() -> None:
    done = cli("--fake", "tool", "Add a test")
    assert done.returncode == 2
    assert "there is no scenario named 'tool'; did you mean 'tools'?" in done.stderr
    assert done.stdout == ""  # nothing ran


def test_to_json_adds_the_type_a_text_line_lacks() -> None:
    assert json.loads(to_json(TextLine(text="hi"))) == {"type": "text", "text": "hi"}


# --- --fake-if-missing -----------------------------------------------------------------
def test_fake_if_missing_runs_the_fake_when_cursor_agent_is_not_installed(
    tmp_path: Path,
) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    done = cli("--fake-if-missing", "add a test", PATH=str(empty), HOME=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "running the bundled fake agent" in done.stderr
    assert "Both tests pass." in done.stdout  # the default scenario, `demo`
    assert "that was the bundled fake agent: it played a scripted run" in done.stderr


def test_a_run_of_the_fake_says_it_was_scripted_and_changed_nothing() -> None:
    done = cli("--fake", "Add a test for cart totals")
    assert done.returncode == 0, done.stderr
    assert "▸ $ pytest -q tests/test_cart.py" in done.stderr  # it shows tool calls
    assert done.stderr.splitlines()[-1] == (
        "agent-sdk: that was the bundled fake agent: it played a scripted run, changed no "
        "file and asked no model; install cursor-agent for the real agent"
    )


def test_fake_if_missing_prefers_an_installed_cursor_agent(tmp_path: Path) -> None:
    real = tmp_path / "cursor-agent"
    real.write_text("#!/bin/sh\necho 'the real one' >&2\nexit 3\n")
    real.chmod(0o755)
    done = cli("--fake-if-missing", "add a test", CURSOR_AGENT_BIN=str(real))
    assert done.returncode == 1
    assert "the real one" in done.stderr
    assert "bundled fake agent" not in done.stderr


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["--workspace", "/nonexistent/ws"], 2),  # cursor-agent refused the flag
        (["--extra-arg=--bogus"], 2),
        (["not_logged_in"], 1),  # no flag's fault
        (["usage_limit"], 1),
    ],
)
def test_a_flag_cursor_agent_refused_exits_2_and_other_failures_1(
    args: list[str], status: int
) -> None:
    done = cli("--fake", *args, "--", "hi")
    assert done.returncode == status, done.stderr
    assert "AgentOptions" not in done.stderr


def test_a_start_that_failed_for_want_of_descriptors_is_no_usage_error() -> None:
    import errno

    from agent_sdk.cli.live import _exit_code
    from agent_sdk.errors import AgentStartError

    def start_error(cause: OSError) -> AgentStartError:
        try:
            raise AgentStartError("could not start") from cause
        except AgentStartError as error:
            return error

    assert _exit_code(start_error(OSError(errno.EMFILE, "too many open files"))) == 1
    assert _exit_code(start_error(FileNotFoundError(errno.ENOENT, "no such", "/x"))) == 2


def test_a_live_run_ends_with_its_agent_once_the_reader_of_the_reply_is_gone(
    tmp_path: Path,
) -> None:
    # `agent-sdk ... | head -1`: the tool calls go to stderr, so no write fails after the
    # reply's first line; the run must still stop (and end the agent) at the next event.
    call = {"readToolCall": {"args": {"path": "a.py"}}}
    lines = [{"type": "assistant", "message": {"content": [{"type": "text", "text": "one\n"}]}}]
    for number in range(200):
        event = {"type": "tool_call", "call_id": f"c{number}", "tool_call": call}
        lines += [{**event, "subtype": "started"}, {"fake": "sleep", "seconds": 0.05}]
    lines.append({"fake": "stall"})  # an hour: a run that went on would be killed below
    scenario = tmp_path / "many_calls.ndjson"
    scenario.write_text("".join(json.dumps(line) + "\n" for line in lines))
    word = f"reader-{uuid.uuid4()}"
    with open(tmp_path / "stderr", "w+", encoding="utf-8") as stderr:
        child = subprocess.Popen(
            [sys.executable, "-m", "agent_sdk", "--fake", str(scenario), "read", word],
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=cli_env(),
        )
        assert child.stdout is not None
        try:
            assert child.stdout.readline() == b"one\n"
            child.stdout.close()  # as `head -1` does
            status = child.wait(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        stderr.seek(0)
        err = stderr.read()
    assert status == 141, err  # 128 + SIGPIPE, as a shell reports a closed pipe
    assert "Traceback" not in err
    assert processes_with_arg(word) == []  # the agent ended with the run
