"""examples/sse_server.py's page in a real headless browser, against the bundled fake agent.

The server runs as a user runs it (``uvicorn examples.sse_server:app``, in a subprocess,
``AGENT_SDK_EXAMPLES_FAKE=1``); Chromium (the Debian package, driven by Playwright's sync
API) loads the page, types a prompt and presses Run or Stop. What a scenario should look
like on the page (labels, durations, details) is worked out here with the SDK itself, so
these tests check the page shows it, whatever words ``agent_sdk.cli.labels`` chooses.

Without Playwright or Chromium the module is skipped, except under CI, where it fails.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import REPO, SCREENSHOTS, WAIT_MS, attack, chromium, skip_without_browser
from proctable import settles

import fake_agent
from agent_sdk import AgentError, AgentOptions, ToolCall, run_sync
from agent_sdk.cli.labels import command_failure, failure_detail, result_detail, tool_label

# The test extra has it; without it, the fixtures skip (or fail under CI) first.
with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page, expect

SERVER_START = 30.0  # seconds


# --- the server and the browser -------------------------------------------------------
class Server:
    """``uvicorn examples.sse_server:app`` on a port the OS picks, its stderr drained."""

    # Port 0: the OS picks a free one, and uvicorn logs which.
    UVICORN = ("-m", "uvicorn", "examples.sse_server:app", "--host", "127.0.0.1", "--port", "0")

    def __init__(self, *command: str) -> None:
        """``python -m uvicorn ...``, or ``python *command``."""
        env = {**os.environ, "AGENT_SDK_EXAMPLES_FAKE": "1"}
        env.pop("FAKE_AGENT_SCENARIO", None)  # the prompts pick the scenarios
        self.proc = subprocess.Popen(
            [sys.executable, *(command or self.UVICORN)],
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.log: list[str] = []
        self.url = ""
        self._started = threading.Event()
        # Read in a thread: the URL comes in the log, and an undrained pipe would block
        # the server once full.
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if not self._started.wait(SERVER_START) or not self.url:
            self.close()
            raise AssertionError("the server did not start:\n" + "".join(self.log))

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.log.append(line)
            found = re.search(r"running on (http://\S+)", line)
            if found:
                self.url = found.group(1)
                self._started.set()
        self._started.set()  # it exited

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=10)
        assert self.proc.stderr is not None
        self.proc.stderr.close()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    skip_without_browser()  # before starting anything
    server = Server()
    try:
        yield server
    finally:
        server.close()
    assert "Traceback" not in "".join(server.log), "".join(server.log)


@pytest.fixture(scope="module")
def browser(server: Server) -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(server: Server, browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    expect.set_options(timeout=WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/")
    yield page
    context.close()
    assert errors == [], errors  # no JavaScript error on the page


def submit(page: Page, prompt: str) -> None:
    page.fill("#prompt", prompt)
    page.click("#run")


def wait_for_end(page: Page, state: str) -> None:
    expect(page.locator("#status")).to_have_attribute("data-state", state)


# --- what the page should show, worked out with the SDK --------------------------------
def fake_run(prompt: str) -> tuple[str, list[ToolCall]]:
    """The reply and tool calls of a prompt on the fake agent, as the SDK sees them."""
    options = AgentOptions(binary=fake_agent.executable())
    try:
        result = run_sync(prompt, options=options)
    except AgentError as exc:
        return "", exc.tool_calls
    return result.result, result.tool_calls


def status_of(call: ToolCall) -> str | None:
    """The page's status: a command that exited non-zero ran, but failed."""
    return "failed" if command_failure(call.result) else call.status


def detail_of(call: ToolCall) -> str:
    failed = command_failure(call.result)
    if failed:
        return failed  # "exit 1"
    if call.status == "succeeded":
        return result_detail(call.result)
    return ": ".join(filter(None, [call.outcome or "", failure_detail(call.result)]))


def assert_duration(shown: str, ms: int | None) -> None:
    """The page shows ``169 ms`` below a second, ``1.2 s`` (rounded by JavaScript) above."""
    if ms is None:
        assert shown == ""
    elif ms < 1000:
        assert shown == f"{ms} ms"
    else:
        assert shown.endswith(" s")
        assert abs(float(shown[:-2]) - ms / 1000) <= 0.05


def rows(page: Page) -> list[dict[str, Any]]:
    """Every tool call row on the page: what it says, part by part."""
    found = page.eval_on_selector_all(
        ".tool",
        """rows => rows.map(row => ({
            status: row.dataset.status,
            badge: row.querySelector('.badge').textContent,
            label: row.querySelector('.label').textContent,
            args: [...row.querySelectorAll('.arg')].map(a => a.textContent),
            duration: row.querySelector('.duration').textContent,
            detail: row.querySelector('.detail') ? row.querySelector('.detail').textContent : '',
        }))""",
    )
    assert isinstance(found, list)
    return found


