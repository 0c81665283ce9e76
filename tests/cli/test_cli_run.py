"""``agent-sdk [run]`` end to end: ``python -m agent_sdk`` against the bundled fake agent
(docs/cli.md). A run prints the reply and a summary (each tool call as it starts and
completes), or one JSON object per line, or the text alone; a failure, a timeout or a chat
id in use exits with its status and a hint in flag terms; the prompt comes from the
arguments or stdin.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

from cli_process import cli

from agent_sdk import TextLine
from agent_sdk.events import to_json


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


def test_to_json_adds_the_type_a_text_line_lacks() -> None:
    assert json.loads(to_json(TextLine(text="hi"))) == {"type": "text", "text": "hi"}
