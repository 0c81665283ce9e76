"""``agent-sdk batch TASKS.jsonl`` end to end: ``python -m agent_sdk batch`` against the
bundled fake agent (docs/cli.md). Every task runs; the JSON summary says how each ended,
which CLI builds ran and which runs were the fake's (the report too); a failed task's line
is followed by the CLI's reason and a hint; tasks come on stdin; retries run a task that
lost the config race again.

Its stderr is a pipe here: one line per task; the live table is tested in a real terminal
in test_cli_batch_pty.py, the report in a browser in tests/process/test_batch_report.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from batch_tasks import scenario, write_tasks
from cli_process import cli
from fake_env import install_fake

import fake_agent
from agent_sdk.cli.live import FAKE_NOTE


# --- running ----------------------------------------------------------------------------
def _without_times(summary: dict[str, Any]) -> dict[str, Any]:
    assert summary.pop("wall_time") > 0
    for result in summary["results"]:
        assert result.pop("elapsed") > 0
        if result["error"] is not None:
            assert result["error"].pop("message").startswith("cursor-agent exited with code 1")
    return summary


def test_a_batch_runs_every_task_and_its_json_summary_says_how_each_ended(
    tmp_path: Path,
) -> None:
    tasks = write_tasks(
        tmp_path / "tasks.jsonl",
        {"prompt": "add a test", "id": "hello", "options": scenario("hello")},
        {"prompt": "read the cart", "id": "cart", "options": scenario("cart")},
        {"prompt": "p", "id": "limit", "options": scenario("usage_limit")},
        {"prompt": "p", "id": "crash", "options": scenario("crash")},
    )
    done = cli("batch", str(tasks), "--fake", "--json", "--limit", "2")
    assert done.returncode == 1, done.stderr
    summary = _without_times(json.loads(done.stdout))  # stdout holds the JSON alone
    hello_usage = {
        "inputTokens": 18211,
        "outputTokens": 96,
        "cacheReadTokens": 5120,
        "cacheWriteTokens": 0,
    }
    cart = summary["results"][1]
    assert cart["usage"] is not None
    ok: dict[str, Any] = {"ok": True, "status": "succeeded", "attempts": 1, "error": None}
    bad: dict[str, Any] = {"ok": False, "status": "failed", "attempts": 1, "usage": None}
    # The fake run from its package lies in no install: its version is unknown.
    ok["cli_version"] = bad["cli_version"] = None
    ok["fake_agent"] = bad["fake_agent"] = True  # --fake
    assert summary["results"] == [
        {"id": "hello", **ok, "tool_calls": 0, "usage": hello_usage, "changes": None},
        {"id": "cart", **ok, "tool_calls": 1, "usage": cart["usage"], "changes": None},
        {
            "id": "limit",
            **bad,
            "tool_calls": 0,
            "changes": None,
            "error": {"class": "AgentUsageLimitError", "hint": summary_hint(summary, 2)},
        },
        {
            "id": "crash",
            **bad,
            "tool_calls": 1,
            "changes": None,
            "error": {"class": "AgentProcessError"},
        },
    ]
    del summary["results"]
    usage = {k: hello_usage[k] + cart["usage"][k] for k in hello_usage}
    assert summary == {
        "tasks": 4,
        "succeeded": 2,
        "failed": 2,
        "stopped": None,
        "failures": {"AgentProcessError": 1, "AgentUsageLimitError": 1},
        "retries": 0,
        "tool_calls": 2,
        "usage": usage,
        "cli_versions": [],
    }
    lines = done.stderr.splitlines()
    assert any(line.startswith("✓ hello  ") for line in lines), done.stderr
    assert any(line.startswith("✗ limit  ") and "AgentUsageLimitError" in line for line in lines)
    assert lines[-1] == "4 tasks · 2 ✓ · 2 ✗ · " + lines[-1].split(" · 2 ✗ · ")[1]


def test_the_summary_and_the_report_name_every_cli_build_that_ran(tmp_path: Path) -> None:
    # Two builds share the date 2026.10.01 and the CLI updates itself (docs/protocol.md
    # §1): a batch that straddled an update says so, per task and in its summary.
    home = tmp_path / "home"
    first = install_fake(home / "a", "2026.10.01-e373342", fake_agent.executable())
    second = install_fake(home / "b", "2026.10.01-14929f9", fake_agent.executable())
    tasks = write_tasks(
        tmp_path / "t.jsonl",
        {"prompt": "p", "id": "old", "options": {"binary": str(first), **scenario("hello")}},
        {"prompt": "p", "id": "new", "options": {"binary": str(second), **scenario("crash")}},
    )
    html = tmp_path / "r.html"
    done = cli("batch", str(tasks), "--json", "--limit", "1", "--html", str(html))
    assert done.returncode == 1, done.stderr
    summary = json.loads(done.stdout)
    assert summary["cli_versions"] == ["2026.10.01-e373342", "2026.10.01-14929f9"]
    said = {r["id"]: r["cli_version"] for r in summary["results"]}
    assert said == {"old": "2026.10.01-e373342", "new": "2026.10.01-14929f9"}  # a failure too
    page = html.read_text()
    assert "<dt>cli</dt><dd>2026.10.01-e373342, 2026.10.01-14929f9</dd>" in page
    assert page.count("<dt>cli</dt><dd>2026.10.01-14929f9</dd>") == 1


def _sections(page: str) -> dict[str, str]:
    """Each task's section of a report, by task id."""
    found = {}
    for part in page.split('<section class="task card"')[1:]:
        task_id = part.split('data-id="', 1)[1].split('"', 1)[0]
        found[task_id] = part.split("</section>", 1)[0]
    return found


