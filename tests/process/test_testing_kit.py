"""agent_sdk.testing: the fake_cursor_agent fixture and recording runs as scenarios."""

from __future__ import annotations

import json
import subprocess
import sys
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


# --- without pytest -------------------------------------------------------------------
# A program that plays a scripted CLI needs no test runner: agent_sdk.testing imports
# without pytest, which only its fixture needs (loaded by pytest, from the entry point).
WITHOUT_PYTEST = """
import sys
sys.modules["pytest"] = sys.modules["_pytest"] = None  # `import pytest` fails, as uninstalled
import anyio
from agent_sdk import run_async
from agent_sdk.testing import Exit, MemoryTransport, Output, record

async def main():
    script = [Output.event({"type": "result", "result": "Hi", "session_id": "s"}), Exit(0)]
    print((await run_async("hello", transport=MemoryTransport(script))).result)

anyio.run(main)
try:
    from agent_sdk.testing import fake_cursor_agent
except ImportError as exc:
    print("ImportError:", exc)
"""


def test_the_test_kit_imports_and_plays_without_pytest() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", WITHOUT_PYTEST], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    played, refused = proc.stdout.splitlines()
    assert played == "Hi"
    # The fixture alone needs pytest, and says how to get it.
    assert refused.startswith("ImportError: ")
    assert "pip install pytest" in refused


def test_the_plugin_entry_point_is_the_fixtures_module_not_the_kit() -> None:
    # pytest imports the plugin's module; that one alone imports pytest.
    text = (Path(__file__).parents[2] / "pyproject.toml").read_text("utf-8")
    section = text.split("[project.entry-points.pytest11]", 1)[1].split("\n[", 1)[0]
    assert 'agent_sdk = "agent_sdk.testing._plugin"' in section.splitlines()
