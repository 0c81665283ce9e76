"""A program killed with SIGKILL while its run serves one of its tools, or while one of its
hooks is asked (docs/extend.md, "How the tools reach the CLI" and "How hooks reach the
program"; docs/lifecycle.md, "When the program dies"): the relay the CLI started ends (its
socket closed with the program; a hook's exits 2: the call is blocked, never let through),
and what the run made on disk (its HOME, config dir and socket dir) is removed by the next
run with tools, or with hooks."""

from __future__ import annotations

import contextlib
import signal
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from extend_env import left_behind, program_started, short_temp_dir
from proctable import is_running, processes_with_arg, processes_with_env, settles

from agent_sdk import AgentOptions, run_sync
from agent_sdk._transport.owner import PREFIXES
from agent_sdk.extend import Hooks, tool

WITHIN = 10.0  # how long an end may take to land; a bound, not a claim
OURS = PREFIXES[2:]
INIT = {"type": "system", "subtype": "init", "session_id": "s-1", "model": "Auto"}

TOOLS_PROGRAM = """
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

HOOKS_PROGRAM = """
import sys, tempfile
tempfile.tempdir = sys.argv[2]
import anyio
from agent_sdk import AgentOptions, run
from agent_sdk.extend import Hooks

async def asked(call):
    print("asked", flush=True)
    await anyio.sleep_forever()

async def main() -> None:
    options = AgentOptions(binary=sys.argv[1], force=True, hooks=Hooks(before_shell=asked))
    async with run("go", options=options) as events:
        async for event in events:
            print(getattr(event, "outcome", None) or "", flush=True)

anyio.run(main)
"""


@tool
def lookup_issue(number: int) -> str:
    """Look up an issue."""
    return "Issue 26"


@dataclass(frozen=True)
class Served:
    """What a program gives its run: its source, the fake's steps up to the moment it is
    killed (a line it prints then), how its relays are found, and the next run's own."""

    program: str
    steps: list[dict[str, Any]]
    ready: str
    relays: Callable[[Path], list[int]]  # by the socket's path
    next_run: dict[str, Any]


SERVED = {
    "tools": Served(
        TOOLS_PROGRAM,
        [INIT, {"fake": "mcp_call", "server": "agent_sdk", "tool": "lookup_issue",
                "args": {"number": 26}}, {"fake": "stall"}],
        "called",
        lambda socket: processes_with_env("AGENT_SDK_TOOLS_SOCKET", str(socket)),
        {"tools": [lookup_issue]},
    ),
    "hooks": Served(
        HOOKS_PROGRAM,
        [INIT, {"fake": "shell", "command": "echo hi"}, {"fake": "stall"}],
        "asked",
        lambda socket: processes_with_arg(str(socket)),
        {"hooks": Hooks(before_shell=lambda call: "allow")},
    ),
}  # fmt: skip


@pytest.fixture(params=list(SERVED))
def served(request: pytest.FixtureRequest) -> Served:
    return SERVED[request.param]


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    # After tmp_path: pytest's own temp root must not be made in the dir set here.
    with short_temp_dir(monkeypatch, "pd-") as where:
        yield where


@contextlib.contextmanager
def program_serving(
    served: Served, fake_binary: str, temp_dir: Path, tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[str], list[int]]]:
    """A program whose run is being served (the relay runs), and the relay's pids."""
    started = program_started(
        served.program,
        served.steps,
        served.ready,
        fake_binary=fake_binary,
        temp_dir=temp_dir,
        tmp_path=tmp_path,
    )
    with started as (parent, socket):
        yield parent, served.relays(socket)


def test_killing_the_program_ends_the_relay(
    served: Served, fake_binary: str, temp_dir: Path, tmp_path: Path
) -> None:
    with program_serving(served, fake_binary, temp_dir, tmp_path) as (parent, relays):
        assert relays  # the premise: the CLI started the relay
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert settles(lambda: not any(is_running(pid) for pid in relays), within=WITHIN)


def test_what_a_killed_program_made_is_swept_by_the_next_run_given_the_same(
    served: Served, fake_binary: str, temp_dir: Path, tmp_path: Path
) -> None:
    with program_serving(served, fake_binary, temp_dir, tmp_path) as (parent, _):
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    left = sorted(name.rsplit("-", 1)[0] for name in left_behind(temp_dir, OURS))
    assert left == ["agent-sdk-model", "agent-sdk-plugin", "agent-sdk-tools"]
    options = AgentOptions(binary=fake_binary, cwd=tmp_path, **served.next_run)
    run_sync("hello", options=options)
    assert left_behind(temp_dir, OURS) == []
