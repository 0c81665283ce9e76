"""``agent-sdk batch --html REPORT``'s report in a real headless browser.

One batch runs on the bundled fake agent (``python -m agent_sdk batch``, every task in a
git worktree of a scratch repository, one retry allowed): a task that succeeds, one with
every tool kind, one that hits the usage limit, one that loses the config race once, one
that fixes a file (its diff) and one whose prompt, id and reply hold HTML. Chromium
(Debian's, through Playwright) opens the file; the tests read what a person would see.
What a scenario should show (reply, labels, durations) is worked out with the SDK itself.

Without Playwright or Chromium the module is skipped, except under CI, where it fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import SCREENSHOTS, WAIT_MS, chromium, skip_without_browser

import fake_agent
from agent_sdk import AgentOptions, ToolCall, ToolCallCompleted, run_sync
from agent_sdk.cli.labels import command_failure, tool_label

try:
    from playwright.sync_api import Page
except ImportError:  # skip_without_browser() skips the module's tests then
    Page = Any  # type: ignore[assignment,misc]

_XSS_REPLY = "<script>window.__pwned = 1</script><b>not bold</b> & <i>done</i>"
_XSS_PROMPT = '<img src=x onerror="window.__pwned = 2">'
_XSS_ID = "xss-<b>"


def _git_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "FAKE_AGENT"))}
    for var in ("GIT_AUTHOR", "GIT_COMMITTER"):
        env[f"{var}_NAME"] = "Test"
        env[f"{var}_EMAIL"] = "test@example.com"
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    env["GIT_CONFIG_GLOBAL"] = str(home / "gitconfig")
    env["GIT_CEILING_DIRECTORIES"] = str(home)
    env.pop("NO_COLOR", None)
    return env


def _git(cwd: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, env=env)


def _xss_scenario(path: Path) -> Path:
    lines = [
        {"type": "system", "subtype": "init", "session_id": "s"},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": _XSS_REPLY}]}},
        {"type": "result", "subtype": "success", "is_error": False, "result": _XSS_REPLY},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


class Batch:
    """The batch's report, and what the SDK says its scenarios do."""

    def __init__(self, root: Path) -> None:
        env = _git_env(root)
        repo = root / "shop"
        (repo / "src").mkdir(parents=True)
        (repo / "src" / "cart.py").write_text(
            "from decimal import Decimal\n\n\ndef total(items):\n    return Decimal(0)\n"
        )
        _git(repo, env, "init", "-q")
        _git(repo, env, "add", ".")
        _git(repo, env, "commit", "-q", "-m", "start")

        def task(task_id: str, scenario: str, **extra: Any) -> dict[str, Any]:
            options = extra.pop("options", {})
            env = {"FAKE_AGENT_SCENARIO": scenario, **options.pop("env", {})}
            return {
                "prompt": extra.pop("prompt", f"Do {task_id}"),
                "id": task_id,
                "repo": str(repo),
                "options": {"env": env, **options},
            }

        tasks = [
            task("hello", "hello"),
            task("tools", "tools"),
            task("limit", "usage_limit"),
            task("flaky", "flaky_start", options={"env": {"FAKE_AGENT_COUNTER": str(root / "n")}}),
            task("fix", "fix_tests", options={"force": True}),
            task(_XSS_ID, str(_xss_scenario(root / "xss.ndjson")), prompt=_XSS_PROMPT),
        ]
        tasks_file = root / "tasks.jsonl"
        tasks_file.write_text("".join(json.dumps(t) + "\n" for t in tasks))
        self.path = root / "report.html"
        argv = ["batch", str(tasks_file), "--fake", "--isolate", "worktree", "--retries", "1"]
        self.done = subprocess.run(
            [sys.executable, "-m", "agent_sdk", *argv, "--html", str(self.path)],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )

    @staticmethod
    def fake_run(scenario: str) -> tuple[str, list[ToolCall]]:
        """The reply of a scenario on the fake agent, and its tool calls in the order they
        completed (as the report lists them), as the SDK sees them."""
        options = AgentOptions(
            binary=fake_agent.executable(), env={"FAKE_AGENT_SCENARIO": scenario}
        )
        result = run_sync("p", options=options)
        calls = {call.call_id: call for call in result.tool_calls}
        ended = [e.call_id for e in result.events if isinstance(e, ToolCallCompleted)]
        return result.result, [calls[call_id] for call_id in ended]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    skip_without_browser()  # before running anything
    batch = Batch(tmp_path_factory.mktemp("batch"))
    assert batch.done.returncode == 1, batch.done.stderr  # the usage limit
    return batch


@pytest.fixture(scope="module")
def page(batch: Batch) -> Iterator[Page]:
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        errors: list[str] = []
        requests: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("request", lambda request: requests.append(request.url))
        page.goto(batch.path.as_uri())
        yield page
        context.close()
    assert errors == [], errors
    assert requests == [batch.path.as_uri()], requests  # the file, and nothing else


def _text(page: Page, selector: str) -> str:
    return page.locator(selector).inner_text()


def _section(task_id: str) -> str:
    return f'section.task[data-id="{task_id}"]'


