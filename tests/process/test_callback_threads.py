"""A sync tool or callback that never returns does not keep the program alive (docs/extend.md,
"Sync code and its threads"): a gate past ``Hooks.timeout`` (an ``input()`` nobody answers)
and a tool past the run's timeout are abandoned in daemon threads, so the program ends when
its work is done; and the threads are bounded. Each program runs in a process of its own,
on asyncio and on trio, and must exit by itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from extend_env import CONFIG, UserHome
from fake_env import clean_env

HANG_GUARD = 20  # seconds: a program that cannot exit fails here instead of hanging CI

GATE_PROGRAM = """
import json, sys, anyio
from agent_sdk.extend import Hooks
from agent_sdk.extend._host import ToolHost

def ask(call):
    return "allow" if input("allow? ") == "y" else "deny"  # nobody answers

async def hook(host):
    payload = {"hook_event_name": "preToolUse", "tool_name": "Write", "tool_input": {}}
    stream = await anyio.connect_unix(host.socket_path)
    async with stream:
        await stream.send(host.token.encode() + b" hook\\n" + json.dumps(payload).encode())
        await stream.send_eof()
        data = b""
        while True:
            try:
                data += await stream.receive()
            except anyio.EndOfStream:
                return data

def anyone(peer, mode, token):  # this program's own connection is the test's "relay"
    return None

async def main():
    host = ToolHost([], hooks=Hooks(before_tool=ask, timeout=0.5), peers=anyone)
    host.open()
    host.start()
    answer = await hook(host)
    await host.aclose()
    print("deny" in answer.decode() and repr(host.hook_errors))

anyio.run(main, backend=sys.argv[1])
"""

TOOL_PROGRAM = """
import sys, threading, anyio
from agent_sdk import AgentOptions, AgentTimeoutError, run_async
from agent_sdk.extend import tool

@tool
def lookup_issue(number: int) -> str:
    '''Look up an issue (never returns).'''
    threading.Event().wait()
    return ""

@tool
def fail(reason: str) -> str:
    '''Fail.'''
    raise RuntimeError(reason)

async def main():
    options = AgentOptions(binary=sys.argv[2], tools=[lookup_issue, fail], timeout=3)
    try:
        await run_async("go", options=options)
    except AgentTimeoutError:
        print("timed out")

anyio.run(main, backend=sys.argv[1])
"""


def finished(program: str, *args: str, env: dict[str, str], where: Path) -> str:
    """The program's stdout, once it exited by itself (its stdin a pipe held open here and
    never written: an ``input()`` nobody answers)."""
    out, err = where / "out", where / "err"
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-c", program, *args],
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=stderr,
            env=env,
        )
    try:
        process.wait(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise AssertionError(f"the program did not exit; it printed {out.read_text()!r}") from None
    finally:
        assert process.stdin is not None
        process.stdin.close()
    assert process.returncode == 0, err.read_text()
    return out.read_text()


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_a_gate_past_its_timeout_leaves_no_thread_that_holds_the_program(
    backend: str, tmp_path: Path
) -> None:
    env = {**os.environ, **clean_env(), "TMPDIR": "/tmp"}
    out = finished(GATE_PROGRAM, backend, env=env, where=tmp_path)
    assert out.strip().endswith("[TimeoutError()]")


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_a_tool_past_the_runs_timeout_leaves_no_thread_that_holds_the_program(
    backend: str, tmp_path: Path, fake_binary: str
) -> None:
    user = UserHome(tmp_path, CONFIG)
    env = user.program_env(FAKE_AGENT_SCENARIO="custom_tools", TMPDIR="/tmp")
    out = finished(TOOL_PROGRAM, backend, fake_binary, env=env, where=tmp_path)
    assert out.strip() == "timed out"
