"""``agent-sdk batch TASKS.jsonl`` end to end: ``python -m agent_sdk batch`` against the
bundled fake agent (its stderr is a pipe here: one line per task; the live table is
tested in a real terminal in test_cli_batch_pty.py, the report in a browser in
tests/process/test_batch_report.py)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_process import cli, cli_env
from fake_env import install_fake
from gitrepo import git, isolate_git
from proctable import processes_with_env

import fake_agent
from agent_sdk.cli.batch import TasksError, read_tasks
from agent_sdk.cli.live import FAKE_NOTE


def write_tasks(path: Path, *lines: dict[str, Any] | str) -> Path:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return path


def scenario(name: str, **env: str) -> dict[str, Any]:
    return {"env": {"FAKE_AGENT_SCENARIO": name, **env}}


@pytest.fixture
def git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path)


# --- the file, checked before anything runs -------------------------------------------
@pytest.mark.parametrize(
    ("bad", "said"),
    [
        ('{"promt": "b"}', "TASKS line 2: Object contains unknown field `promt`"),
        ('{"id": "b"}', "TASKS line 2: Object missing required field `prompt`"),
        ('{"prompt": "b"', "TASKS line 2: not a JSON object"),
        ("[1, 2]", "TASKS line 2: Expected `object`, got `array`"),
        ('{"prompt": 3}', "TASKS line 2: Expected `str`, got `int` - at `$.prompt`"),
        ('{"prompt": "  "}', "TASKS line 2: the prompt is empty"),
        (
            '{"prompt": "b", "options": {"forse": true}}',
            "TASKS line 2: options: AgentOptions has no option 'forse'; did you mean 'force'?",
        ),
        (
            '{"prompt": "b", "options": {"timeout": -1}}',
            "TASKS line 2: options: AgentOptions(timeout=-1)",
        ),
        ('{"prompt": "b", "id": "a"}', "TASKS line 2: the id 'a' is already line 1's"),
        ('{"prompt": "b", "id": "task-1"}', "TASKS line 2: the id 'task-1' is already"),
    ],
)
def test_a_bad_line_is_named_with_what_is_wrong(bad: str, said: str) -> None:
    first = '{"prompt": "a", "id": "a"}' if "'a'" in said else '{"prompt": "a"}'
    with pytest.raises(TasksError) as caught:
        read_tasks(f"{first}\n{bad}\n", {}, name="TASKS")
    assert str(caught.value).startswith(said), str(caught.value)


def test_the_flags_options_are_the_defaults_of_each_task_and_its_own_go_over_them() -> None:
    text = "\n".join(
        [
            '{"prompt": "a"}',
            "",  # blank lines are skipped, and still counted
            '{"prompt": "b", "id": "b", "options": {"model": "sonnet-4", "env": {"B": "2"}}}',
        ]
    )
    defaults = {"model": "gpt-5", "force": True, "env": {"A": "1"}}
    first, second = read_tasks(text, defaults)
    assert first.id == "task-1"
    assert first.options is not None
    assert (first.options.model, first.options.force) == ("gpt-5", True)
    assert second.id == "b"
    assert second.options is not None
    assert (second.options.model, second.options.force) == ("sonnet-4", True)
    assert dict(second.options.env or {}) == {"A": "1", "B": "2"}


def test_worktree_isolation_needs_a_repo_on_every_line() -> None:
    with pytest.raises(TasksError, match='TASKS line 1: --isolate worktree needs a "repo"'):
        read_tasks('{"prompt": "a"}', {}, worktrees=True, name="TASKS")


def test_a_bad_line_is_a_usage_error_before_any_task_runs(tmp_path: Path) -> None:
    counter = tmp_path / "ran"
    tasks = write_tasks(
        tmp_path / "tasks.jsonl",
        {"prompt": "a", "options": scenario("flaky_start", FAKE_AGENT_COUNTER=str(counter))},
        '{"prompt": "b", "optoins": {}}',
    )
    done = cli("batch", "--fake", "--json", str(tasks))
    assert done.returncode == 2
    said = f"agent-sdk batch: error: {tasks} line 2: Object contains unknown field `optoins`"
    assert said in done.stderr
    assert done.stdout == ""
    assert not counter.exists()  # the first task never started


@pytest.mark.parametrize(
    "deep",
    ["[" * 100_000, '{"prompt": "b", "options": {"env": ' + "[" * 100_000 + "}}"],
    ids=["the line", "a value"],
)
def test_a_line_nested_too_deep_is_a_usage_error_naming_it(tmp_path: Path, deep: str) -> None:
    tasks = write_tasks(tmp_path / "tasks.jsonl", {"prompt": "a"}, deep)
    done = cli("batch", "--fake", "--json", str(tasks))
    assert done.returncode == 2, done.stderr
    assert f"agent-sdk batch: error: {tasks} line 2: " in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--isolate", "config,box"], "--isolate: unknown box"),
        (["--limit", "0"], "--limit must be at least 1"),
        (["--retries", "-1"], "--retries must be 0 or more"),
        (["--html", "/no/such/dir/r.html"], "--html: no directory"),
        (["--fake", "--binary", "x"], "--fake and --binary exclude each other"),
    ],
)
def test_bad_flags_are_usage_errors(tmp_path: Path, args: list[str], said: str) -> None:
    tasks = write_tasks(tmp_path / "t.jsonl", {"prompt": "a"})
    done = cli("batch", str(tasks), *args)
    assert done.returncode == 2
    assert said in done.stderr


def test_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    done = cli("batch", "--fake", str(tmp_path / "none.jsonl"))
    assert done.returncode == 2
    said = (
        f"agent-sdk batch: error: cannot read {tmp_path / 'none.jsonl'}: No such file or directory"
    )
    assert done.stderr.splitlines()[0] == said  # the OS's words, not Python's repr of them


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


@pytest.mark.parametrize("force", ["in the task's options", "as the --force flag"])
def test_worktree_isolation_lists_what_each_task_changed_and_leaves_the_repo_alone(
    tmp_path: Path, git_env: None, force: str
) -> None:
    repo = tmp_path / "shop"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "cart.py").write_text("def total(items):\n    return 0\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "start")
    head = git(repo, "rev-parse", "HEAD")
    task: dict[str, Any] = {"prompt": "Fix the tests", "id": "fix", "repo": str(repo)}
    html = tmp_path / "report.html"
    flags = ["--isolate", "worktree", "--html", str(html)]
    if force == "as the --force flag":
        flags.append("--force")
    else:
        task["options"] = {"force": True}
    tasks = write_tasks(tmp_path / "t.jsonl", task)
    done = cli("batch", str(tasks), "--fake", "fix_tests", "--json", *flags)
    assert done.returncode == 0, done.stderr
    (result,) = json.loads(done.stdout)["results"]
    assert result["changes"] == {
        "added": ["tests/test_cart_totals.py"],
        "modified": ["src/cart.py"],
        "deleted": [],
    }
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "rev-parse", "HEAD") == head
    assert (repo / "src" / "cart.py").read_text() == "def total(items):\n    return 0\n"
    assert "+    amount = sum(" in html.read_text()  # the diff, in the report


def test_sigterm_cancels_the_batch_ends_every_cli_and_still_writes_the_report(
    tmp_path: Path,
) -> None:
    stall = tmp_path / "stall_here.ndjson"  # a name no other process has in its argv
    stall.write_text('{"type":"system","subtype":"init","session_id":"s"}\n{"fake":"stall"}\n')
    lines = [{"prompt": "p", "id": "done"}]
    lines += [{"prompt": "p", "options": scenario(str(stall))} for _ in range(3)]
    tasks = write_tasks(tmp_path / "t.jsonl", *lines)
    html = tmp_path / "r.html"
    argv = ["batch", str(tasks), "--fake", "--json", "--limit", "2", "--html", str(html)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "agent_sdk", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
    )
    try:
        deadline = time.monotonic() + 30  # a hang guard
        while len(_fakes_playing(stall)) < 2:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the stalled tasks never started"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143, err
    assert "terminated; the runs were cancelled" in err
    assert _fakes_playing(stall) == []
    summary = json.loads(out)
    assert summary["stopped"] == "terminated"
    statuses = [result["status"] for result in summary["results"]]
    assert statuses == ["succeeded", "interrupted", "interrupted", "not started"]
    assert "The batch was terminated" in html.read_text()


def _fakes_playing(scenario_path: Path) -> list[int]:
    """The live processes whose environment plays ``scenario_path``."""
    return processes_with_env("FAKE_AGENT_SCENARIO", str(scenario_path))


# --- repeated signals and the owner's death --------------------------------------------
def _stubborn_scenario(path: Path) -> Path:
    """A run that ignores SIGTERM (so its teardown lasts the SDK's grace, and a second
    signal lands in it), marks its worktree once it does, then stalls."""
    lines: list[dict[str, Any]] = [
        {"type": "system", "subtype": "init", "session_id": "s"},
        {"fake": "ignore_sigterm"},
        {"fake": "write_file", "path": "started.txt", "text": "x", "real": True},
        {"fake": "stall"},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


class StalledBatch:
    """``agent-sdk batch`` of three stalled tasks, each in a worktree of a scratch repo with
    a config dir seeded from one holding ``auth.json``, all made in a temp dir of its own."""

    def __init__(self, root: Path, tasks: int = 3) -> None:
        self.repo = root / "shop"
        self.repo.mkdir()
        (self.repo / "a.txt").write_text("a\n")
        git(self.repo, "init", "-q")
        git(self.repo, "add", ".")
        git(self.repo, "commit", "-q", "-m", "start")
        seed = root / "seed"
        seed.mkdir()
        (seed / "auth.json").write_text('{"token": "not-a-real-token"}')
        self.tmp = root / "tmp"
        self.tmp.mkdir()
        self.stall = _stubborn_scenario(root / "stubborn.ndjson")
        self.html = root / "report.html"
        self.count = tasks
        lines = [{"prompt": "p", "repo": str(self.repo)} for _ in range(tasks)]
        tasks_file = write_tasks(root / "t.jsonl", *lines)
        argv = ["batch", str(tasks_file), "--fake", str(self.stall), "--force", "--json"]
        argv += ["--isolate", "config,worktree", "--limit", str(tasks), "--html", str(self.html)]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "agent_sdk", *argv],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(TMPDIR=str(self.tmp), CURSOR_CONFIG_DIR=str(seed)),
            # A child of a non-interactive shell may inherit SIGINT ignored.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )

    def wait_until_running(self) -> None:
        """Until every task's CLI ignores SIGTERM and has marked its worktree."""
        deadline = time.monotonic() + 60  # a hang guard
        while len(list(self.tmp.glob("agent-sdk-worktree-*/*/started.txt"))) < self.count:
            assert self.proc.poll() is None, self.proc.communicate()
            assert time.monotonic() < deadline, "the tasks never started"
            time.sleep(0.05)

    def left(self) -> list[str]:
        """What is left in the temp dir, and in ``git worktree list`` besides the repo."""
        entries = sorted(entry.name for entry in self.tmp.iterdir())
        listed = git(self.repo, "worktree", "list", "--porcelain").splitlines()
        trees = [line for line in listed if line.startswith("worktree ")]
        return entries + trees[1:]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()