def test_the_summary_counts_the_tasks_their_outcomes_and_failures(page: Page) -> None:
    def value(key: str) -> str:
        return _text(page, f'#summary [data-key="{key}"] dd')

    assert value("tasks") == "6"
    assert value("succeeded") == "5"
    assert value("failed") == "1"
    assert value("retries") == "1"
    assert value("tool calls") != "0"
    assert value("cli") == "unknown"  # the fake run from its package lies in no install
    assert page.locator("#summary .failures li").all_inner_texts() == ["AgentUsageLimitError: 1"]


def test_the_timeline_has_a_bar_per_run_placed_in_time(page: Page) -> None:
    lanes = page.locator(".timeline .lane")
    assert lanes.count() == 6
    ids = [lanes.nth(i).get_attribute("data-task") for i in range(6)]
    assert ids == ["hello", "tools", "limit", "flaky", "fix", _XSS_ID]
    outcomes = {
        task_id: page.locator(f'.lane[data-task="{task_id}"] .bar').evaluate_all(
            "bars => bars.map(b => b.dataset.outcome)"
        )
        for task_id in ids
    }
    assert outcomes == {
        "hello": ["succeeded"],
        "tools": ["succeeded"],
        "limit": ["failed"],
        "flaky": ["retried", "succeeded"],
        "fix": ["succeeded"],
        _XSS_ID: ["succeeded"],
    }
    track = page.locator('.lane[data-task="flaky"] .track').bounding_box()
    first, second = (
        page.locator(f'.lane[data-task="flaky"] .bar[data-attempt="{n}"]').bounding_box()
        for n in (1, 2)
    )
    assert track is not None
    assert first is not None
    assert second is not None
    assert track["x"] <= first["x"] < first["x"] + first["width"] <= second["x"]
    assert second["x"] + second["width"] <= track["x"] + track["width"] + 0.5
    colours = {
        outcome: page.locator(f'.bar[data-outcome="{outcome}"]').first.evaluate(
            "b => getComputedStyle(b).backgroundColor"
        )
        for outcome in ("succeeded", "failed", "retried")
    }
    assert len(set(colours.values())) == 3, colours


def test_each_task_shows_its_prompt_and_reply(page: Page, batch: Batch) -> None:
    assert page.locator("section.task").count() == 6
    reply, _ = batch.fake_run("hello")
    assert _text(page, f"{_section('hello')} .reply") == reply
    assert _text(page, f"{_section('hello')} .prompt") == "Do hello"
    assert page.locator(_section("hello")).get_attribute("data-outcome") == "succeeded"


def _duration(ms: int | None) -> str:
    if ms is None:
        return ""
    return f"{ms} ms" if ms < 1000 else f"{ms / 1000:.1f} s"


def test_the_tool_calls_show_their_labels_durations_and_outcomes(page: Page, batch: Batch) -> None:
    _, calls = batch.fake_run("tools")
    rows = page.locator(f"{_section('tools')} tr.call").evaluate_all(
        """rows => rows.map(row => ({
            label: row.querySelector('.label').textContent,
            duration: row.querySelector('.duration').textContent,
            status: row.dataset.status,
        }))"""
    )
    expected = [
        {
            "label": tool_label(call.kind, call.args),
            "duration": _duration(call.duration_ms),
            "status": "failed" if command_failure(call.result) else call.status,
        }
        for call in calls
    ]
    assert rows == expected


def test_the_failed_task_shows_its_error_class_message_and_hint(page: Page) -> None:
    section = _section("limit")
    assert page.locator(section).get_attribute("data-outcome") == "failed"
    assert _text(page, f"{section} .error-class") == "AgentUsageLimitError"
    assert "usage limit" in _text(page, f"{section} .error-message")
    assert _text(page, f"{section} .hint").startswith("Hint: ")


def test_the_retried_task_lists_its_two_attempts(page: Page) -> None:
    facts = page.locator(f"{_section('flaky')} dl.facts").inner_text()
    assert "attempts\n2" in facts


def test_the_worktree_diff_is_shown_with_added_and_removed_lines_coloured(page: Page) -> None:
    section = _section("fix")
    files = _text(page, f"{section} .files")
    assert files == "added: tests/test_cart_totals.py; modified: src/cart.py"
    added = page.locator(f"{section} .diff .add")
    removed = page.locator(f"{section} .diff .del")
    assert '+    return Decimal(amount).quantize(Decimal("0.01"))' in added.all_inner_texts()
    assert "-    return Decimal(0)" in removed.all_inner_texts()
    colour = "el => getComputedStyle(el).backgroundColor"
    plain = page.locator(f"{section} pre.diff").evaluate(colour)
    assert len({added.first.evaluate(colour), removed.first.evaluate(colour), plain}) == 3


def test_agent_text_with_html_is_shown_as_text_and_never_run(page: Page) -> None:
    section = _section(_XSS_ID)
    assert page.locator(section).count() == 1
    assert _text(page, f"{section} .reply") == _XSS_REPLY
    assert _text(page, f"{section} .prompt") == _XSS_PROMPT
    assert _text(page, f"{section} h2 .id") == _XSS_ID
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.evaluate("document.scripts.length") == 0
    for part in (".reply", ".prompt", "h2 .id"):
        assert page.locator(f"{section} {part} > *").count() == 0  # text, no element
    assert page.locator("img").count() == 0


def test_a_screenshot_of_the_report(page: Page) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "batch_report.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
