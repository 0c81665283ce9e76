"""What the tests of ``agent-sdk batch`` write and watch (docs/cli.md): a tasks file
(``write_tasks``, a line's ``scenario`` of the bundled fake), the fakes still playing a
scenario, and a ``StalledBatch``: three tasks stalled in worktrees of a scratch repo, to
signal or kill.

Shared by test_cli_batch_tasks_file.py, test_cli_batch_runs.py, test_cli_batch_signals.py
and test_cli_batch_worktrees.py; the ``git_env`` fixture is in conftest.py.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from cli_process import cli_env
from gitrepo import git
from proctable import processes_with_env


def write_tasks(path: Path, *lines: dict[str, Any] | str) -> Path:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return path


def scenario(name: str, **env: str) -> dict[str, Any]:
    return {"env": {"FAKE_AGENT_SCENARIO": name, **env}}


def _fakes_playing(scenario_path: Path) -> list[int]:
    """The live processes whose environment plays ``scenario_path``."""
    return processes_with_env("FAKE_AGENT_SCENARIO", str(scenario_path))


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
