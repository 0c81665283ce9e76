"""``run_sync``: interrupting the caller ends the run and its CLI, from a plain script
(no event loop: docs/lifecycle.md, "run_sync without an event loop") and inside a running
loop.

The caller is a real Python process (a plain script, or a loop of asyncio or trio, as in
a notebook) that survives the interruption, as a notebook kernel does; the CLI is the
fake agent stalled mid-run, a real child process.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from fake_env import fake_env
from proctable import _table, is_running, settles

import fake_agent

# The caller keeps living after the interruption, so the test can look at the CLI
# while the process that started it is still there to (not) clean up at exit.
CALLER = """
import sys, time
from agent_sdk import AgentOptions, run_sync

options = AgentOptions(binary=sys.argv[2], env={"FAKE_AGENT_SCENARIO": "stall"})

async def cell():
    run_sync("Run the full test suite", options=options)

try:
    if sys.argv[1] == "plain":
        run_sync("Run the full test suite", options=options)
    elif sys.argv[1] == "asyncio":
        import asyncio
        asyncio.run(cell())
    else:
        import trio
        trio.run(cell)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    time.sleep(60)
"""


@pytest.fixture(params=["plain", "asyncio", "trio"])
def caller(request: pytest.FixtureRequest) -> Iterator[subprocess.Popen[str]]:
    with subprocess.Popen(
        [sys.executable, "-c", CALLER, request.param, fake_agent.executable()],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=fake_env(),
    ) as process:
        try:
            yield process
        finally:
            process.kill()


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read()
    except OSError:
        return b""  # it just ended


def _is_cli(cmdline: bytes, binary: bytes) -> bool:
    # Not a fork of the caller before its exec: its command line still holds CALLER.
    return binary in cmdline and CALLER.encode() not in cmdline


def _cli_of(caller: subprocess.Popen[str]) -> int:
    """The caller's child that runs the fake agent: the caller has another, short-lived
    child at its first start (the ``sh`` that starts the parent-death watchdog)."""
    found: list[int] = []
    binary = os.fsencode(fake_agent.executable())

    def started() -> bool:
        mine = [pid for pid, _, ppid, _ in _table() if ppid == caller.pid]
        found[:] = [pid for pid in mine if _is_cli(_cmdline(pid), binary)]
        return bool(found)

    assert settles(started, within=30), "the caller never started the CLI"
    return found[0]


def _said(caller: subprocess.Popen[str], within: float = 30) -> str:
    assert caller.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(caller.stdout, selectors.EVENT_READ)
        if not selector.select(within):
            os.kill(caller.pid, signal.SIGKILL)
            assert caller.stderr is not None
            pytest.fail(f"the caller is still waiting on its run: {caller.stderr.read()}")
    return caller.stdout.readline().strip()


def test_the_first_ctrl_c_ends_the_run_and_its_cli(caller: subprocess.Popen[str]) -> None:
    cli = _cli_of(caller)
    assert settles(lambda: is_running(cli))

    caller.send_signal(signal.SIGINT)

    assert _said(caller) == "interrupted"
    assert not is_running(cli), "the CLI outlived the interrupted run_sync"
    assert caller.poll() is None  # the caller lives on, as a notebook does


def test_a_second_ctrl_c_while_the_run_ends_still_ends_its_cli(
    caller: subprocess.Popen[str],
) -> None:
    cli = _cli_of(caller)
    assert settles(lambda: is_running(cli))

    caller.send_signal(signal.SIGINT)
    time.sleep(0.005)  # within the teardown's grace: the second lands while it ends
    caller.send_signal(signal.SIGINT)

    assert _said(caller) == "interrupted"
    assert settles(lambda: not is_running(cli)), "the CLI outlived the interrupted run_sync"


def _other_threads(pid: int) -> list[int]:
    """The caller's threads but its main one (whose id is the process id)."""
    return [int(tid) for tid in os.listdir(f"/proc/{pid}/task") if int(tid) != pid]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="tgkill is Linux's")
@pytest.mark.parametrize("caller", ["asyncio", "trio"], indirect=True)
def test_a_ctrl_c_the_kernel_hands_to_another_thread_still_ends_the_run(
    caller: subprocess.Popen[str],
) -> None:
    """A Ctrl-C is sent to the process, and the kernel may hand it to any thread: here the
    run's worker thread. Python runs the handler in the main thread only once that thread
    runs again, so a wait that never wakes would never see it."""
    import ctypes

    cli = _cli_of(caller)
    assert settles(lambda: is_running(cli))
    workers = _other_threads(caller.pid)
    assert workers, "run_sync in a running loop runs the run in a worker thread"

    assert ctypes.CDLL(None).tgkill(caller.pid, workers[0], signal.SIGINT) == 0

    assert _said(caller) == "interrupted"
    assert settles(lambda: not is_running(cli)), "the CLI outlived the interrupted run_sync"


# A run whose teardown is interrupted again and again: Ctrl-C held down while the run
# ends. The first Ctrl-C comes from the run itself once it is under way; the next five
# land while it ends (its teardown is shielded, as the CLI's group kill is), and the
# run is marked ended only after the last of them.
HELD_DOWN = """
import asyncio, signal, sys, threading
import anyio
from agent_sdk import run_sync
from agent_sdk._run import run_sync as _sync

MAIN = threading.main_thread().ident
ended = []

async def a_run_interrupted_while_it_ends(prompt, options, output_type):
    signal.pthread_kill(MAIN, signal.SIGINT)
    try:
        await anyio.sleep_forever()
    finally:
        with anyio.CancelScope(shield=True):
            for _ in range(5):
                await anyio.sleep(0.02)
                signal.pthread_kill(MAIN, signal.SIGINT)
            await anyio.sleep(0.05)
            ended.append(True)

_sync._run_async_positional = a_run_interrupted_while_it_ends

async def cell():
    run_sync("Run the full test suite")

try:
    if sys.argv[1] == "asyncio":
        asyncio.run(cell())
    else:
        import trio
        trio.run(cell)
except KeyboardInterrupt:
    print("interrupted after the run ended" if ended else "interrupted while the run ran")
"""


@pytest.mark.parametrize("loop", ["asyncio", "trio"])
def test_ctrl_c_held_down_while_the_run_ends_returns_only_once_it_has_ended(loop: str) -> None:
    """Every further Ctrl-C during the teardown is absorbed: the caller hears of the
    interruption once, after the run (and so its CLI) has ended, and never waits forever
    on a teardown an interruption cut short (seen in CI: a second Ctrl-C hung the caller)."""
    caller = subprocess.run(
        [sys.executable, "-c", HELD_DOWN, loop],
        capture_output=True,
        text=True,
        env=fake_env(),
        timeout=60,
    )

    assert caller.stdout.strip() == "interrupted after the run ended", caller.stderr
