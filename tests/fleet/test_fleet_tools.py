"""A fleet task's Python tools (docs/extend.md, "In a fleet"), on the fake: each of its
runs serves them as any print-mode run does, in a worktree too: nothing written in the
worktree, nothing in ``changes``, and no server approved but the run's own (never
``--approve-mcps``, which would also start a ``.cursor/mcp.json`` another user planted in a
parent directory of the worktree, such as the shared temp dir)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from extend_env import CONFIG, UserHome, committed_repo, left_behind, outcome_of, short_temp_dir
from fake_env import clean_env
from gitrepo import git

from agent_sdk import AgentOptions
from agent_sdk._transport.owner import PREFIXES
from agent_sdk.extend import _home as tools_home
from agent_sdk.extend import tool
from agent_sdk.fleet import Fleet, Task

pytestmark = pytest.mark.anyio


@tool
def lookup_issue(number: int) -> str:
    """Look up an issue by its number."""
    return f"Issue {number}"


@tool
def fail(reason: str) -> str:
    """Fail with a reason."""
    raise RuntimeError(reason)


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A short temp dir for the sockets; a HOME with an empty ~/.cursor."""
    UserHome(tmp_path, CONFIG).set_as_home(monkeypatch)
    with short_temp_dir(monkeypatch, "fleet-") as where:
        yield where


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return committed_repo(tmp_path / "repo")


def options(fake_binary: str) -> AgentOptions:
    env = clean_env(FAKE_AGENT_SCENARIO="custom_tools")
    return AgentOptions(binary=fake_binary, env=env, tools=[lookup_issue, fail])


def mcp_outcomes(outcome: Any) -> list[str | None]:
    return [c.outcome for c in outcome.result.tool_calls if c.kind == "mcpToolCall"]


async def test_a_worktree_task_reaches_its_tools_without_approving_servers(
    fake_binary: str, repo: Path, temp_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argvs: list[list[str]] = []
    with_tools = tools_home.with_tools

    def recorded(invocation: Any, options: AgentOptions) -> Any:
        argvs.append(list(invocation.argv))
        return with_tools(invocation, options)

    monkeypatch.setattr(tools_home, "with_tools", recorded)
    task = Task(prompt="look up issue 26", repo=str(repo), options=options(fake_binary))
    outcome = await outcome_of(Fleet([task], isolation=["worktree"], keep_events=True))
    assert mcp_outcomes(outcome) == ["success", "success"]
    assert argvs
    assert not [argv for argv in argvs if "--approve-mcps" in argv]


async def test_a_server_planted_above_the_worktree_is_never_started(
    fake_binary: str, repo: Path, temp_dir: Path
) -> None:
    planted = temp_dir / "planted-ran"
    script = f"open({str(planted)!r}, 'w').close()"
    server = {"command": sys.executable, "args": ["-c", script]}
    await anyio.Path(temp_dir / ".cursor").mkdir()
    await anyio.Path(temp_dir / ".cursor" / "mcp.json").write_text(
        json.dumps({"mcpServers": {"planted": server}})
    )
    task = Task(prompt="look up issue 26", repo=str(repo), options=options(fake_binary))
    outcome = await outcome_of(Fleet([task], isolation=["worktree"], keep_events=True))
    assert mcp_outcomes(outcome) == ["success", "success"]
    assert not planted.exists()


async def test_a_worktree_tasks_calls_know_they_were_ours(
    fake_binary: str, repo: Path, temp_dir: Path
) -> None:
    task = Task(prompt="look up issue 26", repo=str(repo), options=options(fake_binary))
    outcome = await outcome_of(Fleet([task], isolation=["worktree"], keep_events=True))
    ours = [c.custom_tool for c in outcome.result.tool_calls if c.kind == "mcpToolCall"]
    assert [(c.tool, c.result) for c in ours] == [
        ("lookup_issue", "Issue 26"),
        ("fail", "RuntimeError: the tracker is down"),
    ]


async def test_a_worktree_task_leaves_nothing_in_its_changes(
    fake_binary: str, repo: Path, temp_dir: Path
) -> None:
    task = Task(prompt="look up issue 26", repo=str(repo), options=options(fake_binary))
    outcome = await outcome_of(Fleet([task], isolation=["worktree", "config"], keep_events=True))
    assert mcp_outcomes(outcome) == ["success", "success"]
    assert (outcome.changes.added, outcome.changes.modified) == ((), ())
    assert git(repo, "status", "--porcelain") == ""
    exclude = await anyio.Path(repo / ".git" / "info" / "exclude").read_text()
    assert "mcp.json" not in exclude  # the user's repository is not changed either


async def test_a_task_outside_a_worktree_serves_its_tools_as_a_run_does(
    fake_binary: str, temp_dir: Path
) -> None:
    task = Task(prompt="look up issue 26", options=options(fake_binary))
    outcome = await outcome_of(Fleet([task], isolation=["config"], keep_events=True))
    assert mcp_outcomes(outcome) == ["success", "success"]
    assert left_behind(temp_dir, PREFIXES) == []


async def test_a_repo_with_its_own_mcp_file_keeps_it_and_still_gets_the_tools(
    fake_binary: str, repo: Path, temp_dir: Path
) -> None:
    await anyio.Path(repo / ".cursor").mkdir()
    await anyio.Path(repo / ".cursor" / "mcp.json").write_text('{"mcpServers": {}}\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "mcp")
    task = Task(prompt="look up issue 26", repo=str(repo), options=options(fake_binary))
    outcome = await outcome_of(Fleet([task], isolation=["worktree"], keep_events=True))
    assert mcp_outcomes(outcome) == ["success", "success"]
    assert (outcome.changes.added, outcome.changes.modified) == ((), ())


@pytest.mark.usefixtures("cluster")
async def test_a_task_on_a_ray_worker_serves_its_tools_there(
    fake_binary: str, repo: Path, temp_dir: Path
) -> None:
    from agent_sdk.fleet import RayBackend

    task = Task(prompt="look up issue 26", repo=str(repo), options=options(fake_binary))
    fleet = Fleet(
        [task], backend=RayBackend(num_cpus=0.25), isolation=["worktree"], keep_events=True
    )
    outcome = await outcome_of(fleet)
    assert mcp_outcomes(outcome) == ["success", "success"]
    assert (outcome.changes.added, outcome.changes.modified) == ((), ())
