"""The command line: ``python -m agent_sdk`` / ``agent-sdk`` (agent_sdk._cli, agent_sdk._render)."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import fake_agent
from agent_sdk import AgentOptions, TextLine
from agent_sdk._cli import main, parse_run_args, use_color
from agent_sdk._decode import LineDecoder
from agent_sdk._render import Renderer, tool_label
from agent_sdk.events import to_json
from agent_sdk.tools import GrepArgs, ReadArgs, ShellArgs

DATA = Path(__file__).parent / "data" / "cli"
# tools.stream.ndjson: `fake-cursor-agent --print --output-format=stream-json --trust
# --resume=<SESSION> -- "add a test"` run in / with FAKE_AGENT_SCENARIO=tools.
RECORDED = DATA / "tools.stream.ndjson"
SESSION = "7f3c9d2e-0a41-4b8e-9c55-2d6e1f0a7b31"
ESC = "\x1b["


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FAKE_AGENT_SCENARIO")}
    env.pop("CURSOR_AGENT_BIN", None)
    env.update(extra)
    return env


def cli(*args: str, input: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m agent_sdk ARGS`` to completion, text captured (so not a TTY)."""
    return subprocess.run(
        [sys.executable, "-m", "agent_sdk", *args],
        capture_output=True,
        text=True,
        input=input if input is not None else "",
        timeout=60,
        env=_env(**env),
    )


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _render(lines: list[str], **kwargs: bool) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    renderer = Renderer(out, err, **kwargs)
    decoder = LineDecoder(partial=False)
    for line in lines:
        event = decoder.decode(line.encode())
        assert event is not None
        renderer.event(event)
    renderer.finish()
    return out.getvalue(), err.getvalue()


# --- live runs against the fake --------------------------------------------------------
def test_fake_hello_prints_the_reply_and_a_summary_and_exits_0() -> None:
    done = cli("--fake", "hello", "add a test")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Done. I added the test.\n"
    assert "✓ success in 4.2 s" in done.stderr
    assert "tokens   18,211 in · 96 out" in done.stderr
    assert "session  " in done.stderr


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
        "webSearchToolCall python decimal quantize cents",
    ):
        assert f"▸ {label}\n" in done.stderr
        assert f"✓ {label}  " in done.stderr
    assert "tools    17: 17 ✓" in done.stderr


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


def test_unknown_model_exits_1_with_the_hint() -> None:
    done = cli("--fake", "--model", "nope", "hi")
    assert done.returncode == 1
    assert "Cannot use this model: nope" in done.stderr
    assert "Hint: pass one of the models the CLI listed" in done.stderr


def test_result_with_is_error_exits_1() -> None:
    done = cli("--fake", "is_error", "hi")
    assert done.returncode == 1
    assert "✗ error" in done.stderr


def test_timeout_exits_124() -> None:
    done = cli("--fake", "stall", "--timeout", "1", "hi")
    assert done.returncode == 124
    assert "agent-sdk: error: cursor-agent did not finish within 1 s" in done.stderr
    assert "✗ timed out" in done.stderr


def test_interrupt_exits_130_after_ending_the_agent() -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "agent_sdk", "--fake", "stall", "hi"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        # A child of a non-interactive shell may inherit SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stderr is not None
    assert child.stderr.readline().startswith("● ")  # the run has started
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert child.returncode == 130
    assert "✗ interrupted" in err


def test_prompt_is_read_from_stdin_when_absent() -> None:
    done = cli("--fake", "hello", "--json", input="a prompt from stdin\n")
    user = next(json.loads(line) for line in done.stdout.splitlines() if '"user"' in line)
    assert user["message"]["content"][0]["text"] == "a prompt from stdin"


def test_prompt_dash_reads_stdin() -> None:
    done = cli("--fake", "hello", "--json", "-", input="dash prompt")
    assert '"text":"dash prompt"' in done.stdout


def test_words_after_double_dash_are_prompt_even_if_they_look_like_flags() -> None:
    assert parse_run_args(["--model", "m", "--", "-x", "--json"]).prompt == "-x --json"
    assert parse_run_args(["--", "replay", "it"]).prompt == "replay it"


def test_fake_followed_by_a_word_that_is_no_scenario_takes_it_as_the_prompt() -> None:
    command = parse_run_args(["--fake", "add a test"])
    assert command.prompt == "add a test"
    assert command.options.env is None


def test_text_output_format_prints_the_reply() -> None:
    done = cli("--fake", "hello", "--output-format", "text", "hi")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Done. I added the test.\n"


# --- colours ---------------------------------------------------------------------------
def test_no_colours_when_not_a_tty() -> None:
    done = cli("--fake", "tools", "hi")
    assert ESC not in done.stdout + done.stderr


