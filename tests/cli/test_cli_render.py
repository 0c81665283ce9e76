"""How events look on screen: agent_sdk.cli.render."""

from __future__ import annotations

import io
import json
from typing import Any

from cli_process import ESC, Terminal

import fake_agent
from agent_sdk._wire.decode import LineDecoder
from agent_sdk.cli.render import Renderer, tool_label
from agent_sdk.events import (
    CreatePlanRequest,
    CreatePlanResponse,
    Event,
    InteractionRequest,
    InteractionResponse,
    ResultEvent,
)
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
    assert tool_label("fooToolCall", {"x": 1}) == "foo"
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


# --- interaction queries (docs/protocol.md §3.6b) ------------------------------------
def _render_events(*events: Event) -> str:
    err = io.StringIO()
    renderer = Renderer(io.StringIO(), err)
    for event in events:
        renderer.event(event)
    renderer.finish()
    return err.getvalue()


def _plan_request(name: str = "Cart totals") -> CreatePlanRequest:
    args = {"plan": "# Totals", "todos": [], "name": name}
    return CreatePlanRequest(
        query_type="createPlanRequestQuery",
        query={"id": 0, "createPlanRequestQuery": {"args": args, "toolCallId": "t1"}},
    )


def _response(query_type: str, result: dict[str, Any] | None) -> InteractionResponse:
    key = query_type.removesuffix("Query") + "Response"
    payload = {} if result is None else {"result": result}
    return InteractionResponse(query_type=query_type, response={"id": 0, key: payload})


def test_a_plan_request_is_one_line_asking_for_approval_with_the_plans_name() -> None:
    assert _render_events(_plan_request()) == "  ? plan approval requested  Cart totals\n"


def test_a_plan_request_without_a_name_shows_no_name() -> None:
    assert _render_events(_plan_request(name="")) == "  ? plan approval requested\n"


def test_an_approved_plan_is_one_line_with_a_tick() -> None:
    response = CreatePlanResponse(
        query_type="createPlanRequestQuery",
        response={"id": 0, "createPlanRequestResponse": {"result": {"success": {}, "planUri": ""}}},
    )
    assert _render_events(response) == "  ✓ plan approved\n"


def test_another_query_types_request_is_named_after_its_query_type() -> None:
    request = InteractionRequest(
        query_type="shellRequestQuery", query={"id": 0, "shellRequestQuery": {"command": "ls"}}
    )
    assert _render_events(request) == "  ? shell approval requested\n"


def test_a_rejected_answer_shows_a_cross_the_outcome_and_the_reason() -> None:
    response = _response("shellRequestQuery", {"rejected": {"reason": "User Rejected"}})
    assert _render_events(response) == "  ✗ shell — rejected: User Rejected\n"


def test_an_answer_without_a_result_says_it_was_answered() -> None:
    assert _render_events(_response("shellRequestQuery", None)) == "  · shell answered\n"


def _decoded(**event: Any) -> Event:
    decoded = LineDecoder(partial=False).decode(json.dumps(event).encode())
    assert decoded is not None
    return decoded


def _query(query_type: str, payload: dict[str, Any]) -> Event:
    return _decoded(
        type="interaction_query",
        subtype="request",
        query_type=query_type,
        query={"id": 1, query_type: payload},
    )


def _answer(query_type: str, answer: dict[str, Any]) -> Event:
    return _decoded(
        type="interaction_query",
        subtype="response",
        query_type=query_type,
        response={"id": 1, **answer},
    )


def test_a_web_search_request_shows_what_is_searched() -> None:
    request = _query("webSearchRequestQuery", {"args": {"searchTerm": "banker's rounding"}})
    assert _render_events(request) == "  ? web search approval requested  banker's rounding\n"


def test_an_approved_web_search_is_one_line_with_a_tick() -> None:
    response = _answer("webSearchRequestQuery", {"webSearchRequestResponse": {"approved": {}}})
    assert _render_events(response) == "  ✓ web search approved\n"


def test_a_web_fetch_request_shows_the_url() -> None:
    request = _query("webFetchRequestQuery", {"args": {"url": "https://example.invalid/r"}})
    assert (
        _render_events(request) == "  ? web fetch approval requested  https://example.invalid/r\n"
    )


def test_an_approved_web_fetch_is_one_line_with_a_tick() -> None:
    response = _answer("webFetchRequestQuery", {"webFetchRequestResponse": {"approved": {}}})
    assert _render_events(response) == "  ✓ web fetch approved\n"


