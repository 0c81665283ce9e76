"""A program killed with SIGKILL while one of its hooks is asked (docs/extend.md, "How hooks
reach the program"; docs/lifecycle.md, "When the program dies"): the relay the CLI started
for the hook ends and exits 2 (the call is blocked, never let through), and what the run
made on disk (its HOME, config dir and socket dir) is removed by the next run with hooks."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_env import clean_env
from proctable import is_running, processes_with_arg, settles

from agent_sdk import AgentOptions, run_sync
from agent_sdk._owner import PREFIXES
from agent_sdk.extend import Hooks

WITHIN = 10.0  # how long an end may take to land; a bound, not a claim
OURS = PREFIXES[2:]

PROGRAM = """
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


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="hpd-", dir="/tmp") as where:
        monkeypatch.setattr(tempfile, "tempdir", where)
        yield Path(where)


@contextlib.contextmanager
def program_asked(
    fake_binary: str, temp_dir: Path, tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[str], list[int]]]:
    """A program whose run's hook is being asked (the relay runs), and the relay's pid."""
    scenario = tmp_path / "shell_then_stall.ndjson"
    steps = [
        {"type": "system", "subtype": "init", "session_id": "s-1", "model": "Auto"},
        {"fake": "shell", "command": "echo hi"},
        {"fake": "stall"},
    ]
    scenario.write_text("".join(json.dumps(step) + "\n" for step in steps))
    home = tmp_path / "home"
    (home / ".cursor").mkdir(parents=True)
    env = {**os.environ, **clean_env(FAKE_AGENT_SCENARIO=str(scenario)), "HOME": str(home)}
    env.pop("CURSOR_CONFIG_DIR", None)
    parent = subprocess.Popen(
        [sys.executable, "-c", PROGRAM, fake_binary, str(temp_dir)],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout is not None
        while (line := parent.stdout.readline().strip()) != "asked":
            assert line == "", line  # events before the hook: no outcome yet
        (tools_dir,) = [p for p in temp_dir.iterdir() if p.name.startswith(PREFIXES[3])]
        yield parent, processes_with_arg(str(tools_dir / "tools.sock"))
    finally:
        parent.kill()
        parent.communicate()


def test_killing_the_program_ends_the_hooks_relay(
    fake_binary: str, temp_dir: Path, tmp_path: Path
) -> None:
    with program_asked(fake_binary, temp_dir, tmp_path) as (parent, relays):
        assert relays  # the premise: the CLI started the relay for the hook
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert settles(lambda: not any(is_running(pid) for pid in relays), within=WITHIN)


def test_what_a_killed_program_made_is_swept_by_the_next_run_with_hooks(
    fake_binary: str, temp_dir: Path, tmp_path: Path
) -> None:
    with program_asked(fake_binary, temp_dir, tmp_path) as (parent, _):
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    left = sorted(p.name.rsplit("-", 1)[0] for p in temp_dir.iterdir() if p.name.startswith(OURS))
    assert left == ["agent-sdk-home", "agent-sdk-model", "agent-sdk-tools"]
    hooks = Hooks(before_shell=lambda call: "allow")
    run_sync("hello", options=AgentOptions(binary=fake_binary, cwd=tmp_path, hooks=hooks))
    assert [p for p in temp_dir.iterdir() if p.name.startswith(OURS)] == []
