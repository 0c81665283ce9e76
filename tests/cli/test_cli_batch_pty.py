"""``agent-sdk batch``'s live table in a real terminal: it never scrolls, never wraps, and
leaves no stale row, with more tasks than the screen has rows.

The command runs in a pseudo-terminal (``terminal.PtyRun``) whose output goes through a
terminal emulator; the tests read the final screen a person would see, and what scrolled
off it (nothing may: a frame taller than the screen would push rows the next redraw can
no longer erase).
"""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path
from typing import Any

import pytest
from terminal import PtyRun

_SESSION = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"


def _slow_scenario(tmp_path: Path) -> Path:
    """A run with one read that takes a while, and a result with usage."""
    call = {"readToolCall": {"args": {"path": "src/shop/checkout/pricing/rules.py"}}}
    done = {
        "readToolCall": {
            "args": {"path": "src/shop/checkout/pricing/rules.py"},
            "result": {"success": {"content": "RULES = []", "totalLines": 1}},
        }
    }
    lines: list[dict[str, Any]] = [
        {"type": "system", "subtype": "init", "session_id": _SESSION, "model": "Auto"},
        {"type": "tool_call", "subtype": "started", "call_id": "c1", "tool_call": call},
        {"fake": "sleep", "seconds": 0.3},
        {"type": "tool_call", "subtype": "completed", "call_id": "c1", "tool_call": done},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "Done."}]}},
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "result": "Done.",
            "session_id": _SESSION,
            "usage": {"inputTokens": 1200, "outputTokens": 340},
        },
    ]
    path = tmp_path / "slow.ndjson"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _tasks(tmp_path: Path, count: int) -> Path:
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps({"prompt": f"task {i}"}) + "\n" for i in range(count)))
    return path


_HEADER = re.compile(r"^  task +(state +)?time +tools +(tokens +)?last$")
_ROW = re.compile(r"^[✓✗▸↻·■] task-\d+ ")
_MORE = re.compile(r"^… \d+ more \(")


@pytest.mark.parametrize(("columns", "rows"), [(80, 24), (40, 24), (80, 12)])
def test_more_tasks_than_rows_never_scroll_wrap_or_leave_a_stale_row(
    tmp_path: Path, columns: int, rows: int
) -> None:
    args = ["batch", str(_tasks(tmp_path, 30)), "--fake", str(_slow_scenario(tmp_path))]
    with PtyRun([*args, "--limit", "4"], columns=columns, rows=rows) as run:
        assert run.wait() == 0, run.output[-600:]
    # Many frames were drawn over each other, or nothing was tested.
    assert run.output.count(b"\x1b[J") > 10
    assert run.screen.history.top == type(run.screen.history.top)(), "the table scrolled"
    lines = run.lines()
    assert 3 <= len(lines) <= rows - 1
    assert all(len(line) < columns for line in lines), lines
    assert _HEADER.match(lines[0]), lines
    assert lines[-1].startswith("30 tasks · 30 ✓ · ")
    body = lines[1:-1]
    assert _MORE.match(body[-1]), body
    task_rows = body[:-1]
    assert task_rows
    assert all(_ROW.match(line) for line in task_rows), task_rows
    assert all(line.startswith("✓ ") for line in task_rows)  # nothing stale: all ended
    ids = [line.split()[1] for line in task_rows]
    assert len(set(ids)) == len(ids)
    hidden = int(body[-1].split()[1])
    assert hidden + len(task_rows) == 30
    assert body[-1] == f"… {hidden} more ({hidden} done)"


def test_a_batch_that_fits_shows_every_task_with_its_figures(tmp_path: Path) -> None:
    args = ["batch", str(_tasks(tmp_path, 5)), "--fake", str(_slow_scenario(tmp_path))]
    with PtyRun([*args, "--limit", "2"], columns=80, rows=24) as run:
        assert run.wait() == 0, run.output[-600:]
    lines = run.lines()
    assert len(lines) == 7, lines  # header, 5 rows, totals
    assert _HEADER.match(lines[0])
    for number, line in enumerate(lines[1:6], 1):
        # ✓ task-1 done  0.4 s  1  1.5k  read src/shop/checkout/pricing/rules.py
        fields = line.split()
        assert fields[:3] == ["✓", f"task-{number}", "done"], line
        assert fields[5:7] == ["1", "1.5k"], line
        assert line.endswith("  read src/shop/checkout/pricing/rules.py")
    assert lines[-1].startswith("5 tasks · 5 ✓ · ")
    assert lines[-1].endswith(" · 5 tools · 7.7k tokens")


