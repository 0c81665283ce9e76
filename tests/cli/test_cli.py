"""``agent-sdk [run]`` end to end: ``python -m agent_sdk`` against the bundled fake agent."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from cli_process import ESC, Terminal, cli, cli_env, processes_with_arg

import agent_sdk
from agent_sdk import TextLine
from agent_sdk.cli import main
from agent_sdk.cli.args import use_color
from agent_sdk.events import to_json


# --- live runs against the fake --------------------------------------------------------
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


@pytest.mark.parametrize(
    ("signum", "status", "how"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
)
def test_a_signal_ends_the_agent_and_exits_with_its_status(
    signum: signal.Signals, status: int, how: str
) -> None:
    prompt = f"hi {uuid.uuid4()}"  # the agent's argv holds it: the agent can be found
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
    child.send_signal(signum)
    _, err = child.communicate(timeout=30)
    assert child.returncode == status
    assert f"✗ {how}" in err
    assert f"agent-sdk: error: {how}; the agent's process group was ended" in err
    assert processes_with_arg(prompt) == []


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


def test_version_says_so_when_no_cli_is_found() -> None:
    done = cli("--binary", "/nope/cursor-agent", "--version")
    assert done.returncode == 0
    first, second = done.stdout.splitlines()
    assert first == f"agent-sdk {agent_sdk.__version__}"
    assert second.startswith("cursor-agent: none found (")


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
    assert "Done. I added the test." in done.stdout


def test_fake_if_missing_prefers_an_installed_cursor_agent(tmp_path: Path) -> None:
    real = tmp_path / "cursor-agent"
    real.write_text("#!/bin/sh\necho 'the real one' >&2\nexit 3\n")
    real.chmod(0o755)
    done = cli("--fake-if-missing", "add a test", CURSOR_AGENT_BIN=str(real))
    assert done.returncode == 1
    assert "the real one" in done.stderr
    assert "bundled fake agent" not in done.stderr