def reply_text(page: Page) -> str:
    return "".join(page.locator(".transcript .text").all_text_contents())


# --- processes ------------------------------------------------------------------------
def process_table() -> list[tuple[int, str, int, int]]:
    """(pid, state, ppid, pgrp) of every process, zombies included."""
    table = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it just ended
        rest = stat[stat.rindex(")") + 2 :].split()  # the name may hold spaces
        table.append((int(entry.name), rest[0], int(rest[1]), int(rest[2])))
    return table


def agent_groups(server: Server) -> set[int]:
    """The process groups of the agents the server runs (its children lead them)."""
    return {pgrp for _, _, ppid, pgrp in process_table() if ppid == server.proc.pid}


def group_is_gone(pgid: int) -> bool:
    """No process of the group is left, not even a zombie the server failed to reap."""
    return not any(pgrp == pgid for _, _, _, pgrp in process_table())


def wait_for_agent(server: Server) -> set[int]:
    groups: set[int] = set()

    def found() -> bool:
        groups.update(agent_groups(server))
        return bool(groups)

    assert settles(found, within=WAIT_MS / 1000), "no agent process while the run is on"
    return groups


# --- the page -------------------------------------------------------------------------
def test_page_has_a_heading_a_line_on_what_it_is_and_a_prompt_box(page: Page) -> None:
    expect(page.locator("h1")).to_have_text(re.compile(r"\S"))
    expect(page.locator(".lede")).to_contain_text("tool calls")
    expect(page.locator(".lede")).to_contain_text("scenario:NAME")  # it says it is the fake
    expect(page.locator("#prompt")).to_be_editable()
    expect(page.locator("#run")).to_be_enabled()
    expect(page.locator("#stop")).to_be_disabled()
    expect(page.locator("#error")).to_be_hidden()


def test_reply_and_tool_call_show_with_label_args_status_and_duration(page: Page) -> None:
    prompt = "scenario:cart Add a test for cart totals"
    reply, calls = fake_run(prompt)
    submit(page, prompt)
    wait_for_end(page, "done")

    assert reply == "I'll read the cart module first.The test is added and passes."
    assert reply_text(page) == reply
    [call] = calls
    [row] = rows(page)
    assert row == {
        "status": "succeeded",
        "badge": "✓",
        "label": tool_label(call.kind, call.args),
        "args": [],  # the label says the path; the whole file is read
        "duration": "169 ms",
        "detail": result_detail(call.result),
    }
    assert "readToolCall" not in page.locator(".transcript").inner_text()  # no raw kinds
    expect(page.locator("#status")).to_contain_text("1 tool call")
    expect(page.locator("#status")).to_contain_text("on the bundled fake agent")
    expect(page.locator("#stop")).to_be_disabled()
    expect(page.locator("#run")).to_be_enabled()


def test_every_tool_kind_shows_its_friendly_label_then_a_screenshot(page: Page) -> None:
    prompt = "scenario:tools Add a test for cart totals"
    reply, calls = fake_run(prompt)
    submit(page, prompt)
    wait_for_end(page, "done")

    shown = rows(page)
    assert [r["label"] for r in shown] == [tool_label(c.kind, c.args) for c in calls]
    for row, call in zip(shown, calls, strict=True):
        assert_duration(row["duration"], call.duration_ms)
    assert [r["detail"] for r in shown] == [detail_of(c) for c in calls]
    assert [r["status"] for r in shown] == [status_of(c) for c in calls]
    assert [r["status"] for r in shown].count("failed") == 1  # `ruff check` exited 1
    # Long values are cut to one short line (a whole file's text is not for a glance).
    write = next(r for r, c in zip(shown, calls, strict=True) if c.kind == "writeToolCall")
    assert any(a.startswith("text: ") and a.endswith("…") for a in write["args"])
    assert reply_text(page) == reply

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "web_page.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def test_blocked_and_failed_tool_calls_show_as_such_with_the_reason(page: Page) -> None:
    prompt = "scenario:rejected"
    _, calls = fake_run(prompt)
    submit(page, prompt)
    wait_for_end(page, "done")

    shown = rows(page)
    assert [r["status"] for r in shown] == [status_of(c) for c in calls]
    assert [r["detail"] for r in shown] == [detail_of(c) for c in calls]
    badges = {r["status"]: r["badge"] for r in shown}
    assert badges["blocked"] == "⊘ blocked"
    assert badges["failed"] == "✗ failed"
    assert any("File not found: tests/fixtures/missing.json" in r["detail"] for r in shown)
    colours = page.eval_on_selector_all(
        ".tool .badge", "bs => bs.map(b => getComputedStyle(b).backgroundColor)"
    )
    assert len(set(colours)) >= 2  # statuses are told apart by colour too


