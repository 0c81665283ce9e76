"""A program killed with SIGKILL while a run serves its tools (docs/extend.md, "How the
tools reach the CLI"; docs/lifecycle.md, "When the program dies"): the relay the CLI
started ends (its socket closed with the program), the CLI too, and what the run made on
disk (its HOME, config dir and socket dir) is removed by the next run with tools."""

from __future__ import annotations

import contextlib
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from extend_env import left_behind, program_started, short_temp_dir
from proctable import is_running, processes_with_env, settles

from agent_sdk import AgentOptions, run_sync
from agent_sdk._owner import PREFIXES
from agent_sdk.extend import tool

WITHIN = 10.0  # how long an end may take to land; a bound, not a claim
OURS = PREFIXES[2:]

PROGRAM = """
import sys, tempfile
tempfile.tempdir = sys.argv[2]
import anyio
from agent_sdk import AgentOptions, run
from agent_sdk.extend import tool

@tool
def lookup_issue(number: int) -> str:
    '''Look up an issue.'''
    print("called", flush=True)
    return "Issue 26"

async def main() -> None:
    options = AgentOptions(binary=sys.argv[1], tools=[lookup_issue])
    async with run("go", options=options) as events:
        async for event in events:
            pass

anyio.run(main)
"""


@tool
def lookup_issue(number: int) -> str:
    """Look up an issue."""
    return "Issue 26"


STEPS = [
    {"type": "system", "subtype": "init", "session_id": "s-1", "model": "Auto"},
    {"fake": "mcp_call", "server": "agent_sdk", "tool": "lookup_issue", "args": {"number": 26}},
    {"fake": "stall"},
]


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_temp_dir(monkeypatch, "pd-") as where:
        yield where


@contextlib.contextmanager
def program_serving(
    fake_binary: str, temp_dir: Path, tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[str], list[int]]]:
    """A program whose run's tool was called (the relay runs), and the relay's pid."""
    started = program_started(
        PROGRAM, STEPS, "called", fake_binary=fake_binary, temp_dir=temp_dir, tmp_path=tmp_path
    )
    with started as (parent, socket):
        yield parent, processes_with_env("AGENT_SDK_TOOLS_SOCKET", str(socket))


def test_killing_the_program_ends_the_relay(
    fake_binary: str, temp_dir: Path, tmp_path: Path
) -> None:
    with program_serving(fake_binary, temp_dir, tmp_path) as (parent, relays):
        assert relays  # the premise: the CLI started the relay
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert settles(lambda: not any(is_running(pid) for pid in relays), within=WITHIN)


def test_what_a_killed_program_made_is_swept_by_the_next_run_with_tools(
    fake_binary: str, temp_dir: Path, tmp_path: Path
) -> None:
    with program_serving(fake_binary, temp_dir, tmp_path) as (parent, _):
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    left = sorted(name.rsplit("-", 1)[0] for name in left_behind(temp_dir, OURS))
    assert left == ["agent-sdk-home", "agent-sdk-model", "agent-sdk-tools"]
    options = AgentOptions(binary=fake_binary, cwd=tmp_path, tools=[lookup_issue])
    run_sync("hello", options=options)
    assert left_behind(temp_dir, OURS) == []
