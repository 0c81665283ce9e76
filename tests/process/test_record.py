"""``agent_sdk.testing.record()`` always writes: a CLI that hangs after its result is ended
after ``result_grace`` (docs/protocol.md §5, the known hang) and recorded ending in the
hang, a run that times out is written as far as it got, and no line holds a secret."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from agent_sdk import AgentOptions, AgentProtocolError, AgentTimeoutError, run_async
from agent_sdk.testing import record

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]
# Far beyond what each test needs: on a hang, the test fails instead of hanging.
PATIENCE = 20.0
INIT = {"type": "system", "subtype": "init", "session_id": "s-1", "model": "Auto"}
SAID = {
    "type": "assistant",
    "message": {"role": "assistant", "content": [{"type": "text", "text": "Working on it."}]},
    "session_id": "s-1",
}


def scenario(tmp_path: Path, *steps: dict[str, Any]) -> Path:
    path = tmp_path / "scenario.ndjson"
    path.write_text("".join(json.dumps(step) + "\n" for step in steps))
    return path


def last_line(path: Path) -> Any:
    return json.loads(path.read_text().splitlines()[-1])


def lingering_agent(tmp_path: Path) -> str:
    """A stand-in CLI that closes stdout at once, prints nothing, and does not exit."""
    binary = tmp_path / "lingering-agent"
    binary.write_text("#!/bin/sh\nexec 1>&-\nsleep 30\n")
    binary.chmod(0o755)
    return str(binary)


async def recorded(prompt: str, path: Path, options: AgentOptions) -> Path:
    with anyio.fail_after(PATIENCE):
        return await record(prompt, path, options=options)


async def failed_recording(path: Path, options: AgentOptions) -> AgentTimeoutError:
    with anyio.fail_after(PATIENCE), pytest.raises(AgentTimeoutError) as info:
        await record("go", path, options=options)
    return info.value


# --- the known hang ------------------------------------------------------------------
async def test_a_cli_hanging_after_its_result_is_recorded_once_the_grace_is_over(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    options = fake_options("hang_after_result", result_grace=0.2)
    path = await recorded("go", tmp_path / "hang.ndjson", options)
    assert last_line(path) == {"fake": "hang"}


async def test_the_recording_of_a_hang_keeps_the_result(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    options = fake_options("hang_after_result", result_grace=0.2)
    path = await recorded("go", tmp_path / "hang.ndjson", options)
    events = [json.loads(line) for line in path.read_text().splitlines()]
    assert [event["type"] for event in events if "type" in event][-1] == "result"


async def test_the_recording_of_a_hang_replays_as_the_same_success(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    options = fake_options("hang_after_result", result_grace=0.2)
    path = await recorded("go", tmp_path / "hang.ndjson", options)
    with anyio.fail_after(PATIENCE):
        replayed = await run_async("go", options=fake_options(path, result_grace=0.2))
    original = await run_async("go", options=options)
    assert replayed.result == original.result


async def test_a_cli_closing_stdout_without_a_result_and_lingering_is_recorded(
    tmp_path: Path,
) -> None:
    options = AgentOptions(binary=lingering_agent(tmp_path), result_grace=0.2)
    path = await recorded("go", tmp_path / "lingering.ndjson", options)
    assert last_line(path) == {"fake": "exit", "code": 0}


async def test_the_recording_of_a_lingering_cli_without_result_replays_as_no_result(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    options = AgentOptions(binary=lingering_agent(tmp_path), result_grace=0.2)
    path = await recorded("go", tmp_path / "lingering.ndjson", options)
    with pytest.raises(AgentProtocolError):
        await run_async("go", options=fake_options(path))


# --- a timeout -----------------------------------------------------------------------
async def test_a_timed_out_recording_raises_a_timeout_error_naming_the_file(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    options = fake_options(scenario(tmp_path, INIT, SAID, {"fake": "stall"}), timeout=0.5)
    path = tmp_path / "partial.ndjson"
    error = await failed_recording(path, options)
    assert str(path) in str(error)


async def test_a_timed_out_recording_writes_what_was_received(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    options = fake_options(scenario(tmp_path, INIT, SAID, {"fake": "stall"}), timeout=0.5)
    path = tmp_path / "partial.ndjson"
    await failed_recording(path, options)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line.get("type") for line in lines[:2]] == ["system", "assistant"]


async def test_a_timed_out_recording_ends_in_a_hang(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    options = fake_options(scenario(tmp_path, INIT, SAID, {"fake": "stall"}), timeout=0.5)
    path = tmp_path / "partial.ndjson"
    await failed_recording(path, options)
    assert last_line(path) == {"fake": "hang"}


async def test_a_timed_out_recording_replays_as_a_timeout(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    options = fake_options(scenario(tmp_path, INIT, SAID, {"fake": "stall"}), timeout=0.5)
    path = tmp_path / "partial.ndjson"
    await failed_recording(path, options)
    with anyio.fail_after(PATIENCE), pytest.raises(AgentTimeoutError):
        await run_async("go", options=fake_options(path, timeout=0.5))


# --- secrets -------------------------------------------------------------------------
# A key holding a quote, a backslash and a non-ASCII letter is escaped in a JSON line.
TRICKY = 'sk-"quoted"\\back-é-42'


@pytest.mark.parametrize(
    "form",
    [TRICKY, json.dumps(TRICKY, ensure_ascii=False)[1:-1], json.dumps(TRICKY)[1:-1]],
    ids=["plain", "json-escaped", "ascii-escaped"],
)
async def test_a_recording_holds_an_escaped_key_in_no_form(
    fake_options: MakeOptions, tmp_path: Path, form: str
) -> None:
    leaky = scenario(tmp_path, INIT, {"fake": "leak_credentials"}, {"fake": "exit", "code": 1})
    path = await recorded("go", tmp_path / "r.ndjson", fake_options(leaky, api_key=TRICKY))
    assert form.encode() not in path.read_bytes()


async def test_a_timed_out_recordings_error_holds_no_key(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    leaky = scenario(tmp_path, INIT, {"fake": "leak_credentials"}, {"fake": "stall"})
    options = fake_options(leaky, api_key=TRICKY, timeout=0.5, result_grace=30)
    error = await failed_recording(tmp_path / "partial.ndjson", options)
    assert TRICKY not in repr(error) + str(error) + error.stderr + repr(error.stdout_lines)