def test_a_crash_is_shown_as_an_error_after_what_came_before(page: Page) -> None:
    submit(page, "scenario:crash")
    wait_for_end(page, "error")

    error = page.locator("#error")
    expect(error).to_be_visible()
    expect(error.locator(".error-title")).to_have_text("AgentProcessError")
    expect(error.locator(".error-message")).to_contain_text("cursor-agent exited with code 1")
    expect(error.locator(".error-message")).to_contain_text("TypeError: Cannot read properties")
    # Styled as an error: a coloured box, not text in the page's colours.
    style = error.evaluate(
        "e => { const s = getComputedStyle(e);"
        " return [s.backgroundColor, s.borderLeftColor, s.color]; }"
    )
    assert style[0] not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"), style
    assert style[1] == "rgb(207, 34, 46)", style  # the page's red
    expect(page.locator("#status")).to_contain_text("exit code 1")
    assert reply_text(page) == "I'll read the cart module first."  # the events before it
    [row] = rows(page)
    assert (row["status"], row["badge"]) == ("unfinished", "■ unfinished")


def test_a_classified_failure_shows_its_hint(page: Page) -> None:
    submit(page, "scenario:not_logged_in")
    wait_for_end(page, "error")
    expect(page.locator("#error .error-title")).to_have_text("AgentAuthError")
    expect(page.locator("#error .error-hint")).to_contain_text("Hint: ")
    expect(page.locator("#error .error-hint")).to_contain_text("cursor-agent login")


def test_the_page_never_parses_what_it_is_sent_as_html() -> None:
    # The fake's scripted runs hold no markup to smuggle in, so this is read off the
    # script: agent text reaches the page through textContent and append() only.
    script = (REPO / "examples" / "web" / "page.js").read_text(encoding="utf-8")
    assert "textContent" in script
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", script)


# --- stopping -------------------------------------------------------------------------
def test_stop_ends_the_run_and_its_whole_process_group(page: Page, server: Server) -> None:
    # `ignore_sigterm`: a shell call started, SIGTERM ignored, then never an end:
    # only SIGKILL to the group ends it.
    submit(page, "scenario:ignore_sigterm")
    running = page.locator(".tool[data-status=running]")
    expect(running.locator(".badge")).to_have_text("running")
    expect(running.locator(".label")).to_contain_text("npm run migrate")
    expect(page.locator("#stop")).to_be_enabled()
    groups = wait_for_agent(server)

    page.click("#stop")
    wait_for_end(page, "stopped")
    expect(page.locator("#status")).to_contain_text("process group have ended")
    # The server answered the stop once the group had ended: nothing is left, now.
    for pgid in groups:
        assert group_is_gone(pgid), f"process group {pgid} outlived the stop"
    assert agent_groups(server) == set()
    [row] = rows(page)
    assert (row["status"], row["badge"]) == ("unfinished", "■ stopped")
    expect(page.locator("#error")).to_be_hidden()
    expect(page.locator("#run")).to_be_enabled()

    # The page is usable again: the next run goes through.
    submit(page, "scenario:cart again")
    wait_for_end(page, "done")
    assert len(rows(page)) == 1


def test_closing_the_page_ends_the_run_and_its_process_group(page: Page, server: Server) -> None:
    # `stall`: a first sentence, then an hour of silence with stdout open.
    submit(page, "scenario:stall")
    expect(page.locator(".transcript .text")).to_contain_text("it takes a while")
    groups = wait_for_agent(server)

    page.close()  # the browser drops the connection; the server cancels the run
    for pgid in groups:
        assert settles(lambda pgid=pgid: group_is_gone(pgid), within=WAIT_MS / 1000)


# --- another site ---------------------------------------------------------------------
def test_a_page_of_another_origin_can_neither_start_nor_stop_a_run(
    page: Page, server: Server, browser: Browser
) -> None:
    # Another port of 127.0.0.1 (another origin, the same site): img, form, fetch.
    submit(page, "scenario:stall")
    expect(page.locator(".transcript .text")).to_contain_text("it takes a while")
    groups = wait_for_agent(server)
    run_id = page.evaluate("() => runId")

    answered = attack(browser, server.url, run_id)
    assert {status for _, _, status in answered} == {403}, answered
    assert agent_groups(server) == groups  # no run started; the page's goes on
    expect(page.locator("#status")).to_have_attribute("data-state", "running")

    page.click("#stop")  # the page itself still works
    wait_for_end(page, "stopped")
    assert agent_groups(server) == set()
