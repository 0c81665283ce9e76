"""The CLI and what it started die with the program that started it, however that
program dies (docs/lifecycle.md, "When the program dies").

A program killed by SIGKILL (or SIGTERM without a handler) runs no teardown of its own;
the CLI, which runs in its own session, would live on, and so would its children. These
tests kill a real program (parent_program.py) with a CLI running, started by each
surface: a run driven each way a program drives one (an async run on asyncio and on
trio, ``run_sync``, ``run_sync`` from a running loop), the live agent, a fleet. They are
plain functions: the event loop that matters is the killed program's.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from parent_program import SURFACES, start_parent, write_cli
from proctable import is_running, settles

from agent_sdk import AgentOptions, run, run_async

WITHIN = 10.0  # how long the watchdog's kill may take to land; a bound, not a claim


@contextlib.contextmanager
def parent_with_a_run(driver: str, directory: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A program whose run is in progress, and its CLI's pid; whatever the test does,
    neither the CLI nor its grandchild outlives it (a failing test must not leave one
    behind)."""
    parent, cli = start_parent(driver, directory, wait="orphaned")
    try:
        assert is_running(cli)
        yield parent, cli
    finally:
        parent.kill()
        parent.communicate()
        for pid in (cli, *started_by_cli(directory)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def grandchild_of(directory: Path) -> int:
    """The process the CLI started in its process group (written before the CLI's pid)."""
    return int((directory / "grandchild").read_text())


def started_by_cli(directory: Path) -> list[int]:
    """What the CLI started: in its group, in a session of its own, and a daemon that left
    its tree (each written before the CLI's pid)."""
    return [int((directory / name).read_text()) for name in ("grandchild", "session", "daemon")]


@pytest.mark.parametrize("surface", SURFACES)
def test_killing_the_program_kills_its_cli(surface: str, tmp_path: Path) -> None:
    with parent_with_a_run(surface, tmp_path) as (parent, cli):
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert settles(lambda: not is_running(cli), within=WITHIN)


@pytest.mark.parametrize("surface", SURFACES)
def test_killing_the_program_kills_what_its_cli_started(surface: str, tmp_path: Path) -> None:
    with parent_with_a_run(surface, tmp_path) as (parent, _cli):
        grandchild = grandchild_of(tmp_path)
        assert is_running(grandchild)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert settles(lambda: not is_running(grandchild), within=WITHIN)


# The real CLI's shell commands lead sessions of their own, and its helpers may daemonise
# (docs/protocol.md §5): the watchdog ends them by the run's mark (docs/lifecycle.md).
@pytest.mark.parametrize("surface", SURFACES)
def test_killing_the_program_kills_what_its_cli_started_outside_its_group(
    surface: str, tmp_path: Path
) -> None:
    with parent_with_a_run(surface, tmp_path) as (parent, _cli):
        _, session, daemon = started_by_cli(tmp_path)
        assert is_running(session)
        assert is_running(daemon)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert settles(lambda: not is_running(session), within=WITHIN)
        assert settles(lambda: not is_running(daemon), within=WITHIN)


# A forked child inherits what the program holds open; it must not keep the program's
# CLIs alive after the program's death (docs/lifecycle.md, "When the program forks").
@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_a_forked_child_that_lives_on_does_not_keep_the_cli_alive(
    backend: str, tmp_path: Path
) -> None:
    with parent_with_a_run(f"forked-{backend}", tmp_path) as (parent, cli):
        forked = tmp_path / "forked"
        assert settles(forked.exists, within=WITHIN)
        try:
            parent.send_signal(signal.SIGKILL)
            parent.wait()
            assert is_running(int(forked.read_text()))
            assert settles(lambda: not is_running(cli), within=WITHIN)
        finally:
            os.kill(int(forked.read_text()), signal.SIGKILL)


@pytest.mark.parametrize("driver", ["asyncio", "trio"])
def test_sigterm_without_a_handler_kills_the_cli_too(driver: str, tmp_path: Path) -> None:
    with parent_with_a_run(driver, tmp_path) as (parent, cli):
        parent.send_signal(signal.SIGTERM)
        assert parent.wait() == -signal.SIGTERM  # it died of it: no teardown ran
        assert settles(lambda: not is_running(cli), within=WITHIN)


@pytest.mark.parametrize("driver", ["asyncio", "trio"])
def test_a_cli_whose_program_was_killed_does_nothing_afterwards(
    driver: str, tmp_path: Path
) -> None:
    with parent_with_a_run(driver, tmp_path) as (parent, cli):
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert settles(lambda: not is_running(cli), within=WITHIN)
    # Had it outlived its parent, it would have written this a second later.
    assert not (tmp_path / "outlived").exists()


def session_and_group(pid: int) -> tuple[int, int]:
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return int(fields[3]), int(fields[2])


def command_line(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]


# The CLI is started directly, not through a wrapper: the pid a run holds must be the CLI's
# own, leader of its own session and process group (what teardown signals).
@pytest.mark.anyio
async def test_the_pid_of_a_run_is_the_cli_leading_its_own_session_and_group(
    tmp_path: Path,
) -> None:
    cli = write_cli(tmp_path)
    options = AgentOptions(binary=cli, env={"CLI_DIR": str(tmp_path), "CLI_WAIT": "go"})
    async with run("go", options=options) as events:
        async for _ in events:
            break
        pid = events.pid
        assert pid is not None
        # The kernel ran its #! line: python -I cli.py, and nothing wraps it.
        assert command_line(pid)[1:3] == ["-I", str(cli)]
        assert session_and_group(pid) == (pid, pid)


def cli_reporting(directory: Path, command: str) -> Path:
    """A CLI (sh) whose result is what the shell ``command`` prints."""
    cli = directory / "cursor-agent"
    result = '{"type":"result","is_error":false,"result":"%s"}'
    cli.write_text(f"#!/bin/sh\nprintf '{result}\\n' \"$({command})\"\n")
    cli.chmod(0o755)
    return cli


# Python changes its own environment when the locale is C (PEP 538 coerces LC_CTYPE to
# C.UTF-8): the CLI must still get exactly what the run gave it.
@pytest.mark.anyio
async def test_the_cli_gets_the_environment_of_the_run_unchanged(tmp_path: Path) -> None:
    cli = cli_reporting(tmp_path, "echo $LC_CTYPE")
    options = AgentOptions(binary=cli, env={"LC_ALL": "", "LC_CTYPE": "C"})
    assert (await run_async("go", options=options)).result == "C"


# Python ignores SIGPIPE and SIGXFSZ for itself; a child started directly gets them back
# (subprocess restores them), and so must the CLI.
@pytest.mark.anyio
async def test_the_cli_starts_with_sigpipe_and_sigxfsz_not_ignored(tmp_path: Path) -> None:
    cli = cli_reporting(tmp_path, "grep SigIgn /proc/$$/status | cut -f2")
    ignored = int((await run_async("go", options=AgentOptions(binary=cli))).result, 16)
    assert [sig for sig in (signal.SIGPIPE, signal.SIGXFSZ) if ignored >> (sig - 1) & 1] == []


# The CLI lives as long as its run, not as long as the thread that started it: trio
# starts processes from worker threads that end after a few idle seconds (10 by default;
# shortened here, a test's patience), and nothing of the CLI's may be tied to one (the
# kernel's parent-death signal would be: docs/lifecycle.md, "When the program dies").
@pytest.mark.anyio
async def test_the_cli_outlives_the_worker_threads_of_its_event_loop(
    anyio_backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if anyio_backend == "trio":
        from trio._core import _thread_cache

        monkeypatch.setattr(_thread_cache, "IDLE_TIMEOUT", 0.05)
    options = AgentOptions(
        binary=write_cli(tmp_path), env={"CLI_DIR": str(tmp_path), "CLI_WAIT": "go"}
    )
    events = run("go", options=options)
    async with events:
        async for _ in events:
            break
        await anyio.sleep(1)  # 20 times the idle time of trio's worker threads
        assert events.pid is not None
        assert is_running(events.pid)
        (tmp_path / "go").touch()
        async for _ in events:
            pass
    assert events.result.result == "done"


def watchdogs_of(life: int) -> list[int]:
    """The processes reading the pipe whose write end ``life`` this process holds."""
    pipe = os.readlink(f"/proc/self/fd/{life}")
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if entry.name.isdigit() and os.readlink(entry / "fd" / "0") == pipe:
                found.append(int(entry.name))
    return [pid for pid in found if pid != os.getpid() and is_running(pid)]


# The watchdog is an ordinary process: someone may kill it. The next start notices
# (its pipe has no reader) and starts another, which learns every group still running.
@pytest.mark.anyio
async def test_a_killed_watchdog_is_replaced_at_the_next_start(tmp_path: Path) -> None:
    from agent_sdk._transport import groups

    env = {"CLI_DIR": str(tmp_path), "CLI_WAIT": "go"}
    options = AgentOptions(binary=write_cli(tmp_path), env=env)
    (tmp_path / "go").touch()
    await run_async("go", options=options)
    assert groups._watchdog is not None
    (first,) = watchdogs_of(groups._watchdog.life)
    os.kill(first, signal.SIGKILL)
    assert settles(lambda: not is_running(first))
    await run_async("go", options=options)
    assert groups._watchdog is not None
    assert len(watchdogs_of(groups._watchdog.life)) == 1
