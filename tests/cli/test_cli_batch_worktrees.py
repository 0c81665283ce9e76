"""``agent-sdk batch --isolate worktree`` (docs/cli.md, docs/fleet.md): each task runs in a
worktree of its repo, the summary and the report list what it changed, and the repo is left
alone; the next batch sweeps what a killed (SIGKILLed) batch left, and never a running
batch's worktrees and config dirs.
"""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest
from batch_tasks import StalledBatch, write_tasks
from cli_process import cli
from gitrepo import git


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
