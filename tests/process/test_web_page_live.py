"""examples/sse_server.py's page in live mode (``cursor-agent acp``), in headless Chromium.

The server runs as a user runs it (``uvicorn examples.sse_server:app`` with
``AGENT_SDK_EXAMPLES_LIVE=1``, what ``--live`` sets) against the bundled fake's ACP mode;
``scenario:NAME`` in a prompt picks what the fake plays (fake_agent/scenarios/acp/). The
live agent asks before it runs a command (docs/acp.md §3.11): these tests answer on the
page's approval card. The server, browser and page helpers are test_web_page.py's.

Without Playwright or Chromium the module is skipped, except under CI, where it fails.
"""

# ruff: noqa: F811  (the fixtures `browser` and `page` are imported, then named as arguments)
from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest
from browser import SCREENSHOTS, WAIT_MS, attack, skip_without_browser
from proctable import group_members, settles
from test_web_page import (  # noqa: F401  (browser, page: fixtures, found here by name)
    Server,
    agent_groups,
    browser,
    page,
    reply_text,
    rows,
    submit,
    wait_for_end,
)

with contextlib.suppress(ImportError):  # without it, the fixtures skip (or fail under CI)
    from playwright.sync_api import Browser, Locator, Page, expect

APPROVE = "scenario:permission Run the tests"  # `pytest -q`, off the allowlist: asked


