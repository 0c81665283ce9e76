"""Every way the CLI can fail to start is an AgentStartError that says which and how to
fix it, and leaves no descriptor open (a too-long argv is not "not installed")."""

from __future__ import annotations

import errno
import gc
import json
import resource
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from fake_env import fake_env
from proctable import children, open_fds

from agent_sdk import AgentNotFoundError, AgentOptions, AgentStartError, run, run_async

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]
HERE = Path(__file__).resolve().parent


async def start_error(options: AgentOptions) -> AgentStartError:
    with pytest.raises(AgentStartError) as info:
        await run_async("hi", options=options)
    assert info.value.hint  # every one says how to fix it
    return info.value


async def test_a_missing_cwd(fake_options: MakeOptions, tmp_path: Path) -> None:
    error = await start_error(fake_options(cwd=tmp_path / "nope"))
    assert "does not exist" in str(error)
    assert "AgentOptions(cwd=...)" in str(error)
    assert not isinstance(error, AgentNotFoundError)


async def test_a_cwd_that_is_a_file(fake_options: MakeOptions, tmp_path: Path) -> None:
    afile = tmp_path / "file.txt"
    afile.write_text("not a directory")
    error = await start_error(fake_options(cwd=afile))
    assert "is not a directory" in str(error)


async def test_a_command_line_too_long_for_the_os(fake_options: MakeOptions) -> None:
    error = await start_error(fake_options(extra_args=["--x=" + "y" * 200_000]))
    assert "too long" in str(error)
    assert not isinstance(error, AgentNotFoundError)


async def test_a_binary_of_the_wrong_format(tmp_path: Path) -> None:
    binary = tmp_path / "cursor-agent"
    binary.write_bytes(b"\x7fELF-but-not-really\x00\x01\x02")
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    error = await start_error(AgentOptions(binary=binary))
    assert "exec format error" in str(error)


async def test_no_file_descriptors_left(fake_options: MakeOptions) -> None:
    options = fake_options("hello")
    await run_async("warm-up", options=options)  # the loop's own descriptors, once
    gc.collect()
    before = open_fds()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (before + 1, hard))
    try:
        error = await start_error(options)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert "file descriptors" in str(error)
    assert "ulimit -n" in str(error)
    gc.collect()
    assert open_fds() == before


async def test_a_missing_binary_is_a_start_error_too(tmp_path: Path) -> None:
    error = await start_error(AgentOptions(binary=tmp_path / "no-such-cursor-agent"))
    assert isinstance(error, AgentNotFoundError)


# --- nothing left behind ---------------------------------------------------------------
async def test_a_failed_exec_leaves_no_descriptor_open(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    await run_async("warm-up", options=fake_options("hello"))  # the loop's own descriptors
    gc.collect()
    before = open_fds()
    await start_error(AgentOptions(**wrong_format(tmp_path)))
    gc.collect()
    assert open_fds() == before


async def test_a_failed_exec_leaves_no_process(tmp_path: Path) -> None:
    before = set(children())
    await start_error(AgentOptions(**wrong_format(tmp_path)))
    assert set(children()) == before  # zombies count: what failed was reaped


@pytest.mark.parametrize("delay", [0.0, 0.002, 0.005, 0.01, 0.02, 0.04])
async def test_a_start_cancelled_midway_leaves_nothing(
    fake_options: MakeOptions, delay: float
) -> None:
    await run_async("warm-up", options=fake_options("hello"))
    gc.collect()
    before = open_fds(), set(children())
    for _ in range(3):
        with anyio.move_on_after(delay):
            async with run("go", options=fake_options("stall")) as events:
                async for _ in events:
                    pass
    gc.collect()
    assert (open_fds(), set(children())) == before


# --- what the OS said ------------------------------------------------------------------
def not_a_directory(tmp_path: Path) -> dict[str, Any]:
    afile = tmp_path / "file.txt"
    afile.write_text("not a directory")
    return {"cwd": afile}


def wrong_format(tmp_path: Path) -> dict[str, Any]:
    binary = tmp_path / "cursor-agent"
    binary.write_bytes(b"\x7fELF-but-not-really\x00\x01\x02")
    binary.chmod(0o755)
    return {"binary": binary}


def bad_interpreter(tmp_path: Path) -> dict[str, Any]:
    binary = tmp_path / "cursor-agent"
    binary.write_text("#!/no/such/interpreter\n")
    binary.chmod(0o755)
    return {"binary": binary}


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda tmp_path: {"cwd": tmp_path / "nope"}, errno.ENOENT),
        (not_a_directory, errno.ENOTDIR),
        (lambda tmp_path: {"extra_args": ["--x=" + "y" * 200_000]}, errno.E2BIG),
        (wrong_format, errno.ENOEXEC),
        (bad_interpreter, errno.ENOENT),
    ],
    ids=["missing cwd", "cwd a file", "argv too long", "wrong format", "bad interpreter"],
)
async def test_a_start_error_carries_what_the_os_said(
    fake_binary: str, tmp_path: Path, make: Callable[[Path], dict[str, Any]], code: int
) -> None:
    error = await start_error(AgentOptions(**{"binary": fake_binary, **make(tmp_path)}))
    assert isinstance(error.__cause__, OSError)
    assert error.__cause__.errno == code


# --- a crowd of runs and too few descriptors (``ulimit -n``) -----------------------------
RUNS, LIMIT = 300, 256
QUICK_CLI = """\
#!/bin/sh
sleep 3
echo '{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s"}'
"""
_crowds: dict[str, dict[str, Any]] = {}


async def crowd(backend: str, directory: Path) -> dict[str, Any]:
    """How RUNS runs at once ended in a process limited to LIMIT descriptors
    (crowd_program.py); each CLI lives 3 s, so that they overlap even when the machine is
    busy enough (tests in parallel) to take seconds over the 300 starts."""
    if backend not in _crowds:
        cli = directory / "cursor-agent"
        cli.write_text(QUICK_CLI)
        cli.chmod(0o755)
        program = [sys.executable, str(HERE / "crowd_program.py"), backend, str(cli)]
        with anyio.fail_after(300):
            done = await anyio.run_process([*program, str(RUNS), str(LIMIT)], env=fake_env())
        _crowds[backend] = json.loads(done.stdout)
    return _crowds[backend]


async def test_with_too_few_descriptors_every_run_succeeds_or_fails_to_start(
    anyio_backend: str, tmp_path: Path
) -> None:
    ended = (await crowd(anyio_backend, tmp_path))["ended"]
    assert ended["AgentStartError"] > 0  # the limit was felt
    assert set(ended) <= {"ok", "AgentStartError"}


async def test_runs_that_failed_to_start_leave_no_descriptor_open(
    anyio_backend: str, tmp_path: Path
) -> None:
    report = await crowd(anyio_backend, tmp_path)
    assert report["ended"]["AgentStartError"] > 0
    assert report["fds_after"] == report["fds_before"]
