"""agent_sdk.testing: the fake_cursor_agent fixture and recording runs as scenarios."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from agent_sdk import AgentOptions, AgentProcessError, Session, run_async, run_sync
from agent_sdk.testing import FakeAgent, record

MakeOptions = Callable[..., AgentOptions]


def test_fixture_points_default_runs_at_the_fake(fake_cursor_agent: FakeAgent) -> None:
    fake_cursor_agent.use("hello")
    assert run_sync("hi").result == "Done. I added the test."


def test_fixture_plays_a_users_own_scenario_file(
    fake_cursor_agent: FakeAgent, tmp_path: Path
) -> None:
    mine = tmp_path / "greeting.ndjson"
    mine.write_text(
        json.dumps({"type": "system", "subtype": "init", "session_id": "s"})
        + "\n"
        + json.dumps({"type": "result", "subtype": "success", "result": "hi there"})
        + "\n"
    )
    fake_cursor_agent.use(mine)
    assert run_sync("hi").result == "hi there"


def test_fixture_finds_scenarios_by_name_in_the_users_dirs(
    fake_cursor_agent: FakeAgent, tmp_path: Path
) -> None:
    (tmp_path / "refusal.ndjson").write_text(
        '{"fake":"stderr","text":"no thanks"}\n{"fake":"exit","code":1}\n'
    )
    fake_cursor_agent.scenario_dirs.append(tmp_path)
    fake_cursor_agent.use("refusal")
    with pytest.raises(AgentProcessError, match="no thanks"):
        run_sync("hi")


def test_unknown_scenario_name_lists_the_known_ones(fake_cursor_agent: FakeAgent) -> None:
    with pytest.raises(LookupError, match="hello"):
        fake_cursor_agent.use("no-such-scenario")


@pytest.mark.anyio
async def test_fixture_options_play_a_scenario_for_one_run(
    fake_cursor_agent: FakeAgent,
) -> None:
    session = Session(options=fake_cursor_agent.options("tools"))
    result = await session.send("go")
    assert {call.kind for call in result.tool_calls} >= {"readToolCall", "shellToolCall"}


@pytest.mark.anyio
@pytest.mark.parametrize("scenario", ["tools", "banner", "surrogate", "thinking"])
async def test_a_recorded_run_replays_the_same(
    fake_options: MakeOptions, tmp_path: Path, scenario: str
) -> None:
    original = await run_async("go", options=fake_options(scenario))
    path = await record("go", tmp_path / "recorded.ndjson", options=fake_options(scenario))
    replayed = await run_async("go", options=fake_options(path))
    assert replayed.result == original.result
    assert [type(e) for e in replayed.events] == [type(e) for e in original.events]
    assert [c.kind for c in replayed.tool_calls] == [c.kind for c in original.tool_calls]


@pytest.mark.anyio
async def test_a_recorded_failure_replays_as_the_same_failure(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    path = await record("go", tmp_path / "crash.ndjson", options=fake_options("crash"))
    with pytest.raises(AgentProcessError, match="Cannot read properties") as info:
        await run_async("go", options=fake_options(path))
    assert info.value.exit_code == 1


@pytest.mark.anyio
async def test_recording_keeps_partial_output_out_of_the_file(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    options = fake_options("hello", stream_partial_output=True)
    path = await record("go", tmp_path / "hello.ndjson", options=options)
    assistants = [line for line in path.read_text().splitlines() if '"assistant"' in line]
    assert len(assistants) == 1
