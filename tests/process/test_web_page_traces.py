"""Subagents (docs/protocol.md §3.4b) and hooks' traces (§6.4) on the example web page, in
a real headless browser against the bundled fake agent (the server and browser of
tests/process/test_web_page.py): a tool row's notes in words, and a background
subagent's end as a row of its own. What the rows should say is worked out with the SDK."""

from __future__ import annotations

from typing import Any

from test_web_page import browser, fake_run, page, rows, server, submit, wait_for_end

from agent_sdk.cli.labels import call_notes, tool_label

# The fixtures, shared with test_web_page.py (a server and a browser for this module).
__all__ = ["browser", "page", "server"]


def notes(page: Any) -> list[list[str]]:
    """The notes of every tool row, as ``what: text`` lines."""
    found = page.eval_on_selector_all(
        ".tool",
        "rows => rows.map(row => [...row.querySelectorAll('.note')].map(n => n.textContent))",
    )
    assert isinstance(found, list)
    return found


def test_a_subagent_row_shows_what_it_was_asked_and_answered(page: Any) -> None:
    prompt = "scenario:subagents"
    _, calls = fake_run(prompt)
    submit(page, prompt)
    wait_for_end(page, "done")
    assert [row["label"] for row in rows(page)] == [tool_label(c.kind, c.args) for c in calls]
    assert notes(page) == [[f"{what}: {text}" for what, text in call_notes(c)] for c in calls]
    shown = [line for row in notes(page) for line in row]
    assert any(line.startswith("answered: Two rounding bugs") for line in shown)


def test_a_background_subagents_end_is_a_row_with_its_answer(page: Any) -> None:
    submit(page, "scenario:subagents")
    wait_for_end(page, "done")
    notice = page.locator(".transcript .notice")
    assert notice.count() == 1
    assert notice.locator(".label").text_content() == "Subagent finished: Check the docs"
    assert notice.locator(".badge").text_content() == "◆ success"
    assert notice.locator(".detail").text_content().startswith("docs/cart.md still describes tax")


def test_hook_contexts_and_a_hook_blocks_words_show_on_their_rows(page: Any) -> None:
    prompt = "scenario:hook_traces"
    _, calls = fake_run(prompt)
    submit(page, prompt)
    wait_for_end(page, "done")
    shown = rows(page)
    assert notes(page) == [[f"{what}: {text}" for what, text in call_notes(c)] for c in calls]
    assert [row["detail"] for row in shown if row["status"] == "blocked"] == [
        "rejected: blocked by a hook: src/cart.py is frozen until the release",
        "rejected: blocked by a hook: Only files under src/ may change",
        "rejected: blocked by a hook",
    ]
    assert "Agent note" not in page.locator(".transcript").inner_text()
