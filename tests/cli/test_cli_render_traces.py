"""Subagents (docs/protocol.md §3.4b) and hooks' traces (§6.4) in words on screen:
agent_sdk.cli.render, on the fake's ``subagents`` and ``hook_traces`` scenarios and on
events written here."""

from __future__ import annotations

import io
import json

from cli_process import ESC

import fake_agent
from agent_sdk._wire.decode import LineDecoder
from agent_sdk.cli.render import Renderer

NOTE = "\n\nAgent note: Do not suggest workarounds to the blocked tool."


def render_lines(lines: list[str], **kwargs: bool) -> str:
    err = io.StringIO()
    renderer = Renderer(io.StringIO(), err, **kwargs)
    decoder = LineDecoder(partial=False)
    for line in lines:
        event = decoder.decode(line.encode())
        assert event is not None
        renderer.event(event)
    renderer.finish()
    return err.getvalue()


def render(scenario: str, **kwargs: bool) -> str:
    path = fake_agent.SCENARIOS_DIR / f"{scenario}.ndjson"
    steps = [line for line in path.read_text().splitlines() if '"fake"' not in line]
    return render_lines(steps, **kwargs)


def rejected(reason: str) -> str:
    body = {"args": {"path": "a.txt"}, "result": {"rejected": {"path": "a.txt", "reason": reason}}}
    line = {
        "type": "tool_call",
        "subtype": "completed",
        "call_id": "c",
        "tool_call": {"editToolCall": body},
    }
    return json.dumps(line)


# --- subagents ------------------------------------------------------------------------------
def test_a_subagent_call_is_labelled_by_its_agent_and_title() -> None:
    err = render("subagents")
    assert "  ✓ subagent (reviewer) Review the cart module  5857 ms\n" in err


def test_a_finished_subagent_shows_what_it_was_asked_and_what_it_answered() -> None:
    err = render("subagents")
    head = err.index("  ✓ subagent (reviewer) Review the cart module")
    asked, answered = err[head:].splitlines()[1:3]
    assert (
        asked == "    ↳ asked: Read src/cart.py and list every rounding bug, with the line of each."
    )
    assert answered.startswith("    ↳ answered: Two rounding bugs: line 12 rounds each item")


def test_a_background_subagent_says_its_answer_comes_later() -> None:
    err = render("subagents")
    assert "  ✓ subagent Check the docs  131 ms · in the background\n" in err
    assert "    ↳ runs in the background: its answer comes when it finishes\n" in err


def test_a_task_notification_says_which_subagent_finished_how_and_what_it_answered() -> None:
    err = render("subagents")
    assert "  ◆ subagent finished: Check the docs — success\n" in err
    assert "    ↳ answered: docs/cart.md still describes tax as a flat 5%; src/cart.py" in err


def test_a_task_notification_is_no_longer_a_bare_system_line() -> None:
    assert "· system/task_notification" not in render("subagents")


def test_a_failed_notification_is_red_and_a_success_green() -> None:
    note = {"type": "system", "subtype": "task_notification", "title": "T", "status": "error"}
    assert f"{ESC}31merror{ESC}0m" in render_lines([json.dumps(note)], color=True)
    note["status"] = "success"
    assert f"{ESC}32msuccess{ESC}0m" in render_lines([json.dumps(note)], color=True)


def test_a_notification_without_a_title_is_named_by_its_task_id() -> None:
    note = {
        "type": "system",
        "subtype": "task_notification",
        "task_id": "agent-9",
        "status": "success",
    }
    assert "  ◆ subagent finished: agent-9 — success\n" in render_lines([json.dumps(note)])


# --- hooks' traces --------------------------------------------------------------------------
def test_a_hook_context_is_shown_under_its_call() -> None:
    err = render("hook_traces")
    read = err.index("  ✓ read /home/dev/shop/src/cart.py")
    assert err[read:].splitlines()[1] == (
        "    ↳ hook context: The cart module is owned by the payments team: keep its public names."
    )


def test_a_hook_context_object_is_shown_by_its_text() -> None:
    assert "    ↳ hook context: Edits to src/ need a ticket number in the commit.\n" in render(
        "hook_traces"
    )


def test_a_call_blocked_by_a_hook_shows_the_hooks_words_not_the_clis_paragraphs() -> None:
    err = render("hook_traces")
    assert (
        "  ✗ edit /home/dev/shop/src/cart.py — blocked by a hook: src/cart.py is frozen until"
        " the release\n" in err
    )
    assert (
        "  ✗ edit /home/dev/shop/notes.txt — blocked by a hook: Only files under src/ may change\n"
        in err
    )
    assert "Agent note" not in err


def test_a_call_blocked_by_a_hook_without_words_says_so() -> None:
    assert "  ✗ $ rm -f build.log — blocked by a hook\n" in render("hook_traces")


def test_a_rejection_that_is_no_hooks_keeps_its_reason() -> None:
    assert "  ✗ edit a.txt — rejected: User said no\n" in render_lines([rejected("User said no")])


def test_a_hook_block_is_yellow_like_any_rejection() -> None:
    err = render_lines([rejected(f"Hook blocked with message: no{NOTE}")], color=True)
    assert f"{ESC}33mblocked by a hook: no{ESC}0m" in err