def live_server() -> Server:
    """test_web_page's server, in live mode; the prompts pick the scenarios."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AGENT_SDK_EXAMPLES_LIVE", "1")
        mp.delenv("FAKE_AGENT_ACP_SCENARIO", raising=False)
        return Server()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    skip_without_browser()  # before starting anything
    server = live_server()
    try:
        yield server
    finally:
        server.close()
    assert "Traceback" not in "".join(server.log), "".join(server.log)


def card_asking(page: Page) -> Locator:
    """The approval card of the run on screen, once the agent asks."""
    card = page.locator(".permission")
    expect(card).to_have_attribute("data-state", "pending")
    return card


# --- the page -------------------------------------------------------------------------
def test_live_page_says_the_agent_asks_before_it_runs_a_command(page: Page) -> None:
    expect(page.locator(".lede")).to_contain_text("live mode")
    expect(page.locator(".lede")).to_contain_text("approve or reject")
    expect(page.locator(".lede")).to_contain_text("scenario:NAME")  # and that it is the fake
    expect(page.locator("#permissions")).to_be_hidden()  # no question yet


def test_the_card_shows_the_tool_its_command_and_the_reason(page: Page) -> None:
    submit(page, APPROVE)
    card = card_asking(page)
    expect(card.locator(".permission-head")).to_have_text("The agent asks to run a command")
    # The title, "`pytest -q`" (§3.10), is the command: shown once, as code, no backticks.
    expect(card.locator(".permission-title")).to_have_count(0)
    expect(card.locator(".permission-command")).to_have_text("pytest -q")
    assert "`" not in card.inner_text()
    expect(card.locator(".permission-reason")).to_have_text("Not in allowlist: pytest")
    actions = card.locator(".permission-actions button")
    expect(actions).to_have_text(["Allow once", "Reject"])
    card.locator("button.reject").click()
    wait_for_end(page, "done")


def test_a_tool_row_shows_the_calls_title_its_command_as_code(page: Page) -> None:
    submit(page, "scenario:tools")  # Read File, Find, Edit File, `ls tests` (§3.10)
    wait_for_end(page, "done")

    assert [row["label"] for row in rows(page)] == ["Read File", "Find", "Edit File", "ls tests"]
    expect(page.locator(".tool .label code")).to_have_text(["ls tests"])
    assert "`" not in page.locator(".transcript").inner_text()
    edit = rows(page)[2]
    assert edit["args"] == ["file: /home/dev/shop/tests/test_cart.py"]  # from its diff


def test_the_page_names_the_model_not_its_id(page: Page) -> None:
    submit(page, "scenario:hello")
    wait_for_end(page, "done")
    meta = page.locator("#meta")
    expect(meta).to_contain_text("model Auto")  # the session's own name for `default[]`
    expect(meta).not_to_contain_text("default[]")


# --- answering ------------------------------------------------------------------------
def test_allow_once_runs_the_tool_and_the_reply_says_all_12_pass(page: Page) -> None:
    submit(page, APPROVE)
    card_asking(page).locator("button.allow-once").click()
    wait_for_end(page, "done")

    [row] = rows(page)
    assert (row["status"], row["badge"]) == ("succeeded", "✓")
    assert row["label"] == "pytest -q"  # its title, "`pytest -q`", without the backticks
    assert "all 12 pass" in reply_text(page)
    card = page.locator(".permission")
    expect(card).to_have_attribute("data-state", "allowed")
    expect(card.locator(".permission-outcome")).to_have_text("Allowed once.")
    expect(card.locator("button")).to_have_count(0)  # answered: nothing left to press


def test_reject_blocks_the_tool_and_the_reply_explains(page: Page) -> None:
    submit(page, APPROVE)
    card_asking(page).locator("button.reject").click()
    wait_for_end(page, "done")

    [row] = rows(page)
    assert (row["status"], row["badge"]) == ("blocked", "⊘ blocked")
    assert "was rejected, so I did not run them" in reply_text(page)
    assert "all 12 pass" not in reply_text(page)
    expect(page.locator(".permission")).to_have_attribute("data-state", "rejected")
    expect(page.locator(".permission-outcome")).to_have_text("Rejected.")


def test_allow_always_is_set_apart_with_its_warning_and_never_the_default(page: Page) -> None:
    submit(page, APPROVE)
    card = card_asking(page)
    always = card.locator(".permission-always button")
    expect(always).to_have_text("Allow always")
    expect(card.locator(".permission-actions .allow-always")).to_have_count(0)  # set apart
    warning = card.locator(".permission-always .warning")
    expect(warning).to_contain_text("global Cursor CLI config")
    expect(warning).to_contain_text("Shell(pytest)")  # the rule it would write (§3.11)
    expect(always).to_have_accessible_description(re.compile("global Cursor CLI config"))
    expect(always).not_to_be_focused()
    assert always.get_attribute("autofocus") is None

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "web_page_live.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000

    # Enter picks nothing: the answer is still the person's, and here it is Reject.
    page.keyboard.press("Enter")
    card.locator("button.reject").click()
    wait_for_end(page, "done")
    expect(card).to_have_attribute("data-decision", "reject")
    assert rows(page)[0]["status"] == "blocked"


# --- stopping, and the page going away ------------------------------------------------
def test_stop_cancels_the_turn_and_the_next_prompt_goes_to_the_same_session(
    page: Page,
) -> None:
    submit(page, "scenario:slow Take your time")  # `Working`, then stalls until cancelled
    expect(page.locator(".transcript .text")).to_have_text("Working")
    session = page.locator("#meta").inner_text()
    assert "live session " in session

    page.click("#stop")
    wait_for_end(page, "stopped")
    expect(page.locator("#status")).to_contain_text("the turn was cancelled")
    expect(page.locator("#error")).to_be_hidden()

    submit(page, APPROVE)
    card_asking(page).locator("button.allow-once").click()
    wait_for_end(page, "done")
    assert "all 12 pass" in reply_text(page)
    assert page.locator("#meta").inner_text() == session  # the session stayed usable


def test_stop_while_the_agent_asks_rejects_the_question(page: Page) -> None:
    submit(page, APPROVE)
    card = card_asking(page)
    page.click("#stop")
    wait_for_end(page, "stopped")
    expect(card).to_have_attribute("data-state", "rejected")
    expect(card.locator("button")).to_have_count(0)


def test_closing_the_page_rejects_its_pending_question(page: Page, server: Server) -> None:
    submit(page, APPROVE)
    card_asking(page)
    page.close()  # the browser drops the stream; the server rejects, then cancels the turn
    said = "permission 1 rejected: the page went away"
    assert settles(lambda: said in "".join(server.log), within=WAIT_MS / 1000), server.log


# --- another site ---------------------------------------------------------------------
def test_a_page_of_another_origin_can_neither_approve_nor_stop(
    page: Page, server: Server, browser: Browser
) -> None:
    # It tries "allow always" (a rule in the user's global CLI config) and Stop on the
    # question the page shows, and a run of its own: img, form, fetch, from another port.
    submit(page, APPROVE)
    card = card_asking(page)
    run_id = page.evaluate("() => runId")

    answered = attack(browser, server.url, run_id)
    assert {status for _, _, status in answered} == {403}, answered
    expect(card).to_have_attribute("data-state", "pending")  # still the person's to answer
    expect(page.locator("#status")).to_have_attribute("data-state", "running")

    card.locator("button.reject").click()  # the page itself still works
    wait_for_end(page, "done")
    expect(card).to_have_attribute("data-decision", "reject")
    assert rows(page)[0]["status"] == "blocked"


# --- processes ------------------------------------------------------------------------
def test_no_process_is_left_once_the_server_stops(browser: Browser) -> None:
    own = live_server()  # its own server, to stop it here
    try:
        groups = agent_groups(own)  # the live agent starts with the server
        assert groups, "no live agent while the server runs"
        context = browser.new_context()
        try:
            page = context.new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(own.url + "/")
            submit(page, APPROVE)
            card_asking(page).locator("button.allow-once").click()
            wait_for_end(page, "done")
        finally:
            context.close()
    finally:
        own.close()
    # A graceful shutdown (SIGTERM), not a kill: the lifespan ended the agent itself.
    assert "Application shutdown complete" in "".join(own.log), "".join(own.log)
    for pgid in groups:
        assert settles(lambda pgid=pgid: not group_members(pgid), within=WAIT_MS / 1000)
    assert "Traceback" not in "".join(own.log), "".join(own.log)
