"""examples/batch.py against the bundled fake agent (example_runs.py): its built-in batch
of 12 prompts (three failing), run once: the summary marks the failing tasks with their
error, records each result's tokens and tool calls, the table says it and the exit status
is 1; and prompts read from a file.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from example_runs import run_example


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, subprocess.CompletedProcess[str]]:
    """The built-in batch (12 prompts, three scenarios that fail): its summary and output."""
    out = tmp_path_factory.mktemp("batch") / "summary.json"
    proc = run_example("batch.py", "--out", out)
    return json.loads(out.read_text(encoding="utf-8")), proc


def test_batch_summary_marks_the_failing_tasks_failed(batch: tuple[Any, Any]) -> None:
    summary, _ = batch
    failed = {
        task["prompt"].rsplit("scenario:", 1)[1]: task["error_type"]
        for task in summary["tasks"]
        if task["outcome"] == "failed"
    }
    assert failed == {
        "crash": "AgentProcessError",
        "is_error": "AgentResultError",
        "usage_limit": "AgentUsageLimitError",
    }
    assert (summary["total"], summary["succeeded"], summary["failed"]) == (12, 9, 3)
    crash = next(t for t in summary["tasks"] if t["prompt"].endswith("scenario:crash"))
    assert "exited with code 1" in crash["error"]
    assert crash["tool_calls"] == 1  # counted from the events before the crash


def test_batch_summary_records_result_tokens_and_tool_calls(batch: tuple[Any, Any]) -> None:
    summary, _ = batch
    by_scenario = {t["prompt"].rsplit("scenario:", 1)[1]: t for t in summary["tasks"]}
    cart = by_scenario["cart"]
    assert cart["outcome"] == "ok"
    assert cart["result"] == "I'll read the cart module first.\n\nThe test is added and passes."
    assert (cart["input_tokens"], cart["output_tokens"]) == (115, 18)
    assert (cart["tool_calls"], cart["tool_kinds"]) == (1, {"readToolCall": 1})
    assert by_scenario["tools"]["tool_calls"] > 5
    assert [t["index"] for t in summary["tasks"]] == list(range(1, 13))
    assert all(t["duration_s"] >= 0 and t["session_id"] for t in summary["tasks"])


def test_batch_prints_a_table_and_exits_1_when_a_task_failed(batch: tuple[Any, Any]) -> None:
    _, proc = batch
    assert proc.returncode == 1
    rows = [line for line in proc.stdout.splitlines() if re.match(r"^\s+\d+\s+(ok|failed)\s", line)]
    assert len(rows) == 12
    assert "↳ AgentUsageLimitError: " in proc.stdout
    assert "9 ok, 3 failed" in proc.stdout


def test_batch_reads_prompts_from_a_file(tmp_path: Path) -> None:
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("# a comment\nscenario:hello first\n\nscenario:cart second\n")
    proc = run_example("batch.py", prompts, "--out", tmp_path / "out.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert [t["prompt"] for t in summary["tasks"]] == [
        "scenario:hello first",
        "scenario:cart second",
    ]
    assert [t["outcome"] for t in summary["tasks"]] == ["ok", "ok"]
