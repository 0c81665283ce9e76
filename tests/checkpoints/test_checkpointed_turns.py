"""Checkpointed turns (docs/sessions.md, "Checkpointed runs"): each turn of a ``Session``
whose options ask for it, each live turn asked with ``checkpoint=True``, and each task of
a fleet, has its own checkpoint and changes. Real git, the fake agent writing for real
(print mode: ``write_file``; ACP: a ``shell`` step that writes)."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import msgspec
import pytest
from checkpoint_runs import CHAT, init, options, result, scenario, write
from checkpoint_trees import files, user_state
from fake_env import clean_env

import fake_agent
from agent_sdk import (
    AgentBudgetError,
    AgentCheckpointError,
    AgentConfigError,
    AgentOptions,
    Budget,
    Session,
    checkpoints,
)
from agent_sdk.fleet import Fleet, Task
from agent_sdk.live import LiveAgent

pytestmark = pytest.mark.anyio

LIMIT = 60.0  # only a broken client or fake waits this long

FRESH, RESUMED, END = (
    '{"fake": "only", "resumed": false}',
    '{"fake": "only", "resumed": true}',
    '{"fake": "end_only"}',
)


# --- a Session's turns ---------------------------------------------------------------
async def test_each_turn_of_a_session_has_its_own_checkpoint(repo: Path, tmp_path: Path) -> None:
    state = user_state(repo)
    played = scenario(
        tmp_path,
        init(),
        FRESH,
        write("one.txt", "1\n"),
        END,
        RESUMED,
        write("two.txt", "2\n"),
        END,
        result(),
    )
    session = Session(options=options(repo, played, new_session_id=CHAT))
    first = await session.send("first")
    second = await session.send("second")

    assert first.changes is not None
    assert first.changes.added == ("one.txt",)
    assert second.changes is not None
    assert second.changes.added == ("two.txt",)
    assert first.checkpoint is not None
    assert second.checkpoint is not None
    assert first.checkpoint.id != second.checkpoint.id
    assert first.checkpoint.label == second.checkpoint.label == CHAT  # the chat's id

    # Undo the last turn, then the first: newest first, as a user would.
    assert (await checkpoints.rewind(second.checkpoint)).removed == ("two.txt",)
    assert (await checkpoints.rewind(first.checkpoint)).removed == ("one.txt",)
    assert user_state(repo) == state


async def test_a_streamed_turn_shows_its_checkpoint_and_changes_as_a_run_does(
    repo: Path, tmp_path: Path
) -> None:
    played = scenario(tmp_path, init(), write("one.txt", "1\n"), result())
    session = Session(options=options(repo, played, new_session_id=CHAT))

    async with session.run("first") as turn:
        async for _ in turn:
            pass

    assert turn.checkpoint is not None
    assert turn.checkpoint == turn.result.checkpoint
    assert turn.changes is not None
    assert turn.changes.added == ("one.txt",)


# --- live turns --------------------------------------------------------------------------
def _acp_writing(tmp_path: Path, command: str) -> AgentOptions:
    """The fake's ACP mode, whose every prompt runs ``command`` (really) in the session's
    directory, then answers."""
    shell = {"fake": "shell", "command": command, "toolCallId": "call-1"}
    chunk = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "ok"}}
    path = tmp_path / "acp.ndjson"
    path.write_text(json.dumps(shell) + "\n" + json.dumps(chunk) + "\n")
    env = clean_env(FAKE_AGENT_ACP_SCENARIO=str(path))
    return AgentOptions(binary=fake_agent.executable(), env=env, force=True)


async def test_a_live_turn_asked_to_checkpoint_says_what_it_changed(
    repo: Path, tmp_path: Path
) -> None:
    before, state = files(repo), user_state(repo)
    with anyio.fail_after(LIMIT):
        async with LiveAgent(_acp_writing(tmp_path, "echo made > live.txt")) as agent:
            session = await agent.new_session(cwd=repo)
            done = await session.send("write it", checkpoint=True)
            assert done.checkpoint is not None
            assert done.checkpoint.after is not None
            assert done.checkpoint.label == session.session_id
            assert done.changes is not None
            assert done.changes.added == ("live.txt",)

            plain = await session.send("again")  # not asked: none
            assert plain.checkpoint is None
            assert plain.changes is None

            turn = session.run("and again", checkpoint=True)
            async for _ in turn:
                pass
            assert turn.result.changes is not None
            assert turn.result.changes.files == ()
    assert (await checkpoints.rewind(done.checkpoint)).removed == ("live.txt",)
    assert files(repo) == before
    assert user_state(repo) == state


async def test_a_live_turn_stopped_by_its_budget_says_what_it_changed(
    repo: Path, tmp_path: Path
) -> None:
    steps = [
        {"fake": "shell", "command": "echo one > one.txt", "toolCallId": "call-1"},
        {"fake": "shell", "command": "echo two > two.txt", "toolCallId": "call-2"},
    ]
    path = tmp_path / "acp.ndjson"
    path.write_text("".join(json.dumps(step) + "\n" for step in steps))
    env = clean_env(FAKE_AGENT_ACP_SCENARIO=str(path))
    budget = Budget(tool_calls=1)
    given = AgentOptions(binary=fake_agent.executable(), env=env, force=True, budget=budget)
    with anyio.fail_after(LIMIT):
        async with LiveAgent(given) as agent:
            session = await agent.new_session(cwd=repo)
            with pytest.raises(AgentBudgetError) as caught:
                await session.send("write them", checkpoint=True)
    checkpoint, changes = caught.value.context.checkpoint, caught.value.context.changes
    assert checkpoint is not None
    assert checkpoint.after is not None  # finished once the cancelled prompt ended
    assert changes is not None
    assert "one.txt" in changes.added
    await checkpoints.rewind(checkpoint)
    assert not (repo / "one.txt").exists()


async def test_a_live_turn_outside_git_is_refused_before_its_prompt(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    with anyio.fail_after(LIMIT):
        async with LiveAgent(_acp_writing(tmp_path, "echo x > x.txt")) as agent:
            session = await agent.new_session(cwd=outside)
            with pytest.raises(AgentCheckpointError, match="not in a git working tree"):
                await session.send("write it", checkpoint=True)
            assert not (outside / "x.txt").exists()  # the prompt was never sent
            done = await session.send("write it")  # the session is still usable
            assert done.stop_reason == "end_turn"


def test_a_live_agent_refuses_checkpoint_in_its_options() -> None:
    with pytest.raises(AgentConfigError, match=r"checkpoint=True\)"):
        LiveAgent(AgentOptions(checkpoint=True))


# --- a fleet's tasks ---------------------------------------------------------------------
async def test_a_fleet_task_has_one_checkpoint_over_its_runs(repo: Path, tmp_path: Path) -> None:
    played = scenario(tmp_path, init(), write("task.txt", "t\n"), result())
    task = Task(prompt="work", id="the-task", options=options(repo, played))
    async with Fleet([task]) as fleet:
        (outcome,) = [outcome async for outcome in fleet]
    assert outcome.ok
    assert outcome.changes is not None
    assert outcome.changes.added == ("task.txt",)
    assert outcome.result.checkpoint is not None
    assert outcome.result.checkpoint.label == "the-task"
    assert outcome.result.changes == outcome.changes
    assert len(await checkpoints.list_checkpoints(repo)) == 1  # not one per run


async def test_a_failed_fleet_task_carries_its_checkpoint(repo: Path, tmp_path: Path) -> None:
    crash = '{"fake": "exit", "code": 3}'
    played = scenario(tmp_path, init(), write("half.txt", "h\n"), crash)
    task = Task(prompt="work", options=options(repo, played))
    async with Fleet([task]) as fleet:
        (outcome,) = [outcome async for outcome in fleet]
    assert not outcome.ok
    assert outcome.error.checkpoint is not None
    assert outcome.changes is not None
    assert outcome.changes.added == ("half.txt",)


def test_checkpointed_tasks_that_may_run_at_once_in_one_tree_are_refused(repo: Path) -> None:
    one = options(repo, "hello")
    tasks = [Task(prompt="a", options=one), Task(prompt="b", options=one)]
    with pytest.raises(AgentConfigError, match="one working tree") as caught:
        Fleet(tasks, limit=2)
    assert "Fleet(limit=1)" in (caught.value.hint or "")
    below = msgspec.structs.replace(one, cwd=repo / "sub")  # the same tree, deeper
    with pytest.raises(AgentConfigError, match="one working tree"):
        Fleet([Task(prompt="a", options=one), Task(prompt="b", options=below)], limit=2)
    Fleet(tasks, limit=1)  # one at a time: each sees only its own
    unchecked = msgspec.structs.replace(one, checkpoint=False)
    Fleet([Task(prompt="a", options=one), Task(prompt="b", options=unchecked)], limit=2)


async def test_a_task_in_a_worktree_has_its_worktrees_changes_and_no_checkpoint(
    repo: Path, tmp_path: Path
) -> None:
    played = scenario(tmp_path, init(), write("task.txt", "t\n"), result())
    task = Task(prompt="work", repo=str(repo), options=options(repo, played))
    async with Fleet(
        [task, msgspec.structs.replace(task, id="two")], isolation=["worktree"]
    ) as fleet:
        outcomes = [outcome async for outcome in fleet]
    for outcome in outcomes:
        assert outcome.ok
        assert outcome.result.checkpoint is None
        assert outcome.changes is not None
        assert "task.txt" in outcome.changes.added
    assert await checkpoints.list_checkpoints(repo) == []
    assert not (repo / "task.txt").exists()