@pytest.mark.parametrize(
    ("signals", "gap", "status", "how"),
    [
        ([signal.SIGINT] * 3, 0.005, 130, "interrupted"),
        ([signal.SIGTERM] * 2, 0.05, 143, "terminated"),
        ([signal.SIGTERM, signal.SIGINT, signal.SIGINT], 0.02, 143, "terminated"),
    ],
    ids=["ctrl-c thrice", "sigterm twice", "sigterm then ctrl-c twice"],
)
def test_more_signals_during_teardown_still_report_and_leave_nothing(
    tmp_path: Path,
    git_env: None,
    signals: list[signal.Signals],
    gap: float,
    status: int,
    how: str,
) -> None:
    batch = StalledBatch(tmp_path)
    try:
        batch.wait_until_running()
        for number, signum in enumerate(signals):
            if number:
                time.sleep(gap)  # the next one lands in the teardown of the first
            batch.proc.send_signal(signum)
        out, err = batch.proc.communicate(timeout=60)
    finally:
        batch.close()
    assert batch.proc.returncode == status, err
    assert f"agent-sdk: error: {how}; the runs were cancelled" in err
    assert "Traceback" not in err
    summary = json.loads(out)
    assert summary["stopped"] == how
    assert [r["status"] for r in summary["results"]] == ["interrupted"] * 3
    assert f"The batch was {how}" in batch.html.read_text()
    assert batch.left() == []  # no worktree, no config dir (auth.json), no git entry
    assert _fakes_playing(batch.stall) == []


