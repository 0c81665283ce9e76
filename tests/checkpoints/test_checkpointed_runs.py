"""Checkpointed runs (docs/sessions.md, "Checkpointed runs"): ``AgentOptions(checkpoint=
True)`` snapshots the tree before the CLI starts, holds it while the run lasts, and the
result (or the error) says what the run changed; a rewind undoes it, and the user's index,
branches, stash and untracked files are never disturbed. Real git, the fake agent writing
for real (or the in-memory transport, where no file needs writing)."""

from __future__ import annotations

import logging
import math
from pathlib import Path

import anyio
import pytest
from checkpoint_runs import AGENT_WORK, CHAT, init, options, result, say, scenario, write
from checkpoint_trees import files, user_state

from agent_sdk import (
    AgentCheckpointError,
    AgentConfigError,
    AgentOptions,
    AgentProcessError,
    checkpoints,
    run,
    run_async,
    run_sync,
)
from agent_sdk.checkpoints import Checkpoint, RewindResult
from agent_sdk.testing import Exit, MemoryTransport, Output, Pause

pytestmark = pytest.mark.anyio


def _memory() -> MemoryTransport:
    """A CLI that succeeds at once, writing nothing."""
    said = {"type": "result", "subtype": "success", "is_error": False, "result": "ok"}
    return MemoryTransport([Output.event({"type": "system", "subtype": "init"}, said), Exit(0)])


async def test_a_run_says_what_it_changed_and_a_rewind_undoes_it_and_nothing_else(
    repo: Path, tmp_path: Path
) -> None:
    before, state = files(repo), user_state(repo)
    played = scenario(tmp_path, init(), *AGENT_WORK, result())
    done = await run_async("work", options=options(repo, played))

    cp, changed = done.checkpoint, done.changes
    assert cp is not None
    assert changed is not None
    assert cp.after is not None
    assert cp.root == str(repo)
    assert (changed.added, changed.modified, changed.deleted) == (
        ("new/made.txt",),
        ("a.txt",),
        ("sub/c.txt",),
    )
    assert "+the agent's a" in changed.diff
    assert changed.base == cp.before
    assert user_state(repo) == state  # the run's files changed; the user's git did not
    assert (repo / "notes.txt").exists()
    assert (repo / "debug.log").exists()

    rewound = await checkpoints.rewind(cp)
    assert rewound.restored == ("a.txt", "sub/c.txt")
    assert rewound.removed == ("new/made.txt",)
    assert files(repo) == before  # the user's staged, unstaged and untracked work is back
    assert user_state(repo) == state


async def test_a_run_without_a_checkpoint_has_none(repo: Path, tmp_path: Path) -> None:
    played = scenario(tmp_path, init(), write("x.txt", "x\n"), result())
    done = await run_async("work", options=options(repo, played, checkpoint=False))
    assert done.checkpoint is None
    assert done.changes is None
    assert await checkpoints.list_checkpoints(repo) == []


def test_run_sync_from_a_plain_script_checkpoints_the_fix_tests_scenario(repo: Path) -> None:
    done = run_sync("Fix every failing test", options=options(repo, "fix_tests"))
    assert done.checkpoint is not None
    assert done.changes is not None
    assert done.changes.added == ("src/cart.py", "tests/test_cart_totals.py")
    assert (repo / "src" / "cart.py").exists()


async def test_a_failed_run_carries_its_checkpoint_to_rewind_it(repo: Path, tmp_path: Path) -> None:
    before = files(repo)
    crash = '{"fake": "exit", "code": 3}'
    played = scenario(tmp_path, init(), write("half.txt", "half done\n"), crash)
    with pytest.raises(AgentProcessError) as caught:
        await run_async("work", options=options(repo, played))
    error = caught.value
    assert error.checkpoint is not None
    assert error.checkpoint.after is not None
    assert error.changes is not None
    assert error.changes.added == ("half.txt",)
    assert error.context.checkpoint == error.checkpoint
    assert (await checkpoints.rewind(error.checkpoint)).removed == ("half.txt",)
    assert files(repo) == before


async def test_outside_git_the_run_fails_before_the_cli_starts(tmp_path: Path) -> None:
    transport = _memory()
    chosen = AgentOptions(cwd=tmp_path, checkpoint=True)
    with pytest.raises(AgentCheckpointError, match="not in a git working tree") as caught:
        await run_async("work", options=chosen, transport=transport)
    assert caught.value.reason == "not_a_repository"
    assert "AgentOptions(checkpoint=True)" in caught.value.message
    assert "without AgentOptions(checkpoint=True)" in (caught.value.hint or "")
    assert transport.started_with is None  # no process was started


async def test_the_tree_is_the_workspace_relative_to_cwd(repo: Path, tmp_path: Path) -> None:
    transport = _memory()
    chosen = AgentOptions(cwd=tmp_path, workspace="repo/sub", checkpoint=True)
    await run_async("work", options=chosen, transport=transport)
    made = await checkpoints.list_checkpoints(repo)
    assert [cp.cwd for cp in made] == [str(repo / "sub")]


