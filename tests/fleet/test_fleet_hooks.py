"""A fleet task's hooks (docs/extend.md, "How hooks reach the program", "In a fleet"), on
the fake: each run of the task gets its own HOME with the hooks, in a worktree the fleet
owns or not; the hooks' files are in no ``changes`` and nothing is left behind."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from extend_env import CONFIG, UserHome, committed_repo, left_behind, outcome_of, short_temp_dir
from fake_env import clean_env
from gitrepo import git

from agent_sdk import AgentOptions
from agent_sdk._transport.owner import PREFIXES
from agent_sdk.extend import Deny, Hooks, ShellCommand, tool
from agent_sdk.fleet import Fleet, Task

pytestmark = pytest.mark.anyio


@tool
def lookup_issue(number: int) -> str:
    """Look up an issue by its number."""
    return f"Issue {number}"


@tool
def post_comment(number: int, text: str) -> str:
    """Post a comment on an issue."""
    return "posted"


def no_shell(call: ShellCommand) -> Any:
    return Deny("no shell in a fleet")


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    UserHome(tmp_path, CONFIG).set_as_home(monkeypatch)
    with short_temp_dir(monkeypatch, "fleeth-") as where:
        yield where


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return committed_repo(tmp_path / "repo")


def options(fake_binary: str, **more: Any) -> AgentOptions:
    # the write for real: what a worktree task changed is what these tests read
    env = clean_env(FAKE_AGENT_SCENARIO="issue_bot", FAKE_AGENT_FILES="real")
    return AgentOptions(
        binary=fake_binary, env=env, force=True, hooks=Hooks(before_shell=no_shell), **more
    )


def outcomes(outcome: Any) -> dict[str, str | None]:
    return {c.kind: c.outcome for c in outcome.result.tool_calls if c.kind != "mcpToolCall"}


async def test_a_worktree_tasks_hooks_decide_and_leave_no_file_in_its_changes(
    fake_binary: str, repo: Path, temp_dir: Path
) -> None:
    opts = options(fake_binary, tools=[lookup_issue, post_comment])
    task = Task(prompt="triage", repo=str(repo), options=opts)
    outcome = await outcome_of(Fleet([task], isolation=["worktree"], keep_events=True))
    assert outcomes(outcome) == {"shellToolCall": "rejected", "writeToolCall": "success"}
    mcp = [c.outcome for c in outcome.result.tool_calls if c.kind == "mcpToolCall"]
    assert mcp == ["success", "success"]  # its tools still reached through the worktree
    assert [str(p) for p in outcome.changes.added] == ["triage.md"]
    assert git(repo, "status", "--porcelain") == ""


async def test_a_task_with_hooks_and_no_tools_outside_a_worktree(
    fake_binary: str, temp_dir: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    task = Task(prompt="triage", options=options(fake_binary, cwd=workspace))
    outcome = await outcome_of(Fleet([task], isolation=["config"], keep_events=True))
    assert outcomes(outcome)["shellToolCall"] == "rejected"
    assert left_behind(temp_dir, PREFIXES) == []
