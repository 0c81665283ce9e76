"""Live output in a real terminal: nothing wraps, no stale frame is left, at any width.

The command runs in a pseudo-terminal and its output goes through a terminal emulator
(``terminal.PtyRun``); the tests read the screen a person would see. The scenario keeps
the agent silent long enough for the spinner to draw many frames while a tool call with a
label far wider than the terminal runs, and after a reply line that ends near the edge.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from terminal import PtyRun

_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
_SESSION = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"
_LONG_COMMAND = "pytest -q tests/test_cart_totals.py::test_totals_with_discounts --maxfail=1 -x"
_LONG_PATH = "src/shop/checkout/pricing/discounts/seasonal/rules_for_the_winter_sale_2026.py"
# Ends near the right edge of an 80-column terminal: the spinner drawn after it must fit.
_FIRST_REPLY = "I'll run the failing test first, then read the pricing rules it exercises."


def _tool(subtype: str, call_id: str, call: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": call_id,
        "tool_call": {**call, "toolCallId": call_id},
        "session_id": _SESSION,
    }


def _shell(result: dict[str, Any] | None = None) -> dict[str, Any]:
    args = {"command": _LONG_COMMAND, "workingDirectory": "/home/dev/shop"}
    return {"shellToolCall": {"args": args, **({"result": result} if result else {})}}


def _read(result: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "readToolCall": {"args": {"path": _LONG_PATH}, **({"result": result} if result else {})}
    }


def _scenario(tmp_path: Path, silence: float) -> Path:
    """A run with two slow tool calls whose labels are wider than any terminal here."""
    shell_done = {"success": {"command": _LONG_COMMAND, "exitCode": 0, "stdout": "1 passed"}}
    read_done = {"success": {"content": "RULES = []", "totalLines": 1}}
    lines: list[dict[str, Any]] = [
        {"type": "system", "subtype": "init", "session_id": _SESSION, "model": "Claude 4.5 Sonnet"},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": _FIRST_REPLY}]}},
        {"fake": "sleep", "seconds": silence},
        _tool("started", "call_1", _shell()),
        {"fake": "sleep", "seconds": silence},
        _tool("completed", "call_1", _shell(shell_done)),
        _tool("started", "call_2", _read()),
        {"fake": "sleep", "seconds": silence},
        _tool("completed", "call_2", _read(read_done)),
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "Fixed."}]}},
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "duration_ms": 4210,
            "result": _FIRST_REPLY + "Fixed.",
            "session_id": _SESSION,
            "usage": {"inputTokens": 1200, "outputTokens": 340},
        },
    ]
    path = tmp_path / "slow_tools.ndjson"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _spinner_frames(lines: list[str]) -> list[str]:
    return [line for line in lines if any(char in line for char in _SPINNER)]


@pytest.mark.parametrize("columns", [80, 40])
def test_the_final_screen_holds_the_reply_the_tool_calls_and_the_summary_only(
    tmp_path: Path, columns: int
) -> None:
    with PtyRun(["--fake", str(_scenario(tmp_path, 0.6)), "Fix it"], columns=columns) as run:
        assert run.wait() == 0
    assert _SPINNER[1].encode() in run.output, "the spinner was never drawn: nothing was tested"
    lines = run.lines()
    assert _spinner_frames(lines) == []
    assert lines[0].startswith("● ")
    rows = -(-len(_FIRST_REPLY) // columns)
    assert (
        "".join(lines[1 : 1 + rows]) == _FIRST_REPLY
    )  # wrapped by the terminal, as a reply may be
    calls = lines[1 + rows : 3 + rows]  # one line per tool call
    assert [call[:4] for call in calls] == ["  ✓ ", "  ✓ "]
    assert "$ pytest -q" in calls[0]
    assert "read src/shop" in calls[1]
    assert lines[3 + rows] == "Fixed."
    summary = re.sub(r"\s+", " ", " ".join(lines[4 + rows :]))
    summary = re.sub(r"in \d+\.\d s", "in X s", summary)
    summary = re.sub(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", "ID", summary)  # the fake's
    assert summary == (
        "✓ success in X s (the CLI reports 4.2 s) tokens 1,200 in · 340 out tools 2: 2 ✓ "
        "session ID agent-sdk: that was the bundled fake agent: it played a scripted run, "
        "changed no file and asked no model; install cursor-agent for the real agent"
    )


def test_no_line_is_wider_than_the_terminal(tmp_path: Path) -> None:
    with PtyRun(["--fake", str(_scenario(tmp_path, 0.3)), "Fix it"], columns=40) as run:
        assert run.wait() == 0
    # A line as wide as the terminal would have been wrapped by it: pyte keeps rows of
    # exactly `columns` cells, so a full row is one that may have wrapped.
    reply_rows = -(-len(_FIRST_REPLY) // 40)
    rest = run.lines()[1 + reply_rows :]
    assert rest
    assert all(len(line) < 40 for line in rest), rest


def test_a_resized_terminal_gets_the_status_line_redrawn_to_its_new_width(
    tmp_path: Path,
) -> None:
    with PtyRun(["--fake", str(_scenario(tmp_path, 3.0)), "Fix it"], columns=80) as run:
        run.wait_until(lambda out: b"pytest -q tests/" in out.split(b"\r\x1b[K")[-1], "a frame")
        resized_at = len(run.output)
        run.resize(40)
        run.wait_until(
            lambda out: any(c.encode() in out[resized_at:] for c in _SPINNER), "a new frame"
        )
        assert run.wait() == 0
    frames = run.output[resized_at:].decode().split("\r\x1b[K")[1:]
    drawn = [re.sub(r"\x1b\[[0-9;]*m", "", frame).split("\r")[0] for frame in frames]
    spinning = [frame for frame in drawn if frame[:1] in _SPINNER]
    # A frame drawn at the old width just before the resize may still arrive after it
    # (seen in CI under load); from the first frame at the new width on, all fit.
    narrow = [i for i, frame in enumerate(spinning) if len(frame) < 40]
    assert narrow, drawn
    assert all(len(frame) < 40 for frame in spinning[narrow[0] :]), drawn
    assert _spinner_frames(run.lines()) == []