def test_each_run_on_the_fake_agent_says_so_in_the_report_and_the_summary(
    tmp_path: Path,
) -> None:
    # Issue 35: nothing in a report said its runs were the fake's. A copy of the fake
    # installed as the real CLI is (install_fake) stands for a real cursor-agent here.
    real = install_fake(tmp_path / "home", "2026.10.01-e373342", fake_agent.executable())
    tasks = write_tasks(
        tmp_path / "t.jsonl",
        {"prompt": "p", "id": "faked", "options": scenario("hello")},
        {"prompt": "p", "id": "real", "options": {"binary": str(real), **scenario("hello")}},
    )
    html = tmp_path / "r.html"
    done = cli("batch", "--fake", str(tasks), "--json", "--html", str(html))
    assert done.returncode == 0, done.stderr
    said = {r["id"]: r["fake_agent"] for r in json.loads(done.stdout)["results"]}
    assert said == {"faked": True, "real": False}
    page = html.read_text()
    sections = _sections(page)
    assert 'data-agent="fake"' in sections["faked"]
    assert "<dt>agent</dt><dd>the bundled fake agent (scenario hello)" in sections["faked"]
    assert "fake agent" not in sections["real"]
    summary = page.split('id="summary"', 1)[1].split("</section>", 1)[0]
    assert "<dt>agent</dt><dd>the bundled fake agent: 1 of 2 tasks</dd>" in summary
    faked_bar = page.split('data-task="faked"', 1)[1].split("</div></div>", 1)[0]
    assert "on the bundled fake agent" in faked_bar  # the bar's title, in the timeline


def test_a_run_through_cursor_agent_bin_on_the_fake_says_it_was_the_fake() -> None:
    path = cli("--fake-path").stdout.strip()
    done = cli("add a test", CURSOR_AGENT_BIN=path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith(FAKE_NOTE + "\n")


def test_off_a_terminal_a_failed_tasks_line_is_followed_by_the_rest_and_the_hint(
    tmp_path: Path,
) -> None:
    options = scenario("not_logged_in")
    tasks = write_tasks(tmp_path / "t.jsonl", {"prompt": "p", "id": "auth", "options": options})
    done = cli("batch", str(tasks), "--fake")
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("✗ auth  "))
    assert lines[at].endswith(
        "— AgentAuthError: cursor-agent exited with code 1: Press any key to sign in..."
    )
    # The reason is on the CLI's second line: a first line alone would hide it.
    assert lines[at + 1] == "  Not logged in. Run `cursor-agent login` or set CURSOR_API_KEY."
    assert lines[at + 2] == (
        "  Hint: log in once with `cursor-agent login`, or set a valid key as CURSOR_API_KEY "
        "in the environment"
    )
    assert lines[at + 3].startswith("1 tasks · ")


def summary_hint(summary: dict[str, Any], index: int) -> str:
    hint = summary["results"][index]["error"]["hint"]
    assert hint.startswith("wait until the limit resets")
    assert "AgentOptions" not in hint  # said in the command line's terms
    assert "--resume " in hint
    return str(hint)


def test_every_task_succeeding_exits_0_and_the_tasks_can_come_on_stdin() -> None:
    lines = [{"prompt": "a"}, {"prompt": "b", "options": scenario("cart")}]
    done = cli(
        "batch",
        "-",
        "--binary",
        fake_agent.executable(),
        input="".join(json.dumps(line) + "\n" for line in lines),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert done.stderr.splitlines()[-1].startswith("2 tasks · 2 ✓ · ")


def test_retries_run_a_task_that_lost_the_config_race_again(tmp_path: Path) -> None:
    options = scenario("flaky_start", FAKE_AGENT_COUNTER=str(tmp_path / "n"))
    tasks = write_tasks(tmp_path / "t.jsonl", {"prompt": "p", "id": "flaky", "options": options})
    done = cli("batch", str(tasks), "--fake", "--json", "--retries", "2")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    (result,) = summary["results"]
    assert (result["ok"], result["attempts"], summary["retries"]) == (True, 2, 1)
    assert "↻ flaky  attempt 1 failed (AgentConfigRaceError)" in done.stderr


def test_without_retries_the_config_race_fails_the_task(tmp_path: Path) -> None:
    options = scenario("flaky_start", FAKE_AGENT_COUNTER=str(tmp_path / "n"))
    tasks = write_tasks(tmp_path / "t.jsonl", {"prompt": "p", "options": options})
    done = cli("batch", str(tasks), "--fake", "--json")
    assert done.returncode == 1
    (result,) = json.loads(done.stdout)["results"]
    assert (result["ok"], result["attempts"]) == (False, 1)
    assert result["error"]["class"] == "AgentConfigRaceError"