def _next_batch(batch: StalledBatch, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Another batch (one task, no isolation) in the same temp dir: a fleet's start."""
    tasks = write_tasks(tmp_path / "next.jsonl", {"prompt": "p"})
    return cli("batch", str(tasks), "--fake", TMPDIR=str(batch.tmp))


def test_the_next_batch_sweeps_what_a_killed_batch_left(tmp_path: Path, git_env: None) -> None:
    batch = StalledBatch(tmp_path)
    try:
        batch.wait_until_running()
        batch.proc.kill()  # no cleanup runs
        batch.proc.communicate()
    finally:
        batch.close()
    left = batch.left()
    assert len(left) == 3 + 3 + 3, left  # config dirs, worktrees' dirs, git's entries
    assert len(list(batch.tmp.glob("agent-sdk-config-*/config/auth.json"))) == 3
    done = _next_batch(batch, tmp_path)
    assert done.returncode == 0, done.stderr
    assert batch.left() == []


def test_the_next_batch_never_sweeps_a_running_batchs_dirs(tmp_path: Path, git_env: None) -> None:
    batch = StalledBatch(tmp_path)
    try:
        batch.wait_until_running()
        before = batch.left()
        done = _next_batch(batch, tmp_path)
        assert done.returncode == 0, done.stderr
        assert batch.left() == before
        assert len(list(batch.tmp.glob("agent-sdk-worktree-*/*/started.txt"))) == 3
        batch.proc.send_signal(signal.SIGTERM)
        _, err = batch.proc.communicate(timeout=60)
    finally:
        batch.close()
    assert batch.proc.returncode == 143, err
    assert batch.left() == []
