"""Every way the CLI can fail to start is an AgentStartError that says which and how to
fix it, and leaves no descriptor open (a too-long argv is not "not installed")."""

from __future__ import annotations

import gc
import resource
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from proctable import open_fds

from agent_sdk import AgentNotFoundError, AgentOptions, AgentStartError, run_async

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]


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
