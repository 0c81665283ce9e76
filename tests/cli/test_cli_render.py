"""How events look on screen: agent_sdk.cli.render."""

from __future__ import annotations

import io

from cli_process import ESC, Terminal

import fake_agent
from agent_sdk._protocol.decode import LineDecoder
from agent_sdk.cli.render import Renderer, tool_label
from agent_sdk.tools import GrepArgs, ReadArgs, ShellArgs


def _render(scenario: str, **kwargs: bool) -> tuple[str, str]:
    lines = (fake_agent.SCENARIOS_DIR / f"{scenario}.ndjson").read_text().splitlines()
    out, err = io.StringIO(), io.StringIO()
    renderer = Renderer(out, err, **kwargs)
    decoder = LineDecoder(partial=False)
    for line in lines:
        event = decoder.decode(line.encode())
        assert event is not None
        renderer.event(event)
    renderer.finish()
    return out.getvalue(), err.getvalue()


def test_tool_labels_summarise_the_typed_args() -> None:
    assert tool_label("readToolCall", ReadArgs(path="src/cart.py")) == "read src/cart.py"
    assert tool_label("shellToolCall", ShellArgs(command="pytest -q")) == "$ pytest -q"
    assert tool_label("grepToolCall", GrepArgs(pattern="total(")) == "grep 'total('"
    assert tool_label("fooToolCall", {"x": 1}) == "fooToolCall"
    assert tool_label("shellToolCall", ShellArgs(command="a\nb")) == "$ a…"


def test_rejected_and_failed_tool_calls_show_a_cross_and_the_outcome() -> None:
    _, err = _render("rejected")
    assert "  ✗ $ pytest -q — rejected\n" in err
    assert "  ✗ read tests/fixtures/missing.json — error: File not found" in err
    assert "  ✗ grep '.*' in / — timeout: grep timed out after 30000 ms\n" in err


def test_thinking_is_a_one_line_indicator_by_default() -> None:
    out, err = _render("thinking")
    assert "  ∴ thought for 0.9 s\n" in err
    assert "cart module sums" not in out + err


def test_thinking_text_is_shown_dimmed_on_request() -> None:
    _, err = _render("thinking", thinking=True, color=True)
    assert f"{ESC}2m price times quantity; a test{ESC}0m" in err


def test_reply_text_is_broken_before_a_tool_line() -> None:
    out, _ = _render("cart")
    assert out.startswith("I'll read the cart module first.\n")


def test_status_line_is_drawn_only_on_a_terminal() -> None:
    plain = io.StringIO()
    Renderer(io.StringIO(), plain).status(1.0)
    assert plain.getvalue() == ""
    terminal = Terminal()
    live = Renderer(io.StringIO(), terminal, live_status=True)
    live._last_output = 0.0  # long silent
    live.status(2.5)
    assert "2.5 s · waiting for the agent" in terminal.getvalue()
