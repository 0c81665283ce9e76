"""What fits on a terminal's line (agent_sdk/cli/_screen.py), and the renderer using it."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from cli_process import Terminal

from agent_sdk._wire.decode import LineDecoder
from agent_sdk.cli._screen import ReplyCursor, cells, cut, fold
from agent_sdk.cli.render import Renderer
from agent_sdk.events import Event

_PLAIN = re.compile(r"\x1b(\[[0-9;]*[mK]|7|8)|\r")


def test_wide_characters_take_two_cells_and_marks_and_colours_none() -> None:
    assert cells("abc") == 3
    assert cells("日本") == 4
    assert cells("e\u0301") == 1  # e + combining acute
    assert cells("\x1b[32m✓\x1b[0m ok") == 4


def test_a_line_that_fits_is_left_alone() -> None:
    assert cut("hello", 5) == "hello"


def test_a_cut_line_ends_in_an_ellipsis_within_the_width() -> None:
    assert cut("hello world", 8) == "hello w…"
    assert cells(cut("日本語のテキスト", 7)) <= 7


def test_a_cut_inside_a_colour_closes_it() -> None:
    line = cut("\x1b[2mhello world\x1b[0m", 6)
    assert line == "\x1b[2mhello…\x1b[0m"


def test_fold_breaks_at_spaces_and_keeps_the_indent() -> None:
    assert fold("  session  0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10", 39) == [
        "  session",
        "  0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10",
    ]


def test_the_reply_cursor_counts_cells_since_the_last_line_break() -> None:
    cursor = ReplyCursor(io.StringIO())
    cursor.write("first line\nsecond")
    assert cursor.room(80) == 80 - 6
    cursor.write("\t")
    assert cursor.room(80) == 80 - 8


def test_the_reply_cursor_wraps_with_the_terminal() -> None:
    cursor = ReplyCursor(io.StringIO())
    cursor.write("x" * 85)
    assert cursor.room(80) == 75
    cursor.write("x" * 75)
    assert cursor.room(80) == 0  # the row is full: the next character wraps


def test_after_a_resize_the_column_is_unknown_until_the_next_line_break() -> None:
    cursor = ReplyCursor(io.StringIO())
    cursor.write("abc")
    cursor.forget()
    cursor.write("def")
    assert cursor.room(80) == 0
    cursor.write("\nab")
    assert cursor.room(80) == 78


def _event(wire: dict[str, Any]) -> Event:
    event = LineDecoder(partial=False).decode(json.dumps(wire).encode())
    assert event is not None
    return event


def _running(command: str) -> Event:
    call = {"shellToolCall": {"args": {"command": command}}, "toolCallId": "c1"}
    return _event({"type": "tool_call", "subtype": "started", "call_id": "c1", "tool_call": call})


def _reply(text: str) -> Event:
    return _event({"type": "assistant", "message": {"content": [{"type": "text", "text": text}]}})


def _frames(terminal: Terminal) -> list[str]:
    return [_PLAIN.sub("", frame) for frame in terminal.getvalue().split("\r\x1b[K") if frame]


def test_the_status_line_is_cut_to_the_terminals_width() -> None:
    terminal = Terminal()
    renderer = Renderer(io.StringIO(), terminal, live_status=True, columns=40)
    renderer.event(_running("pytest -q " + "tests/test_cart.py " * 10))
    renderer._last_output = 0.0  # long silent
    renderer.status(2.5)
    (frame,) = _frames(terminal)
    assert frame.endswith("…")
    assert cells(frame) == 39


def test_a_resize_redraws_the_status_line_at_the_new_width() -> None:
    terminal = Terminal()
    renderer = Renderer(io.StringIO(), terminal, live_status=True, columns=80)
    renderer.event(_running("pytest -q " + "tests/test_cart.py " * 10))
    renderer._last_output = 0.0
    renderer.status(2.5)
    renderer.resize(30)
    assert [cells(frame) for frame in _frames(terminal)] == [79, 29]


def test_the_spinner_after_a_reply_line_is_drawn_only_where_it_fits() -> None:
    terminal = Terminal()
    cursor = ReplyCursor(terminal)
    renderer = Renderer(cursor, terminal, live_status=True, columns=40, cursor=cursor)  # type: ignore[arg-type]
    renderer.event(_reply("x" * 38))
    renderer._last_output = 0.0
    renderer.status(2.5)
    assert terminal.getvalue() == "x" * 38  # one cell left: no room for a spinner
    renderer.event(_reply("\nab"))
    renderer._last_output = 0.0
    renderer.status(2.6)
    assert terminal.getvalue().endswith("ab\x1b7  ⠹ 2.6 s")


def test_with_a_status_line_a_running_tool_call_gets_its_line_when_it_ends() -> None:
    err = Terminal()
    renderer = Renderer(io.StringIO(), err, live_status=True, columns=80)
    renderer.event(_running("pytest -q"))
    assert "pytest" not in err.getvalue()
    renderer.finish()  # it never ended: its line is written now
    assert err.getvalue() == "  ▸ $ pytest -q\n"


def test_without_a_status_line_a_tool_call_gets_its_line_when_it_starts() -> None:
    err = io.StringIO()
    renderer = Renderer(io.StringIO(), err)
    renderer.event(_running("pytest -q"))
    assert err.getvalue() == "  ▸ $ pytest -q\n"
