"""The example web page shows what a person reads (issue 25, item 9), in a real headless
browser against the bundled fake agent (the server and browser of test_web_page.py): a
tool card's arguments in words, never the CLI's payload; the reply's messages as the
SDK's ``RunResult.text`` parts them; a favicon of the server's own, under a
Content-Security-Policy that allows nothing else. The words themselves, unit by unit:
test_web_words.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser import WAIT_MS
from test_web_page import Server, browser, page, rows, server, submit, wait_for_end

import fake_agent
from agent_sdk import AgentOptions, run_sync

# The fixtures, shared with test_web_page.py (a server and a browser for this module).
__all__ = ["browser", "page", "server"]


# A shell call's payload keys a person never reads (docs/protocol.md §3.4).
INTERNALS = ("parsingResult", "simpleCommands", "toolCallId", "requestId", "conversationId")


@pytest.fixture
def watched(server: Server, browser: Any) -> Iterator[tuple[Any, list[str], Any]]:
    """A fresh page, its console's Content-Security-Policy complaints (from its first
    request on), and the answer to its load."""
    context = browser.new_context()
    tab = context.new_page()
    tab.set_default_timeout(WAIT_MS)
    refused: list[str] = []
    tab.on("console", lambda m: refused.append(m.text) if "Security Policy" in m.text else None)
    response = tab.goto(server.url + "/")
    yield tab, refused, response
    context.close()


# --- a tool card's arguments ---------------------------------------------------------
def test_a_shell_card_shows_the_commands_timeout_never_the_clis_parsing(page: Any) -> None:
    submit(page, "scenario:tools")
    wait_for_end(page, "done")

    shell = next(row for row in rows(page) if row["label"] == "$ pytest -q")
    # The fake's session runs in this repository (its `init` says so) and the scenario's
    # commands in /home/dev/shop, so the card names it (the run's own would go unsaid,
    # test_web_words.py); the CLI's parse of the command is left out.
    assert shell["args"] == ["in: /home/dev/shop", "timeout: 30 s"]
    shown = page.locator(".transcript").inner_text()
    for internal in INTERNALS:
        assert internal not in shown
    assert '{"' not in shown  # no argument is JSON


def test_todos_show_as_a_list_in_words(page: Any) -> None:
    submit(page, "scenario:tools")
    wait_for_end(page, "done")
    todos = next(row for row in rows(page) if row["label"] == "todos (3)")
    assert todos["args"] == [
        "done: Read src/cart.py",
        "doing: Write tests/test_cart.py",
        "to do: Fix the lint warning",
    ]


# --- the reply ------------------------------------------------------------------------
def test_the_messages_a_tool_call_split_are_paragraphs_as_in_run_result_text(page: Any) -> None:
    prompt = "scenario:tools"
    result = run_sync(prompt, options=AgentOptions(binary=fake_agent.executable()))
    submit(page, prompt)
    wait_for_end(page, "done")

    paragraphs = page.locator(".transcript .text").all_text_contents()
    assert len(paragraphs) > 2
    assert "\n\n".join(paragraphs) == result.text  # a blank line between messages (§3.3)


# --- the favicon, and the page's Content-Security-Policy --------------------------------
def test_the_favicon_is_the_servers_own_and_the_policy_allows_no_other_image(
    watched: tuple[Any, list[str], Any], server: Server
) -> None:
    tab, refused, response = watched
    policy = response.headers["content-security-policy"]
    assert "img-src 'self'" in policy
    href = tab.locator("link[rel=icon]").get_attribute("href")
    assert href.startswith("/")  # the server's own
    icon = tab.request.get(server.url + href)
    assert (icon.status, icon.headers["content-type"]) == (200, "image/svg+xml")

    load = """async (src) => {
        const img = new Image();
        img.src = src;
        try { await img.decode(); return img.naturalWidth; } catch (e) { return 0; }
    }"""
    assert tab.evaluate(load, href) > 0  # drawn, under the page's policy
    assert refused == []
    pixel = "data:image/gif;base64,R0lGODlhAQABAAAAACw="
    assert tab.evaluate(load, pixel) == 0  # any image not the server's is refused
    assert any("img-src" in line for line in refused), refused


def test_a_run_breaks_no_rule_of_the_pages_policy(watched: tuple[Any, list[str], Any]) -> None:
    tab, refused, response = watched
    assert "script-src 'self'" in response.headers["content-security-policy"]
    submit(tab, "scenario:tools")
    wait_for_end(tab, "done")
    assert len(rows(tab)) > 5  # the page drew the run: its script and requests were allowed
    assert refused == []