def test_no_colours_with_no_color_set_even_on_a_tty_with_color_auto() -> None:
    assert use_color("auto", _Terminal(), {}) is True
    assert use_color("auto", _Terminal(), {"NO_COLOR": ""}) is False
    assert use_color("auto", _Terminal(), {"NO_COLOR": "1"}) is False
    done = cli("--fake", "tools", "--color=auto", "hi", NO_COLOR="1")
    assert ESC not in done.stdout + done.stderr


def test_color_always_gives_ansi_codes() -> None:
    done = cli("--fake", "tools", "--color=always", "hi", NO_COLOR="1")
    assert f"{ESC}32m✓" in done.stderr


def test_color_never_wins_over_a_tty() -> None:
    assert use_color("never", _Terminal(), {}) is False


# --- replay ----------------------------------------------------------------------------
def test_replay_renders_the_same_text_as_a_live_run() -> None:
    live = cli("--fake", "tools", "--cwd", "/", "--resume", SESSION, "add a test")
    replayed = cli("replay", str(RECORDED))
    assert replayed.returncode == live.returncode == 0
    assert replayed.stdout == live.stdout
    assert replayed.stderr == live.stderr


def test_replay_reads_stdin_for_dash() -> None:
    from_file = cli("replay", str(RECORDED))
    from_stdin = cli("replay", "-", input=RECORDED.read_text(encoding="utf-8"))
    assert from_stdin.returncode == 0
    assert (from_stdin.stdout, from_stdin.stderr) == (from_file.stdout, from_file.stderr)


def test_replay_of_json_output_renders_like_the_stream_it_came_from() -> None:
    as_json = cli("replay", "--json", str(RECORDED))
    assert as_json.returncode == 0
    again = cli("replay", "-", input=as_json.stdout)
    direct = cli("replay", str(RECORDED))
    assert (again.stdout, again.stderr) == (direct.stdout, direct.stderr)


def test_replay_of_a_partial_stream_shows_each_delta_once() -> None:
    live_json = cli("--fake", "hello", "--json", "hi")  # partial output by default
    replayed = cli("replay", "-", input=live_json.stdout)
    assert replayed.stdout == "Done. I added the test.\n"


def test_replay_shows_lines_that_are_not_json_dimmed_and_exits_1_without_result() -> None:
    event = '{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}'
    stream = f"Loading...\n{event}\n"
    done = cli("replay", "--color=always", "-", input=stream)
    assert done.returncode == 1
    assert done.stdout == "hi\n"
    assert f"{ESC}2mLoading...{ESC}0m" in done.stderr
    assert "✗ no result" in done.stderr


def test_replay_of_a_missing_file_exits_2() -> None:
    done = cli("replay", "/nonexistent.ndjson")
    assert done.returncode == 2
    assert "agent-sdk: error: cannot read /nonexistent.ndjson" in done.stderr


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
    assert "--env wants NAME=VALUE" in capsys.readouterr().err