def test_a_question_shows_its_title_and_its_skipping_says_why() -> None:
    request = _query("askQuestionInteractionQuery", {"args": {"title": "Rounding"}})
    answer = {"askQuestionInteractionResponse": {"result": {"rejected": {"reason": "Skipped"}}}}
    response = _answer("askQuestionInteractionQuery", answer)
    assert _render_events(request, response) == (
        "  ? question asked  Rounding\n  ✗ question — rejected: Skipped\n"
    )


def test_the_request_mark_is_coloured_on_request() -> None:
    err = io.StringIO()
    Renderer(io.StringIO(), err, color=True).event(_plan_request())
    assert f"{ESC}36m?{ESC}0m" in err.getvalue()


def _summary(elapsed: float | None, duration_ms: int | None) -> str:
    err = io.StringIO()
    renderer = Renderer(io.StringIO(), err)
    renderer.event(ResultEvent(result="Done.", duration_ms=duration_ms, session_id="s1"))
    renderer.summary("success", elapsed=elapsed)
    return err.getvalue().splitlines()[0]


def test_the_summary_shows_the_wall_time_and_the_clis_figure_beside_it() -> None:
    assert _summary(0.49, 4200) == "✓ success in 0.5 s (the CLI reports 4.2 s)"


def test_the_summary_shows_one_figure_when_both_read_the_same() -> None:
    assert _summary(4.21, 4200) == "✓ success in 4.2 s"


def test_a_replayed_summary_shows_the_clis_figure() -> None:
    assert _summary(None, 4200) == "✓ success in 4.2 s"


# --- a shell command that exited non-zero --------------------------------------------
def _shell_call(exit_code: int | None, signal: str = "") -> tuple[Event, Event]:
    decoder = LineDecoder(partial=False)
    args = {"command": "ruff check", "toolCallId": "c1"}
    result = {"success": {"command": "ruff check", "exitCode": exit_code, "signal": signal}}
    lines = [
        {"subtype": "started", "tool_call": {"shellToolCall": {"args": args}}},
        {
            "subtype": "completed",
            "tool_call": {
                "shellToolCall": {"args": args, "result": result},
                "startedAtMs": "1000",
                "completedAtMs": "1207",
            },
        },
    ]
    started, completed = (
        decoder.decode(json.dumps({"type": "tool_call", "call_id": "c1", **line}).encode())
        for line in lines
    )
    assert started is not None
    assert completed is not None
    return started, completed


def _summarised(*events: Event, color: bool = False) -> str:
    err = io.StringIO()
    renderer = Renderer(io.StringIO(), err, color=color)
    for event in events:
        renderer.event(event)
    renderer.summary("success")
    return err.getvalue()


def test_a_command_that_exited_non_zero_shows_a_cross_and_its_exit_code() -> None:
    err = _summarised(*_shell_call(1))
    assert "  ✗ $ ruff check — exit 1  207 ms\n" in err
    assert "✓ $ ruff check" not in err
    assert "  tools    1: 1 non-zero exit\n" in err


def test_the_exit_code_and_its_cross_are_red() -> None:
    err = _summarised(*_shell_call(2), color=True)
    assert f"{ESC}31m✗{ESC}0m $ ruff check — {ESC}31mexit 2{ESC}0m" in err


def test_a_command_killed_by_a_signal_shows_the_signal() -> None:
    assert "  ✗ $ ruff check — signal SIGKILL  207 ms\n" in _summarised(
        *_shell_call(None, "SIGKILL")
    )


def test_a_command_that_exited_zero_is_a_success() -> None:
    err = _summarised(*_shell_call(0))
    assert "  ✓ $ ruff check  207 ms\n" in err
    assert "  tools    1: 1 ✓\n" in err


def test_the_tools_scenario_counts_its_failed_command_apart() -> None:
    _, err = _render("tools")
    assert "  ✗ $ ruff check tests — exit 1  " in err
    assert err.count("  ✓ ") == 16


def test_a_line_that_could_not_be_decoded_says_why_on_the_live_screen_too() -> None:
    event = LineDecoder(partial=False).decode(b'{"type":"assistant","timestamp_ms":"soon"}')
    assert event is not None
    err = _render_events(event)
    assert "  · assistant\n" in err
    assert "    not decoded: Expected `int | null`, got `str` - at `$.timestamp_ms`\n" in err
