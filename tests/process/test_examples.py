"""The runnable scripts in examples/, run against the bundled fake agent as a user would
run them (``python examples/x.py``, with ``AGENT_SDK_EXAMPLES_FAKE=1``; example_runs.py):
quickstart.py, stream.py and stream_trio.py, fix_failing_tests.py, review.py and
issue_bot.py. The assertions are on what they print and write, and their exit status.

chat_bot.py, batch.py and sse_server.py have their own files (test_example_*.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from example_runs import EXAMPLES, example_env, run_example


# --- quickstart.py --------------------------------------------------------------------
def test_quickstart_prints_result_usage_and_tool_calls() -> None:
    proc = run_example("quickstart.py", "scenario:cart Add a test for cart totals")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    # The reply: its two messages (a tool call came between them) a blank line apart.
    assert lines[:3] == ["I'll read the cart module first.", "", "The test is added and passes."]
    assert "usage:    115 input + 18 output tokens" in lines
    assert "tool calls: 1" in lines
    assert any(line.startswith("  readToolCall: success in 169 ms") for line in lines)


def test_examples_say_on_stderr_which_agent_they_use() -> None:
    proc = run_example("quickstart.py", "hi")
    assert proc.returncode == 0, proc.stderr
    assert "using the bundled fake agent" in proc.stderr
    assert "fake agent" not in proc.stdout


def test_quickstart_failure_is_reported_with_exit_code_1() -> None:
    proc = run_example("quickstart.py", "scenario:not_logged_in hi")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "error: " in proc.stderr
    assert "Hint:" in proc.stderr  # a classified failure says how to fix it


# --- stream.py / stream_trio.py -------------------------------------------------------
@pytest.mark.parametrize("script", ["stream.py", "stream_trio.py"])
def test_stream_prints_the_reply_once_with_tool_calls(script: str) -> None:
    proc = run_example(script, "scenario:cart Add a test for cart totals")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    # Streamed in partial deltas, flushes repeated by the CLI: each sentence shows once.
    assert out.count("I'll read the cart module first.") == 1
    assert out.count("The test is added and passes.") == 1
    assert out.index("I'll read") < out.index("→ read src/cart.py") < out.index("✓ read src/")
    assert out.index("✓ read src/cart.py") < out.index("The test is added")
    assert "[done in 18788 ms" in out


def test_stream_trio_ends_with_the_session_and_its_tool_call_count() -> None:
    proc = run_example("stream_trio.py", "scenario:cart Add a test for cart totals")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^\[session \S+, 1 tool calls\]$", proc.stdout, re.MULTILINE)


@pytest.mark.parametrize("script", ["stream.py", "stream_trio.py"])
def test_stream_failure_prints_error_and_exits_1(script: str) -> None:
    proc = run_example(script, "scenario:crash")
    assert proc.returncode == 1
    assert "I'll read the cart module first." in proc.stdout  # events before the crash
    assert "error: cursor-agent exited with code 1" in proc.stderr


# --- fix_failing_tests.py --------------------------------------------------------------
def test_fix_failing_tests_fixes_each_failing_module_in_a_worktree_and_writes_a_report(
    tmp_path: Path,
) -> None:
    proc = run_example("fix_failing_tests.py", "--report", "fixes.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "2 failing: tests.test_mixed, tests.test_quantities"
    assert lines[1:3] == [
        f"✓ tests.{name}: src/cart.py, tests/test_cart_totals.py"
        for name in ("test_mixed", "test_quantities")
    ]
    report = (tmp_path / "fixes.html").read_text()
    assert "tests.test_quantities" in report
    assert "+def test_total_multiplies_price_by_quantity" in report.replace("&quot;", '"')


def test_fix_failing_tests_says_so_when_nothing_fails(tmp_path: Path) -> None:
    repo = tmp_path / "green"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "__init__.py").write_text("")
    (repo / "tests" / "test_ok.py").write_text(
        "import unittest\n\n\nclass Ok(unittest.TestCase):\n    def test_ok(self):\n        pass\n"
    )
    proc = run_example("fix_failing_tests.py", repo, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"no failing test module in {repo}\n"


# --- review.py ----------------------------------------------------------------------------
def test_review_prints_the_typed_review_and_exits_1_when_it_asks_for_changes() -> None:
    proc = run_example("review.py")
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("request_changes: total() adds up unit prices")
    assert lines[1] == (
        "  src/cart.py:12 [major] total ignores the quantity: multiply item.price by item.qty"
    )


def test_review_gets_a_corrected_review_as_json() -> None:
    proc = run_example("review.py", "scenario:json_corrected Review the cart", "--json")
    assert proc.returncode == 1, proc.stderr
    review = json.loads(proc.stdout)
    assert review["verdict"] == "request_changes"
    assert [f["line"] for f in review["findings"]] == [12, 3]


def test_review_says_so_when_no_reply_fits() -> None:
    proc = run_example("review.py", "scenario:json_never Review the cart")
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[-2].startswith("no review: ")
    assert "I cannot produce JSON" in proc.stderr


# --- issue_bot.py ---------------------------------------------------------------------
def run_issue_bot(answers: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / "issue_bot.py"), "Triage issue 26"],
        cwd=cwd,
        env=example_env(),
        input=answers,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_issue_bot_runs_the_shell_command_a_person_allowed(tmp_path: Path) -> None:
    proc = run_issue_bot("y\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "The agent wants to run: echo tests pass. Allow? [y/N]" in proc.stderr
    assert "  shellToolCall: success" in proc.stdout.splitlines()
    assert "comment on #26: Triaged: the tests were checked." in proc.stdout.splitlines()
    # The agent's write of triage.md is the fake's simulated one: run from a reader's
    # checkout, the example leaves nothing behind.
    assert list(tmp_path.iterdir()) == []


def test_issue_bot_refuses_the_shell_command_when_no_one_answers(tmp_path: Path) -> None:
    proc = run_issue_bot("", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "(no one to answer: refused)" in proc.stderr
    assert "  shellToolCall: rejected" in proc.stdout.splitlines()
    assert "  mcpToolCall: success" in proc.stdout.splitlines()  # its own tools still run