def test_ctrl_c_stops_the_runs_and_leaves_a_final_table_that_fits(tmp_path: Path) -> None:
    stall = tmp_path / "stall.ndjson"
    started = {"shellToolCall": {"args": {"command": "sleep 100"}}}
    stall.write_text(
        json.dumps({"type": "system", "subtype": "init", "session_id": _SESSION})
        + "\n"
        + json.dumps(
            {"type": "tool_call", "subtype": "started", "call_id": "c1", "tool_call": started}
        )
        + '\n{"fake": "stall"}\n'
    )
    report = tmp_path / "report.html"
    args = ["batch", str(_tasks(tmp_path, 6)), "--fake", str(stall), "--limit", "2"]
    with PtyRun([*args, "--html", str(report)], columns=50, rows=12) as run:
        # Both running rows drawn with their tool call, in one frame or two.
        run.wait_until(lambda out: out.count(b"$ sleep 100") >= 4, "the running tasks")
        run.process.send_signal(signal.SIGINT)  # as Ctrl-C would
        assert run.wait() == 130
    lines = run.lines()
    assert all(len(line) < 50 for line in lines), lines
    assert _HEADER.match(lines[0]), lines
    assert [line[:9] for line in lines[1:7]] == [
        "■ task-1 ",
        "■ task-2 ",
        "· task-3 ",
        "· task-4 ",
        "· task-5 ",
        "· task-6 ",
    ]
    assert lines[7].startswith("6 tasks · 2 stopped · 4 queued · ")
    # Where the report is, whole: folded, not cut (a cut path opens nothing).
    error = next(i for i, line in enumerate(lines) if line.startswith("agent-sdk: error:"))
    assert "".join(lines[8:error]) == f"report: {report}"
    assert (
        " ".join(lines[error:])
        == "agent-sdk: error: interrupted; the runs were cancelled and their CLIs ended"
    )
    assert "The batch was interrupted" in report.read_text()


def _failing_tasks(tmp_path: Path) -> Path:
    path = tmp_path / "tasks.jsonl"
    lines = [
        {"prompt": "p", "id": "ok"},
        {"prompt": "p", "id": "limit", "options": {"env": {"FAKE_AGENT_SCENARIO": "usage_limit"}}},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.parametrize("columns", [80, 40])
def test_a_failed_task_ends_with_its_whole_reason_and_its_hint(
    tmp_path: Path, columns: int
) -> None:
    with PtyRun(["batch", str(_failing_tasks(tmp_path)), "--fake"], columns=columns) as run:
        assert run.wait() == 1, run.output[-600:]
    lines = run.lines()
    assert all(len(line) < columns for line in lines), lines
    assert not any(line.endswith("…") for line in lines[lines.index(_totals(lines)) + 1 :])
    below = " ".join(" ".join(lines[lines.index(_totals(lines)) + 1 :]).split())
    assert below.startswith(
        "✗ limit: AgentUsageLimitError: cursor-agent exited with code 1: Error: You've hit "
        "your usage limit for this billing period. Upgrade your plan or wait until Nov 1, 2026"
    )
    # The hint, in the command line's terms.
    assert "Hint: wait until the limit resets or raise it in your Cursor plan" in below
    assert "--resume" in below
    assert "AgentOptions" not in below


def _totals(lines: list[str]) -> str:
    return next(line for line in lines if line.startswith("2 tasks · "))


@pytest.mark.parametrize("columns", [80, 40])
def test_a_failed_tasks_row_shows_what_the_cli_said_first(tmp_path: Path, columns: int) -> None:
    with PtyRun(["batch", str(_failing_tasks(tmp_path)), "--fake"], columns=columns) as run:
        assert run.wait() == 1, run.output[-600:]
    row = next(line for line in run.lines() if line.startswith("✗ limit "))
    # What the CLI said, not "cursor-agent exited with code 1: …": the mark says it failed.
    assert "cursor-agent exited" not in row
    assert "  Error: You" in row, row


def test_a_long_id_leaves_the_row_room_for_why_it_failed_at_40_columns(tmp_path: Path) -> None:
    path = tmp_path / "tasks.jsonl"
    line = {"prompt": "p", "id": "bad-model-with-a-long-id", "options": {"env": {}}}
    line["options"]["env"]["FAKE_AGENT_SCENARIO"] = "unknown_model"
    path.write_text(json.dumps(line) + "\n")
    with PtyRun(["batch", str(path), "--fake"], columns=40) as run:
        assert run.wait() == 1, run.output[-600:]
    row = next(line for line in run.lines() if line.startswith("✗ bad-mode"))
    assert "  Cannot use" in row, row