async def test_a_rewind_is_refused_while_a_run_holds_the_tree(repo: Path) -> None:
    earlier = await checkpoints.checkpoint(repo)
    (repo / "a.txt").write_text("an earlier run's\n")
    earlier = await checkpoints.finish(earlier)
    chosen = AgentOptions(cwd=repo, checkpoint=True, new_session_id=CHAT)
    async with run("work", options=chosen, transport=_memory()) as events:
        async for _ in events:
            with pytest.raises(AgentCheckpointError, match="in progress") as caught:
                await checkpoints.rewind(earlier)
            assert caught.value.reason == "run_in_progress"
            assert CHAT in str(caught.value)  # the run's label: its chat id
            break
    assert events.checkpoint is not None
    assert events.checkpoint.after is not None
    assert events.checkpoint.label == CHAT
    assert events.changes is not None
    assert events.changes.files == ()
    assert (await checkpoints.rewind(earlier)).restored == ("a.txt",)  # the run let go


async def test_a_streamed_run_has_its_checkpoint_on_its_result(repo: Path, tmp_path: Path) -> None:
    played = scenario(tmp_path, init(), write("made.txt", "x\n"), result())
    async with run("work", options=options(repo, played)) as events:
        async for _ in events:
            assert events.changes is None  # not before the run is over
    assert events.result.checkpoint == events.checkpoint
    assert events.result.changes is not None
    assert events.result.changes.added == ("made.txt",)


def test_a_checkpoint_is_not_taken_with_the_clis_own_worktree() -> None:
    with pytest.raises(AgentConfigError, match="worktree of its own"):
        AgentOptions(worktree=True, checkpoint=True)


async def test_prune_keeps_the_newest(repo: Path) -> None:
    made = [await checkpoints.checkpoint(repo, label=str(n)) for n in range(3)]
    gone = await checkpoints.prune(repo, keep=1)
    assert [cp.id for cp in gone] == [cp.id for cp in made[:2]]
    assert [cp.id for cp in await checkpoints.list_checkpoints(repo)] == [made[2].id]
    assert await checkpoints.prune(repo, keep=1) == []
    with pytest.raises(AgentConfigError, match="keep must be"):
        await checkpoints.prune(repo, keep=-1)


async def test_an_outputs_corrections_share_one_checkpoint(repo: Path, tmp_path: Path) -> None:
    fresh, resumed, end = (
        '{"fake": "only", "resumed": false}',
        '{"fake": "only", "resumed": true}',
        '{"fake": "end_only"}',
    )
    played = scenario(
        tmp_path,
        init(),
        fresh,
        write("one.txt", "1\n"),
        say('["not a number"]'),  # JSON already: the fake adds no example value
        result('["not a number"]'),
        end,
        resumed,
        write("two.txt", "2\n"),
        say("[7]"),
        result("[7]"),
        end,
    )
    done = await run_async("count", output_type=list[int], options=options(repo, played))
    assert done.output == [7]
    assert done.changes is not None
    assert done.changes.added == ("one.txt", "two.txt")  # both replies' files
    assert len(await checkpoints.list_checkpoints(repo)) == 1


async def test_a_cancelled_run_still_finishes_its_checkpoint(repo: Path) -> None:
    init_event = {"type": "system", "subtype": "init"}
    transport = MemoryTransport([Output.event(init_event), Pause(math.inf), Exit(0)])
    events = run("work", options=AgentOptions(cwd=repo, checkpoint=True), transport=transport)
    with anyio.CancelScope() as scope:
        async for _ in events:
            (repo / "a.txt").write_text("what the run did\n")
            scope.cancel()  # the next read is cancelled, the run ends with it
    assert scope.cancelled_caught
    assert events.checkpoint is not None
    assert events.checkpoint.after is not None  # finished, shielded from the cancel
    assert events.changes is not None
    assert events.changes.modified == ("a.txt",)
    assert (await checkpoints.rewind(events.checkpoint)).restored == ("a.txt",)


async def test_a_snapshot_after_the_run_that_fails_is_logged_and_the_run_goes_on(
    repo: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import agent_sdk._run.checkpointed

    async def broken(cp: Checkpoint) -> Checkpoint:
        raise AgentCheckpointError("git could not write the ref")

    monkeypatch.setattr(agent_sdk._run.checkpointed, "finish", broken)
    caplog.set_level(logging.WARNING, logger="agent_sdk")
    chosen = AgentOptions(cwd=repo, checkpoint=True)
    done = await run_async("work", options=chosen, transport=_memory())
    assert done.result == "ok"  # the run's own outcome
    assert done.checkpoint is not None
    assert done.checkpoint.after is None  # unfinished: a rewind needs force
    assert done.changes is None
    assert "git could not write the ref" in caplog.text
    # The tree was let go (a rewind needs it alone), and the unfinished one rewinds forced.
    assert await checkpoints.rewind(done.checkpoint, force=True) == RewindResult()
