"""The CLI's whole version string on every result (docs/protocol.md §1, "Finding the binary"): read
from the install the binary runs, and the same as the CLI's own ``--version``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fake_env import clean_env, install_fake

from agent_sdk import AgentError, AgentOptions, Run, run_async, run_sync, version

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]
E373342 = "2026.10.01-e373342"
F14929 = "2026.10.01-14929f9"  # the other build of that date (docs/protocol.md §1)


def installed(
    tmp_path: Path, fake_binary: str, build: str, scenario: str = "hello"
) -> AgentOptions:
    """Options running a copy of the fake installed as release ``build``."""
    agent = install_fake(tmp_path / "home", build, fake_binary)
    return AgentOptions(binary=str(agent), env=clean_env(FAKE_AGENT_SCENARIO=scenario))


async def test_a_run_carries_the_version_its_cli_prints(tmp_path: Path, fake_binary: str) -> None:
    options = installed(tmp_path, fake_binary, E373342)
    result = await run_async("hi", options=options)
    assert result.cli_version == E373342
    assert result.cli_version == await version(options=options)  # the same as --version


async def test_a_self_update_between_two_runs_shows_on_the_second(
    tmp_path: Path, fake_binary: str
) -> None:
    options = installed(tmp_path, fake_binary, E373342)
    first = await run_async("hi", options=options)
    install_fake(tmp_path / "home", F14929, fake_binary)  # the CLI re-links itself (§1)
    second = await run_async("hi", options=options)
    assert (first.cli_version, second.cli_version) == (E373342, F14929)


async def test_a_streamed_run_knows_its_version_once_started(
    tmp_path: Path, fake_binary: str
) -> None:
    options = installed(tmp_path, fake_binary, E373342)
    async with Run("hi", options=options) as running:  # entering starts it
        async for _ in running:
            assert running.cli_version == E373342
        assert running.result.cli_version == E373342


async def test_a_failed_run_carries_it_in_its_context(tmp_path: Path, fake_binary: str) -> None:
    options = installed(tmp_path, fake_binary, F14929, "crash")
    with pytest.raises(AgentError) as caught:
        await run_async("hi", options=options)
    assert caught.value.context.cli_version == F14929


async def test_a_binary_outside_an_install_has_an_unknown_version(
    fake_options: MakeOptions,
) -> None:
    # The fake run from its package: no layout to read, and no process started to ask.
    result = await run_async("hi", options=fake_options())
    assert result.cli_version is None


def test_run_sync_carries_it_too(tmp_path: Path, fake_binary: str) -> None:
    options = installed(tmp_path, fake_binary, F14929)
    assert run_sync("hi", options=options).cli_version == F14929