def test_help_exits_0_and_says_the_api_key_comes_from_the_environment(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--help"]) == 0
    assert "CURSOR_API_KEY" in capsys.readouterr().out


def test_missing_binary_exits_2_suggesting_fake() -> None:
    done = cli("--binary", "/nonexistent", "hi")
    assert done.returncode == 2
    assert "agent-sdk: error: AgentOptions.binary is '/nonexistent'" in done.stderr
    assert "agent-sdk --fake" in done.stderr


# --- flags → AgentOptions --------------------------------------------------------------
def test_every_flag_maps_to_agent_options() -> None:
    command = parse_run_args(
        [
            "fix", "it",
            "--binary", "/opt/cursor-agent",
            "--cwd", "/repo",
            "--workspace", "/ws",
            "--model", "gpt-5",
            "--force",
            "--no-trust",
            "--mode", "plan",
            "--resume", "abc",
            "--env", "A=1", "--env", "B=x=y",
            "--output-format", "stream-json",
            "--no-partial",
            "--approve-mcps",
            "--sandbox", "disabled",
            "--header", "X-One: 1", "--header", "X-Two:two",
            "--endpoint", "https://api.example",
            "--add-dir", "/a", "--add-dir", "/b",
            "--extra-arg=--foo", "--extra-arg", "bar",
            "--timeout", "30",
            "--idle-timeout", "5.5",
            "--result-grace", "0",
        ]
    )  # fmt: skip
    assert command.prompt == "fix it"
    assert command.options == AgentOptions(
        binary="/opt/cursor-agent",
        cwd="/repo",
        workspace="/ws",
        model="gpt-5",
        force=True,
        trust=False,
        mode="plan",
        resume="abc",
        env={"A": "1", "B": "x=y"},
        output_format="stream-json",
        stream_partial_output=False,
        approve_mcps=True,
        sandbox="disabled",
        headers={"X-One": "1", "X-Two": "two"},
        endpoint="https://api.example",
        add_dirs=("/a", "/b"),
        extra_args=("--foo", "bar"),
        timeout=30.0,
        idle_timeout=5.5,
        result_grace=0.0,
    )


def test_defaults_stream_partial_output_and_pass_no_api_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CURSOR_API_KEY", "secret")  # the child inherits it; never argv
    options = parse_run_args(["hi"]).options
    assert options == AgentOptions(stream_partial_output=True)
    assert options.api_key is None


def test_continue_and_non_stream_formats_map_without_partial_output() -> None:
    options = parse_run_args(["--continue", "--output-format", "json", "hi"]).options
    assert options.continue_session is True
    assert options.output_format == "json"
    assert options.stream_partial_output is False


def test_fake_sets_the_binary_and_the_scenario() -> None:
    options = parse_run_args(["--fake", "tools", "hi"]).options
    assert options.binary == fake_agent.executable()
    assert options.env == {"FAKE_AGENT_SCENARIO": "tools"}


def test_fake_scenario_path_is_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    options = parse_run_args(["--fake", "mine.ndjson", "hi"]).options
    assert options.env == {"FAKE_AGENT_SCENARIO": str(tmp_path / "mine.ndjson")}


def test_fake_and_binary_exclude_each_other() -> None:
    with pytest.raises(SystemExit) as exit_:
        parse_run_args(["--fake", "--binary", "/x", "hi"])
    assert exit_.value.code == 2


# --- rendering, in process -------------------------------------------------------------
def test_tool_labels_summarise_the_typed_args() -> None:
    assert tool_label("readToolCall", ReadArgs(path="src/cart.py")) == "read src/cart.py"
    assert tool_label("shellToolCall", ShellArgs(command="pytest -q")) == "$ pytest -q"
    assert tool_label("grepToolCall", GrepArgs(pattern="total(")) == "grep 'total('"
    assert tool_label("fooToolCall", {"x": 1}) == "fooToolCall"
    assert tool_label("shellToolCall", ShellArgs(command="a\nb")) == "$ a…"


def test_rejected_and_failed_tool_calls_show_a_cross_and_the_outcome() -> None:
    lines = (fake_agent.SCENARIOS_DIR / "rejected.ndjson").read_text().splitlines()
    _, err = _render(lines)
    assert "  ✗ $ pytest -q — rejected\n" in err
    assert "  ✗ read tests/fixtures/missing.json — error: File not found" in err
    assert "  ✗ grep '.*' in / — timeout: grep timed out after 30000 ms\n" in err


def test_thinking_is_a_one_line_indicator_by_default() -> None:
    lines = (fake_agent.SCENARIOS_DIR / "thinking.ndjson").read_text().splitlines()
    out, err = _render(lines)
    assert "  ∴ thought for 0.9 s\n" in err
    assert "cart module sums" not in out + err


def test_thinking_text_is_shown_dimmed_on_request() -> None:
    lines = (fake_agent.SCENARIOS_DIR / "thinking.ndjson").read_text().splitlines()
    _, err = _render(lines, thinking=True, color=True)
    assert f"{ESC}2m price times quantity; a test{ESC}0m" in err


def test_reply_text_is_broken_before_a_tool_line() -> None:
    lines = (fake_agent.SCENARIOS_DIR / "cart.ndjson").read_text().splitlines()
    out, _ = _render(lines)
    assert out.startswith("I'll read the cart module first.\n")


def test_status_line_is_drawn_only_on_a_terminal() -> None:
    plain = io.StringIO()
    Renderer(io.StringIO(), plain).status(1.0)
    assert plain.getvalue() == ""
    terminal = _Terminal()
    live = Renderer(io.StringIO(), terminal, live_status=True)
    live._last_output = 0.0  # long silent
    live.status(2.5)
    assert "2.5 s · waiting for the agent" in terminal.getvalue()


def test_to_json_adds_the_type_a_text_line_lacks() -> None:
    assert json.loads(to_json(TextLine(text="hi"))) == {"type": "text", "text": "hi"}


def test_fake_if_missing_runs_the_fake_when_cursor_agent_is_not_installed(
    tmp_path: Path,
) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    done = cli("--fake-if-missing", "add a test", PATH=str(empty), HOME=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "running the bundled fake agent" in done.stderr
    assert "Done. I added the test." in done.stdout


def test_fake_if_missing_prefers_an_installed_cursor_agent(tmp_path: Path) -> None:
    real = tmp_path / "cursor-agent"
    real.write_text("#!/bin/sh\necho 'the real one' >&2\nexit 3\n")
    real.chmod(0o755)
    done = cli("--fake-if-missing", "add a test", CURSOR_AGENT_BIN=str(real))
    assert done.returncode == 1
    assert "the real one" in done.stderr
    assert "bundled fake agent" not in done.stderr
